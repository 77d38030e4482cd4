"""Who can still win it: from the fixtures left, where each team can still finish.

Pure Python (no Django): ``leagues.selectors.race`` turns a division's standings and its
remaining fixtures into :class:`Contender` values and calls :func:`outlook`.

Every claim is *sound*: a team is marked champions, promoted or relegated, or said to be unable
to finish higher or lower than a place, only when no combination of the remaining results (each
fixture ending in any result the match format allows, a walkover included) could overturn it.
Teams level on points are treated as level, each possibly above the other, unless both teams'
tie-break figures can no longer change and already part them (or share the place). Points
adjustments still to come cannot be foreseen and are not considered.

When the search over the remaining results stays within :data:`EXACT_LIMIT` steps (at the end
of a season: the last round and whenever few results are left), the answer is exact: every best and
worst place is one that some combination of results reaches. Earlier, it is a safe bound from
each team's most and fewest possible points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["EXACT_LIMIT", "Contender", "Outlook", "outlook"]

#: Most search steps (states of the remaining results) for one division before falling back.
EXACT_LIMIT = 3_000


@dataclass(frozen=True)
class Contender:
    """One team of the division as the table stands now."""

    team: Hashable
    points: int
    settled: tuple[int, ...] | None = None
    """The team's tie-break figures (each "higher is better") once they can no longer change,
    i.e. when the team has no fixture left; None while they can."""


@dataclass(frozen=True)
class Outlook:
    """Where a team can still finish: places ``best`` to ``worst`` (1 is top)."""

    best: int
    worst: int
    champions: bool
    promoted: bool
    relegated: bool

    @property
    def settled(self) -> bool:
        return self.best == self.worst


def _beats(a: Contender, b: Contender, complete: bool) -> int | None:
    """When a and b end level on points: 1 if a is placed above b, -1 if below, 0 if they
    share the place, None if the tie-breaks are still open."""
    if a.settled is None or b.settled is None:
        return None
    if a.settled > b.settled:
        return 1
    if a.settled < b.settled:
        return -1
    return 0 if complete else None


def _final_places(
    contenders: Sequence[Contender], complete: bool
) -> dict[Hashable, tuple[int, int]]:
    """Best and worst place of each team with nothing left to play: the teams with more
    points are above it, and of those level with it on points, the ones its tie-breaks place
    above it, or that they leave open. The teams are taken a level of points at a time, so
    that a team is compared only with those level with it (a 100-team table: some 100
    comparisons, not 9,900)."""
    levels: dict[int, list[Contender]] = defaultdict(list)
    for contender in contenders:
        levels[contender.points].append(contender)
    span: dict[Hashable, tuple[int, int]] = {}
    more = 0  # the teams with more points than this level
    for points in sorted(levels, reverse=True):
        level = levels[points]
        for team in level:
            above = undecided = 0
            for other in level:
                if other is team:
                    continue
                order = _beats(other, team, complete)
                if order is None:
                    undecided += 1
                elif order > 0:
                    above += 1
            span[team.team] = (more + above + 1, more + above + undecided + 1)
        more += len(level)
    return {contender.team: span[contender.team] for contender in contenders}


class _TooMany(Exception):
    """The search went past its budget: fall back to the bounds."""


class _Search:
    """Exact best or worst place of one team, by a depth-first search over the remaining
    results with memory: the team's own fixtures first, then the others; once a team has
    played its last fixture only whether it ends above the team matters, so the states that
    differ only in finished teams' points are one."""

    def __init__(
        self,
        team: Contender,
        contenders: Sequence[Contender],
        fixtures: Sequence[tuple[Hashable, Hashable]],
        outcomes: Sequence[tuple[int, int]],
        complete: bool,
        worst: bool,
        budget: list[int],
        outside: Collection[Hashable] = (),
    ) -> None:
        self.team = team.team
        self.worst = worst
        self.budget = budget
        self.outside = outside
        own = [f for f in fixtures if team.team in f]
        self.fixtures = own + [f for f in fixtures if team.team not in f]
        self.choices = [self._own_choices(f, outcomes) for f in own]
        self.choices += [list(outcomes)] * (len(self.fixtures) - len(own))
        # A team outside the race gains points that place it nowhere: only its opponents'
        # count, so it takes none of the search's states.
        self.points = {c.team: c.points for c in contenders} | {t: 0 for t in outside}
        # How each other team compares with the team when both end level on points.
        self.level = {c.team: _beats(c, team, complete) for c in contenders if c is not team}
        last = {c.team: -1 for c in contenders}
        for index, (home, away) in enumerate(self.fixtures):
            last[home] = last[away] = index
        settle = len(own)  # from here on the team's own points are final
        self.judged: dict[int, list[Hashable]] = {}
        judged_at = {}
        for other in self.level:
            at = max(last[other] + 1, settle)
            judged_at[other] = at
            self.judged.setdefault(at, []).append(other)
        self.live = [
            [self.team] + [o for o in self.level if judged_at[o] > index]
            for index in range(len(self.fixtures) + 1)
        ]
        self.memory: dict[tuple[int, tuple[int, ...]], int] = {}

    def _own_choices(
        self, fixture: tuple[Hashable, Hashable], outcomes: Sequence[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """For the team's own fixture, the one result that is best (or worst) for it on both
        counts when there is one: the most points for it and the fewest for its opponent."""
        at_home = fixture[0] == self.team
        mine = [o[0] if at_home else o[1] for o in outcomes]
        theirs = [o[1] if at_home else o[0] for o in outcomes]
        if fixture[1 if at_home else 0] in self.outside:
            theirs = [0] * len(outcomes)  # an opponent outside the race: only the team's own
        want_mine = min(mine) if self.worst else max(mine)
        want_theirs = max(theirs) if self.worst else min(theirs)
        for outcome, m, t in zip(outcomes, mine, theirs, strict=True):
            if m == want_mine and t == want_theirs:
                return [outcome]
        return list(outcomes)

    def _above(self, other: Hashable) -> int:
        own, theirs = self.points[self.team], self.points[other]
        if theirs != own:
            return int(theirs > own)
        order = self.level[other]
        if order is None:
            return int(self.worst)
        return int(order > 0)

    def run(self) -> int:
        return self._from(0) + 1

    def _from(self, index: int) -> int:
        counted = sum(self._above(other) for other in self.judged.get(index, ()))
        if index == len(self.fixtures):
            return counted
        return counted + self._rest(index)

    def _rest(self, index: int) -> int:
        key = (index, tuple(self.points[t] for t in self.live[index]))
        known = self.memory.get(key)
        if known is not None:
            return known
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise _TooMany
        home, away = self.fixtures[index]
        values = []
        for home_points, away_points in self.choices[index]:
            self.points[home] += home_points
            self.points[away] += away_points
            values.append(self._from(index + 1))
            self.points[home] -= home_points
            self.points[away] -= away_points
        value = max(values) if self.worst else min(values)
        self.memory[key] = value
        return value


def _exact(
    contenders: Sequence[Contender],
    remaining: Sequence[tuple[Hashable, Hashable]],
    outcomes: Sequence[tuple[int, int]],
    complete: bool,
    outside: Collection[Hashable] = (),
) -> dict[Hashable, tuple[int, int]]:
    budget = [EXACT_LIMIT]
    return {
        c.team: (
            _Search(c, contenders, remaining, outcomes, complete, False, budget, outside).run(),
            _Search(c, contenders, remaining, outcomes, complete, True, budget, outside).run(),
        )
        for c in contenders
    }


def _bounds(
    contenders: Sequence[Contender],
    remaining: Sequence[tuple[Hashable, Hashable]],
    outcomes: Sequence[tuple[int, int]],
    complete: bool,
    outside: Collection[Hashable] = (),
) -> dict[Hashable, tuple[int, int]]:
    most = {c.team: c.points for c in contenders} | {t: 0 for t in outside}
    fewest = dict(most)
    home_most = max(h for h, _ in outcomes)
    home_fewest = min(h for h, _ in outcomes)
    away_most = max(a for _, a in outcomes)
    away_fewest = min(a for _, a in outcomes)
    for home, away in remaining:
        most[home] += home_most
        fewest[home] += home_fewest
        most[away] += away_most
        fewest[away] += away_fewest
    span = {}
    for team in contenders:
        surely_above = possibly_above = 0
        for other in contenders:
            if other.team == team.team:
                continue
            order = _beats(other, team, complete)
            if fewest[other.team] > most[team.team] or (
                fewest[other.team] == most[team.team] and order is not None and order > 0
            ):
                surely_above += 1
            if most[other.team] > fewest[team.team] or (
                most[other.team] == fewest[team.team] and (order is None or order > 0)
            ):
                possibly_above += 1
        span[team.team] = (surely_above + 1, possibly_above + 1)
    return span


def outlook(
    contenders: Iterable[Contender],
    remaining: Iterable[tuple[Hashable, Hashable]],
    outcomes: Collection[tuple[int, int]],
    *,
    complete: bool = True,
    promoted: int = 0,
    relegated: int = 0,
    outside: Collection[Hashable] = (),
) -> dict[Hashable, Outlook]:
    """Each team's best and worst possible place and what it has clinched.

    ``remaining``: the fixtures left, as (home team, away team); ``outcomes``: the (home
    points, away points) a fixture can end with. ``complete``: whether the settled figures
    cover every tie-break (False when a later one, such as head-to-head, depends on which
    teams end level: equal settled figures then leave the tie open). ``promoted`` and
    ``relegated``: how many places at the top and the bottom go up and down. ``outside``:
    teams that take no place (a withdrawn team, placed below the others whatever its points)
    whose fixtures left still give their opponents points.
    """
    teams = list(contenders)
    fixtures = [(home, away) for home, away in remaining]
    choices = sorted(set(outcomes))
    if fixtures and not choices:
        raise ValueError("a fixture left to play needs at least one possible result")
    outside = frozenset(outside)
    known = {c.team for c in teams} | outside
    strangers = {t for fixture in fixtures for t in fixture} - known
    if strangers:
        raise ValueError(f"fixtures name teams not in the division: {sorted(map(str, strangers))}")
    if not fixtures:
        choices = [(0, 0)]
    span = None
    if not fixtures:
        # Nothing left to play: each place is the one the table gives (what the search finds,
        # without a search per team).
        span = _final_places(teams, complete)
    elif len(fixtures) <= len(teams):
        # More than about two rounds left would go past the budget anyway.
        try:
            span = _exact(teams, fixtures, choices, complete, outside)
        except _TooMany:
            span = None
    if span is None:
        span = _bounds(teams, fixtures, choices, complete, outside)
    size = len(teams)
    return {
        team: Outlook(
            best=best,
            worst=worst,
            champions=worst == 1,
            promoted=promoted > 0 and worst <= promoted,
            relegated=relegated > 0 and best > size - relegated,
        )
        for team, (best, worst) in span.items()
    }
