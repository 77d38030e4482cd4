"""The captains' night page on a phone (390×844): the home captain about to replace the pair
the away captain seated is asked first, with JavaScript off as on, in words that fit the phone,
with thumb-sized answers (a page reached only by posting the form, so not in
tests/test_browser_pages.py's list)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import FixtureTable
from leagues.services.seating import table_seat
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, squad
from tests.test_browser_pages import AXE, PHONE, axe_problems, layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _ask(page: Page, url: str, chosen: list[Any]) -> None:
    """Choose ``chosen`` (two home players, two away) at table 1 and press to seat them."""
    page.goto(url)
    table = page.get_by_test_id("night-table-1")
    for seat, player in zip(("home_1", "home_2", "away_1", "away_2"), chosen, strict=True):
        table.locator(f"select[name=t1-{seat}]").select_option(str(player.pk))
    with page.expect_navigation():
        page.get_by_test_id("night-seat-1").tap()


def test_replacing_the_away_captains_pair_is_asked_first_on_a_phone(
    browser: Any, phone: Page, live_server: Any
) -> None:
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=4)
    fixture = FixtureFactory(division=division, home=home, away=away)
    ours, theirs = squad(home, division.season), squad(away, division.season)
    table_seat(fixture=fixture, board=1, away=theirs[:2], by=users["away"])
    client = Client()
    client.force_login(users["home"])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    session = [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
    url = live_server.url + reverse("leagues:fixture_night", args=[fixture.pk])
    chosen = [*ours[:2], *theirs[2:]]

    # With JavaScript on: the question passes axe-core (its scripts run in the page).
    phone.context.add_cookies(session)
    _ask(phone, url, chosen)
    expect(phone.get_by_test_id("night-replace-1")).to_be_visible()
    assert axe_problems(phone, AXE.read_text()) == []

    # With JavaScript off: asked, fitting the phone, then replaced once confirmed.
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False
    )
    context.add_cookies(session)
    page = context.new_page()
    try:
        _ask(page, url, chosen)
        warning = page.get_by_test_id("night-replace-1")
        expect(warning).to_contain_text(
            f"{theirs[0]} and {theirs[1]} were seated for Old Hall by Old Hall's captain"
        )
        expect(warning).to_be_in_viewport()
        assert FixtureTable.objects.get(fixture=fixture, board=1).away_pair == theirs[:2]
        assert layout_problems(page, "the question") == []
        with page.expect_navigation():
            page.get_by_role("button", name="Yes, replace Old Hall's pair").tap()
        expect(page.get_by_test_id("night-pairs-1")).to_contain_text(str(theirs[2]))
        assert FixtureTable.objects.get(fixture=fixture, board=1).away_pair == theirs[2:]
    finally:
        context.close()
