"""The beg follows the cards turned up, in headless Chromium at 390×844: a second card (picked
or typed) moves it from Stand to "run the pack", and fewer cards (one, or the box cleared) move
it back, as long as the move was the page's own. The page's mark of its own move is a field of
the form: it lasts through a refused hand's form and through the taps put back on a page opened
again (a phone reloads a tab after its screen locks), where it lived on the radio button alone
and the run stayed with one card, the next hand refused ("“Beg → run the pack” turns up at
least two cards…") until the scorer tapped Stand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import NOT_OUT, PATEL, SMITH, Scorer, facts_of, wait_until
from tests.scoring.test_browser_kept_taps import kept_phone, reopen
from tests.scoring.test_browser_offline import open_for_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

phone = kept_phone  # a phone that keeps the page and the taps of a hand under way

#: The cards the phone keeps as typed on the hand under way (store.mjs "drafts"), or "".
CARDS_KEPT = """() => new Promise((resolve) => {
  const request = indexedDB.open("allfours-offline");
  request.onsuccess = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains("drafts")) return resolve("");
    const get = db.transaction("drafts").objectStore("drafts").getAll();
    get.onsuccess = () => resolve(get.result.map((d) => d.taps.values.turn_ups).join("|"));
  };
})"""


def test_the_run_the_cards_made_goes_back_with_them_after_a_refused_hand(phone: Scorer) -> None:
    """Two cards typed, the beg on run; Record hand with high and low not tapped is refused,
    and the form comes back from the server with the run checked: one card left, the beg goes
    back to Stand, and the hand is recorded as a stand."""
    game = GameFactory()
    phone.scan(game)
    form = phone.page.locator("#hand-form")
    run = form.locator("input[name=beg][value=run]")
    stand = form.locator("input[name=beg][value=stand]")
    typed = phone.page.get_by_label("Cards turned up")
    typed.press_sequentially("JH 6H")
    expect(run).to_be_checked()
    phone.record()
    expect(form.locator(".errorlist").first).to_be_visible()
    expect(run).to_be_checked()

    typed.fill("JH")
    expect(stand).to_be_checked()
    phone.enter(high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    phone.record()
    expect(phone.page.get_by_text("Hand 1 recorded.")).to_be_visible()
    hand = facts_of(game)[0]
    assert (hand["turn_ups"], hand.get("beg", "stand")) == (["JH"], "stand")


def test_the_run_the_cards_made_goes_back_with_them_after_a_reload(phone: Scorer) -> None:
    """Two cards typed, the beg on run, the page opened again: the taps come back, and with the
    box cleared and one card typed the beg is Stand again, the hand recorded as a stand. A run
    the scorer tapped stays a run with one card."""
    game = GameFactory()
    page = phone.page
    open_for_offline(phone, game)
    form = page.locator("#hand-form")
    run = form.locator("input[name=beg][value=run]")
    stand = form.locator("input[name=beg][value=stand]")
    typed = page.get_by_label("Cards turned up")
    typed.press_sequentially("JH 6H")
    expect(run).to_be_checked()
    wait_until(page, lambda: page.evaluate(CARDS_KEPT) == "JH 6H")

    reopen(page, game, offline=False)
    expect(typed).to_have_value("JH 6H")
    expect(run).to_be_checked()
    typed.fill("")
    expect(stand).to_be_checked()
    typed.fill("JH")
    expect(stand).to_be_checked()
    phone.enter(high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    phone.record()
    expect(page.get_by_text("Hand 1 recorded.")).to_be_visible()
    hand = facts_of(game)[0]
    assert (hand["turn_ups"], hand.get("beg", "stand")) == (["JH"], "stand")

    phone.choose("Beg", "Beg → run the pack")
    typed.press_sequentially("8S 9H")
    wait_until(page, lambda: page.evaluate(CARDS_KEPT) == "8S 9H")
    reopen(page, game, offline=False)
    expect(typed).to_have_value("8S 9H")
    typed.fill("8S")
    expect(run).to_be_checked()
