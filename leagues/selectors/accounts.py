"""Reads for a logged-in player: the fixtures of the teams they captain this season, their
teams in a division, and the leagues they asked for (or, for the site's operator, how many
wait for them)."""

from __future__ import annotations

import datetime
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from leagues.models import (
    INVITATION_UNANSWERED,
    Division,
    Fixture,
    Invitation,
    League,
    LeagueRequest,
    Player,
    ResultSubmission,
    Season,
    TableGame,
    Team,
    TeamEntry,
    day_word,
)
from leagues.permissions import (
    BY_SECRETARY,
    BY_SITE_OPERATOR,
    BY_TABLE_LINK,
    can_approve_leagues,
    captain_of,
)
from leagues.selectors.counting import result_words
from leagues.selectors.fixtures import (
    from_card,
    pegs_gap,
    result_bonus,
    seasons_now,
    with_scores,
)
from leagues.selectors.live import mark_stopped, status_words
from leagues.selectors.people import acted_words, name_people, person_name, player_name_of
from leagues.zones import now_in
from scoring.actors import Account

SUBMIT, CARD, CONFIRM, WAIT, NONE = "submit", "card", "confirm", "wait", ""
#: The steps that wait for the captain: a result to submit (or its score card's to enter again
#: once corrected), or the other side's to confirm or dispute (a score card to enter waits for
#: them too: ``captain_sections``).
WAITING_FOR_YOU = (SUBMIT, CARD, CONFIRM)
PAST, TONIGHT, COMING, POSTPONED = "past", "tonight", "coming", "postponed"


@dataclass(frozen=True)
class CaptainFixture:
    """One fixture on the captain's page and the step the captain can take."""

    fixture: Fixture
    team: Any  # the captain's team in it
    submission: ResultSubmission | None
    # SUBMIT, CARD (its card's figures to put right and enter again), CONFIRM (confirm or
    # dispute), WAIT (for the other side) or NONE
    action: str
    status_words: str  # where the match stands, as the fixture's page says it ("In play")
    # PAST, TONIGHT or COMING: its date against its league's today; POSTPONED (no date)
    when: str = ""
    sides: frozenset[str] = frozenset()  # the sides ("home", "away") the captain captains

    @property
    def date(self) -> datetime.date:
        return self.fixture.date

    @property
    def result_words(self) -> str:
        """Where its submitted result stands, as the fixture's page says it (``result_words``):
        "Result settled by the secretary", "Result confirmed by both captains"."""
        submission = self.submission
        return (
            result_words(submission.status, submission.confirmed_as)
            if submission is not None
            else ""
        )

    @property
    def bonus(self) -> tuple[int, int] | None:
        """The bonus for the higher aggregate its result's score includes, home first, as its
        result page gives it (``result_bonus``): "4–6" beside tables 2–2 adds up. None where
        there is none. From what the row holds (its result and tables): no query."""
        fixture = self.fixture
        result = getattr(fixture, "result", None)
        return result_bonus(
            fixture.division.season.get_match_format(),
            result,
            pegs_gap(fixture.tables.all(), result),
        )

    @property
    def submitter(self) -> str:
        """Who submitted the result as its result page names them to a captain
        (``acted_words``): "Roy Stead (captain of Old Hall)", "Ann Lee (secretary)", "the
        table's scoring link"; never an account's username. The role from what the row holds
        (a captain's submission is their side's agreement), the name from the account and its
        player's name read with the submission (``captain_fixtures``): no query a row."""
        submission, fixture = self.submission, self.fixture
        if submission is None:
            return ""
        by = submission.submitted_by
        if by is None:
            return BY_TABLE_LINK
        role = BY_SITE_OPERATOR if by.is_superuser else BY_SECRETARY
        for team, agreed in (
            (fixture.home, submission.home_agreed_by_id),
            (fixture.away, submission.away_agreed_by_id),
        ):
            if agreed == by.pk:
                role = captain_of(team)
        as_player = getattr(submission, "submitter_as_player", None) or ""
        return acted_words(by, role, as_player=as_player)


