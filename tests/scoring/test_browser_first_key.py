"""Never scroll for the next hand, in headless Chromium at 390×844: after every kind of answer
(a hand recorded, a refusal, an undo, a correction, a misdeal, a hand by card points) the hand
form's first key is in view below the sticky score bar, however far down the scorer had
scrolled; Undo and Fix for the last hand are on the score bar, in view wherever the page is."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scoring.models import Hand
from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import GAME, NOT_OUT, PATEL, SMITH, Scorer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Where the first key of the hand form is, against the score bar's bottom and the screen's.
FIRST_KEY = """() => {
  const form = document.getElementById("hand-form");
  const key = [...form.querySelectorAll("button, label")].find((el) => {
    const box = el.getBoundingClientRect();
    return box.width >= 20 && box.height >= 20;
  });
  const bar = document.getElementById("scoreboard").getBoundingClientRect();
  const place = key.getBoundingClientRect();
  return {key: key.textContent.trim(), top: place.top, bottom: place.bottom, bar: bar.bottom,
          screen: innerHeight};
}"""


def once_below_the_bar(page: Page, place: str) -> dict:
    """Where something is (`place`: a script returning its top and bottom, the bar's bottom and
    the screen's) once it is in view below the bar, or after 3 s: it is put in view once htmx
    settles the answer (some 20 ms after it is swapped in, when the words the test waited for
    already show)."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            f"() => {{ const w = ({place})(); "
            "return w.top >= w.bar - 1 && w.bottom <= w.screen; }",
            timeout=3000,
        )
    return page.evaluate(place)


def first_key_in_view(page: Page, after: str) -> None:
    """The hand form's first key is in view below the bar."""
    where = once_below_the_bar(page, FIRST_KEY)
    assert where["key"] == "A", where  # the turned-up card's first rank
    assert where["top"] >= where["bar"] - 1 and where["bottom"] <= where["screen"], (after, where)


def to_the_bottom(page: Page) -> None:
    """The scorer has scrolled down the sheet and chart (to check a hand, or the old Undo)."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")


def in_the_bar(page: Page, testid: str) -> None:
    """A score bar control is on screen, wherever the page is scrolled to."""
    box = page.get_by_test_id(testid).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (testid, box)


def test_the_first_key_is_in_view_after_every_kind_of_answer(phone: Page, live_server) -> None:
    game = GameFactory(trinidad=True, hands=12, overrides={"target": 500})
    scorer = Scorer(phone, live_server.url)
    scorer.scan(game)

    to_the_bottom(phone)
    scorer.play(13, card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    first_key_in_view(phone, "a hand recorded")

    # A refusal: the turned jack was not in play, so nobody held it.
    scorer.enter(card="JH", high=SMITH, low=PATEL, jack=SMITH)
    to_the_bottom(phone)
    scorer.pending_game = SMITH
    scorer.record()
    expect(phone.get_by_test_id("hand-form")).to_contain_text("Not out")
    first_key_in_view(phone, "a refusal")

    # Undo, from the score bar, with the page scrolled down the sheet.
    to_the_bottom(phone)
    in_the_bar(phone, "undo")
    scorer.undo(13)
    expect(phone.get_by_test_id("next-dealer")).to_contain_text("Hand 13")
    first_key_in_view(phone, "an undo")

    # Fix the last hand, from the score bar: its correction opens in place of the form.
    to_the_bottom(phone)
    in_the_bar(phone, "fix-last")
    phone.get_by_test_id("fix-last").tap()
    correction = phone.locator("#correction form")
    expect(correction).to_be_visible()
    correction.get_by_role("group", name=GAME, exact=True).get_by_role("button", name=PATEL).tap()
    expect(phone.get_by_text("Hand 12 corrected")).to_be_visible()
    expect(correction).to_have_count(0)
    first_key_in_view(phone, "a correction")
    assert Hand.objects.get(game=game, number=12).revision == 1

    # A misdeal (the dealer, beg and outcome are folded away), then a hand by card points.
    scorer.choose("Outcome", "Misdeal")
    to_the_bottom(phone)
    scorer.record()
    expect(phone.get_by_test_id("next-dealer")).to_contain_text("Hand 14")
    first_key_in_view(phone, "a misdeal")

    scorer.enter(card="5C", high=PATEL, low=SMITH, jack=NOT_OUT, counts=(50, 30))
    to_the_bottom(phone)
    scorer.record()
    expect(phone.get_by_test_id("next-dealer")).to_contain_text("Hand 15")
    first_key_in_view(phone, "a hand by card points")
    assert Hand.objects.filter(game=game).count() == 14
