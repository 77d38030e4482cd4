"""A division's league table: read as stored, or worked out from the results that count.

The pages read the **stored** table (``DivisionTable`` and its ``TableRow``s, kept in step with
every change to what counts by ``leagues.services.standings.refresh_division_table``): a
division's page two queries whatever its size (the division with its table,
``division_for_table``; the table's rows with their teams; each built once per connection),
and a third for its adjustments when the table says there are some; no result is added up
on a render. A season's divisions together (``divisions_standings``, the league's home) take
two or three more, however many divisions there are.

``worked_out_standings`` is the table from scratch, which the refresh stores: the division's
entries, its league fixtures (not void) each marked whether its result counts
(``leagues.selectors.counting``, the one definition the chart, the statistics and every list
share: the counted ones make the table and the chart, the others are the race's fixtures
left), and its adjustments. The league night's page asks it for the table as it would stand
if every result played to the end counted (``provisional=True``), which is never stored.
A league with ``show_provisional`` counts unconfirmed results too and the rows say how many.
A withdrawn team is marked and placed below the others.
The order follows the league's tie-break list, a precedence of metric keys from
``leagues.tiebreaks.METRICS``; each key splits the teams still level on every key before it.
``head_to_head`` is a mini-table: the points the tied teams took from their matches against
each other; when it parts some of them, it is applied again to those still level (their matches
against each other only) before the next key.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db.models import Exists, Model, OuterRef, QuerySet
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from config.queries import count_of
from leagues import progression
from leagues.models import (
    Division,
    DivisionTable,
    Fixture,
    League,
    PointAdjustment,
    Season,
    TableRow,
    Team,
    TeamEntry,
    Withdrawal,
)
from leagues.selectors.counting import fixtures_with_counts
from leagues.tiebreaks import METRICS, Metric, tiebreak_rule_text
from scoring.services.compiled import CompiledRead, CompiledReadIn, CompiledRows, CompiledRowsIn

M = TypeVar("M", bound=Model)

#: Columns shown for each style, in order (the points column last).
COLUMNS: dict[str, tuple[str, ...]] = {
    League.Style.YORKSHIRE: (
        "played",
        "won",
        "drawn",
        "lost",
        "games_for",
        "games_against",
        "tables_won",
        "pegs_for",
        "pegs_against",
        "pegs_diff",
        "adjustments",
        "points",
    ),
    League.Style.TRINIDAD: (
        "played",
        "won",
        "drawn",
        "lost",
        "games_for",
        "games_against",
        "games_diff",
        "hang_jacks_for",
        "hang_jacks_against",
        "adjustments",
        "points",
    ),
}


#: Where a table plays one game, a table won is a game won: the two figures are one.
SAME_WHERE_ONE_GAME = ("games_for", "tables_won")


def table_columns(season: Season) -> list[Metric]:
    """The figures the season's tables show (``COLUMNS``), in order. Where its format plays
    one game a table, games for and tables won are the same figure: it is shown once, as the
    tie-break order names it (tables won where that comes first; games for otherwise, beside
    games against). A format with more games a table shows both."""
    league = season.league
    keys = COLUMNS[league.style]
    if "tables_won" in keys and season.get_match_format().max_games_per_table == 1:
        named = [key for key in season.get_tiebreaks() if key in SAME_WHERE_ONE_GAME]
        dropped = "games_for" if named[:1] == ["tables_won"] else "tables_won"
        keys = tuple(key for key in keys if key != dropped)
    return [METRICS[key] for key in keys]


@dataclass(frozen=True)
class MatchLine:
    """One final result, from one team's side."""

    opponent_id: int
    points: int
    result: str = ""
    """"W", "D" or "L"."""
    fixture_id: int = 0
    date: datetime.date | None = None
    """The fixture's date: the chart adds the points on that league night."""


def table_points(*, result_points: int, adjustments: int) -> int:
    """A team's points in the table: those its results earned, with its adjustments."""
    return result_points + adjustments


@dataclass(frozen=True)
class Leader:
    """A team top of its division, as the league's home lists it."""

    team_id: int
    name: str
    """The team's name that season."""
    points: int