def _current_seasons(entries: list[TeamEntry]) -> set[int]:
    """Each league's season in play on its own date (``seasons_now``) among the leagues the
    entries belong to. One query."""
    leagues = {entry.season.league_id for entry in entries}
    by_league: dict[int, list[Season]] = {}
    for season in Season.objects.filter(league__in=leagues).select_related("league"):
        by_league.setdefault(season.league_id, []).append(season)
    current = (
        seasons_now(seasons, today=seasons[0].league.today()).current
        for seasons in by_league.values()
    )
    return {season.pk for season in current if season is not None}


def captain_fixtures(*, user: Account) -> list[CaptainFixture]:
    """The fixtures of every team ``user`` captains in its league's current season, by date;
    seven queries however many teams and fixtures (two of them the tables and their games, for
    where each match stands, one their leagues' secretaries), and one while a match is in play
    (whether its play stopped: ``mark_stopped``)."""
    entries = list(TeamEntry.objects.filter(captain__user=user).select_related("season", "team"))
    current = _current_seasons(entries)
    entries = [entry for entry in entries if entry.season_id in current]
    if not entries:
        return []
    mine = {(entry.season_id, entry.team_id): entry.team for entry in entries}
    where = Q()
    for season, team in mine:
        where |= Q(division__season=season) & (Q(home=team) | Q(away=team))
    # Who submitted each, named as the result page names them (``CaptainFixture.submitter``).
    open_or_confirmed = (
        ResultSubmission.objects.exclude(status=ResultSubmission.Status.WITHDRAWN)
        .select_related("submitted_by")
        .annotate(submitter_as_player=player_name_of("submitted_by"))
        .order_by("-submitted_at", "-pk")
    )
    fixtures = list(
        Fixture.objects.filter(where)
        .select_related(
            "division__season__league", "home", "away", "venue", "result", "cup_tie__competition"
        )
        .prefetch_related(
            Prefetch("submissions", queryset=open_or_confirmed),
            # Each game's score, for the captain who confirms the result (no more queries).
            Prefetch(
                "tables__games", queryset=with_scores(TableGame.objects.select_related("game"))
            ),
            # Whether the captain is a secretary too, who may settle a result waiting for them
            # with the card (``cards.card_offered``): read once, not once a result.
            "division__season__league__secretaries",
        )
        .order_by("date", "time", "pk")
    )
    mark_stopped(fixtures)  # a match stopped at an abandoned table says so, as its page does
    today: dict[int, datetime.date] = {}  # each league's, asked once
    rows = []
    for fixture in fixtures:
        season = fixture.division.season_id
        sides = {t for t in (fixture.home_id, fixture.away_id) if (season, t) in mine}
        team = mine[(season, next(iter(sorted(sides))))]
        submission = next(iter(fixture.submissions.all()), None)
        rows.append(
            CaptainFixture(
                fixture=fixture,
                team=team,
                submission=submission,
                action=_action(fixture, submission, user, sides),
                status_words=status_words(fixture, _today(fixture, today)),
                when=_when(fixture, _today(fixture, today)),
                sides=frozenset(
                    side
                    for side, team in (("home", fixture.home_id), ("away", fixture.away_id))
                    if team in sides
                ),
            )
        )
    return rows


class WaitingTie(Protocol):
    """A cup tie of the player's (``cups.selectors.MyTie``) as My fixtures sorts it."""

    @property
    def waits_for_you(self) -> bool: ...

    @property
    def date(self) -> datetime.date | None: ...


@dataclass(frozen=True)
class CaptainSection:
    """A part of My fixtures: ``key`` (WAITING, TONIGHT, COMING, POSTPONED or PAST), its
    heading and its fixtures (and, waiting for the player, cup ties) in the order it lists
    them."""

    key: str
    title: str
    rows: list[CaptainFixture | WaitingTie]


WAITING = "waiting"
SECTION_TITLES = {
    WAITING: "Waiting for you",
    TONIGHT: "Tonight",
    COMING: "Coming up",
    POSTPONED: "Postponed",
    PAST: "Past results",
}


