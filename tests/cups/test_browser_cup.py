"""A cup on a phone (headless Chromium, 390×844): the secretary starts a pairs knock-out from the
desk, enters three pairs and makes the draw from a chosen seed; a player with no account reads
the bracket a round at a time and opens a tie."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cups.models import Competition
from tests.cups.helpers import cup_world
from tests.leagues.helpers import squad

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_secretary_draws_a_pairs_cup_and_a_player_reads_the_bracket(
    live_server: Any, phone: Page, browser: Any
) -> None:
    world = cup_world(3)
    base = live_server.url
    secretary = world.users["secretary"]
    phone.goto(base + "/accounts/login/?next=" + world.league.get_absolute_url() + "manage/")
    phone.get_by_label("Username").fill(secretary.username)
    phone.get_by_label("Password").fill("a-long-test-password")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Log in").tap()
    phone.get_by_role("link", name="New cup or knock-out").tap()
    phone.get_by_label("Name").fill("Pairs Knock-out")
    phone.get_by_label("Entrants:").select_option("pairs")
    phone.get_by_label("Games in a pairs or players tie").select_option("3")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Create").tap()
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Pairs Knock-out")

    for team in world.teams:
        first, second = squad(team, world.season)[:2]
        phone.get_by_label("Player:", exact=True).select_option(str(first.pk))
        phone.get_by_label("Partner (same team)").select_option(str(second.pk))
        with phone.expect_navigation():
            phone.get_by_role("button", name="Enter", exact=True).tap()
    expect(phone.get_by_test_id("entrants").locator("li")).to_have_count(3)

    phone.get_by_label("Seed for a random draw").fill("42")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Make the draw").tap()
    expect(phone.get_by_test_id("draw")).to_contain_text("seed 42")
    cup = Competition.objects.get(name="Pairs Knock-out")
    assert cup.draw_seed == 42 and cup.ties.filter(status="bye").count() == 1

    # A player with no account, on another phone: a round at a time, then a tie.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        player = context.new_page()
        player.goto(base + cup.get_absolute_url())
        tabs = player.get_by_role("navigation", name="Rounds")
        expect(tabs.get_by_role("link")).to_have_count(2)
        expect(player.get_by_test_id("bracket")).to_be_hidden()  # the SVG is for wide screens
        expect(player.get_by_test_id("round").get_by_test_id("tie")).to_have_count(2)
        tabs.get_by_role("link", name="Final", exact=True).tap()
        expect(player.get_by_test_id("round")).to_contain_text("to come")
        tabs.get_by_role("link", name="Semi-finals").tap()
        player.get_by_test_id("tie").filter(has_text="To play").first.tap()
        expect(player.locator("ol.tie-games")).to_contain_text("Game 1")
        assert player.get_by_text("scoring link").count() == 0
        width = player.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        context.close()
