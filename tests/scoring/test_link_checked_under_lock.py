"""A scoring link revoked while a hand is in flight records nothing: the link is checked again
after the game's row is locked, not only before (the revocation commits first, then the lock)."""

from __future__ import annotations

import uuid

import pytest
from django.test import RequestFactory
from django.utils import timezone

from scoring import services
from scoring.actors import Actor
from scoring.models import Hand, HandRevision, ScoringLink
from scoring.permissions import SESSION_KEY
from scoring.services import hands as hand_services
from tests.leagues.test_access import build, client_for, record_hand

pytestmark = pytest.mark.django_db


def _revoke_before(monkeypatch, name: str, link: ScoringLink) -> None:
    """The secretary's revocation lands between the view's check and the service's lock."""
    original = getattr(hand_services, name)

    def revoked_then_locked(*args, **kwargs):
        ScoringLink.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
        return original(*args, **kwargs)

    monkeypatch.setattr(hand_services, name, revoked_then_locked)


def test_a_hand_in_flight_when_the_link_is_revoked_is_not_recorded(monkeypatch):
    world = build(played=False)
    phone = client_for(world, "live_link")
    assert record_hand(world, phone)[1]  # the link works
    _revoke_before(monkeypatch, "lock_for_entry", world.table.scoring_link)
    response, recorded = record_hand(world, phone)
    assert not recorded
    assert response.status_code == 403


def test_a_correction_in_flight_when_the_link_is_revoked_is_not_made(monkeypatch):
    world = build(played=False)
    phone = client_for(world, "live_link")
    assert record_hand(world, phone)[1]
    game = world.game()
    hand = Hand.objects.get(game=game, number=1)
    request = RequestFactory().post("/")
    request.session = {SESSION_KEY: [world.table.scoring_link_id]}
    request.user = world.users["stranger"]
    _revoke_before(monkeypatch, "lock_for_entry", world.table.scoring_link)
    revisions = HandRevision.objects.filter(game=game).count()
    with pytest.raises(services.NotAllowed):
        services.hand_correct(
            game=hand.game_id,
            number=hand.number,
            facts=dict(hand.facts, high="B"),
            entry_key=uuid.uuid4(),
            actor=Actor.of_request(request),
        )
    assert Hand.objects.get(pk=hand.pk).facts == hand.facts
    assert HandRevision.objects.filter(game=game).count() == revisions
