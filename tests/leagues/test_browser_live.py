"""Watching a league night on a phone, in headless Chromium at 390×844: the fixture page and
the league night's page follow a hand at a table within a poll (``LIVE_POLL_SECONDS``: ten
seconds, two in the tests), with no reload and no console error (the pages'
Content-Security-Policy allows no inline style or script)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import current_game, entered_teams, hand, record, start_fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Tonight's match started at midnight, whatever the hour the tests run: no game of it begins
#: before it has started.
STARTED = datetime.time(0, 0)


def poll_ms() -> int:
    """How often the pages poll, in milliseconds, as the tests set it."""
    return settings.LIVE_POLL_SECONDS * 1000


def test_the_fixture_page_and_the_night_follow_a_hand_without_a_reload(
    live_server: Any, phone: Page
) -> None:
    league = LeagueFactory(name="Spen Valley League")
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    fixture = FixtureFactory(
        division=division, home=home, away=away, date=timezone.localdate(), time=STARTED
    )
    game = current_game(start_fixture(fixture)[0])
    problems: list[str] = []
    phone.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: problems.append(str(e)))
    loads: list[str] = []
    phone.on("load", lambda page: loads.append(page.url))

    for url, shown in (
        (fixture.get_absolute_url(), phone.get_by_test_id("table-1-hand")),
        (
            reverse("leagues:league_live", args=[league.slug]),
            phone.get_by_test_id(f"live-table-{fixture.pk}-1"),
        ),
    ):
        phone.goto(live_server.url + url)
        count = game.hands.count()
        expect(shown).to_contain_text(f"after hand {count}" if count else "no hand yet")
        loads.clear()
        record(
            game,
            [
                hand(
                    game,
                    game.next_dealer or "A",
                    {"high": "A", "low": "B", "jack": "A", "game": "A"},
                )
            ],
        )
        expect(shown).to_contain_text(f"after hand {count + 1}", timeout=poll_ms() + 2_000)
        assert loads == []  # no reload: the poll swapped the tables in
    assert problems == []


def test_a_fixture_page_stops_following_once_the_match_is_decided(
    live_server: Any, phone: Page
) -> None:
    """A poll answered 286 (nothing left to follow) is shown, and is the last: the page drops
    its "follows the tables" note and asks no more."""
    from leagues.models import Fixture
    from tests.leagues.helpers import win_game

    league = LeagueFactory(name="Spen Valley League")
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    fixture = FixtureFactory(
        division=division, home=home, away=away, date=timezone.localdate(), time=STARTED
    )
    tables = start_fixture(fixture)
    live_url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    polls: list[int] = []
    phone.on("response", lambda r: polls.append(r.status) if live_url in r.url else None)
    phone.goto(live_server.url + fixture.get_absolute_url())
    expect(phone.locator(".live-note")).to_have_count(1)

    for table in tables:
        game = current_game(table)
        if game.status == "in_progress":
            win_game(game, "A", 1)
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.PLAYED
    expect(phone.locator(".live-note")).to_have_count(0, timeout=poll_ms() + 2_000)
    assert polls[-1] == 286
    asked = len(polls)
    phone.wait_for_timeout(poll_ms() + 1_000)  # a tick more
    assert len(polls) == asked
