"""Who may agree, dispute, settle and reopen a pairs tie's result, through the real pages: each
role against each action, on one tie played to its result and waiting for agreement, built once
for the module (``tests/worlds.py``) and read afresh by each case, whose changes are rolled back."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.confirmation import tie_result_confirm, tie_result_dispute
from cups.services.draws import draw_make
from tests.cups.helpers import cup_world, pair_captain, pair_player, pairs_cup, play_race, teammate
from tests.worlds import world_per_module

pytestmark = pytest.mark.django_db


def _played_tie(_: Any) -> tuple[Any, int]:
    """A two-team league's pairs cup, best of 3: the first tie won 2-0, not yet agreed."""
    world = cup_world(2, players=4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    first = cup.ties.filter(round__number=1).order_by("position").first()
    tie = play_race(first, "AA", agree=False)
    return world, tie.pk


played_tie = world_per_module(_played_tie)


ROLES = [
    "anonymous",
    "stranger",
    "teammate",
    "home_player",
    "away_player",
    "home_captain",
    "other_secretary",
    "secretary",
    "superuser",
]
ALLOWED = {
    "agree": {"home_player", "away_player", "home_captain", "secretary", "superuser"},
    "dispute": {"home_player", "away_player", "home_captain"},
    "uphold": {"secretary", "superuser"},
    "reopen": {"secretary", "superuser"},
}


def _user(world, tie, role):
    if role == "anonymous":
        return None
    if role == "teammate":
        return teammate(world, tie)
    if role in ("home_player", "away_player"):
        return pair_player(tie, role.split("_")[0])
    if role == "home_captain":
        return pair_captain(world, tie, "home")
    return world.users[role]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", sorted(ALLOWED))
def test_who_may_agree_dispute_settle_and_reopen_a_pairs_tie(role, action, played_tie):
    world, tie_pk = played_tie
    tie = Tie.objects.get(pk=tie_pk)
    result = tie.results.get()
    if action == "uphold":
        tie_result_dispute(result=result, reason="Wrong score", by=pair_player(tie, "away"))
    if action == "reopen":
        tie_result_confirm(result=result, by=world.users["superuser"])
    user = _user(world, tie, role)
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(tie.get_absolute_url()).content.decode()
    offered = f'data-testid="{"agree" if action == "agree" else action}-tie-result"' in page
    allowed = role in ALLOWED[action]
    assert offered == allowed
    result.refresh_from_db()
    before = (result.status, result.home_agreed_by_id, result.away_agreed_by_id)
    response = client.post(
        reverse("cups:tie_result", args=[tie.pk]),
        {"action": "confirm" if action == "agree" else action, "reason": "Checked"},
    )
    result.refresh_from_db()
    changed = (result.status, result.home_agreed_by_id, result.away_agreed_by_id) != before
    assert changed == allowed, (role, action, response.status_code)
    if not allowed:
        assert response.status_code == 403
