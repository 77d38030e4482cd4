"""The secretary's desk lists a pairs cup's ties needing the secretary as it lists the league's
fixtures: a result waiting for the sides (to confirm, or disputed to settle) and a tie whose
night has passed with no result in, each linking to the tie's page."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from cups.models import Round
from cups.services.confirmation import tie_result_dispute
from cups.services.draws import draw_make
from tests.cups.helpers import cup_world, pair_player, pairs_cup, play_race
from tests.leagues.helpers import page_words

pytestmark = pytest.mark.django_db


def drawn_pairs_cup(world):
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    first, second = cup.ties.filter(round__number=1).order_by("position")
    return cup, first, second


def desk(world) -> str:
    client = Client()
    client.force_login(world.users["secretary"])
    return page_words(client.get(reverse("leagues:manage_league", args=[world.league.slug])))


def test_the_desk_lists_a_pairs_tie_whose_result_waits_for_the_sides():
    """A pairs tie's result put forward and waiting for the pairs: the desk said "Results to
    see to — None" while its cup page said it waited for confirmation."""
    world = cup_world(4)
    cup, tie, _ = drawn_pairs_cup(world)
    play_race(tie, "AA", agree=False)
    words = desk(world)
    assert "None: every finished fixture" not in words
    assert f'href="{tie.get_absolute_url()}" data-testid="tie-waiting-{tie.pk}"' in words
    assert escape(f"{tie.home.name} v {tie.away.name}") in words
    assert "Result submitted, awaiting confirmation" in words


def test_the_desk_offers_to_settle_a_disputed_pairs_tie():
    world = cup_world(4)
    cup, tie, _ = drawn_pairs_cup(world)
    play_race(tie, "AA", agree=False)
    result = tie.results.get(status="submitted")
    tie_result_dispute(result=result, by=pair_player(tie, "away"), reason="Game 2 was 11–9")
    words = desk(world)
    assert "Result disputed" in words
    assert f'href="{tie.get_absolute_url()}#result" data-testid="settle-tie-{tie.pk}"' in words


def test_a_pairs_tie_whose_night_passed_with_no_result_is_listed():
    """Its round's night a week gone and no game played: the desk did not list it."""
    world = cup_world(4)
    cup, tie, other = drawn_pairs_cup(world)
    Round.objects.filter(competition=cup, number=1).update(
        date=world.league.today() - datetime.timedelta(days=7), deadline=None
    )
    play_race(other, "AA")
    words = desk(world)
    assert "Result not in yet" in words
    assert f'data-testid="tie-missing-{tie.pk}"' in words
    assert f'data-testid="tie-missing-{other.pk}"' not in words  # decided


def test_a_pairs_tie_still_to_play_is_not_on_the_desk():
    world = cup_world(4)
    cup, tie, _ = drawn_pairs_cup(world)
    Round.objects.filter(competition=cup, number=1).update(
        date=world.league.today() + datetime.timedelta(days=7), deadline=None
    )
    words = desk(world)
    assert f"tie-missing-{tie.pk}" not in words and f"tie-waiting-{tie.pk}" not in words


def test_the_desk_names_a_team_cup_ties_cup_and_round():
    """A League Cup tie's fixture was filed under "Cup" where a pairs cup's tie read "Pairs
    Knock-out, Round 1": it names its cup and round as well, in the desk's queries."""
    from leagues.models import Fixture
    from tests.cups.helpers import team_cup

    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    fixture = Fixture.objects.filter(kind=Fixture.Kind.CUP).order_by("pk").first()
    Fixture.objects.filter(pk=fixture.pk).update(
        date=world.league.today() - datetime.timedelta(days=7)
    )
    words = desk(world)
    listed = words[words.index(f'data-testid="missing-{fixture.pk}"') :].split("</li>")[0]
    assert f"· {fixture.cup_tie.cup_and_stage}</span>" in listed, listed
    assert "· Cup</span>" not in listed
