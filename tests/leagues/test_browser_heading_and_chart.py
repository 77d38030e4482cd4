"""The fixture's heading and the standings' points chart on a phone (390×844)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.leagues.test_pages import build_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each team name's lines in the heading, as the phone lays them out: the width of each.
NAME_LINES = """() => [...document.querySelectorAll('.match-head a')].map((link) => {
  const words = document.createRange();
  words.selectNodeContents(link);
  const lines = new Map();
  for (const rect of words.getClientRects()) {
    if (rect.width < 1) continue;
    const top = Math.round(rect.top);
    lines.set(top, Math.max(lines.get(top) || 0, rect.width));
  }
  return [link.textContent.trim(), [...lines.values()]];
})"""


def test_a_fixtures_heading_wraps_evenly_on_a_phone(phone: Page, live_server: Any) -> None:
    """A long team name wrapped as one full line and a lone "FC" beneath it: its lines are
    now balanced, neither under two thirds of the other."""
    played = build_league(
        "yorkshire", ("Royal British Legion Club FC", "Old Hall", "Black Bull", "Crown")
    )
    phone.goto(live_server.url + played.fixture.get_absolute_url())
    names = dict(phone.evaluate(NAME_LINES))
    lines = names["Royal British Legion Club FC"]
    assert len(lines) == 2, names
    assert min(lines) >= max(lines) * 2 / 3, names


#: The drawn extent of the chart's lines and markers, and its dates, in the SVG's own units.
CHART_EXTENT = """() => {
  const svg = document.querySelector('svg.progression');
  const box = svg.viewBox.baseVal;
  const drawn = [...svg.querySelectorAll('polyline, use, text')].map((shape) => {
    const b = shape.getBBox();
    const pen = shape.tagName === 'text' ? 0 : parseFloat(shape.getAttribute('stroke-width')) / 2;
    return [b.x - pen, b.y - pen, b.x + b.width + pen, b.y + b.height + pen];
  });
  return {box: [box.x, box.y, box.width, box.height], drawn};
}"""


def test_the_charts_last_point_and_date_lie_inside_it_on_a_phone(
    phone: Page, live_server: Any
) -> None:
    """Every line, marker and date lies inside the drawing (a guard: the date under its tick
    is pinned in ``test_race_and_chart``)."""
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.division.get_absolute_url())
    extent = phone.evaluate(CHART_EXTENT)
    x, y, width, height = extent["box"]
    for left, top, right, bottom in extent["drawn"]:
        assert x <= left and right <= x + width, extent
        assert y <= top and bottom <= y + height, extent
