"""What matters in view once a game is won, in headless Chromium at 390×844: the line saying who
won, below the sticky score bar, after the winning hand and after a correction that changes who
won (the page had been scrolled down to the penalties, or to the correction); a hand the other
phone's winning hand beat to the server kept beside it; and no old notice brought back by a
reload without a connection."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Game, GameStatus, Hand, HandRevision, RevisionAction
from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import GAME, HIGH, NOT_OUT, Scorer
from tests.scoring.test_browser_first_key import once_below_the_bar
from tests.scoring.test_browser_offline import keep, offline_scorer, open_for_offline, unsent
from tests.scoring.test_browser_two_phones import phones

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

scorer = offline_scorer  # one phone at 390×844
table = phones  # two phones at one table, each its own browser

BLUES, REDS = "Blues", "Reds"

#: Where the winner line is, against the score bar's bottom and the screen's.
WINNER_LINE = """() => {
  const line = document.querySelector("#winner-banner h2");
  const bar = document.getElementById("scoreboard").getBoundingClientRect();
  const place = line.getBoundingClientRect();
  return {text: line.textContent.trim(), top: place.top, bottom: place.bottom, bar: bar.bottom,
          screen: innerHeight, scrolled: scrollY};
}"""


def winner_line_in_view(page: Page, winner: str, says: str) -> None:
    """The line says who won (`winner`, their players named after them) and how, fully in view
    below the score bar."""
    line = page.get_by_test_id("winner-banner").get_by_role("heading")
    expect(line).to_contain_text(re.compile(rf"^{winner} \(.*\) {says}"))
    where = once_below_the_bar(page, WINNER_LINE)
    assert where["top"] >= where["bar"] - 1 and where["bottom"] <= where["screen"], where


def blues_and_reds(**kwargs: object) -> Game:
    return GameFactory(trinidad=True, side_names=(BLUES, REDS), **kwargs)


def to_three(scorer: Scorer) -> Page:
    """A Trinidad game of Blues and Reds to 3, opened on the scorer's phone."""
    scorer.scan(blues_and_reds(overrides={"target": 3}))
    return scorer.page


def test_the_winner_line_is_in_view_after_a_winning_hand_with_penalties_open(
    scorer: Scorer,
) -> None:
    """Penalties opened (the page scrolled down to them): the line sat 30 px under the bar."""
    page = to_three(scorer)
    scorer.card("7S")
    scorer.tap(page.get_by_test_id("penalties-toggle"))
    page.get_by_label(f"Points to {REDS}").fill("1")
    scorer.tap(page.locator("[data-penalty='points:B']"))
    scorer.enter(high=REDS, low=REDS, jack=NOT_OUT, game=REDS)
    scorer.record()
    winner_line_in_view(page, REDS, "won 3–0 on hand 1 with low")


def correct(scorer: Scorer, fix: Locator, high: str | None = None, game: str = REDS) -> None:
    """Open a hand's correction with `fix`, change who held high, save it with a game button."""
    page = scorer.page
    scorer.tap(fix)
    correcting = page.get_by_test_id("correcting")
    expect(correcting).to_be_visible()
    if high:
        correcting.get_by_role("group", name=HIGH, exact=True).get_by_role(
            "radio", name=high, exact=True
        ).tap()
    with page.expect_response(lambda r: r.request.method == "POST"):
        correcting.get_by_role("group", name=GAME, exact=True).get_by_role(
            "button", name=game, exact=True
        ).tap()
    scorer.settled()


def test_the_winner_line_is_in_view_after_a_correction_that_changes_who_won(
    scorer: Scorer,
) -> None:
    """The page was left at the chart and the QR code, the new winner line far above."""
    page = to_three(scorer)
    scorer.play(1, card="7S", high=REDS, low=BLUES, jack=NOT_OUT, game=BLUES)
    scorer.enter(card="7H", high=REDS, low=REDS, jack=NOT_OUT, game=REDS)
    scorer.record()
    winner_line_in_view(page, REDS, "won 3–2 on hand 2 with low")

    # Fix on the score bar: Blues held high, and so reached 3 first.
    correct(scorer, page.get_by_test_id("fix-last"), high=BLUES)
    expect(page.get_by_test_id("game-notice")).to_have_text(
        "Hand 2 corrected; the game was re-scored."
    )
    scorer.expect_scores(3, 1)
    winner_line_in_view(page, BLUES, "won 3–1 on hand 2 with high")

    # A row's Fix, further down: hand 1's game was Reds', who then reach 3 first on hand 2.
    correct(scorer, scorer.sheet_row(1).get_by_role("link", name="Fix"), game=REDS)
    expect(page.get_by_test_id("game-notice")).to_have_text(
        "Hand 1 corrected; the game was re-scored."
    )
    winner_line_in_view(page, REDS, "won 3–2 on hand 2 with low")


