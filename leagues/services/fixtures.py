"""The fixture list: generation by round robin, postponement, re-arrangement, walkover, void.

Generation calls the pure planner in ``leagues.schedule``; this module turns teams into its
``TeamSlot`` values, keeps what has been played, stores what it plans and says what it moved.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Q
from django.template.defaultfilters import pluralize

from config.locks import lock_rows
from leagues.audit import audit_log
from leagues.bookings import Booked, clashes
from leagues.days import clock, long_date, short_date
from leagues.models import (
    SEASON_MATCHES_A_NIGHT,
    VENUE_CLOSED,
    VENUE_MATCHES_A_NIGHT,
    AuditEntry,
    Division,
    Fixture,
    FixtureTable,
    League,
    Season,
    Team,
    TeamEntry,
    Venue,
)
from leagues.nights_off import NightsOff, NightsOffError, dates_off, ranges_of
from leagues.nights_off import check as check_nights_off
from leagues.permissions import require_secretary, venue_is_kept_by
from leagues.schedule import (
    PlannedFixture,
    ScheduleError,
    TeamSlot,
    league_nights,
    next_free_night,
    occupancy,
    round_robin,
)
from leagues.selectors.fixtures import (
    NO_MATCH_ON_THE_NIGHT,
    boards_begun,
    generation_settings,
    kept_by_generation,
    matches_on_their_nights,
    no_match,
    no_match_line,
)
from leagues.services.rollup import FixtureChanged, roll_up
from leagues.services.standings import refresh_division_table, refresh_fixture_table
from leagues.zones import today_in
from scoring.actors import Account, Actor
from scoring.forms.words import possessive
from scoring.sheet import join_words

#: Where a secretary gives a venue room for more matches a night, named as their pages name them.
ROOM_SETTINGS = (
    f"the venue's “{VENUE_MATCHES_A_NIGHT}” (on its page) or the season's "
    f"“{SEASON_MATCHES_A_NIGHT}” (on the season's page)"
)
#: Fixtures not yet played: a re-arrangement may move them, a walkover or void settle them.
REPLACEABLE = Fixture.TO_PLAY
#: What a secretary can undo (``fixture_undo``): a postponement, a walkover, a void.
UNDOABLE = (Fixture.Status.POSTPONED, Fixture.Status.WALKOVER, Fixture.Status.VOID)


@dataclass(frozen=True)
class Move:
    """A scheduled fixture the new list puts on another night."""

    fixture: Fixture
    date: datetime.date
    note: str
    round: int | None = None
    swapped: bool = False
    """Home and away change over (a format playing each pair once: the new list has the
    meeting the other way round)."""


@dataclass(frozen=True)
class GenerationPlan:
    """What generating (again) would do, shown to the secretary before anything changes."""

    kept: tuple[Fixture, ...]
    """Played, walked over, void or under way: never touched."""
    past: tuple[Fixture, ...]
    """Scheduled fixtures on nights already past (their result still awaited): kept as they
    are, never moved onto a later night nor replaced."""
    postponed: tuple[Fixture, ...]
    """Postponed fixtures: kept as they are, still to be re-arranged; their meetings are not
    planned again."""
    unchanged: tuple[Fixture, ...]
    """Scheduled fixtures the new list keeps on the same night."""
    moved: tuple[Move, ...]
    replaced: tuple[Fixture, ...]
    """Scheduled fixtures the new list no longer has (removed)."""
    created: tuple[PlannedFixture, ...]
    notes: tuple[str, ...]
    start: datetime.date
    first_night: datetime.date
    """The first league night on or after the start (the list's own night, not the start's)."""
    plans_from: datetime.date
    """The first league night new fixtures may go on: the start's, or the next one not yet
    past where the league plays, whichever is later."""
    today: datetime.date
    """Today where the league plays, as the plan was made."""
    league_night: int
    legs: int
    exclusions: tuple[NightsOff, ...]
    """The season's nights with no league, as the list keeps to them (and saving stores)."""
    last: datetime.date | None
    """The last night of the list."""
    clashes: tuple[str, ...] = ()
    """Venue clashes no pairing could avoid, each with why (shown before saving)."""
    names: Mapping[Hashable, str] = field(default_factory=dict)
    """The teams' names this season, by the keys the planned fixtures carry."""
    rest_every: int | None = None
    """A week off after every so many rounds (None: none)."""
    end_by: datetime.date | None = None
    """The date the rounds are spread to (None: played on the first league nights)."""
    start_past: bool = False
    """The start's first league night is past: new fixtures go on the nights from
    ``plans_from`` instead."""
    cards_out: frozenset[int] = frozenset()
    """The moved and replaced fixtures whose night's blank cards may be printed already: dated
    within the next week (or before it), or with pairs seated at their tables."""

    venues: Mapping[Hashable, str] = field(default_factory=dict)
    """Each team's home venue as the fixture list names it, by the keys the planned fixtures
    carry: a new fixture is played at its home team's."""

    @property
    def new_nights(self) -> list[tuple[datetime.date, list[tuple[str, str, str]], str]]:
        """The new fixtures night by night, home v away by name at the home team's venue (two
        home matches at one pub on a night are seen so), with the night's team with no match
        ("No match: Red Lion", of every fixture the list has that night), for the secretary to
        read before saving."""
        return [(night, pairs, no_match_line(idle)) for night, pairs, idle in self._new_nights]

    @property
    def byes(self) -> int:
        """The byes the preview lists: each team with no match on a night of the new fixtures
        (``new_nights``' "No match" places, counted)."""
        return sum(len(idle) for _, _, idle in self._new_nights)

    @property
    def _new_nights(self) -> list[tuple[datetime.date, list[tuple[str, str, str]], list[str]]]:
        playing: dict[datetime.date, list[tuple[Hashable, Hashable]]] = {}
        for fixture in self.kept + self.past + self.postponed + self.unchanged:
            playing.setdefault(fixture.date, []).append((fixture.home_id, fixture.away_id))
        for move in self.moved:
            playing.setdefault(move.date, []).append((move.fixture.home_id, move.fixture.away_id))
        nights: dict[datetime.date, list[tuple[str, str, str]]] = {}
        for planned in sorted(self.created, key=lambda f: f.date):
            playing.setdefault(planned.date, []).append((planned.home, planned.away))
            nights.setdefault(planned.date, []).append(
                (
                    self.names.get(planned.home, "?"),
                    self.names.get(planned.away, "?"),
                    self.venues.get(planned.home, "?"),
                )
            )
        return [
            (night, pairs, no_match(playing[night], self.names)) for night, pairs in nights.items()
        ]

    @property
    def token(self) -> str:
        """A fingerprint of the plan: confirming checks the list is still the one previewed."""
        lines = [f"k{f.pk}" for f in self.kept + self.past + self.postponed + self.unchanged]
        lines += [f"m{m.fixture.pk}:{m.date}:{m.swapped}" for m in self.moved]
        lines += [f"r{f.pk}" for f in self.replaced]
        lines += [f"c{f.home}:{f.away}:{f.date}" for f in self.created]
        return hashlib.sha256("|".join(lines).encode()).hexdigest()[:20]

    @property
    def changes(self) -> int:
        return len(self.moved) + len(self.replaced) + len(self.created)


@dataclass(frozen=True)
class GenerationReport:
    """What ``fixtures_generate`` did, for the message to the secretary."""

    created: int
    kept: int
    removed: int
    byes: int
    notes: tuple[str, ...]
    moved: int = 0
    postponed: int = 0
    unchanged: int = 0
    past: int = 0


def nights_off_checked(
    values: Collection[NightsOff | datetime.date],
    *,
    starts_on: datetime.date,
    ends_on: datetime.date | None,
) -> list[dict[str, object]]:
    """A season's nights with no league as stored, refused (naming the range) when two overlap
    or one runs outside the season."""
    ranges = ranges_of(values)
    try:
        check_nights_off(ranges, starts_on=starts_on, ends_on=ends_on)
    except NightsOffError as exc:
        raise ValidationError({"exclusions": str(exc)}) from exc
    return [r.to_json() for r in ranges]


