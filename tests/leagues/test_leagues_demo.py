"""The demo: simulated hands the engine accepts, and a seed_demo that runs twice safely."""

import dataclasses
import random
from collections import Counter

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count

from leagues.demo import seed as demo
from leagues.demo.deal import deal_hand
from leagues.models import (
    Fixture,
    FixtureResult,
    League,
    Player,
    PointAdjustment,
    Team,
    TeamEntry,
    Venue,
)
from scoring.models import Game, Hand
from scoring.rules import PRESETS, score_game
from tests.factories.leagues import LeagueFactory


@pytest.mark.parametrize("preset", ["trinidad", "west_yorkshire", "lancashire", "tobago"])
def test_two_hundred_simulated_hands_are_all_accepted_by_the_engine(preset):
    """Dealt hands, played as games to the end, score without a refusal; the dealer passes as
    the engine says it does, and turn-up variants see begs, runs and kicks."""
    rules = PRESETS[preset]
    rng = random.Random(preset)
    hands_seen = 0
    begs = set()
    categories = set()
    while hands_seen < 200:
        hands: list[dict] = []
        dealer = "A"
        scores = {"A": 0, "B": 0}
        while True:
            facts = deal_hand(rng, ruleset=rules, dealer=dealer, scores=scores)
            hands.append(facts)
            hands_seen += 1
            begs.add(facts.get("beg"))
            result = score_game(ruleset=rules, sides=["A", "B"], hands=hands)
            categories |= {str(a.category) for h in result.hands for a in h.awards}
            scores = dict(result.scores)
            if result.winner is not None:
                break
            assert result.next_dealer is not None
            dealer = result.next_dealer
    assert {"high", "low", "jack", "game"} <= categories
    if rules.trumps == "turn_up":
        assert {"stand", "take_one", "run"} <= begs
        assert {"kick", "gift", "hang_jack"} <= categories
    else:
        assert begs == {None}
        assert "kick" not in categories


def test_the_same_seed_deals_the_same_hands():
    rules = PRESETS["trinidad"]
    deal = [
        deal_hand(random.Random(7), ruleset=rules, dealer="A", scores={"A": 0, "B": 0})
        for _ in range(2)
    ]
    assert deal[0] == deal[1]


COUNTED = (League, Team, Venue, Player, Fixture, FixtureResult, PointAdjustment, Game, Hand)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


@pytest.fixture
def small_plans(monkeypatch):
    """Each demo league with every division cut to four teams (and their venues) and its matches
    to one table: the same code paths, promotion and relegation between the Yorkshire league's
    two divisions included, in a fraction of the time. (`make run` and CI's smoke test build
    the whole demo, its matches of three and four tables.)"""
    plans = []
    for plan in demo.PLANS:
        hosts = Counter(team.venue for division in plan.divisions for team in division.teams)
        divisions = tuple(
            dataclasses.replace(
                division,
                # the pubs hosting two teams stay in, the rest cut to four a division
                teams=tuple(sorted(division.teams, key=lambda t: hosts[t.venue] == 1)[:4]),
            )
            for division in plan.divisions
        )
        venues = {team.venue for division in divisions for team in division.teams}
        plans.append(
            dataclasses.replace(
                plan,
                divisions=divisions,
                venues={name: plan.venues[name] for name in sorted(venues)},
                match_format=plan.match_format.with_options(tables=1),
            )
        )
    plans = tuple(plans)
    monkeypatch.setattr(demo, "PLANS", plans)
    return plans


