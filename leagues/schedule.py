"""Fixture-list generator for a division: single or double round robin by the circle method.

Pure Python (no Django): the leagues service layer turns teams into ``TeamSlot`` values, calls
:func:`round_robin` and stores the ``PlannedFixture`` values it gets back.

Guarantees when no two teams share a home venue (and nothing is kept from an earlier run):

* every pair meets once per leg; in a double round robin once at each team's home;
* with an odd number of teams every team has exactly one bye per leg;
* at every point of the season no team's home count is more than one ahead of its away count,
  or one behind (so at the end of a single round robin ``|home - away| <= 1``, and at the end of
  a double round robin ``home == away``);
* breaks (two consecutive fixtures of a team both at home or both away, byes skipped): at most
  ``n - 2`` in a single round robin and ``2n - 4`` in a double for an even number of teams ``n``,
  none at all for an odd number.  ``n - 2`` is the known minimum for a single round robin.  The
  second leg is the first leg mirrored (home and away swapped) and starts with the mirror of the
  last round, so the join between the legs adds no break; the price is that the teams meeting
  in the last round of the first leg meet again, the other way round, the next week.

Teams sharing a home venue are first placed on circle positions whose home/away patterns never
coincide, which needs no change at all for pairs of sharers.  Three or more teams at one venue
cannot all be kept apart that way: the generator then swaps home and away of a fixture (and, to
keep everyone's home and away count level within the leg, of a chain of other fixtures) and, if
that is impossible, moves a fixture to a later free league night.  Every swapped or moved fixture
carries a note in plain words, and each leg still ends with ``|home - away| <= 1`` for every team.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache

from leagues.days import long_date

__all__ = [
    "Bye",
    "PlannedFixture",
    "Schedule",
    "ScheduleError",
    "TeamSlot",
    "league_nights",
    "next_free_night",
    "occupancy",
    "round_dates",
    "round_robin",
]

WEEK = timedelta(days=7)
_Day = date  # for annotations inside classes that have a field called ``date``
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class ScheduleError(ValueError):
    """The requested fixture list cannot be made; the message says why in plain words, and
    ``field`` names the option it is about ("end_by", "rest_every"; "" for the list as a whole)."""

    def __init__(self, message: str, field: str = "") -> None:
        # A refusal the secretary reads starts with a capital, whatever its first word.
        super().__init__(message[:1].upper() + message[1:])
        self.field = field


@dataclass(frozen=True)
class TeamSlot:
    """A team in the division: its id, its home venue's id (None: no shared venue to worry about)
    and an optional display name used in notes (defaults to ``str(key)``)."""

    key: Hashable
    venue: Hashable | None = None
    name: str = ""
    taken: frozenset[date] = frozenset()
    """Nights its home venue is already full with matches of other divisions (their lists are
    fixed): the team's pairing number is chosen to be away on them where one can be."""

    @property
    def label(self) -> str:
        return self.name or str(self.key)


@dataclass(frozen=True)
class PlannedFixture:
    """One fixture.  ``round`` is 1-based over the whole season (a double round robin's second
    leg carries on from the first); ``note`` explains any swap or move, in plain words."""

    round: int
    date: date
    home: Hashable
    away: Hashable
    note: str = ""


@dataclass(frozen=True)
class Bye:
    """``team`` has no fixture in ``round``, whose league night is ``date``."""

    round: int
    date: date
    team: Hashable


@dataclass(frozen=True)
class Schedule:
    """The fixture list, ordered by date then round; ``notes`` collects every fixture note."""

    fixtures: tuple[PlannedFixture, ...]
    byes: tuple[Bye, ...] = ()
    notes: tuple[str, ...] = ()
    clashes: tuple[str, ...] = ()
    """Each venue clash no pairing could avoid, and why, in plain words (empty when every team
    sharing a venue is kept apart)."""


def _check_date(value: object, what: str) -> date:
    if isinstance(value, datetime) or not isinstance(value, date):
        raise ScheduleError(f"{what} must be a date (without a time), not {value!r}")
    return value


def _check_weekday(league_night: object) -> int:
    if isinstance(league_night, bool) or not isinstance(league_night, int):
        raise ScheduleError(
            f"League night must be a weekday number 0 (Monday) to 6 (Sunday), not {league_night!r}"
        )
    if not 0 <= league_night <= 6:
        raise ScheduleError(
            f"League night must be a weekday number 0 (Monday) to 6 (Sunday), not {league_night}"
        )
    return league_night


def league_nights(
    start: date, league_night: int, exclusions: Collection[date] = ()
) -> Iterator[date]:
    """Every league night on or after ``start`` that is not an exclusion date (endless)."""
    _check_date(start, "start")
    _check_weekday(league_night)
    night = start + timedelta(days=(league_night - start.weekday()) % 7)
    while True:
        if night not in exclusions:
            yield night
        night += WEEK