def _locked(division: Division) -> list[Fixture]:
    """Fixtures re-generation must not touch (``kept_by_generation``)."""
    return list(kept_by_generation(division).select_related("home", "away").order_by("date", "pk"))


def _venue_slots(teams: Sequence[Team], room: Mapping[int, int]) -> dict[int, object]:
    """Each team's venue key for the planner: teams sharing a venue are dealt into as many
    groups as it can host matches a night (``room``: by venue), so that at most that many
    matches are planned there a night."""
    seen: dict[int, int] = {}
    keys: dict[int, object] = {}
    for team in teams:
        n = seen.get(team.home_venue_id, 0)
        seen[team.home_venue_id] = n + 1
        keys[team.pk] = (team.home_venue_id, n % room[team.home_venue_id])
    return keys


def _room(teams: Sequence[Team], season: Season) -> dict[int, int]:
    """How many matches each of ``teams``' home venues can host a night of ``season``: its own
    number, else the season's (``Venue.matches_in``)."""
    return {team.home_venue_id: team.home_venue.matches_in(season) for team in teams}


def _refuse_impossible(
    teams: Sequence[Team], legs: int, room: Mapping[int, int], division: Division
) -> None:
    """Constraints no list can meet, named: too many teams at home in one pub."""
    n = len(teams)
    if n < 2:
        raise ValidationError(f"{division} needs at least two teams entered to make a list.")
    nights = (n - 1 + n % 2) * legs
    by_venue: dict[int, list[Team]] = {}
    for team in teams:
        by_venue.setdefault(team.home_venue_id, []).append(team)
    for at, sharing in by_venue.items():
        home_matches = len(sharing) * (n - 1) * legs // 2
        if legs == 2:
            home_matches = len(sharing) * (n - 1)
        if home_matches > room[at] * nights:
            venue = sharing[0].home_venue
            raise ValidationError(
                f"{venue} is the home of {len(sharing)} teams "
                f"({', '.join(t.name for t in sharing)}): that is {home_matches} home matches on "
                f"{nights} league nights, but it can host {room[at]} a night. Raise "
                f"{ROOM_SETTINGS}, or give some of these teams another home."
            )