def test_a_hand_beaten_to_the_server_by_the_winning_hand_is_kept_beside_it(
    table: tuple[Scorer, Scorer],
) -> None:
    """Phone B's hand 1 won the game; phone A's own hand 1, sent after, was thrown away ("The
    game is already won (on hand 1) ... Nothing was saved.") with no choice. It is kept beside
    theirs: keep theirs, or replace theirs with it (a correction: the game back in play); no
    "add mine after" once the game is won."""
    a, b = table
    game = blues_and_reds(start_scores={"A": 11, "B": 8})
    open_for_offline(a, game)
    b.scan(game)
    b.play(1, card="4C", high=BLUES, low=BLUES, jack=NOT_OUT, game=BLUES)
    expect(b.page.get_by_test_id("winner-banner")).to_contain_text("won 14–8")

    a.enter(card="4D", high=REDS, low=REDS, jack=NOT_OUT, game=REDS)
    response = a.record()
    assert response is not None and response.status == 409
    page = a.page
    kept = page.get_by_test_id("kept-1")
    expect(kept).to_contain_text("4♣")  # theirs
    expect(kept).to_contain_text("4♦")  # mine, as tapped
    expect(page.get_by_test_id("keep-theirs-1")).to_be_visible()
    expect(page.get_by_test_id("add-after-1")).to_have_count(0)
    expect(page.get_by_test_id("winner-banner")).to_contain_text("won 14–8")

    page.get_by_test_id("replace-theirs-1").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("winner-banner")).to_have_count(0)
    a.expect_scores(11, 11)
    hand = Hand.objects.get(game=game, number=1)
    assert (hand.facts["turn_ups"], hand.revision) == (["4D"], 1)
    assert HandRevision.objects.filter(game=game, action=RevisionAction.CORRECT).count() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS


def test_a_hand_kept_offline_where_the_other_phone_won_offers_no_hand_after(
    table: tuple[Scorer, Scorer],
) -> None:
    """The same, with the hand kept without a connection: no hand can follow a game won."""
    a, b = table
    game = blues_and_reds(start_scores={"A": 11, "B": 8})
    open_for_offline(a, game)
    b.scan(game)
    a.page.context.set_offline(True)
    a.enter(card="4D", high=REDS, low=REDS, jack=NOT_OUT, game=REDS)
    keep(a, 1)
    b.play(1, card="4C", high=BLUES, low=BLUES, jack=NOT_OUT, game=BLUES)
    a.page.context.set_offline(False)

    page = a.page
    expect(page.get_by_test_id("kept-1")).to_contain_text("both phones recorded it, differently")
    expect(page.get_by_test_id("winner-banner")).to_contain_text("won 14–8")
    expect(page.get_by_test_id("replace-theirs-1")).to_be_visible()
    expect(page.get_by_test_id("add-after-1")).to_have_count(0)
    page.get_by_test_id("keep-theirs-1").tap()
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    assert Hand.objects.get(game=game, number=1).facts["turn_ups"] == ["4C"]
    assert Hand.objects.filter(game=game).count() == 1


def test_a_reload_without_a_connection_brings_back_no_old_notice(scorer: Scorer) -> None:
    """Hand 1 recorded online, hands 2 and 3 kept offline, the page reloaded: the score bar
    said "Hand 1 recorded." again (the reply's notice, kept with the page)."""
    game = blues_and_reds()
    page = scorer.page
    open_for_offline(scorer, game)
    scorer.play(1, card="4H", high=BLUES, low=REDS, jack=NOT_OUT, game=BLUES)
    page.context.set_offline(True)
    scorer.enter(card="5S", high=REDS, low=BLUES, jack=NOT_OUT, game=REDS)
    keep(scorer, 2)
    scorer.enter(card="8C", high=BLUES, low=BLUES, jack=NOT_OUT, game=BLUES)
    keep(scorer, 3)

    page.reload()
    expect(unsent(page)).to_have_text("2 hands not sent yet.")
    expect(page.get_by_test_id("unsent-3")).to_have_text("not sent yet")
    scorer.expect_scores(6, 3)
    expect(page.get_by_test_id("game-notice")).to_have_count(0)
    assert page.get_by_text("Hand 1 recorded.").count() == 0
