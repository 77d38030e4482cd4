"""A league night as it stands: each fixture's tables with the game in play (score, hand,
who deals), and the divisions' tables as they would stand if every result played to the end
counted. Read by the fixture page and the league night's page (``leagues.views.live``)."""

from __future__ import annotations

import datetime
import functools
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, Max, OuterRef, Prefetch, Q, Subquery
from django.template.defaultfilters import pluralize

from leagues.models import (
    Division,
    Fixture,
    League,
    ResultSubmission,
    Season,
    TableGame,
    day_word,
)
from leagues.selectors.counting import (
    DISPUTED,
    NOT_SUBMITTED,
    TO_CONFIRM,
    fixtures_with_standing,
    result_state,
    result_words,
)
from leagues.selectors.fixtures import (
    CUP_TIE,
    FIXTURE_RELATED,
    TablePlay,
    fixture_tables,
    play_stopped_at,
    unseated_boards,
)
from leagues.selectors.standings import Standings, divisions_standings
from leagues.services.seating import mark_abandoned
from leagues.zones import now_in, starts_at
from scoring.services.compiled import CompiledRows
from scoring.sheet import join_words

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


#: How far a fixture's match has got (``match_progress``). ``STOPPED``: begun, and its play
#: stands still at an abandoned table with no other being played (``play_stopped``).
NOT_STARTED, IN_PLAY, STOPPED, FINISHED = "not started", "in play", "play stopped", "finished"
#: A match whose play stopped, as its page's figures and every list say it (its status says
#: where: ``play_stopped``).
PLAY_STOPPED = "Play stopped"
#: A fixture still to be decided whose night has passed with no game begun: its result is to
#: come (from the score card). What the fixture page says for it (the desk's heading too): not
#: "Played", which nothing entered says it was.
NO_RESULT = "no result yet"
NO_RESULT_WORDS = "Result not in yet"


def match_progress(fixture: Fixture, today: datetime.date | None = None) -> str:
    """How far the fixture's match has got, from its prefetched tables, their games and its
    result: the one reading of the fixture page's status and the league night's counts.
    ``FINISHED`` once it is played to the end (every table decided: its result is final);
    ``IN_PLAY`` while a game has begun at one of its tables (or a result is worked out) and
    not every table is decided, ``STOPPED`` where its play stands still at an abandoned
    table (``play_stopped``: from its tables as marked); ``NOT_STARTED`` before that (no
    pairs seated, or the score card still to come); "" for a fixture not played on its night
    (a walkover, postponed or void). Given the league's ``today``, a fixture not started
    whose night has passed is ``NO_RESULT`` (one of the desk's ``results_missing``), not
    ``NOT_STARTED``."""
    if fixture.status not in (Fixture.Status.SCHEDULED, Fixture.Status.PLAYED):
        return ""
    result = getattr(fixture, "result", None)
    final = fixture.status == Fixture.Status.PLAYED or (result is not None and result.is_final)
    # Its tables read only when it is still to be decided.
    begun = not final and (
        result is not None or any(table.games.all() for table in fixture.tables.all())
    )
    return _progress(
        status=fixture.status,
        final=final,
        begun=begun,
        stopped=begun and bool(play_stopped(fixture)),
        passed=today is not None and fixture.date < today,
    )


def listed_progress(fixture: Any, today: datetime.date) -> str:
    """``match_progress`` of a fixture as a list shows it (a ``ListedFixture``), from its
    status, its stored result and whether a game was begun at one of its tables and its play
    stopped (its ``begun`` and ``stopped``, ``leagues.selectors.fixtures.mark_begun``: a list
    reads no tables). A list names a fixture whose night has passed with nothing scored as its
    page does (``NO_RESULT``)."""
    result = getattr(fixture, "result", None)
    return _progress(
        status=fixture.status,
        final=result is not None and result.is_final,
        begun=result is not None or getattr(fixture, "begun", False),
        stopped=getattr(fixture, "stopped", False),
        passed=fixture.date < today,
    )


def _progress(*, status: str, final: bool, begun: bool, stopped: bool, passed: bool) -> str:
    """``match_progress`` from what it reads: the fixture's status, whether its result is
    final, whether it has begun (a game at one of its tables, or a result worked out) and its
    play stopped (``play_stopped_at``), and whether its night has passed."""
    if status not in (Fixture.Status.SCHEDULED, Fixture.Status.PLAYED):
        return ""
    if status == Fixture.Status.PLAYED or final:
        return FINISHED
    if begun:
        return STOPPED if stopped else IN_PLAY
    return NO_RESULT if passed else NOT_STARTED


