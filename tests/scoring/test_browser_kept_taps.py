"""What the scorer has tapped of a hand not sent yet survives the page opened again, in headless
Chromium at 390×844: a phone reloads a tab after its screen locks. The taps are kept on the phone
(static/scoring/offline/store.mjs, "drafts") for the game and the hand's number, put back on the
page opened again at that number, and dropped once the hand is recorded or the game moved past
it. And a Fix made on a hand kept on the phone just as it is sent: the correction is kept, as
the correction of the hand the server recorded, and sent, as the page says."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from scoring.models import Game, Hand, HandRevision, RevisionAction
from tests.factories.scoring import GameFactory, play_plain_hands
from tests.scoring.test_browser import HIGH, JACK, LOW, NOT_OUT, PATEL, SMITH, Scorer, wait_until
from tests.scoring.test_browser_offline import (
    FORM_ANSWERS,
    KEPT,
    fresh_answers,
    keep,
    kept_ops,
    offline_scorer,
    open_for_offline,
    unsent,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


kept_phone = offline_scorer  # a phone that keeps the page: online, then offline


def begin_hand_2(scorer: Scorer) -> Game:
    """A game to 200 opened for offline use; hand 1 recorded online; hand 2 begun: 5♣ then K♦
    turned (the pack run), high to Patel & Brown, low to Smith & Jones, a renege by Smith &
    Jones called, a rank 7 tapped awaiting its suit. Not sent; its taps kept on the phone."""
    game = GameFactory(trinidad=True, overrides={"target": 200})
    open_for_offline(scorer, game)
    page = scorer.page
    scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    page.wait_for_function(KEPT)
    scorer.card("5C")
    scorer.card("KD")
    scorer.choose(HIGH, PATEL)
    scorer.choose(LOW, SMITH)
    scorer.tap(page.get_by_test_id("penalties-toggle"))
    scorer.tap(page.get_by_role("button", name=f"Renege — {SMITH}", exact=True))
    scorer.tap(page.get_by_role("button", name="Rank 7", exact=True))
    wait_for_taps_kept(page, "2:7")
    return game


#: What of hand 2's taps the scorer sees besides `FORM_ANSWERS`.
SEEN = """() => ({
  called: document.querySelector("[data-testid=called-penalties]").innerText.trim(),
  pending: [...document.querySelectorAll("#hand-form [data-rank].pending")].map(
    (b) => b.dataset.rank),
  penaltiesOpen: document.getElementById("penalties").open,
})"""


#: The hands the phone keeps taps for, each as `number:the rank awaiting its suit`.
TAPS_KEPT = """() => new Promise((resolve) => {
  const request = indexedDB.open("allfours-offline");
  request.onsuccess = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains("drafts")) return resolve([]);
    const get = db.transaction("drafts").objectStore("drafts").getAll();
    get.onsuccess = () => resolve(
      get.result.map((d) => `${d.number}:${d.taps.values.pending_rank}`));
  };
})"""


def wait_for_taps_kept(page: Page, *kept: str) -> None:
    """Until the phone keeps taps for the hands `kept` (`TAPS_KEPT`), and for no other: each
    tap's are written as it is made, and they go just after the hand is recorded."""
    page.wait_for_function(
        f"async (kept) => JSON.stringify(await ({TAPS_KEPT})()) === JSON.stringify(kept)",
        arg=list(kept),
    )


def reopen(page: Page, game: Game, *, offline: bool) -> None:
    """The tab loaded again, as a phone does after its screen locked (without a connection:
    the page the phone kept)."""
    page.context.set_offline(offline)
    page.goto(page.url.split("/games/")[0] + game.get_absolute_url())
    page.wait_for_function("() => document.getElementById('hand-form') !== null")


