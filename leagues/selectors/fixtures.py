"""Leagues, seasons, divisions, fixtures, teams and players as pages show them."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    Max,
    Model,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)
from django.template.defaultfilters import pluralize

from config.paths import path_for
from config.queries import AmongFew, Written, written
from leagues import nights_off
from leagues.match import PLAYOFF_TO_COME, MatchFormat, aggregate_bonus, level_words
from leagues.models import (
    AuditEntry,
    Division,
    Fixture,
    FixtureResult,
    FixtureTable,
    FixtureWords,
    League,
    Player,
    PointAdjustment,
    Registration,
    ResultSubmission,
    Season,
    TableGame,
    Team,
    TeamEntry,
    Venue,
    venue_words,
)
from leagues.selectors.counting import (
    LEAGUE_ONLY,
    NOT_SUBMITTED,
    counts_q,
    fixtures_with_standing,
    is_provisional_q,
    result_state,
    result_words,
)
from scoring.models import GameStatus, Hand, Side
from scoring.services.compiled import LARGEST_ID, CompiledRead, CompiledReadIn, CompiledRows
from scoring.sheet import join_words

M = TypeVar("M", bound=Model)
P = TypeVar("P", bound=Model)

FIXTURE_RELATED = ("home", "away", "venue", "result", "division__season__league")
#: A cup tie's fixture's tie, cup, round and group, read with it where a list names the cup
#: and stage (``Tie.cup_and_stage``: "League Cup, Quarter-final").
CUP_TIE = ("cup_tie__competition", "cup_tie__round", "cup_tie__group")
#: The secretary's desk's lists: each fixture's teams, division and, a cup tie's, cup and stage.
DESK_RELATED = ("home", "away", "division", *CUP_TIE)

#: A list of fixtures reads each one's division, season and league once for the whole list (one
#: more query), not with every row: they are the same for most rows, and building the three
#: (the season's and league's formats and rules) for every row was half the list's time.
LISTED_DIVISIONS = Prefetch("division", queryset=Division.objects.select_related("season__league"))


def league_list() -> QuerySet[League]:
    return League.objects.order_by("name")


#: A league by its slug, by a query built once per connection (``scoring.services.compiled``).
_league_read = CompiledRead(lambda slug: League.objects.filter(slug=slug), kind=str)


def league_get(*, slug: str) -> League:
    """The league with this slug; raises ``League.DoesNotExist``."""
    return _league_read.one(slug)


def league_get_by_pk(*, pk: int) -> League:
    """The league with this id; raises ``League.DoesNotExist``."""
    return League.objects.get(pk=pk)


#: Each season's divisions, top first (``season.divisions.all()``).
SEASON_DIVISIONS = Prefetch("divisions", queryset=Division.objects.order_by("rank", "name"))


def league_seasons(*, league: League) -> QuerySet[Season]:
    """The league's seasons, latest first, each with its divisions."""
    return league.seasons.order_by("-starts_on").prefetch_related(SEASON_DIVISIONS)


#: A league's seasons, by a query built once per connection (``scoring.services.compiled``).
_league_seasons_read = CompiledRead(
    lambda league_id: Season.objects.filter(league=league_id).order_by("-starts_on")
)


def league_season_list(*, league: League) -> list[Season]:
    """The league's seasons, latest first, each given ``league``, without their divisions
    (``seasons_divisions`` reads them, for a page that may not need them)."""
    return _rows_given(_league_seasons_read, league, "league")


#: A league's seasons with the league, by its slug, by a query built once per connection.
_league_seasons_by_slug_read = CompiledRead(
    lambda slug: (
        Season.objects.filter(league__slug=slug).select_related("league").order_by("-starts_on")
    ),
    kind=str,
)


def league_with_seasons(*, slug: str) -> tuple[League, list[Season]]:
    """The league with this slug (``league_get``) and its seasons (``league_season_list``: each
    given that one league), read together: one query, a second for a league with no season
    yet. Raises ``League.DoesNotExist``."""
    return _read_with(
        _league_seasons_by_slug_read.rows(slug), "league", lambda: league_get(slug=slug)
    )


def _read_with(rows: list[M], field: str, alone: Callable[[], P]) -> tuple[P, list[M]]:
    """What each of ``rows`` was read with as ``field`` (each row then given the first row's
    instance: one for all) and the rows; ``alone()`` reads it where there is no row."""
    if not rows:
        return alone(), []
    parent = getattr(rows[0], field)
    for row in rows:
        setattr(row, field, parent)
    return parent, rows


#: The divisions of a few seasons, by a query built once per connection and number of seasons.
_seasons_divisions_read = CompiledReadIn(
    lambda ids: Division.objects.filter(season__in=ids).order_by("rank", "name")
)


_division_season = Division.season.field


def seasons_divisions(*, seasons: list[Season]) -> dict[int, list[Division]]:
    """Each season's divisions, top first (as ``league_seasons`` reads them), by the season's
    id, each division given its season: in one query. The season is set as the ORM's own
    reading sets a related object it read with the row (its id is the division's own already),
    not through ``division.season =``, whose checks of a relation being set took a third of the
    time of a 100-division season."""
    found: dict[int, list[Division]] = {season.pk: [] for season in seasons}
    by_id = {season.pk: season for season in seasons}
    for division in _seasons_divisions_read.rows([season.pk for season in seasons]):
        _division_season.set_cached_value(division, by_id[division.season_id])
        found[division.season_id].append(division)
    return found


class SeasonsNow(NamedTuple):
    """A league's seasons as they stand on a day (``seasons_now``)."""

    current: Season | None
    """The league's season: its home's tables, results and fixtures, its league night."""
    coming: list[Season]
    """The seasons still to start, but the current one, soonest first."""
    earlier: list[Season]
    """The seasons before the current one, latest first."""


def seasons_now(seasons: Iterable[Season], *, today: datetime.date) -> SeasonsNow:
    """Which of a league's ``seasons`` is its current one on ``today`` (the league's own date,
    where it plays: ``League.today``), the one rule for every page that shows "the league's
    season": the season in play, the latest started by today, kept (its final table shown)
    until the next one starts, however early the secretary makes that one; before any has
    started, the first to come. No query."""
    by_start = sorted(seasons, key=lambda season: (season.starts_on, season.pk))
    started = [season for season in by_start if season.starts_on <= today]
    current = started[-1] if started else next(iter(by_start), None)
    return SeasonsNow(
        current=current,
        coming=[s for s in by_start if s.starts_on > today and s is not current],
        earlier=[s for s in reversed(started) if s is not current],
    )


def league_current_season(*, league: League) -> Season | None:
    """The league's season in play today, where it plays (``seasons_now``). One query."""
    return seasons_now(league_season_list(league=league), today=league.today()).current


def season_last_day(season: Season) -> datetime.date | None:
    """The day ``season`` runs to: its end, or its last fixture (not void) when that is later
    or it has no end; None when it has neither."""
    return season_spans(league=season.league_id, seasons=[season])[0].last


class SeasonSpan(NamedTuple):
    season: Season
    last: datetime.date | None
    """``season_last_day``: its end, or its last fixture (not void) when later; None when it
    has neither."""

    @property
    def runs_to(self) -> datetime.date:
        """The last day it holds: ``last``, or its first when it has neither end nor fixture."""
        return self.last or self.season.starts_on


def season_spans(
    *, league: League | int, seasons: Iterable[Season] | None = None
) -> list[SeasonSpan]:
    """Each of the league's seasons (or of ``seasons``, all of one league) with the day it runs
    to, in order of start; two queries at most, however many seasons."""
    chosen = (
        list(seasons)
        if seasons is not None
        else list(Season.objects.filter(league=league).order_by("starts_on", "pk"))
    )
    last_fixture = dict(
        Fixture.objects.filter(division__season__in=[season.pk for season in chosen])
        .exclude(status=Fixture.Status.VOID)
        .values("division__season")  # grouped by season
        .annotate(last=Max("date"))
        .values_list("division__season", "last")
    )
    return [
        SeasonSpan(
            season,
            max(
                (day for day in (season.ends_on, last_fixture.get(season.pk)) if day is not None),
                default=None,
            ),
        )
        for season in chosen
    ]


def division_get(*, pk: int) -> Division:
    """The division with its season and league; raises ``Division.DoesNotExist``."""
    return _division_read.one(pk)


#: A division's and a team's page read it first, by a query built once per connection.
_division_read = CompiledRead(
    lambda pk: Division.objects.select_related("season__league").filter(pk=pk)
)
_team_read = CompiledRead(
    lambda pk: Team.objects.select_related("league", "home_venue").filter(pk=pk)
)

#: The teams a division's fixtures page offers to choose from, by a query built once per
#: connection (``scoring.services.compiled``).
_division_teams_read = CompiledRows(
    lambda division_id: (
        Team.objects.filter(entries__division=division_id)
        .order_by("name")
        .values_list("pk", "name")
    )
)


