"""Properties of the engine over random valid games of every preset."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_strategies import game_setups, hands, kick_wins, kicks_of

from scoring.rules import GameScore, Ruleset, ruleset_from_spec, score_game
from scoring.rules.result import CATEGORY_ORDER, Category


def build_game(data: st.DataObject) -> tuple[Ruleset, tuple[str, ...], dict[str, int], list[Any]]:
    ruleset, sides, start = data.draw(game_setups())
    recorded: list[Any] = []
    for _ in range(data.draw(st.integers(1, 8))):
        so_far = score_game(ruleset=ruleset, sides=sides, hands=recorded, scores=start)
        if so_far.winner is not None:
            break
        recorded.append(data.draw(hands(ruleset, sides, so_far.scores)))
    return ruleset, sides, start, recorded


def score(
    ruleset: Ruleset, sides: tuple[str, ...], start: dict[str, int], recorded: list[Any]
) -> GameScore:
    return score_game(ruleset=ruleset, sides=sides, hands=recorded, scores=start)


FAST = settings(max_examples=150, deadline=None)


@FAST
@given(st.data())
def test_valid_games_score_consistently(data: st.DataObject) -> None:
    ruleset, sides, start, recorded = build_game(data)
    result = score(ruleset, sides, start, recorded)
    target = ruleset.target

    # Re-scoring the same facts gives the same result; the output is JSON.
    assert score(ruleset, sides, start, recorded).to_json() == result.to_json()
    json.dumps(result.to_json())
    assert ruleset_from_spec(ruleset.to_spec()) == ruleset

    before = dict(start)
    decisive_seen = False
    for hand in result.hands:
        # Points are never negative, and scores never go down.
        assert all(award.points > 0 for award in hand.awards)
        assert all(hand.scores[side] >= before[side] for side in sides)
        # Counted awards sum to the change in score.
        for side in sides:
            counted = sum(a.points for a in hand.awards if a.counted and a.side == side)
            assert hand.scores[side] - before[side] == counted
        # Awards follow the strict order of section 3.
        ranks = [CATEGORY_ORDER[Category(award.category)] for award in hand.awards]
        assert ranks == sorted(ranks)
        # At most one side at the target, and only the side that reached it first.
        at_target = [side for side in sides if hand.scores[side] >= target]
        assert len(at_target) <= 1
        running = dict(before)
        for award in hand.awards:
            if not award.counted:
                # Not counted: after the winning award, or a game point a renege forfeits.
                assert decisive_seen or (
                    award.category == Category.GAME
                    and award.detail is not None
                    and "forfeited: renege" in award.detail
                )
                continue
            assert not decisive_seen
            running[award.side] += award.points
            if running[award.side] >= target:
                decisive_seen = True
                assert result.winner == award.side
                assert result.decided_by is not None
                assert result.decided_by.hand == hand.number
                assert result.decided_by.category == award.category
                # Nobody passes the target by more than the last counted award's points.
                assert running[award.side] - target < award.points
        before = dict(hand.scores)

    assert result.scores == before
    assert list(result.scores) == list(sides)
    if result.winner is None:
        assert result.decided_by is None
        assert all(points < target for points in result.scores.values())
    else:
        assert decisive_seen
        assert result.scores[result.winner] >= target
        assert [s for s in sides if result.scores[s] >= target] == [result.winner]
    # The last hand is the one that decided the game, if any.
    if result.decided_by is not None:
        assert result.decided_by.hand == len(recorded)
    assert (result.next_dealer is None) == (not recorded)
    if recorded:
        assert result.next_dealer in sides


@FAST
@given(st.data())
def test_scoring_a_prefix_gives_the_prefix_of_the_result(data: st.DataObject) -> None:
    """Scoring hand by hand (as the app does when a hand is entered) matches scoring at once."""
    ruleset, sides, start, recorded = build_game(data)
    whole = score(ruleset, sides, start, recorded).to_json()
    cut = data.draw(st.integers(0, len(recorded)))
    part = score(ruleset, sides, start, recorded[:cut]).to_json()
    assert part["hands"] == whole["hands"][:cut]


@FAST
@given(st.data())
def test_a_hand_whose_kicks_reach_the_target_needs_no_play_facts(data: st.DataObject) -> None:
    """docs/rules.md section 3: "A kick can win a game before a card is played." A hand whose kicks
    take the dealer to the target is valid with its play facts, with none, or with any of them;
    the dealer wins on a kick, and the final score is the score at that kick."""
    ruleset, sides, start, whole, cut = data.draw(kick_wins())
    at_kick = dict(start)
    for points in kicks_of(ruleset, whole["turn_ups"]):
        at_kick[whole["dealer"]] += points
        if at_kick[whole["dealer"]] >= ruleset.target:
            break
    for facts in (whole, cut):
        result = score(ruleset, sides, start, [facts])
        assert result.winner == whole["dealer"]
        assert result.decided_by is not None
        assert (result.decided_by.hand, result.decided_by.category) == (1, Category.KICK)
        assert result.scores == at_kick
        scored = result.hands[0].awards
        last = max(index for index, award in enumerate(scored) if award.counted)
        assert scored[last].category == Category.KICK
        assert scored[last].side == whole["dealer"]
