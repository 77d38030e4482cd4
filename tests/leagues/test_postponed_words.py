"""A postponed fixture reads as postponed wherever it is listed: not under "Coming up" with its
old date and start time as if it were still on (My fixtures, the fixture lists, the team's
page, the league's home, the embed), and its night page says it is postponed with no empty
table headings."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from leagues.models import POSTPONED_WORDS
from leagues.services.fixtures import fixture_postpone
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams

pytestmark = pytest.mark.django_db

SET_FOR = datetime.time(19, 45)  # a start time no other part of the pages shows


def _words(response) -> str:
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", html.unescape(response.content.decode()))
    return re.sub(r"\s+", " ", text)


def _postponed():
    """Black Bull v Old Hall, set for next week at 19:45, postponed; with the accounts of the
    captains and the secretary."""
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=2)
    fixture = FixtureFactory(
        division=division,
        home=home,
        away=away,
        date=league.today() + datetime.timedelta(days=7),
        time=SET_FOR,
    )
    fixture_postpone(fixture=fixture, reason="Pub flooded", by=users["secretary"])
    fixture.refresh_from_db()
    return fixture, users


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_fixtures_lists_a_postponed_fixture_as_postponed_not_coming_up() -> None:
    fixture, users = _postponed()
    page = _signed_in(users["home"]).get(reverse("leagues:my_fixtures"))
    content = page.content.decode()
    assert 'data-testid="my-section-coming"' not in content
    postponed = content.split('data-testid="my-section-postponed"')[1].split("</section>")[0]
    assert f'data-testid="my-fixture-{fixture.pk}"' in postponed
    words = _words(page)
    assert "Coming up" not in words
    set_for = f"Was set for {fixture.date:%a} {fixture.date.day} {fixture.date:%b %Y}, 19:45"
    assert set_for in words and f"{POSTPONED_WORDS}." in words


def test_the_night_page_of_a_postponed_fixture_says_so_with_no_empty_tables() -> None:
    fixture, users = _postponed()
    response = _signed_in(users["home"]).get(reverse("leagues:fixture_night", args=[fixture.pk]))
    content = response.content.decode()
    words = _words(response)
    assert f"{POSTPONED_WORDS}: its tables are seated" in words
    assert 'data-testid="night-table-' not in content
    assert "Table 1" not in words
    assert f"Was set for {fixture.date:%a} {fixture.date.day} {fixture.date:%b %Y}" in words


def test_the_fixture_page_reads_as_postponed_first_then_the_night_it_was_set_for() -> None:
    """The fixture's page opened its line with the old night, "Tuesday 8 December 2026,
    19:45 London time at ..." and only then "Postponed: no new date yet", reading as on that
    night; it says it is postponed first, then the night it was set for; the secretary's page
    and the result page too."""
    fixture, users = _postponed()
    day = f"{fixture.date:%A} {fixture.date.day} {fixture.date:%B %Y}"
    client = _signed_in(users["secretary"])
    for name in ("leagues:fixture", "leagues:manage_fixture", "leagues:fixture_result"):
        page = html.unescape(client.get(reverse(name, args=[fixture.pk])).content.decode())
        line = page[page.index('<p class="muted">') :]
        line = re.sub(r"<[^>]+>", "", line[: line.index("</p>")])
        assert line.startswith(f"{POSTPONED_WORDS} (was set for {day}"), (name, line)


def test_the_fixture_lists_and_the_team_page_give_no_start_time_and_say_postponed(
    client: Client,
) -> None:
    fixture, _users = _postponed()
    fixtures = reverse("leagues:division_fixtures", args=[fixture.division.pk])
    for url in (
        f"{fixtures}?team={fixture.home.pk}",
        f"{fixtures}?week={fixture.date.isoformat()}",
        reverse("leagues:team", args=[fixture.home.pk]),
        reverse("leagues:league", args=[fixture.division.season.league.slug]),
        reverse("leagues:division_embed", args=[fixture.division.pk]),
    ):
        words = _words(client.get(url))
        # Listed on the day it was set for, with no start time.
        assert f"{fixture.date.day} {fixture.date:%b}" in words, url
        assert "19:45" not in words, url
        assert POSTPONED_WORDS.lower() in words.lower(), url


def test_the_calendar_says_a_postponed_fixture_has_no_new_date_yet(client: Client) -> None:
    fixture, _users = _postponed()
    response = client.get(reverse("leagues:team_calendar", args=[fixture.home.pk]))
    (event,) = Calendar.from_ical(response.content).walk("VEVENT")
    assert event["STATUS"] == "TENTATIVE"
    assert str(event["DESCRIPTION"]).splitlines()[1] == f"{POSTPONED_WORDS}: Pub flooded"