@dataclass
class StandingRow:
    entry: TeamEntry
    team: Team
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    games_for: int = 0
    games_against: int = 0
    tables_won: int = 0
    pegs_for: int = 0
    pegs_against: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    match_points: int = 0
    result_points: int = 0
    """Points from results, before adjustments."""
    adjustments: int = 0
    head_to_head: int | None = None
    """Points against the teams it was tied with, when head-to-head was needed to part them."""
    position: int = 0
    tied: bool = False
    """Level with the row above or below on every tie-break: the place is shared."""
    matches: list[MatchLine] = field(default_factory=list, repr=False)
    provisional: int = 0
    """Results counted that are not yet confirmed (only when the league shows them)."""
    form: str = ""
    """The last five counted results as marks ("W", "D", "L"), oldest first."""
    nights: list[int] = field(default_factory=list, repr=False)
    """The points gained on each of the table's league nights (``Standings.nights``), in
    order (the chart)."""

    @property
    def withdrawn(self) -> bool:
        return self.entry.is_withdrawn

    @property
    def points(self) -> int:
        return table_points(result_points=self.result_points, adjustments=self.adjustments)

    @property
    def games_diff(self) -> int:
        return self.games_for - self.games_against

    @property
    def pegs_diff(self) -> int:
        return self.pegs_for - self.pegs_against

    def metric(self, key: str) -> int:
        """A figure of the row by its key; one it has none of (head-to-head where it was not
        needed) is 0."""
        value = getattr(self, key)
        return 0 if value is None else value

    def metrics(self, keys: Sequence[str]) -> list[int]:
        """The figures of ``keys``, in order, as ``metric`` gives each (read here, not by a
        call of it for each: a 100-team table asks for twelve figures of each row)."""
        return [0 if (value := getattr(self, key)) is None else value for key in keys]


@dataclass
class Standings:
    division: Division
    league: League
    rows: list[StandingRow]
    tiebreaks: list[str]
    rule_text: str
    columns: list[Metric]
    adjustments: list[PointAdjustment]
    """Every adjustment in the division, for the notes under the table."""
    counted: int = 0
    """How many league fixtures the table counts."""
    remaining: list[tuple[int, int]] = field(default_factory=list)
    """The league fixtures, not void, whose results it does not count yet, as (home team id,
    away team id): the ones left to play or to confirm (``leagues.selectors.race``)."""
    nights: list[datetime.date] = field(default_factory=list)
    """The league nights with a counted result, in order: each row's ``nights`` are its
    points on these (a number a night, not a date a point: a 100-team table has 198 nights)."""
    band: list[tuple[datetime.date, int, int]] = field(default_factory=list)
    """In a division of more than ``BAND_ABOVE`` teams, its teams' lowest and highest points
    after each day of the chart (``leagues.progression.band``); as stored, its rows come
    without their points a night (``with_nights`` reads the few the chart draws)."""
    row_nights: bool = True
    """Whether the rows carry their points a night (``StandingRow.nights``)."""

    @property
    def column_keys(self) -> list[str]:
        return [metric.key for metric in self.columns]


def _head_to_head(group: Sequence[StandingRow]) -> dict[int, int]:
    ids = {row.team.pk for row in group}
    return {
        row.team.pk: sum(line.points for line in row.matches if line.opponent_id in ids)
        for row in group
    }


def _value_getter(key: str, group: Sequence[StandingRow]) -> Callable[[StandingRow], int]:
    if key == "head_to_head":
        mini_table = _head_to_head(group)
        for row in group:
            row.head_to_head = mini_table[row.team.pk]
        return lambda row: mini_table[row.team.pk]
    return lambda row: row.metric(key)


def _order(group: list[StandingRow], keys: Sequence[str]) -> list[list[StandingRow]]:
    """The group split into runs of teams level on every key, best first."""
    if len(group) <= 1 or not keys:
        return [sorted(group, key=lambda row: row.team.name)] if group else []
    key, rest = keys[0], keys[1:]
    value = _value_getter(key, group)
    sign = 1 if METRICS[key].higher_is_better else -1
    buckets: dict[int, list[StandingRow]] = defaultdict(list)
    for row in group:
        buckets[value(row)].append(row)
    ordered: list[list[StandingRow]] = []
    for level in sorted(buckets, key=lambda v: -sign * v):
        bucket = buckets[level]
        if key == "head_to_head" and 1 < len(bucket) < len(group):
            # Head-to-head parted some of the teams: it is applied again among those still
            # level, on their matches against each other only, before the next key.
            ordered.extend(_order(bucket, keys))
        else:
            ordered.extend(_order(bucket, rest))
    return ordered


