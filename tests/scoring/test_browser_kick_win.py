"""A kick that wins the game, recorded on a phone at 390×844 as it happened: the dealer's side at
12 turns up J♠ (kick 3) and the scorer taps Record hand with nothing else tapped, online and
with no connection. The preview, the phone's store and the server agree; the sheet shows the
kick and the winner and no high, low, jack or game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import GameStatus, Hand
from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import SMITH, Scorer, expect_won
from tests.scoring.test_browser_offline import (
    awards_stored,
    keep,
    offline_scorer,
    open_for_offline,
    unsent,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
scorer = offline_scorer  # a phone that can keep the page: online, then offline

KICK_WIN = {"dealer": "A", "turn_ups": ["JS"], "beg": "stand"}


def expect_the_kick_alone(scorer: Scorer) -> None:
    row = scorer.sheet_row(1)
    expect(row.locator(".award")).to_have_count(1)
    expect(row.locator(".award")).to_contain_text(f"{SMITH} kick J♠ +3")
    expect(row).not_to_contain_text("tied")
    expect(row).not_to_contain_text("nobody")


def test_a_kick_that_reaches_the_target_is_recorded_with_record_hand(scorer: Scorer) -> None:
    game = GameFactory(trinidad=True, start_scores={"A": 12, "B": 5})
    scorer.scan(game)
    scorer.card("JS")
    preview = scorer.page.get_by_test_id("hand-preview")
    expect(preview).to_contain_text(f"{SMITH} would reach 14 on the kick.")
    expect(preview).not_to_contain_text("Before game")
    scorer.record()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()
    expect(scorer.page.locator(".errorlist")).to_have_count(0)
    expect_won(scorer, winner=SMITH, score="15–5", hand=1, point="kick")
    expect(scorer.page.get_by_test_id("winner-banner")).to_contain_text(
        "took them to 15 before a card was played"
    )
    expect_the_kick_alone(scorer)
    assert [hand.facts for hand in Hand.objects.filter(game=game)] == [KICK_WIN]
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_category) == (GameStatus.WON, "A", "kick")


def test_a_kick_that_reaches_the_target_is_kept_offline_and_sent(scorer: Scorer) -> None:
    game = GameFactory(trinidad=True, start_scores={"A": 12, "B": 5})
    page = scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.card("JS")
    expect(page.get_by_test_id("hand-preview")).to_contain_text(
        f"{SMITH} would reach 14 on the kick."
    )
    keep(scorer, 1)
    expect(page.get_by_test_id("offline-winner")).to_contain_text(
        f"{SMITH} reached 14 on hand 1 on the kick"
    )
    expect(scorer.score("A")).to_have_text("15")
    page.context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("winner-banner")).to_contain_text(
        re.compile(rf"{re.escape(SMITH)} won 15–5 on hand 1 on the kick")
    )
    expect_the_kick_alone(scorer)
    assert [hand.facts for hand in Hand.objects.filter(game=game)] == [KICK_WIN]
    assert awards_stored(game) == [["A kick 3 true"]]


def test_a_gift_that_reaches_the_target_is_said_as_won_on_the_gift(scorer: Scorer) -> None:
    """Seven Up with no_gift_to_win off, Bob on 6: Ann deals 4♥, Bob begs and takes one. The
    preview read "Bob would reach 7 with gift." and the phone's banner "Bob reached 7 on hand 1
    with gift": a player says the game was won on the gift, as the server's banner does."""
    game = GameFactory(seven_up=True, overrides={"no_gift_to_win": False}, start_scores={"B": 6})
    page = scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.card("4H")
    scorer.choose("Beg", "Beg → take one")
    preview = page.get_by_test_id("hand-preview")
    expect(preview).to_contain_text("Bob would reach 7 on the gift.")
    keep(scorer, 1)
    expect(page.get_by_test_id("offline-winner")).to_have_text(
        "Bob reached 7 on hand 1 on the gift (on this phone: not sent yet)."
    )
    page.context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("winner-banner")).to_contain_text(
        "Bob won 7–0 on hand 1 on the gift: Bob took one, the point that took them to 7"
    )