class TeamChoice(NamedTuple):
    """A team as a chooser offers it: its id and its name."""

    pk: int
    name: str


def division_teams(*, division: Division) -> list[TeamChoice]:
    """The teams entered in the division, by name (one query)."""
    return [TeamChoice(*row) for row in _division_teams_read.rows(division.pk)]


def no_match(
    pairs: Iterable[tuple[Hashable, Hashable]], teams: Mapping[Hashable, str]
) -> list[str]:
    """The division's teams (``teams``: name by key) in none of one night's fixtures
    (``pairs``: home and away keys), by name: that night's byes. No query."""
    playing = {key for pair in pairs for key in pair}
    return [name for key, name in teams.items() if key not in playing]


def no_match_words(
    pairs: Iterable[tuple[Hashable, Hashable]], teams: Mapping[Hashable, str]
) -> str:
    """ "No match: Red Lion": the night's byes (``no_match``), the bye with an odd number of
    teams; "" when every team has a match that night. No query."""
    return no_match_line(no_match(pairs, teams))


def no_match_line(idle: Sequence[str]) -> str:
    """ "No match: Red Lion and Woolpack" for a night's byes (``idle``: by name); "" for none."""
    return f"No match: {join_words(idle)}" if idle else ""


#: A void fixture and a walkover have no match on their night: nobody plays them, so their teams
#: are free that night and their pub has room (the clash rules, ``leagues.bookings``). A league
#: walkover still counts as its teams' meeting.
NO_MATCH_ON_THE_NIGHT = (Fixture.Status.VOID, Fixture.Status.WALKOVER)


