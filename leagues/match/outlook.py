"""Every result a match can still end with, for "who can still win it" (``leagues.clinch``).

Worked out with the same steps as a played match (:mod:`leagues.match.tables`): each way a
table can be decided gives its match points, the tables add up, the aggregate bonus goes to
either side or is shared, and the league points follow; a walkover to either side too.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .format import FIRST_TO, MatchFormat
from .tables import (
    AWAY,
    HALVED,
    HOME,
    aggregate_bonus,
    league_points,
    match_verdict,
    table_points,
    table_verdict,
    walkover_result,
)


def decided_tables(fmt: MatchFormat) -> list[tuple[int, int]]:
    """Every (home games, away games) a decided table can end with."""
    if fmt.games_mode == FIRST_TO:
        return [(fmt.games, a) for a in range(fmt.games)] + [
            (h, fmt.games) for h in range(fmt.games)
        ]
    return [(h, fmt.games - h) for h in range(fmt.games + 1)]


class MatchEnd(NamedTuple):
    """One way a finished, played match can end: its match points and the tables and games
    (bullseyes) that gave them."""

    home_match_points: int
    away_match_points: int
    home_tables: int
    away_tables: int
    tables_halved: int
    home_games: int
    away_games: int


@functools.cache
def match_ends(fmt: MatchFormat) -> frozenset[MatchEnd]:
    """Every way a finished, played match can end: each table decided every way, the
    aggregate bonus to either side or shared.

    The aggregate bonus is taken to fall either way or level whatever the tables (the engine
    knows no target), so a result is never missed."""
    # Each decided table as what it adds: match points, a table won or halved, games won.
    per_table: set[tuple[int, ...]] = set()
    for home, away in decided_tables(fmt):
        verdict = table_verdict(fmt, home, away)
        tallies = (int(verdict == side) for side in (HOME, AWAY, HALVED))
        per_table.add((*table_points(fmt, home, away), *tallies, home, away))
    sums: set[tuple[int, ...]] = {(0,) * len(MatchEnd._fields)}
    for _ in range(fmt.tables):
        sums = {
            tuple(total + figure for total, figure in zip(tally, table, strict=True))
            for tally in sums
            for table in per_table
        }
    bonuses = {aggregate_bonus(fmt, *pegs) for pegs in ((1, 0), (0, 1), (0, 0))}
    return frozenset(MatchEnd(h + bh, a + ba, *rest) for h, a, *rest in sums for bh, ba in bonuses)


def possible_match_points(fmt: MatchFormat) -> frozenset[tuple[int, int]]:
    """Every (home, away) pair of match points a finished, played match can end with
    (:func:`match_ends`)."""
    return frozenset((end.home_match_points, end.away_match_points) for end in match_ends(fmt))


def games_for_points(
    fmt: MatchFormat, home_match_points: int, away_match_points: int
) -> list[tuple[int, int]]:
    """The games (bullseyes) won, (home, away), that a match ending with these match points can
    have had, most for the home side first: one where the match points say them (a Trinidad
    league's, one point a game won), several where they do not (a Yorkshire 8–2: 4–0 with the
    away side's aggregate bonus, or 3–1 with the home side's); none when no match ends so."""
    ends = ends_with(fmt, home_match_points, away_match_points)
    return sorted({(end.home_games, end.away_games) for end in ends}, reverse=True)


def games_left_open(fmt: MatchFormat) -> list[tuple[tuple[int, int], list[tuple[int, int]]]]:
    """The match points a home win can end with that leave the games won open, each with the
    games it can have had (:func:`games_for_points`), the most match points first: a Yorkshire
    league's 8–2 with 4–0 and 3–1 first; none where the match points always say the games (a
    Trinidad league's, one point a game won)."""
    wins = sorted((p for p in possible_match_points(fmt) if p[0] > p[1]), reverse=True)
    return [(p, games) for p in wins if len(games := games_for_points(fmt, *p)) > 1]


def ends_with(fmt: MatchFormat, home_match_points: int, away_match_points: int) -> list[MatchEnd]:
    """The ways a finished, played match can end with these match points (:func:`match_ends`)."""
    points = (home_match_points, away_match_points)
    return [end for end in match_ends(fmt) if end[:2] == points]


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
