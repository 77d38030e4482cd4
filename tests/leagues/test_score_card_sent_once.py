"""A score card is taken once: sent again (a double tap, a retry after its reply was lost) it
is answered with the card already submitted, nothing more stored. The card page's script
(``static/leagues/score_card.js``) is told where the card taken goes on, as a plain post is
redirected there, with the page's message still to read."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import ResultSubmission
from tests.factories.leagues import DivisionFactory, FixtureFactory
from tests.leagues.helpers import captained_teams
from tests.leagues.test_score_card import _league

pytestmark = pytest.mark.django_db

CARD = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "11"}
CARD |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "11", "t4_g1_away": "10"}
SCRIPT = {"HTTP_X_CARD_REPLY": "location"}


def _card(by: str = "home"):
    division = DivisionFactory(season__league=_league("yorkshire"))
    home, away, users = captained_teams(division, players=8)
    fixture = FixtureFactory(division=division, home=home, away=away)
    client = Client()
    client.force_login(users[by])
    return fixture, users, client, reverse("leagues:score_card", kwargs={"pk": fixture.pk})


def test_a_card_sent_twice_is_taken_once_and_the_second_told_it_is_in() -> None:
    fixture, users, client, url = _card()
    kept = f"{users['home'].pk}:{fixture.pk}"  # the card kept for the account that types it
    page = client.get(url).content.decode()
    assert f'data-card-keep="{kept}"' in page and "leagues/score_card" in page
    assert 'name="score-card-taken"' not in page
    assert client.post(url, CARD).status_code == 302
    again = client.post(url, CARD)
    assert again.status_code == 200
    body = again.content.decode()
    assert "You submitted this result" in body
    # The phone drops the card it kept: the server has it.
    assert f'<meta name="score-card-taken" content="{kept}">' in body
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1


def test_the_cards_script_is_told_where_the_card_taken_goes_on() -> None:
    fixture, _users, client, url = _card()
    answer = client.post(url, CARD, **SCRIPT)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    result = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    assert json.loads(answer.content) == {"location": result}
    # The message is still to be read there, as after the plain post's redirect.
    assert "Result from the score card submitted" in client.get(result).content.decode()
    again = client.post(url, CARD, **SCRIPT)
    assert again["Content-Type"].startswith("text/html")
    assert "You submitted this result" in again.content.decode()
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1


def test_a_refused_card_sent_by_the_script_is_the_card_again_with_what_was_sent() -> None:
    fixture, _users, client, url = _card()
    answer = client.post(url, CARD | {"t2_g1_away": "10"}, **SCRIPT)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/html")
    body = answer.content.decode()
    assert "data-card-posted" in body and 'value="10"' in body
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()


def test_a_secretary_from_the_desk_is_sent_back_to_it() -> None:
    fixture, _users, client, url = _card(by="secretary")
    answer = client.post(url + "?from=desk", CARD, **SCRIPT)
    slug = fixture.division.season.league.slug
    assert json.loads(answer.content) == {
        "location": reverse("leagues:manage_league", kwargs={"slug": slug})
    }