def captain_sections(
    rows: Sequence[CaptainFixture],
    *,
    cards_due: Collection[int],
    taking_back: Collection[int] = (),
    ties: Sequence[WaitingTie] = (),
) -> list[CaptainSection]:
    """``captain_fixtures`` as My fixtures lists them, the step a captain came for first:
    waiting for them (a result to submit, the other side's to confirm or dispute, or a score
    card to enter: the fixtures in ``cards_due``; a disputed result theirs to take back, of
    the fixtures in ``taking_back``: ``confirmation.can_take_back``; and each of ``ties`` whose
    result waits for them to agree), oldest first, a tie by its ``date`` (one with none last);
    then tonight's matches; then those to come, soonest first; then those postponed with no
    new date yet (not to come on the date they were set for, nor past); then past results,
    latest first. Sections with no fixture are left out. No query."""
    parts: dict[str, list[CaptainFixture | WaitingTie]] = {key: [] for key in SECTION_TITLES}
    for row in rows:
        disputed = (
            row.submission is not None and row.submission.status == ResultSubmission.Status.DISPUTED
        )
        waiting = (
            row.action in WAITING_FOR_YOU
            or row.fixture.pk in cards_due
            or (disputed and row.fixture.pk in taking_back)
        )
        parts[WAITING if waiting else row.when].append(row)
    # Merged by date with the fixtures (already by date and time, which a stable sort keeps).
    parts[WAITING].extend(tie for tie in ties if tie.waits_for_you)
    parts[WAITING].sort(key=lambda row: row.date or datetime.date.max)
    parts[PAST].reverse()
    return [
        CaptainSection(key=key, title=_title(key, found), rows=found)
        for key, found in parts.items()
        if found
    ]


def _title(key: str, rows: Sequence[CaptainFixture | WaitingTie]) -> str:
    """A section's heading: today's matches are "Tonight" from the evening by their league's
    clock, "Today" before it (``day_word``: a noon match is not tonight's). No query."""
    if key != TONIGHT:
        return SECTION_TITLES[key]
    fixture = next(row.fixture for row in rows if isinstance(row, CaptainFixture))
    zone = fixture.division.season.league.time_zone
    return day_word(now_in(zone).time()).capitalize()


def nights_to_seat(rows: Sequence[CaptainFixture], *, open_nights: Collection[int]) -> set[int]:
    """The fixtures of ``rows`` whose night My fixtures offers to seat (the pairs, the tables'
    QR codes), of those whose night is open (``open_nights``: ``seating.night_open``): each
    league's next night, tonight or the soonest to come, and the nights passed not yet played;
    not a later night's (seated on its night: the season's every fixture had its button), nor a
    result. No query."""
    next_night: dict[int, datetime.date] = {}
    for row in rows:
        if row.fixture.pk in open_nights and row.when != PAST:
            league = row.fixture.division.season.league_id
            next_night[league] = min(next_night.get(league, row.date), row.date)
    return {
        row.fixture.pk
        for row in rows
        if row.fixture.pk in open_nights
        and (row.when == PAST or row.date <= next_night[row.fixture.division.season.league_id])
    }


def _today(fixture: Fixture, today: dict[int, datetime.date]) -> datetime.date:
    """The fixture's league's today, each league's asked once."""
    league = fixture.division.season.league
    if league.pk not in today:
        today[league.pk] = league.today()
    return today[league.pk]


def _when(fixture: Fixture, today: datetime.date) -> str:
    if fixture.status == Fixture.Status.POSTPONED:
        return POSTPONED  # it has no date until it is re-arranged
    if fixture.date < today:
        return PAST
    return TONIGHT if fixture.date == today else COMING


def _action(
    fixture: Fixture,
    submission: ResultSubmission | None,
    user: Account,
    sides: set[int],
) -> str:
    if submission is None:
        if fixture.status != Fixture.Status.PLAYED:
            return NONE
        # Submitted by entering the card again, as the result page says (``may_submit``).
        return CARD if from_card(fixture.tables.all()) else SUBMIT
    if submission.status != ResultSubmission.Status.SUBMITTED:
        return NONE
    agreed = {submission.home_agreed_by_id, submission.away_agreed_by_id}
    if submission.submitted_by_id == user.pk or user.pk in agreed:
        return WAIT
    waiting = {
        team
        for team, agreed_by in (
            (fixture.home_id, submission.home_agreed_by_id),
            (fixture.away_id, submission.away_agreed_by_id),
        )
        if agreed_by is None
    }
    return CONFIRM if sides & waiting else WAIT


