"""A result both captains confirmed names both, each with when they agreed, not the last to
confirm alone: on its result page, and "by both captains" on the fixture's page and My
fixtures."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues.models import AuditEntry, ResultSubmission
from leagues.services import confirmation
from scoring.actors import Actor
from tests.leagues.helpers import page_words
from tests.leagues.test_access import build, client_for

pytestmark = pytest.mark.django_db

BLACK_BULL = "Black Bull captain (captain of Black Bull)"
OLD_HALL = "Old Hall captain (captain of Old Hall)"


def at(hour: int) -> datetime.datetime:
    return datetime.datetime(2026, 11, 24, hour, 5, tzinfo=datetime.UTC)


def timed(submission, *, submitted: int, agreed: int, confirmed: int) -> None:
    """The result submitted, agreed by one side and confirmed by the other at those hours of
    24 November 2026, UTC (London keeps UTC then)."""
    ResultSubmission.objects.filter(pk=submission.pk).update(
        submitted_at=at(submitted), confirmed_at=at(confirmed)
    )
    AuditEntry.objects.filter(
        fixture=submission.fixture, action=AuditEntry.Action.RESULT_AGREED
    ).update(at=at(agreed))


def pages(world, role: str) -> dict[str, str]:
    client = client_for(world, role)
    pk = world.fixture.pk
    return {
        name: page_words(client.get(url))
        for name, url in (
            ("result", reverse("leagues:fixture_result", kwargs={"pk": pk})),
            ("fixture", reverse("leagues:fixture", kwargs={"pk": pk})),
            ("my", reverse("leagues:my_fixtures")),
        )
    }


@pytest.mark.parametrize("role", ["home_captain", "secretary"])
def test_a_table_links_result_agreed_by_each_captain_in_turn_names_both(role):
    """The table's link submits at 21:05, the home captain agrees at 22:05, the away captain
    confirms at 23:05 (London keeps UTC in November): both named, each with their time."""
    world = build(played=True)
    link = Actor.of(None, link=world.table.scoring_link)
    submission = confirmation.result_submit(fixture=world.fixture, actor=link)
    confirmation.result_confirm(submission=submission, by=world.users["home_captain"])
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    timed(submission, submitted=21, agreed=22, confirmed=23)
    seen = pages(world, role)
    assert (
        f"Confirmed by both captains: {BLACK_BULL} on 24 Nov 2026 22:05 London time, and "
        f"{OLD_HALL} on 24 Nov 2026 23:05 London time." in seen["result"]
    )
    assert f"Confirmed by {OLD_HALL}" not in seen["result"]
    assert "Result confirmed by both captains</a>" in seen["fixture"]
    if role == "home_captain":
        assert "Result confirmed by both captains: 4–0." in seen["my"]


@pytest.mark.parametrize(
    ("submitter", "confirmer", "first", "second"),
    [
        ("home_captain", "away_captain", BLACK_BULL, OLD_HALL),
        ("away_captain", "home_captain", OLD_HALL, BLACK_BULL),
    ],
)
def test_a_captains_result_confirmed_by_the_other_names_the_submitters_side_too(
    submitter, confirmer, first, second
):
    """The submitting captain's submission is their side's agreement, at its time, and is named
    first whichever side submitted: the names in the order they agreed, the times forwards."""
    world = build(played=True)
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users[submitter])
    )
    confirmation.result_confirm(submission=submission, by=world.users[confirmer])
    timed(submission, submitted=21, agreed=22, confirmed=23)
    result = pages(world, confirmer)["result"]
    assert (
        f"Confirmed by both captains: {first} on 24 Nov 2026 21:05 London time, and "
        f"{second} on 24 Nov 2026 23:05 London time." in result
    )


def test_a_result_a_secretary_confirmed_still_names_the_secretary_alone():
    world = build(played=True)
    link = Actor.of(None, link=world.table.scoring_link)
    submission = confirmation.result_submit(fixture=world.fixture, actor=link)
    confirmation.result_confirm(submission=submission, by=world.users["home_captain"])
    confirmation.result_confirm(submission=submission, by=world.users["secretary"])
    seen = pages(world, "home_captain")
    assert "Confirmed by both captains" not in seen["result"]
    assert "Confirmed by " in seen["result"]
    assert "Result confirmed</a>" in seen["fixture"]
    assert "Result confirmed: 4–0." in seen["my"]