def matches_on_their_nights(fixtures: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """``fixtures`` without those with no match on their night (``NO_MATCH_ON_THE_NIGHT``): the
    nights and pubs they take, as refusing a clash, finding a free night and planning a list
    read them."""
    return fixtures.exclude(status__in=NO_MATCH_ON_THE_NIGHT)


def boards_begun(fixture: Fixture) -> list[int]:
    """The boards of ``fixture`` at which play has begun: a game started at the table (its
    hands follow) or its result typed from the score card. Once there is one, the match is
    being played on its night: it is not moved to another (``fixture_rearrange``,
    ``fixture_postpone``), a cup tie on it is under way (``cups.services.ties``) and its page
    shows its score (``cups.selectors``). Reads the fixture's tables and their games as
    prefetched (``"tables__games"``: the cup pages do), else two queries."""
    prefetch_related_objects([fixture], "tables__games")
    return [
        table.board
        for table in fixture.tables.all()
        if table.source == FixtureTable.Source.CARD or table.games.all()
    ]


def from_card(tables: Iterable[FixtureTable]) -> bool:
    """Whether a fixture's result came from its score card, as its tables' stored source says
    (``FixtureTable.from_card``; one such table is enough: the card gives the tables the
    phones did not score): its figures are put right on the card and entered again, which
    submits them, not submitted as they stand. ``tables``: the fixture's, read already (no
    query), or its ``tables`` manager's ``all()`` (one)."""
    return any(table.from_card for table in tables)


#: The audit entries that end a fixture's result standing, each with why: withdrawn (the games
#: changed, taken back), set aside by a secretary settling its dispute, or reopened.
WITHDRAWING = (
    AuditEntry.Action.SUBMISSION_WITHDRAWN,
    AuditEntry.Action.RESULT_REJECTED,
    AuditEntry.Action.RESULT_REOPENED,
)


#: What became of a result that no longer stands, by how it went (``earlier_words``).
TAKEN_BACK = "taken back"
SETTLED_WITH_CARD = "settled with the secretary's card"
EARLIER = {
    AuditEntry.Action.RESULT_REJECTED: "set aside by the secretary",
    AuditEntry.Action.RESULT_REOPENED: "reopened by the secretary",
    AuditEntry.Action.RESULT_SETTLED: SETTLED_WITH_CARD,
}


def earlier_words(fixture: Fixture) -> str:
    """What became of the fixture's earlier results, each as its audit entry says it went, as
    its result page lists them (to the public too): "Earlier: 1 taken back; 1 settled with the
    secretary's card." A result taken back by whoever submitted it, one withdrawn as the games
    changed, set aside or reopened by a secretary, or given way to the card a secretary settled
    it with (``agreement.settle_anew``, its entry's ``settled_with``; a dispute upheld gives way
    to nothing). "" for none. One query."""
    counts: dict[str, int] = {}
    entries = (
        AuditEntry.objects.filter(
            fixture=fixture, action__in=[*WITHDRAWING, AuditEntry.Action.RESULT_SETTLED]
        )
        .order_by("at", "pk")
        .values_list("action", "before", "after")
    )
    for action, before, after in entries:
        after = after if isinstance(after, dict) else {}
        before = before if isinstance(before, dict) else {}
        if action == AuditEntry.Action.SUBMISSION_WITHDRAWN:
            reason = str(after.get("reason", ""))
            how = TAKEN_BACK if reason.startswith(TAKEN_BACK) else "withdrawn"
        elif action == AuditEntry.Action.RESULT_SETTLED and not (
            "settled_with" in after and before.get("status") in ResultSubmission.OPEN_STATUSES
        ):
            continue
        else:
            how = EARLIER[action]
        counts[how] = counts.get(how, 0) + 1
    if not counts:
        return ""
    return "Earlier: " + "; ".join(f"{n} {how}" for how, n in counts.items()) + "."


def last_withdrawal(fixture: Fixture) -> AuditEntry | None:
    """The audit entry that withdrew the fixture's latest result: asked of a fixture none of
    whose results is submitted or counts now, why none does (``withdrawn_words``). None for
    one whose result was never withdrawn. One query."""
    return (
        AuditEntry.objects.filter(fixture=fixture, action__in=WITHDRAWING)
        .select_related("by")
        .order_by("-at", "-pk")
        .first()
    )


class SideAgreed(NamedTuple):
    """One side's agreement to a result both sides agreed: who agreed for it, and when (None
    where no record says)."""

    by: Any
    at: datetime.datetime | None


def sides_agreed(submission: ResultSubmission) -> list[SideAgreed]:
    """Each side's agreement, in the order they agreed (the submitter's first), to a result
    that counts because both sides agreed (``ConfirmedAs.CAPTAINS``): the submitter's side
    agreed as it was submitted, the last side as it was confirmed, and a side that agreed
    between the two when its audit entry says. [] for a result that came to count otherwise.
    At most one query (an agreement in between)."""
    agreed_as = (ResultSubmission.ConfirmedAs.CAPTAINS, ResultSubmission.ConfirmedAs.SIDES)
    if not submission.is_confirmed or submission.confirmed_as not in agreed_as:
        return []
    known = {
        submission.submitted_by_id: submission.submitted_at,
        submission.confirmed_by_id: submission.confirmed_at,
    }
    ids = (submission.home_agreed_by_id, submission.away_agreed_by_id)
    between = [pk for pk in ids if pk not in known]
    if between:
        entries = AuditEntry.objects.filter(
            fixture=submission.fixture_id,
            action=AuditEntry.Action.RESULT_AGREED,
            by__in=between,
            at__gte=submission.submitted_at,
        ).order_by("at", "pk")
        known.update(entries.values_list("by", "at"))
    sides = [
        SideAgreed(by=submission.home_agreed_by, at=known.get(ids[0])),
        SideAgreed(by=submission.away_agreed_by, at=known.get(ids[1])),
    ]
    # In the order they agreed, the submitter's side first; one no record times goes last.
    return sorted(sides, key=lambda side: (side.at is None, side.at or submission.submitted_at))


def withdrawn_words(entry: AuditEntry, who: str) -> str:
    """Why a fixture's result stands no more, as its result page says it, from the entry that
    withdrew it (``last_withdrawal``; ``who``, whoever did, as the viewer reads them, "the
    secretary" to the public): "The confirmed result was reopened by the secretary: Brown Cow
    fielded an unregistered player at table 3."; "The submitted result was withdrawn: a hand
    was corrected at table 1."; set aside settling its dispute."""
    after = entry.after if isinstance(entry.after, dict) else {}
    if entry.action == AuditEntry.Action.RESULT_REOPENED:
        said = f"The confirmed result was reopened by {who}: {after.get('reason', '')}"
    elif entry.action == AuditEntry.Action.RESULT_REJECTED:
        said = (
            f"The submitted result was set aside by {who}, settling its dispute: "
            f"{after.get('settlement', '')}"
        )
    else:
        said = f"The submitted result was withdrawn: {after.get('reason', '')}"
    said = said.strip().rstrip(":").strip()
    return said if said.endswith((".", "!", "?")) else f"{said}."


def unseated_boards(fixture: Fixture, tables: Iterable[FixtureTable]) -> list[int]:
    """The tables of the fixture's match format (its season's) with no pair seated at them
    yet, in order, while some are (``tables``: the fixture's, as the page read them) and it
    is still to be played: what every page of the match names ("Table 3: not seated yet"),
    so that nobody takes a match played at the one table seated for a match of one table.
    [] when no table is seated (the page says the pairs are not seated yet) and once the
    match is decided. No query."""
    seated = {table.board for table in tables}
    if not seated or fixture.status not in Fixture.TO_PLAY:
        return []
    boards = fixture.division.season.get_match_format().tables
    return [board for board in range(1, boards + 1) if board not in seated]


def tables_closed_words(fixture: Fixture, tables: Iterable[FixtureTable]) -> str:
    """Why the fixture's tables are seated no more, as the secretary's Tables page says it
    instead of offering the seating (``tables``: the fixture's, with ``result`` read with it):
    "The result from the score card is confirmed." (its ``result_state``), "Walkover to Black
    Bull: no tables are played."; "" while it is still to be played."""
    if fixture.status in Fixture.TO_PLAY:
        return ""
    if fixture.status == Fixture.Status.WALKOVER:
        return f"{fixture.walkover_words}: no tables are played."
    if fixture.status == Fixture.Status.VOID:
        return "The fixture is void: no tables are played."
    cards = {table.from_card for table in tables}
    source = {
        frozenset({True}): " from the score card",
        frozenset({False}): " from the tables' phones",
        frozenset({True, False}): " from the score card and the tables' phones",
    }.get(frozenset(cards), "")
    result = getattr(fixture, "result", None)
    return f"The result{source} is {'in' if result is None else result_state(result)}."


def division_entries(*, division: Division) -> QuerySet[TeamEntry]:
    return division.entries.select_related("team__home_venue", "captain").order_by("team__name")


def _season_name(side: str, season: int | None) -> Subquery:
    return Subquery(
        TeamEntry.objects.filter(
            team=OuterRef(side), season=OuterRef("division__season") if season is None else season
        )
        .order_by()
        .values("name")[:1]
    )


def with_season_names(fixtures: QuerySet[Fixture], season: int | None = None) -> QuerySet[Fixture]:
    """Each fixture with ``home_name`` and ``away_name``: the teams' names that season (past
    seasons keep the names they were played under). ``season``: the id of every fixture's
    season, where the query knows it (one division's fixtures): PostgreSQL then need not join
    each fixture's division to learn it."""
    return fixtures.annotate(
        home_name=_season_name("home", season), away_name=_season_name("away", season)
    )


class ListedTeam:
    """A team as a list of fixtures shows it: its id (for links), ``name`` (the team's own, by
    which walkover words name it and the list sorts) and ``listed_name`` (its name that
    season)."""

    __slots__ = ("pk", "name", "listed_name")

    def __init__(self, pk: int, name: str, listed_name: str | None) -> None:
        self.pk = pk
        self.name = name
        self.listed_name = listed_name or name

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return path_for("leagues:team", self.pk)


class ListedVenue:
    """A venue as a list names it (``str``: ``venue_words``, as its fixture's page does)."""

    __slots__ = ("name", "town")

    def __init__(self, name: str, town: str) -> None:
        self.name, self.town = name, town

    def __str__(self) -> str:
        return venue_words(self.name, self.town)


class ListedResult:
    """The stored result's figures a list shows (``FixtureResult``'s names)."""

    __slots__ = (
        "is_final",
        "is_walkover",
        "home_match_points",
        "away_match_points",
        "home_games",
        "away_games",
        "confirmed",
        "expunged",
        "submitted",
        "disputed",
    )

    def __init__(self, values: Sequence[Any]) -> None:
        # Unpacked in one statement: a loop of ``setattr`` over the names took five times as
        # long, for each of a list's 200 rows.
        (
            self.is_final,
            self.is_walkover,
            self.home_match_points,
            self.away_match_points,
            self.home_games,
            self.away_games,
            self.confirmed,
            self.expunged,
            self.submitted,
            self.disputed,
        ) = values


#: What a listed fixture reads, in ``ListedFixture``'s order: the fixture's own columns, its
#: teams' names (their own and that season's), its venue's name, its cup's (a cup tie's) and
#: its result's figures.
LISTED_OWN = (
    "pk",
    "date",
    "time",
    "kind",
    "status",
    "walkover_to",
    "walkover_pending",
    "withdrew",
    "original_date",
    "division_id",
    "reason",
)
LISTED = (
    *LISTED_OWN,
    "home_id",
    "home__name",
    "home_name",
    "away_id",
    "away__name",
    "away_name",
    "venue__name",
    "venue__town",
    "cup_tie__competition__name",
    "cup_tie__winner",
    "cup_tie__decided_by",
    "cup_tie__home_score",
    "cup_tie__away_score",
    "result__id",
    *(f"result__{name}" for name in ListedResult.__slots__),
)


class ListedFixture(FixtureWords):
    """A fixture as a list shows it (``fixture_rows``): the names the model's are, read from
    one row of the list's query instead of five model instances (fixture, teams, venue,
    result), with its list's league (``league``) and division (``division``: when the list
    knows it; a league fixture's always)."""

    __slots__ = (
        *LISTED_OWN,
        "division",
        "home",
        "away",
        "venue",
        "result",
        "league",
        "begun",
        "stopped",
        "cup_name",
        "cup_level",
    )

    def __init__(self, row: tuple[Any, ...], league: League, divisions: dict[int, Division]):
        # ``LISTED``'s values in its order, unpacked in one statement: loops of ``setattr``
        # over the names (here and in ``ListedResult``) took longer than the rest of a row.
        (
            self.pk,
            self.date,
            self.time,
            self.kind,
            self.status,
            self.walkover_to,
            self.walkover_pending,
            self.withdrew,
            self.original_date,
            self.division_id,
            self.reason,
            home_id,
            home_name,
            home_listed_name,
            away_id,
            away_name,
            away_listed_name,
            venue_name,
            venue_town,
            cup_name,
            winner,
            decided_by,
            home_score,
            away_score,
            result_id,
            *result,
        ) = row
        self.division = divisions.get(self.division_id)
        self.home = ListedTeam(home_id, home_name, home_listed_name)
        self.away = ListedTeam(away_id, away_name, away_listed_name)
        self.venue = ListedVenue(venue_name, venue_town)
        # A cup tie's fixture: its cup's name, which a list gives where it says "Cup".
        self.cup_name = cup_name or ""
        # A knock-out tie's match left level, its play-off game to come: said in its place.
        level = winner == "" and decided_by == PLAYOFF_TO_COME
        self.cup_level = level_words(home_score, away_score) if level else ""
        self.result = None if result_id is None else ListedResult(result)
        self.league = league
        # A game begun at one of its tables, and its play stopped at an abandoned one
        # (``mark_begun``), for a fixture still to be scored.
        self.begun = self.stopped = False

    @property
    def home_name(self) -> str:
        """The home team's name that season (``with_season_names``'s)."""
        return self.home.listed_name

    @property
    def away_name(self) -> str:
        return self.away.listed_name

    def get_status_display(self) -> str:
        return _STATUS_LABELS[self.status]

    def get_kind_display(self) -> str:
        return _KIND_LABELS[self.kind]

    def get_absolute_url(self) -> str:
        return path_for("leagues:fixture", self.pk)


#: The statuses' and kinds' labels by value (a list of 200 fixtures looked each up as an enum).
_STATUS_LABELS = {value: str(label) for value, label in Fixture.Status.choices}
_KIND_LABELS = {value: str(label) for value, label in Fixture.Kind.choices}


def fixture_rows(
    fixtures: QuerySet[Fixture], *, league: League, divisions: Iterable[Division] = ()
) -> list[ListedFixture]:
    """``fixtures`` (``fixture_query``'s, filtered, ordered and sliced as the list wants) as
    a list shows them, in one query: ``ListedFixture`` rows of ``league`` (every fixture of a
    list is of one league), each given its division where it is one of ``divisions``. The
    pages' lists read the same rows by queries built once per connection (below)."""
    return _listed(fixtures.values_list(*LISTED), league, divisions)


def _listed(
    rows: Iterable[tuple[Any, ...]],
    league: League,
    divisions: Iterable[Division],
    *,
    unscored: bool = True,
) -> list[ListedFixture]:
    """``rows`` as ``ListedFixture``s, those whose night has come without a final result
    marked as begun and stopped or not (``mark_begun``: a query where the list has one; with
    ``unscored`` False, only those with a result worked out, for a list that does not say
    whether a match with none has begun)."""
    known = {division.pk: division for division in divisions}
    listed = [ListedFixture(row, league, known) for row in rows]
    return mark_begun(listed, league, unscored=unscored)


def mark_begun(
    fixtures: list[ListedFixture], league: League, *, unscored: bool = True
) -> list[ListedFixture]:
    """Mark each fixture still to play whose night has come (today's, or passed) without a
    final result: with a game begun at one of its tables (``begun``), the list says it is in
    play, as its page does, not that it is scheduled or has no result yet; with its play
    stopped at an abandoned table (``stopped``, ``play_stopped_at``), it says that, not that
    it is in play (``leagues.selectors.live.listed_progress``). No game begins before its
    night (``Fixture.has_started``): a later fixture is not looked for. With ``unscored``
    False, only those with a result worked out (a match in play). One query, only when the
    list has such a fixture."""
    today = None
    marked = []
    for fixture in fixtures:
        result = fixture.result
        if fixture.status != Fixture.Status.SCHEDULED or (result is not None and result.is_final):
            continue
        if result is None and not unscored:
            continue
        today = today or league.today()
        if fixture.date <= today:
            marked.append(fixture)
    if not marked:
        return fixtures
    tables: dict[int, list[TablePlay]] = {fixture.pk: [] for fixture in marked}
    for fixture_id, board, abandoned, decided, begun in (
        _with_latest_status(FixtureTable.objects.filter(fixture__in=list(tables)))
        .annotate(
            abandoned=ExpressionWrapper(ABANDONED_Q, output_field=BooleanField()),
            decided=ExpressionWrapper(
                ~Q(outcome="") | Q(source=FixtureTable.Source.CARD), output_field=BooleanField()
            ),
            begun=Exists(TableGame.objects.filter(table=OuterRef("pk"))),
        )
        .values_list("fixture", "board", "abandoned", "decided", "begun")
    ):
        tables[fixture_id].append(
            TablePlay(board, abandoned=bool(abandoned), decided=bool(decided), begun=begun)
        )
    for fixture in marked:
        fixture.begun = any(table.begun for table in tables[fixture.pk])
        fixture.stopped = bool(play_stopped_at(tables[fixture.pk]))
    return fixtures


#: A division's own fixtures, as its pages list them (by night and by team, its CSV, the
#: printable grid, the embed and its calendar): its league fixtures and the play-offs and
#: friendlies its secretary adds between its teams; not the cup ties filed under it. A cup tie is
#: the cup's: it is filed under its home team's division (whose opponent may be of another) and
#: listed with its teams' own fixtures, marked "Cup" (``team_fixture_rows``, a team's calendar).
#: The kind is written into the SQL (``Written``): the plan PostgreSQL keeps for a prepared read
#: then weighs how few cup ties there are, not any kind at all (a site with no cup tie yet would
#: have it expect no fixture to be a division's own, and read the whole table).
DIVISION_OWN = ~Q(kind=Written(Fixture.Kind.CUP))


def playoff_to_come_q(path: str = "") -> Q:
    """A cup tie undecided, its match level and waiting for its play-off game
    (``cups.models.Tie.playoff_to_come``) as a query asks it; ``path``: the way to the tie
    ("cup_tie__" from its fixture)."""
    return Q(**{f"{path}winner": "", f"{path}decided_by": PLAYOFF_TO_COME})


def playoff_at_table_q(tie: str = "pk") -> Exists:
    """A cup tie's play-off game being played at the table: a hand of it scored on a phone,
    the game still in progress (``cups.models.Tie.playoff_at_table``), as a query asks it;
    ``tie``: the way to the tie from the query's rows ("pk" from a tie, "cup_tie" from its
    fixture)."""
    return Exists(
        Hand.objects.filter(
            game__cup_game__tie=OuterRef(tie),
            game__cup_game__is_playoff=True,
            game__status=GameStatus.IN_PROGRESS,
        )
    )


def division_own(fixtures: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """``fixtures`` (a division's) without the cup ties filed under it (``DIVISION_OWN``)."""
    return fixtures.filter(DIVISION_OWN)


def _division_list(division: int, season: int) -> QuerySet[Fixture]:
    """``division_own(fixture_query(division=division))`` of a division of ``season``: the
    teams' names that season read by its id (``with_season_names``), with no join to the
    division (a night of a 100-team division, 50 fixtures: 0.55 ms of the database's CPU, not
    0.8, where it looked the division up for each)."""
    fixtures = with_season_names(Fixture.objects.filter(division=division), season)
    return division_own(fixtures.order_by("date", "time", "pk"))


#: The pages' lists of fixtures: their queries (the season's names, the result's figures) cost
#: the ORM more to build than the database to run, and are built once per connection
#: (``scoring.services.compiled``; a test compares their rows with ``fixture_rows``').
_division_rows = CompiledRows(
    lambda division, season: _division_list(division, season).values_list(*LISTED),
    kinds=(int, int),
)
_week_rows = CompiledRows(
    lambda division, season, day: (
        _division_list(division, season).filter(date=day).values_list(*LISTED)
    ),
    kinds=(int, int, datetime.date),
)
_season_team_rows = CompiledRows(
    lambda team, season: fixture_query(team=team, season=season).values_list(*LISTED),
    kinds=(int, int),
)
#: The latest results and the next fixtures of a season, by (its league's rule,) how many
#: and what it is read by (``_read_by``).
_latest_rows: dict[tuple[bool, int, str], CompiledRows] = {}
_next_rows: dict[tuple[int, str], CompiledRows] = {}
#: The fixtures awaiting their results, by (its league's rule,) how many.
_awaiting_rows: dict[tuple[bool, int], CompiledRows] = {}
NEXT_STATUSES = Fixture.TO_PLAY


def division_fixture_rows(
    *,
    division: Division,
    team: Team | TeamChoice | None = None,
    week: datetime.date | None = None,
) -> list[ListedFixture]:
    """The division's own fixtures (``DIVISION_OWN``: not the cup ties filed under it) as its
    list shows them: the team's (``team``), the night's (``week``) or all of them. One
    query."""
    if team is not None:
        rows = _division_team_own(division, _season_team_rows.rows(team.pk, division.season_id))
    elif week is not None:
        rows = _week_rows.rows(division.pk, division.season_id, week)
    else:
        rows = _division_rows.rows(division.pk, division.season_id)
    return _listed(rows, division.season.league, [division])


#: Where a listed row (``LISTED``) has its fixture's division and kind.
_DIVISION_AT, _KIND_AT = LISTED.index("division_id"), LISTED.index("kind")


def _division_team_own(division: Division, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Of a team's fixtures of the division's season (``_season_team_rows``, read along the
    fixtures' home and away team indexes), those of ``division`` that are its own
    (``DIVISION_OWN``: not a cup tie). Asked for the division's and the team's together,
    PostgreSQL read them along the division's fixtures, all of them (9,900 of a division of 100
    teams, for the team's 198: some 3 ms)."""
    return [
        row
        for row in rows
        if row[_DIVISION_AT] == division.pk and row[_KIND_AT] != Fixture.Kind.CUP
    ]


def team_fixture_rows(*, entry: TeamEntry, league: League) -> list[ListedFixture]:
    """The entry's team's fixtures that season (``league``: the team's) as its page lists
    them. One query."""
    # A league fixture is of the entry's division; a cup tie may be another's, whose name a
    # team's list does not show.
    rows = _season_team_rows.rows(entry.team_id, entry.season_id)
    return _listed(rows, league, [entry.division])


def latest_result_rows(
    *, season: Season, divisions: Iterable[Division], today: datetime.date, limit: int
) -> list[ListedFixture]:
    """The season's latest ``limit`` results that count, up to ``today`` (a walkover given
    ahead of its night is listed from that night on), latest first, each given its division
    (``divisions``: the season's). One query."""
    league = season.league
    divisions = list(divisions)
    by, owner = _read_by(season, divisions)
    key = (league.show_provisional, limit, by)
    if key not in _latest_rows:
        _latest_rows[key] = CompiledRows(
            lambda owner, day: latest_query(**{by: owner}, until=day, provisional=key[0])[:limit],
            kinds=(int, datetime.date),
        )
    return _listed(_latest_rows[key].rows(owner, today), league, divisions)


def latest_query(
    *,
    division: Division | int | None = None,
    season: Season | int | None = None,
    until: datetime.date,
    provisional: bool | None = None,
) -> QuerySet[Fixture]:
    """The rows (``LISTED``) of the results that count (``counted_query``) of a division or a
    season up to ``until``, latest first. A season's are read back from its last night
    (``season_last_night``), not from ``until``."""
    results = counted_query(division=division, season=season, provisional=provisional)
    results = results.filter(date__lte=until)
    if season is not None:
        results = results.filter(date__lte=season_last_night(season, until))
    return results.values_list(*LISTED)


def season_last_night(season: Season | int, day: datetime.date) -> Subquery:
    """The latest date up to ``day`` of any fixture of the season (NULL: none), each division's
    read from the end of its own index in date order (``fixture_division_list_order``, one
    short read a division). A season's latest results are read back from it, not from
    ``day``: along the index of every league's fixtures in date order, a season over before
    ``day`` (a league between seasons, while others play on) was found by reading every
    fixture dated after its last, of every league (2,558 on the bench's 1,000-team league)."""
    last = (
        Fixture.objects.filter(division=OuterRef("pk"), date__lte=day)
        .order_by("-date")
        .values("date")[:1]
    )
    return Subquery(
        Division.objects.filter(season=season)
        .order_by()
        .values("season")
        .annotate(night=Max(Subquery(last)))
        .values("night")
    )


def next_fixture_rows(
    *, season: Season, divisions: Iterable[Division], today: datetime.date, limit: int
) -> list[ListedFixture]:
    """The season's next ``limit`` fixtures to play (scheduled or postponed), from ``today``
    on, each given its division (``divisions``: the season's). One query."""
    divisions = list(divisions)
    by, owner = _read_by(season, divisions)
    if (limit, by) not in _next_rows:
        _next_rows[limit, by] = CompiledRows(
            lambda owner, day: next_query(**{by: owner}, since=day)[:limit],
            kinds=(int, datetime.date),
        )
    return _listed(_next_rows[limit, by].rows(owner, today), season.league, divisions)


def next_query(
    *,
    division: Division | int | None = None,
    season: Season | int | None = None,
    since: datetime.date,
) -> QuerySet[Fixture]:
    """The rows (``LISTED``) of the fixtures of a division or a season still to play
    (``NEXT_STATUSES``) from ``since`` on, in date order. Their statuses are written into the
    SQL (``config.queries.Written``): PostgreSQL's one plan for the prepared statement reads
    them along the index of the fixtures still to play (``fixture_to_play_order``), not along
    every league's fixtures from that day on looking for them (all of them, for a season with
    none left to play)."""
    return (
        fixture_query(division=division, season=season, statuses=written(NEXT_STATUSES))
        .filter(date__gte=since)
        .values_list(*LISTED)
    )


def awaiting_result_rows(
    *, season: Season, divisions: Iterable[Division], today: datetime.date, limit: int
) -> list[ListedFixture]:
    """The season's latest ``limit`` league fixtures whose night has passed (before
    ``today``) without a result that counts (``awaiting_query``), latest first, each given
    its division (``divisions``: the season's). One query."""
    league = season.league
    key = (league.show_provisional, limit)
    if key not in _awaiting_rows:
        _awaiting_rows[key] = CompiledRows(
            lambda season, day: awaiting_query(season=season, before=day, provisional=key[0])[
                :limit
            ],
            kinds=(int, datetime.date),
        )
    # A list that says only "Result awaited" reads nothing of games begun at its tables but
    # whether a match in play has stopped (its score says so); of a result put forward it says
    # where it stands from its stored result (``live.awaiting_words``).
    rows = _awaiting_rows[key].rows(season.pk, today)
    return _listed(rows, league, divisions, unscored=False)


def awaiting_query(
    *, season: Season | int, before: datetime.date, provisional: bool
) -> QuerySet[Fixture]:
    """The rows (``LISTED``) of the season's league fixtures whose night has passed (dated
    before ``before``, the league's today) without a result that counts, latest first:
    those still scheduled (nothing entered, or a match still in play), and, in a league that
    counts only agreed results (``provisional``: its ``show_provisional``, off), those
    played to the end and not yet agreed (not expunged: those never count). Not a
    postponed, void or walked-over one: nobody awaits its result.

    The few there are, in every league, are found along the indexes of them (the scheduled
    ones before the date along ``fixture_to_play_order``, whose statuses are written into
    the SQL, ``config.queries.Written``; the results to agree along ``result_to_agree``),
    then looked up by id (``config.queries.AmongFew``) and the season's kept: never read
    along every fixture played, whatever the plan PostgreSQL keeps for the prepared
    statement guesses of the date."""
    scheduled = (
        Fixture.objects.filter(status__in=written([Fixture.Status.SCHEDULED]), date__lt=before)
        .order_by()
        .values("pk")
    )
    awaited = Q(AmongFew("pk", scheduled))
    if not provisional:  # a result played to the end counts at once where it is provisional
        to_agree = (
            FixtureResult.objects.filter(is_final=True, confirmed=False, expunged=False)
            .order_by()
            .values("fixture")
        )
        awaited |= Q(status__in=written([Fixture.Status.PLAYED])) & Q(AmongFew("pk", to_agree))
    return (
        fixture_query(season=season)
        .filter(awaited, kind=Fixture.Kind.LEAGUE, date__lt=before)
        .order_by("-date", "-time", "-pk")
        .values_list(*LISTED)
    )


def _read_by(season: Season, divisions: list[Division]) -> tuple[str, int]:
    """How a season's list is read: ("division", its id) for a season of one division (the
    database finds its latest nights by the division's own index of dates, not among every
    league's latest), else ("season", its id)."""
    if len(divisions) == 1:
        return "division", divisions[0].pk
    return "season", season.pk


def fixture_query(
    *,
    division: Division | int | None = None,
    season: Season | int | None = None,
    team: Team | int | None = None,
    statuses: Iterable[str] | None = None,
) -> QuerySet[Fixture]:
    """The fixtures of a division, a season, a team (or both), of some statuses, in date order
    and with the teams' names that season (``with_season_names``): what ``fixture_list`` reads
    with their teams, venue and result, and ``fixture_rows`` as a list's rows. Each may be
    given by its id."""
    if isinstance(division, Division):
        fixtures = division.fixtures.all()  # each given that very division
    elif division is not None:
        fixtures = Fixture.objects.filter(division=division)
    else:
        fixtures = Fixture.objects.all()
    fixtures = with_season_names(fixtures).order_by("date", "time", "pk")
    if season is not None:
        fixtures = fixtures.filter(division__season=season)
    if team is not None:
        fixtures = fixtures.filter(Q(home=team) | Q(away=team))
    if statuses is not None:
        fixtures = fixtures.filter(status__in=list(statuses))
    return fixtures


def fixture_list(
    *,
    division: Division | None = None,
    season: Season | None = None,
    team: Team | None = None,
    statuses: Iterable[str] | None = None,
    standing: bool = False,
) -> QuerySet[Fixture]:
    """Fixtures in date order with teams, venue and stored result, in one query, and their
    divisions (with season and league) in one more unless ``division`` is given (then it is
    theirs). ``standing``: each with ``result_counts`` too (``counting.fixtures_with_standing``,
    which the API and the calendar say; a page's list reads how a result stands from the
    result itself, ``result_mark``, and is spared its joins)."""
    fixtures = _with_related(
        fixture_query(division=division, season=season, team=team, statuses=statuses), division
    )
    return fixtures_with_standing(fixtures) if standing else fixtures


def _with_related(fixtures: QuerySet[Fixture], division: Division | None) -> QuerySet[Fixture]:
    """``fixtures`` read with their teams, venue and result, and their divisions once for the
    list unless they are ``division``'s (reached through it, each is given that very division:
    no query)."""
    if division is None:
        fixtures = fixtures.prefetch_related(LISTED_DIVISIONS)
    return fixtures.select_related("home", "away", "venue", "result")


def division_fixtures(
    *, division: Division, statuses: Iterable[str] | None = None, standing: bool = False
) -> QuerySet[Fixture]:
    """The division's own fixtures (``DIVISION_OWN``: not the cup ties filed under it) as
    ``fixture_list`` reads them: what its embed, printable grid, calendar and the API list, as
    its pages' rows (``division_fixture_rows``) do."""
    return division_own(fixture_list(division=division, statuses=statuses, standing=standing))


#: The nights of a division's own fixtures, each with the kinds played that night and the night
#: each was first arranged for, by a query built once per connection.
def division_nights_query(division: Division | int) -> QuerySet[Fixture]:
    """Each night of the division's own fixtures once a kind and first night (the date a
    re-arranged fixture was first arranged for), in order: read from ``fixture_division_nights``
    alone, however many fixtures a night has."""
    return (
        division_own(Fixture.objects.filter(division=division))
        .order_by("date", "kind", "original_date")
        .values_list("date", "kind", "original_date")
        .distinct()
    )


_division_nights_read = CompiledRows(division_nights_query)


class Night(NamedTuple):
    """A night of a division's fixtures list: its date, and ``week``, its number among the
    division's league nights (what "Week 3 of 5" counts, as the API's rounds do), or None on a
    night that is not one (a play-off's, a friendly's, or one a fixture was re-arranged to),
    which the list heads by what is played (``label``: "Week 3", "Play-off", "Re-arranged")."""

    date: datetime.date
    week: int | None
    label: str


#: How a night that is not a league night is headed, by the kinds played on it: a league fixture
#: there was re-arranged to it.
NIGHT_WORDS = {Fixture.Kind.LEAGUE: "Re-arranged"} | {
    kind: str(kind.label) for kind in Fixture.Kind if kind != Fixture.Kind.LEAGUE
}


def division_nights(*, division: Division) -> list[Night]:
    """The nights of the division's own fixtures (``DIVISION_OWN``: a cup night is not one), in
    order, the league nights numbered (one query). The league nights are those its league
    fixtures were arranged for (the fixture list's, or a fixture's added by hand): a fixture
    re-arranged is listed on its new night, which is no week of its own, and its first night
    stays a week, as each later night keeps its round's number, even when every fixture of it
    was re-arranged."""
    kinds: dict[datetime.date, set[str]] = {}
    weeks: set[datetime.date] = set()
    for day, kind, arranged in _division_nights_read.rows(division.pk):
        kinds.setdefault(day, set()).add(kind)
        if kind == Fixture.Kind.LEAGUE:
            weeks.add(arranged or day)
            kinds.setdefault(arranged or day, set())
    nights = []
    week = 0
    for day in sorted(kinds):
        if day in weeks:
            week += 1
            nights.append(Night(day, week, f"Week {week}"))
        else:
            first, *more = [NIGHT_WORDS[kind] for kind in Fixture.Kind if kind in kinds[day]]
            nights.append(Night(day, None, join_words([first, *(m.lower() for m in more)])))
    return nights


def counted_results(
    *, division: Division | None = None, season: Season | None = None, team: Team | None = None
) -> QuerySet[Fixture]:
    """The results that count (``leagues.selectors.counting``), latest first. Within one league
    (a division's or a season's results) its own ``show_provisional`` is the rule, so the query
    need not join each fixture's league to read it (fewer joins for the database to plan)."""
    return _with_related(counted_query(division=division, season=season, team=team), division)


def counted_query(
    *,
    division: Division | int | None = None,
    season: Season | int | None = None,
    team: Team | None = None,
    provisional: bool | None = None,
) -> QuerySet[Fixture]:
    """``counted_results`` without the teams, venue and result (for ``fixture_rows``);
    ``provisional``: the league's rule, when the division or season is given by its id."""
    owner = division.season if isinstance(division, Division) else season
    if isinstance(owner, Season):
        provisional = owner.league.show_provisional
    return (
        fixture_query(division=division, season=season, team=team)
        .filter(counts_q(provisional=provisional))
        .order_by("-date", "-time", "-pk")
    )


#: Fixtures a re-generation keeps whatever happens: their result or decision is stored.
KEPT = (Fixture.Status.PLAYED, Fixture.Status.WALKOVER, Fixture.Status.VOID)


#: A table whose game was abandoned at the table and nothing since, of tables read with
#: ``_with_latest_status``: scored on the phones, undecided, its latest game abandoned. The one
#: rule of an abandoned table: its result comes from the score card, or a secretary starts its
#: game again.
ABANDONED_Q = Q(source=FixtureTable.Source.HANDS, outcome="", latest_status=GameStatus.ABANDONED)


def _with_latest_status(tables: QuerySet[FixtureTable]) -> QuerySet[FixtureTable]:
    """``tables`` with ``latest_status``, their latest game's status (None: no game)."""
    latest = TableGame.objects.filter(table=OuterRef("pk")).order_by("-number")
    return tables.annotate(latest_status=Subquery(latest.values("game__status")[:1]))


def with_abandoned_game(tables: QuerySet[FixtureTable]) -> QuerySet[FixtureTable]:
    """``tables`` narrowed to those whose game was abandoned at the table and nothing since
    (``ABANDONED_Q``; ``leagues.services.seating.mark_abandoned`` marks a page's tables by it,
    ``mark_begun`` a list's fixtures). Each has ``stopped_home`` and ``stopped_away``, the score
    its game stopped at."""
    latest = TableGame.objects.filter(table=OuterRef("pk")).order_by("-number")
    stopped = Side.objects.filter(game=OuterRef("stopped_game"))
    return (
        _with_latest_status(tables)
        .filter(ABANDONED_Q)
        .annotate(
            stopped_game=Subquery(latest.values("game")[:1]),
            stopped_home=Subquery(stopped.filter(label="A").values("score")[:1]),
            stopped_away=Subquery(stopped.filter(label="B").values("score")[:1]),
        )
    )


def stopped_at(table: FixtureTable) -> str:
    """The score a table's abandoned game stopped at, home first ("5–3"), as
    ``with_abandoned_game`` reads it."""
    return f"{table.stopped_home or 0}–{table.stopped_away or 0}"  # type: ignore[attr-defined]


class TablePlay(NamedTuple):
    """One of a match's tables as where its play stands reads it (``play_stopped_at``)."""

    board: int
    abandoned: bool
    """Its game abandoned at the table and nothing since (``ABANDONED_Q``)."""
    decided: bool
    """Its result in: an outcome, or its figures from the score card."""
    begun: bool
    """A game at it."""


def play_stopped_at(tables: Sequence[TablePlay]) -> list[TablePlay]:
    """The tables at which a begun match's play stands still: its abandoned tables, while no
    other table is being played (a game at it, undecided); [] while play goes on, or none was
    abandoned. The one rule of a match whose play has stopped: it goes on only when the
    secretary starts the table again or its result is entered from the score card
    (``leagues.selectors.live.play_stopped`` words it from a page's tables, ``mark_begun``
    marks a list's fixtures by it). No query."""
    if any(table.begun and not table.decided for table in tables if not table.abandoned):
        return []
    return [table for table in tables if table.abandoned]


def results_to_see_to(*, league: League) -> list[Fixture]:
    """What the secretary's desk lists, oldest first: the league's fixtures played to the end
    whose result is not confirmed yet, each with ``open_status``, its open submission's
    ("submitted", "disputed") or None when nobody has submitted it, and ``open_words``, how
    that stands in the words every page uses ("Result disputed"); and its fixtures still to
    play held up by a table whose game was abandoned (``with_abandoned_game``), each with
    ``abandoned_tables``, those tables (``abandoned_at``: the score each stopped at); and its
    cup ties level waiting for their play-off game's score (``playoff_to_come``), each with
    ``playoff_at_table``. Three queries, however many tables."""
    open_submission = ResultSubmission.objects.filter(
        fixture=OuterRef("pk"), status__in=ResultSubmission.OPEN_STATUSES
    ).order_by("-pk")
    finished = list(
        Fixture.objects.filter(
            is_provisional_q(), division__season__league=league, result__is_final=True
        )
        .annotate(open_status=Subquery(open_submission.values("status")[:1]))
        .select_related(*DESK_RELATED)
    )
    for fixture in finished:  # as every page says a result's standing
        fixture.open_words = (
            result_words(fixture.open_status)
            if fixture.open_status
            else f"Every table finished, result {NOT_SUBMITTED}"
        )
    # A knock-out cup tie whose counted match is level, its play-off game's score to come
    # (``playoff_at_table``: its game being played at the table, scored on a phone).
    level = list(
        Fixture.objects.filter(playoff_to_come_q("cup_tie__"), division__season__league=league)
        .annotate(playoff_at_table=playoff_at_table_q("cup_tie"))
        .select_related(*DESK_RELATED)
    )
    for fixture in level:
        fixture.open_status, fixture.playoff_to_come = None, True
    held_up: dict[int, Fixture] = {}
    for table in (
        with_abandoned_game(
            FixtureTable.objects.filter(
                fixture__division__season__league=league, fixture__status__in=Fixture.TO_PLAY
            )
        )
        .select_related(*(f"fixture__{path}" for path in DESK_RELATED))
        .order_by("fixture", "board")
    ):
        fixture = held_up.get(table.fixture_id)
        if fixture is None:
            fixture = held_up[table.fixture_id] = table.fixture
            fixture.open_status = None
            fixture.abandoned_tables = []
        table.abandoned, table.abandoned_at = True, stopped_at(table)
        fixture.abandoned_tables.append(table)
    return sorted(
        [*finished, *level, *held_up.values()],
        key=lambda fixture: (fixture.date, fixture.time, fixture.pk),
    )


def fixtures_on_nights_off(*, seasons: Iterable[Season]) -> list[Fixture]:
    """The seasons' fixtures still to play (scheduled) on one of their own nights with no
    league, a night off added after the list was made: for the secretary to re-arrange, oldest
    first. One query (none where no season has a night off)."""
    wanted = Q()
    for season in seasons:
        if season.exclusions:
            wanted |= Q(division__season=season, date__in=sorted(season.excluded_dates))
    if not wanted:
        return []
    return list(
        Fixture.objects.filter(wanted, status=Fixture.Status.SCHEDULED)
        .select_related(*DESK_RELATED)
        .order_by("date", "time", "pk")
    )


def results_missing(*, league: League) -> list[Fixture]:
    """The league's fixtures whose night has passed with no table scored to a finish and no
    decision (still scheduled): the results to enter from the score card, oldest first."""
    return list(
        Fixture.objects.filter(
            division__season__league=league,
            status=Fixture.Status.SCHEDULED,
            date__lt=league.today(),
        )
        .exclude(result__is_final=True)
        .select_related(*DESK_RELATED)
        .order_by("date", "time", "pk")
    )


def kept_by_generation(division: Division) -> QuerySet[Fixture]:
    """The division's league fixtures a re-generation of its list keeps exactly as they are:
    decided ones (``KEPT``) and any with a game started, whoever plays in them (a withdrawn
    team's too). The form's count and the plan (``services.fixtures``) both read it."""
    started = TableGame.objects.filter(table__fixture__division=division).values("table__fixture")
    return Fixture.objects.filter(division=division, kind=Fixture.Kind.LEAGUE).filter(
        Q(status__in=KEPT) | Q(pk__in=started)
    )


def division_kept_count(*, division: Division) -> int:
    """How many fixtures a re-generation of the division's list would keep (one query)."""
    return kept_by_generation(division).count()


def generation_settings(*, division: Division) -> dict[str, Any]:
    """The settings the division's list was last generated with, for generating it again (a
    team added, say): the fixtures page's form starts from them all, so that a new list keeps
    the week off or the end date the last one had. The start, the legs and the spreading are
    the last generation's (its audit entry); the league night and the nights with no league
    are the season's calendar, where generating stores them (and the season's page changes
    them). Before any generation: the season's start and calendar, home and away as the
    match format allows, no spreading. ``spread_unrecorded`` (not a field of the form): the
    last generation is from before its week off and end date were recorded, so the form cannot
    bring them back."""
    season = division.season
    entry = (
        AuditEntry.objects.filter(
            league=season.league_id,
            action=AuditEntry.Action.FIXTURES_GENERATED,
            after__division=division.pk,
        )
        .order_by("-pk")
        .first()
    )
    last: dict[str, Any] = entry.after if entry is not None and entry.after else {}
    return {
        "start": _iso_date(last.get("start")) or season.starts_on,
        "league_night": season.night,
        "legs": last.get("legs") or min(2, season.get_match_format().meetings),
        "exclusions": nights_off.text(season.nights_off),
        "rest_every": last.get("rest_every"),
        "end_by": _iso_date(last.get("end_by")),
        "spread_unrecorded": bool(last) and not {"rest_every", "end_by"} <= last.keys(),
    }


def _iso_date(value: Any) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def division_adjustments(*, division: Division) -> QuerySet[PointAdjustment]:
    """The division's point adjustments, latest first, with team, fixture and who made them."""
    return (
        PointAdjustment.objects.filter(entry__division=division)
        .select_related("entry__team", "fixture__home", "fixture__away", "made_by")
        .order_by("-made_at", "-pk")
    )


def _fixture_shape(fixture_id: int) -> QuerySet[Fixture]:
    """A fixture with its teams, venue, result and league, and whether it has tables and point
    adjustments (``has_tables``, ``has_adjustments``): its page reads them only where it has
    some (a fixture entered from its score card alone has no tables; few have adjustments)."""
    of_it = OuterRef("pk")
    return (
        Fixture.objects.select_related(*FIXTURE_RELATED)
        .filter(pk=fixture_id)
        .annotate(
            has_tables=Exists(FixtureTable.objects.filter(fixture=of_it)),
            has_adjustments=Exists(PointAdjustment.objects.filter(fixture=of_it)),
        )
    )


#: A fixture's page reads it by a query built once per connection
#: (``scoring.services.compiled``): its five joins cost more to build than to run.
_fixture_read = CompiledRead(_fixture_shape)


def fixture_get(*, pk: int) -> Fixture:
    """A fixture with its teams, venue, result and league (``_fixture_shape``): one query;
    raises ``Fixture.DoesNotExist``."""
    return _fixture_read.one(pk)


def with_scores(games: QuerySet[TableGame]) -> QuerySet[TableGame]:
    """Table games with each game's score, home first (``home_score``, ``away_score``: its
    sides A and B), read in the same query: what the ``table_games`` tag
    (``leagues.templatetags.words``) gives a captain to check against the score card."""

    def score(label: str) -> Subquery:
        return Subquery(Side.objects.filter(game=OuterRef("game"), label=label).values("score")[:1])

    return games.annotate(home_score=score("A"), away_score=score("B"))


def table_games() -> QuerySet[TableGame]:
    """A table's games in order, with their sides in seat order, each game's number of
    ``hands`` and its score (``with_scores``): one query for every table's games, one for
    their sides."""
    return (
        with_scores(TableGame.objects.all())
        .select_related("game")
        .annotate(hands=Count("game__hands"))
        .prefetch_related(Prefetch("game__sides", queryset=Side.objects.order_by("position")))
        .order_by("number")
    )


SEATS = ("home_player_1", "home_player_2", "away_player_1", "away_player_2")


def fixture_tables() -> QuerySet[FixtureTable]:
    """A fixture's tables in board order, with the pairs and ``table_games``."""
    return (
        FixtureTable.objects.select_related(*SEATS)
        .prefetch_related(Prefetch("games", queryset=table_games()))
        .order_by("board")
    )


#: A fixture's tables with their pairs, and its adjustments, by queries built once per
#: connection (``scoring.services.compiled``): the ORM took longer to build the two than the
#: database to run them, on every fixture page.
_fixture_tables_read = CompiledRead(
    lambda fixture_id: (
        FixtureTable.objects.filter(fixture=fixture_id).select_related(*SEATS).order_by("board")
    )
)
_fixture_adjustments_read = CompiledRead(
    lambda fixture_id: PointAdjustment.objects.filter(fixture=fixture_id)
)


def fixture_detail(*, pk: int) -> Fixture:
    """A fixture with its result, tables and pairs, games with their sides and hands, and
    adjustments: up to five queries."""
    return fixture_with_tables(fixture=fixture_get(pk=pk))


def fixture_with_tables(*, fixture: Fixture) -> Fixture:
    """The fixture as ``fixture_get`` reads it with its tables and pairs, games with their
    sides and hands, and adjustments read onto it: up to four queries, each only where the
    fixture has such rows (its ``has_tables`` and ``has_adjustments``; a page that has the
    fixture already does not read it again)."""
    tables = []
    if fixture.has_tables:  # type: ignore[attr-defined]
        tables = _rows_given(_fixture_tables_read, fixture, "fixture")
        _read_games_onto(tables)
    _read_onto(fixture, "tables", tables)
    adjustments = []
    if fixture.has_adjustments:  # type: ignore[attr-defined]
        adjustments = _rows_given(_fixture_adjustments_read, fixture, "fixture")
    _read_onto(fixture, "adjustments", adjustments)
    return fixture


#: A fixture's tables' games (``table_games``: with their games and each one's number of hands)
#: and the games' sides in seat order, by queries built once per connection and number of tables
#: (of games): building them took the ORM some 2.5 ms of each fresh render of a fixture page
#: whose tables are being played, longer than the database took to run them.
_table_games_read = CompiledReadIn(
    lambda table_ids: (
        with_scores(TableGame.objects.filter(table__in=table_ids))
        .select_related("game")
        .annotate(hands=Count("game__hands"))
        .order_by("number")
    )
)
_game_sides_read = CompiledReadIn(
    lambda game_ids: Side.objects.filter(game__in=game_ids).order_by("position")
)


def _read_games_onto(tables: list[FixtureTable]) -> None:
    """Each table's games read onto it (``table.games.all()``) and each game's sides onto the
    game, as ``Prefetch("games", queryset=table_games())`` leaves them: two queries (one where
    no game has begun)."""
    games = _table_games_read.rows([table.pk for table in tables])
    sides: dict[int, list[Side]] = {table_game.game_id: [] for table_game in games}
    for side in _game_sides_read.rows(list(sides)):
        sides[side.game_id].append(side)
    by_table: dict[int, list[TableGame]] = {table.pk: [] for table in tables}
    for table_game in games:
        for side in sides[table_game.game_id]:
            side.game = table_game.game
        _read_onto(table_game.game, "sides", sides[table_game.game_id])
        by_table[table_game.table_id].append(table_game)
    for table in tables:
        for table_game in by_table[table.pk]:
            table_game.table = table
        _read_onto(table, "games", by_table[table.pk])


def _read_onto(owner: Model, name: str, rows: list[Any]) -> None:
    """``rows`` as ``owner``'s related ``name`` (``owner.name.all()`` gives them without a
    query), as ``prefetch_related`` leaves them."""
    queryset = getattr(owner, name).all()
    queryset._result_cache = rows
    queryset._prefetch_done = True
    owner.__dict__.setdefault("_prefetched_objects_cache", {})[name] = queryset


def team_get(*, pk: int) -> Team:
    """The team with its league and home venue; raises ``Team.DoesNotExist``."""
    return _team_read.one(pk)


def _team_entries_shape(team_id: int) -> QuerySet[TeamEntry]:
    return (
        TeamEntry.objects.filter(team=team_id)
        .select_related("division", "season", "team__league", "team__home_venue")
        .order_by("-season__starts_on", "pk")
    )


#: A team page's seasons, by a query built once per connection (``scoring.services.compiled``).
_team_entries_read = CompiledRead(_team_entries_shape)


def team_with_entries(*, pk: int) -> tuple[Team, list[TeamEntry]]:
    """The team as ``team_get`` reads it, and its divisions season by season, latest first,
    with their seasons (what the team page shows of them), each given that team: one query, the
    team read with its seasons (two for a team never entered in one, read then by
    ``team_get``); raises ``Team.DoesNotExist``."""
    entries = _team_entries_read.rows(pk) if 0 < pk <= LARGEST_ID else []
    return _read_with(entries, "team", lambda: team_get(pk=pk))


#: A team's squad of a season, by a query built once per connection (team, season).
_team_squad_read = CompiledReadIn(
    lambda ids: (
        Registration.objects.filter(team=ids[0], season=ids[1])
        .select_related("player")
        .order_by("player__name")
    )
)


def team_squad(*, team: Team, season: Season) -> list[Registration]:
    """The team's players that season, by name, each with its player."""
    return _team_squad_read.rows([team.pk, season.pk])


#: A player, by a query built once per connection.
_player_read = CompiledRead(lambda pk: Player.objects.filter(pk=pk))


def player_get(*, pk: int) -> Player:
    """The player of this id; raises ``Player.DoesNotExist``."""
    return _player_read.one(pk)


def _player_tables_shape(
    player_id: int, kinds: Collection[str] = LEAGUE_ONLY
) -> QuerySet[FixtureTable]:
    seated = Q()
    for seat in ("home_player_1", "home_player_2", "away_player_1", "away_player_2"):
        seated |= Q(**{seat: player_id})
    return (
        FixtureTable.objects.filter(seated)
        .filter(counts_q("fixture__", kinds=kinds))
        .annotate(
            provisional=ExpressionWrapper(
                is_provisional_q("fixture__"), output_field=BooleanField()
            )
        )
        .select_related(
            "fixture__home",
            "fixture__away",
            "home_player_1",
            "home_player_2",
            "away_player_1",
            "away_player_2",
        )
        .order_by("-fixture__date", "-fixture__pk")
    )


#: Building the tables' query (the counting rule's joins, six tables' rows read with them)
#: costs the ORM far more than running it: it is built once per connection and kinds of
#: fixture (``scoring.services.compiled``; a test compares its rows with the queryset's).
_player_tables_reads = {
    kinds: CompiledRead(lambda pk, kinds=kinds: _player_tables_shape(pk, kinds))
    for kinds in (LEAGUE_ONLY, (Fixture.Kind.CUP,), (Fixture.Kind.LEAGUE, Fixture.Kind.CUP))
}


def player_tables(*, player: Player, kinds: tuple[str, ...] = LEAGUE_ONLY) -> list[FixtureTable]:
    """The fixture tables the player sat at in results that count, of the ``kinds`` of fixture
    (the league's by default; cup ties played as fixtures, or both: one of
    ``_player_tables_reads``' keys), latest first (each marked ``provisional`` when not yet
    confirmed), with their games' scores (three queries: tables, games, sides). A game is read
    with its status and winner only, a side with its label and score (not the ruleset or the
    players, which the page does not show)."""
    tables = _player_tables_reads[tuple(kinds)].rows(player.pk)
    games = (
        TableGame.objects.select_related("game")
        .only("table", "number", "game__status", "game__winner")
        .prefetch_related(
            Prefetch(
                "game__sides",
                queryset=Side.objects.only("game", "label", "score").order_by("position"),
            )
        )
    )
    prefetch_related_objects(tables, Prefetch("games", queryset=games))
    return tables


def _player_registrations_shape(player_id: int) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(player=player_id)
        .select_related("team", "season__league")
        .order_by("-season__starts_on", "pk")
    )


#: A player page's teams, by a query built once per connection (``scoring.services.compiled``).
_player_registrations_read = CompiledRead(_player_registrations_shape)


def player_registrations(*, player: Player) -> list[Registration]:
    """The player's teams season by season, latest first, with their seasons and leagues, each
    given ``player``."""
    return _rows_given(_player_registrations_read, player, "player")


def _rows_given(read: CompiledRead[M], owner: Model, field: str) -> list[M]:
    """``read``'s rows for ``owner``'s id, each given ``owner`` as ``field`` (the page has it:
    no query reads it again)."""
    rows = read.rows(owner.pk)
    for row in rows:
        setattr(row, field, owner)
    return rows


def league_venues(*, league: League) -> QuerySet[Venue]:
    """The venues the league keeps: its teams' homes and fixtures' venues are chosen from
    these, and its secretaries change only these."""
    return Venue.objects.filter(league=league).order_by("name", "town")


def league_players_available(*, league: League) -> QuerySet[Player]:
    """The players a secretary of ``league`` may register: the league's own and anyone not
    registered in another league (``leagues.permissions.player_is_free`` has the last word)."""
    elsewhere = Registration.objects.exclude(season__league=league).values("player")
    return Player.objects.exclude(pk__in=elsewhere).order_by("name", "pk")


def league_players(*, league: League) -> QuerySet[Player]:
    """The league's own players: everyone registered for one of its teams in any season."""
    return (
        Player.objects.filter(registrations__season__league=league)
        .distinct()
        .order_by("name", "pk")
    )


#: Why a result has no pegs (nor hang jacks) to give, where no table gave them: it was imported
#: from the league's own records, whose file gives a played match's match points and games
#: alone (``fixtures_import``): its stored 0–0 is not recorded, never a score.
IMPORTED_WITHOUT_PEGS = "not in the imported records"


def result_bonus(
    fmt: MatchFormat, result: FixtureResult | None, gap: PegsGap | None
) -> tuple[int, int] | None:
    """The bonus for the higher aggregate each side's match points (and so its league points)
    include, as the match engine gave it from the pegs the result adds up
    (``match.aggregate_bonus``): the figure the result's line needs to add up. None where the
    format gives no bonus, the match is not finished, was a walkover, or was imported with its
    match points alone (``gap.imported``: the engine gave it no bonus of its own)."""
    if result is None or not result.is_final or result.is_walkover or not fmt.aggregate_bonus:
        return None
    if gap is not None and gap.imported:
        return None
    return aggregate_bonus(fmt, result.home_pegs, result.away_pegs)


class PegsGap(NamedTuple):
    """Tables of a result whose pegs are not known (``FixtureTable.has_pegs``), or a result
    with no tables at all (imported: ``IMPORTED_WITHOUT_PEGS``)."""

    every: bool  # no table's: the result has no pegs to give, not 0–0
    boards: str  # "table 1", "tables 1 and 3"
    verb: str  # "has", "have"
    counted: str  # the tables the result's pegs are from: "tables 2 and 4"
    only: str  # "the only one", "the only ones" (with game scores on the card)
    why: str = "no game scores on the card"  # why, where no table's pegs are known
    imported: bool = False  # imported without tables: its hang jacks are not known either
    tables_known: bool = True  # the tables each side won (an import's, where its games say)


PEGS = ("home_pegs", "away_pegs")
HANG_JACKS = ("home_hang_jacks", "away_hang_jacks")
TABLES_WON = ("home_tables", "away_tables", "tables_halved")


def not_recorded(result: FixtureResult) -> frozenset[str]:
    """The stored result's figures nobody recorded (stored 0, which is not a score): the pegs
    where no table's are known, nor an import's (``FixtureResult.pegs_recorded``); and of a
    result imported with its match points and games alone (``FixtureResult.imported``), its
    hang jacks too, and its tables won where its games do not say them (the match engine gives
    them where they do, ``match.points_result``: a Yorkshire 8–2 in 3–1 games is 3 tables to
    1; a Trinidad 7–5 says none); and of a walkover, given without play, its pegs and hang
    jacks (its tables and games are the walkover's, and count). What the pages (``pegs_gap``,
    a walkover's figures) and the API (``api.schemas.result_out``) leave out."""
    names: set[str] = set()
    if result.is_walkover:
        names.update(PEGS)
        names.update(HANG_JACKS)
    if not result.pegs_recorded:
        names.update(PEGS)
    if result.imported:
        names.update(HANG_JACKS)
        if not (result.home_tables or result.away_tables or result.tables_halved):
            names.update(TABLES_WON)
    return frozenset(names)


def pegs_gap(tables: Iterable[FixtureTable], result: FixtureResult | None = None) -> PegsGap | None:
    """Which of the fixture's tables gave no pegs (their card had no game scores), or None
    when every table's pegs are known: how the fixture's and the result's pages say it, and
    which tables the pegs they give are from (a total of some tables is not the match's).
    ``result`` (the fixture's): one imported with its match points and games alone
    (``FixtureResult.imported``) has neither its pegs nor its hang jacks known."""
    tables = list(tables)
    if result is not None and result.imported:
        return PegsGap(
            True,
            "",
            "",
            "",
            "",
            why=IMPORTED_WITHOUT_PEGS,
            imported=True,
            tables_known=not not_recorded(result).issuperset(TABLES_WON),
        )
    boards = [str(table.board) for table in tables if not table.has_pegs]
    if not boards:
        return None
    counted = [str(table.board) for table in tables if table.has_pegs]
    return PegsGap(
        every=not counted,
        boards=f"table{pluralize(len(boards))} {join_words(boards)}",
        verb=pluralize(len(boards), "has,have"),
        counted=f"table{pluralize(len(counted))} {join_words(counted)}",
        only=f"the only one{pluralize(len(counted))}",
    )
