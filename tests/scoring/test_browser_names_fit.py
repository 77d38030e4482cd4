"""A side's name on the hand form's buttons, at 390 and 360 pixels wide, in headless Chromium:
it breaks only between words ("Black Bull / A", never "Woolpac / k"), on the hand form and on
the correction form that opens in its place (narrower: it sits in a panel), and no button
reaches past the screen's edge. The form's questions ("Jack of trumps", "Low (held by)") keep
their words whole too, at 320 and 390 pixels, and the card keys are a finger's size (44×44 px).
A Trinidad league table's score sheet, its sides teams with long words in their names, shows
both sides' running totals at 320, 360 and 390 px, not past the edge of a table scrolled
sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.factories.scoring import GameFactory, record_hands
from tests.scoring.test_browser import BROKEN_WORDS, NOT_OUT, Scorer
from tests.scoring.test_browser_offline import keep, open_for_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: For each element shown in ``selector`` (a button, a question's legend): its words split over
#: lines (a word's pieces' boxes on more than one line), its text and its right edge.
SHOWN_WORDS = """selector => [...document.querySelectorAll(selector)]
  .filter(el => el.offsetParent !== null)
  .map(el => {
    const split = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()]
          .filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
    return {text: el.textContent.trim().replace(/\\s+/g, " "), split,
      right: el.getBoundingClientRect().right};
  })"""


@pytest.fixture(params=[390, 360], ids=["390", "360"])
def narrow_phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": request.param, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _words_whole(page: Page, selector: str) -> None:
    width = page.viewport_size["width"]
    buttons = page.evaluate(SHOWN_WORDS, selector)
    assert any(button["text"] == "Woolpack" for button in buttons), buttons
    split = [(button["text"], button["split"]) for button in buttons if button["split"]]
    assert split == [], f"a name broken inside a word at {width}px"
    beyond = [button["text"] for button in buttons if button["right"] > width]
    assert beyond == [], f"past the screen's edge at {width}px"
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_names_on_the_hand_and_correction_forms_break_only_between_words(
    narrow_phone: Page, live_server: Any
) -> None:
    game = GameFactory(
        west_yorkshire=True,
        side_names=("Woolpack", "Black Bull A"),
        players=(("Keith Lockwood", "Brian Bottomley"), ("Roy Stead", "Albert Lockwood")),
        hands=2,
    )
    page = narrow_phone
    page.goto(live_server.url + game.scoring_link.get_absolute_url())  # its QR code
    _words_whole(page, "#entry .tap")

    page.get_by_role("link", name="Fix hand 1").tap()
    expect(page.get_by_test_id("correct-form")).to_be_visible()
    _words_whole(page, "#correction .tap")


def test_a_league_tables_game_title_shows_its_table_and_game_on_the_score_bar(
    narrow_phone: Page, live_server: Any
) -> None:
    """The score bar's title ends in which table and game it is: on a phone that shows (the
    title on up to two lines, the ruleset after it cut first), not "Coffee Street Kings v
    Smokey's Jokers, t…"."""
    game = GameFactory(
        trinidad=True, title="Coffee Street Kings v Smokey's Jokers, table 2, game 1"
    )
    page = narrow_phone
    page.goto(live_server.url + game.scoring_link.get_absolute_url())
    title = page.locator(".game-title")
    expect(title).to_contain_text("table 2, game 1")
    # Where the words end up: inside the title's box (the ruleset after them may be cut).
    shown = title.evaluate(
        """el => {
            const text = el.firstChild;
            const at = text.data.indexOf("table 2, game 1");
            const range = document.createRange();
            range.setStart(text, at);
            range.setEnd(text, at + "table 2, game 1".length);
            const box = el.getBoundingClientRect();
            return [...range.getClientRects()].every(
              r => r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5);
        }"""
    )
    assert shown


@pytest.mark.parametrize("narrow_phone", [320, 390], ids=["320", "390"], indirect=True)
@pytest.mark.parametrize("variant", ["trinidad", "lancashire"])
def test_the_hand_forms_questions_show_whole_words(
    narrow_phone: Page, live_server: Any, variant: str
) -> None:
    """Every question of the hand form (High, Low (held by), Jack of trumps, Game, Dealer, Beg,
    Outcome, Turned up) shows its words whole on a 320 and a 390 px phone, on the hand form and
    on the correction form that opens in its place: "Jack of trumps", never "Jack of trump / s"
    (the page breaks a long name inside a word where it must; a question never needs to)."""
    game = GameFactory(variant=variant, hands=1)
    page = narrow_phone
    width = page.viewport_size["width"]
    page.goto(live_server.url + game.scoring_link.get_absolute_url())
    page.get_by_test_id("more-toggle").tap()
    legends = page.evaluate(SHOWN_WORDS, "#hand-form legend")
    shown = {legend["text"].split(" ·")[0] for legend in legends}
    asked = {"High", "Jack of trumps", "Game (most card points)", "Dealer", "Outcome"}
    assert asked <= shown, shown
    assert ("Low (captured by)" if variant == "lancashire" else "Low (held by)") in shown
    if variant == "trinidad":
        assert {"Turned up", "Beg"} <= shown, shown
    split = [(legend["text"], legend["split"]) for legend in legends if legend["split"]]
    assert split == [], f"a question broken inside a word at {width}px"

    page.get_by_test_id("correct-1").tap()
    expect(page.get_by_test_id("correct-form")).to_be_visible()
    page.locator("#correction [data-testid=more-toggle]").tap()
    legends = page.evaluate(SHOWN_WORDS, "#correction legend")
    assert len(legends) >= 5, legends
    split = [(legend["text"], legend["split"]) for legend in legends if legend["split"]]
    assert split == [], f"a correction's question broken inside a word at {width}px"
    assert page.evaluate("document.documentElement.scrollWidth") <= width


