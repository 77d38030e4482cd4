"""The public leagues pages on a phone (390×844): every link a thumb needs is a 44 px target."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.leagues.test_pages import build_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def small_targets(page: Page, selector: str) -> list[str]:
    """Shown links matching `selector` that are less than 44 px wide or tall."""
    found = [link for link in page.locator(selector).all() if link.is_visible()]
    assert found, f"nothing matches {selector}"
    small = []
    for link in found:
        box = link.bounding_box()
        if box is None or box["width"] < 44 or box["height"] < 44:
            small.append(f"{link.inner_text()!r} {box}")
    return small


def test_standings_sort_links_are_44px_targets(phone: Page, live_server: Any) -> None:
    """One-letter columns (P, W, D, L) sort from a 44 px link, not an 11 px one."""
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.division.get_absolute_url())
    assert small_targets(phone, ".standings thead th a") == []


def test_league_home_result_links_are_44px_targets(phone: Page, live_server: Any) -> None:
    """The latest results' team names and scores are 44 px targets (they were 26 px tall)."""
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.league.get_absolute_url())
    assert small_targets(phone, ".fixture-line .teams a") == []


def test_fixture_heading_team_links_are_44px_targets(phone: Page, live_server: Any) -> None:
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.fixture.get_absolute_url())
    assert small_targets(phone, ".match-head a") == []