def rank_rows(rows: Iterable[StandingRow], tiebreaks: Sequence[str]) -> list[StandingRow]:
    """Order rows by the tie-break precedence and number their places (ties share one);
    withdrawn teams come last, in the same order among themselves."""
    ranked: list[StandingRow] = []
    rows = list(rows)
    runs = _order([r for r in rows if not r.withdrawn], list(tiebreaks)) + _order(
        [r for r in rows if r.withdrawn], list(tiebreaks)
    )
    for run in runs:
        position = len(ranked) + 1
        for row in run:
            row.position = position
            row.tied = len(run) > 1
        ranked.extend(run)
    return ranked


RESULT_FIELDS = (
    "pk",
    "date",
    "provisional",
    "home_id",
    "away_id",
    "result__outcome",
    "result__home_tables",
    "result__away_tables",
    "result__home_games",
    "result__away_games",
    "result__home_pegs",
    "result__away_pegs",
    "result__home_hang_jacks",
    "result__away_hang_jacks",
    "result__home_match_points",
    "result__away_match_points",
    "result__home_points",
    "result__away_points",
)
FIXTURE_FIELDS = (*RESULT_FIELDS, "counts", "division_id")
"""A league fixture as the table reads it, a tuple (a 100-team division has 9,900): its result's
figures, whether the result counts, its division."""


def _add(
    row: StandingRow,
    line: MatchLine,
    figures: tuple[int, int, int, int, int, int, int, int],
    provisional: bool,
) -> None:
    """One result, from ``row``'s side: ``figures`` are its games for and against, tables won,
    pegs for and against, hang jacks for and against, and match points."""
    games_for, games_against, tables_won, pegs_for, pegs_against, hj_for, hj_against, mp = figures
    row.played += 1
    if line.result == "W":
        row.won += 1
    elif line.result == "D":
        row.drawn += 1
    else:
        row.lost += 1
    row.games_for += games_for
    row.games_against += games_against
    row.tables_won += tables_won
    row.pegs_for += pegs_for
    row.pegs_against += pegs_against
    row.hang_jacks_for += hj_for
    row.hang_jacks_against += hj_against
    row.match_points += mp
    row.result_points += line.points
    row.matches.append(line)
    if provisional:
        row.provisional += 1


def _count_results(rows: dict[int, StandingRow], results: Iterable[tuple[Any, ...]]) -> set[int]:
    """Add each result (``FIXTURE_FIELDS``, in date order) to both teams' rows; the fixtures
    counted. A team moved out of the division keeps its results off this table."""
    counted: set[int] = set()
    for (
        pk,
        day,
        provisional,
        home_id,
        away_id,
        outcome,
        home_tables,
        away_tables,
        home_games,
        away_games,
        home_pegs,
        away_pegs,
        home_hj,
        away_hj,
        home_mp,
        away_mp,
        home_points,
        away_points,
        _counts,
        _division,
    ) in results:
        counted.add(pk)
        for row, side, opponent, points, figures in (
            (
                rows.get(home_id),
                "home",
                away_id,
                home_points,
                (home_games, away_games, home_tables, home_pegs, away_pegs, home_hj, away_hj)
                + (home_mp,),
            ),
            (
                rows.get(away_id),
                "away",
                home_id,
                away_points,
                (away_games, home_games, away_tables, away_pegs, home_pegs, away_hj, home_hj)
                + (away_mp,),
            ),
        ):
            if row is not None:
                mark = "D" if outcome == "draw" else "W" if outcome == side else "L"
                _add(row, MatchLine(opponent, points, mark, pk, day), figures, provisional)
    for row in rows.values():
        row.form = "".join(line.result for line in row.matches[-5:])
    return counted