#: Each card key shown in ``selector`` (a rank, ⌫, a suit): its words and its size.
KEY_SIZES = """selector => [...document.querySelectorAll(selector)]
  .filter(el => el.offsetParent !== null)
  .map(el => {
    const box = el.getBoundingClientRect();
    return {key: el.textContent.trim(), width: box.width, height: box.height, right: box.right};
  })"""


def _keys_a_finger_wide(page: Page, selector: str) -> None:
    width = page.viewport_size["width"]
    keys = page.evaluate(KEY_SIZES, selector)
    assert len(keys) == 18, keys  # 13 ranks, ⌫ and 4 suits
    small = [
        (k["key"], round(k["width"]), round(k["height"]))
        for k in keys
        if min(k["width"], k["height"]) < 44
    ]
    assert small == [], f"card keys under 44×44 px at {width}px"
    assert [k["key"] for k in keys if k["right"] > width] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("narrow_phone", [320, 390], ids=["320", "390"], indirect=True)
def test_the_card_keys_are_a_fingers_size_on_the_narrowest_phone(
    narrow_phone: Page, live_server: Any
) -> None:
    """The card keys (the ranks, ⌫ and the suits that pick the cards turned up) are 44×44 px
    targets at least, on the hand form and on the correction form that opens in its place, at
    320 and 390 px, with nothing past the screen's edge: at 320 px they were 38×44, seven to
    a row."""
    game = GameFactory(trinidad=True, hands=1)
    page = narrow_phone
    page.goto(live_server.url + game.scoring_link.get_absolute_url())
    _keys_a_finger_wide(page, "#hand-form [data-testid=card-picker] button")

    page.get_by_test_id("correct-1").tap()
    expect(page.get_by_test_id("correct-form")).to_be_visible()
    _keys_a_finger_wide(page, "#correction [data-testid=card-picker] button")


#: How far the score sheet's table reaches past its box, and how far each running total's right
#: edge does.
SHEET_PAST_ITS_BOX = """() => {
  const box = document.querySelector('#score-sheet .table-wrap');
  const edge = box.getBoundingClientRect().right;
  return {
    sideways: box.scrollWidth - box.clientWidth,
    past: [...document.querySelectorAll('#sheet-rows td.total')]
      .map((cell) => Math.round(cell.getBoundingClientRect().right - edge))
      .filter((past) => past > 0),
  };
}"""


