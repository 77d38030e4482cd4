"""Accounts on a phone, in headless Chromium: the secretary invites the home captain by e-mail,
the captain opens the mailed link and chooses their own password (a weak one is refused next to
the field first), lands on "My fixtures" and submits the fixture's result from there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from leagues.models import AuditEntry, ResultSubmission, TeamEntry
from tests.leagues.test_access import build
from tests.scoring.test_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").tap()


def test_the_secretary_gives_the_captain_an_account_and_the_captain_submits(
    browser: Browser, live_server: Any, phone: Page
) -> None:
    world = build(played=True)
    captain = TeamEntry.objects.get(team=world.fixture.home).captain
    captain.user = None
    captain.save(update_fields=["user"])
    base = live_server.url

    log_in(phone, base, world.users["secretary"].username, "a-long-test-password")
    phone.goto(base + f"/leagues/{world.league.slug}/manage/teams/{world.fixture.home_id}/")
    # A captain with no account: the team page offers the invitation.
    phone.get_by_role("link", name=f"Invite {captain} by e-mail").tap()
    expect(phone.get_by_test_id("captain-username")).to_contain_text("No account yet")
    form = phone.get_by_test_id("invite-captain")
    form.get_by_label("Their e-mail").fill("captain@example.org")
    form.get_by_role("button", name="Send the invitation").tap()
    expect(phone.get_by_test_id("invitation-waiting")).to_contain_text("captain@example.org")
    link = re.search(r"https?://[^/\s]+(/accounts/invitation/\S+/)", mail.outbox[-1].body)

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(base + link.group(1))
        form = page.get_by_test_id("invitation-account")
        form.get_by_label("Username").fill("bullcaptain")
        form.get_by_label("Password", exact=True).fill("bullcaptain")
        form.get_by_label("Password again").fill("bullcaptain")
        form.get_by_role("button", name="Make my account and accept").tap()
        expect(page.get_by_test_id("invitation-account")).to_contain_text("too similar")
        form = page.get_by_test_id("invitation-account")
        form.get_by_label("Password", exact=True).fill("heckmondwike-pitch-11")
        form.get_by_label("Password again").fill("heckmondwike-pitch-11")
        form.get_by_role("button", name="Make my account and accept").tap()
        card = page.get_by_test_id(f"my-fixture-{world.fixture.pk}")
        expect(card).to_have_attribute("data-action", "submit")
        card.get_by_role("button", name="Submit the result").tap()
        expect(page.get_by_test_id("submission-status")).to_have_attribute(
            "data-status", "submitted"
        )
    finally:
        context.close()

    submission = ResultSubmission.objects.get(fixture=world.fixture)
    assert submission.submitted_by.username == "bullcaptain"
    invited = AuditEntry.objects.get(action="invitation_sent")
    assert invited.by == world.users["secretary"] and invited.ip == "127.0.0.1"
    assert AuditEntry.objects.get(action="account_created").by.username == "bullcaptain"
