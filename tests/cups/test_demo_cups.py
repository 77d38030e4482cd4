"""The demo's cups, built on a small world so the test stays quick: the Trinidad-style pairs
knock-out (best of 7, part played) and the Yorkshire-style team cup in the league's format."""

import pytest
from django.core.exceptions import ValidationError

from cups.demo import seed_cup
from cups.models import Competition, Tie
from leagues.demo import seed as demo
from leagues.demo.seed import PORT_OF_SPAIN, _Builder
from leagues.models import Fixture, League, TeamEntry, Withdrawal
from leagues.schedule import league_nights
from leagues.services.fixtures import refuse_fixture_clash
from leagues.services.withdrawal import team_withdraw
from tests.cups.helpers import cup_world
from tests.leagues.test_leagues_demo import small_plans  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


class Report:
    fixtures_played = 0
    hands = 0


def builder_for(world):
    """The demo's builder, its today the world's league's (the cup books its ties from it)."""
    import random

    return _Builder(PORT_OF_SPAIN, random.Random(7), world.league.today(), Report(), print)


def test_the_pairs_knock_out_is_best_of_7_and_part_played():
    world = cup_world(6, players=6)
    world.league.style = "trinidad"
    world.league.save()
    seed_cup(
        builder=builder_for(world),
        league=world.league,
        season=world.season,
        today=world.league.today(),
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
        today=world.league.today(),
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
        today=world.league.today(),
    )
    cup = Competition.objects.get(league=world.league)
    entered = {entrant.team_id for entrant in cup.entrants.all()}
    assert entered == {team.pk for team in world.teams[:5]}


@pytest.mark.django_db
def test_the_team_cups_next_round_is_booked_on_real_nights_by_its_deadline(
    small_plans,  # noqa: F811
    monkeypatch,
):
    """The Yorkshire demo's cup mid-season: round one played out with its results, the next
    round to be played by a deadline and every one of its ties booked as a secretary books one,
    on the first league night from today by that deadline on which both teams are free and
    the pub has room (they were all put on the deadline day, whatever the weekday, some teams
    already playing that night), none waiting for a night; the rounds after it by later
    deadlines."""
    yorkshire = tuple(plan for plan in small_plans if plan.slug == demo.HECKMONDWIKE.slug)
    monkeypatch.setattr(demo, "PLANS", yorkshire)
    demo.seed()
    league = League.objects.get(slug=demo.HECKMONDWIKE.slug)
    cup = Competition.objects.get(league=league)
    season, today = cup.season, league.today()
    first, following, *later = list(cup.rounds.order_by("number"))
    assert first.date is not None and first.date < today
    for tie in first.ties.select_related("fixture"):
        assert tie.winner, f"{tie} is decided"
        if tie.status != Tie.Status.BYE:
            assert tie.status == Tie.Status.PLAYED and tie.fixture.result.is_final
    assert following.date is None and following.deadline is not None
    assert [r.deadline for r in later] == sorted(r.deadline for r in later)
    assert all(r.deadline > following.deadline for r in later)
    ties = list(following.ties.select_related("fixture__division__season"))
    assert ties
    for tie in ties:
        fixture = tie.fixture
        assert tie.status == Tie.Status.SCHEDULED and fixture.status == Fixture.Status.SCHEDULED
        assert fixture.date.weekday() == season.night, f"{fixture} is on a league night"
        assert today <= fixture.date <= following.deadline
        # The first night that suits it: on every league night before it a team plays, or
        # the pub is full.
        for night in league_nights(today, season.night, season.excluded_dates):
            if night == fixture.date:
                break
            with pytest.raises(ValidationError):
                refuse_fixture_clash(fixture, date=night)
        refuse_fixture_clash(fixture, date=fixture.date)
