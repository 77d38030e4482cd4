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
        player.get_by_test_id("tie").filter(has_text="Scheduled").first.tap()
        expect(player.locator("ol.tie-games")).to_contain_text("Game 1")
        assert player.get_by_text("scoring link").count() == 0
        width = player.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        context.close()


def _log_in(page: Page, base: str, user: Any, then: str) -> None:
    page.goto(base + "/accounts/login/?next=" + then)
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill("a-long-test-password")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()


def test_both_pairs_agree_a_tie_on_their_phones_and_the_winner_goes_through(
    live_server: Any, phone: Page, browser: Any
) -> None:
    from cups.services.draws import draw_make
    from tests.cups.helpers import pair_player, pairs_cup, play_race

    world = cup_world(4)
    cup = pairs_cup(world, best_of=7)
    draw_make(competition=cup, seed=2024, by=world.users["secretary"])
    semi = cup.ties.filter(round__number=1).order_by("position").first()
    semi = play_race(semi, "AABBABA", agree=False)  # 4–3 to the home pair
    home, away = pair_player(semi, "home"), pair_player(semi, "away")
    base = live_server.url

    # The home pair's player, from "My fixtures": agree.
    _log_in(phone, base, home, "/leagues/my-fixtures/")
    card = phone.get_by_test_id(f"my-tie-{semi.pk}")
    expect(card).to_contain_text("4–3 in games: agree, or dispute it.")
    with phone.expect_navigation():
        card.get_by_role("button", name="Agree").tap()
    expect(phone.locator(".messages")).to_contain_text("Your side's agreement is recorded")
    expect(phone.get_by_test_id("agreement-home")).to_contain_text("agreed")
    expect(phone.get_by_test_id("agreement-away")).to_contain_text("Waiting for")
    expect(phone.get_by_test_id("agree-tie-result")).to_have_count(0)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The away pair's player, on another phone, on the tie's page: agree; it counts.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        other = context.new_page()
        _log_in(other, base, away, semi.get_absolute_url())
        expect(other.get_by_test_id("tie-score")).to_contain_text(
            "Result submitted, awaiting confirmation"
        )
        button = other.get_by_test_id("agree-tie-result")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44
        with other.expect_navigation():
            button.tap()
        expect(other.locator(".messages")).to_contain_text("the winner goes through")
        expect(other.get_by_test_id("result-status")).to_contain_text("Agreed by both sides.")
        expect(other.locator(".winner-banner")).to_contain_text("go through")  # a pair
    finally:
        context.close()
    final = cup.ties.get(round__number=2)
    assert final.home_id == semi.home_id
