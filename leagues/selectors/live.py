"""A league night as it stands: each fixture's tables with the game in play (score, hand,
who deals), and the divisions' tables as they would stand if every result played to the end
counted. Read by the fixture page and the league night's page (``leagues.views.live``)."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Prefetch

from leagues.models import Division, Fixture, League, Season
from leagues.selectors.counting import fixtures_with_standing
from leagues.selectors.fixtures import FIXTURE_RELATED, fixture_tables, league_current_season
from leagues.selectors.standings import Standings, divisions_standings

#: The fixtures a league night shows: those to be played or played that night.
ON_THE_NIGHT = (Fixture.Status.SCHEDULED, Fixture.Status.PLAYED, Fixture.Status.WALKOVER)


def last_change(fixtures: Iterable[Fixture]) -> datetime.datetime | None:
    """When anything shown of ``fixtures`` last changed: a hand at one of their tables, or a
    result worked out (from their prefetched tables, games and results)."""
    moments: list[datetime.datetime] = []
    for fixture in fixtures:
        result = getattr(fixture, "result", None)
        if result is not None:
            moments.append(result.computed_at)
        for table in fixture.tables.all():
            moments.extend(table_game.game.updated_at for table_game in table.games.all())
    return max(moments, default=None)


#: How far a fixture's match has got (``match_progress``).
NOT_STARTED, IN_PLAY, FINISHED = "not started", "in play", "finished"
#: A fixture still to be decided whose night has passed with no game begun: its result is to
#: come (from the score card). What the fixture page says for it (the desk's heading too).
NO_RESULT = "no result yet"
NO_RESULT_WORDS = "Played, no result yet"


def match_progress(fixture: Fixture, today: datetime.date | None = None) -> str:
    """How far the fixture's match has got, from its prefetched tables, their games and its
    result: the one reading of the fixture page's status and the league night's counts.
    ``FINISHED`` once it is played to the end (every table decided: its result is final);
    ``IN_PLAY`` while a game has begun at one of its tables (or a result is worked out) and
    not every table is decided; ``NOT_STARTED`` before that (no pairs seated, or the score
    card still to come); "" for a fixture not played on its night (a walkover, postponed or
    void). Given the league's ``today``, a fixture not started whose night has passed is
    ``NO_RESULT`` (one of the desk's ``results_missing``), not ``NOT_STARTED``."""
    if fixture.status not in (Fixture.Status.SCHEDULED, Fixture.Status.PLAYED):
        return ""
    result = getattr(fixture, "result", None)
    if fixture.status == Fixture.Status.PLAYED or (result is not None and result.is_final):
        return FINISHED
    if result is not None or any(table.games.all() for table in fixture.tables.all()):
        return IN_PLAY
    if today is not None and fixture.date < today:
        return NO_RESULT
    return NOT_STARTED


def follows_tables(fixture: Fixture, progress: str, today: datetime.date) -> bool:
    """Whether the fixture's page follows its tables by itself (polls them): on its night
    (the league's ``today``) or while a game of it is in play (``match_progress``), and
    never once it is decided."""
    return fixture.status == Fixture.Status.SCHEDULED and (
        fixture.date == today or progress == IN_PLAY
    )


def night_of(*, league: League, today: datetime.date) -> datetime.date | None:
    """``today`` when the league's current season has a fixture that night, else None."""
    season = league_current_season(league=league)
    if season is None:
        return None
    tonight = Fixture.objects.filter(division__season=season, date=today, status__in=ON_THE_NIGHT)
    return today if tonight.exists() else None


@dataclass
class Night:
    """What the league night's page shows."""

    league: League
    season: Season | None
    date: datetime.date
    fixtures: list[Fixture]
    standings: list[Standings] = field(default_factory=list)
    last_change: datetime.datetime | None = None

    @functools.cached_property
    def _progress(self) -> list[str]:
        """How far each of the night's fixtures has got (``match_progress``; worked out once,
        for the three counts)."""
        return [match_progress(fixture) for fixture in self.fixtures]

    @property
    def in_play(self) -> int:
        """How many of the night's fixtures are under way: a game begun at one of their tables,
        not yet finished."""
        return self._progress.count(IN_PLAY)

    @property
    def not_started(self) -> int:
        """How many of the night's fixtures have no game begun yet (no pairs seated, or the
        score card still to come)."""
        return self._progress.count(NOT_STARTED)

    @property
    def finished(self) -> int:
        """How many of the night's fixtures are played to the end (every table decided)."""
        return self._progress.count(FINISHED)


def league_night(*, league: League, date: datetime.date) -> Night:
    """The league's fixtures on ``date`` (its current season), each with its tables and games,
    and the tables of their divisions as they would stand: four queries for the fixtures and
    three for the tables, however many there are."""
    season = league_current_season(league=league)
    if season is None:
        return Night(league=league, season=None, date=date, fixtures=[])
    fixtures = list(
        fixtures_with_standing(
            Fixture.objects.filter(division__season=season, date=date, status__in=ON_THE_NIGHT)
        )
        .select_related(*FIXTURE_RELATED)
        .prefetch_related(Prefetch("tables", queryset=fixture_tables()))
        .order_by("division__rank", "division__name", "time", "pk")
    )
    ids = {fixture.division_id for fixture in fixtures if fixture.kind == Fixture.Kind.LEAGUE}
    divisions = list(
        Division.objects.filter(pk__in=ids)
        .select_related("season__league")
        .order_by("rank", "name")
    )
    return Night(
        league=league,
        season=season,
        date=date,
        fixtures=fixtures,
        standings=divisions_standings(divisions=divisions, provisional=True),
        last_change=last_change(fixtures),
    )