def _sheet_fits(page: Page) -> None:
    width = page.viewport_size["width"]
    seen = page.evaluate(SHEET_PAST_ITS_BOX)
    assert seen == {"sideways": 0, "past": []}, f"a running total off the screen at {width}px"
    for label in "AB":
        assert page.get_by_test_id(f"sheet-head-{label}").evaluate(BROKEN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("narrow_phone", [320, 360, 390], ids=["320", "360", "390"], indirect=True)
def test_a_trinidad_sheet_shows_both_sides_totals_on_a_narrow_phone(
    narrow_phone: Page, live_server: Any
) -> None:
    """ "St James Bullseyes" and "Laventille Hang Jack": each name's longest word held its
    column wide, and at 320 px the second side's total was off the screen (the sheet 56 px
    wider than its box), at 360 px too. The sheet the server draws, and the one the phone draws
    with a hand kept on it offline."""
    bullseyes, hang_jack = "St James Bullseyes", "Laventille Hang Jack"
    game = GameFactory(
        trinidad=True,
        side_names=(bullseyes, hang_jack),
        players=(("Ann Lee", "Bob Roy"), ("Cy Dee", "Di Eve")),
    )
    record_hands(
        game,
        [
            {"dealer": "A", "turn_ups": ["9D"], "beg": "stand", "high": "A", "low": "B",
             "jack": {"held_by": "B", "won_by": "A"}, "game": {"A": 20, "B": 30}},
            {"dealer": "B", "turn_ups": ["4S"], "beg": "take_one", "high": "B", "low": "A",
             "jack": None, "game": {"A": 30, "B": 20}},
        ],
    )  # fmt: skip
    page = narrow_phone
    scorer = Scorer(page, live_server.url)
    open_for_offline(scorer, game)  # the scorer's page: a Fix link beside each hand
    _sheet_fits(page)

    page.context.set_offline(True)
    scorer.card("5H")
    scorer.enter(high=bullseyes, low=hang_jack, jack=NOT_OUT, game=hang_jack)
    keep(scorer, 3)
    _sheet_fits(page)


@pytest.mark.parametrize("narrow_phone", [320], ids=["320"], indirect=True)
def test_long_one_word_names_end_in_an_ellipsis_never_broken_on_the_narrowest_phone(
    narrow_phone: Page, live_server: Any
) -> None:
    """ "Heckmondwike" and "Cleckheaton" at 320 px: the score bar read "Heckmond / wike" and
    "Cleckheato / n", the sheet's heads "Heck / mond / wike", and the second side's running
    total was off the screen (its table 26 px wider than its box). A name too wide for its box
    ends in an ellipsis, the whole name still its text and its title; the hand's words on the
    sheet stay whole; nothing is wider than the screen."""
    game = GameFactory(
        trinidad=True,
        side_names=("Heckmondwike", "Cleckheaton"),
        players=(("Ann Lee", "Bob Roy"), ("Cy Dee", "Di Eve")),
    )
    record_hands(
        game,
        [{"dealer": "A", "turn_ups": ["9D"], "beg": "stand", "high": "A", "low": "B",
          "jack": {"held_by": "B", "won_by": "A"}, "game": {"A": 20, "B": 30}}],
    )  # fmt: skip
    page = narrow_phone
    page.goto(live_server.url + game.scoring_link.get_absolute_url())
    for selector in ("#scoreboard .score-name", ".sheet-table thead th[title]"):
        names = page.evaluate(SHOWN_WORDS, selector)
        assert [name["text"] for name in names] == ["Heckmondwike", "Cleckheaton"], names
        assert [name["split"] for name in names] == [[], []], f"a name broken in {selector}"
        assert page.evaluate(
            "s => [...document.querySelectorAll(s)].map(el => el.title)", selector
        ) == ["Heckmondwike", "Cleckheaton"]
    cells = page.evaluate(SHOWN_WORDS, "#sheet-rows td.hand")
    assert [cell["split"] for cell in cells] == [[]], cells
    _sheet_fits(page)


#: The card points ("20-30") of each award that shows some, split over two lines.
CARD_POINTS_SPLIT = """() => [...document.querySelectorAll('#sheet-rows .award')].flatMap(el => {
  const text = el.textContent, split = [];
  for (const m of text.matchAll(/\\d+[-–]\\d+/g)) {
    const range = document.createRange();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let at = 0, node;
    while ((node = walker.nextNode())) {
      const end = at + node.data.length;
      if (at <= m.index && m.index < end) range.setStart(node, m.index - at);
      if (at < m.index + m[0].length && m.index + m[0].length <= end) {
        range.setEnd(node, m.index + m[0].length - at);
      }
      at = end;
    }
    const lines = new Set([...range.getClientRects()]
      .filter(r => r.width > 0).map(r => Math.round(r.top)));
    if (lines.size > 1) split.push(text);
  }
  return split;
})"""


@pytest.mark.parametrize(
    ("narrow_phone", "names"),
    [(320, ("Reds", "Blues")), (360, ("Woolpack", "Black Bull A"))],
    ids=["320", "360"],
    indirect=["narrow_phone"],
)
def test_a_game_points_card_points_stay_on_one_line(
    narrow_phone: Page, live_server: Any, names: tuple[str, str]
) -> None:
    """ "Blues game 20-30 +1" at 320 px (and "Black Bull A game 20-30 +1" at 360) read
    "Blues game 20-" over "30 +1": the card points stay on one line, on the sheet the server
    draws and on the one the phone draws with a hand kept on it offline, their text unchanged
    ("20-30", as a screen reader reads it and a copy takes it)."""
    game = GameFactory(
        trinidad=True, side_names=names, players=(("Ann Lee", "Bob Roy"), ("Cy Dee", "Di Eve"))
    )
    record_hands(
        game,
        [
            {"dealer": "A", "turn_ups": ["9D"], "beg": "stand", "high": "A", "low": "B",
             "jack": None, "game": {"A": 20, "B": 30}},
            {"dealer": "B", "turn_ups": ["9C"], "beg": "stand", "high": "A", "low": "B",
             "jack": None, "game": {"A": 42, "B": 38}},
        ],
    )  # fmt: skip
    page = narrow_phone
    scorer = Scorer(page, live_server.url)
    open_for_offline(scorer, game)
    game_points = page.locator("#sheet-rows .award", has_text="game")
    expect(game_points).to_have_text([f"{names[1]} game 20-30 +1", f"{names[0]} game 42-38 +1"])
    assert page.evaluate(CARD_POINTS_SPLIT) == []

    page.context.set_offline(True)
    scorer.card("5H")
    scorer.enter(high=names[0], low=names[1], jack=NOT_OUT, game=names[1])
    keep(scorer, 3)
    expect(game_points.first).to_have_text(f"{names[1]} game 20-30 +1")
    assert page.evaluate(CARD_POINTS_SPLIT) == []
