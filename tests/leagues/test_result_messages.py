"""What captains are told about a result, found wrong walking the demo: a dispute settled with
the corrected card told as withdrawn and as standing at once, a reopened result told to no one,
a result withdrawn by a corrected hand said to come again by itself, and a Confirm from a page
loaded before that change answered without a reason."""

from __future__ import annotations

import pytest
from django.core import mail

from leagues.models import FixtureResult
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _addressed(users) -> dict[str, str]:
    """Each of the fixture's people with an email address: their address by "home", "away"
    and "secretary"."""
    addresses = {}
    for who, user in users.items():
        user.email = f"{who}@example.org"
        user.save(update_fields=["email"])
        addresses[who] = user.email
    return addresses


def _told(address: str) -> list:
    return [message for message in mail.outbox if message.to == [address]]


def _words(message) -> str:
    return " ".join(message.body.split())


def test_a_dispute_settled_with_the_corrected_card_is_one_email_with_the_new_score(
    django_capture_on_commit_callbacks,
):
    """Both captains got "Result withdrawn … nothing left to settle … submitted again once every
    table has finished" and "Dispute settled … the submitted result stands" at once, though the
    corrected card's result counted: now one email each, with the new score and the note."""
    fixture, users = _fixture()
    addresses = _addressed(users)
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=4, games=((10, 11),))],
            settlement="Both captains agreed by phone: table 4 was 10–11",
            by=users["secretary"],
        )
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_match_points, result.away_match_points) == (6, 4)
    for side in ("home", "away"):
        told = _told(addresses[side])
        assert [message.subject for message in told] == [f"Dispute settled: {fixture}"], side
        words = _words(told[0])
        assert (
            f"The dispute over {fixture} is settled: the secretary settled it with the corrected "
            f"score card: the result is now Black Bull 6–4 Old Hall (it was submitted as 8–2). "
            "Both captains agreed by phone: table 4 was 10–11." in words
        ), words
        assert "stands" not in words and "withdrawn" not in words
    assert not any("withdrawn" in message.subject for message in mail.outbox)
