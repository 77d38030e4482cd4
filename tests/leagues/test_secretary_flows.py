"""Secretary flows that end somewhere: seating a fixture nobody can sit at says whom to register
and links there (and back); after seating, each table's scoring link is on the page with the
word that scorers use it; a result page offers every action its heading promises."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import FixtureTable, Registration
from leagues.services import confirmation
from scoring.actors import Actor
from tests.factories.leagues import FixtureFactory, TeamEntryFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


def secretary(world) -> Client:
    client = Client()
    client.force_login(world.users["secretary"])
    return client


def test_seating_a_team_with_no_players_says_whom_to_register_and_links_there():
    world = build(played=False)
    division = world.fixture.division
    newcomers = TeamEntryFactory(division=division, team__name="Newcomers").team
    fixture = FixtureFactory(division=division, home=world.fixture.home, away=newcomers)
    client = secretary(world)
    url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])

    page = client.get(url).content.decode()
    assert "Register players first" in page
    assert "<strong>Newcomers</strong> has no registered players" in page
    register = (
        reverse("leagues:manage_register", args=[world.league.slug])
        + f"?team={newcomers.pk}&amp;fixture={fixture.pk}"
    )
    assert register in page
    assert "<select" not in page, "no empty lists to choose from"

    # Posting anyway changes nothing and shows no wall of "This field is required."
    response = client.post(url, {"start": "1"})
    assert response.status_code == 200
    assert "This field is required." not in response.content.decode()
    assert not FixtureTable.objects.filter(fixture=fixture).exists()

    # The register page leads back to the seating, and keeps doing so after each player.
    page = client.get(register.replace("&amp;", "&")).content.decode()
    assert f'href="{url}" data-testid="back-to-seating"' in page
    response = client.post(
        register.replace("&amp;", "&"),
        {"name": "New Player", "team": newcomers.pk, "season": division.season.pk},
    )
    assert response.status_code == 302 and f"fixture={fixture.pk}" in response["Location"]
    assert Registration.objects.filter(team=newcomers).count() == 1
    page = client.get(url).content.decode()
    assert "Register players first" not in page and "<select" in page


def test_a_fixture_of_another_league_is_not_offered_on_the_register_page():
    world = build(played=False)
    other = build(played=False)
    client = secretary(world)
    register = reverse("leagues:manage_register", args=[world.league.slug])
    page = client.get(register, {"fixture": other.fixture.pk}).content.decode()
    assert "back-to-seating" not in page


def test_after_seating_each_tables_link_is_shown_and_scorers_are_told_to_use_it():
    world = build(played=False)
    division = world.fixture.division
    fixture = FixtureFactory(division=division, home=world.fixture.home, away=world.fixture.away)
    client = secretary(world)
    url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])
    form = client.get(url).context["form"]
    data = {}
    for name, field in form.fields.items():
        # Both players of each pair: a pairs league seats no one on their own.
        if name.endswith(("_1", "_2")):
            data[name] = field.choices[1 if name.endswith("_1") else 2][0]
    response = client.post(url, {**data, "start": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "leagues:manage_fixture_card", args=[fixture.pk]
    )
    page = response.content.decode()
    assert "QR code below (or opens its link) to score its games; no account needed" in page
    table = FixtureTable.objects.get(fixture=fixture)
    assert table.scoring_link.get_absolute_url() in page

    page = client.get(url).content.decode()
    assert "Scorers need no account" in page
    assert re.search(r'data-testid="seated-link-1">http://testserver/games/s/[^<]+<', page)
    assert "from this page" not in page


@pytest.mark.parametrize("role", ["away_captain", "secretary"])
def test_a_result_page_offers_every_action_its_heading_promises(role):
    world = build(played=True)
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    client = Client()
    client.force_login(world.users[role])
    page = client.get(reverse("leagues:fixture_result", args=[world.fixture.pk])).content.decode()
    heading = re.search(r'data-testid="confirm-or-dispute">\s*<h2>([^<]+)</h2>', page).group(1)
    assert ('data-testid="confirm-result"' in page) == heading.startswith("Confirm")
    assert ('data-testid="dispute-result"' in page) == ("ispute" in heading)
