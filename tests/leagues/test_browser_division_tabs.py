"""A division's tabs read as words on a wide screen and fit a phone: the flex box of a tab
dropped the space before "& results", so a laptop read "Fixtures& results"."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.leagues.test_pages import build_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_fixtures_tab_reads_fixtures_and_results_on_a_wide_screen(
    phone: Page, live_server: Any
) -> None:
    played = build_league("yorkshire")
    tab = phone.locator(".division-tabs a").nth(1)
    phone.set_viewport_size({"width": 1280, "height": 800})
    phone.goto(live_server.url + played.division.get_absolute_url())
    assert tab.inner_text() == "Fixtures & results"
    phone.set_viewport_size({"width": 320, "height": 640})
    assert tab.inner_text() == "Fixtures"
