"""The blank score cards printed from Chromium: one A4 page a card, the league night's cards one
after the other, a Trinidad match of twelve tables still on one page; the Print button opens the
browser's print; on a phone the card's tables scroll inside it, not the page."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page
from pypdf import PdfReader

from leagues.formats import TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.models import Fixture
from leagues.services.seating import table_seat
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import entered_teams, squad
from tests.test_browser_pages import sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A4 portrait in PDF points (210 × 297 mm).
A4 = (595.3, 841.9)
MM = 96 / 25.4
#: The page's printable height (A4 less the card sheet's 10 mm margins), in CSS pixels.
PRINTABLE = 277 * MM


def _pdf(page: Page) -> PdfReader:
    return PdfReader(io.BytesIO(page.pdf(format="A4", prefer_css_page_size=True)))


def _text(reader: PdfReader, number: int) -> str:
    return " ".join(reader.pages[number].extract_text().split())


def _night(style: str, tables: int, fixtures: int) -> tuple[Any, list[Fixture]]:
    if style == "yorkshire":
        league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=tables).to_spec())
    else:
        league = LeagueFactory(
            trinidad=True, match_format=TRINIDAD_FORMAT.with_options(tables=tables).to_spec()
        )
    division = DivisionFactory(season__league=league, name="Premier Division")
    names = [f"{side} {n}" for n in range(fixtures) for side in ("Black Bull", "Old Hall")]
    teams = entered_teams(division, names, players=2 * tables)
    made = [
        FixtureFactory(division=division, home=teams[2 * n], away=teams[2 * n + 1])
        for n in range(fixtures)
    ]
    return league, made


def test_a_league_nights_cards_print_one_a4_page_each(phone: Page, live_server: Any) -> None:
    """Three matches: three A4 pages, each its own match's card, the pairs seated already
    printed on it; under print media no card is taller than the page."""
    league, fixtures = _night("yorkshire", 4, 3)
    seated = fixtures[1]
    home = squad(seated.home, seated.division.season)
    table_seat(fixture=seated, board=1, home=home[:2], by=None)
    url = reverse("leagues:night_blank_cards", args=[league.slug, fixtures[0].date.isoformat()])
    phone.goto(live_server.url + url)
    reader = _pdf(phone)
    assert len(reader.pages) == 3
    for number, fixture in enumerate(fixtures):
        box = reader.pages[number].mediabox
        assert abs(float(box.width) - A4[0]) < 1 and abs(float(box.height) - A4[1]) < 1, box
        text = _text(reader, number)
        assert f"HOME {fixture.home.name} v AWAY {fixture.away.name}" in text
        assert "Signed for" in text and "Match points" in text
        # Nothing of the site around it: no header, crumbs or Print button.
        assert "All Fours scorekeeping" not in text and "Print" not in text
    assert home[0].name in _text(reader, 1) and home[0].name not in _text(reader, 0)
    phone.emulate_media(media="print")
    heights = phone.locator(".blank-card").evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect().height)"
    )
    assert len(heights) == 3 and max(heights) < PRINTABLE, heights


def test_a_trinidad_match_of_twelve_tables_prints_on_one_page(phone: Page, live_server: Any):
    """Twelve tables of two games each (five figures a side a table): still one page, every
    table on it."""
    _, (fixture,) = _night("trinidad", 12, 1)
    phone.goto(live_server.url + reverse("leagues:fixture_blank_card", args=[fixture.pk]))
    reader = _pdf(phone)
    assert len(reader.pages) == 1
    text = _text(reader, 0)
    assert "Game 1 Game 2 Games won Hang jacks Match points" in text
    assert re.search(r"\b12\b", text) and "League points" in text


def test_the_print_button_prints_and_the_tables_scroll_inside_the_card_on_a_phone(
    phone: Page, live_server: Any
) -> None:
    _, (fixture,) = _night("trinidad", 6, 1)
    phone.add_init_script("window.print = () => { window.printed = true; };")
    phone.goto(live_server.url + reverse("leagues:fixture_blank_card", args=[fixture.pk]))
    print_button = phone.get_by_test_id("print")
    assert print_button.is_visible()
    print_button.tap()
    assert phone.evaluate("window.printed === true")
    # The page itself does not scroll sideways: the wide tables do, inside their region.
    assert sideways(phone) <= 0
    region = phone.locator(".blank-card-scroll")
    assert region.evaluate("r => r.scrollWidth > r.clientWidth")
    # A shadow on the edge with more table beyond it says the tables go on (the tester saw
    # the Pegs and Match points boxes sitting out of sight with nothing to show they were
    # there): the right edge is drawn differently with the box's shadows than without them,
    # until it is scrolled to that end.
    region.scroll_into_view_if_needed()
    box = region.bounding_box()
    edge = {"x": box["x"] + box["width"] - 6, "y": box["y"] + box["height"] / 2, "width": 5}
    edge["height"] = 20

    def right_edge(shadows: bool) -> bytes:
        region.evaluate("(r, on) => r.style.background = on ? '' : 'none'", shadows)
        return phone.screenshot(clip=edge)

    assert right_edge(True) != right_edge(False)
    region.evaluate("r => r.scrollLeft = r.scrollWidth")
    assert right_edge(True) == right_edge(False)
