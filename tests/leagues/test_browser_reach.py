"""As a pub's website and as the secretary with a printer would, in headless Chromium:

- the embed page inside an iframe of a page served from another local origin, shown when the
  league lists that site and refused when it does not, readable in a 300 px frame;
- the fixture card, the season's fixture grid (12 teams) and the standings printed to PDF
  (``page.pdf``), every piece of text dark on white and the pages as expected.
"""

from __future__ import annotations

import datetime
import http.server
import threading
from collections.abc import Iterator
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from leagues.services.fixtures import fixtures_generate
from tests.factories.leagues import DivisionFactory, TeamEntryFactory
from tests.leagues.test_access import build

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: This helper's own port range for servers it starts (81N0-81N9 with N = 6).
PORTS = range(8160, 8170)


@pytest.fixture
def pub_site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A static website on a local port of its own (another origin than the app's)."""
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = None
    for port in PORTS:
        try:
            server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
            break
        except OSError:
            continue
    assert server is not None, "no free port in 8160-8169"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", tmp_path
    finally:
        server.shutdown()
        server.server_close()


def test_a_pub_website_shows_the_table_only_when_the_league_lists_it(
    live_server: Any, phone: Page, pub_site: tuple[str, Path]
) -> None:
    origin, folder = pub_site
    world = build(played=True)
    embed = f"{live_server.url}/leagues/division/{world.fixture.division_id}/embed/"
    (folder / "index.html").write_text(
        "<!doctype html><title>The Royal Oak</title><h1>Our league</h1>"
        f'<iframe id="table" src="{embed}" width="300" height="600"></iframe>'
    )
    statuses: dict[str, int] = {}
    phone.on("response", lambda r: statuses.update({r.url: r.status}) if "/embed/" in r.url else 0)

    # Not listed: the app refuses with a 403, and the frame shows the app's own words (no
    # table), not the browser's grey "refused to connect".
    phone.goto(origin + "/index.html")
    phone.wait_for_load_state("load")
    assert statuses[embed] == 403
    refused = phone.frame_locator("#table").get_by_test_id("embed-refused")
    expect(refused).to_contain_text(f"has not listed {origin}")
    assert "Black Bull" not in phone.frame_locator("#table").locator("body").inner_text()

    # Listed: the table appears in the frame, light and readable at 300 px.
    world.league.embed_sites = origin
    world.league.save()
    phone.goto(origin + "/index.html")
    frame = phone.frame_locator("#table")
    expect(frame.get_by_test_id("embed-standings")).to_contain_text("Black Bull")
    assert statuses[embed] == 200
    inner = next(f for f in phone.frames if f.url == embed)
    assert inner.evaluate("document.scripts.length") == 0
    assert inner.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    background = inner.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(255, 255, 255)"
    size = inner.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 14


def text_colours(pdf: bytes) -> tuple[PdfReader, list[tuple[float, ...]], str]:
    """The PDF, the fill colour in force at every piece of text it shows, and its text."""
    reader = PdfReader(BytesIO(pdf))
    colours: list[tuple[float, ...]] = []
    text = []
    for page in reader.pages:
        fill: list[tuple[float, ...]] = [(0.0, 0.0, 0.0)]

        def before(op: bytes, args: list[Any], cm: Any, tm: Any, fill: list[Any] = fill) -> None:
            if op == b"rg":
                fill[0] = tuple(float(a) for a in args)
            elif op == b"g":
                fill[0] = (float(args[0]),) * 3
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                colours.append(fill[0])

        text.append(page.extract_text(visitor_operand_before=before))
    return reader, colours, "\n".join(text)


def printed(page: Page, url: str) -> tuple[int, str]:
    """Print ``url`` as Chrome does by default (no background graphics): pages, and text,
    after checking that every piece of text is dark."""
    page.goto(url)
    page.emulate_media(media="print")
    pdf = page.pdf(prefer_css_page_size=True, format="A4", print_background=False)
    reader, colours, text = text_colours(pdf)
    assert colours, "the PDF has text"
    light = [c for c in colours if max(c) > 0.35]
    assert light == [], f"text lighter than dark grey in {url}: {set(light)}"
    return len(reader.pages), text


def test_the_fixture_card_the_grid_and_the_standings_print_dark_on_white(
    browser: Browser, live_server: Any
) -> None:
    world = build(played=False)
    division = DivisionFactory(season=world.fixture.division.season, name="Second Division")
    for i in range(12):
        TeamEntryFactory(division=division, team__name=f"The Shoulder of Mutton {i + 1:02d}")
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=2)

    client = Client()
    client.force_login(world.users["secretary"])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        base = live_server.url
        pages, text = printed(page, f"{base}/leagues/fixture/{world.fixture.pk}/manage/card/")
        assert pages == 1
        assert "Table 1" in text and "Re-issue" not in text and "Log out" not in text
        qr = page.locator(".qr svg").first
        assert qr.evaluate("e => getComputedStyle(e).shapeRendering") == "crispedges"
        assert qr.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
        assert round(qr.bounding_box()["width"]) == 170  # 45 mm at 96 dpi

        pages, text = printed(page, f"{base}/leagues/division/{division.pk}/grid/")
        assert pages == 1, "a 12-team double round robin fits one A4 landscape page"
        assert text.count("Shoulder of Mutton") >= 12 and "Add to calendar" not in text

        pages, text = printed(page, f"{base}/leagues/division/{division.pk}/")
        assert pages == 1
        assert "The Shoulder of Mutton 12" in text
    finally:
        context.close()


def test_a_captain_copies_the_team_calendars_address(live_server: Any, browser: Browser) -> None:
    """The team page's Copy button puts the feed's address on the clipboard, and that address
    is the feed (a calendar that adds one by URL fetches just that)."""
    world = build(played=False)
    team = world.fixture.home
    context = browser.new_context(viewport={"width": 360, "height": 780})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/leagues/team/{team.pk}/")
        page.get_by_text("Add the team's fixtures to your calendar").click()
        address = page.get_by_test_id("calendar-address")
        feed = f"{live_server.url}/leagues/team/{team.pk}/calendar.ics"
        expect(address).to_have_value(feed)
        subscribe = page.get_by_test_id("calendar-subscribe")
        expect(subscribe).to_have_attribute("href", "webcal://" + feed.split("://", 1)[1])
        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_role("button", name="Copied")).to_be_visible()
        assert page.evaluate("navigator.clipboard.readText()") == feed
        response = page.request.get(feed)
        assert response.status == 200 and "BEGIN:VCALENDAR" in response.text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