def has_stopped(fixture: Any) -> bool:
    """Whether the fixture's match is begun and its play stopped (``STOPPED``): a page's
    fixture by its tables as marked (``play_stopped``), a list's by its ``stopped`` mark
    (``mark_begun``). No query."""
    return bool(getattr(fixture, "stopped", False) or play_stopped(fixture))


#: A league fixture whose night has passed without a result that counts, as the league's home
#: lists it (``leagues.selectors.fixtures.awaiting_result_rows``) while its result is still to
#: come (one a side has put forward reads as every page says it: ``awaiting_words``).
RESULT_AWAITED = "Result awaited"
#: A cup tie's match played with no result put forward (every table finished, or its result
#: reopened by a secretary), as its pages and its fixture's say it: the tie is not decided
#: till its result counts, so not "Played" (its fixture's status), as a decided tie reads.
CUP_NOT_SUBMITTED_WORDS = f"Result {NOT_SUBMITTED}"


#: A stored result's state (``counting.result_state``) a side has put forward, to agree or to
#: settle, by its submission's status.
PUT_FORWARD = {
    TO_CONFIRM: ResultSubmission.Status.SUBMITTED,
    DISPUTED: ResultSubmission.Status.DISPUTED,
}


def awaiting_words(fixture: Any) -> str:
    """What the league's home says of a fixture awaiting its result (a ``ListedFixture``): once
    a side has submitted its result (its stored result's state, ``counting.result_state``:
    awaiting confirmation, or disputed), that result's standing as every page says it
    (``result_words``): "Result submitted, awaiting confirmation", "Result disputed"; else
    ``RESULT_AWAITED``."""
    result = fixture.result
    if fixture.status != Fixture.Status.PLAYED or result is None:
        return RESULT_AWAITED
    status = PUT_FORWARD.get(result_state(result))
    return result_words(status) if status else RESULT_AWAITED


def waiting_words(status: str) -> str:
    """The words of a played result waiting for the sides by its status (a
    ``ResultSubmission``'s or a cup tie's ``TieResult``'s: the same choices), as every page
    says a result's standing (``result_words``): "Result submitted, awaiting confirmation",
    "Result disputed"; "" when it is not waiting (none, counted or withdrawn)."""
    return result_words(status) if status in ResultSubmission.OPEN_STATUSES else ""


#: The statuses of a fixture's results that count, latest submitted first, by a query built
#: once per connection (``scoring.services.compiled``): the ORM took longer to build it than the
#: database to run it, on every fixture page of a confirmed result. Ordered as
#: ``ResultSubmission``'s own ordering orders one fixture's, without joining the fixture.
_counted_status_read = CompiledRows(
    lambda fixture_id: (
        ResultSubmission.objects.filter(
            fixture=fixture_id, status__in=ResultSubmission.CONFIRMED_STATUSES
        )
        .order_by("-submitted_at", "-pk")
        .values_list("status", "confirmed_as")[:1]
    )
)


def counted_status(fixture: Fixture) -> tuple[str, str] | None:
    """The status of the fixture's result that counts (confirmed or settled), if any, and how
    it came to count (its ``confirmed_as``): one query."""
    rows = _counted_status_read.rows(fixture.pk)
    return (rows[0][0], rows[0][1]) if rows else None


def open_submission(fixture: Fixture) -> ResultSubmission | None:
    """The fixture's result waiting for the sides (submitted or disputed), if any: from its
    prefetched ``open_submissions`` or ``submissions`` when it has them, else one query."""
    waiting = getattr(fixture, "open_submissions", None)
    if waiting is None:
        prefetched = getattr(fixture, "_prefetched_objects_cache", {}).get("submissions")
        if prefetched is not None:
            waiting = [s for s in prefetched if s.status in ResultSubmission.OPEN_STATUSES]
        else:
            waiting = list(
                ResultSubmission.objects.filter(
                    fixture=fixture, status__in=ResultSubmission.OPEN_STATUSES
                ).order_by("-submitted_at", "-pk")[:1]
            )
    return waiting[0] if waiting else None


