"""A new secretary on a phone (390×844), in headless Chromium: signs up giving their name (a
sign-up without it is told so at the field), starts a league, invites a team's captain from
the team's page, and the invitation reads "Maureen Kaye invites you", not the username. The
captain's page has their name from the team sheet already in its box; their account keeps it.
Sign-up, the invitation and the account's own page pass axe-core and fit the phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from leagues.models import League, TeamEntry
from tests.factories.leagues import DivisionFactory, PlayerFactory, TeamEntryFactory
from tests.scoring.test_browser import PHONE
from tests.test_browser_pages import AXE, axe_problems, layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "heckmondwike-pitch-11"


def submit(page: Page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name).tap()


def fits(page: Page, where: str) -> None:
    assert axe_problems(page, AXE.read_text()) == [], where
    assert layout_problems(page, where) == []  # measured against the screen, not the window


def test_a_new_secretary_signs_up_with_their_name_and_their_invitation_gives_it(
    browser: Browser, live_server: Any, phone: Page
) -> None:
    base = live_server.url
    phone.goto(base + "/accounts/signup/")
    name = phone.get_by_label("Your name, as your league knows you")
    expect(name).to_be_focused()
    phone.get_by_label("Username").fill("maureen")
    phone.get_by_label("E-mail").fill("maureen@example.org")
    phone.get_by_label("Password", exact=True).fill(PASSWORD)
    phone.get_by_label("Password again").fill(PASSWORD)
    submit(phone, "Sign up")
    field = phone.locator(".field.has-error")
    expect(field).to_contain_text("Your name, as your league knows you")
    expect(field).to_contain_text("Give your name, as your league knows you")
    fits(phone, "sign-up refused at 390")
    phone.get_by_label("Your name, as your league knows you").fill("Maureen Kaye")
    phone.get_by_label("Password", exact=True).fill(PASSWORD)
    phone.get_by_label("Password again").fill(PASSWORD)
    submit(phone, "Sign up")
    expect(phone.get_by_test_id("signup-sent")).to_contain_text("maureen@example.org")
    assert mail.outbox[-1].body.startswith("Hello Maureen Kaye,")
    link = re.search(r"https?://[^/\s]+(/accounts/signup/\S+/)", mail.outbox[-1].body).group(1)
    phone.goto(base + link)
    submit(phone, "Confirm and log in")
    phone.get_by_label("Name").first.fill("Spen Valley League")
    submit(phone, "Start the league")
    league = League.objects.get(name="Spen Valley League")

    # The season and its team come from the secretary's other pages (or an import); here the
    # team and its captain are made directly, and the invitation is sent from the team page.
    entry = TeamEntryFactory(
        division=DivisionFactory(season__league=league), team__name="Black Bull"
    )
    captain = PlayerFactory(name="Roy Stead")
    TeamEntry.objects.filter(pk=entry.pk).update(captain=captain)
    phone.goto(base + f"/leagues/{league.slug}/manage/teams/{entry.team_id}/")
    phone.get_by_role("link", name="Invite Roy Stead by e-mail").tap()
    form = phone.get_by_test_id("invite-captain")
    form.get_by_label("Their e-mail").fill("roy@example.org")
    form.get_by_role("button", name="Send the invitation").tap()
    expect(phone.get_by_test_id("invitation-waiting")).to_contain_text("roy@example.org")
    invitation = mail.outbox[-1]
    assert invitation.to == ["roy@example.org"]
    assert "\nMaureen Kaye invites you to be captain of Black Bull" in invitation.body
    assert "maureen invites" not in invitation.body

    # The account's own page, from the top of My fixtures: the name, to change.
    phone.get_by_test_id("my-fixtures-link").tap()
    expect(phone.get_by_test_id("my-account")).to_contain_text(
        "Logged in as Maureen Kaye (maureen)"
    )
    fits(phone, "My fixtures at 390")
    phone.get_by_test_id("account-link").tap()
    expect(phone.get_by_label("Your name, as your league knows you")).to_have_value("Maureen Kaye")
    fits(phone, "the account's page at 390")

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(
            base
            + re.search(r"https?://[^/\s]+(/accounts/invitation/\S+/)", invitation.body).group(1)
        )
        form = page.get_by_test_id("invitation-account")
        expect(form.get_by_label("Your name, as your league knows you")).to_have_value("Roy Stead")
        fits(page, "the captain's invitation at 390")
        form.get_by_label("Username").fill("roystead")
        form.get_by_label("Password", exact=True).fill(PASSWORD)
        form.get_by_label("Password again").fill(PASSWORD)
        with page.expect_navigation():
            form.get_by_role("button", name="Make my account and accept").tap()
        expect(page.get_by_test_id("my-fixtures-link")).to_be_visible()
    finally:
        context.close()
    assert get_user_model().objects.get(username="roystead").get_full_name() == "Roy Stead"
