"""What a match's score card has, as the format scores a match: each table's boxes (each game's
score, the games won, the hang jacks, the match points the table gives) and the totals the
captains add up under them. The typed card (``leagues.card_forms``) asks for a table's figures
by it and the printed blank card (``leagues.selectors.blank_cards``) draws its boxes by it, so
the two are copied box for box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cup import PEGS, Decider
from .format import MatchFormat

#: A total under the card's tables, named as the match result's figures are (``MatchResult``:
#: ``home_tables``, ``home_games``, ...; "points" are the league points).
Total = Literal["tables", "games", "pegs", "bonus", "hang_jacks", "match_points", "points"]


@dataclass(frozen=True)
class CardLayout:
    """A score card's boxes for one format: what each table records and what is added up."""

    games: int
    """The game lines of a table: each game's final score, home and away, as many as a table
    can play."""
    games_won: bool
    """A box a side for the games (bullseyes) won at the table: a table of more than one game,
    whose card may give the games won without every game's score."""
    hang_jacks: bool
    """A box a side for the hang jacks made at the table, where the variant scores them."""
    table_points: bool
    """A box a side for the match points the table gives (for the table, or its games, won)."""
    totals: tuple[Total, ...]
    """The totals, in the order a card adds them up: tables, games, the aggregate and its bonus,
    hang jacks, match points, league points."""
    playoff: bool
    """The play-off game's two boxes: a knock-out cup tie's, for when the tables leave it
    level."""


def card_layout(
    fmt: MatchFormat,
    *,
    hang_jacks: bool,
    league_points: bool = True,
    decider: Decider | None = None,
) -> CardLayout:
    """The card of a match played under ``fmt``: ``hang_jacks`` where the ruleset scores them;
    ``league_points`` for a match that gives them (a league fixture, not a cup tie); a knock-out
    cup tie's ``decider``, which gives it the play-off game's boxes (and the aggregate's total
    where the aggregate decides a level tie)."""
    games_won = fmt.max_games_per_table > 1
    totals: list[Total] = []
    if fmt.points_per_table or fmt.points_per_table_halved:
        totals.append("tables")
    if games_won or fmt.points_per_game:
        totals.append("games")
    if fmt.aggregate_bonus or decider == PEGS:
        totals.append("pegs")
    if fmt.aggregate_bonus:
        totals.append("bonus")
    if hang_jacks:
        totals.append("hang_jacks")
    totals.append("match_points")
    if league_points and (
        fmt.league_points_win or fmt.league_points_draw or fmt.league_points_loss
    ):
        totals.append("points")
    return CardLayout(
        games=fmt.max_games_per_table,
        games_won=games_won,
        hang_jacks=hang_jacks,
        table_points=bool(
            fmt.points_per_table or fmt.points_per_table_halved or fmt.points_per_game
        ),
        totals=tuple(totals),
        playoff=decider is not None,
    )
