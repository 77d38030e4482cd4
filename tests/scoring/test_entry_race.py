"""Two phones at one game at the same moment: the second waits for the first's lock and then
sees everything the first wrote (its hand, the scores it changed), never the game as it was
when it began waiting. (A double tap on Record, posted twice without JavaScript, is the
everyday case.)"""

from __future__ import annotations

import uuid

from scoring import services
from scoring.models import Game, Hand
from scoring.rules import score_game
from tests.factories.scoring import GameFactory, plain_hand
from tests.races import both_finish, holding_the_locks, meanwhile, race

pytestmark = race


def test_a_double_tap_records_the_hand_once_and_answers_both_taps_with_it():
    game = GameFactory(overrides={"target": 500})
    key = uuid.uuid4()
    facts = plain_hand("trinidad", game.next_dealer, 1)

    def record() -> Hand:
        return services.hand_record(
            game=game.pk, facts=facts, entry_key=key, expected_number=1
        ).hand

    release, first = holding_the_locks(record)
    second, outcome = meanwhile(record)
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    assert outcome["value"].number == 1
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1]


def test_a_hand_entered_during_a_correction_starts_from_the_corrected_scores():
    game = GameFactory(hands=1, overrides={"target": 500})
    first = game.hands.get(number=1)
    swapped = dict(first.facts, high="B" if first.facts["high"] == "A" else "A")

    def correct() -> Hand:
        return services.hand_correct(
            game=game.pk,
            number=1,
            facts=swapped,
            entry_key=uuid.uuid4(),
            reason="high was the other side's",
            expected_revision=0,
        )

    release, correction = holding_the_locks(correct)
    facts = plain_hand("trinidad", Game.objects.get(pk=game.pk).next_dealer, 2)
    second, outcome = meanwhile(
        lambda: services.hand_record(
            game=game.pk, facts=facts, entry_key=uuid.uuid4(), expected_number=2
        )
    )
    both_finish(release, correction, second)
    assert "error" not in outcome, outcome.get("error")
    # The second hand started from the corrected scores: what is stored is the engine's
    # answer for both hands as they now stand.
    game.refresh_from_db()
    hands = list(game.hands.order_by("number"))
    assert [hand.facts["high"] for hand in hands] == [swapped["high"], facts["high"]]
    sides = list(game.sides.order_by("position"))
    expected = score_game(
        ruleset=game.rules, sides=[side.label for side in sides], hands=[h.facts for h in hands]
    )
    assert {side.label: side.score for side in sides} == expected.scores == hands[-1].scores
