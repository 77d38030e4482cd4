"""The account's own page: a signed-in person sees how they log in and gives or changes their
name, which every page and mail that names them then reads."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues.services.cards import fixture_card_enter
from tests.leagues.helpers import page_words
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_secretary_gives_their_name_and_the_result_page_names_them_by_it():
    """A secretary who signed up had no name and nowhere to give one: the result page read
    "Submitted by the secretary", to them and to the captains, for good."""
    fixture, users = _fixture()
    secretary = users["secretary"]
    secretary.email = "maureen@example.org"
    secretary.save(update_fields=["email"])
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=secretary)
    result = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    client = _client(secretary)
    # Until they give one, it reads as it did.
    assert "Submitted by the secretary on" in unescape(page_words(client.get(result)))

    # My fixtures, where logging in lands, says who is logged in and leads to the account.
    mine = page_words(client.get(reverse("leagues:my_fixtures")))
    assert f'href="{reverse("account")}" data-testid="account-link">Give your name</a>' in mine
    page = unescape(page_words(client.get(reverse("account"))))
    assert (
        f"You log in as <strong>{secretary.username}</strong>; notices and password resets go "
        "to <strong>maureen@example.org</strong>." in page
    )
    assert "Your account has no name yet" in page
    response = client.post(reverse("account"), {"name": "  Maureen   Kaye "}, follow=True)
    assert response.redirect_chain == [(reverse("account"), 302)]
    done = unescape(page_words(response))
    assert "Your name is now Maureen Kaye." in done and "no name yet" not in done
    secretary.refresh_from_db()
    assert (secretary.first_name, secretary.last_name) == ("Maureen", "Kaye")
    mine = page_words(client.get(reverse("leagues:my_fixtures")))
    assert f"Logged in as <strong>Maureen Kaye</strong> ({secretary.username})" in mine
    assert 'data-testid="account-link">Your account</a>' in mine
    for viewer in (secretary, users["away"]):
        page = unescape(page_words(_client(viewer).get(result)))
        assert "Submitted by Maureen Kaye (secretary) on" in page


def test_a_name_is_required_and_kept_within_its_length():
    fixture, users = _fixture()
    client = _client(users["secretary"])
    refused = client.post(reverse("account"), {"name": "   "})
    assert refused.status_code == 422
    assert "Give your name, as your league knows you" in str(refused.context["form"].errors["name"])
    long = client.post(reverse("account"), {"name": "M" * 121})
    assert long.status_code == 422 and "at most 120" in str(long.context["form"].errors["name"])
    users["secretary"].refresh_from_db()
    assert users["secretary"].get_full_name() == ""


def test_a_captain_reads_their_name_as_a_player_until_they_give_their_own():
    fixture, users = _fixture()
    client = _client(users["home"])
    page = client.get(reverse("account")).content.decode()
    assert 'value="Black Bull captain"' in page and "no name yet" not in page
    client.post(reverse("account"), {"name": "Roy Stead"})
    users["home"].refresh_from_db()
    assert users["home"].get_full_name() == "Roy Stead"


def test_the_account_page_is_for_a_signed_in_person():
    response = Client().get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