def play_stopped(fixture: Fixture) -> str:
    """Where a match begun stands still (``play_stopped_at``): a table's game abandoned and no
    other table being played ("Table 1 abandoned at 10–8; the other tables not started"), from
    its prefetched tables as ``leagues.services.seating.mark_abandoned`` marked them
    (``mark_stopped``; a page that did not read and mark them is told nothing: "", and no query
    is made). Such a match goes on only when the secretary starts the table again or its
    result is entered from the score card (``STOPPED_NEXT``)."""
    if "tables" not in getattr(fixture, "_prefetched_objects_cache", {}):
        return ""  # a list's fixture: its tables are not read (nor marked)
    tables = list(fixture.tables.all())
    at = {table.board: table.abandoned_at for table in tables if table.abandoned}
    plays = [
        TablePlay(
            table.board,
            abandoned=table.abandoned,
            decided=bool(table.outcome or table.from_card),
            begun=bool(table.games.all()),
        )
        for table in tables
    ]
    stopped = play_stopped_at(plays)
    if not stopped:
        return ""
    if len(stopped) == 1:
        said = f"Table {stopped[0].board} abandoned at {at[stopped[0].board]}"
    else:
        boards = join_words([str(table.board) for table in stopped])
        said = f"Tables {boards} abandoned ({', '.join(at[t.board] for t in stopped)})"
    finished = sum(1 for play in plays if not play.abandoned and play.decided)
    rest = len(tables) + len(unseated_boards(fixture, tables)) - len(stopped) - finished
    if not rest:
        return f"{said}; the other tables finished" if finished else said
    if not finished:
        return f"{said}; the other tables not started"
    return f"{said}; {finished} table{pluralize(finished)} finished, the rest not started"


def mark_stopped(fixtures: Iterable[Fixture]) -> None:
    """Mark the tables of those of ``fixtures`` in play (``match_progress``: from their
    prefetched tables and games) whose game was abandoned (``mark_abandoned``), so that where
    their play stopped is said (``STOPPED``, ``play_stopped``), not that they are in play, by a
    page that reads the tables but shows no table: one query, none where no match is in
    play."""
    mark_abandoned(
        [
            table
            for fixture in fixtures
            if match_progress(fixture) == IN_PLAY
            for table in fixture.tables.all()
        ]
    )


#: What a match whose play stopped (``play_stopped``) waits for.
STOPPED_NEXT = (
    "The league secretary can start the abandoned table again, or the match's result is "
    "entered from the score card."
)


def status_words(fixture: Fixture, today: datetime.date) -> str:
    """The fixture's status as every page gives it (its page, its result page, a captain's
    list, a cup tie's page and card): "In play" once a game has begun (``match_progress``,
    from its prefetched tables and games), or where its play stopped at an abandoned table
    with none other being played, that (``STOPPED``: ``play_stopped``, from its tables as
    ``mark_stopped`` marked them); "Result not in yet" once its night
    has passed with none, "Result submitted, awaiting confirmation" or "Result disputed" while
    its result waits for the sides (``waiting_words``), a cup tie's with none put forward
    "Result not yet submitted" (``CUP_NOT_SUBMITTED_WORDS``), a postponed one's "Postponed: no
    new date yet" (``Fixture.postponed_words``: a cup tie waiting for a night, "No night yet"),
    else its status."""
    progress = match_progress(fixture, today)
    if progress == IN_PLAY:
        return "In play"
    if progress == STOPPED:
        return play_stopped(fixture)
    if progress == NO_RESULT:
        return NO_RESULT_WORDS
    if fixture.status == Fixture.Status.PLAYED:
        submission = open_submission(fixture)
        if submission is not None:
            return waiting_words(submission.status)
        result = getattr(fixture, "result", None)
        if fixture.kind == Fixture.Kind.CUP and result and result_state(result) == NOT_SUBMITTED:
            return CUP_NOT_SUBMITTED_WORDS
    if fixture.status == Fixture.Status.POSTPONED:
        return fixture.postponed_words
    return fixture.get_status_display()


def follows_tables(fixture: Fixture, progress: str, today: datetime.date) -> bool:
    """Whether the fixture's page follows its tables by itself (polls them): on its night
    (the league's ``today``) or while a game of it is in play or its play stopped
    (``match_progress``: the secretary may start its table again), and never once it is
    decided."""
    return fixture.status == Fixture.Status.SCHEDULED and (
        fixture.date == today or progress in (IN_PLAY, STOPPED)
    )


#: A league night runs past midnight: until this time (the league's own) the night before is
#: still the one shown while a match of it is in play. Not for ever: a game left in progress
#: when the pub shut does not keep the next day's page on last night.
NIGHT_RUNS_UNTIL = datetime.time(6, 0)


