"""A moment the league's pages show (when a result was submitted and confirmed, when a fixture's
tables last changed, an audit entry's time) is the league's wall-clock time, as its fixtures'
times are: a Port of Spain secretary reading at 07:45 sees 07:45, not London's 11:45. Each says
its zone, as a fixture's time does ("19:30 Port of Spain time"): a reader in London is not left
to guess whose 19:30 it is."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from cups.models import TieResult
from cups.services.draws import draw_make
from leagues.models import AuditEntry, Fixture, FixtureResult, League, ResultSubmission
from scoring.models import Game, HandRevision
from tests.cups.helpers import cup_world, pairs_cup, play_race
from tests.factories.scoring import GameFactory, record_hands
from tests.leagues.test_access import build, submit

pytestmark = pytest.mark.django_db

# 23:30:15 UTC on 7 October 2025: 19:30:15 in Port of Spain, 00:30:15 on the 8th in London.
MOMENT = datetime.datetime(2025, 10, 7, 23, 30, 15, tzinfo=datetime.UTC)
PLAIN_HAND = {
    "dealer": "A",
    "turn_ups": ["4H"],
    "beg": "stand",
    "high": "A",
    "low": "B",
    "jack": None,
    "game": "B",
}


@pytest.fixture
def world():
    world = build(played=True)
    League.objects.filter(pk=world.league.pk).update(time_zone="America/Port_of_Spain")
    world.league.refresh_from_db()
    return world


def client_of(world, role: str) -> Client:
    client = Client()
    client.force_login(world.users[role])
    return client


def test_the_result_page_gives_submitted_and_confirmed_in_the_league_zone(world):
    response, _ = submit(world, client_of(world, "home_captain"))
    assert response.status_code in (200, 302)
    ResultSubmission.objects.filter(fixture=world.fixture).update(
        submitted_at=MOMENT, confirmed_at=MOMENT, confirmed_by=world.users["secretary"]
    )
    page = client_of(world, "away_captain").get(
        reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    )
    text = page.content.decode()
    assert "Submitted by" in text and "on 7 Oct 2025 19:30 Port of Spain time." in text
    assert "Confirmed by" in text and text.count("7 Oct 2025 19:30 Port of Spain time.") == 2
    assert "8 Oct 2025 00:30" not in text


def test_the_fixture_page_gives_its_last_change_in_the_league_zone(world):
    Game.objects.filter(league_game__table__fixture=world.fixture).update(updated_at=MOMENT)
    FixtureResult.objects.filter(fixture=world.fixture).update(computed_at=MOMENT)
    page = Client().get(world.fixture.get_absolute_url())
    assert "Last change 7 Oct, 19:30:15 Port of Spain time" in page.content.decode()


def test_the_league_night_gives_its_last_change_with_the_league_zone(world):
    Fixture.objects.filter(pk=world.fixture.pk).update(date=world.league.today())
    Game.objects.filter(league_game__table__fixture=world.fixture).update(updated_at=MOMENT)
    FixtureResult.objects.filter(fixture=world.fixture).update(computed_at=MOMENT)
    page = Client().get(reverse("leagues:league_live", kwargs={"slug": world.league.slug}))
    assert "last change 19:30:15 Port of Spain time" in page.content.decode()


def test_the_audit_trails_give_each_entry_in_the_league_zone(world):
    entry = AuditEntry.objects.create(
        league=world.league, fixture=world.fixture, action="fixture_postponed", subject="A test"
    )
    AuditEntry.objects.filter(pk=entry.pk).update(at=MOMENT)
    secretary = client_of(world, "secretary")
    for url in (
        reverse("leagues:manage_league_audit", kwargs={"slug": world.league.slug}),
        reverse("leagues:manage_fixture_audit", kwargs={"pk": world.fixture.pk}),
    ):
        text = secretary.get(url).content.decode()
        assert "7 Oct 2025 19:30:15" in text, url
        assert "when (Port of Spain time)" in text, url
        assert 'datetime="2025-10-07T19:30:15-04:00"' in text, url
        assert "8 Oct 2025 00:30:15" not in text, url


def test_a_league_games_audit_trail_is_in_the_league_zone_and_a_lone_game_in_the_sites(world):
    game = world.game()
    HandRevision.objects.filter(game=game).update(at=MOMENT)
    secretary = client_of(world, "secretary")
    text = secretary.get(reverse("scoring:game_audit", kwargs={"pk": game.pk})).content.decode()
    assert "7 Oct 2025 19:30:15" in text and "8 Oct 2025 00:30:15" not in text
    assert "when (Port of Spain time)" in text
    lone = GameFactory()
    record_hands(lone, [PLAIN_HAND])
    HandRevision.objects.filter(game=lone).update(at=MOMENT)
    text = Client().get(reverse("scoring:game_audit", kwargs={"pk": lone.pk})).content.decode()
    assert "8 Oct 2025 00:30:15" in text  # the site's zone, Europe/London
    assert "when (London time)" in text


def test_a_cup_ties_result_gives_put_forward_and_confirmed_with_the_league_zone():
    world = cup_world(2)
    League.objects.filter(pk=world.league.pk).update(time_zone="America/Port_of_Spain")
    cup = pairs_cup(world, best_of=1)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = play_race(cup.ties.get(), "A")
    TieResult.objects.filter(tie=tie).update(submitted_at=MOMENT, confirmed_at=MOMENT)
    text = Client().get(tie.get_absolute_url()).content.decode()
    assert "Put forward by" in text and "Confirmed by" in text
    assert text.count("on 7 Oct 2025 19:30 Port of Spain time.") == 2
