"""Generated bad values posted to every form endpoint as a role allowed to use it: never a
server error, and a refused post writes nothing (no audit entry, no hand revision).

The form fields are read from each page itself (every ``name=`` in its forms, with the values
its buttons and choices offer), so a field added later is fuzzed too. One shared world; a
bounded number of examples keeps it quick on SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import AuditEntry
from scoring.models import HandRevision
from tests.leagues.test_access import build, client_for

pytestmark = pytest.mark.django_db

BAD = st.one_of(
    st.sampled_from(
        [
            "",
            "\x00",
            "Pub\x00flooded",
            "\x07\x1b[31m",
            "\u202eevil",
            "²",
            "١٢",
            "-1",
            "0",
            "9" * 30,
            "-9" * 10,
            "1e308",
            "NaN",
            "9999-12-31",
            "0001-01-01",
            "10000-01-01",
            "2025-02-30",
            "24:61",
            "[]",
            "{}",
            "null",
            "A" * 5000,
        ]
    ),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=40),
)

NAME = re.compile(r'name="([^"]+)"(?:[^>]*?value="([^"]*)")?')


def fields_of(page: str) -> dict[str, list[str]]:
    """Every field a page's forms send, with the values the page offers for it."""
    found: dict[str, list[str]] = {}
    for name, value in NAME.findall(page):
        if name in ("csrfmiddlewaretoken",):
            continue
        found.setdefault(name, [])
        if value:
            found[name].append(value)
    return found


def endpoints(world: Any) -> list[tuple[str, str]]:
    """(role, url) for every page with a form that writes, as a role allowed to use it."""
    league, fixture = world.league.slug, world.fixture
    team, division = fixture.home, fixture.division
    game = world.game()
    hand = game.hands.order_by("number").first()
    secretary = [
        reverse("leagues:manage_league_edit", args=[league]),
        reverse("leagues:manage_season_create", args=[league]),
        reverse("leagues:manage_season_edit", args=[league, division.season_id]),
        reverse("leagues:manage_division_create", args=[league, division.season_id]),
        reverse("leagues:manage_division_edit", args=[league, division.pk]),
        reverse("leagues:manage_venue_create", args=[league]),
        reverse("leagues:manage_venue_edit", args=[league, team.home_venue_id]),
        reverse("leagues:manage_team_create", args=[league]),
        reverse("leagues:manage_team", args=[league, team.pk]),
        reverse("leagues:manage_team_edit", args=[league, team.pk]),
        reverse("leagues:manage_captain_account", args=[league, team.pk]),
        reverse("leagues:manage_register", args=[league]),
        reverse("leagues:manage_secretaries", args=[league]),
        reverse("leagues:manage_adjustments", args=[division.pk]),
        reverse("leagues:manage_fixture_add", args=[division.pk]),
        reverse("leagues:manage_fixtures_generate", args=[division.pk]),
        reverse("leagues:manage_fixture", args=[fixture.pk]),
        reverse("leagues:manage_fixture_card", args=[fixture.pk]),
        reverse("leagues:fixture_result", args=[fixture.pk]),
        reverse("scoring:game_abandon", args=[game.pk]),
        reverse("scoring:game_link", args=[game.pk]),
        reverse("scoring:hand_record", args=[game.pk]),
        reverse("scoring:hand_undo", args=[game.pk]),
        reverse("scoring:hand_correct", args=[game.pk, hand.number]),
    ]
    return [("secretary", url) for url in secretary] + [
        ("away_captain", reverse("leagues:fixture_result", args=[fixture.pk])),
        ("anonymous", reverse("scoring:game_new")),
    ]


def _writes() -> tuple[int, int]:
    return AuditEntry.objects.count(), HandRevision.objects.count()


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_bad_values_on_every_form_give_no_500_and_write_nothing_when_refused(world, data):
    for role, url in world.pages:
        client = world.clients[role]
        fields = world.fields[url]
        post: dict[str, Any] = {}
        for name, offered in fields.items():
            choice = data.draw(st.integers(0, 9), label="how")
            if choice == 0:
                continue  # missing
            if choice == 1:
                post[name] = [data.draw(BAD), data.draw(BAD)]  # repeated
            elif choice < 5 and offered:
                post[name] = data.draw(st.sampled_from(offered))
            else:
                post[name] = data.draw(BAD, label=name)
        before = _writes()
        response = client.post(url, post)
        assert response.status_code < 500, (url, post)
        if response.status_code != 302 and not url.endswith("/hands/"):
            assert _writes() == before, (url, post, response.status_code)


@pytest.fixture
def world():
    world = build(played=True)
    world.clients = {
        role: (client_for(world, role) if role != "anonymous" else Client())
        for role in ("secretary", "away_captain", "anonymous")
    }
    world.pages = endpoints(world)
    game_page = world.game().get_absolute_url()
    world.fields = {
        # The hand and undo forms are on the game's page.
        url: fields_of(
            world.clients[role]
            .get(game_page if url.endswith(("/hands/", "/undo/")) else url)
            .content.decode()
        )
        for role, url in world.pages
    }
    return world
