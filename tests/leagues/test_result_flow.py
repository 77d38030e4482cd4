"""Where a tester found the result page a dead end: a secretary's own signed card they could
not reopen."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from leagues.models import AuditEntry, ResultSubmission
from leagues.services import confirmation
from leagues.services.cards import fixture_card_enter
from tests.factories.scoring import UserFactory
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _result_url(fixture) -> str:
    return reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})


def test_the_secretary_who_typed_a_signed_card_reopens_it_though_the_league_has_another():
    """A secretary typed the card both captains signed (it counted at once) with a slip: the
    page offered "Reopen" only to another secretary, and said nothing. Whoever typed it may
    reopen it (audited); a captain still may not."""
    fixture, users = _fixture()
    fixture.division.season.league.secretaries.add(UserFactory())
    fixture_card_enter(
        fixture=fixture, tables=_yorkshire_card(), signed=True, by=users["secretary"]
    )
    assert ResultSubmission.objects.get(fixture=fixture).is_confirmed
    url = _result_url(fixture)
    secretary = _client(users["secretary"])
    assert "Reopen the confirmed result" in secretary.get(url).content.decode()
    assert "Reopen the confirmed result" not in _client(users["home"]).get(url).content.decode()
    assert confirmation.can_reopen(fixture=fixture, by=users["secretary"])
    assert not confirmation.can_reopen(fixture=fixture, by=users["home"])
    done = secretary.post(url, {"action": "reopen", "reason": "Table 2 typed the wrong way"})
    assert done.status_code == 302
    assert ResultSubmission.objects.get(fixture=fixture).status == "withdrawn"
    entry = AuditEntry.objects.get(fixture=fixture, action="result_reopened")
    assert entry.by == users["secretary"] and entry.after["reason"] == "Table 2 typed the wrong way"
    with pytest.raises(PermissionDenied):
        confirmation.result_reopen(fixture=fixture, reason="x", by=users["home"])
