"""A pairs cup's tie whose round's night has passed with no game played reads "Result not in
yet" on the cup's page and its own, as a team tie's (its fixture's) does; it read
"Scheduled"."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from cups.models import Round
from cups.services.draws import draw_make
from tests.cups.helpers import cup_world, pairs_cup
from tests.leagues.helpers import page_words

pytestmark = pytest.mark.django_db


def first_tie(days: int, *, deadline: bool = False):
    """A drawn pairs cup's first tie, its round's night (or the day to play it by) ``days``
    from today."""
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    day = world.league.today() + datetime.timedelta(days=days)
    when = {"date": None, "deadline": day} if deadline else {"date": day, "deadline": None}
    Round.objects.filter(competition=cup, number=1).update(**when)
    return cup, cup.ties.filter(round__number=1).order_by("position").first()


def status(client: Client, tie) -> str:
    page = page_words(client.get(tie.get_absolute_url()))
    return page.split('data-testid="tie-status">')[1].split("<")[0]


@pytest.mark.parametrize("deadline", [False, True])
def test_a_pairs_tie_past_its_night_with_no_game_reads_result_not_in_yet(deadline):
    cup, tie = first_tie(-7, deadline=deadline)
    client = Client()
    assert status(client, tie) == "Result not in yet"
    bracket = page_words(client.get(cup.get_absolute_url()))
    assert bracket.count("Result not in yet") == 2  # both ties of round one
    assert "Scheduled" not in bracket


def test_a_pairs_tie_before_its_night_reads_scheduled():
    cup, tie = first_tie(7)
    assert status(Client(), tie) == "Scheduled"
