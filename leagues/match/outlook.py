"""Every result a match can still end with, for "who can still win it" (``leagues.clinch``).

Worked out with the same steps as a played match (:mod:`leagues.match.tables`): each way a
table can be decided gives its match points, the tables add up, the aggregate bonus goes to
either side or is shared, and the league points follow; a walkover to either side too.
"""

from __future__ import annotations

from .format import FIRST_TO, MatchFormat
from .tables import (
    AWAY,
    HOME,
    aggregate_bonus,
    league_points,
    match_verdict,
    table_points,
    walkover_result,
)


def decided_tables(fmt: MatchFormat) -> list[tuple[int, int]]:
    """Every (home games, away games) a decided table can end with."""
    if fmt.games_mode == FIRST_TO:
        return [(fmt.games, a) for a in range(fmt.games)] + [
            (h, fmt.games) for h in range(fmt.games)
        ]
    return [(h, fmt.games - h) for h in range(fmt.games + 1)]


def possible_match_points(fmt: MatchFormat) -> frozenset[tuple[int, int]]:
    """Every (home, away) pair of match points a finished, played match can end with: each
    table decided every way, the aggregate bonus to either side or shared.

    The aggregate bonus is taken to fall either way or level whatever the tables (the engine
    knows no target), so a result is never missed."""
    per_table = {table_points(fmt, home, away) for home, away in decided_tables(fmt)}
    sums = {(0, 0)}
    for _ in range(fmt.tables):
        sums = {(h + th, a + ta) for h, a in sums for th, ta in per_table}
    bonuses = {aggregate_bonus(fmt, *pegs) for pegs in ((1, 0), (0, 1), (0, 0))}
    return frozenset((h + bh, a + ba) for h, a in sums for bh, ba in bonuses)


def possible_points(fmt: MatchFormat) -> frozenset[tuple[int, int]]:
    """Every (home, away) pair of league-table points a match can end with, walkovers included
    ("clinched" is only ever said for sure: see :func:`possible_match_points`)."""
    pairs = set()
    for h, a in possible_match_points(fmt):
        verdict = match_verdict(h, a)
        pairs.add((league_points(fmt, verdict, HOME, h), league_points(fmt, verdict, AWAY, a)))
    for side in (HOME, AWAY):
        walkover = walkover_result(fmt, side)
        pairs.add((walkover.home_points, walkover.away_points))
    return frozenset(pairs)
