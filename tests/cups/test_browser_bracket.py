"""The cup's bracket reads right at every width (headless Chromium): long team names and
scores, a round at a time on a phone and the whole bracket on a wide screen, with no score's box
over a name's and nothing wider than the screen except inside the bracket's own scrolling box.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from cups.models import Tie
from cups.services.ties import SETTLED
from tests.cups.helpers import drawn_cup_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (320, 360, 390, 768, 1280)

#: Long names of every kind: words that wrap, one long word that cannot, the widest letters.
NAMES = (
    "Heckmondwike and District Working Men's Club B",
    "Supercalifragilisticexpialidociousnessclubhouse",
    "WWWWWWW MMMMMMM WWWWWWW MMMMMMM WWWWWWW",
    "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
    "Black Bull",
    "The Royal Oak at Liversedge, Top Room",
    "Golden Fleece Pitchers",
    "Ye Olde Cock and Bottle Inn Dewsbury Moor",
)

#: Every name's box against every score's box, and every box against the viewport, in the
#: page: a box inside a deliberately scrolling box (``overflow-x: auto``) may pass the edge.
MEASURE = """() => {
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.getClientRects().length > 0;
  };
  const boxes = (selector) => [...document.querySelectorAll(selector)].filter(visible)
    .map((el) => {
      const r = el.getBoundingClientRect();
      let scrolls = false;
      for (let up = el.parentElement; up; up = up.parentElement) {
        const x = getComputedStyle(up).overflowX;
        if ((x === "auto" || x === "scroll") && up !== document.documentElement
            && up !== document.body) { scrolls = true; break; }
      }
      return {text: el.textContent.trim(), left: r.left + scrollX, right: r.right + scrollX,
              top: r.top + scrollY, bottom: r.bottom + scrollY, scrolls};
    });
  return {
    names: boxes("[data-bracket-name]"),
    scores: boxes("[data-bracket-score]"),
    width: document.documentElement.scrollWidth,
  };
}"""


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )


def _cup() -> Any:
    cup = drawn_cup_of(NAMES, name="Charity Shield")
    first = list(cup.ties.filter(round__number=1).order_by("position"))
    # Round one as a bracket shows it: won 12–10, a walkover, settled by the secretary (its
    # words under the names), and one to play; scores written as the services leave them.
    played = {"status": Tie.Status.PLAYED, "winner": Tie.Side.HOME}
    Tie.objects.filter(pk=first[0].pk).update(**played, home_score=12, away_score=10)
    Tie.objects.filter(pk=first[1].pk).update(status=Tie.Status.WALKOVER, winner="away")
    Tie.objects.filter(pk=first[2].pk).update(
        **played, home_score=14, away_score=14, decided_by=SETTLED
    )
    return cup


def test_no_score_over_a_name_and_nothing_wider_than_the_screen(
    live_server: Any, browser: Any
) -> None:
    cup = _cup()
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page: Page = context.new_page()
            page.goto(live_server.url + cup.get_absolute_url())
            found = page.evaluate(MEASURE)
            names, scores = found["names"], found["scores"]
            assert len(names) >= 8 and len(scores) >= 2, (width, found)
            assert any(score["text"] == "12" for score in scores), width
            over = [
                (name["text"], score["text"])
                for name in names
                for score in scores
                if _overlap(name, score)
            ]
            assert over == [], f"at {width} px a score is over a name: {over}"
            assert found["width"] <= width, f"the page is {found['width']} px wide at {width}"
            outside = [
                box["text"]
                for box in names + scores
                if not box["scrolls"] and (box["left"] < 0 or box["right"] > width + 0.5)
            ]
            assert outside == [], f"at {width} px past the screen's edge: {outside}"
            text = page.locator("main").inner_text()
            assert "settled by the secretary" in text and "on settled" not in text
        finally:
            context.close()
