"""Two pubs of one name in a league ("Black Bull, Mirfield" and "Black Bull, Liversedge") are
told apart wherever a venue is named: the lists named both "Black Bull" (the division's
fixtures by week, the team page, the league home's next fixtures, ``fixtures.csv``), where the
fixture's page gave the town. Every one names a venue as the fixture's page does
(``venue_words``)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from leagues.models import venue_words
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory, VenueFactory
from tests.leagues.helpers import entered_teams, page_words

pytestmark = pytest.mark.django_db


def _seen(response) -> str:
    assert response.status_code == 200
    return page_words(re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_two_pubs_of_one_name_are_told_apart_wherever_a_venue_is_named(client):
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    mirfield = VenueFactory(league=league, name="Black Bull", slug="bull-m", town="Mirfield")
    liversedge = VenueFactory(league=league, name="Black Bull", slug="bull-l", town="Liversedge")
    reds, blues = entered_teams(division, ["Reds", "Blues"], players=2)
    night = league.today() + datetime.timedelta(days=7)
    first = FixtureFactory(division=division, home=reds, away=blues, venue=mirfield, date=night)
    FixtureFactory(
        division=division,
        home=blues,
        away=reds,
        venue=liversedge,
        date=night + datetime.timedelta(days=7),
    )
    pages = {
        "fixture page": _seen(client.get(first.get_absolute_url())),
        "week": _seen(client.get(division.get_absolute_url() + f"fixtures/?week={night}")),
        "team": _seen(client.get(reverse("leagues:team", args=[reds.pk]))),
        "league home": _seen(client.get(reverse("leagues:league", args=[league.slug]))),
        "csv": client.get(
            reverse("leagues:division_fixtures_csv", args=[division.pk])
        ).content.decode(),
    }
    for name, page in pages.items():
        assert "Black Bull, Mirfield" in page, name
    for name in ("team", "csv"):
        assert "Black Bull, Liversedge" in pages[name], name
    assert '"Black Bull, Mirfield"' in pages["csv"]
    assert f"Black Bull, Mirfield, {first.time:%H:%M}" in pages["league home"]


def test_a_venue_is_named_with_its_town_where_it_has_one():
    assert venue_words("Black Bull", "Mirfield") == "Black Bull, Mirfield"
    assert venue_words("Black Bull", "") == "Black Bull"
