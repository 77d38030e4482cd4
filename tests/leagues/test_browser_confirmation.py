"""From the table to the league table, in headless Chromium at a phone viewport: a scorer opens
the table's scoring link, records the game and submits the result; one captain agrees, the other
logs in and confirms it; the standings change."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from leagues.models import ResultSubmission
from leagues.selectors.standings import division_standings
from leagues.services import confirmation
from tests.leagues.test_access import build
from tests.scoring.test_browser import PHONE, Scorer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOME, AWAY = "Black Bull", "Old Hall"


def standings_row(page: Page, base_url: str, division_url: str, team: str) -> Any:
    page.goto(base_url + division_url)
    # On a phone the team's name opens its figures (a disclosure), not a link.
    return page.get_by_role("row").filter(has=page.locator("summary", has_text=team))


def test_scorer_submits_from_the_table_and_the_other_captain_confirms(
    browser: Browser, live_server: Any, phone: Page
) -> None:
    world = build(played=False)
    division_url = world.fixture.division.get_absolute_url()
    base = live_server.url

    # The scorer's phone: scan the table's code, record the game to the end, submit.
    scorer = Scorer(phone, base)
    scorer.open(world.table.scoring_link.get_absolute_url())
    assert phone.url == base + world.game().get_absolute_url()
    for number in (1, 2, 3):
        scorer.play(number, high=HOME, low=HOME, jack=HOME, game=HOME)
    expect(phone.get_by_test_id("winner-banner")).to_contain_text("won 11–0 on hand 3")
    phone.get_by_test_id("next-link").tap()
    phone.get_by_test_id("submit-result").tap()
    expect(phone.get_by_test_id("submission-status")).to_have_attribute("data-status", "submitted")

    # Submitted, not confirmed: the table does not count it yet.
    row = standings_row(phone, base, division_url, HOME)
    before = row.inner_text()
    assert division_standings(division=world.fixture.division).rows[0].played == 0

    # A table link's submission belongs to neither team: the home captain agrees first (on
    # their own phone), still not counted; the away captain's agreement makes it count.
    submission = ResultSubmission.objects.get(fixture=world.fixture)
    confirmation.result_confirm(submission=submission, by=world.users["home_captain"])
    assert division_standings(division=world.fixture.division).rows[0].played == 0

    # The away captain logs in on a phone of their own and confirms.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        captain = context.new_page()
        captain.set_default_timeout(10_000)
        result_url = f"/leagues/fixture/{world.fixture.pk}/result/"
        captain.goto(base + "/accounts/login/?next=" + result_url)
        captain.get_by_label("Username").fill(world.users["away_captain"].username)
        captain.get_by_label("Password").fill("a-long-test-password")
        with captain.expect_navigation():
            captain.get_by_role("button", name="Log in").tap()
        assert captain.url == base + result_url
        captain.get_by_test_id("confirm-result").tap()
        expect(captain.get_by_test_id("submission-status")).to_have_attribute(
            "data-status", "confirmed"
        )
        after = standings_row(captain, base, division_url, HOME).inner_text()
    finally:
        context.close()

    submission = ResultSubmission.objects.get(fixture=world.fixture)
    assert submission.submitted_by_link == world.table.scoring_link
    assert submission.confirmed_by == world.users["away_captain"]
    assert after != before
    rows = {r.team.name: r for r in division_standings(division=world.fixture.division).rows}
    assert rows[HOME].played == rows[AWAY].played == 1
    assert rows[HOME].points == world.fixture.result.home_points > 0
    assert str(rows[HOME].points) in after

    # The link closed with the confirmation: the scorer's phone can no longer enter hands.
    phone.goto(base + world.game().get_absolute_url())
    expect(phone.get_by_test_id("hand-form")).to_have_count(0)
    expect(phone.get_by_test_id("undo")).to_have_count(0)
