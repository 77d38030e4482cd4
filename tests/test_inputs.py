"""Typed input is cleaned at the form: control characters refused with a message, direction
overrides stripped, ids of ASCII digits only, dates in a sane range; never a server error."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from config.inputs import SaneDateField, TextField, clean_text, strict_id
from leagues.models import ResultSubmission, Team
from leagues.services import confirmation
from scoring.actors import Actor
from tests.leagues.test_access import build, client_for


@pytest.mark.parametrize("text", ["12", " 7 "])
def test_strict_ids_are_ascii_digits(text):
    assert strict_id(text) == int(text)


@pytest.mark.parametrize("text", ["²", "١٢", "-1", "1e3", "", None, "9" * 40, "1\x00"])
def test_anything_else_is_not_an_id(text):
    assert strict_id(text) is None


def test_control_characters_are_refused_and_overrides_stripped():
    with pytest.raises(ValidationError, match="NUL"):
        clean_text("Pub\x00 flooded")
    with pytest.raises(ValidationError, match="U\\+0007"):
        TextField().clean("bell\x07")
    assert clean_text("line one\nline two", multiline=True) == "line one\nline two"
    with pytest.raises(ValidationError):
        clean_text("line one\nline two")
    assert TextField().clean("\u202eevil\u202c Arms") == "evil Arms"


def test_a_far_date_is_a_form_error():
    with pytest.raises(ValidationError, match="check the year"):
        SaneDateField().clean("9999-12-31")


pytestmark = pytest.mark.django_db


def test_a_nul_in_a_dispute_reason_is_refused_with_a_message_not_a_500():
    world = build(played=True)
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    client = client_for(world, "away_captain")
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"action": "dispute", "reason": "wrong\x00"}, follow=True)
    assert response.status_code == 200
    assert "cannot be stored" in response.content.decode()
    assert ResultSubmission.objects.get(fixture=world.fixture).status == "submitted"


def test_unicode_digits_in_ids_are_refused_not_a_500():
    world = build(played=False)
    client = client_for(world, "secretary")
    card = reverse("leagues:manage_fixture_card", kwargs={"pk": world.fixture.pk})
    assert client.post(card, {"table": "²", "action": "revoke"}).status_code == 302
    register = reverse("leagues:manage_register", kwargs={"slug": world.league.slug})
    assert client.get(register + "?team=²").status_code == 200
    secretaries = reverse("leagues:manage_secretaries", kwargs={"slug": world.league.slug})
    assert client.post(secretaries, {"action": "remove", "user": "²"}).status_code == 404


def test_far_dates_in_generation_and_rearrangement_are_form_errors():
    world = build(played=False)
    client = client_for(world, "secretary")
    url = reverse("leagues:manage_fixtures_generate", kwargs={"pk": world.fixture.division_id})
    data = {"start": "9999-12-28", "league_night": "1", "legs": "1", "exclusions": ""}
    response = client.post(url, data)
    assert response.status_code in (200, 422)
    assert "check the year" in response.content.decode()


def test_a_name_with_a_direction_override_is_stored_without_it():
    world = build(played=False)
    client = client_for(world, "secretary")
    team = world.fixture.home
    url = reverse("leagues:manage_team_edit", args=[world.league.slug, team.pk])
    client.post(url, {"name": "\u202eBull Black", "home_venue": team.home_venue_id})
    assert Team.objects.get(pk=team.pk).name == "Bull Black"


def test_the_public_game_audit_shows_roles_and_only_secretaries_see_account_names():
    world = build(played=True)
    game = world.game()
    url = reverse("scoring:game_audit", kwargs={"pk": game.pk})
    public = client_for(world, "stranger").get(url).content.decode()
    for user in world.users.values():
        assert f">{user.get_username()} (" not in public
    secretary = world.users["secretary"]
    client_for(world, "secretary").post(
        reverse("scoring:game_link", kwargs={"pk": game.pk}), {"action": "reissue"}
    )
    public = client_for(world, "stranger").get(url).content.decode()
    assert ">secretary<" in public and secretary.get_username() not in public
    private = client_for(world, "secretary").get(url).content.decode()
    assert f"{secretary.get_username()} (secretary)" in private


def test_the_result_page_names_roles_to_the_public():
    world = build(played=True)
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    public = client_for(world, "stranger").get(url).content.decode()
    assert "Submitted by the captain of Black Bull" in public
    assert world.users["home_captain"].get_username() not in public
    private = client_for(world, "secretary").get(url).content.decode()
    # The secretary reads the captain by name (as a player of the league), not their login.
    assert "Submitted by Black Bull captain (captain of Black Bull)" in private
    assert world.users["home_captain"].get_username() not in private
