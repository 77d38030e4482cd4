"""The new fixture list's preview on a phone (a page reached only by posting the generation
form, so not in tests/test_browser_pages.py's list): it fits, and its folded list of new nights
opens on a thumb-sized line (it was 26 px tall)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.factories.leagues import DivisionFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import entered_teams, phone_signed_in
from tests.test_browser_pages import layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_fixture_lists_preview_fits_a_phone_with_thumb_sized_targets(
    phone: Page, live_server: Any
) -> None:
    division = DivisionFactory()
    entered_teams(division, ["Black Bull", "Old Hall", "Royal Oak", "Red Lion"], players=2)
    secretary = UserFactory()
    division.season.league.secretaries.add(secretary)
    phone_signed_in(phone, live_server, secretary)
    phone.goto(live_server.url + reverse("leagues:manage_fixtures_generate", args=[division.pk]))
    with phone.expect_navigation():
        phone.get_by_role("button", name="Preview the list").tap()
    nights = phone.get_by_test_id("new-nights")
    expect(nights).to_be_visible()
    assert layout_problems(phone, "the preview") == []
    nights.locator("summary").tap()
    expect(nights).not_to_have_attribute("open", "")
    expect(phone.get_by_role("button", name="Confirm: make these changes")).to_be_visible()