@dataclass(frozen=True)
class NightClock:
    """Where a league's night stands by the clock alone, with no query (``night_clock``)."""

    today: datetime.date
    """Today's date where the league plays."""
    small_hours: bool
    """Before ``NIGHT_RUNS_UNTIL``: last night may still be running."""
    evening: bool = False
    """From ``EVENING`` (17:00): today's matches are tonight's (``day_word``), "today's"
    before it."""

    @property
    def yesterday(self) -> datetime.date:
        return self.today - datetime.timedelta(days=1)

    @property
    def key(self) -> str:
        """What a page showing the night changes with by the clock: its cache key, and the
        day its poll's tag is of (so a poll across midnight or ``NIGHT_RUNS_UNTIL`` is
        answered in full)."""
        return (
            f"{self.today.isoformat()}{'-small-hours' if self.small_hours else ''}"
            f"{'-evening' if self.evening else ''}"
        )

    def night_word(self, night: datetime.date) -> str:
        """How the league night of ``night`` (``night_now``) is said by the clock: "today"
        before the evening on its own day, else "tonight" (``day_word``; last night's run on
        into the small hours is still tonight's)."""
        return "today" if night == self.today and not self.evening else "tonight"


def night_clock(league: League) -> NightClock:
    """The league's night by its own clock (``League.time_zone``)."""
    now = now_in(league.time_zone)
    return NightClock(
        today=now.date(),
        small_hours=now.time() < NIGHT_RUNS_UNTIL,
        evening=day_word(now.time()) == "tonight",
    )


@dataclass(frozen=True)
class NightNow:
    """Which league night is shown now (``night_now``)."""

    date: datetime.date | None
    """The night's date; None when there is none to show (nor to follow)."""
    over: datetime.date | None = None
    """In the small hours with no night shown, last night's date if it was a league night:
    its page says that night is over, not "no league fixtures tonight"."""


def night_starts(day: datetime.date, zone_name: str) -> datetime.datetime:
    """The instant the league night of ``day`` begins where the league plays: the night
    before runs until then (``NIGHT_RUNS_UNTIL``)."""
    return starts_at(day, NIGHT_RUNS_UNTIL, zone_name)


def night_of(moment: datetime.datetime, zone_name: str) -> datetime.date:
    """The league night an instant falls in where the league plays: 00:30 is still the night
    before (``NIGHT_RUNS_UNTIL``)."""
    local = moment.astimezone(zoneinfo.ZoneInfo(zone_name))
    return (local - datetime.timedelta(hours=NIGHT_RUNS_UNTIL.hour)).date()


#: How long before a night a match still to be decided may be dated and be of that night when
#: it is played (``night_now``, ``night_fixtures``): a cup tie played a week or three late. One
#: dated earlier is the secretary's to re-arrange. The bound keeps both reads to the nights'
#: own dates, by the fixtures' date index: without it each read looked at every match of the
#: league ever to be played before the night (5 ms a fresh league home for 1,000 teams).
PLAYED_LATE_WITHIN = datetime.timedelta(days=28)


def _played_from(since: Any, until: Any = None) -> Exists:
    """A fixture one of whose tables' games changed from ``since`` on (before ``until``, where
    given: a hand recorded, undone or corrected, a game begun or ended): the match was played
    then."""
    games = TableGame.objects.filter(table__fixture=OuterRef("pk"), game__updated_at__gte=since)
    return Exists(games if until is None else games.filter(game__updated_at__lt=until))


#: The latest change of a fixture's games (``_played_from``).
_LAST_PLAY = Subquery(
    TableGame.objects.filter(table__fixture=OuterRef("pk"))
    .values("table__fixture")
    .annotate(last=Max("game__updated_at"))
    .values("last")[:1]
)

#: The fixtures of a league's nights from one day to another (of whichever season: a night
#: past midnight may be the last of a season whose next starts that day), and those dated
#: before them in play since the first night began (a cup tie played a week late, never
#: re-arranged: ``night_fixtures``), with whether each has a result and a game begun, and when
#: its games last changed: ``night_now``'s read, built once per connection
#: (``scoring.services.compiled``).
_night_rows = CompiledRows(
    lambda league, first, last, since, late_from: (
        Fixture.objects.filter(
            Q(date__gte=first) | Q(_played_from(since), status=Fixture.Status.SCHEDULED),
            date__gte=late_from,
            date__lte=last,
            division__season__league=league,
            status__in=ON_THE_NIGHT,
        )
        .annotate(
            games=Exists(TableGame.objects.filter(table__fixture=OuterRef("pk"))),
            last_play=_LAST_PLAY,
        )
        .values_list("date", "status", "result__pk", "result__is_final", "games", "last_play")
    ),
    kinds=(int, datetime.date, datetime.date, datetime.datetime, datetime.date),
)


