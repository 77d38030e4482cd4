"""What a finished game's final scores can be under a ruleset (the score card's check): every
game the engine finishes passes it, and the cards no game can end on are refused by name."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rules_strategies import game_setups, hands

from scoring.rules import ruleset_from_spec, score_game


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_game_the_engine_finishes_ends_on_scores_a_card_may_give(data: Any) -> None:
    ruleset, sides, start = data.draw(game_setups())
    assume(len(sides) == 2)
    recorded: list[Any] = []
    for _ in range(80):
        so_far = score_game(ruleset=ruleset, sides=sides, hands=recorded, scores=start)
        if so_far.winner is not None:
            break
        recorded.append(data.draw(hands(ruleset, sides, so_far.scores)))
    final = score_game(ruleset=ruleset, sides=sides, hands=recorded, scores=start)
    assume(final.winner is not None)
    home, away = (final.scores[side] for side in sides)
    assert ruleset.final_score_problems(home, away) == []
    assert max(home, away) <= ruleset.highest_final_score


WEST_YORKSHIRE = ruleset_from_spec({"preset": "west_yorkshire", "target": 11})


@pytest.mark.parametrize(
    ("home", "away", "problem"),
    [
        (11, 7, None),
        (7, 11, None),
        (13, 10, None),
        (9, 10, "neither side reached the target of 11"),
        (11, 11, "both sides are at or past the target of 11"),
        (12, 14, "both sides are at or past the target of 11"),
        (25, 3, "25 is past what a game to 11 can finish on (at most 14)"),
        (-1, 11, "a score cannot be negative"),
    ],
)
def test_final_scores_a_card_may_not_give_are_named(home: int, away: int, problem: str) -> None:
    problems = WEST_YORKSHIRE.final_score_problems(home, away)
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problem in problems[0]


TRINIDAD = ruleset_from_spec("trinidad")


@pytest.mark.parametrize(
    ("won", "lost", "most"),
    [(1, 1, 10), (2, 0, 12), (0, 2, 8), (0, 0, 0)],
)
def test_games_without_their_scores_hold_the_hang_jacks_of_their_highest_finishes(
    won: int, lost: int, most: int
) -> None:
    """A game won to 14 finishes on at most 17 (5 hang jacks of 3, one more taken after the
    target), a game lost on 13 (4): the most a card of games won alone can give a side."""
    assert TRINIDAD.most_hang_jacks_in_games(won=won, lost=lost) == most
    assert most == TRINIDAD.most_hang_jacks(
        [TRINIDAD.highest_final_score] * won + [TRINIDAD.target - 1] * lost, games_won=won
    )
    assert ruleset_from_spec("west_yorkshire").most_hang_jacks_in_games(won=2, lost=1) == 0
