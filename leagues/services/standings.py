"""The stored league tables, kept in step with the results that count.

``refresh_division_table`` works a division's table out from its results
(``leagues.selectors.standings.worked_out_standings``, through the one definition of what
counts) and stores it: each team's figures, place (head-to-head included), last five and
points per league night, the fixtures counted and those left, how many adjustments there
are (a page reads them only when there are some) and, in a big division, the chart's band
(``leagues.progression``). It runs inside the transaction of every
change to what counts (a result stored, confirmed, settled, reopened or corrected; a
walkover, a void, a pending walkover whose date has come (``settle_due_walkovers``); an
adjustment made or withdrawn; a team withdrawn, reinstated, entered or
moved; the tie-breaks, the match format or the provisional setting changed), after the
change, holding the table's lock, so two changes in one division one after the other each
see the other's. Only the rows whose figures moved are written.

``store_result_standing`` stores on a result whether it is confirmed and whether it is expunged
(``leagues.selectors.counting.result_standing``), which every list and table filters on, and
whether a side has submitted it and whether the other side disputes it (which the lists' marks
read), where
either can change: for the fixture whose result or agreement changed (``refresh_fixture_table``,
a cup tie's too, before its table), for every result of a team withdrawn or reinstated
(``refresh_entry_tables``), and for every result when the tables are rebuilt.

``rebuild_tables`` (``manage.py rebuild_standings``) does it for every division, and stores
the pairs' figures at their tables again (``leagues.services.figures``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from leagues.models import (
    Division,
    DivisionTable,
    Fixture,
    FixtureResult,
    FixtureTable,
    League,
    Season,
    TableRow,
    TeamEntry,
)
from leagues.progression import BAND_ABOVE
from leagues.selectors.counting import STANDING, result_standing
from leagues.selectors.standings import stored_figures, worked_out_standings
from leagues.services.figures import store_figures
from scoring.models import GameStatus


def _locked_table(division: Division) -> DivisionTable:
    """The division's stored table, created if it has none yet, locked for this transaction."""
    try:
        return DivisionTable.objects.select_for_update().get(pk=division.pk)
    except DivisionTable.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            DivisionTable.objects.create(division=division)
    except IntegrityError:  # another transaction made it first
        pass
    return DivisionTable.objects.select_for_update().get(pk=division.pk)


def store_result_standing(*, fixtures: QuerySet[Fixture]) -> int:
    """Store on each result of ``fixtures`` whether it is confirmed, whether it is expunged,
    whether a side has submitted it and whether it is disputed, as its submissions and its
    teams' entries now have it; the number of results changed."""
    standing = result_standing(fixtures)
    # The fixtures as a subquery and the writes in batches: a rebuild of every league reads and
    # may change tens of thousands of results, past the 65,535 parameters PostgreSQL takes in
    # one statement.
    changed = [
        result
        for result in FixtureResult.objects.filter(fixture__in=fixtures).only(
            "pk", "fixture_id", *STANDING
        )
        if result.fixture_id in standing
        and tuple(getattr(result, name) for name in STANDING) != standing[result.fixture_id]
    ]
    for result in changed:
        for name, value in zip(STANDING, standing[result.fixture_id], strict=True):
            setattr(result, name, value)
    FixtureResult.objects.bulk_update(changed, list(STANDING), batch_size=1000)
    return len(changed)


@transaction.atomic
def refresh_division_table(*, division: Division | int) -> DivisionTable:
    """Store the division's table as its results now stand (see the module's doc)."""
    division_id = division if isinstance(division, int) else division.pk
    division = Division.objects.select_related("season__league").get(pk=division_id)
    table = _locked_table(division)
    standings = worked_out_standings(divisions=[division])[0]

    wanted = {row.entry.pk: stored_figures(row) for row in standings.rows}
    existing = {
        row.entry_id: row
        for row in TableRow.objects.filter(Q(table=table) | Q(entry__in=list(wanted)))
    }
    TableRow.objects.filter(table=table).exclude(entry__in=list(wanted)).delete()
    changed: list[TableRow] = []
    fields: set[str] = set()
    new: list[TableRow] = []
    for entry_id, figures in wanted.items():
        row = existing.get(entry_id)
        if row is None:
            new.append(TableRow(table=table, entry_id=entry_id, **figures))
            continue
        moved = _differences(row, table, figures)
        if moved:
            for name in moved:
                setattr(row, name, table if name == "table" else figures[name])
            fields.update(moved)
            changed.append(row)
    if changed:
        TableRow.objects.bulk_update(changed, sorted(fields))
    if new:
        TableRow.objects.bulk_create(new)

    remaining = [[home, away] for home, away in standings.remaining]
    nights = [night.isoformat() for night in standings.nights]
    band = [[day.isoformat(), lowest, highest] for day, lowest, highest in standings.band]
    if (
        table.counted != standings.counted
        or table.remaining != remaining
        or table.nights != nights
        or table.adjusted != len(standings.adjustments)
        or table.band != band
        or changed
        or new
    ):
        table.counted = standings.counted
        table.remaining = remaining
        table.nights = nights
        table.adjusted = len(standings.adjustments)
        table.band = band
        table.refreshed_at = timezone.now()
        table.save(
            update_fields=["counted", "remaining", "nights", "adjusted", "band", "refreshed_at"]
        )
    return table