def viewer_teams(*, user: Account, division: Division) -> list[int]:
    """The teams of the division that the logged-in viewer captains or is registered with (for
    picking out "your team"); none for an anonymous visitor, without a query."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        TeamEntry.objects.filter(division=division)
        .filter(
            Q(captain__user=user)
            | Q(
                team__registrations__player__user=user,
                team__registrations__season_id=division.season_id,
            )
        )
        .values_list("team_id", flat=True)
        .distinct()
    )


def leagues_run_by(*, user: Account) -> list[League]:
    """The leagues this account is a secretary of, by name (one query; none when signed out)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(League.objects.filter(secretaries=user).order_by("name"))


#: How long a decided league request stays on its asker's My fixtures.
DECIDED_SHOWN = datetime.timedelta(days=30)


def league_requests_of(*, user: Account) -> list[LeagueRequest]:
    """The leagues this account asked for that wait for the site's operator, and those decided
    in the last 30 days (approved with their league, refused with the reason), newest first."""
    if not getattr(user, "is_authenticated", False):
        return []
    recent = timezone.now() - DECIDED_SHOWN
    return list(
        LeagueRequest.objects.filter(asked_by=user)
        .filter(Q(status=LeagueRequest.Status.WAITING) | Q(decided_at__gte=recent))
        .select_related("league")
    )


def league_requests_waiting(*, user: Account) -> int:
    """How many leagues asked for wait for ``user`` to decide: 0 unless they may decide (one
    query for the site's operator, none for anyone else)."""
    if not can_approve_leagues(user):
        return 0
    return LeagueRequest.objects.filter(status=LeagueRequest.Status.WAITING).count()


#: How many of a league's answered, withdrawn or expired invitations its secretaries page lists.
EARLIER_INVITATIONS = 50


def _with_acceptor(invitations: QuerySet[Invitation]) -> QuerySet[Invitation]:
    """``invitations`` read with the account that accepted each and its name as a player, for
    ``_name_acceptors``: no query more."""
    return invitations.select_related("accepted_by").annotate(
        accepted_player=player_name_of("accepted_by")
    )


def _name_acceptors(invitations: list[Invitation]) -> list[Invitation]:
    """Give each of ``invitations`` (read ``_with_acceptor``) ``accepted_name``, who accepted it
    as the pages name people ("" for an account with no name the app knows: the list shows its
    login)."""
    for invitation in invitations:
        invitation.accepted_name = person_name(
            invitation.accepted_by, as_player=invitation.accepted_player or ""
        )
    return invitations


def league_invitations(*, league: League) -> tuple[list[Invitation], list[Invitation]]:
    """The league's invitations as its secretaries page lists them: every one still waiting
    (each with its Send again and Withdraw), however many, then the latest
    ``EARLIER_INVITATIONS`` of the others (accepted, withdrawn, expired), newest first, the
    captains invited named as the pages name them, and who accepted each. Three queries (two
    with no captain's invitation among them)."""
    invited = _with_acceptor(league.invitations.select_related("team", "player"))
    open_now = Q(INVITATION_UNANSWERED, expires_at__gt=timezone.now())
    waiting = list(invited.filter(open_now))
    earlier = _name_acceptors(list(invited.exclude(open_now)[:EARLIER_INVITATIONS]))
    name_people(invitation.player for invitation in [*waiting, *earlier])
    return waiting, earlier


def captain_invitations(*, team: Team, captain: Player) -> list[Invitation]:
    """The invitations ``team`` sent ``captain`` to have the captain's account, with who
    accepted each (``_name_acceptors``). One query."""
    invited = team.invitations.filter(player=captain).select_related("player")
    return _name_acceptors(list(_with_acceptor(invited)))


def league_secretaries(*, league: League) -> list[Any]:
    """The league's secretaries, each with ``name``, the person as the pages name them ("" for
    an account with no name the app knows: the page shows its login), in the order of the names
    shown (two accounts of one name by their logins). One query."""
    secretaries = list(league.secretaries.annotate(player_name=player_name_of("pk")))
    for secretary in secretaries:
        secretary.name = person_name(secretary, as_player=secretary.player_name or "")
    return sorted(
        secretaries, key=lambda s: ((s.name or s.get_username()).casefold(), s.get_username())
    )