@pytest.mark.parametrize("offline", [False, True], ids=["online", "offline"])
def test_taps_on_a_hand_survive_a_reload_and_go_once_it_is_sent(
    kept_phone: Scorer, offline: bool
) -> None:
    """Hand 2 half tapped, the page loaded again (online, or from the phone without a
    connection): the same taps are on the form (the cards, the run, high, low, the renege called
    and listed, the rank waiting for its suit); finished and sent, hand 2 is recorded as tapped
    and hand 3's form is empty, after another reload too."""
    scorer, page = kept_phone, kept_phone.page
    game = begin_hand_2(scorer)
    before = page.evaluate(FORM_ANSWERS)
    seen = page.evaluate(SEEN)
    assert before["cards"] == "5C KD" and "beg=run" in before["checked"]

    reopen(page, game, offline=offline)
    expect(page.get_by_test_id("called-penalties")).to_contain_text("renege")
    assert page.evaluate(FORM_ANSWERS) == before
    assert page.evaluate(SEEN) == seen
    expect(page.get_by_test_id("hand-preview")).to_contain_text(f"{PATEL} high +1")
    expect(page.get_by_test_id("taps-not-put-back")).to_have_count(0)

    scorer.tap(page.get_by_role("button", name="Rank 7", exact=True))  # the 7 let go
    scorer.choose(JACK, NOT_OUT)
    scorer.pending_game = PATEL
    if offline:
        keep(scorer, 2)
        page.context.set_offline(False)
        expect(unsent(page)).to_have_count(0)
        # Sent, and the server's game shown (its rows have no data-state: the phone's have).
        expect(page.locator("#hand-2:not([data-state])")).to_have_count(1)
    else:
        scorer.record()
        expect(page.get_by_text("Hand 2 recorded.")).to_be_visible()
    wait_until(page, lambda: game.hands.count() == 2)
    facts = Hand.objects.get(game=game, number=2).facts
    assert (facts["turn_ups"], facts["beg"], facts["high"], facts["low"]) == (
        ["5C", "KD"],
        "run",
        "B",
        "A",
    )
    assert facts["penalties"] == [{"kind": "renege", "side": "A"}]
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 3)
    wait_for_taps_kept(page)  # none

    reopen(page, game, offline=False)
    expect(page.locator("#hand-2")).to_have_count(1)
    page.wait_for_timeout(300)  # time for taps to be put back, were any kept
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 3)
    expect(page.get_by_test_id("called-penalties")).to_have_text("")
    expect(page.get_by_test_id("taps-not-put-back")).to_have_count(0)


