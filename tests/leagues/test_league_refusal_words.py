"""Refusals read in the league's words, and an action's address followed by a GET leads to the
page the action is on (never Django's own wording, never a bare 405)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues.models import PointAdjustment, Team, TeamEntry
from leagues.services.adjustments import points_adjust
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build(played=False)


def test_a_duplicate_team_name_is_refused_in_the_leagues_words(client, world):
    client.force_login(world.users["secretary"])
    team = world.fixture.home
    url = reverse("leagues:manage_team_create", args=[world.league.slug])
    page = client.post(url, {"name": team.name, "home_venue": team.home_venue_id}).content
    words = page.decode()
    assert "The league already has a team of that name" in words
    assert "already exists" not in words and "Slug" not in words
    assert Team.objects.filter(league=world.league, name=team.name).count() == 1


def test_a_get_of_an_action_address_is_the_page_the_action_is_on(client, world):
    client.force_login(world.users["secretary"])
    league, fixture = world.league, world.fixture
    entry = TeamEntry.objects.get(team=fixture.home)
    made = points_adjust(entry=entry, points=-2, reason="Late start", by=world.users["secretary"])
    assert isinstance(made, PointAdjustment)
    division = fixture.division.pk
    for action, page in [
        (
            reverse("leagues:manage_adjustment_withdraw", args=[division, made.pk]),
            reverse("leagues:manage_adjustments", args=[division]),
        ),
        (
            reverse("leagues:manage_team_withdraw", args=[league.slug, fixture.home.pk]),
            reverse("leagues:manage_team", args=[league.slug, fixture.home.pk]),
        ),
    ]:
        response = client.get(action)
        assert response.status_code == 302 and response["Location"] == page, action
        assert client.get(page).status_code == 200
    # nothing was done by the GETs
    assert PointAdjustment.objects.filter(pk=made.pk).exists()
    assert not TeamEntry.objects.get(pk=entry.pk).is_withdrawn


@pytest.mark.parametrize("what", ["season", "division", "venue", "team"])
def test_a_name_with_no_letters_or_digits_is_refused_in_words_nothing_stored(client, world, what):
    """A season, division, venue or team called "---" was refused with Django's "This field
    cannot be blank.": its web address is made from its name, which has nothing to make one
    from. The form says so under the name, as a league's name is refused, and nothing is
    stored."""
    from leagues.models import Division, Season, Venue

    client.force_login(world.users["secretary"])
    league, season = world.league, world.fixture.division.season
    url, data, model = {
        "season": (
            reverse("leagues:manage_season_create", args=[league.slug]),
            {"starts_on": "2040-09-01"},
            Season,
        ),
        "division": (
            reverse("leagues:manage_division_create", args=[league.slug, season.pk]),
            {"rank": "3"},
            Division,
        ),
        "venue": (reverse("leagues:manage_venue_create", args=[league.slug]), {}, Venue),
        "team": (
            reverse("leagues:manage_team_create", args=[league.slug]),
            {"home_venue": world.fixture.home.home_venue_id},
            Team,
        ),
    }[what]
    before = model.objects.count()
    response = client.post(url, {"name": "---", **data})
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        f"Give the {what} a name with letters (a to z) or digits: “---” has none to make its "
        "web address from."
    ]
    assert "cannot be blank" not in response.content.decode()
    assert model.objects.count() == before
