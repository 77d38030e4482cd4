"""A phone left showing a game (the other phone at the table scoring), in headless Chromium at
390×844: it shows the hands recorded on the other phone by itself, once nobody has touched it for
a while; a hand half entered on it stays as it was; the phone scoring asks nothing of the kind."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Request, expect

from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import NOT_OUT, PATEL, SMITH, Scorer
from tests.scoring.test_browser_two_phones import phones  # noqa: F401 (the two browsers)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = {"card": "4H", "high": SMITH, "low": PATEL, "jack": NOT_OUT, "game": SMITH}


@pytest.fixture
def watched(request: Any, settings: Any, live_server: Any) -> tuple[Scorer, Scorer]:
    """Phone A scores; phone B is left on the table (the two-phones tests' two browsers).
    Asking every second, not every 20. ``live_server`` is named here: the tests' server opens
    only to a test that names it among its fixtures."""
    settings.GAME_WATCH_SECONDS = 1
    return request.getfixturevalue("phones")


def asked(requests: list[Request]) -> list[Request]:
    """Whether the game changed, as the page asks it (a hand posted says its version too)."""
    return [r for r in requests if r.method == "GET" and "x-game-version" in r.headers]


def test_a_phone_left_alone_shows_the_other_phones_hands(watched: tuple[Scorer, Scorer]) -> None:
    a, b = watched
    game = GameFactory(trinidad=True)
    b.scan(game)
    b_requests: list[Request] = []
    b.page.on("request", lambda r: b_requests.append(r))
    a.scan(game)
    a_requests: list[Request] = []
    a.page.on("request", lambda r: a_requests.append(r))

    a.play(1, **HAND)
    a.play(2, card="6D", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)

    # B was not touched: within a few seconds it shows both hands and the score as A does.
    expect(b.sheet_row(2)).to_be_visible()
    expect(b.score("A")).to_have_text(a.score("A").inner_text())
    expect(b.score("B")).to_have_text(a.score("B").inner_text())
    # The page came anew only when the game had changed (at most once a hand); asked while
    # the game was as shown, the server said so with nothing else.
    b.page.wait_for_timeout(2_500)
    answers = [r.response() for r in asked(b_requests)]
    statuses = [x.status for x in answers if x is not None]
    assert 1 <= statuses.count(200) <= 2
    assert statuses.count(204) >= 1 and set(statuses) == {200, 204}
    # A, scoring, shows the game as it is after each reply: asked too (it was left alone
    # meanwhile), the server had nothing to send it.
    assert {r.response().status for r in asked(a_requests)} <= {204}


def test_a_hand_half_entered_on_the_phone_left_alone_stays(watched: tuple[Scorer, Scorer]) -> None:
    a, b = watched
    game = GameFactory(trinidad=True)
    b.scan(game)
    a.scan(game)
    b.card("7S")  # B begins a hand, and is left alone
    a.play(1, **HAND)

    b.page.wait_for_timeout(3_000)
    expect(b.sheet_row(1)).to_have_count(0)
    expect(b.page.locator("input[name=turn_ups]")).to_have_value("7S")


def test_a_second_tap_on_the_next_hands_form_is_not_a_hand_begun(
    watched: tuple[Scorer, Scorer],
) -> None:
    """A double tap's second tap lands on the next hand's form and does nothing: left alone
    after it, the phone still shows the other phone's next hand (the tap had counted as a hand
    begun, and the page was never shown anew: the scorer's next hand was then refused)."""
    a, b = watched
    game = GameFactory(trinidad=True)
    a.scan(game)
    a.play(1, **HAND)
    a.enter(card="6D", high=PATEL, low=PATEL, jack=NOT_OUT)
    button = a.page.get_by_role("group", name="Game (most card points)", exact=True)
    button = button.get_by_role("button", name=PATEL, exact=True)
    box = button.bounding_box()
    assert box is not None
    where = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    a.page.touchscreen.tap(*where)
    expect(a.page.get_by_text("Hand 2 recorded.")).to_be_visible()
    a.page.touchscreen.tap(*where)
    b.scan(game)
    b.play(3, card="7C", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    expect(a.sheet_row(3)).to_be_visible()
    expect(a.score("A")).to_have_text(b.score("A").inner_text())


def test_the_phone_left_alone_says_a_hand_the_other_phone_corrected_or_undid(
    watched: tuple[Scorer, Scorer],
) -> None:
    """A corrected or undone hand changes a row the scorer of the phone left alone has seen:
    the sheet changed with nothing said (a scorer looking back at it could not tell why).
    The score bar says which hand the other phone corrected, then which it undid."""
    a, b = watched
    game = GameFactory(trinidad=True)
    a.scan(game)
    a.play(1, **HAND)
    a.play(2, card="6D", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    b.scan(game)

    b.tap(b.sheet_row(1).get_by_role("link", name="Fix"))
    correcting = b.page.get_by_test_id("correcting")
    correcting.get_by_role("group", name="Low (held by)", exact=True).get_by_role(
        "radio", name=SMITH, exact=True
    ).tap()
    with b.page.expect_response(lambda r: r.request.method == "POST"):
        correcting.get_by_role("button", name="Save correction").tap()
    b.settled()

    notice = a.page.get_by_test_id("game-notice")
    expect(notice).to_have_text("Hand 1 was corrected on the other phone.")
    expect(a.score("A")).to_have_text(b.score("A").inner_text())

    b.undo(2)
    b.settled()
    expect(notice).to_have_text("Hand 2 was undone on the other phone.")
    expect(a.sheet_row(2)).to_have_count(0)
    # A's scorer acts (the next hand): what was said goes, as the score bar's words do.
    a.play(2, **HAND)
    expect(notice).not_to_have_text("Hand 2 was undone on the other phone.")
