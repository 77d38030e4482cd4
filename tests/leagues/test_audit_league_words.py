"""A fixture's audit trail in the league's words: a Trinidad league's "points scored" and
"bullseyes", as its result page says them, not Yorkshire's "pegs"; and a secretary reopening
a confirmed result reads as what happened, not as a status code changing."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.leagues.test_score_card import _fixture

pytestmark = pytest.mark.django_db


def _changes(page: str, action: str) -> list[str]:
    """The "What changed" lines of the page's first entry of ``action``."""
    row = page.split(f'data-testid="audit-{action}"')[1].split("</tr>")[0]
    items = re.findall(r"<li>(.*?)</li>", row, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]


@pytest.mark.parametrize(
    ("style", "pegged", "games"),
    [("trinidad", "points scored", "bullseyes"), ("yorkshire", "points pegged", "games")],
)
def test_the_audit_trail_names_the_figures_in_the_leagues_words(style, pegged, games) -> None:
    fixture, users = _fixture(style)
    tables = (
        [
            CardTable(board=1, games=((14, 9), (14, 12)), bullseyes=(2, 0), hang_jacks=(1, 0)),
            CardTable(board=2, games=((8, 14), (14, 11)), bullseyes=(1, 1), hang_jacks=(0, 2)),
        ]
        if style == "trinidad"
        else [CardTable(board=b, games=((11, 7),)) for b in range(1, 5)]
    )
    submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    confirmation.result_reopen(fixture=fixture, reason="Table 2 misread", by=users["secretary"])
    client = Client()
    client.force_login(users["secretary"])
    page = client.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])).content.decode()
    submitted = _changes(page, "result_submitted")
    result = fixture.result
    assert f"Home {pegged}: {result.home_pegs}" in submitted, submitted
    assert f"Away {pegged}: {result.away_pegs}" in submitted, submitted
    assert f"Home {games}: {result.home_games}" in submitted, submitted
    # The league points, as the result page names them: not "points" beside "points scored".
    assert f"Home league points: {result.home_points}" in submitted, submitted
    assert not any(" pegs:" in line for line in submitted), submitted
    reopened = _changes(page, "result_reopened")
    assert reopened[0] == "Result reopened: the confirmed result was withdrawn for correction"
    assert not any(line.startswith("Status:") for line in reopened), reopened
    assert "Reason: Table 2 misread" in reopened, reopened


def test_the_audit_trail_names_the_sides_by_their_teams_and_a_status_by_its_words() -> None:
    """The result's outcome, the sides that agreed it and a submission's status read as the
    pages say them: "Outcome: Black Bull" (the home team), "Status: Submitted, awaiting
    confirmation → Confirmed", where they read the stored "home" and "submitted"."""
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, games=((14, 9), (14, 12)), bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((14, 8), (14, 11)), bullseyes=(2, 0), hang_jacks=(0, 2)),
    ]
    submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    client = Client()
    client.force_login(users["secretary"])
    page = client.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])).content.decode()
    home, away = fixture.home.name, fixture.away.name
    lines = [
        line
        for action in ("result_submitted", "result_confirmed")
        for line in _changes(page, action)
    ]
    assert f"Outcome: {home}" in lines, lines
    assert "Status: Submitted, awaiting confirmation → Confirmed" in lines, lines
    assert not any(
        re.search(r"\b(home|away|submitted|confirmed)\b", line.split(":", 1)[1])
        for line in lines
        if line.startswith(("Outcome", "Status"))
    ), lines
    assert not any(f"{away}" in line for line in lines if line.startswith("Outcome")), lines
