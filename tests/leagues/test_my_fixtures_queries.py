"""My fixtures asks a fixed number of queries however many results wait for the captain: it
asked, for each, whether the captain was a secretary of its league too (who may settle it with
the score card)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from leagues.services.cards import fixture_card_enter
from tests.factories.leagues import DivisionFactory, FixtureFactory
from tests.leagues.helpers import captained_teams
from tests.leagues.test_score_card import _league, _yorkshire_card

pytestmark = pytest.mark.django_db

#: The session and its account; the captain's entries, their seasons, their fixtures with
#: their results, tables, tables' games and leagues' secretaries; the cup ties; the leagues the
#: account runs and the leagues it asked for.
MY_FIXTURES_QUERIES = 12


def _waiting(division, home, away, by, weeks: int) -> None:
    """A fixture ``weeks`` ago whose card the other captain entered: it waits for this one."""
    when = division.season.league.today() - datetime.timedelta(days=7 * weeks)
    fixture = FixtureFactory(division=division, home=home, away=away, date=when)
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=by)


@pytest.mark.parametrize("secretary", [False, True], ids=["captain", "captain and secretary"])
def test_my_fixtures_asks_as_many_queries_for_one_result_waiting_as_for_several(
    django_assert_num_queries, secretary
):
    division = DivisionFactory(season__league=_league("yorkshire"))
    home, away, users = captained_teams(division, players=8)
    if secretary:
        division.season.league.secretaries.add(users["home"])
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:my_fixtures")
    _waiting(division, home, away, users["away"], weeks=1)
    with django_assert_num_queries(MY_FIXTURES_QUERIES):
        page = client.get(url).content.decode()
    assert page.count('data-action="confirm"') == 1
    for weeks in (2, 3, 4):
        _waiting(division, home, away, users["away"], weeks=weeks)
    with django_assert_num_queries(MY_FIXTURES_QUERIES):
        page = client.get(url).content.decode()
    assert page.count('data-action="confirm"') == 4