@pytest.mark.django_db
def test_seed_demo_builds_both_leagues_runs_twice_safely_and_resets(small_plans):
    """The demo: both styles, every kind of fixture, real hands, last season finished with
    promotion and relegation applied to this one. Running it again adds nothing; --reset deletes
    the demo leagues with their games, hands, players and venues and builds the same again; a
    league that is not the demo's is left alone."""
    kept = LeagueFactory(name="Somebody's real league")
    before = counts()
    call_command("seed_demo", verbosity=0)
    built = counts()
    assert built["League"] == before["League"] + 2
    assert built["Team"] == before["Team"] + 12
    assert set(League.objects.values_list("style", flat=True)) >= {"yorkshire", "trinidad"}
    statuses = set(Fixture.objects.values_list("status", flat=True))
    assert {"played", "scheduled", "postponed", "walkover"} <= statuses
    assert built["PointAdjustment"] >= 1 and built["Hand"] > 0 and built["FixtureResult"] > 0
    assert all(
        f.result.is_final for f in Fixture.objects.filter(status="played").select_related("result")
    )
    shared = Team.objects.values("home_venue").order_by().annotate(n=Count("id")).filter(n__gt=1)
    assert shared.exists(), "a pub with two teams"
    yorkshire = League.objects.get(slug=demo.HECKMONDWIKE.slug)
    assert yorkshire.time_zone == "Europe/London"  # the site's
    trinidad = League.objects.get(slug=demo.PORT_OF_SPAIN.slug)
    assert trinidad.time_zone == "America/Port_of_Spain"
    previous, current = yorkshire.seasons.order_by("starts_on")
    assert previous.ends_on is not None and previous.ends_on < current.starts_on
    assert not Fixture.objects.filter(division__season=previous).exclude(status="played").exists()
    moved = {
        e.team_id
        for e in TeamEntry.objects.filter(season=current).select_related("division")
        if e.division.rank
        != TeamEntry.objects.get(season=previous, team_id=e.team_id).division.rank
    }
    assert len(moved) == 4, "two promoted, two relegated"
    now = Fixture.objects.filter(division__season=current)
    assert now.filter(status="void").exists() and now.filter(status="postponed").exists()
    assert now.filter(status="scheduled", original_date__isnull=False).exists(), "re-arranged"
    assert TeamEntry.objects.filter(season=current, withdrawn_on__isnull=False).exists()

    # Two pubs host two teams each, one pair within a division, one across the two: each pair
    # is kept apart, and last season (no incidents) needed no extra night.
    for season in (previous, current):
        pubs: dict[int, set[int]] = {}
        for entry in TeamEntry.objects.filter(season=season).select_related("team"):
            pubs.setdefault(entry.team.home_venue_id, set()).add(entry.division.rank)
        assert sorted(len(ranks) for ranks in pubs.values() if len(ranks) > 1) == [2]
        hosting = Counter(
            Fixture.objects.filter(division__season=season, kind="league")
            .exclude(status="void")
            .values_list("venue", "date")
        )
        assert max(hosting.values()) == 1
    shared_pubs = Team.objects.filter(league=yorkshire).values("home_venue").annotate(n=Count("id"))
    assert sorted(p["n"] for p in shared_pubs if p["n"] > 1) == [2, 2]
    for division in previous.divisions.all():
        n = division.entries.count()
        league_nights = Fixture.objects.filter(division=division).dates("date", "day").count()
        assert league_nights == (n - 1 + n % 2) * demo.HECKMONDWIKE.legs

    call_command("seed_demo", verbosity=0)
    assert counts() == built

    call_command("seed_demo", "--reset", verbosity=0)
    assert counts() == built

    demo.reset()
    assert counts() == before
    assert League.objects.get() == kept


@pytest.mark.django_db
def test_the_demo_plays_up_to_the_leagues_own_today(small_plans, monkeypatch):
    """Seeded at 22:00 on a Friday, its league night, in Port of Spain (02:00 on Saturday UTC),
    the Trinidad league's fixtures of that night are still to play: they were played, its
    today being the site's Saturday."""
    import datetime

    from tests.leagues.helpers import clock_at

    clock_at(monkeypatch, datetime.datetime(2026, 10, 17, 2, 0, tzinfo=datetime.UTC))
    trinidad = tuple(plan for plan in small_plans if plan.slug == demo.PORT_OF_SPAIN.slug)
    monkeypatch.setattr(demo, "PLANS", trinidad)
    demo.seed()
    league = League.objects.get(slug=demo.PORT_OF_SPAIN.slug)
    friday = datetime.date(2026, 10, 16)
    assert league.today() == friday
    fixtures = Fixture.objects.filter(division__season__league=league, kind="league")
    assert fixtures.filter(date__lt=friday, status="played").exists()
    tonight = fixtures.filter(date=friday)
    assert tonight.exists() and not tonight.filter(status="played").exists()