def _nights(rows: Iterable[StandingRow]) -> list[datetime.date]:
    """The league nights of the rows' counted results, in order; each row's ``nights`` set to
    its points on each of them."""
    rows = list(rows)
    nights = sorted({line.date for row in rows for line in row.matches if line.date is not None})
    at = {night: i for i, night in enumerate(nights)}
    for row in rows:
        row.nights = [0] * len(nights)
        for line in row.matches:
            if line.date is not None:
                row.nights[at[line.date]] += line.points
    return nights


def _leaders_shape(season_id: int) -> QuerySet[Any]:
    return (
        TableRow.objects.filter(
            table__division__season=season_id,
            table__counted__gt=0,
            position=1,
            entry__withdrawn_on__isnull=True,
        )
        .order_by("entry__team__name")
        .values_list(
            "table",
            "entry__team",
            "entry__name",
            "entry__team__name",
            "result_points",
            "adjustments",
        )
    )


#: The first places of a season's tables, by a query built once per connection
#: (``scoring.services.compiled``).
_leaders_read = CompiledRows(_leaders_shape)


def divisions_leaders(*, divisions: Sequence[Division]) -> list[list[Leader]]:
    """The team or teams top of each of a season's divisions (level on every tie-break, they
    share the place; a withdrawn team is not a leader), none before a result counts in it (its
    table's ``counted``); in the divisions' order. One query however many there are, reading
    only the figures of the stored rows in first place of the season's tables: the home of a
    league of 100 divisions reads 100 rows, not 1,000 with their adjustments."""
    if not divisions:
        return []
    season = divisions[0].season_id
    if any(division.season_id != season for division in divisions):
        raise ValueError("the divisions are not all of one season")
    top: dict[int, list[Leader]] = {division.pk: [] for division in divisions}
    for table, team, entry_name, team_name, result_points, adjustments in _leaders_read.rows(
        season
    ):
        points = table_points(result_points=result_points, adjustments=adjustments)
        if table in top:
            top[table].append(Leader(team_id=team, name=entry_name or team_name, points=points))
    return [top[division.pk] for division in divisions]


def divisions_for_tables() -> QuerySet[Division]:
    """Divisions as their standings and race read them: each with its season and league, its
    stored table (``division.table``, none before the first refresh), and whether a division
    of its season ranks above it and one below (``has_division_above``,
    ``has_division_below``: the race's moving places), all in the division's one query."""
    season_divisions = Division.objects.filter(season=OuterRef("season"))
    return Division.objects.select_related("season__league", "table").annotate(
        has_division_above=Exists(season_divisions.filter(rank__lt=OuterRef("rank"))),
        has_division_below=Exists(season_divisions.filter(rank__gt=OuterRef("rank"))),
    )


#: A division as its page reads it, by a query built once per connection
#: (``scoring.services.compiled``).
_division_read = CompiledRead(lambda pk: divisions_for_tables().filter(pk=pk))


def division_for_table(*, pk: int) -> Division:
    """The division with this id as its standings read it (``divisions_for_tables``); raises
    ``Division.DoesNotExist``."""
    return _division_read.one(pk)


def division_standings(*, division: Division | int) -> Standings:
    """The league table of a division as stored, ordered by the league's tie-breaks. A
    division is taken as it is (read by ``division_for_table``, none of it is read again); a
    pk is read so."""
    if isinstance(division, int):
        division = division_for_table(pk=division)
    return divisions_standings(divisions=[division])[0]


def _entry_row_shape(entry_id: int) -> QuerySet[TableRow]:
    return (
        TableRow.objects.filter(entry=entry_id)
        .defer("nights")
        .annotate(teams=count_of(TableRow.objects.all(), field="table", outer="table"))
    )


#: A team page's row, by a query built once per connection (``scoring.services.compiled``).
_entry_row_read = CompiledRead(_entry_row_shape)


def entry_standing(*, entry: TeamEntry) -> tuple[StandingRow | None, int]:
    """The entry's row of its division's stored table (without its points per league night)
    and the number of teams in that table, in one query; (None, 0) before it has one. The row
    is given ``entry`` itself, whose team is read with it (as ``team.entries`` gives it)."""
    stored = next(
        (row for row in _entry_row_read.rows(entry.pk) if row.table_id == entry.division_id),
        None,
    )
    if stored is None:
        return None, 0
    stored.entry = entry
    return _row(stored, nights=False), stored.teams


