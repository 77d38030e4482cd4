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