def round_dates(
    *,
    start: date,
    league_night: int,
    rounds: int,
    exclusions: Collection[date] = (),
    rest_every: int | None = None,
    end_by: date | None = None,
) -> list[date]:
    """The league night of each of ``rounds`` rounds.

    Packed (the default): the first ``rounds`` league nights on or after ``start`` that are not
    excluded. ``rest_every=k``: a week off after every ``k`` rounds. ``end_by``: the rounds spread
    evenly over the league nights from ``start`` to ``end_by`` (the first and the last used), the
    free nights between them left for re-arrangements and venue moves."""
    _check_date(start, "start")
    _check_weekday(league_night)
    nights = league_nights(start, league_night, exclusions)
    if rest_every is not None and end_by is not None:
        raise ScheduleError("Choose one way to spread the rounds: a week off every few, or an end")
    if rest_every is not None:
        if isinstance(rest_every, bool) or not isinstance(rest_every, int) or rest_every < 1:
            raise ScheduleError(
                f"A week off every {rest_every!r} rounds: give a whole number from 1", "rest_every"
            )
        dates: list[date] = []
        while len(dates) < rounds:
            dates.append(next(nights))
            if len(dates) % rest_every == 0 and len(dates) < rounds:
                next(nights)
        return dates
    if end_by is None:
        return [next(nights) for _ in range(rounds)]
    _check_date(end_by, "end by")
    available: list[date] = []
    for night in nights:
        if night > end_by:
            break
        available.append(night)
    if len(available) < rounds:
        raise ScheduleError(
            f"Too early an end: {rounds} rounds need {rounds} league nights, but from "
            f"{long_date(start)} to {long_date(end_by)} there are {len(available)}; end later, "
            "or leave it blank",
            "end_by",
        )
    if rounds == 1:
        return available[:1]
    last = len(available) - 1
    return [available[round(i * last / (rounds - 1))] for i in range(rounds)]


def next_free_night(
    *,
    after: date,
    league_night: int,
    home: Hashable,
    away: Hashable,
    busy: Mapping[date, Collection[Hashable]] | None = None,
    venue: Hashable | None = None,
    venue_busy: Mapping[date, Collection[Hashable]] | None = None,
    exclusions: Collection[date] = (),
) -> date:
    """The first league night strictly after ``after`` that is not excluded, on which neither
    ``home`` nor ``away`` is in ``busy[night]`` (teams with a fixture that night) and ``venue``
    (the home team's venue, if any) is not in ``venue_busy[night]`` (venues hosting a fixture).

    Use it to re-arrange one fixture (a postponement) without disturbing the rest: build ``busy``
    and ``venue_busy`` from the other fixtures with :func:`occupancy`."""
    _check_date(after, "after")
    busy = busy or {}
    venue_busy = venue_busy or {}
    for night in league_nights(after + timedelta(days=1), league_night, exclusions):
        teams = busy.get(night, ())
        if home in teams or away in teams:
            continue
        if venue is not None and venue in venue_busy.get(night, ()):
            continue
        return night
    raise AssertionError("unreachable: league_nights never ends")  # pragma: no cover


def occupancy(
    fixtures: Iterable[PlannedFixture], venue_of: Mapping[Hashable, Hashable | None]
) -> tuple[dict[date, set[Hashable]], dict[date, set[Hashable]]]:
    """``(busy, venue_busy)`` for :func:`next_free_night`: per date, the teams playing and the
    venues hosting (the home team's venue, from ``venue_of``; teams missing from it have none)."""
    busy: dict[date, set[Hashable]] = {}
    venue_busy: dict[date, set[Hashable]] = {}
    for fixture in fixtures:
        busy.setdefault(fixture.date, set()).update((fixture.home, fixture.away))
        venue = venue_of.get(fixture.home)
        if venue is not None:
            venue_busy.setdefault(fixture.date, set()).add(venue)
    return busy, venue_busy


# --- the circle method, on slot numbers -------------------------------------------------------