def _refuse_closed_too_often(
    teams: Sequence[Team],
    legs: int,
    room: Mapping[int, int],
    *,
    nights: Sequence[datetime.date],
    ends_on: datetime.date,
    settled: Iterable[PlannedFixture],
) -> None:
    """Refused, naming the venue and how many nights it is short, where a venue closed on some
    of the league nights the list has (``nights``: from the first not yet past to the season's
    end, ``ends_on``) is open on too few of them to host its teams' home matches still to play
    (those not ``settled``: kept, on nights past, postponed), ``room`` a night: said before
    any planning, as ``_refuse_impossible`` says a venue with too many teams, where the planner
    found a match with no night left only once it had placed the rest. A team's home matches
    are counted at the fewest (a single round robin's odd one may be either team's), so a list
    that can be made is never refused here."""
    n = len(teams)
    each = n - 1 if legs == 2 else (n - 1) // 2
    hosted: dict[int, int] = {}
    for fixture in settled:
        hosted[fixture.home] = hosted.get(fixture.home, 0) + 1
    by_venue: dict[int, list[Team]] = {}
    for team in teams:
        by_venue.setdefault(team.home_venue_id, []).append(team)
    for at, sharing in by_venue.items():
        venue = sharing[0].home_venue
        shut = set(dates_off(venue.closed_ranges))
        closed = [day for day in nights if day in shut]
        if not closed:
            continue
        owed = sum(max(0, each - hosted.get(team.pk, 0)) for team in sharing)
        open_on = len(nights) - len(closed)
        if owed <= room[at] * open_on:
            continue
        short = -(-(owed - room[at] * open_on) // room[at])
        ranges = [r.label for r in venue.closed_ranges if any(r.covers(day) for day in closed)]
        names = join_words([team.name for team in sharing])
        raise ValidationError(
            f"{venue} is the home of {names}, {owed} home match{pluralize(owed, 'es')} to "
            f"play, but it is closed on {len(closed)} of the {len(nights)} league nights from "
            f"{long_date(nights[0])} to the season's end ({long_date(ends_on)}): "
            f"{'; '.join(ranges)}. Open on {open_on}, hosting {room[at]} a night, it is {short} "
            f"night{pluralize(short)} short. Open it on more of them (its page's "
            f"“{VENUE_CLOSED}”), raise {ROOM_SETTINGS}, move the season's end, or give "
            + (f"{names} another home." if len(sharing) == 1 else "some of them another home.")
        )


def list_made_on(league: League) -> datetime.date:
    """The day a fixture list is made on, unless the caller gives one: today where the league
    plays (a night in Port of Spain is still today there when London's date is the next)."""
    return league.today()


def fixtures_plan(
    *,
    division: Division,
    start: datetime.date | None = None,
    league_night: int | None = None,
    legs: int | None = None,
    exclusions: Collection[NightsOff | datetime.date] | None = None,
    rest_every: int | None = None,
    end_by: datetime.date | None = None,
    today: datetime.date | None = None,
) -> GenerationPlan:
    """What generating the division's list would do; changes nothing.

    The season's calendar is kept: its league night (unless ``league_night`` is given), its
    nights with no league (unless ``exclusions`` replaces them: ranges or single dates, refused
    when they overlap or run outside the season), its venue capacity, its start and its end.
    Played,
    walked-over, void and started fixtures are kept as they are; postponed ones too (their
    meeting is not planned again), and scheduled ones on nights already past; only scheduled
    fixtures from today on may move or be replaced. New fixtures go on league nights from the
    start's, or from the next one not yet past (``today``: the league's, where it plays, unless
    given), whichever is later; a list that cannot fit in what is left of the season is
    refused.

    Teams of one pub get paired numbers, within the division and against the other divisions'
    stored lists, so that they are never at home on the same night where a pairing can do it.
    ``rest_every`` (a week off after every so many rounds) or ``end_by`` (the rounds spread
    evenly up to that date) spread the list over the calendar instead of packing it.
    """
    division = Division.objects.select_related("season__league").get(pk=division.pk)
    season = division.season
    today = list_made_on(season.league) if today is None else today
    night = season.night if league_night is None else league_night
    legs = legs or 1
    start = start or season.starts_on
    asked_start = start
    ranges = tuple(
        NightsOff.from_json(value)
        for value in nights_off_checked(
            season.nights_off if exclusions is None else exclusions,
            starts_on=season.starts_on,
            ends_on=season.ends_on,
        )
    )
    excluded = dates_off(ranges)
    first_night = start + datetime.timedelta(days=(night - start.weekday()) % 7)
    if first_night < season.starts_on:
        raise ValidationError(
            {
                "start": f"The first league night would be {long_date(first_night)}, before the "
                f"season starts ({long_date(season.starts_on)})."
            }
        )
    entries = list(
        TeamEntry.objects.filter(division=division, withdrawn_on__isnull=True)
        .select_related("team__home_venue")
        .order_by("team__name", "team__pk")
    )
    teams = [entry.team for entry in entries]
    room = _room(teams, season)
    _refuse_impossible(teams, legs, room, division)
    ids = {team.pk for team in teams}
    venue_key = _venue_slots(teams, room)
    # Every kept fixture stays as it is (a withdrawn team's too); those of the teams still in
    # are the planner's fixed points.
    kept = _locked(division)
    past = list(
        Fixture.objects.filter(
            division=division,
            kind=Fixture.Kind.LEAGUE,
            status=Fixture.Status.SCHEDULED,
            date__lt=today,
        )
        .exclude(pk__in=[f.pk for f in kept])
        .select_related("home", "away")
        .order_by("date", "pk")
    )
    locked = [f for f in kept + past if f.home_id in ids and f.away_id in ids]
    postponed = list(
        Fixture.objects.filter(
            division=division, kind=Fixture.Kind.LEAGUE, status=Fixture.Status.POSTPONED
        )
        .exclude(pk__in=[f.pk for f in kept])
        .select_related("home", "away")
        .order_by("date", "pk")
    )
    plans_from = next(league_nights(max(start, today), night, excluded))
    start_past = plans_from != next(league_nights(start, night, excluded))
    keep = [
        PlannedFixture(round=f.round or 0, date=f.date, home=f.home_id, away=f.away_id)
        for f in locked
    ]
    pending = [
        PlannedFixture(round=f.round or 0, date=f.date, home=f.home_id, away=f.away_id)
        for f in postponed
        if f.home_id in ids and f.away_id in ids
    ]
    if season.ends_on is not None:
        _refuse_closed_too_often(
            teams,
            legs,
            room,
            nights=list(
                itertools.takewhile(
                    lambda day: day <= season.ends_on, league_nights(plans_from, night, excluded)
                )
            ),
            ends_on=season.ends_on,
            settled=[*keep, *pending],
        )
    if start_past and not keep and not pending:
        # Nothing to keep: the list starts on the next night not yet past, as its audit entry
        # records and generating it again starts from (so that its pairing is the same).
        start = plans_from
    if end_by is not None and season.ends_on is not None and end_by > season.ends_on:
        raise ValidationError(
            {
                "end_by": f"{long_date(end_by)} is after the season ends "
                f"({long_date(season.ends_on)}): spread the rounds to a date within the season."
            }
        )
    scheduled = list(
        Fixture.objects.filter(
            division=division, kind=Fixture.Kind.LEAGUE, status=Fixture.Status.SCHEDULED
        )
        .exclude(pk__in=[f.pk for f in kept + past])
        .select_related("home", "away")
        .order_by("date", "pk")
    )
    listed = [
        PlannedFixture(f.round or 0, f.date, f.home_id, f.away_id)
        for f in scheduled
        if f.home_id in ids and f.away_id in ids
    ]
    settings = generation_settings(division=division)
    asked = (asked_start, night, legs, excluded, rest_every, end_by)
    last_made = (
        settings["start"],
        season.night,
        settings["legs"],
        dates_off(ranges_of(season.nights_off)),
        settings["rest_every"],
        settings["end_by"],
    )
    if asked == last_made and _list_stands(
        division,
        listed,
        keep,
        pending,
        teams,
        legs=legs,
        room=room,
        first=today,
        last=min((d for d in (season.ends_on, end_by) if d is not None), default=None),
        excluded=excluded,
        nights=lambda day: league_nights(day, night, excluded),
    ):
        # Asked again as the list was last made, and the list still holds every meeting owed
        # on nights that fit: it stays as it is, however it was made (a fresh plan can pair the
        # teams otherwise now that other lists share their pubs).
        planned, notes, unavoidable = listed, (), ()
    else:
        planned, notes, unavoidable = _planned(
            division,
            teams,
            venue_key,
            room,
            keep=keep,
            pending=pending,
            start=start,
            night=night,
            legs=legs,
            excluded=excluded,
            rest_every=rest_every,
            end_by=end_by,
            plans_from=plans_from,
            start_past=start_past,
        )

    by_meeting = {_meeting(f.home_id, f.away_id, legs): f for f in reversed(scheduled)}
    unchanged: list[Fixture] = []
    moved: list[Move] = []
    created: list[PlannedFixture] = []
    for plan in planned:
        current = by_meeting.pop(_meeting(plan.home, plan.away, legs), None)
        swapped = current is not None and current.home_id != plan.home
        if current is None:
            created.append(plan)
        elif current.date == plan.date and not swapped:
            unchanged.append(current)
        else:
            moved.append(Move(current, plan.date, plan.note, plan.round, swapped))
    replaced = sorted(by_meeting.values(), key=lambda f: (f.date, f.pk))
    disturbed = [move.fixture for move in moved] + replaced
    soon = today + datetime.timedelta(days=7)
    seated = set(
        FixtureTable.objects.filter(fixture__in=[f.pk for f in disturbed])
        .filter(Q(home_player_1__isnull=False) | Q(away_player_1__isnull=False))
        .values_list("fixture", flat=True)
    )
    return GenerationPlan(
        kept=tuple(kept),
        past=tuple(past),
        postponed=tuple(postponed),
        unchanged=tuple(unchanged),
        moved=tuple(moved),
        replaced=tuple(replaced),
        created=tuple(created),
        notes=notes,
        start=start,
        first_night=next(league_nights(start, night, excluded)),
        plans_from=plans_from,
        today=today,
        start_past=start_past,
        league_night=night,
        legs=legs,
        exclusions=ranges,
        last=max((f.date for f in planned), default=None),
        clashes=unavoidable,
        names={entry.team_id: entry.display_name for entry in entries},
        venues={team.pk: str(team.home_venue) for team in teams},
        rest_every=rest_every,
        end_by=end_by,
        cards_out=frozenset(f.pk for f in disturbed if f.date <= soon or f.pk in seated),
    )


def _meeting(home: Hashable, away: Hashable, legs: int) -> Hashable:
    """The meeting a fixture is: each way round where the format plays each pair once (a
    meeting listed the other way round is that meeting), else home and away as they are."""
    return frozenset((home, away)) if legs == 1 else (home, away)


def _list_stands(
    division: Division,
    listed: Sequence[PlannedFixture],
    fixed: Sequence[PlannedFixture],
    pending: Sequence[PlannedFixture],
    teams: Sequence[Team],
    *,
    legs: int,
    room: Mapping[int, int],
    first: datetime.date,
    last: datetime.date | None,
    excluded: Collection[datetime.date],
    nights: Callable[[datetime.date], Iterable[datetime.date]],
) -> bool:
    """Whether the division's scheduled fixtures (``listed``), with those kept (``fixed``) and
    postponed (``pending``), are a whole list as it stands: every meeting the format owes there
    exactly once (each pair once, or once at each home), each fixture still to play on a night
    from ``first`` to ``last`` with league, no team twice on one night, no pub hosting more than
    it can (``room``) and nothing clashing with the season's other fixtures."""
    ids = [team.pk for team in teams]
    met: dict[Hashable, int] = {}
    for fixture in [*fixed, *pending, *listed]:
        key = _meeting(fixture.home, fixture.away, legs)
        met[key] = met.get(key, 0) + 1
    owed = [_meeting(a, b, legs) for a in ids for b in ids if a != b and (legs == 2 or a < b)]
    if len(met) != len(owed) or any(met.get(key) != 1 for key in owed):
        return False
    if any(
        f.date < first or f.date in excluded or (last is not None and f.date > last) for f in listed
    ):
        return False
    venue_of = {team.pk: team.home_venue_id for team in teams}
    playing: set[tuple[datetime.date, Hashable]] = set()
    hosting: dict[tuple[datetime.date, int], int] = {}
    for fixture in [*fixed, *listed]:
        for team in (fixture.home, fixture.away):
            if (fixture.date, team) in playing:
                return False
            playing.add((fixture.date, team))
        at = (fixture.date, venue_of[fixture.home])
        hosting[at] = hosting.get(at, 0) + 1
        if hosting[at] > room[venue_of[fixture.home]]:
            return False
    try:
        cleared = _clear_fixtures_not_its_own(division, list(listed), fixed, teams, room, nights)
    except ValidationError:
        return False
    return cleared == list(listed)


def _planned(
    division: Division,
    teams: Sequence[Team],
    venue_key: Mapping[int, object],
    room: Mapping[int, int],
    *,
    keep: Sequence[PlannedFixture],
    pending: Sequence[PlannedFixture],
    start: datetime.date,
    night: int,
    legs: int,
    excluded: Collection[datetime.date],
    rest_every: int | None,
    end_by: datetime.date | None,
    plans_from: datetime.date,
    start_past: bool,
) -> tuple[list[PlannedFixture], tuple[str, ...], tuple[str, ...]]:
    """The division's list planned afresh round the fixtures it keeps (``keep``) and leaves
    to be re-arranged (``pending``): the fixtures to play, the planner's notes and the venue
    clashes no pairing avoids."""
    season = division.season
    taken = _venues_taken(division, teams, room)
    try:
        schedule = round_robin(
            teams=[
                TeamSlot(
                    key=t.pk,
                    venue=venue_key[t.pk],
                    name=t.name,
                    taken=taken.get(t.home_venue_id, frozenset()),
                )
                for t in teams
            ],
            start=start,
            league_night=night,
            legs=legs,
            exclusions=excluded,
            keep=keep,
            pending=pending,
            rest_every=rest_every,
            end_by=end_by,
            not_before=plans_from,
        )
    except ScheduleError as exc:
        raise ValidationError({exc.field: str(exc)} if exc.field else str(exc)) from exc
    kept_keys = {(f.home, f.away, f.date) for f in keep}
    planned = [f for f in schedule.fixtures if (f.home, f.away, f.date) not in kept_keys]
    venue_of = {team.pk: team.home_venue_id for team in teams}
    planned = _clear_other_divisions(
        division, planned, schedule.fixtures, venue_of, night, excluded, room
    )
    planned = _clear_fixtures_not_its_own(
        division,
        planned,
        [f for f in schedule.fixtures if (f.home, f.away, f.date) in kept_keys],
        teams,
        room,
        lambda day: league_nights(day, night, excluded),
    )
    if season.ends_on is not None:
        _refuse_past_the_end(planned, season.ends_on, plans_from, start_past)
    return planned, tuple(f.note for f in planned if f.note), schedule.clashes


def _refuse_past_the_end(
    planned: Sequence[PlannedFixture],
    ends_on: datetime.date,
    plans_from: datetime.date,
    start_past: bool,
) -> None:
    """Refused, naming why, when new fixtures would go after the season's end: no league night
    left (the next one not yet past is after it), or too few left for the rounds still owed."""
    late = [f for f in planned if f.date > ends_on]
    if not late:
        return
    owed = len([f for f in planned if f.date >= plans_from])
    fixtures = f"{owed} fixture{pluralize(owed)} still to play"
    if plans_from > ends_on:
        raise ValidationError(
            f"The season ends on {long_date(ends_on)}, and the next league night not yet past "
            f"is {long_date(plans_from)}: there is no night left for the {fixtures}. Move the "
            "season's end, or add them one by one with Add a fixture."
        )
    where = (
        f"from {long_date(plans_from)}, the next league night not yet past,"
        if start_past
        else f"from {long_date(plans_from)}"
    )
    raise ValidationError(
        f"The {fixtures} need league nights up to {long_date(max(f.date for f in late))}, after "
        f"the season ends ({long_date(ends_on)}): {len(late)} would not fit {where} to the end. "
        + ("" if start_past else "Start earlier, ")
        + ("Remove" if start_past else "remove")
        + f" nights with no league, raise {ROOM_SETTINGS}, or move the season's end."
    )


def _venues_taken(
    division: Division, teams: Sequence[Team], room: Mapping[int, int]
) -> dict[int, frozenset[datetime.date]]:
    """Per venue of the division's teams, the nights other divisions of the season already
    fill it (as many home matches as it can host a night, ``room``: by venue) and the nights
    it is closed (``Venue.closed``): the planner pairs the division's teams against them."""
    hosting: dict[tuple[int, datetime.date], int] = {}
    for venue, day in (
        matches_on_their_nights(
            Fixture.objects.filter(
                division__season=division.season_id, venue__in={t.home_venue_id for t in teams}
            )
        )
        .exclude(division=division)
        .values_list("venue", "date")
    ):
        hosting[(venue, day)] = hosting.get((venue, day), 0) + 1
    taken: dict[int, set[datetime.date]] = {
        team.home_venue_id: set(dates_off(team.home_venue.closed_ranges))
        for team in teams
        if team.home_venue.closed
    }
    for (venue, day), count in hosting.items():
        if count >= room[venue]:
            taken.setdefault(venue, set()).add(day)
    return {venue: frozenset(days) for venue, days in taken.items()}


@transaction.atomic
def fixtures_generate(
    *,
    division: Division,
    start: datetime.date | None = None,
    league_night: int | None = None,
    legs: int | None = None,
    exclusions: Collection[NightsOff | datetime.date] | None = None,
    rest_every: int | None = None,
    end_by: datetime.date | None = None,
    token: str | None = None,
    today: datetime.date | None = None,
    by: Account = None,
) -> GenerationReport:
    """Generate (or generate again) the division's list as ``fixtures_plan`` says, and store
    the night and exclusion dates in the season's calendar.

    With ``token`` (the previewed plan's), refused when the plan is no longer the one shown.
    A scheduled fixture the new list puts on another night is moved (it keeps its history),
    one it no longer has is removed, and the rest are created; nothing else is touched.
    ``today`` is the league's (where it plays) unless given: the demo makes its seasons' lists
    as on a day before they began.
    """
    require_secretary(by, division.season.league)
    division = Division.objects.select_related("season__league").get(pk=division.pk)
    season = Season.objects.select_for_update().get(pk=division.season_id)
    # The fixtures the list may move or remove are locked too, and the plan read after
    # (``config.locks`` says why): starting a fixture's games, or postponing, walking over or
    # voiding it, locks the fixture, not the season, and a plan read before that committed
    # would still see it scheduled and not started, and move or remove it. Season first, then
    # fixtures: nothing that locks a fixture goes on to lock its season.
    lock_rows(
        Fixture.objects.filter(division=division, kind=Fixture.Kind.LEAGUE, status__in=REPLACEABLE)
    )
    plan = fixtures_plan(
        division=division,
        start=start,
        league_night=league_night,
        legs=legs,
        exclusions=exclusions,
        rest_every=rest_every,
        end_by=end_by,
        today=today,
    )
    if token is not None and token != plan.token:
        raise ValidationError(
            "The fixture list has changed since the preview: look at the new preview and "
            "confirm again."
        )
    league = season.league
    venue_of = {e.team_id: e.team.home_venue_id for e in division.entries.select_related("team")}
    removed = len(plan.replaced)
    Fixture.objects.filter(pk__in=[f.pk for f in plan.replaced]).delete()
    moving = [move.fixture.pk for move in plan.moved]
    Fixture.objects.filter(pk__in=moving).update(round=None)
    # A round number is a team's once: fixtures that stay (kept, postponed, unchanged) keep
    # theirs, and a planned one that would repeat a team's round is listed without a round.
    taken = set()
    for home, away, number in (
        Fixture.objects.filter(division=division, round__isnull=False)
        .exclude(pk__in=moving)
        .values_list("home", "away", "round")
    ):
        taken |= {(number, "home", home), (number, "away", away)}

    def free_round(number: int | None, home: int, away: int) -> int | None:
        if number is None or {(number, "home", home), (number, "away", away)} & taken:
            return None
        taken.update({(number, "home", home), (number, "away", away)})
        return number

    # The audit trail names each move as the secretary read it in the preview.
    moves = [
        {
            "fixture": move.fixture.pk,
            "words": f"{move.fixture.home} v {move.fixture.away}",
            "from": move.fixture.date.isoformat(),
            "to": move.date.isoformat(),
            "swapped": move.swapped,
        }
        for move in plan.moved
    ]
    swapped = [move.fixture.pk for move in plan.moved if move.swapped]
    # Seats taken, and cards printed, for the other way round are no one's now: their tables
    # go, each scoring link revoked, as seating the tables afresh does, and both captains
    # seat their pairs again (the preview said its cards may be printed already).
    from scoring.services.links import _scoring_link_revoke

    for table in FixtureTable.objects.filter(fixture__in=swapped, scoring_link__isnull=False):
        _scoring_link_revoke(link=table.scoring_link)
    FixtureTable.objects.filter(fixture__in=swapped).delete()
    for move in plan.moved:
        fixture = move.fixture
        fixture.date = move.date
        fixture.note = move.note
        if move.swapped:
            fixture.home_id, fixture.away_id = fixture.away_id, fixture.home_id
            fixture.venue_id = venue_of[fixture.home_id]
        fixture.round = free_round(move.round, fixture.home_id, fixture.away_id)
        fixture.save(update_fields=["date", "note", "round", "home", "away", "venue", "updated_at"])
    Fixture.objects.bulk_create(
        Fixture(
            division=division,
            round=free_round(f.round, f.home, f.away),
            home_id=f.home,
            away_id=f.away,
            date=f.date,
            time=league.start_time,
            venue_id=venue_of[f.home],
            note=f.note,
        )
        for f in plan.created
    )
    calendar_before = {"league_night": season.night, "exclusions": season.exclusions}
    season.league_night = plan.league_night
    season.exclusions = [nights.to_json() for nights in plan.exclusions]
    season.save(update_fields=["league_night", "exclusions"])
    report = GenerationReport(
        created=len(plan.created),
        kept=len(plan.kept),
        removed=removed,
        byes=plan.byes,
        notes=plan.notes,
        moved=len(plan.moved),
        postponed=len(plan.postponed),
        unchanged=len(plan.unchanged),
        past=len(plan.past),
    )
    audit_log(
        league=league,
        action=AuditEntry.Action.FIXTURES_GENERATED,
        subject=f"Fixture list of {division} generated: {report.created} new, "
        f"{len(plan.moved)} moved, {report.kept} kept, {len(plan.past)} on past nights kept, "
        f"{removed} removed, {len(plan.postponed)} postponed kept",
        before={
            "replaced": removed,
            "kept": report.kept,
            "past": report.past,
            "calendar": calendar_before,
        },
        after={
            "division": division.pk,
            "division_name": division.name,
            "created": report.created,
            "moved": moves,
            "postponed": [f.pk for f in plan.postponed],
            "start": plan.start.isoformat(),
            "plans_from": plan.plans_from.isoformat(),
            "league_night": plan.league_night,
            "legs": plan.legs,
            "exclusions": [nights.to_json() for nights in plan.exclusions],
            "rest_every": plan.rest_every,
            "end_by": plan.end_by.isoformat() if plan.end_by else None,
            "last": plan.last.isoformat() if plan.last else None,
        },
        by=by,
    )
    refresh_division_table(division=division)
    return report


def fixture_state(fixture: Fixture) -> dict[str, object]:
    """A fixture's when, where and status, as the audit trail records it."""
    return {
        "date": fixture.date.isoformat(),
        "time": fixture.time.strftime("%H:%M") if fixture.time else None,
        "venue": fixture.venue_id,
        "venue_name": str(fixture.venue),
        "status": fixture.status,
        "reason": fixture.reason,
    }


def _clear_other_divisions(
    division: Division,
    planned: list[PlannedFixture],
    everything: Sequence[PlannedFixture],
    venue_of: dict[int, int],
    night: int,
    exclusions: Collection[datetime.date],
    room: Mapping[int, int],
) -> list[PlannedFixture]:
    """Move planned fixtures off nights when their pub is already full with other divisions'
    home matches (``room``: how many matches each venue can host a night)."""
    if not planned:
        return planned
    first = min(f.date for f in planned)
    others = matches_on_their_nights(
        Fixture.objects.filter(
            division__season=division.season_id,
            venue__in=set(venue_of.values()),
            date__gte=first,
        ).exclude(division=division)
    )
    hosting: dict[tuple[datetime.date, int], list[str]] = {}
    for other in others.select_related("home"):
        hosting.setdefault((other.date, other.venue_id), []).append(other.home.name)
    if not hosting:
        return planned
    for fixture in everything:
        key = (fixture.date, venue_of.get(fixture.home, 0))
        if key in hosting and fixture not in planned:
            hosting[key].append("")
    busy, _ = occupancy(everything, venue_of)
    names = dict(Team.objects.filter(pk__in=venue_of).values_list("pk", "name"))
    moved: list[PlannedFixture] = []
    for fixture in planned:
        venue = venue_of[fixture.home]
        hosts = hosting.get((fixture.date, venue), [])
        if len(hosts) < room[venue]:
            hosting.setdefault((fixture.date, venue), []).append(names[fixture.home])
            moved.append(fixture)
            continue
        busy[fixture.date] -= {fixture.home, fixture.away}
        full = {
            day for (day, at), host in hosting.items() if at == venue and len(host) >= room[venue]
        }
        new_day = next_free_night(
            after=fixture.date,
            league_night=night,
            home=fixture.home,
            away=fixture.away,
            busy=busy,
            venue=venue,
            venue_busy={day: {venue} for day in full},
            exclusions=frozenset(exclusions),
        )
        busy.setdefault(new_day, set()).update((fixture.home, fixture.away))
        hosting.setdefault((new_day, venue), []).append(names[fixture.home])
        named = [host for host in hosts if host] or ["another match"]
        note = (
            f"{names[fixture.home]} v {names[fixture.away]} on {long_date(new_day)}: "
            f"{names[fixture.home]} shares a home venue with {' and '.join(named)}, at home on "
            f"{long_date(fixture.date)}"
        )
        combined = f"{fixture.note}; {note}" if fixture.note else note
        moved.append(PlannedFixture(fixture.round, new_day, fixture.home, fixture.away, combined))
    return moved


def _clear_fixtures_not_its_own(
    division: Division,
    planned: list[PlannedFixture],
    kept: Sequence[PlannedFixture],
    teams: Sequence[Team],
    room: Mapping[int, int],
    nights: Callable[[datetime.date], Iterable[datetime.date]],
) -> list[PlannedFixture]:
    """Move planned fixtures off nights that fixtures the list does not own already take (a
    friendly, a cup tie, a play-off, another division's match: every fixture of the season on
    its night but the division's league fixtures), checked as adding a fixture checks them
    (``leagues.bookings.clashes``, as ``refuse_clash`` asks it): each to the first league night
    after it (``nights``: the calendar's league nights from a day on) with no clash, the move
    and its reason in the fixture's note. A fixture whose first free night is after the
    season's end is refused, named, with why: the list never books a clash."""
    season = division.season
    others = [
        booked_as(fixture)
        for fixture in matches_on_their_nights(Fixture.objects.filter(division__season=season))
        .exclude(division=division, kind=Fixture.Kind.LEAGUE)
        .select_related("home", "away")
    ]
    # The nights each home venue is closed (``Venue.closed``): a clash as another's match is.
    closed = {team.home_venue_id: team.home_venue.closed_ranges for team in teams}
    if not (others or any(closed.values())) or not planned:
        return planned
    # The teams with their home venues, and each venue's matches a night (``_room``), as the
    # plan read them.
    venue_of = {team.pk: team.home_venue_id for team in teams}
    names: dict[Hashable, str] = {team.pk: str(team) for team in teams}
    names |= {("venue", team.home_venue_id): str(team.home_venue) for team in teams}

    def as_booked(fixture: PlannedFixture) -> Booked:
        return Booked(
            fixture.date,
            fixture.home,
            fixture.away,
            ("venue", venue_of[fixture.home]),
            f"{names[fixture.home]} v {names[fixture.away]}",
        )

    def clashes_on(day: datetime.date, fixture: PlannedFixture, booked: list[Booked]) -> list[str]:
        found = clashes(
            booked=booked,
            date=day,
            home=fixture.home,
            away=fixture.away,
            venue=("venue", venue_of[fixture.home]),
            names=names,
            capacity=room[venue_of[fixture.home]],
            closed=closed[venue_of[fixture.home]],
        )
        return [clash.message.rstrip(".") for clash in found]

    placed = list(planned)
    # What is booked besides the fixture looked at: worked out once, each planned fixture's
    # booking put right as it moves.
    fixed = others + [as_booked(f) for f in kept]
    placed_booked = [as_booked(f) for f in placed]
    stranded: list[str] = []
    for i in sorted(range(len(placed)), key=lambda i: (placed[i].date, i)):
        fixture = placed[i]
        booked = fixed + placed_booked[:i] + placed_booked[i + 1 :]
        why = clashes_on(fixture.date, fixture, booked)
        if not why:
            continue
        day = next(
            day
            for day in nights(fixture.date + datetime.timedelta(days=1))
            if not clashes_on(day, fixture, booked)
        )
        words = f"{names[fixture.home]} v {names[fixture.away]}"
        if season.ends_on is not None and day > season.ends_on:
            stranded.append(
                f"No free league night for {words} up to the season's end "
                f"({long_date(season.ends_on)}): on {long_date(fixture.date)}, "
                f"{'; '.join(why)}, and every league night after it is taken too."
            )
            continue
        # The note gives the fixture the night it has, and says why not the night looked at
        # first: the preview says where it moves from, the night it is on now.
        note = f"{words} on {long_date(day)}: on {long_date(fixture.date)}, {'; '.join(why)}"
        combined = f"{fixture.note}; {note}" if fixture.note else note
        placed[i] = PlannedFixture(fixture.round, day, fixture.home, fixture.away, combined)
        placed_booked[i] = as_booked(placed[i])
    if stranded:
        raise ValidationError(
            [*stranded, "Move the season's end, or move or remove the fixture in the way."]
        )
    return placed


@transaction.atomic
def fixture_add(
    *,
    division: Division,
    home: Team,
    away: Team,
    date: datetime.date,
    time: datetime.time | None = None,
    venue: Venue | None = None,
    kind: str = Fixture.Kind.LEAGUE,
    reason: str = "",
    outside_calendar: bool = False,
    by: Account = None,
) -> Fixture:
    """One fixture outside the generated list (a play-off, a replay, a cup tie, a friendly).

    It is checked as a re-arrangement is (``refuse_clash``): a league fixture is refused for a
    team withdrawn from the season, or when the two teams have already met in the league as
    often as the season's format allows (``MatchFormat.meetings``: choose another kind); a
    date outside the season's calendar (before its start, after its end, a night with no
    league) needs ``outside_calendar`` and a ``reason`` (``calendar_override``).
    """
    require_secretary(by, division.season.league)
    if kind not in Fixture.Kind.values:
        raise ValidationError(f"“{kind}” is not a kind of fixture.")
    ids = set(TeamEntry.objects.filter(division=division).values_list("team", flat=True))
    if home.pk not in ids or away.pk not in ids:
        raise ValidationError(f"Both teams must be entered in {division}.")
    if home.pk == away.pk:
        raise ValidationError("A team cannot play itself.")
    if venue is not None and not venue_is_kept_by(venue, division.season.league):
        raise ValidationError({"venue": f"{venue} is not one of the league's venues."})
    venue = venue or home.home_venue
    refuse_clash(division=division, date=date, home=home, away=away, venue=venue, kind=kind)
    reason = reason.strip()
    override = calendar_override(
        season=division.season, date=date, outside_calendar=outside_calendar, reason=reason
    )
    fixture = Fixture(
        division=division,
        home=home,
        away=away,
        date=date,
        time=time or division.season.league.start_time,
        venue=venue,
        kind=kind,
    )
    fixture.full_clean()
    fixture.save()
    audit_log(
        league=division.season.league,
        fixture=fixture,
        action=AuditEntry.Action.FIXTURE_ADDED,
        subject=f"{fixture} ({fixture.get_kind_display().lower()}) added to {division.name}"
        + (f" (outside the calendar: {override}): {reason}" if override else ""),
        after={**fixture_state(fixture), "kind": fixture.kind}
        | ({"outside_calendar": override, "outside_calendar_reason": reason} if override else {}),
        by=by,
    )
    refresh_fixture_table(fixture=fixture)
    return fixture


def refuse_fixture_clash(fixture: Fixture, *, date: datetime.date) -> None:
    """``refuse_clash`` for ``fixture`` itself on ``date`` (its own night, or one it would move
    to): its division, teams, venue and kind, not counting itself."""
    refuse_clash(
        division=fixture.division,
        date=date,
        home=fixture.home,
        away=fixture.away,
        venue=fixture.venue,
        exclude=fixture.pk,
        kind=fixture.kind,
    )


def booked_as(fixture: Fixture) -> Booked:
    """``fixture`` on the season's calendar, as a clash check reads it (its home and away
    teams selected): named "Old Hall v Shoulder of Mutton, friendly" when not a league
    fixture, and counted as a league meeting only when it is one."""
    league = fixture.kind == Fixture.Kind.LEAGUE
    return Booked(
        fixture.date,
        fixture.home_id,
        fixture.away_id,
        ("venue", fixture.venue_id),
        f"{fixture.home} v {fixture.away}"
        + ("" if league else f", {fixture.get_kind_display().lower()}"),
        fixture.division_id if league else None,
        on_the_night=fixture.status not in NO_MATCH_ON_THE_NIGHT,
    )


def refuse_clash(
    *,
    division: Division,
    date: datetime.date,
    home: Team,
    away: Team,
    venue: Venue,
    exclude: int | None = None,
    kind: str = "",
) -> None:
    """Refuse the fixture when it does not fit the season's calendar (``leagues.bookings``, the
    rules an import's check runs too): either team already on that night, the venue full, or
    (``kind`` league) a meeting beyond the format's. Every reason is said at once: a team
    withdrawn from the season by its side ("home", "away": a form shows it with that team),
    the others as the fixture's."""
    season = division.season
    league = kind == Fixture.Kind.LEAGUE
    teams = (home.pk, away.pk)
    others = matches_on_their_nights(Fixture.objects.filter(division__season=season, date=date))
    if league:
        others |= Fixture.objects.filter(
            division__season=season, home__in=teams, away__in=teams
        ).exclude(status=Fixture.Status.VOID)
    others = others.select_related("home", "away")
    if exclude is not None:
        others = others.exclude(pk=exclude)
    found = clashes(
        booked=[booked_as(f) for f in others],
        date=date,
        home=home.pk,
        away=away.pk,
        venue=("venue", venue.pk),
        names={home.pk: str(home), away.pk: str(away), ("venue", venue.pk): str(venue)},
        capacity=venue.matches_in(season),
        closed=venue.closed_ranges,
        division=division.pk if league else None,
        meetings=season.get_match_format().meetings if league else None,
        withdrawn=dict(
            TeamEntry.objects.filter(
                season=season, team__in=teams, withdrawn_on__isnull=False
            ).values_list("team", "withdrawn_on")
        )
        if league
        else None,
    )
    if found:
        # A withdrawn team's refusal is the team's ("home", "away": a form shows it with that
        # field), not the night's; the others are the fixture's as a whole.
        said: dict[str, list[str]] = {}
        for clash in found:
            said.setdefault(clash.about if clash.withdrawn else NON_FIELD_ERRORS, []).append(
                clash.message
                + (
                    " A further meeting is a cup tie, a play-off or a friendly: choose its kind."
                    if clash.about == "meetings"
                    else ""
                )
            )
        raise ValidationError(said)


def _locked_fixture(fixture: Fixture) -> Fixture:
    """The fixture, its row locked first and read after (``config.locks`` says why): a fixture
    played, postponed, walked over or voided a moment ago, while this waited for its lock (or
    while the secretary's page was open), is seen as it now is, not as the caller's copy says."""
    lock_rows(Fixture.objects.filter(pk=fixture.pk))
    related = ("division__season__league", "home", "away", "venue")
    return Fixture.objects.select_related(*related).get(pk=fixture.pk)


def refuse_begun(fixture: Fixture, doing: str) -> None:
    """Refuse to move ``fixture`` off its night (``doing``: "moved", "postponed") once play has
    begun at its tables (``boards_begun``): what was played there belongs to that night."""
    boards = boards_begun(fixture)
    if boards:
        which = join_words([str(board) for board in boards])
        raise ValidationError(
            f"Play has begun at this match's tables (table{pluralize(boards)} {which}): it "
            f"cannot be {doing}. Let the tables still playing finish, or enter what they "
            "played on the match's score card; if the match is to be played again from the "
            "start, void it and add the replay as a new fixture."
        )


@transaction.atomic
def fixture_postpone(*, fixture: Fixture, reason: str, by: Account = None) -> Fixture:
    """Postpone a fixture not yet played; the rest of the list stays as it is."""
    require_secretary(by, fixture.division.season.league)
    fixture = _locked_fixture(fixture)
    if fixture.status != Fixture.Status.SCHEDULED:
        raise ValidationError(
            f"Only a scheduled fixture can be postponed; this one is "
            f"{fixture.get_status_display().lower()}."
        )
    refuse_begun(fixture, "postponed")
    if not reason.strip():
        raise ValidationError("Give the reason for the postponement.")
    before = fixture_state(fixture)
    fixture.status = Fixture.Status.POSTPONED
    fixture.original_date = fixture.original_date or fixture.date
    fixture.reason = reason.strip()
    fixture.save(update_fields=["status", "original_date", "reason", "updated_at"])
    roll_up(FixtureChanged(fixture=fixture, recount=False))
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=AuditEntry.Action.FIXTURE_POSTPONED,
        subject=f"{fixture} postponed: {fixture.reason}",
        before=before,
        after=fixture_state(fixture),
        by=by,
    )
    return fixture


