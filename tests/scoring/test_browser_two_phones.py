"""Two phones at one table, in headless Chromium at 390×844: phone A keeps hands with no
connection while phone B records hands online; when A is back, each kept hand is settled
without entering it again. A hand B recorded exactly as A kept it is dropped as already
recorded; the others are shown beside B's in the sheet's words (cards, sides' names, never the
replay format's keys) with one tap each to keep theirs, replace theirs with mine (a correction)
or add mine after theirs. The database holds each hand once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.models import Game, Hand, HandRevision, RevisionAction
from tests.conftest import PHONE
from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import NOT_OUT, PATEL, SMITH, Scorer, wait_until
from tests.scoring.test_browser_offline import keep, open_for_offline, unsent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phones(browser: Browser, live_server: Any) -> Iterator[tuple[Scorer, Scorer]]:
    """Phone A (it will lose its connection) and phone B, each its own browser."""
    contexts = [
        browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(2)
    ]
    scorers = []
    for context in contexts:
        page = context.new_page()
        page.set_default_timeout(10_000)
        scorers.append(Scorer(page, live_server.url))
    yield scorers[0], scorers[1]
    for context in contexts:
        context.close()


def turned(game, number: int) -> list[str]:
    return Hand.objects.get(game=game, number=number).facts["turn_ups"]


def kept_offline(a: Scorer, hands: list[dict[str, str]]) -> None:
    a.page.context.set_offline(True)
    for number, facts in enumerate(hands, start=1):
        a.enter(**facts)
        keep(a, number)


# Notes the game's section as it was and every kept-hands panel the page shows from now on.
WATCH_PANEL = """() => {
    window.gameBefore = document.getElementById("game");
    window.panelsSeen = [];
    new MutationObserver(() => {
        const panel = document.getElementById("offline-conflict");
        if (panel && !window.panelsSeen.includes(panel)) window.panelsSeen.push(panel);
    }).observe(document.body, { childList: true, subtree: true });
}"""

HAND_1 = {"card": "4H", "high": SMITH, "low": PATEL, "jack": NOT_OUT, "game": SMITH}
HAND_2 = {"card": "5C", "high": PATEL, "low": SMITH, "jack": NOT_OUT, "game": PATEL}


def test_a_hand_both_phones_recorded_alike_is_kept_once_and_theirs_can_be_kept(
    phones: tuple[Scorer, Scorer],
) -> None:
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    b.scan(game)
    kept_offline(a, [HAND_1, HAND_2])
    b.play(1, **HAND_1)  # exactly as A kept it
    b.play(2, card="6D", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)

    page = a.page
    page.evaluate(WATCH_PANEL)
    page.context.set_offline(False)
    expect(page.get_by_test_id("already-recorded")).to_have_text(
        "Hand 1 was already recorded on the other phone, exactly as kept here: kept once."
    )
    kept = page.get_by_test_id("kept-2")
    expect(kept).to_contain_text("Hand 2: both phones recorded it, differently")
    expect(kept).to_contain_text("On the sheet (the other phone)")
    expect(kept).to_contain_text(f"{SMITH} high +1")  # theirs, in the sheet's words
    expect(kept).to_contain_text(f"{PATEL} high +1")  # mine
    words = kept.inner_text()
    assert "{" not in words and "turn_ups" not in words and "null" not in words
    expect(unsent(page)).to_have_text("1 hand kept on this phone: the game moved on.")

    # Everything sent or set aside, the phone shows the server's page again: the panel moves
    # over as it was, never gone from under the scorer's finger (a tap then was lost).
    page.wait_for_function(
        "() => document.getElementById('game') !== window.gameBefore"
        " && document.getElementById('offline-conflict') !== null"
    )
    assert page.evaluate("window.panelsSeen.length") == 1
    page.get_by_test_id("keep-theirs-2").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(unsent(page)).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 2
    assert (turned(game, 1), turned(game, 2)) == (["4H"], ["6D"])
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 2
    assert not HandRevision.objects.filter(game=game, action=RevisionAction.CORRECT).exists()


def both_recorded_differently(phones: tuple[Scorer, Scorer]) -> tuple[Game, Page]:
    """Phone A keeps hands 1 and 2 with no connection while phone B records others at both
    numbers; A's connection is back: its page (both kept hands set aside beside B's)."""
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    b.scan(game)
    kept_offline(a, [HAND_1, HAND_2])
    b.play(1, card="7S", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    b.play(2, card="8H", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    a.page.context.set_offline(False)
    return game, a.page


def test_a_kept_hand_replaces_theirs_or_follows_it(phones: tuple[Scorer, Scorer]) -> None:
    game, page = both_recorded_differently(phones)
    expect(page.get_by_test_id("kept-1")).to_contain_text("7♠")  # theirs: the card as shown
    expect(page.get_by_test_id("kept-1")).to_contain_text("4♥")  # mine
    expect(page.get_by_test_id("kept-2")).to_be_visible()  # every kept hand in sight

    page.get_by_test_id("replace-theirs-1").tap()
    expect(page.get_by_test_id("kept-1")).to_have_count(0)
    page.get_by_test_id("add-after-2").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("hand-row-3")).to_be_visible()

    assert Hand.objects.filter(game=game).count() == 3
    assert [turned(game, n) for n in (1, 2, 3)] == [["4H"], ["8H"], ["5C"]]
    assert Hand.objects.get(game=game, number=1).revision == 1  # mine, as a correction
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 3
    assert HandRevision.objects.filter(game=game, action=RevisionAction.CORRECT).count() == 1


def test_replace_theirs_and_add_mine_after_theirs_say_what_became_of_the_hand(
    phones: tuple[Scorer, Scorer],
) -> None:
    """After Replace theirs or Add mine after theirs the panel went and nothing but the sheet
    changing said what became of the scorer's hand: the score bar says it, and goes on saying
    it (the server's game shown again meanwhile) until the scorer's next action."""
    game, page = both_recorded_differently(phones)
    notice = page.get_by_test_id("game-notice")
    expect(page.get_by_test_id("kept-2")).to_be_visible()
    page.get_by_test_id("replace-theirs-1").tap()
    expect(page.get_by_test_id("kept-1")).to_have_count(0)
    expect(notice).to_have_text("Your hand 1 replaced the other phone's.")

    page.get_by_test_id("add-after-2").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    added = "Your hand 2 was added after theirs, as hand 3."
    expect(notice).to_have_text(added)
    expect(page.locator("#hand-3:not([data-state])")).to_have_count(1)  # the server's game
    expect(notice).to_have_text(added)
    assert [turned(game, n) for n in (1, 2, 3)] == [["4H"], ["8H"], ["5C"]]

    phones[0].play(4, card="10C", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    expect(notice).to_have_text("Hand 4 recorded.")


# Two taps faster than a slow phone: the second lands before the page has drawn what the first
# did (the panel still shows the choice), as one finger tapping twice does.
TAPPED_TWICE = """(testid) => {
    const choice = document.querySelector(`[data-testid="${testid}"]`);
    choice.click();
    choice.click();
}"""


def test_a_choice_tapped_twice_on_a_kept_hand_is_made_once(phones: tuple[Scorer, Scorer]) -> None:
    """A second tap on Replace theirs kept a second correction, refused as made against the
    hand before the first one and shown again beside the panel ("Hand 1 was changed on another
    phone"); a second tap on Add mine after theirs added the hand twice, as hands 3 and 4."""
    game, page = both_recorded_differently(phones)
    expect(page.get_by_test_id("kept-2")).to_be_visible()
    page.evaluate(TAPPED_TWICE, "replace-theirs-1")
    expect(page.get_by_test_id("kept-1")).to_have_count(0)
    page.evaluate(TAPPED_TWICE, "add-after-2")
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("hand-row-3")).to_be_visible()
    expect(page.get_by_test_id("hand-row-4")).to_have_count(0)

    assert [turned(game, n) for n in (1, 2, 3)] == [["4H"], ["8H"], ["5C"]]
    assert Hand.objects.filter(game=game).count() == 3
    assert HandRevision.objects.filter(game=game, action=RevisionAction.CORRECT).count() == 1


def test_a_correction_from_a_sheet_behind_the_game_shows_the_hands_it_missed(
    phones: tuple[Scorer, Scorer],
) -> None:
    """Phone B opened the game after hand 1; phone A then recorded hand 2. B fixes hand 1 from
    its sheet: the answer must bring hand 2 too, not only the corrected row and later totals
    for rows B does not have (its sheet stopped at hand 1 under a score of the whole game, and
    the form's "Score after it" read the sheet's last row)."""
    a, b = phones
    game = GameFactory(trinidad=True)
    a.scan(game)
    a.play(1, **HAND_1)
    b.scan(game)
    a.play(2, **HAND_2)

    page = b.page
    b.tap(b.sheet_row(1).get_by_role("link", name="Fix"))
    correcting = page.get_by_test_id("correcting")
    correcting.get_by_role("group", name="Low (held by)", exact=True).get_by_role(
        "radio", name=SMITH, exact=True
    ).tap()
    with page.expect_response(lambda r: r.request.method == "POST"):
        correcting.get_by_role("button", name="Save correction").tap()
    b.settled()

    expect(page.get_by_text("Hand 1 corrected; the game was re-scored.")).to_be_visible()
    expect(b.sheet_row(2)).to_be_visible()
    game.refresh_from_db()
    last = Hand.objects.get(game=game, number=2).scores
    expect(b.sheet_row(2).locator("td.total")).to_have_text([str(last["A"]), str(last["B"])])
    b.expect_scores(last["A"], last["B"])
    expect(page.get_by_text("Hand 3 ·")).to_be_visible()


# --- both phones online --------------------------------------------------------------------


def recorded_alike_after_theirs(phones: tuple[Scorer, Scorer]) -> Game:
    """Both phones online: B records hand 1 while A's scorer is still tapping the same hand,
    exactly alike; A's form arrives second (409) and is kept once: its game."""
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    b.scan(game)
    b.play(1, **HAND_1)
    a.enter(**HAND_1)
    response = a.record()
    assert response is not None and response.status == 409
    expect(a.page.get_by_test_id("already-recorded")).to_have_text(
        "Hand 1 was already recorded on the other phone, exactly as kept here: kept once."
    )
    return game


def test_a_hand_the_other_phone_recorded_first_online_is_kept_once_not_lost(
    phones: tuple[Scorer, Scorer],
) -> None:
    """Both phones online: B records hand 1 while A's scorer is still tapping the same hand.
    A's form arrives second and is refused (409); exactly as B's, it is dropped as recorded, not
    thrown away with a "moved on" to enter again; A's next hand goes as usual."""
    game = recorded_alike_after_theirs(phones)
    a = phones[0]
    expect(a.page.get_by_test_id("next-dealer")).to_contain_text("Hand 2")
    expect(unsent(a.page)).to_have_count(0)
    a.play(2, **HAND_2)
    assert Hand.objects.filter(game=game).count() == 2
    assert (turned(game, 1), turned(game, 2)) == (["4H"], ["5C"])


def recorded_differently_after_theirs(phones: tuple[Scorer, Scorer]) -> Game:
    """Both phones online: B records hand 1 (7♠ turned) while A's scorer is still tapping it
    otherwise (4♥); A's form arrives second (409): its game."""
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    b.scan(game)
    b.play(1, card="7S", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    a.enter(**HAND_1)
    response = a.record()
    assert response is not None and response.status == 409
    return game


def test_a_hand_the_other_phone_recorded_differently_online_waits_beside_theirs(
    phones: tuple[Scorer, Scorer],
) -> None:
    """Online, B's hand 1 reached the server first and A's differs: A's taps are kept beside
    B's hand with the same three choices as a hand kept offline, never lost."""
    game = recorded_differently_after_theirs(phones)
    a = phones[0]
    kept = a.page.get_by_test_id("kept-1")
    expect(kept).to_contain_text("7♠")  # theirs
    expect(kept).to_contain_text("4♥")  # mine, as tapped
    a.page.get_by_test_id("add-after-1").tap()
    expect(a.page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(unsent(a.page)).to_have_count(0)  # sent, not only drawn by the phone
    expect(a.page.get_by_test_id("hand-row-2")).to_be_visible()
    assert [turned(game, n) for n in (1, 2)] == [["7S"], ["4H"]]
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 2


def test_a_hand_added_after_theirs_is_dealt_in_turn(phones: tuple[Scorer, Scorer]) -> None:
    """Both phones online; A's scorer entered the next real hand on the form still showing
    hand 1 (its dealer, Smith & Jones, only suggested), B recorded hand 1 first. Added after
    theirs, A's hand kept that dealer: Smith & Jones dealt hand 2 and took its kick, and the
    deal was out of turn for the rest of the game. It is dealt by the dealer in turn after the
    hand it follows, on the phone and on the server."""
    a, b = phones
    game = GameFactory(trinidad=True)  # Smith & Jones deal hand 1
    open_for_offline(a, game)
    b.scan(game)
    b.play(1, card="9D", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    a.enter(card="6C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    response = a.record()
    assert response is not None and response.status == 409
    expect(a.page.get_by_test_id("add-after-as-tapped-1")).to_have_count(0)  # nothing to ask
    a.page.get_by_test_id("add-after-1").tap()
    expect(unsent(a.page)).to_have_count(0)
    expect(a.sheet_row(2)).to_contain_text(f"{PATEL} kick 6♣ +2")
    expect(a.page.locator("#next-dealer")).to_have_text(f"Hand 3 · deals: {SMITH}")
    hand = Hand.objects.get(game=game, number=2)
    assert (hand.facts["dealer"], hand.dealer) == ("B", "B")
    game.refresh_from_db()
    assert game.next_dealer == "A"


def test_a_dealer_tapped_otherwise_is_asked_about_before_adding_after_theirs(
    phones: tuple[Scorer, Scorer],
) -> None:
    """The scorer tapped a dealer other than the one suggested: the phone does not overwrite
    it unasked, it offers both, and the hand goes as the scorer chooses."""
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    b.scan(game)
    b.play(1, card="9D", dealer=PATEL, high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    a.enter(card="6C", dealer=PATEL, high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    response = a.record()
    assert response is not None and response.status == 409
    kept = a.page.get_by_test_id("kept-1")
    expect(kept.get_by_test_id("add-after-1")).to_have_text(
        f"Add mine after theirs, dealt by {SMITH} (in turn)"
    )
    as_tapped = kept.get_by_test_id("add-after-as-tapped-1")
    expect(as_tapped).to_have_text(f"Add mine after theirs, dealt by {PATEL} (as tapped)")
    as_tapped.tap()
    expect(unsent(a.page)).to_have_count(0)
    expect(a.sheet_row(2)).to_contain_text(f"{PATEL} kick 6♣ +2")
    assert Hand.objects.get(game=game, number=2).facts["dealer"] == "B"


@pytest.mark.parametrize("before", [0, 1], ids=["first hand", "after a hand recorded"])
def test_the_other_phone_first_says_so_until_the_scorer_settles_the_hand(
    phones: tuple[Scorer, Scorer], before: int
) -> None:
    """Online, B's hand reached the server first and A's differs: the score bar's "The other
    phone recorded hand 2 first…" went as soon as it came (the server's game, shown again once
    the hand was set aside, has no such line), and on a page that had said nothing yet it never
    showed. It stays while the server's game is shown again, until the scorer settles the
    hand."""
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    if before:
        a.play(1, **HAND_1)
    b.scan(game)
    number = before + 1
    b.play(number, card="7S", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    page = a.page
    a.enter(**HAND_2)
    page.evaluate(WATCH_PANEL)
    response = a.record()
    assert response is not None and response.status == 409
    first = f"The other phone recorded hand {number} first: yours is kept on this phone beside it."
    notice = page.get_by_test_id("game-notice")
    expect(notice).to_have_text(first)
    expect(page.get_by_test_id(f"kept-{number}")).to_be_visible()
    page.wait_for_function("() => document.getElementById('game') !== window.gameBefore")
    page.wait_for_timeout(500)  # time for anything after the server's game to take it away
    expect(notice).to_have_text(first)

    page.get_by_test_id(f"add-after-{number}").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(page.get_by_text(first)).to_have_count(0)  # acted on: it goes
    expect(a.sheet_row(number + 1)).to_be_visible()
    expect(unsent(page)).to_have_count(0)  # drawn at once, sent after: the server has it now
    assert [turned(game, n) for n in (number, number + 1)] == [["7S"], ["5C"]]


@pytest.mark.parametrize("kept", [1, 2], ids=["one hand", "two hands"])
def test_back_online_the_other_phone_first_is_said_as_online(
    phones: tuple[Scorer, Scorer], kept: int
) -> None:
    """A keeps hands with no connection while B records others at their numbers; A back online
    showed the kept hands' panel, and the score bar never said what a hand refused online says
    ("The other phone recorded hand 1 first…"). It says so, and goes on saying it while the
    server's game is shown again, until the scorer settles the hands."""
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    b.scan(game)
    kept_offline(a, [HAND_1, HAND_2][:kept])
    b.play(1, card="7S", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    b.play(2, card="8H", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    page = a.page
    page.evaluate(WATCH_PANEL)
    page.context.set_offline(False)
    first = (
        "The other phone recorded hand 1 first: yours is kept on this phone beside it."
        if kept == 1
        else "The other phone recorded hands 1 and 2 first: yours are kept on this phone "
        "beside them."
    )
    notice = page.locator("#scoreboard").get_by_test_id("game-notice")
    expect(page.get_by_test_id("kept-1")).to_be_visible()
    expect(notice).to_have_text(first)
    page.wait_for_function("() => document.getElementById('game') !== window.gameBefore")
    page.wait_for_timeout(500)  # time for anything after the server's game to take it away
    expect(notice).to_have_text(first)
    for number in range(1, kept + 1):
        page.get_by_test_id(f"keep-theirs-{number}").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(page.get_by_text(first)).to_have_count(0)


def test_keep_theirs_says_that_the_scorers_own_hand_was_not_saved(
    phones: tuple[Scorer, Scorer], settings: Any
) -> None:
    """Both phones record hand 2, B's first; A's scorer taps Keep theirs: the panel went and
    nothing said that the hand A's scorer had recorded is not on the sheet. The score bar says
    so, and goes on saying it (the other phone's next hand shown meanwhile) until the scorer's
    next action."""
    settings.GAME_WATCH_SECONDS = 1  # A, left alone, shows B's hands within a second
    a, b = phones
    game = GameFactory(trinidad=True)
    open_for_offline(a, game)
    a.play(1, **HAND_1)
    a.enter(**HAND_2)  # begun: A does not show B's hand 2 by itself
    b.scan(game)
    b.play(2, card="7S", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    page = a.page
    response = a.record()
    assert response is not None and response.status == 409
    expect(page.get_by_test_id("game-notice")).to_have_text(
        "The other phone recorded hand 2 first: yours is kept on this phone beside it."
    )

    page.get_by_test_id("keep-theirs-2").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    said = "Your hand 2 was not saved: the other phone's hand 2 stands."
    notice = page.get_by_test_id("game-notice")
    expect(notice).to_have_text(said)
    b.play(3, card="9D", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    expect(a.sheet_row(3)).to_be_visible()  # the server's game shown again on A
    expect(notice).to_have_text(said)

    a.play(4, card="10C", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    expect(notice).to_have_text("Hand 4 recorded.")
    assert [turned(game, n) for n in (1, 2, 3, 4)] == [["4H"], ["7S"], ["9D"], ["10C"]]


@pytest.mark.parametrize("action", ["the next hand", "Fix"])
def test_already_recorded_on_the_other_phone_goes_at_the_scorers_next_action(
    phones: tuple[Scorer, Scorer], action: str
) -> None:
    """Online, A's hand 1 reached the server after B's, exactly alike: "Hand 1 was already
    recorded on the other phone…" stayed above the sheet for the rest of the page's life,
    hands later. It goes at the scorer's next action, as the score bar's notices do."""
    recorded_alike_after_theirs(phones)
    a = phones[0]
    already = a.page.get_by_test_id("already-recorded")
    if action == "Fix":
        a.tap(a.page.get_by_test_id("fix-last"))
        expect(a.page.get_by_test_id("correcting")).to_be_visible()
    else:
        a.play(2, **HAND_2)
    expect(already).to_have_count(0)


# The hands the phone keeps as already recorded on the other phone (store.mjs "recorded"), or
# null.
KEPT_RECORDED = """(game) => new Promise((resolve, reject) => {
    const request = indexedDB.open("allfours-offline");
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains("recorded")) {
        db.close();
        return resolve(null);
      }
      const kept = db.transaction("recorded").objectStore("recorded").get(game);
      kept.onsuccess = () => {
        db.close();
        resolve(kept.result ? kept.result.numbers : null);
      };
    };
  })"""


def test_already_recorded_on_the_other_phone_comes_back_after_a_reload(
    phones: tuple[Scorer, Scorer],
) -> None:
    """ "Hand 1 was already recorded on the other phone…" was held only in the page's memory:
    reloaded (a phone reloads a tab after its screen locks), the page said nothing of it, where
    the score bar's lines are kept on the phone and said again. It comes back until the
    scorer's next action, and not after it."""
    game = recorded_alike_after_theirs(phones)
    a = phones[0]
    page = a.page
    already = page.get_by_test_id("already-recorded")
    words = "Hand 1 was already recorded on the other phone, exactly as kept here: kept once."
    wait_until(page, lambda: page.evaluate(KEPT_RECORDED, game.pk) == [1])
    page.reload()
    expect(page.get_by_test_id("scoreboard")).to_be_visible()
    expect(already).to_have_text(words)

    a.play(2, **HAND_2)
    expect(already).to_have_count(0)
    wait_until(page, lambda: page.evaluate(KEPT_RECORDED, game.pk) is None)
    assert page.evaluate(KEPT_RECORDED, game.pk) is None
    page.reload()
    expect(page.get_by_test_id("next-dealer")).to_contain_text("Hand 3")
    expect(already).to_have_count(0)


# What the phone keeps of the score bar's notice for the game (store.mjs "notices"): its words,
# or null.
KEPT_NOTICE = """(game) => new Promise((resolve, reject) => {
    const request = indexedDB.open("allfours-offline");
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains("notices")) {
        db.close();
        return resolve(null);
      }
      const kept = db.transaction("notices").objectStore("notices").get(game);
      kept.onsuccess = () => {
        db.close();
        resolve(kept.result ? kept.result.text : null);
      };
    };
  })"""


def kept_notice(page: Page, game: Game) -> str | None:
    return page.evaluate(KEPT_NOTICE, game.pk)


def reload_with_notice(page: Page, game: Game, said: str) -> None:
    """Reload the page once the phone has kept what its score bar says (`said`)."""
    wait_until(page, lambda: kept_notice(page, game) == said)
    assert kept_notice(page, game) == said
    page.reload()


@pytest.mark.parametrize("said", ["the other phone first", "keep theirs"])
def test_the_score_bars_line_comes_back_with_the_kept_hands_after_a_reload(
    phones: tuple[Scorer, Scorer], said: str
) -> None:
    """The score bar's "The other phone recorded hand 1 first…" and, after Keep theirs, "Your
    hand 1 was not saved…" were held only in the page's memory: reloaded, the page showed the
    kept hands' panel again without them. They come back while the panel is shown, and not
    once it is gone."""
    if said == "keep theirs":
        game, page = both_recorded_differently(phones)
        page.get_by_test_id("keep-theirs-1").tap()
        expect(page.get_by_test_id("kept-1")).to_have_count(0)
        words = "Your hand 1 was not saved: the other phone's hand 1 stands."
        kept = 2
    else:
        game = recorded_differently_after_theirs(phones)
        page = phones[0].page
        words = "The other phone recorded hand 1 first: yours is kept on this phone beside it."
        kept = 1
    notice = page.get_by_test_id("game-notice")
    expect(notice).to_have_text(words)
    expect(page.get_by_test_id(f"kept-{kept}")).to_be_visible()
    reload_with_notice(page, game, words)
    expect(page.get_by_test_id(f"kept-{kept}")).to_be_visible()
    expect(notice).to_have_text(words)

    page.get_by_test_id(f"keep-theirs-{kept}").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    gone = f"Your hand {kept} was not saved: the other phone's hand {kept} stands."
    expect(notice).to_have_text(gone)
    reload_with_notice(page, game, gone)
    expect(page.get_by_test_id("scoreboard")).to_be_visible()
    wait_until(page, lambda: kept_notice(page, game) is None)
    assert kept_notice(page, game) is None
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(notice).to_have_count(0)
