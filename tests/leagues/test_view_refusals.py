"""A secretary's action posted by someone who does not run the league: the service refuses it
(the views do not ask a second time), the answer is a 403 and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import PointAdjustment, TeamEntry
from leagues.services import adjustments
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ["stranger", "home_captain", "other_secretary"])
def test_withdrawing_an_adjustment_or_a_team_is_refused_by_the_service(role):
    world = build(played=False)
    entry = TeamEntry.objects.get(team=world.fixture.home, season=world.fixture.division.season)
    made = adjustments.points_adjust(entry=entry, points=-2, reason="late", by=None)
    client = Client()
    client.force_login(world.users[role])
    division = world.fixture.division
    response = client.post(
        reverse("leagues:manage_adjustment_withdraw", args=[division.pk, made.pk])
    )
    assert response.status_code == 403
    assert PointAdjustment.objects.filter(pk=made.pk).exists()
    response = client.post(
        reverse("leagues:manage_team_withdraw", args=[world.league.slug, entry.team_id]),
        {"season": entry.season_id, "reinstate": "1"},
    )
    assert response.status_code == 403