def free_nights(
    *, fixture: Fixture, venue: int | None = None, count: int = 4
) -> list[datetime.date]:
    """The next ``count`` league nights of the season's calendar after the fixture's night, from
    today on, on which both teams and the venue (the fixture's unless ``venue``, a venue's id)
    are free: the nights a re-arrangement offers. The last may be after the season's end (the
    caller says so)."""
    return nights_free_for(
        season=fixture.division.season,
        home=fixture.home_id,
        away=fixture.away_id,
        venue=venue if venue is not None else fixture.venue_id,
        start=fixture.date + datetime.timedelta(days=1),
        count=count,
        moving=fixture.pk,
    )


def nights_free_for(
    *,
    season: Season,
    home: int,
    away: int,
    venue: int | None,
    start: datetime.date,
    count: int = 1,
    moving: int | None = None,
) -> list[datetime.date]:
    """The next ``count`` league nights of ``season``'s calendar from ``start`` or today
    (whichever is later, and not before the season starts) on which teams ``home`` and ``away``
    are both free and venue ``venue`` has room, the fixture ``moving`` (a fixture's id) left
    out: a re-arrangement's offer, and the night a cup tie of an undated round is played on.
    A night the venue is closed (``Venue.closed``) is not free. The last may be after the
    season's end (the caller says so). Two queries (one with no venue)."""
    others = matches_on_their_nights(Fixture.objects.filter(division__season=season))
    if moving is not None:
        others = others.exclude(pk=moving)
    busy: dict[datetime.date, set[int]] = {}
    hosted: dict[datetime.date, int] = {}
    # The venue's own number of matches a night comes with its matches: with none there, it
    # has room every night whatever the number.
    room = season.venue_capacity
    rows = others.values_list("date", "home", "away", "venue", "venue__matches_a_night")
    for day, home_id, away_id, at, own in rows:
        busy.setdefault(day, set()).update((home_id, away_id))
        if at == venue:
            hosted[day] = hosted.get(day, 0) + 1
            room = own or room
    full = {day: {venue} for day, n in hosted.items() if n >= room}
    if venue is not None:
        shut = Venue.objects.filter(pk=venue).values_list("closed", flat=True).first() or []
        full |= {day: {venue} for day in dates_off(NightsOff.from_json(v) for v in shut)}
    after = max(
        start - datetime.timedelta(days=1),
        season.league.today() - datetime.timedelta(days=1),
        season.starts_on - datetime.timedelta(days=1),
    )
    nights: list[datetime.date] = []
    while len(nights) < count:
        after = next_free_night(
            after=after,
            league_night=season.night,
            home=home,
            away=away,
            busy=busy,
            venue=venue,
            venue_busy=full,
            exclusions=season.excluded_dates,
        )
        nights.append(after)
        if season.ends_on is not None and after > season.ends_on:
            break
    return nights


