"""The demo's cups, built on a small world so the test stays quick: the Trinidad-style pairs
knock-out (best of 7, part played) and the Yorkshire-style team cup in the league's format."""

import datetime

import pytest

from cups.demo import seed_cup
from cups.models import Competition, Tie
from leagues.demo.seed import PORT_OF_SPAIN, _Builder
from leagues.models import Fixture, TeamEntry, Withdrawal
from leagues.services.withdrawal import team_withdraw
from tests.cups.helpers import cup_world

pytestmark = pytest.mark.django_db


class Report:
    fixtures_played = 0
    hands = 0


def builder_for(world):
    import random

    return _Builder(PORT_OF_SPAIN, random.Random(7), datetime.date(2025, 10, 14), Report(), print)


def test_the_pairs_knock_out_is_best_of_7_and_part_played():
    world = cup_world(6, players=6)
    world.league.style = "trinidad"
    world.league.save()
    seed_cup(
        builder=builder_for(world),
        league=world.league,
        season=world.season,
        today=datetime.date(2025, 10, 14),
    )
    cup = Competition.objects.get(league=world.league)
    assert cup.best_of == 7 and cup.entrant_kind == "pairs" and cup.entrants.count() == 16
    first = list(cup.ties.filter(round__number=1))
    assert len(first) == 8
    played = [t for t in first if t.status == Tie.Status.PLAYED]
    assert len(played) == 2 and all(max(t.home_score, t.away_score) == 4 for t in played)
    assert all(t.results.get().confirmed_as == "secretary" for t in played)
    # The third played out waits for both pairs' agreement: its winner is not through yet.
    waiting = [t for t in first if t.results.filter(status="submitted").exists()]
    assert len(waiting) == 1 and max(waiting[0].home_score, waiting[0].away_score) == 4
    assert waiting[0].winner == "" and waiting[0].status == Tie.Status.SCHEDULED
    assert any(t.status == Tie.Status.WALKOVER for t in first)
    assert any(t.status == Tie.Status.SCHEDULED and t.games.count() >= 2 for t in first)


def test_the_team_cup_is_played_as_cup_fixtures_in_the_league_format():
    world = cup_world(5, players=2)
    seed_cup(
        builder=builder_for(world),
        league=world.league,
        season=world.season,
        today=datetime.date(2025, 10, 14),
    )
    cup = Competition.objects.get(league=world.league)
    assert cup.entrant_kind == "teams" and cup.tie_format == "match"
    assert cup.ties.filter(round__number=1, status=Tie.Status.BYE).count() == 3
    fixtures = Fixture.objects.filter(kind=Fixture.Kind.CUP)
    assert fixtures.filter(status=Fixture.Status.PLAYED).exists()


def test_the_team_cup_enters_every_team_playing_the_season_but_a_withdrawn_one():
    """The demo's Yorkshire league has a team withdrawn (its pub closed): its cup is entered as
    the secretary's "Enter all" enters one, without that team."""
    world = cup_world(6, players=2)
    closed = TeamEntry.objects.get(team=world.teams[5], season=world.season)
    team_withdraw(entry=closed, reason="The pub has closed.", withdrawal=Withdrawal.STAND)
    seed_cup(
        builder=builder_for(world),
        league=world.league,
        season=world.season,
        today=datetime.date(2025, 10, 14),
    )
    cup = Competition.objects.get(league=world.league)
    entered = {entrant.team_id for entrant in cup.entrants.all()}
    assert entered == {team.pk for team in world.teams[:5]}
