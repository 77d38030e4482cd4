"""Two phones at one game at the same moment: the second waits for the first's lock and then
sees everything the first wrote (its hand, the scores it changed), never the game as it was
when it began waiting. (A double tap on Record, posted twice without JavaScript, is the
everyday case.)"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from scoring import services
from scoring.models import Game, Hand
from scoring.rules import score_game
from tests.factories.scoring import GameFactory, plain_hand

pytestmark = pytest.mark.django_db(transaction=True)

if connection.vendor == "sqlite":
    pytestmark = [
        pytestmark,
        pytest.mark.skip(
            reason="the SQLite test database is in memory, shared between threads by table "
            "locks, not the file's write lock the server waits on"
        ),
    ]


def _holding_the_lock(write: Callable[[Callable[..., Any]], Any]) -> tuple[threading.Event, Any]:
    """Run `write(facts_of)` in a thread that, once it holds the game's lock (its facts are
    asked for under it), waits to be let go. Returns the event that lets it go and its
    thread."""
    inside, release = threading.Event(), threading.Event()

    def held(facts: dict[str, Any]) -> Callable[..., Any]:
        def facts_of(game: Game, sides: list[Any]) -> dict[str, Any]:
            inside.set()
            assert release.wait(10)
            return facts

        return facts_of

    def run() -> None:
        try:
            write(held)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    assert inside.wait(10)
    return release, thread


def _meanwhile(act: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """`act()` in a thread of its own (it will wait for the lock); what it returned or
    raised."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = act()
        except Exception as exc:  # what the second phone would be told
            outcome["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.5)  # long enough to be waiting for the lock
    return thread, outcome


def test_a_double_tap_records_the_hand_once_and_answers_both_taps_with_it():
    game = GameFactory(overrides={"target": 500})
    key = uuid.uuid4()
    facts = plain_hand("trinidad", game.next_dealer, 1)

    def record(facts_of: Any) -> Hand:
        return services.hand_record(game=game.pk, facts=facts_of, entry_key=key, expected_number=1)

    release, first = _holding_the_lock(lambda held: record(held(facts)))
    second, outcome = _meanwhile(lambda: record(facts))
    release.set()
    first.join(10)
    second.join(10)
    assert "error" not in outcome, outcome.get("error")
    assert outcome["value"].number == 1
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1]


def test_a_hand_entered_during_a_correction_starts_from_the_corrected_scores():
    game = GameFactory(hands=1, overrides={"target": 500})
    first = game.hands.get(number=1)
    swapped = dict(first.facts, high="B" if first.facts["high"] == "A" else "A")

    def correct(held: Any) -> Hand:
        return services.hand_correct(
            game=game.pk,
            number=1,
            facts=held(swapped),
            entry_key=uuid.uuid4(),
            reason="high was the other side's",
            expected_revision=0,
        )

    release, correction = _holding_the_lock(correct)
    facts = plain_hand("trinidad", Game.objects.get(pk=game.pk).next_dealer, 2)
    second, outcome = _meanwhile(
        lambda: services.hand_record(
            game=game.pk, facts=facts, entry_key=uuid.uuid4(), expected_number=2
        )
    )
    release.set()
    correction.join(10)
    second.join(10)
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