def calendar_override(
    *,
    season: Season,
    date: datetime.date,
    outside_calendar: bool,
    reason: str,
    today: datetime.date | None = None,
) -> str:
    """Why ``date`` is outside ``season``'s calendar (before its start, after its end, a night
    with no league, and with ``today`` given, in the past), or "" when it is a fine night: a
    fixture added or re-arranged there is refused unless ``outside_calendar`` is set with a
    ``reason`` (the audit entry records the override). A year typed wrong is caught so."""
    problem = season.calendar_problem(date)
    if not problem and today is not None and date < today:
        problem = f"{long_date(date)} is in the past"
    if problem and not outside_calendar:
        raise ValidationError(
            {
                "date": f"{problem}. To arrange it there anyway, tick “outside the calendar” "
                "and give the reason."
            }
        )
    if problem and not reason.strip():
        raise ValidationError(
            {"reason": f"{problem}: give the reason for arranging it outside the calendar."}
        )
    return problem


def rearranged_words(
    *,
    was: datetime.date,
    was_time: datetime.time | None,
    date: datetime.date,
    time: datetime.time | None,
    was_venue: str = "",
    venue: str = "",
) -> str:
    """A re-arrangement as the fixture's note, its audit entry and the captains' e-mail say it,
    naming what moved: "Re-arranged from Tue 1 Dec 2026 to Tue 8 Dec 2026", with the times when
    they changed too ("... from Tue 1 Dec 2026 at 20:00 to Tue 8 Dec 2026 at 20:30"), "Re-arranged
    from 20:00 to 20:30 on Sun 29 Nov 2026" when only the time did, "Re-arranged from Swan,
    Hightown to Woolpack, Batley on Sun 29 Nov 2026" when only the venue did, else "Re-arranged
    for Sun 29 Nov 2026 at 20:00" (a postponed match back on its night)."""
    if was_time is not None and time is not None and was_time != time:
        if was != date:
            return (
                f"Re-arranged from {long_date(was)} at {clock(was_time)} "
                f"to {long_date(date)} at {clock(time)}"
            )
        return f"Re-arranged from {clock(was_time)} to {clock(time)} on {long_date(date)}"
    if was != date:
        return f"Re-arranged from {long_date(was)} to {long_date(date)}"
    if was_venue and venue and was_venue != venue:
        return f"Re-arranged from {was_venue} to {venue} on {long_date(date)}"
    at = f" at {clock(time)}" if time is not None else ""
    return f"Re-arranged for {long_date(date)}{at}"