def season_standings(*, season: Season) -> list[Standings]:
    """The tables of the season's divisions, top division first (three queries); their
    ``remaining`` together are the league fixtures still to count."""
    divisions = season.divisions.select_related("season__league").order_by("rank", "name")
    return divisions_standings(divisions=list(divisions))


#: A stored row's entry and its team, every column as the model has them (``_row`` makes the
#: two model instances from them, the entry's team set).
_ENTRY_COLUMNS = tuple(field.attname for field in TeamEntry._meta.concrete_fields)
_TEAM_COLUMNS = tuple(field.attname for field in Team._meta.concrete_fields)


def _rows_shape(divisions: list[int], *, nights: bool = True) -> QuerySet[TableRow]:
    """The divisions' stored rows as values: the table, the figures (``STORED_FIGURES``), the
    points per league night where wanted, the entry's columns and its team's. Values, not
    ``TableRow`` instances with their entries and teams: a 100-team table is read in half the
    time."""
    return TableRow.objects.filter(table__in=divisions).values_list(
        "table_id",
        *STORED_FIGURES,
        *(("nights",) if nights else ()),
        *(f"entry__{name}" for name in _ENTRY_COLUMNS),
        *(f"entry__team__{name}" for name in _TEAM_COLUMNS),
    )


#: The divisions' stored tables, their rows with their teams (with and without the points per
#: league night) and their adjustments, each by a query built once per connection and number
#: of divisions (``scoring.services.compiled``).
_tables_read = CompiledReadIn(lambda divisions: DivisionTable.objects.filter(pk__in=divisions))
_rows_read = CompiledRowsIn(_rows_shape)
_rows_without_nights_read = CompiledRowsIn(lambda divisions: _rows_shape(divisions, nights=False))
_nights_read = CompiledRowsIn(
    lambda entries: TableRow.objects.filter(entry__in=entries).values_list("entry_id", "nights")
)


def divisions_standings(
    *,
    divisions: Sequence[Division],
    provisional: bool | None = None,
    nights: bool = True,
    adjustments: bool = True,
) -> list[Standings]:
    """The league tables of the divisions (each with its season and league loaded), in their
    order: however many there are, one query for their stored tables (none where they were
    read with them, ``divisions_for_tables``), one for their rows and one for their
    adjustments (none where the tables count none). Stored, unless ``provisional=True``: as they
    would stand if every result played to the end counted, confirmed or not (the league
    night's table, worked out). ``nights=False``: without the points per league night (only
    the chart reads them; the league's home has none). ``adjustments=False``: without the
    list of adjustments, no query for them (only the division's notes list them; the league's
    home marks the totals with one in them, which the rows' own figures say)."""
    if provisional:
        return worked_out_standings(divisions=divisions, provisional=True)
    ids = [division.pk for division in divisions]
    # As read with the divisions (``divisions_for_tables``), else in one query.
    tables = {
        division.pk: _stored_table(division)
        for division in divisions
        if Division.table.is_cached(division)
    }
    unread = [pk for pk in ids if pk not in tables]
    tables.update({pk: None for pk in unread})
    tables.update({table.pk: table for table in _tables_read.rows(unread)})
    # The points a night of a table with a band are read for the few lines drawn over it
    # (``with_nights``), not for every team.
    row_nights = nights and not all(table is not None and table.band for table in tables.values())
    rows: dict[int, list[StandingRow]] = {pk: [] for pk in ids}
    for stored in (_rows_read if row_nights else _rows_without_nights_read).rows(ids):
        rows[stored[0]].append(_stored_row(stored, nights=row_nights))
    listed = _adjustments(
        [pk for pk, table in tables.items() if adjustments and table is not None and table.adjusted]
    )
    standings = []
    for division in divisions:
        table = tables[division.pk]
        league = division.season.league
        tiebreaks = division.season.get_tiebreaks()
        standings.append(
            Standings(
                division=division,
                league=league,
                rows=sorted(rows[division.pk], key=lambda row: (row.position, row.team.name)),
                tiebreaks=tiebreaks,
                rule_text=tiebreak_rule_text(tiebreaks, league.style),
                columns=table_columns(division.season),
                adjustments=listed.get(division.pk, []),
                counted=table.counted if table else 0,
                remaining=[(home, away) for home, away in table.remaining] if table else [],
                nights=[datetime.date.fromisoformat(night) for night in table.nights]
                if table and nights
                else [],
                band=[
                    (datetime.date.fromisoformat(day), lowest, highest)
                    for day, lowest, highest in table.band
                ]
                if table and nights
                else [],
                row_nights=row_nights,
            )
        )
    return standings


