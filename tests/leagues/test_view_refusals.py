"""A secretary's action posted by someone who does not run the league: the service refuses it
(the views do not ask a second time), the answer is a 403 and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import PointAdjustment, TeamEntry
from leagues.services import adjustments, confirmation
from scoring.actors import Actor
from tests.leagues.helpers import page_words
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


def test_a_second_tap_on_confirm_is_told_why_on_a_page_with_a_way_on():
    """A captain's phone still showing Confirm (a double tap, another tab) after their team
    agreed: not a bare "403 Forbidden", nor a refusal as if it were not theirs to do (9649a60),
    but the result's page saying it is done already; nothing changes."""
    world = build(played=True)
    captain = world.users["home_captain"]
    submission = confirmation.result_submit(fixture=world.fixture, actor=Actor.of(captain))
    client = Client()
    client.force_login(world.users["away_captain"])
    url = reverse("leagues:fixture_result", args=[world.fixture.pk])
    assert client.post(url, {"action": "confirm"}).status_code == 302
    submission.refresh_from_db()
    confirmed_at = submission.confirmed_at
    response = client.post(url, {"action": "confirm"}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == url
    words = page_words(response)
    assert "You have already confirmed this result: it counts." in words
    assert "Only a captain of a team that has not agreed yet" not in words
    assert reverse("leagues:my_fixtures") in words
    submission.refresh_from_db()
    assert submission.confirmed_at == confirmed_at


def test_a_mistyped_address_finds_the_sites_page_with_a_way_on(client):
    """A scorer typing a table's link by hand from the QR page, one letter wrong, met a bare
    "Not Found": the site's page says what happened and where to go."""
    response = client.get("/games/s/Qcsi1NYm76jLU6vBf3uJ0ISWQPB_SGpoU5a79k9FXoX/")
    assert response.status_code == 404
    words = page_words(response)
    assert "There is no page at this address" in words
    assert "Check it against the QR code" in words
    assert reverse("leagues:league_list") in words