def _differences(row: TableRow, table: DivisionTable, figures: dict[str, Any]) -> list[str]:
    moved = [name for name, value in figures.items() if getattr(row, name) != value]
    if row.table_id != table.pk:  # the team moved here from another division
        moved.append("table")
    return moved


def refresh_tables(*, divisions: Iterable[Division | int | None]) -> None:
    """``refresh_division_table`` for each of the divisions (once each, None skipped)."""
    seen: set[int] = set()
    for division in divisions:
        pk = division if isinstance(division, int) or division is None else division.pk
        if pk is not None and pk not in seen:
            seen.add(pk)
            refresh_division_table(division=pk)


def refresh_fixture_table(*, fixture: Fixture) -> None:
    """The table a league fixture's result counts in (a cup tie's fixture counts in none: its
    result's standing alone is stored)."""
    store_result_standing(fixtures=Fixture.objects.filter(pk=fixture.pk))
    if fixture.kind == Fixture.Kind.LEAGUE and fixture.division_id is not None:
        refresh_division_table(division=fixture.division_id)


def refresh_entry_tables(*, entry: TeamEntry) -> None:
    """A team's entry was withdrawn or reinstated: the standing of each of its results this
    season (a cup tie's in another division too), then its division's table."""
    store_result_standing(
        fixtures=Fixture.objects.filter(division__season=entry.season_id).filter(
            Q(home=entry.team_id) | Q(away=entry.team_id)
        )
    )
    refresh_division_table(division=entry.division_id)


def refresh_season_tables(*, season: Season | int) -> None:
    """Every division's table of the season (its tie-breaks or match format changed)."""
    refresh_tables(divisions=Division.objects.filter(season=season).values_list("pk", flat=True))


def refresh_league_tables(*, league: League | int) -> None:
    """Every division's table of the league (its tie-breaks, match format or provisional
    setting changed)."""
    refresh_tables(
        divisions=Division.objects.filter(season__league=league).values_list("pk", flat=True)
    )


def rebuild_tables(*, leagues: Iterable[League] | None = None, missing: bool = False) -> int:
    """Work every division's table (of ``leagues``, or all; only those with none stored yet
    when ``missing``, or a big division's stored before its chart's band was: migration
    0044) out again from its results; the number of divisions."""
    divisions = Division.objects.all()
    if leagues is not None:
        divisions = divisions.filter(season__league__in=list(leagues))
    if missing:
        unbanded = Q(table__counted__gt=0, table__band=[], teams__gt=BAND_ABOVE)
        divisions = divisions.annotate(teams=Count("entries")).filter(
            Q(table__isnull=True) | unbanded
        )
    pks = list(divisions.order_by("pk").values_list("pk", flat=True))
    store_result_standing(fixtures=Fixture.objects.filter(division__in=pks))
    for pk in pks:
        refresh_division_table(division=pk)
    # The pairs' figures at the tables (the player statistics read them): the rebuilt
    # divisions' fixtures, and with ``missing`` every fixture with a finished game and none,
    # or a table from the score card naming who sat at it and none (on a night its phone
    # tables have theirs).
    played = Fixture.objects.filter(division__in=pks)
    if missing:
        card_unstored = Q(tables__source=FixtureTable.Source.CARD, tables__figures__isnull=True) & (
            Q(tables__home_player_1__isnull=False) | Q(tables__away_player_1__isnull=False)
        )
        played = Fixture.objects.filter(
            Q(division__in=pks)
            | Q(tables__games__game__status=GameStatus.WON, pair_figures__isnull=True)
            | card_unstored
        )
    ids = sorted(set(played.values_list("pk", flat=True)))
    for start in range(0, len(ids), 500):
        store_figures(fixtures=ids[start : start + 500])
    return len(pks)
