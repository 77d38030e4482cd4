"""A captain's result waiting for the other captain, who has no account yet (they have not
accepted their invitation): the secretary, with the paper card, offered only "Confirm the
result", settles it with the corrected card or disputes it for that side, the captains told
as they are of any dispute or settlement."""

from __future__ import annotations

from html import unescape

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from leagues.models import AuditEntry, FixtureResult, ResultSubmission
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.factories.scoring import UserFactory
from tests.leagues.test_result_messages import _addressed, _told, _words
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db

Status = ResultSubmission.Status


def _waiting():
    """Black Bull's captain entered the card (8–2); it waits for Old Hall's captain. Every
    address set and the mail so far cleared: the fixture, its users, their addresses and the
    submission."""
    fixture, users = _fixture()
    addresses = _addressed(users)
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert submission.status == Status.SUBMITTED
    mail.outbox.clear()
    return fixture, users, addresses, submission


def test_a_secretary_settles_a_waiting_result_with_the_paper_card(
    django_capture_on_commit_callbacks,
):
    """Refused before ("There is no disputed result to settle"): the card the secretary types
    settles the result waiting for Old Hall, which counts, and each captain is told the new
    score once, as a dispute settled with the card is told."""
    fixture, users, addresses, submission = _waiting()
    with django_capture_on_commit_callbacks(execute=True):
        settled = fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=4, games=((10, 11),))],
            settlement="Old Hall's card: table 4 was 10–11",
            by=users["secretary"],
        )
    assert settled.status == Status.SETTLED and settled.is_confirmed
    assert settled.settled_by == users["secretary"]
    submission.refresh_from_db()
    assert submission.status == Status.WITHDRAWN
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_match_points, result.away_match_points) == (6, 4)
    entry = AuditEntry.objects.get(fixture=fixture, action="result_settled")
    assert entry.subject.startswith(f"Result of {fixture} settled")
    for side in ("home", "away"):
        told = _told(addresses[side])
        assert [message.subject for message in told] == [f"Result settled: {fixture}"], side
        assert (
            f"The result of {fixture} is settled with the corrected score card the secretary "
            "entered: the result is now Black Bull 6–4 Old Hall (it was submitted as 8–2). "
            "Old Hall's card: table 4 was 10–11." in _words(told[0])
        )


def test_a_waiting_result_settled_with_a_paper_card_that_agrees_is_not_said_corrected(
    django_capture_on_commit_callbacks,
):
    """Old Hall's captain, with no account, agrees the result with the secretary, who types
    the paper card as it is: both captains were told the result was settled "with the
    corrected score card the secretary entered", though nothing was corrected."""
    fixture, users, addresses, _submission = _waiting()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=4, games=((11, 10),))],
            settlement="Old Hall's captain agrees: their card is the same",
            by=users["secretary"],
        )
    for side in ("home", "away"):
        told = _told(addresses[side])
        assert [message.subject for message in told] == [f"Result settled: {fixture}"], side
        words = _words(told[0])
        assert (
            f"The result of {fixture} is settled with the score card the secretary entered, "
            "which gives the result as it was submitted: Black Bull 8–2 Old Hall. Old Hall's "
            "captain agrees: their card is the same." in words
        ), words
        assert "corrected" not in words


def test_a_secretary_disputes_a_waiting_result_for_the_side_it_waits_for(
    django_capture_on_commit_callbacks,
):
    """Refused before (only a captain still to agree disputed): the secretary disputes it, the
    captains are told as of any dispute, and the secretary settles it."""
    fixture, users, addresses, submission = _waiting()
    assert confirmation.can_dispute(submission=submission, by=users["secretary"])
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(
            submission=submission, reason="Old Hall's card has table 4 10–11", by=users["secretary"]
        )
    submission.refresh_from_db()
    assert submission.status == Status.DISPUTED
    assert submission.disputed_by == users["secretary"]
    for side in ("home", "away"):
        assert [m.subject for m in _told(addresses[side])] == [f"Result disputed: {fixture}"]
    confirmation.result_settle(
        submission=submission, uphold=False, note="Enter Old Hall's card", by=users["secretary"]
    )
    submission.refresh_from_db()
    assert submission.status == Status.WITHDRAWN


def test_only_a_secretary_who_did_not_submit_it_settles_or_disputes_a_waiting_result():
    """The service says who: a captain of the side that submitted it does not settle it with
    a card, and a secretary who submitted it (with a colleague to judge it) neither disputes
    nor settles it: they take it back."""
    fixture, users, _addresses, submission = _waiting()
    with pytest.raises(PermissionDenied):
        fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=4, games=((10, 11),))],
            settlement="Mine",
            by=users["home"],
        )
    with pytest.raises(PermissionDenied):
        confirmation.result_dispute(submission=submission, reason="Mine", by=users["home"])
    confirmation.result_take_back(submission=submission, by=users["home"])
    fixture.division.season.league.secretaries.add(UserFactory())
    own = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["secretary"])
    assert not confirmation.can_dispute(submission=own, by=users["secretary"])
    with pytest.raises(PermissionDenied):
        confirmation.result_dispute(submission=own, reason="Mine", by=users["secretary"])
    with pytest.raises((PermissionDenied, ValidationError)):
        fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=4, games=((10, 11),))],
            settlement="Mine",
            by=users["secretary"],
        )
    own.refresh_from_db()
    assert own.status == Status.SUBMITTED


def test_the_secretarys_pages_offer_the_card_and_the_dispute_for_a_waiting_result():
    """The score card said "The result is submitted: confirm or dispute it on the result page"
    and the result page offered only Confirm: now the card opens to settle it, saying what it
    settles, the result page offers Dispute and the card too, and the card typed settles it."""
    fixture, users, _addresses, _submission = _waiting()
    client = Client()
    client.force_login(users["secretary"])
    result_url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    page = unescape(client.get(result_url).content.decode())
    assert 'data-testid="confirm-result"' in page
    assert 'data-testid="dispute-result"' in page
    assert 'data-testid="settle-waiting-with-card"' in page
    card_url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    card = unescape(client.get(card_url).content.decode())
    assert 'data-testid="card-closed"' not in card
    assert "Settle with the score card" in card
    assert "it waits for Old Hall's captain to confirm it" in card
    assert "How the result is settled (both captains read it)" in card
    response = client.post(card_url, {"t4_g1_home": "10", "t4_g1_away": "11"})
    assert "How the result is settled: say it in a line" in unescape(response.content.decode())
    client.post(card_url, {"t4_g1_home": "10", "t4_g1_away": "11", "settlement": "Old Hall's card"})
    settled = ResultSubmission.objects.get(fixture=fixture, status=Status.SETTLED)
    assert settled.settlement == "Old Hall's card"
    # The away captain's page no longer asks them to confirm or dispute.
    away = Client()
    away.force_login(users["away"])
    assert 'data-testid="confirm-result"' not in away.get(result_url).content.decode()
