"""A captain gives a level cup tie's play-off game on a phone (headless Chromium, 390×844):
from the result page that says it is still to come, to the score card's boxes, to the tie
decided. Each page on the way (the card with its play-off boxes from the start, the result
page, the cup's manage page listing the level tie) passes axe-core and fits the phone; and
once the play-off game is begun on the scorer's phone, the pages say it is being played at the
table, with no boxes."""

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


def test_a_play_off_game_begun_on_a_phone_is_said_to_be_played_at_the_table(
    live_server: Any, phone: Page
) -> None:
    """The level tie's play-off game begun on the scorer's phone: the result page, the
    fixture's page and the score card say it is being played at the table, offer no boxes,
    pass axe-core and fit the phone."""
    from tests.cups.test_tie_playoff_at_table import AT_TABLE
    from tests.leagues.helpers import hand, record

    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make test` installs it (npm ci --prefix tests/axe)")
    world, cup, tie = _tie()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    game = tie.games.get(is_playoff=True).game
    record(game, [hand(game, "A", dict.fromkeys(("high", "low", "jack", "game"), "A"))])
    _as(phone, live_server, _captains(world, tie)["home"])
    problems: list[str] = []
    for where, url in (
        ("the result page", reverse("leagues:fixture_result", args=[tie.fixture.pk])),
        ("the fixture's page", tie.fixture.get_absolute_url()),
        ("the score card", reverse("leagues:score_card", args=[tie.fixture.pk])),
    ):
        phone.goto(live_server.url + url)
        expect(phone.get_by_text(AT_TABLE)).to_be_visible()
        expect(phone.locator("input[name=playoff_home]")).to_have_count(0)
        problems += _fits(phone, where)
    assert problems == []
