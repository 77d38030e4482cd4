"""A Fix made on a hand kept on the phone just as it is sent (the connection back), in headless
Chromium at 390×844: the correction is kept, as its correction, and sent, as the page says."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from scoring.models import Game, Hand, HandRevision, RevisionAction
from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import LOW, NOT_OUT, PATEL, SMITH, Scorer, wait_until
from tests.scoring.test_browser_offline import (
    KEPT,
    keep,
    kept_ops,
    offline_scorer,
    open_for_offline,
    unsent,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

kept_phone = offline_scorer  # a phone that keeps the page: online, then offline


class Sends:
    """The phone's sends of kept hands and corrections (`/sync/`), each held until let go."""

    def __init__(self, scorer: Scorer, game: Game) -> None:
        self.held: list[Route] = []
        self.holding = True
        scorer.page.context.route(f"{scorer.base_url}{game.get_absolute_url()}sync/", self.route)

    def route(self, route: Route) -> None:
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def let_one_go(self) -> None:
        self.held.pop(0).continue_()

    def let_all_go(self) -> None:
        self.holding = False
        while self.held:
            self.let_one_go()


@pytest.mark.parametrize("answered", [False, True], ids=["answer-after", "answer-before"])
def test_fix_of_a_kept_hand_tapped_as_it_is_sent_is_kept_and_sent_as_its_correction(
    kept_phone: Scorer, answered: bool
) -> None:
    """Hand 1 recorded; hand 2 kept with no connection; the connection back, it is on its way
    when the scorer taps its Fix, changes low and taps Record hand, the answer coming in after
    the tap or before it. The page said "The correction of hand 2 kept on this phone: sent when
    the connection is back." and kept nothing (or kept it in the sent hand's place, dropped once
    its answer came in): the correction was lost. It is kept, as the correction of the hand the
    server recorded, the page says it is being sent, and it is."""
    game = GameFactory(trinidad=True, overrides={"target": 200})
    scorer, page = kept_phone, kept_phone.page
    open_for_offline(scorer, game)
    scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    page.wait_for_function(KEPT)
    page.context.set_offline(True)
    scorer.enter(card="5C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    keep(scorer, 2)
    sends = Sends(scorer, game)
    page.context.set_offline(False)
    wait_until(page, lambda: bool(sends.held))
    assert sends.held, "the kept hand was not sent"
    scorer.tap(page.get_by_test_id("correct-2"))
    expect(page.get_by_test_id("offline-correcting")).to_contain_text("Correcting hand 2")
    scorer.choose(LOW, SMITH)
    if answered:
        sends.let_one_go()
        wait_until(page, lambda: game.hands.count() == 2)
        expect(page.get_by_test_id("unsent-2")).to_have_count(0)
    scorer.tap(page.get_by_role("button", name="Record hand", exact=True))
    expect(page.get_by_test_id("game-notice")).to_have_text(
        "The correction of hand 2 kept on this phone: sending it now."
    )
    # The hand on its way (its answer not in yet), or its correction once it is.
    expect(unsent(page)).to_have_text(f"1 {'change' if answered else 'hand'} not sent yet.")
    sends.let_all_go()
    expect(unsent(page)).to_have_count(0)
    wait_until(page, lambda: Hand.objects.get(game=game, number=2).facts["low"] == "A")
    assert Hand.objects.get(game=game, number=2).facts["low"] == "A"
    assert HandRevision.objects.filter(game=game, action=RevisionAction.CORRECT).count() == 1
    assert game.hands.count() == 2
    assert kept_ops(page) == []
    expect(scorer.sheet_row(2)).to_contain_text(f"{SMITH} low +1")
