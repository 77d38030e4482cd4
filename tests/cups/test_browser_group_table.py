"""A cup's group table fits a phone's screen (headless Chromium): at 320 px it scrolled sideways
(341 px wide) and its points column was cut off. Every column, points last, is on the screen
at every width, with long pub names and scores of two figures a side, each figure on one
line."""

from __future__ import annotations

from typing import Any

import pytest

from cups.models import Competition, Tie
from tests.cups.helpers import drawn_cup_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (320, 360, 390, 768)

#: The demo's names, and one long word that can only break anywhere.
NAMES = (
    "Shoulder of Mutton",
    "Golden Fleece A",
    "Woolpack",
    "Heckmondwikeworkingmensclub",
)

MEASURE = """() => {
  const cells = [...document.querySelectorAll(".group-table th, .group-table td")];
  return {
    width: document.documentElement.scrollWidth,
    right: Math.max(...cells.map((c) => c.getBoundingClientRect().right)),
    left: Math.min(...cells.map((c) => c.getBoundingClientRect().left)),
    points: [...document.querySelectorAll(".group-table th:last-child")].map((c) => c.textContent),
    // The lines each figure and heading takes: one ("38–34" not broken at its dash).
    lines: [...document.querySelectorAll(
      ".group-table th, .group-table td:not(:nth-child(2))"
    )].map((c) => {
      const range = document.createRange();
      range.selectNodeContents(c);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }),
  };
}"""


def _cup() -> Competition:
    cup = drawn_cup_of(
        NAMES, name="Groups Cup", format=Competition.Format.GROUPS, groups=1, qualifiers=2
    )
    # Every group tie played, won at home by two figures a side, as the services leave them.
    Tie.objects.filter(competition=cup).update(
        status=Tie.Status.PLAYED, winner=Tie.Side.HOME, home_score=38, away_score=34
    )
    return cup


def test_the_group_table_fits_the_screen_at_every_width(live_server: Any, browser: Any) -> None:
    cup = _cup()
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.goto(live_server.url + cup.get_absolute_url())
            found = page.evaluate(MEASURE)
            assert found["points"] == ["Pts"], found
            assert found["width"] <= width, f"the page is {found['width']} px wide at {width}"
            assert found["left"] >= 0 and found["right"] <= width + 0.5, (width, found)
            assert set(found["lines"]) == {1}, f"a figure wraps at {width} px: {found}"
        finally:
            context.close()
