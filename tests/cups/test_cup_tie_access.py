"""Who may decide a cup tie (walk it over, postpone, settle, reverse it, date its round), through
the real pages: each role against each action on one drawn pairs cup, built once for the module
(``tests/worlds.py``) and read afresh by each case, whose changes are rolled back."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from cups.models import Competition
from cups.services.draws import draw_make
from tests.cups.helpers import cup_world, pairs_cup, play_race
from tests.cups.test_cup_pages import ALLOWED, ROLES, client_for
from tests.leagues.helpers import refused
from tests.worlds import world_per_module

pytestmark = pytest.mark.django_db


def _drawn(_: Any) -> tuple[Any, int]:
    """A four-team league's pairs cup, best of 3, drawn."""
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    return world, cup.pk


drawn_cup = world_per_module(_drawn)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ["walkover", "postpone", "settle", "reverse", "dates"])
def test_who_may_decide_a_tie(drawn_cup, role, action):
    world, cup_pk = drawn_cup
    cup = Competition.objects.get(pk=cup_pk)
    tie = cup.ties.filter(round__number=1).first()
    if action == "reverse":
        play_race(tie, "AA")
    client = client_for(world, role)
    if action == "dates":
        rnd = tie.round
        response = client.post(
            reverse("cups:manage", args=[cup.pk]),
            {"action": "dates", "round": rnd.pk, "date": "2025-10-07"},
        )
        rnd.refresh_from_db()
        changed = rnd.date is not None
    else:
        before = (tie.status, tie.winner)
        response = client.post(
            reverse("cups:tie_manage", args=[tie.pk]),
            {"action": action, "to": "home", "home": 2, "away": 1, "reason": "Agreed"},
        )
        tie.refresh_from_db()
        changed = (tie.status, tie.winner) != before
    assert changed == (role in ALLOWED), response
    if role not in ALLOWED:
        assert refused(response)
