"""How a result settled with the secretary's card, and one reopened, read on the result page:
who entered the figures that stand, not only who submitted the result they replaced; a
reopened result's heading agrees with its body (not "Played" over "Not submitted yet")."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.leagues.helpers import page_words
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _status(page: str) -> str:
    """The words of the result page's "Where the result stands" status line."""
    found = re.search(r'data-testid="submission-status"[^>]*>(.*?)</p>', page, re.S)
    assert found is not None
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def _status_seen_by(user, fixture) -> str:
    """The result page's status line as ``user``, signed in, reads it."""
    client = Client()
    client.force_login(user)
    return _status(page_words(client.get(reverse("leagues:fixture_result", args=[fixture.pk]))))


def test_a_result_settled_with_the_secretarys_card_names_who_entered_the_figures():
    """It read "Submitted by Old Hall captain (captain of Old Hall)" though the figures were
    the secretary's card: it says whose card the figures are from, and what it settled."""
    fixture, users = _fixture()
    users["secretary"].first_name, users["secretary"].last_name = "Susan", "Booth"
    users["secretary"].save()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["away"])
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["home"])
    fixture_card_enter(
        fixture=fixture,
        tables=[CardTable(board=4, games=((10, 11),))],
        settlement="Card checked",
        by=users["secretary"],
    )
    status = _status_seen_by(users["home"], fixture)
    assert status.startswith("Settled by the secretary. The figures are from the score card ")
    assert "entered by Susan Booth (secretary) on " in status
    assert "settling the result submitted by Old Hall captain (captain of Old Hall) on " in status
    assert "and disputed by Black Bull captain (captain of Black Bull)." in status
    assert "Submitted by" not in status


def test_a_result_confirmed_as_submitted_still_says_who_submitted_it():
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    status = _status_seen_by(users["home"], fixture)
    assert "Submitted by Black Bull captain (captain of Black Bull) on " in status
    assert "The figures are from" not in status


def test_a_reopened_result_is_headed_as_reopened_not_played():
    """Its heading said "Played" over "Not submitted yet", the standings having dropped it."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    confirmation.result_reopen(fixture=fixture, reason="Wrong player", by=users["secretary"])
    for viewer in (users["home"], users["secretary"], None):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        url = reverse("leagues:fixture_result", args=[fixture.pk])
        page = unescape(page_words(client.get(url)))
        heading = re.search(r'<p class="muted">(.*?)</p>', page, re.S)
        assert heading is not None
        assert "· Reopened: to be submitted again ·" in heading.group(1)
        assert "Played" not in heading.group(1)
        assert "Not submitted yet." in page