def with_nights(standings: Standings, *, teams: Iterable[int]) -> None:
    """Give the rows of ``teams`` their points a night where the table was read without them
    (a table with a band: ``divisions_standings``): one query, none where they were read."""
    if standings.row_nights:
        return
    wanted = {row.entry.pk: row for row in standings.rows if row.team.pk in set(teams)}
    for entry, nights in _nights_read.rows(sorted(wanted)):
        wanted[entry].nights = nights


#: The figures a ``TableRow`` stores, as ``StandingRow`` has them, in its order (``_stored_row``
#: gives it the first ``_IN_ORDER`` of them as they come, after its entry and team).
STORED_FIGURES = (
    "played",
    "won",
    "drawn",
    "lost",
    "games_for",
    "games_against",
    "tables_won",
    "pegs_for",
    "pegs_against",
    "hang_jacks_for",
    "hang_jacks_against",
    "match_points",
    "result_points",
    "adjustments",
    "head_to_head",
    "position",
    "tied",
    "provisional",
    "form",
)
_IN_ORDER = STORED_FIGURES.index("tied") + 1


def _row(stored: TableRow, *, nights: bool) -> StandingRow:
    entry = stored.entry
    return StandingRow(
        entry=entry,
        team=entry.team,
        nights=stored.nights if nights else [],
        **{name: getattr(stored, name) for name in STORED_FIGURES},
    )


_FIGURES_END = 1 + len(STORED_FIGURES)
_team_of_entry = TeamEntry.team.field


def _made(model: type[M], columns: tuple[str, ...], values: Sequence[Any]) -> M:
    """An instance of ``model`` from the values of all its columns (``columns``, its concrete
    fields' in order), as ``Model.from_db`` makes it: its state not adding and of the default
    database, its fields' values in its ``__dict__``. Without ``__init__``, which sets each
    field through its descriptor (a foreign key's checks whether a related object is cached,
    which none is), 20% of its time: a 100-team table makes 200. Where a model signal of an
    instance's making has a receiver (none has: the app connects none), by ``from_db``."""
    if pre_init.receivers or post_init.receivers:
        return model.from_db("default", columns, values)
    made = model.__new__(model)
    state = made._state = ModelState()
    state.adding, state.db = False, "default"
    made.__dict__.update(zip(columns, values, strict=True))
    return made


def _stored_row(stored: tuple[Any, ...], *, nights: bool) -> StandingRow:
    """A row of ``_rows_shape``'s values as the table's row: its entry and team made as the
    ORM makes them (``_made``), the entry's team set."""
    start = _FIGURES_END + 1 if nights else _FIGURES_END
    end = start + len(_ENTRY_COLUMNS)
    entry = _made(TeamEntry, _ENTRY_COLUMNS, stored[start:end])
    team = _made(Team, _TEAM_COLUMNS, stored[end:])
    _team_of_entry.set_cached_value(entry, team)
    return StandingRow(
        entry,
        team,
        *stored[1 : 1 + _IN_ORDER],
        provisional=stored[_IN_ORDER + 1],
        form=stored[_IN_ORDER + 2],
        nights=stored[_FIGURES_END] if nights else [],
    )


def stored_figures(row: StandingRow) -> dict[str, Any]:
    """What a ``TableRow`` stores of ``row`` (the refresh writes it, the tests compare it)."""
    figures = {name: getattr(row, name) for name in STORED_FIGURES}
    figures["nights"] = row.nights
    return figures