def night_now(*, league: League, clock: NightClock) -> NightNow:
    """The league night shown now, the one rule for the league night's page, whether it
    follows the tables (its poll's 286 once there is none) and the league's link to it:
    tonight when the league has a fixture tonight; but in the small hours last night while a
    match of it is still in play (``match_progress``), as a league night runs past midnight,
    even where a new season starts that day. A match dated before is of the night it is played
    on (``night_fixtures``). Once its last match is finished the night is over (a result
    stored changes the league's version: the night's page, polled, is answered in full and
    sees it). One query."""
    first = clock.yesterday if clock.small_hours else clock.today
    since = night_starts(first, league.time_zone)
    last_night = tonight = in_play = False
    rows = _night_rows.rows(league.pk, first, clock.today, since, first - PLAYED_LATE_WITHIN)
    for date, status, result, final, games, last_play in rows:
        if date < first:  # played late: of the night it is played on
            date = night_of(last_play, league.time_zone)
        if date == clock.today:
            tonight = True
            continue
        last_night = True
        progress = _progress(
            status=status,
            final=bool(final),
            begun=result is not None or bool(games),
            stopped=False,  # stopped or not, last night's match is not over
            passed=False,
        )
        in_play = in_play or progress == IN_PLAY
    if in_play:
        return NightNow(date=clock.yesterday)
    if tonight:
        return NightNow(date=clock.today)
    return NightNow(date=None, over=clock.yesterday if last_night else None)


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
        not yet finished, and play not stopped."""
        return self._progress.count(IN_PLAY)

    @property
    def stopped(self) -> int:
        """How many of the night's fixtures have their play stopped at an abandoned table
        (``STOPPED``)."""
        return self._progress.count(STOPPED)

    @property
    def not_started(self) -> int:
        """How many of the night's fixtures have no game begun yet (no pairs seated, or the
        score card still to come)."""
        return self._progress.count(NOT_STARTED)

    @property
    def finished(self) -> int:
        """How many of the night's fixtures are played to the end (every table decided)."""
        return self._progress.count(FINISHED)


def night_fixtures(*, league: League, date: datetime.date) -> list[Fixture]:
    """The league's fixtures on ``date`` (of the season they are in: seasons do not overlap),
    and the matches dated before it in play that night (still to be decided, a game at their
    tables changed between the night's start and the next's, ``night_starts``: a cup tie played
    a week late and never re-arranged, dated within ``PLAYED_LATE_WITHIN``; not a match
    decided, whose games a correction, an import or the demo's seeding may have written that
    night long after it was played), each with its tables and games and
    ``unseated``, the tables of its match not seated yet (``unseated_boards``), in the night's
    order, the tables of those in play marked where their play stopped (``mark_stopped``): four
    queries, and one while a match is in play."""
    starts = night_starts(date, league.time_zone)
    ends = night_starts(date + datetime.timedelta(days=1), league.time_zone)
    played_late = _played_from(starts, ends)
    fixtures = list(
        fixtures_with_standing(
            Fixture.objects.filter(
                Q(date=date) | Q(played_late, status=Fixture.Status.SCHEDULED),
                date__gte=date - PLAYED_LATE_WITHIN,
                date__lte=date,
                division__season__league=league,
                status__in=ON_THE_NIGHT,
            )
        )
        .select_related(*FIXTURE_RELATED, *CUP_TIE)
        .prefetch_related(Prefetch("tables", queryset=fixture_tables()))
        .order_by("division__rank", "division__name", "time", "pk")
    )
    for fixture in fixtures:
        fixture.unseated = unseated_boards(fixture, fixture.tables.all())
    mark_stopped(fixtures)
    return fixtures


def league_night(*, league: League, date: datetime.date) -> Night:
    """The league's fixtures on ``date`` (``night_fixtures``), and the tables of their
    divisions as they would stand: four queries for the fixtures (five while a match is in
    play) and three for the tables, however many there are."""
    fixtures = night_fixtures(league=league, date=date)
    ids = {fixture.division_id for fixture in fixtures if fixture.kind == Fixture.Kind.LEAGUE}
    divisions = list(
        Division.objects.filter(pk__in=ids)
        .select_related("season__league")
        .order_by("rank", "name")
    )
    return Night(
        league=league,
        season=fixtures[0].division.season if fixtures else None,
        date=date,
        fixtures=fixtures,
        standings=divisions_standings(divisions=divisions, provisional=True),
        last_change=last_change(fixtures),
    )