@pytest.mark.parametrize("offline", [False, True], ids=["online", "offline"])
def test_taps_on_a_hand_another_phone_recorded_meanwhile_are_not_put_on_the_next(
    kept_phone: Scorer, offline: bool
) -> None:
    """Hand 2 half tapped; the other phone records hand 2; the page opened again shows hand 2
    on the sheet and hand 3's form empty, saying that the taps made for hand 2, and what they
    were, were not put back (it said only "The taps made on this phone for hand 2"), never on
    hand 3. Without a connection the phone knows of no hand 2 (its kept page is
    from before the other phone's): the taps go back on its hand 2, as kept."""
    scorer, page = kept_phone, kept_phone.page
    game = begin_hand_2(scorer)
    play_plain_hands(game, 1)  # the other phone at the table records hand 2

    reopen(page, game, offline=offline)
    if offline:
        assert page.evaluate(FORM_ANSWERS)["cards"] == "5C KD"
        return
    expect(page.locator("#hand-2")).to_have_count(1)
    note = page.get_by_test_id("taps-not-put-back")
    # What the taps were, in the page's words: they were for a hand that is gone.
    expect(note).to_have_text(
        f"Your taps for hand 2 (5♣ K♦ turned up, High to {PATEL}, Low to {SMITH}, 1 penalty "
        "called) were not put back: hand 2 was recorded meanwhile. The form is for hand 3."
    )
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 3)
    expect(page.get_by_test_id("called-penalties")).to_have_text("")
    wait_for_taps_kept(page)  # none

    # Gone for good: the next reload says nothing of them, and hand 3 records as tapped.
    reopen(page, game, offline=False)
    expect(page.locator("#hand-2")).to_have_count(1)
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("taps-not-put-back")).to_have_count(0)
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 3)
    scorer.play(3, card="9S", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    assert game.hands.count() == 3


def test_the_taps_kept_do_not_outlive_an_undo(kept_phone: Scorer) -> None:
    """Hand 3 half tapped, then hand 2 undone (the form is hand 2's again, fresh): the taps kept
    for hand 3 go, and the page opened again does not put them on hand 2."""
    scorer, page = kept_phone, kept_phone.page
    game = begin_hand_2(scorer)
    scorer.tap(page.get_by_role("button", name="Rank 7", exact=True))
    scorer.choose(JACK, NOT_OUT)
    scorer.pending_game = PATEL
    scorer.record()
    expect(page.get_by_text("Hand 2 recorded.")).to_be_visible()
    scorer.card("7S")
    scorer.choose(HIGH, SMITH)
    scorer.tap(page.get_by_role("button", name="Rank 7", exact=True))
    wait_for_taps_kept(page, "3:7")
    scorer.undo(2)
    expect(page.locator("#hand-2")).to_have_count(0)
    wait_for_taps_kept(page)  # none

    reopen(page, game, offline=False)
    page.wait_for_timeout(300)
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 2)
    expect(page.get_by_test_id("taps-not-put-back")).to_have_count(0)


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