@pytest.mark.django_db
def test_seed_demo_accounts_prints_a_secretary_and_a_captain_to_sign_in_as(
    small_plans, settings, client
):
    """`make run` prints two accounts with new passwords: the secretary reaches a demo league's
    secretary page, the captain their team's fixtures; printed again, the old passwords stop
    working. Refused on a production setting (DEBUG off), where nothing is printed."""
    import io
    import re

    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from leagues.selectors.fixtures import league_current_season

    settings.DEBUG = True
    out = io.StringIO()
    call_command("seed_demo", "--accounts", verbosity=0, stdout=out)
    printed = dict(re.findall(r"^  (demo-\w+)  (\S+)  \(", out.getvalue(), re.MULTILINE))
    assert set(printed) == {"demo-secretary", "demo-captain"}
    login = reverse("login")

    for league in demo_league_objects():
        assert (
            client.post(
                login, {"username": "demo-secretary", "password": printed["demo-secretary"]}
            ).status_code
            == 302
        )
        assert client.get(reverse("leagues:manage_league", args=[league.slug])).status_code == 200
        client.logout()

    yorkshire = League.objects.get(slug=demo.HECKMONDWIKE.slug)
    captain = TeamEntry.objects.get(
        captain__user__username="demo-captain", season=league_current_season(league=yorkshire)
    )
    client.post(login, {"username": "demo-captain", "password": printed["demo-captain"]})
    page = client.get(reverse("leagues:my_fixtures")).content.decode()
    assert captain.display_name in page
    # Named as the captain accepting an invitation names their account (it read "Logged in
    # as demo-captain · Give your name" while the secretary's pages called him by name).
    assert f"Logged in as <strong>{captain.captain.name}</strong> (demo-captain)" in page
    client.logout()
    # Each has an address, as a real account has: the notices are printed where it serves.
    emails = dict(
        get_user_model().objects.filter(username__in=printed).values_list("username", "email")
    )
    assert emails == {
        "demo-secretary": "demo-secretary@example.org",
        "demo-captain": "demo-captain@example.org",
    }

    again = io.StringIO()
    call_command("seed_demo", "--accounts", verbosity=0, stdout=again)
    refused = client.post(login, {"username": "demo-captain", "password": printed["demo-captain"]})
    assert refused.status_code == 200  # the form again: the old password is gone
    assert Player.objects.filter(user__username="demo-captain").get() == captain.captain

    settings.DEBUG = False
    with pytest.raises(CommandError, match="development machine"):
        call_command("seed_demo", "--accounts", verbosity=0, stdout=io.StringIO())


def demo_league_objects():
    return list(League.objects.filter(slug__in=[plan.slug for plan in demo.PLANS]))


@pytest.mark.django_db
@pytest.mark.parametrize("month", [1, 3, 6])
def test_the_demo_seeds_in_the_first_half_of_the_year_too(small_plans, monkeypatch, month):
    """Seeded in spring, a season starts after last Christmas: it skips the Christmas ahead of
    it, not last year's (a night off before the season starts was refused, and `make run`
    failed from January to June)."""
    import datetime

    from tests.leagues.helpers import clock_at

    clock_at(monkeypatch, datetime.datetime(2027, month, 15, 12, 0, tzinfo=datetime.UTC))
    monkeypatch.setattr(demo, "PLANS", small_plans)
    demo.seed()
    assert League.objects.count() == len(small_plans)
    played = Fixture.objects.filter(kind="league", division__season__ends_on__isnull=True)
    assert played.filter(status="played").exists()
    christmas = [(12, day) for day in range(24, 32)] + [(1, 1)]
    assert not [f.date for f in played if (f.date.month, f.date.day) in christmas]


@pytest.mark.django_db
def test_the_demo_secretaries_are_named_as_a_real_secretary_is(small_plans, settings, client):
    """The demo's secretaries' accounts had no name (and are not players): every page named
    them "secretary" alone, where a league's pages name theirs, "Susan Booth (secretary)". The
    secretary `make run` prints is printed with their name too."""
    import io

    from django.contrib.auth import get_user_model
    from django.db.models import Q
    from django.urls import reverse

    from leagues.models import ResultSubmission

    settings.DEBUG = True
    out = io.StringIO()
    call_command("seed_demo", "--accounts", verbosity=0, stdout=out)
    secretary = get_user_model().objects.get(username="demo-secretary")
    assert secretary.get_full_name() == "Susan Booth"
    assert "secretary of " in out.getvalue() and ", Susan Booth)" in out.getvalue()
    client.force_login(secretary)
    for clerk, name in (
        ("demo-secretary", "Susan Booth"),
        ("demo-results-secretary", "Colin Earnshaw"),
    ):
        submission = ResultSubmission.objects.filter(
            Q(submitted_by__username=clerk) | Q(confirmed_by__username=clerk)
        ).first()
        assert submission is not None, clerk
        page = client.get(reverse("leagues:fixture_result", args=[submission.fixture_id]))
        assert f"{name} (secretary)" in page.content.decode(), clerk
