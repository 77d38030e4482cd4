"""The site's header on the narrowest phones, signed in, in headless Chromium: at 320 px its
four links (Games, Leagues, My fixtures, Log out) took two rows with the card icon centred
between them, three lines to the eye. It takes at most two, the icon on the first beside the
first links, nothing hidden and nothing past the screen's edge; at 390 px, one line."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.factories.scoring import UserFactory
from tests.leagues.helpers import phone_signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each of the header's visible parts: its text, top and bottom, left and right.
PARTS = """() => [...document.querySelectorAll('.site-header a, .site-header button')]
    .filter(e => e.offsetWidth)
    .map(e => { const r = e.getBoundingClientRect();
                return [e.textContent.trim(), r.top, r.bottom, r.left, r.right]; })"""


@pytest.mark.parametrize(("width", "lines"), [(320, 2), (390, 1)])
def test_the_signed_in_header_takes_at_most_two_lines_on_a_narrow_phone(
    browser: Browser, live_server: Any, width: int, lines: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        phone_signed_in(page, live_server, UserFactory())
        page.goto(live_server.url + "/leagues/")
        parts = page.evaluate(PARTS)
        assert [text for text, *_ in parts] == [
            "All Fours",
            "Games",
            "Leagues",
            "My fixtures",
            "Log out",
        ]
        rows = sorted({round(top) for _, top, *_ in parts})
        assert len(rows) == lines, parts
        # The icon (the link home) is on the first line, not between two.
        _, icon_top, *_ = parts[0]
        assert round(icon_top) == rows[0], parts
        for text, _, _, left, right in parts:
            assert left >= 0 and right <= width, (text, left, right)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