@transaction.atomic
def fixture_rearrange(
    *,
    fixture: Fixture,
    date: datetime.date | None = None,
    time: datetime.time | None = None,
    venue: Venue | None = None,
    reason: str = "",
    outside_calendar: bool = False,
    by: Account = None,
) -> Fixture:
    """Move a scheduled or postponed fixture to ``date``, or (no date) to the next league night
    of the season's calendar when both teams and the venue are free, moving nothing else.

    A date outside the calendar (in the past, before the season's start, after its end, or an
    excluded night) is refused unless ``outside_calendar`` is set with a ``reason``; the audit
    entry records the override.
    """
    require_secretary(by, fixture.division.season.league)
    # Locked first and read after (``config.locks`` says why): a re-arrangement to another pub
    # posted twice finds the fixture at its new pub, where a read that waited for the lock would
    # find no fixture at all.
    lock_rows(Fixture.objects.filter(pk=fixture.pk))
    fixture = Fixture.objects.select_related("division__season__league", "venue").get(pk=fixture.pk)
    if fixture.status not in REPLACEABLE:
        raise ValidationError(
            f"Only a scheduled or postponed fixture can be re-arranged; this one is "
            f"{fixture.get_status_display().lower()}."
        )
    refuse_begun(fixture, "moved")
    season = fixture.division.season
    if (
        venue is not None
        and venue.pk != fixture.venue_id
        and not venue_is_kept_by(venue, season.league)
    ):
        raise ValidationError({"venue": f"{venue} is not one of the league's venues."})
    venue_id = venue.pk if venue is not None else fixture.venue_id
    reason = reason.strip()
    today = season.league.today()
    override = ""
    override_checked = date is None
    if date is None:
        date = free_nights(fixture=fixture, venue=venue_id, count=1)[0]
        if season.ends_on is not None and date > season.ends_on:
            raise ValidationError(
                {
                    "date": f"No league night before the season ends ({long_date(season.ends_on)}) "
                    "has both teams and the venue free: give a date, and if it is outside "
                    "the season's calendar, say why."
                }
            )
    refuse_clash(
        division=fixture.division,
        date=date,
        home=fixture.home,
        away=fixture.away,
        venue=venue if venue is not None else fixture.venue,
        exclude=fixture.pk,
    )
    if not override_checked:
        override = calendar_override(
            season=season,
            date=date,
            outside_calendar=outside_calendar,
            reason=reason,
            today=today,
        )
    was, before_time, was_venue = fixture.date, fixture.time, str(fixture.venue)
    before = fixture_state(fixture)
    fixture.original_date = fixture.original_date or was
    fixture.date = date
    fixture.time = time or fixture.time
    fixture.venue_id = venue_id
    fixture.status = Fixture.Status.SCHEDULED
    line = rearranged_words(
        was=was,
        was_time=before_time,
        date=date,
        time=fixture.time,
        was_venue=was_venue,
        venue=str(venue) if venue is not None else was_venue,
    ) + (f": {reason}" if reason else ".")
    # The note is public (the fixture's page, the calendar feeds, the captains' e-mail): the
    # secretary's reason alone. Why the night is outside the calendar is the audit trail's.
    fixture.note = f"{fixture.note}\n{line}".strip()
    fixture.save()
    roll_up(FixtureChanged(fixture=fixture, recount=False))
    audit_log(
        league=season.league,
        fixture=fixture,
        action=AuditEntry.Action.FIXTURE_REARRANGED,
        subject=f"{fixture.home} v {fixture.away}: {line}"
        + (f" (outside the calendar: {override})" if override else ""),
        before=before,
        after={**fixture_state(fixture), "outside_calendar": override or None},
        by=by,
    )
    return fixture


