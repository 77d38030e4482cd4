"""A cup's match arithmetic: a race tie's winner, a drawn team match's decider, group points.

A race tie (pairs or players, best of N games) goes to the first side with
:func:`games_to_win` games (:func:`race_winner`; a settled score must be a
:func:`race_final_score`). A knock-out team match that ends drawn goes to the competition's
decider (:func:`decide_drawn_match`): "pegs" (aggregate pegs, then hang jacks, then a play-off
game), "hang_jacks" (hang jacks, then a play-off game) or "playoff" (a play-off game). A group
table gives :data:`GROUP_WIN` points a win and :data:`GROUP_DRAW` a draw (:func:`group_points`)
and orders entrants by :func:`group_order`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .tables import AWAY, HOME, Side

Decider = Literal["pegs", "hang_jacks", "playoff"]
PEGS: Decider = "pegs"
HANG_JACKS: Decider = "hang_jacks"
PLAYOFF: Decider = "playoff"

#: How a drawn match went to a play-off game, in the bracket's words: won, and still to come.
PLAYOFF_WON = "a play-off game"
PLAYOFF_TO_COME = "a play-off game to come"

GROUP_WIN = 2
GROUP_DRAW = 1


def level_words(home_score: int, away_score: int) -> str:
    """A drawn knock-out match waiting for its play-off game, as its status reads wherever
    the tie is shown: "Level 5–5: a play-off game to come"."""
    return f"Level {home_score}–{away_score}: {PLAYOFF_TO_COME}"


def decider_words(decider: Decider, *, aggregate: str, hang_jacks: bool) -> str:
    """How a drawn knock-out match is decided, as the pages say it: "Aggregate pegs, then hang
    jacks, then a play-off game". ``aggregate``: the league's word for the figure ("pegs",
    "points scored"); ``hang_jacks``: whether its games have them (a Yorkshire game has none:
    always level, they decide nothing and are not named)."""
    steps = [f"aggregate {aggregate}"] if decider == PEGS else []
    if decider in (PEGS, HANG_JACKS) and hang_jacks:
        steps.append("hang jacks")
    steps.append(PLAYOFF_WON)
    words = ", then ".join(steps)
    return words[0].upper() + words[1:]


def games_to_win(best_of: int) -> int:
    """Games a side needs in a race tie of ``best_of`` games: more than half."""
    return best_of // 2 + 1


def race_final_score(home_games: int, away_games: int, games_to_win: int) -> bool:
    """Whether a race tie can end with these games: one side has exactly enough, the other
    fewer (a score the secretary settles must be one)."""
    low, high = sorted((home_games, away_games))
    return 0 <= low < games_to_win == high


def race_winner(home_games: int, away_games: int, games_to_win: int) -> Side | Literal[""]:
    """The side with enough games in a race tie, or "" while neither has."""
    if home_games >= games_to_win:
        return HOME
    if away_games >= games_to_win:
        return AWAY
    return ""


@dataclass(frozen=True)
class Decision:
    """How a drawn match is decided: the ``winner`` ("" while a play-off is to come) and
    ``how`` in words for the bracket; ``playoff_needed`` when a play-off game must be played."""

    winner: Side | Literal[""]
    how: str
    playoff_needed: bool = False


def decide_drawn_match(
    decider: Decider,
    *,
    pegs: tuple[int, int],
    hang_jacks: tuple[int, int],
    playoff_winner: Side | None = None,
) -> Decision:
    """Decide a drawn knock-out team match by the competition's decider. ``playoff_winner``:
    the side that won the play-off game, if one was played to the end."""
    if decider == PEGS and pegs[0] != pegs[1]:
        return Decision(HOME if pegs[0] > pegs[1] else AWAY, f"aggregate pegs {pegs[0]}–{pegs[1]}")
    if decider in (PEGS, HANG_JACKS) and hang_jacks[0] != hang_jacks[1]:
        side = HOME if hang_jacks[0] > hang_jacks[1] else AWAY
        return Decision(side, f"hang jacks {hang_jacks[0]}–{hang_jacks[1]}")
    if playoff_winner is not None:
        return Decision(playoff_winner, PLAYOFF_WON)
    return Decision("", PLAYOFF_TO_COME, playoff_needed=True)


def group_points(won: int, drawn: int) -> int:
    """A group table's points: :data:`GROUP_WIN` a win, :data:`GROUP_DRAW` a draw."""
    return won * GROUP_WIN + drawn * GROUP_DRAW


def group_order(
    points: int, score_for: int, score_against: int, name: str
) -> tuple[int, int, int, str]:
    """Sort key for a group table: points, then the difference and the score for (games in a
    race, match points in a team match), then the name."""
    return (-points, -(score_for - score_against), -score_for, name)