@lru_cache(maxsize=64)
def _circle(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The first leg on slots ``0..size-1`` as ``(home, away)`` pairs per round.

    ``size`` is ``n`` rounded up to even; for odd ``n`` slot ``n`` is the bye.  Slot ``size-1``
    is fixed and the others rotate.  Orientation (de Werra's canonical schedule): the fixed slot
    alternates home and away, and the pair ``(r+k, r-k)`` is at ``r+k`` for odd ``k``, at ``r-k``
    for even ``k``; this has ``n-2`` breaks for even ``n`` and no team more than one game ahead
    either way at any point."""
    size = n + n % 2
    turn = size - 1
    rounds = []
    for r in range(turn):
        games = [(r, turn) if r % 2 == 0 else (turn, r)]
        for k in range(1, size // 2):
            a, b = (r + k) % turn, (r - k) % turn
            games.append((a, b) if k % 2 else (b, a))
        rounds.append(tuple(games))
    return tuple(rounds)


def _score(n: int, season: Sequence[Sequence[tuple[int, int]]]) -> tuple[int, int]:
    """(worst home-minus-away lead at any point, breaks) over the real slots ``0..n-1``."""
    last: dict[int, int] = {}
    lead = dict.fromkeys(range(n), 0)
    worst = breaks = 0
    for games in season:
        for home, away in games:
            if home >= n or away >= n:
                continue
            for slot, sign in ((home, 1), (away, -1)):
                if last.get(slot) == sign:
                    breaks += 1
                last[slot] = sign
                lead[slot] += sign
                worst = max(worst, abs(lead[slot]))
    return worst, breaks


@lru_cache(maxsize=64)
def _second_leg_order(n: int) -> tuple[int, ...]:
    """Which first-leg round (mirrored) is played in each round of the second leg: the cyclic
    order, forwards or backwards, with the fewest breaks and no team ever two games ahead."""
    first = _circle(n)
    turn = len(first)
    mirrored = [tuple((a, h) for h, a in games) for games in first]
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for base in (list(range(turn)), list(range(turn))[::-1]):
        for shift in range(turn):
            order = tuple(base[shift:] + base[:shift])
            score = _score(n, [*first, *(mirrored[i] for i in order)])
            if best is None or score < best[0]:
                best = (score, order)
    assert best is not None
    return best[1]


@lru_cache(maxsize=128)
def _slot_patterns(n: int, legs: int) -> tuple[frozenset[int], ...]:
    """For each real slot, the season rounds (0-based) in which it is at home."""
    first = _circle(n)
    season = list(first)
    if legs == 2:
        season += [tuple((a, h) for h, a in first[i]) for i in _second_leg_order(n)]
    homes: list[set[int]] = [set() for _ in range(n)]
    for r, games in enumerate(season):
        for home, away in games:
            if home < n and away < n:
                homes[home].add(r)
    return tuple(frozenset(h) for h in homes)


# --- internal state ---------------------------------------------------------------------------


@dataclass(eq=False)
class _Meeting:
    """One pairing of two teams (indices); in a double round robin both legs share it, the second
    leg at the other team's home.  ``home`` is the first-leg home team."""

    a: int
    b: int
    home: int
    rounds: list[int] = field(default_factory=list)  # season round per leg (0-based)
    locked: bool = False
    reason: Callable[[int], str] | None = None  # leg -> why it is swapped from the circle
    canonical: int = -1

    def other(self, team: int) -> int:
        return self.b if team == self.a else self.a

    def home_in(self, leg: int) -> int:
        return self.home if leg == 0 else self.other(self.home)


@dataclass
class _Fixture:
    round: int  # 0-based within this run's rounds
    date: date
    home: int
    away: int
    swap_note: Callable[[_Day], str] | None = None
    move_note: Callable[[_Day], str] | None = None


def _validate_teams(teams: Sequence[TeamSlot]) -> list[TeamSlot]:
    slots = list(teams)
    for slot in slots:
        if not isinstance(slot, TeamSlot):
            raise ScheduleError(f"Teams must be TeamSlot values, not {slot!r}")
    if len(slots) < 2:
        raise ScheduleError(f"A round robin needs at least 2 teams, not {len(slots)}")
    seen: set[Hashable] = set()
    for slot in slots:
        if slot.key in seen:
            raise ScheduleError(f"Team {slot.label} is listed twice")
        seen.add(slot.key)
    return slots


class _Planner:
    def __init__(
        self,
        teams: list[TeamSlot],
        start: date,
        league_night: int,
        legs: int,
        exclusions: frozenset[date],
        dates: list[date],
    ) -> None:
        self.teams = teams
        self.dates = dates
        self.n = len(teams)
        self.start = start
        self.league_night = league_night
        self.legs = legs
        self.exclusions = exclusions
        self.venue = [t.venue for t in teams]
        counts: dict[Hashable, int] = {}
        for v in self.venue:
            if v is not None:
                counts[v] = counts.get(v, 0) + 1
        self.shared = {v for v, c in counts.items() if c > 1}

    def label(self, team: int) -> str:
        return self.teams[team].label

    # slot assignment ------------------------------------------------------------------------

    def assign_slots(self) -> list[int]:
        """Team index -> slot (its pairing number).  Without shared venues (in the division or
        with other divisions' fixed lists) team ``i`` takes slot ``i``; otherwise teams of one
        venue take slots that are never at home on the same night, and a team whose venue is
        taken on some nights takes a slot that is away on them, as far as any assignment can."""
        n = self.n
        self.slot_clashes: dict[int, int] = {}
        constrained = [t for t in range(n) if self.venue[t] in self.shared or self.teams[t].taken]
        if not constrained:
            return list(range(n))
        homes = _slot_patterns(n, self.legs)
        home_dates = [frozenset(self.dates[r] for r in homes[s]) for s in range(n)]
        # Biggest venue groups first, then the teams with the most taken nights.
        group_size: dict[Hashable, int] = {}
        for t in constrained:
            group_size[self.venue[t]] = group_size.get(self.venue[t], 0) + 1
        constrained.sort(
            key=lambda t: (
                -group_size[self.venue[t]],
                str(self.venue[t]),
                -len(self.teams[t].taken),
                t,
            )
        )

        def cost(team: int, slot: int, placed: dict[int, int]) -> int:
            clash = len(home_dates[slot] & self.teams[team].taken)
            for other, at in placed.items():
                if self.venue[other] is not None and self.venue[other] == self.venue[team]:
                    clash += len(homes[slot] & homes[at])
            return clash

        best: tuple[int, dict[int, int]] | None = None
        nodes = 0

        def search(i: int, placed: dict[int, int], total: int) -> None:
            nonlocal best, nodes
            nodes += 1
            if best is not None and (total >= best[0] or nodes > 20000):
                return
            if i == len(constrained):
                best = (total, dict(placed))
                return
            team = constrained[i]
            used = set(placed.values())
            options = sorted((cost(team, s, placed), s) for s in range(n) if s not in used)
            for extra, slot in options:
                placed[team] = slot
                search(i + 1, placed, total + extra)
                del placed[team]
                if best is not None and best[0] == 0:
                    return

        search(0, {}, 0)
        assert best is not None
        slot_of = best[1]
        for team, slot in slot_of.items():
            self.slot_clashes[team] = len(home_dates[slot] & self.teams[team].taken)
        free = sorted(set(range(n)) - set(slot_of.values()))
        for team in range(n):
            if team not in slot_of:
                slot_of[team] = free.pop(0)
        return [slot_of[t] for t in range(n)]

    def clashes(self) -> list[str]:
        """Why a clash remains, for each venue or team no pairing could keep apart."""
        out = []
        groups: dict[Hashable, list[int]] = {}
        for team, v in enumerate(self.venue):
            if v in self.shared:
                groups.setdefault(v, []).append(team)
        for members in groups.values():
            if len(members) > 2:
                names = ", ".join(self.label(t) for t in members[:-1])
                out.append(
                    f"{names} and {self.label(members[-1])} share a home venue: a fixture list "
                    f"can keep two teams of one venue apart, not {len(members)}, so some of their "
                    "home fixtures are swapped or moved to later nights"
                )
        for team, count in sorted(self.slot_clashes.items()):
            if count:
                out.append(
                    f"{self.label(team)}'s home venue already hosts another division's matches on "
                    f"{count} of the nights it would be at home: no pairing number in a division "
                    f"of {self.n} is away on all of them"
                    + (
                        " alongside its venue's other teams"
                        if self.venue[team] in self.shared
                        else ""
                    )
                    + ", so those fixtures move to later nights"
                )
        return out

    # building the rounds --------------------------------------------------------------------

    def build(self) -> None:
        n, legs = self.n, self.legs
        first = _circle(n)
        turn = len(first)
        self.rounds_per_leg = turn
        slot_of = self.assign_slots()
        team_at = {slot: team for team, slot in enumerate(slot_of)}
        self.games: list[list[tuple[_Meeting, int]]] = [[] for _ in range(turn * legs)]
        self.byes: list[int | None] = [None] * (turn * legs)
        self.meetings: list[_Meeting] = []
        self.team_meetings: list[list[_Meeting]] = [[] for _ in range(n)]
        order = _second_leg_order(n) if legs == 2 else ()
        leg2_round = {r: turn + j for j, r in enumerate(order)}
        for r, games in enumerate(first):
            for home_slot, away_slot in games:
                home, away = team_at.get(home_slot), team_at.get(away_slot)
                if home is None or away is None:
                    idle = away if home is None else home
                    assert idle is not None
                    self.byes[r] = idle
                    if legs == 2:
                        self.byes[leg2_round[r]] = idle
                    continue
                meeting = _Meeting(home, away, home, [r], canonical=home)
                self.games[r].append((meeting, 0))
                if legs == 2:
                    meeting.rounds.append(leg2_round[r])
                self.meetings.append(meeting)
                self.team_meetings[home].append(meeting)
                self.team_meetings[away].append(meeting)
        if legs == 2:
            for r in range(turn):
                for meeting, _ in self.games[r]:
                    self.games[leg2_round[r]].append((meeting, 1))
        self.home_count = [0] * n  # first-leg home games
        for meeting in self.meetings:
            self.home_count[meeting.home] += 1

    # venue clashes: swapping home and away ----------------------------------------------------

    def homes_at(self, r: int, venue: Hashable) -> list[int]:
        return [m.home_in(leg) for m, leg in self.games[r] if self.venue[m.home_in(leg)] == venue]

    def flip_ok(self, meeting: _Meeting) -> bool:
        """Swapping the meeting would not put two sharers at home on one night."""
        for leg, r in enumerate(meeting.rounds):
            old = meeting.home_in(leg)
            new = meeting.other(old)
            venue = self.venue[new]
            if venue in self.shared and any(t != old for t in self.homes_at(r, venue)):
                return False
        return True

    def flip(self, meeting: _Meeting) -> None:
        self.home_count[meeting.home] -= 1
        meeting.home = meeting.other(meeting.home)
        self.home_count[meeting.home] += 1

    def level(self, team: int, change: int = 0) -> bool:
        return abs(2 * (self.home_count[team] + change) - (self.n - 1)) <= 1

    def chain(self, start: int, giving: bool) -> list[_Meeting] | None:
        """Meetings to swap so that ``start`` gives away (or gains) one first-leg home game and
        some team that can take it (or spare it) within the balance bound ends up with it."""
        previous: dict[int, tuple[int, _Meeting] | None] = {start: None}
        queue = deque([start])
        while queue:
            team = queue.popleft()
            for meeting in self.team_meetings[team]:
                if meeting.locked or (meeting.home == team) != giving:
                    continue
                other = meeting.other(team)
                if other in previous or not self.flip_ok(meeting):
                    continue
                previous[other] = (team, meeting)
                if self.level(other, 1 if giving else -1):
                    path = []
                    node: int = other
                    while (step := previous[node]) is not None:
                        node, via = step
                        path.append(via)
                    return path[::-1]
                queue.append(other)
        return None

    def try_swap(self, meeting: _Meeting) -> list[_Meeting] | None:
        """Swap ``meeting`` and rebalance the first leg with a chain of further swaps; returns
        every meeting swapped (left swapped, ``meeting`` locked), or None with nothing changed."""
        if meeting.locked or not self.flip_ok(meeting):
            return None
        done = [meeting]
        self.flip(meeting)
        meeting.locked = True
        gained, lost = meeting.home, meeting.other(meeting.home)
        ok = True
        for team, giving in ((gained, True), (lost, False)):
            if self.level(team):
                continue
            path = self.chain(team, giving)
            if path is None:
                ok = False
                break
            for step in path:
                if not self.flip_ok(step):
                    ok = False
                    break
                self.flip(step)
                done.append(step)
            if not ok:
                break
        if ok and all(self.level(t) for m in done for t in (m.a, m.b)):
            return done
        for step in reversed(done):
            self.flip(step)
        meeting.locked = False
        return None

    def resolve_by_swapping(self) -> None:
        given_up: set[tuple[int, Hashable]] = set()
        while (clash := self.find_clash(given_up)) is not None:
            r, venue, homes = clash
            best: list[_Meeting] | None = None
            best_team = -1
            for team in homes:
                meeting = next(m for m, leg in self.games[r] if m.home_in(leg) == team)
                done = self.try_swap(meeting)
                if done is None:
                    continue
                for step in reversed(done):  # measure only; redo the best below
                    self.flip(step)
                meeting.locked = False
                if best is None or len(done) < len(best):
                    best, best_team = done, team
            if best is None:
                given_up.add((r, venue))
                continue
            partner = next(t for t in homes if t != best_team)
            main = best[0]
            for step in best:
                self.flip(step)
            main.locked = True
            clash_leg = main.rounds.index(r)
            main.reason = self._clash_reason(best_team, partner, clash_leg)
            for step in best[1:]:
                if step.home == step.canonical:
                    step.reason = None
                else:
                    step.reason = self._balance_reason(main)
            if main.home == main.canonical:
                main.reason = None

    def _clash_reason(self, moved: int, partner: int, clash_leg: int) -> Callable[[int], str]:
        sharers = f"{self.label(moved)} and {self.label(partner)}"
        return lambda leg: (
            f"because {sharers} share a home venue and would both have been at home "
            + ("that night" if leg == clash_leg else "on the night of the return fixture")
        )

    def _balance_reason(self, main: _Meeting) -> Callable[[int], str]:
        text = (
            f"to keep home and away games level after {self.label(main.home)} v "
            f"{self.label(main.other(main.home))} was swapped for a shared venue"
        )
        return lambda leg: text

    def find_clash(
        self, given_up: set[tuple[int, Hashable]]
    ) -> tuple[int, Hashable, list[int]] | None:
        for r in range(len(self.games)):
            by_venue: dict[Hashable, list[int]] = {}
            for meeting, leg in self.games[r]:
                home = meeting.home_in(leg)
                if self.venue[home] in self.shared:
                    by_venue.setdefault(self.venue[home], []).append(home)
            for venue, homes in by_venue.items():
                if len(homes) > 1 and (r, venue) not in given_up:
                    return r, venue, homes
        return None

    # venue clashes: moving -------------------------------------------------------------------

    def fixtures(self) -> list[_Fixture]:
        out: list[_Fixture] = []
        busy: dict[date, set[Hashable]] = {}
        venue_busy: dict[date, set[Hashable]] = {}
        per_round: list[list[_Fixture]] = []
        for r, games in enumerate(self.games):
            day = self.dates[r]
            row = []
            for meeting, leg in games:
                home = meeting.home_in(leg)
                fixture = _Fixture(r, day, home, meeting.other(home))
                if meeting.reason is not None:
                    fixture.swap_note = self._swap_note(meeting, leg)
                row.append(fixture)
                busy.setdefault(day, set()).update((fixture.home, fixture.away))
                if self.venue[home] is not None:
                    venue_busy.setdefault(day, set()).add(self.venue[home])
            per_round.append(row)
        for r, row in enumerate(per_round):
            day = self.dates[r]
            hosting: dict[Hashable, int] = {}
            for fixture in row:
                venue = self.venue[fixture.home]
                if venue not in self.shared:
                    continue
                if venue not in hosting:
                    hosting[venue] = fixture.home
                    continue
                busy[day].difference_update((fixture.home, fixture.away))
                new_day = next_free_night(
                    after=day,
                    league_night=self.league_night,
                    home=fixture.home,
                    away=fixture.away,
                    busy=busy,
                    venue=venue,
                    venue_busy=venue_busy,
                    exclusions=self.exclusions,
                )
                fixture.date = new_day
                busy.setdefault(new_day, set()).update((fixture.home, fixture.away))
                venue_busy.setdefault(new_day, set()).add(venue)
                fixture.move_note = self._move_note(fixture, hosting[venue], day)
            out.extend(row)
        return out

    def _swap_note(self, meeting: _Meeting, leg: int) -> Callable[[date], str]:
        reason = meeting.reason
        assert reason is not None
        home = self.label(meeting.home_in(leg))
        away = self.label(meeting.other(meeting.home_in(leg)))
        also = " (with the return fixture)" if self.legs == 2 else ""
        why = reason(leg)
        return lambda day: f"{home} v {away} on {long_date(day)}: home and away swapped{also} {why}"

    def _move_note(self, fixture: _Fixture, host: int, day: date) -> Callable[[date], str]:
        home, away, other = self.label(fixture.home), self.label(fixture.away), self.label(host)
        was = long_date(day)
        return lambda new: (
            f"{home} v {away} on {long_date(new)}: {home} shares a home venue with {other}, who "
            f"is at home on {was}"
        )


def _render(fixture: _Fixture, keys: list[Hashable], round_number: int) -> PlannedFixture:
    notes = [fn(fixture.date) for fn in (fixture.move_note, fixture.swap_note) if fn is not None]
    return PlannedFixture(
        round=round_number,
        date=fixture.date,
        home=keys[fixture.home],
        away=keys[fixture.away],
        note="; ".join(notes),
    )


def _fresh(planner: _Planner) -> tuple[list[_Fixture], list[tuple[int, date, int]]]:
    """The whole season's fixtures and byes ``(round, date, team)`` (0-based rounds)."""
    planner.build()
    if planner.shared:
        planner.resolve_by_swapping()
    fixtures = planner.fixtures()
    byes = [(r, planner.dates[r], team) for r, team in enumerate(planner.byes) if team is not None]
    return fixtures, byes


def _sorted(fixtures: Iterable[PlannedFixture]) -> tuple[PlannedFixture, ...]:
    return tuple(sorted(fixtures, key=lambda f: (f.date, f.round)))


def round_robin(
    *,
    teams: Sequence[TeamSlot],
    start: date,
    league_night: int,
    legs: int = 1,
    exclusions: Collection[date] = (),
    keep: Sequence[PlannedFixture] = (),
    pending: Sequence[PlannedFixture] = (),
    rest_every: int | None = None,
    end_by: date | None = None,
    not_before: date | None = None,
) -> Schedule:
    """The fixture list for a division.

    ``teams``: the division, in the order the circle method places them (team ``i`` on circle
    position ``i`` unless venue sharing needs otherwise).  ``league_night``: weekday, 0 = Monday.
    Round ``r`` is played on the ``r``-th league night on or after ``start`` that is not in
    ``exclusions``; a fixture moved for a venue clash keeps its round number but gets a later date.

    ``keep``: fixtures already played (or otherwise locked).  They are returned unchanged; every
    meeting still owed (per leg: in a double round robin, per home team) is planned afresh on
    league nights after the last kept fixture, in the order the full plan would have played them
    (so re-generating after some whole rounds were played gives the same remaining fixtures).
    Owed fixtures whose planned date has already passed go into the first later round where both
    teams are free, else onto catch-up nights at the end.

    ``pending``: fixtures owed but not to be planned again (postponed, to be re-arranged by
    hand): their meetings are not planned, their dates do not hold the rest back, and they are
    not returned.

    ``rest_every`` and ``end_by`` spread the rounds over the calendar (see :func:`round_dates`):
    a week off after every ``rest_every`` rounds, or the rounds spread evenly up to ``end_by``.
    With fixtures kept, the rounds still owed take the nights the whole list would have had
    after the last kept fixture (its weeks off kept), and are spread again from there to
    ``end_by`` only where those nights would run past it.

    ``not_before``: no new fixture before it (today, on a season under way). With nothing kept
    the list is planned from it; with fixtures kept, the rounds still owed start on or after it.

    Teams of one venue (``TeamSlot.venue``) get paired numbers, never at home on the same night;
    a team whose venue is taken on some nights (``TeamSlot.taken``) gets a number away on them.
    Where no pairing can do it, ``Schedule.clashes`` says which clash remains and why.

    Raises :class:`ScheduleError` for fewer than 2 teams, a team listed twice, ``legs`` other than
    1 or 2, a league night that is not 0..6, a start that is not a date, and a ``keep`` list that
    does not fit: an unknown team, a team playing itself, a team twice on one night, or a pair
    that has met more often than the format allows.
    """
    slots = _validate_teams(teams)
    if isinstance(legs, bool) or legs not in (1, 2):
        raise ScheduleError(
            f"Legs must be 1 (single round robin) or 2 (double round robin), not {legs!r}"
        )
    _check_date(start, "start")
    _check_weekday(league_night)
    excluded = frozenset(exclusions)
    keys = [s.key for s in slots]
    rounds = (len(slots) + len(slots) % 2 - 1) * legs
    kept = list(keep)
    owed = _owed(slots, legs, kept + list(pending))
    fresh = not kept and not pending
    if not_before is not None:
        _check_date(not_before, "not before")
        if fresh:
            start = max(start, not_before)
    try:
        dates = round_dates(
            start=start,
            league_night=league_night,
            rounds=rounds,
            exclusions=excluded,
            rest_every=rest_every,
            end_by=end_by,
        )
    except ScheduleError:
        if fresh or end_by is None:
            raise
        # The whole season's rounds no longer fit before the end; only those still owed must
        # (``_regenerate``), so the pairing is made on packed nights.
        dates = round_dates(
            start=start, league_night=league_night, rounds=rounds, exclusions=excluded
        )
    planner = _Planner(slots, start, league_night, legs, excluded, dates)
    fixtures, byes = _fresh(planner)
    if fresh:
        rendered = [_render(f, keys, f.round + 1) for f in fixtures]
        return Schedule(
            fixtures=_sorted(rendered),
            byes=tuple(Bye(r + 1, d, keys[t]) for r, d, t in byes),
            notes=tuple(f.note for f in _sorted(rendered) if f.note),
            clashes=tuple(planner.clashes()),
        )
    return _regenerate(
        planner,
        keys,
        fixtures,
        kept,
        owed,
        rest_every=rest_every,
        end_by=end_by,
        not_before=not_before,
    )


def _owed(slots: list[TeamSlot], legs: int, keep: list[PlannedFixture]) -> set[tuple[int, int]]:
    """Validate ``keep``; return the meetings still owed as (home, away) team indices (for a
    single round robin both orientations of an unplayed pair are listed)."""
    index = {s.key: i for i, s in enumerate(slots)}
    label = {s.key: s.label for s in slots}
    playing: dict[date, set[Hashable]] = {}
    met: dict[tuple[int, int], int] = {}
    for fixture in keep:
        if not isinstance(fixture, PlannedFixture):
            raise ScheduleError(f"Kept fixtures must be PlannedFixture values, not {fixture!r}")
        for key in (fixture.home, fixture.away):
            if key not in index:
                raise ScheduleError(
                    f"Kept fixture {fixture.home} v {fixture.away} on {long_date(fixture.date)}: "
                    f"{key} is not a team in this division"
                )
        if fixture.home == fixture.away:
            raise ScheduleError(
                f"Kept fixture on {long_date(fixture.date)}: {label[fixture.home]} "
                "cannot play itself"
            )
        day = playing.setdefault(fixture.date, set())
        for key in (fixture.home, fixture.away):
            if key in day:
                raise ScheduleError(
                    f"Kept fixtures have {label[key]} playing twice on {long_date(fixture.date)}"
                )
            day.add(key)
        pair = (index[fixture.home], index[fixture.away])
        met[pair] = met.get(pair, 0) + 1
    owed: set[tuple[int, int]] = set()
    n = len(slots)
    for a in range(n):
        for b in range(a + 1, n):
            ab, ba = met.get((a, b), 0), met.get((b, a), 0)
            names = f"{slots[a].label} and {slots[b].label}"
            if legs == 1:
                if ab + ba > 1:
                    raise ScheduleError(
                        f"{names} have already met {ab + ba} times, but in a single round robin "
                        f"they meet once"
                    )
                if ab + ba == 0:
                    owed |= {(a, b), (b, a)}
            else:
                for h, x, count in ((a, b, ab), (b, a, ba)):
                    if count > 1:
                        raise ScheduleError(
                            f"{names} have already met {count} times at {slots[h].label}'s home, "
                            f"but in a double round robin they meet there once"
                        )
                    if count == 0:
                        owed.add((h, x))
    return owed


def _regenerate(
    planner: _Planner,
    keys: list[Hashable],
    plan: list[_Fixture],
    keep: list[PlannedFixture],
    owed: set[tuple[int, int]],
    *,
    rest_every: int | None,
    end_by: date | None,
    not_before: date | None,
) -> Schedule:
    """The kept fixtures and the owed ones in rounds after them: each owed fixture in the
    first of those rounds where both teams (and its venue) are free, else in a new round. The
    new rounds take the whole list's nights from the night after the last kept fixture (and
    from ``not_before``) on, with its weeks off; where they would run past ``end_by`` they are
    spread again from there to it."""
    last_kept = max((f.date for f in keep), default=planner.start - timedelta(days=1))
    first_round = max((f.round for f in keep), default=0) + 1
    plan = sorted(plan, key=lambda f: (f.date, f.round))
    owed_fixtures = [f for f in plan if (f.home, f.away) in owed]
    regular = [f for f in owed_fixtures if f.date > last_kept]
    overdue = [f for f in owed_fixtures if f.date <= last_kept]
    playing: list[set[int]] = []
    hosting: list[dict[Hashable, int]] = []
    placed: list[list[_Fixture]] = []
    catch_up: list[bool] = []
    moved: list[tuple[_Fixture, int, int]] = []  # fixture, the team at home, the round it left
    for fixture, is_overdue in [(f, False) for f in regular] + [(f, True) for f in overdue]:
        venue = planner.venue[fixture.home]
        free_teams_at: int | None = None
        target: int | None = None
        for r in range(len(playing)):
            if fixture.home in playing[r] or fixture.away in playing[r]:
                continue
            if free_teams_at is None:
                free_teams_at = r
            if venue is not None and venue in hosting[r]:
                continue
            target = r
            break
        if target is None:
            playing.append(set())
            hosting.append({})
            placed.append([])
            catch_up.append(is_overdue)
            target = len(playing) - 1
            if free_teams_at is None:
                free_teams_at = target
        if not is_overdue:
            catch_up[target] = False
        new = _Fixture(target, fixture.date, fixture.home, fixture.away, fixture.swap_note)
        if free_teams_at != target:
            assert free_teams_at is not None and venue is not None
            moved.append((new, hosting[free_teams_at][venue], free_teams_at))
        playing[target].update((fixture.home, fixture.away))
        if venue is not None:
            hosting[target][venue] = fixture.home
        placed[target].append(new)
    begin = max(planner.start, last_kept + timedelta(days=1), not_before or planner.start)
    nights = _nights_from(planner, begin, rest_every, len(placed))
    dates = [next(nights) for _ in placed]
    if end_by is not None and dates and dates[-1] > end_by:
        dates = round_dates(
            start=begin,
            league_night=planner.league_night,
            rounds=len(dates),
            exclusions=planner.exclusions,
            end_by=end_by,
        )
    for row in placed:
        for new in row:
            new.date = dates[new.round]
    for new, host, blocked in moved:
        new.move_note = planner._move_note(new, host, dates[blocked])
    rendered = [_render(f, keys, first_round + f.round) for row in placed for f in row]
    byes = [
        Bye(first_round + r, dates[r], keys[t])
        for r in range(len(dates))
        if not catch_up[r]
        for t in range(planner.n)
        if t not in playing[r]
    ]
    fixtures = _sorted([*keep, *rendered])
    return Schedule(
        fixtures=fixtures,
        byes=tuple(byes),
        notes=tuple(f.note for f in fixtures if f.note),
        clashes=tuple(planner.clashes()),
    )


def _nights_from(
    planner: _Planner, start: date, rest_every: int | None, rounds: int
) -> Iterator[date]:
    """The whole list's round nights from ``start`` on (keeping its spread, and with
    ``rest_every`` its weeks off for as many more ``rounds`` as are needed), then every league
    night after the last of them."""
    last = start - timedelta(days=1)
    nights = planner.dates
    if rest_every is not None:
        nights = round_dates(
            start=planner.start,
            league_night=planner.league_night,
            rounds=len(planner.dates) + rounds,
            exclusions=planner.exclusions,
            rest_every=rest_every,
        )
    for night in nights:
        if night >= start:
            yield night
            last = night
    yield from league_nights(last + timedelta(days=1), planner.league_night, planner.exclusions)