@transaction.atomic
def fixture_walkover(*, fixture: Fixture, to: str, reason: str, by: Account = None) -> Fixture:
    """Award the fixture to ``to`` ("home" or "away"): the format's walkover score.

    The opponents conceded; the points come on the fixture's night, as a withdrawn team's
    walkovers do (``leagues.services.withdrawal``): a league fixture dated after today (the
    league's) is given now but ``walkover_pending``, and counts once its date has come
    (``settle_due_walkovers``); one dated today or earlier counts at once. A cup tie's winner
    goes through at once: the next round's draw waits on it."""
    require_secretary(by, fixture.division.season.league)
    if to not in Fixture.Side.values:
        raise ValidationError('A walkover goes to "home" or "away".')
    fixture = _locked_fixture(fixture)
    if fixture.status not in REPLACEABLE:
        raise ValidationError(
            f"Only a fixture not yet played can be given as a walkover; this one is "
            f"{fixture.get_status_display().lower()}."
        )
    if not reason.strip():
        raise ValidationError("Give the reason for the walkover.")
    fixture.status = Fixture.Status.WALKOVER
    fixture.walkover_to = to
    fixture.walkover_pending = fixture.kind == Fixture.Kind.LEAGUE and fixture.date > today_in(
        fixture.division.season.league.time_zone
    )
    fixture.reason = reason.strip()
    fixture.save(
        update_fields=["status", "walkover_to", "walkover_pending", "reason", "updated_at"]
    )
    roll_up(FixtureChanged(fixture=fixture, actor=Actor.of(by)))
    _audit_status(fixture, "walkover", by)
    return fixture