def keep_hand_2_to_send(scorer: Scorer) -> tuple[Game, Sends]:
    """A game to 200 opened for offline use, hand 1 recorded online, hand 2 kept with no
    connection; its send held (`Sends`) once the connection is back."""
    game = GameFactory(trinidad=True, overrides={"target": 200})
    open_for_offline(scorer, game)
    scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    scorer.page.wait_for_function(KEPT)
    scorer.page.context.set_offline(True)
    scorer.enter(card="5C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    keep(scorer, 2)
    return game, Sends(scorer, game)


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
    scorer, page = kept_phone, kept_phone.page
    game, sends = keep_hand_2_to_send(scorer)
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


def test_the_game_asked_for_as_a_fix_is_kept_does_not_take_the_fix_away(
    kept_phone: Scorer,
) -> None:
    """Hand 2 kept with no connection and sent once it is back; its answer in, the phone asks
    the server for its game, and the scorer keeps a Fix of hand 2 before the game comes: the
    server's game, from before the Fix, was shown over it, and the score bar's line saying the
    correction was kept went. The game asked for before the Fix is not shown: the line stays
    while the correction goes, and the correction is recorded."""
    scorer, page = kept_phone, kept_phone.page
    game, sends = keep_hand_2_to_send(scorer)
    game_url = f"{scorer.base_url}{game.get_absolute_url()}"
    asked: list[Route] = []
    page.context.route(game_url, lambda route: asked.append(route))
    # Counts the pages the phone has read (the server's game it asked for).
    page.evaluate(
        """() => {
          window.pagesRead = 0;
          const text = Response.prototype.text;
          Response.prototype.text = function () {
            return text.call(this).then((html) => { window.pagesRead += 1; return html; });
          };
        }"""
    )
    page.context.set_offline(False)
    wait_until(page, lambda: bool(sends.held))
    scorer.tap(page.get_by_test_id("correct-2"))
    scorer.choose(LOW, SMITH)
    sends.let_one_go()
    expect(page.get_by_test_id("unsent-2")).to_have_count(0)
    wait_until(page, lambda: bool(asked))
    assert asked, "the phone did not ask for the server's game"
    scorer.tap(page.get_by_role("button", name="Record hand", exact=True))
    notice = page.get_by_test_id("game-notice")
    expect(notice).to_have_text("The correction of hand 2 kept on this phone: sending it now.")
    page.context.unroute(game_url)
    asked.pop().continue_()
    page.wait_for_function("() => window.pagesRead === 1")
    expect(notice).to_have_text("The correction of hand 2 kept on this phone: sending it now.")
    expect(unsent(page)).to_have_text("1 change not sent yet.")
    sends.let_all_go()
    expect(unsent(page)).to_have_count(0)
    wait_until(page, lambda: Hand.objects.get(game=game, number=2).facts["low"] == "A")
    assert Hand.objects.get(game=game, number=2).facts["low"] == "A"
    expect(scorer.sheet_row(2)).to_contain_text(f"{SMITH} low +1")


def test_taps_on_the_next_hand_survive_a_correction_of_an_earlier_one(kept_phone: Scorer) -> None:
    """Hand 2 half tapped, then hand 1 fixed (Fix on its row, online) and saved: hand 2's form
    came back empty, and its kept taps were gone for good (opening the correction dropped them,
    the hand form being set aside). The taps stay, come back on the fresh form the correction's
    answer brings, and after a reload too."""
    scorer, page = kept_phone, kept_phone.page
    game = begin_hand_2(scorer)
    before = page.evaluate(FORM_ANSWERS)

    scorer.tap(page.locator("#hand-1 a.fix"))
    correct = page.locator("#correct-form")
    expect(correct).to_be_visible()
    scorer.tap(correct.get_by_role("group", name=LOW, exact=True).get_by_role("radio", name=PATEL))
    scorer.tap(correct.get_by_role("button", name="Save correction", exact=True))
    expect(page.get_by_text("Hand 1 corrected")).to_be_visible()
    wait_until(page, lambda: Hand.objects.get(game=game, number=1).facts["low"] == "B")
    page.wait_for_function("() => document.getElementById('hand-form') !== null")
    expect(page.get_by_test_id("called-penalties")).to_contain_text("renege")
    assert page.evaluate(FORM_ANSWERS) == before
    wait_for_taps_kept(page, "2:7")

    reopen(page, game, offline=False)
    expect(page.get_by_test_id("called-penalties")).to_contain_text("renege")
    assert page.evaluate(FORM_ANSWERS) == before


def test_taps_on_the_next_hand_come_back_after_a_correction_kept_offline(
    kept_phone: Scorer,
) -> None:
    """Hand 2 half tapped, then, with no connection, hand 1 fixed (Fix on its row: the hand
    form shows hand 1) and the correction kept: hand 2's form came back empty, its taps back
    only once the page was opened again. They come back straight away, as after a Fix online,
    and the correction is sent once the connection is back."""
    scorer, page = kept_phone, kept_phone.page
    game = begin_hand_2(scorer)
    before = page.evaluate(FORM_ANSWERS)
    seen = page.evaluate(SEEN)

    page.context.set_offline(True)
    scorer.tap(page.locator("#hand-1 a.fix"))
    expect(page.get_by_test_id("offline-correcting")).to_contain_text("Correcting hand 1")
    scorer.choose(LOW, PATEL)
    scorer.tap(page.get_by_role("button", name="Record hand", exact=True))
    expect(page.get_by_test_id("game-notice")).to_have_text(
        "The correction of hand 1 kept on this phone: sent when the connection is back."
    )
    expect(page.get_by_test_id("called-penalties")).to_contain_text("renege")
    assert page.evaluate(FORM_ANSWERS) == before
    assert page.evaluate(SEEN) == seen
    expect(page.get_by_test_id("hand-preview")).to_contain_text(f"{PATEL} high +1")
    wait_for_taps_kept(page, "2:7")

    page.context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    wait_until(page, lambda: Hand.objects.get(game=game, number=1).facts["low"] == "B")
    assert Hand.objects.get(game=game, number=1).facts["low"] == "B"
    assert page.evaluate(FORM_ANSWERS) == before