def _stored_table(division: Division) -> DivisionTable | None:
    try:
        return division.table
    except DivisionTable.DoesNotExist:
        return None


def _adjustments_shape(divisions: list[int]) -> QuerySet[PointAdjustment]:
    return (
        PointAdjustment.objects.filter(entry__division__in=divisions)
        .select_related("entry__team", "fixture")
        .order_by("made_at", "pk")
    )


_adjustments_read = CompiledReadIn(_adjustments_shape)


def _adjustments(ids: list[int]) -> dict[int, list[PointAdjustment]]:
    """The divisions' adjustments, oldest first."""
    adjustments: dict[int, list[PointAdjustment]] = {pk: [] for pk in ids}
    for adjustment in _adjustments_read.rows(ids):
        adjustments[adjustment.entry.division_id].append(adjustment)
    return adjustments


def worked_out_standings(
    *, divisions: Sequence[Division], provisional: bool | None = None
) -> list[Standings]:
    """The league tables of the divisions worked out from the results that count (what
    ``divisions_standings`` reads as stored): four queries however many there are.
    ``provisional`` as ``counting.counts_q`` takes it."""
    ids = [division.pk for division in divisions]
    rows: dict[int, dict[int, StandingRow]] = {pk: {} for pk in ids}
    for entry in TeamEntry.objects.filter(division__in=ids).select_related("team"):
        rows[entry.division_id][entry.team_id] = StandingRow(entry=entry, team=entry.team)
    # A team withdrawn with its results expunged: its fixtures never count, so none is left.
    expunged = {
        (pk, team)
        for pk, division_rows in rows.items()
        for team, row in division_rows.items()
        if row.entry.withdrawal == Withdrawal.EXPUNGE
    }

    results: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in ids}
    remaining: dict[int, list[tuple[int, int]]] = {pk: [] for pk in ids}
    fixtures = fixtures_with_counts(
        Fixture.objects.filter(division__in=ids, kind=Fixture.Kind.LEAGUE).exclude(
            status=Fixture.Status.VOID
        ),
        provisional=provisional,
    )
    # In date order, so that each team's results end with its latest.
    for fixture in fixtures.order_by("date", "time", "pk").values_list(*FIXTURE_FIELDS):
        division, home, away = fixture[-1], fixture[3], fixture[4]
        if fixture[-2]:
            results[division].append(fixture)
        elif (division, home) not in expunged and (division, away) not in expunged:
            remaining[division].append((home, away))

    adjustments = _adjustments(ids)
    return [
        _standings(
            division,
            rows[division.pk],
            results[division.pk],
            remaining[division.pk],
            adjustments[division.pk],
        )
        for division in divisions
    ]


def adjustments_made(
    adjustments: Iterable[PointAdjustment], *, zone: str
) -> list[progression.Made]:
    """The adjustments as the chart counts them, each on the day it was made where the league
    plays (``leagues.progression.adjustments_made``)."""
    return progression.adjustments_made(
        (
            (adjustment.made_at, adjustment.entry.team_id, adjustment.points)
            for adjustment in adjustments
        ),
        zone=zone,
    )


def _standings(
    division: Division,
    rows: dict[int, StandingRow],
    results: list[tuple[Any, ...]],
    remaining: list[tuple[int, int]],
    adjustments: list[PointAdjustment],
) -> Standings:
    league = division.season.league
    counted_ids = _count_results(rows, results)
    for adjustment in adjustments:
        row = rows.get(adjustment.entry.team_id)
        if row is not None:
            row.adjustments += adjustment.points

    nights = _nights(rows.values())
    tiebreaks = division.season.get_tiebreaks()
    ranked = rank_rows(rows.values(), tiebreaks)
    return Standings(
        division=division,
        league=league,
        nights=nights,
        band=progression.band(
            weekly={row.team.pk: row.nights for row in ranked},
            nights=nights,
            made=adjustments_made(adjustments, zone=league.time_zone),
        ),
        rows=ranked,
        tiebreaks=tiebreaks,
        rule_text=tiebreak_rule_text(tiebreaks, league.style),
        columns=table_columns(division.season),
        adjustments=adjustments,
        counted=len(counted_ids),
        remaining=remaining,
    )
