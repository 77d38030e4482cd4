"""A captain gives a level cup tie's play-off game on a phone (headless Chromium, 390×844):
from the result page that says it is still to come, to the score card's boxes, to the tie
decided. Each page on the way (the card with its play-off boxes from the start, the result
page, the cup's manage page listing the level tie) passes axe-core and fits the phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from cups.models import Tie
from leagues.services.cards import fixture_card_enter
from tests.conftest import PHONE
from tests.cups.test_tie_playoff_card import LEVEL, _captains, _tie
from tests.test_browser_pages import AXE, axe_problems, layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _as(page: Page, live_server: Any, user: Any) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def _fits(page: Page, where: str) -> list[str]:
    return layout_problems(page, where) + axe_problems(page, AXE.read_text())


def test_a_captain_gives_the_play_off_game_on_a_phone(
    live_server: Any, phone: Page, browser: Any
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make test` installs it (npm ci --prefix tests/axe)")
    world, cup, tie = _tie()
    base = live_server.url
    _as(phone, live_server, _captains(world, tie)["away"])
    card_url = base + reverse("leagues:score_card", args=[tie.fixture.pk])
    phone.goto(card_url)
    expect(phone.get_by_test_id("card-playoff")).to_be_visible()
    problems = _fits(phone, "the blank card")
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desk = context.new_page()
    _as(desk, live_server, world.users["secretary"])
    desk.goto(base + reverse("cups:manage", args=[cup.pk]))
    expect(desk.get_by_test_id(f"playoff-tie-{tie.pk}")).to_be_visible()
    problems += _fits(desk, "the cup's manage page")
    context.close()

    phone.goto(base + reverse("leagues:fixture_result", args=[tie.fixture.pk]))
    expect(phone.get_by_test_id("playoff-to-come")).to_contain_text(
        "the play-off game's score is still to come"
    )
    problems += _fits(phone, "the result page")
    with phone.expect_navigation():
        phone.get_by_test_id("give-playoff").tap()
    home = phone.get_by_label(tie.fixture.home.name, exact=True)
    expect(home).to_be_in_viewport()
    problems += _fits(phone, "the counted card's play-off")
    home.fill("8")
    phone.get_by_label(tie.fixture.away.name, exact=True).fill("11")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Enter the play-off game").tap()
    tie = Tie.objects.get(pk=tie.pk)
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
    expect(phone.locator(".messages")).to_contain_text(
        f"Play-off game entered: {tie.through_words}"
    )
    expect(phone.get_by_test_id("playoff-to-come")).to_have_count(0)
    assert problems == []