def status_subject(fixture: Fixture) -> str:
    """A fixture given as a walkover or voided, in the audit trail's words ("Walkover to
    Crown in ...", "..., counting on Tue 9 Dec" when it waits for its date)."""
    if fixture.status == Fixture.Status.WALKOVER:
        when = f" (it counts on {short_date(fixture.date)})" if fixture.walkover_pending else ""
        return f"Walkover to {fixture.walkover_winner} in {fixture}{when}: {fixture.reason}"
    return f"{fixture} voided: {fixture.reason}"


def _audit_status(fixture: Fixture, action: str, by: Account) -> None:
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=action,
        subject=status_subject(fixture),
        after={
            "status": fixture.status,
            "walkover_to": fixture.walkover_to,
            "walkover_pending": fixture.walkover_pending,
        },
        by=by,
    )


@transaction.atomic
def fixture_void(*, fixture: Fixture, reason: str, by: Account = None) -> Fixture:
    """Void a fixture: it stays on the list with its reason and gives nobody any points."""
    require_secretary(by, fixture.division.season.league)
    fixture = _locked_fixture(fixture)
    if fixture.status == Fixture.Status.VOID:
        raise ValidationError("This fixture is already void.")
    if not reason.strip():
        raise ValidationError("Give the reason for voiding the fixture.")
    fixture.status = Fixture.Status.VOID
    fixture.walkover_to = ""
    fixture.walkover_pending = False
    fixture.reason = reason.strip()
    fixture.save(
        update_fields=["status", "walkover_to", "walkover_pending", "reason", "updated_at"]
    )
    # A result waiting to be confirmed is withdrawn: its captains are told why.
    roll_up(
        FixtureChanged(
            fixture=fixture, actor=Actor.of(by), why=f"the fixture was made void: {fixture.reason}"
        )
    )
    _audit_status(fixture, "void", by)
    return fixture


def undo_words(fixture: Fixture) -> str:
    """What undoing the fixture's status would undo, in words ("the walkover to Crown")."""
    if fixture.status == Fixture.Status.WALKOVER:
        winner = fixture.home if fixture.walkover_to == Fixture.Side.HOME else fixture.away
        return f"the walkover to {winner}"
    if fixture.status == Fixture.Status.POSTPONED:
        return "the postponement"
    return "the void"


@transaction.atomic
def fixture_undo(*, fixture: Fixture, reason: str, by: Account = None) -> Fixture:
    """Undo a postponement, a walkover or a void: the fixture is back on the list as it was
    (scheduled on its night, or played when its tables had finished before it was voided),
    the table follows, the change is audited and both captains are told."""
    require_secretary(by, fixture.division.season.league)
    fixture = _locked_fixture(fixture)
    if fixture.status not in UNDOABLE:
        raise ValidationError(
            "Only a postponement, a walkover or a void can be undone; this fixture is "
            f"{fixture.get_status_display().lower()}."
        )
    if fixture.awaits_night:
        # Never set for the night its date holds: undoing would book it on the round's night
        # that did not suit it.
        raise ValidationError(
            "This cup tie has no night yet, so there is no postponement to undo: its round's "
            "night did not suit it. Re-arrange it onto a night that suits both teams and the pub."
        )
    if not reason.strip():
        raise ValidationError("Give the reason for undoing it.")
    withdrawn = fixture.withdrawn_team
    if withdrawn is not None:
        raise ValidationError(
            f"This fixture was settled by {possessive(withdrawn.name)} withdrawal: "
            "reinstate the team to undo it."
        )
    undone = undo_words(fixture)
    # Back on its night: what was booked onto that night meanwhile (a team's other match,
    # the pub's tables, a replacement meeting) would clash with it.
    try:
        refuse_fixture_clash(fixture, date=fixture.date)
    except ValidationError as exc:
        raise ValidationError(
            [
                f"{undone[0].upper()}{undone[1:]} cannot be undone: {fixture} would be back on "
                f"{long_date(fixture.date)}, which no longer has room for it.",
                *exc.messages,
            ]
        ) from exc
    before = {**fixture_state(fixture), "walkover_to": fixture.walkover_to}
    if fixture.status == Fixture.Status.POSTPONED and fixture.original_date == fixture.date:
        fixture.original_date = None
    fixture.status = Fixture.Status.SCHEDULED
    fixture.walkover_to = ""
    fixture.walkover_pending = False
    fixture.reason = ""
    fixture.save(
        update_fields=[
            "status",
            "walkover_to",
            "walkover_pending",
            "reason",
            "original_date",
            "updated_at",
        ]
    )
    roll_up(FixtureChanged(fixture=fixture, actor=Actor.of(by)))
    fixture.refresh_from_db(fields=["status"])
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=AuditEntry.Action.FIXTURE_UNDONE,
        subject=f"{fixture}: {undone} undone: {reason.strip()}",
        before=before,
        after={
            **fixture_state(fixture),
            "walkover_to": "",
            "undone": undone,
            "reason": f"{undone[0].upper()}{undone[1:]} is undone: {reason.strip()}",
        },
        by=by,
    )
    return fixture
