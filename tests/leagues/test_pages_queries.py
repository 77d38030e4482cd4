"""The standings and fixtures pages run a fixed number of queries, whatever the division's size.

The same ceiling holds for 4 and 12 teams with a full double round robin of stored results, a
deduction and fixtures still to play.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues.models import Fixture
from leagues.services.fixtures import fixtures_generate
from tests.factories.leagues import (
    DivisionFactory,
    FixtureResultFactory,
    LeagueFactory,
    PointAdjustmentFactory,
    TeamEntryFactory,
)

pytestmark = pytest.mark.django_db

STANDINGS_QUERIES = 7
"""The division (the page's, then the selector's), entries, results and adjustments, the
fixture counts for the provisional note, and the chart's results."""
FIXTURES_QUERIES = 4
"""The division, its entries (the team chooser), its weeks and the week's or team's fixtures."""


def division_of(size: int, style: str):
    league = LeagueFactory(trinidad=True) if style == "trinidad" else LeagueFactory()
    division = DivisionFactory(season__league=league)
    entries = [TeamEntryFactory(division=division) for _ in range(size)]
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=2)
    fixtures = list(Fixture.objects.filter(division=division).order_by("date", "pk"))
    for i, fixture in enumerate(fixtures[: len(fixtures) * 3 // 4]):
        FixtureResultFactory(fixture=fixture, home_win=i % 3 != 0, away_win=i % 3 == 0)
    PointAdjustmentFactory(entry=entries[0], points=-2)
    return division


@pytest.mark.parametrize("style", ["yorkshire", "trinidad"])
@pytest.mark.parametrize("size", [4, 12])
def test_standings_page_queries_do_not_grow(client, django_assert_max_num_queries, size, style):
    division = division_of(size, style)
    url = reverse("leagues:division", args=[division.pk])
    with django_assert_max_num_queries(STANDINGS_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count("<tr") == size + 1
    with django_assert_max_num_queries(STANDINGS_QUERIES):
        assert client.get(url, {"sort": "-pegs_for"}).status_code == 200


@pytest.mark.parametrize("size", [4, 12])
def test_fixtures_page_queries_do_not_grow(client, django_assert_max_num_queries, size):
    division = division_of(size, "yorkshire")
    url = reverse("leagues:division_fixtures", args=[division.pk])
    team = division.entries.first().team
    for query in (
        {},
        {"week": "2025-09-09"},
        {"team": team.pk},
        {"team": team.pk, "sort": "-home"},
    ):
        with django_assert_max_num_queries(FIXTURES_QUERIES):
            response = client.get(url, query)
        assert response.status_code == 200
