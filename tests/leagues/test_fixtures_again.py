"""Generating a division's list again: with nothing changed nothing changes, however the list
was made, and a meeting listed the other way round is that meeting (a format playing each pair
once). The preview says it in a secretary's words."""

import datetime
import re
from collections import Counter
from itertools import combinations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import FixtureTable, Player, Team
from leagues.selectors.fixtures import generation_settings
from leagues.services.fixtures import fixture_add, fixtures_generate, fixtures_plan
from leagues.services.registrations import player_register
from leagues.services.results import fixture_tables_set
from scoring.models import ScoringLink
from tests.factories.leagues import DivisionFactory, LeagueFactory, TeamEntryFactory, VenueFactory

pytestmark = pytest.mark.django_db

TUESDAY = 1
SUNDAY = datetime.date(2025, 8, 31)


def signed_in(client, league):
    user = get_user_model().objects.create_user("sec", password="pw-secret-1")
    league.secretaries.add(user)
    client.force_login(user)


def settings_as_made(division):
    """The generate form's settings, as the page fills them in."""
    settings = generation_settings(division=division)
    settings.pop("spread_unrecorded")
    settings.pop("exclusions")
    return settings


def test_a_list_generated_before_another_division_shared_its_pub_is_kept_again():
    """The demo's Premier Division: made first, then the First Division's list filled a pub it
    shares on a night its team there was away. A fresh plan pairs the teams otherwise round
    that night (the pub's team takes another number), and generating again with nothing
    changed said "moved, replaced, new" (the same meetings home and away swapped); it keeps
    every fixture."""
    league = LeagueFactory(league_night=TUESDAY)
    premier = DivisionFactory(season__league=league, name="Premier")
    first = DivisionFactory(season=premier.season, name="First", rank=2)
    pub = VenueFactory(name="Golden Fleece")
    for i in range(5):
        TeamEntryFactory(division=premier, team__name=f"P team {i}")
    fleece = TeamEntryFactory(division=premier, team__name="P team 5", team__home_venue=pub).team
    start = premier.season.starts_on
    fixtures_generate(division=premier, start=start)
    listed = set(premier.fixtures.values_list("pk", "home", "away", "date"))
    # A night the pub's team is away (as two others are, of lower numbers): the First
    # Division's match at the pub fills it.
    night = next(
        day
        for day in sorted({f[3] for f in listed})
        if not premier.fixtures.filter(date=day, home=fleece).exists()
    )
    visitors = TeamEntryFactory(division=first, team__name="F team").team
    hosts = TeamEntryFactory(division=first, team__name="F Fleece", team__home_venue=pub).team
    fixture_add(division=first, home=hosts, away=visitors, date=night)
    plan = fixtures_plan(division=premier, **settings_as_made(premier))
    assert (len(plan.moved), len(plan.replaced), len(plan.created)) == (0, 0, 0)
    assert len(plan.unchanged) == len(listed) == 15
    fixtures_generate(division=premier, **settings_as_made(premier))
    assert set(premier.fixtures.values_list("pk", "home", "away", "date")) == listed


def hand_made_list(division, teams):
    """A whole single round robin added fixture by fixture, in an order and with homes the
    generator would not choose: as an imported list is."""
    night = division.season.starts_on
    rounds = [
        [(teams[3], teams[0]), (teams[2], teams[1])],
        [(teams[1], teams[3]), (teams[0], teams[2])],
        [(teams[3], teams[2]), (teams[1], teams[0])],
    ]
    for week, games in enumerate(rounds):
        for home, away in games:
            fixture_add(
                division=division,
                home=home,
                away=away,
                date=night + datetime.timedelta(weeks=week),
            )


def division_of_four():
    """Four teams of a league whose format plays each pair once."""
    once = YORKSHIRE_FORMAT.with_options(meetings=1).to_spec()
    division = DivisionFactory(
        season__league=LeagueFactory(league_night=TUESDAY, match_format=once)
    )
    teams = [TeamEntryFactory(division=division, team__name=f"Team {i}").team for i in range(4)]
    return division, teams


def test_a_list_not_made_by_the_generator_is_kept_as_it_is():
    division, teams = division_of_four()
    hand_made_list(division, teams)
    listed = set(division.fixtures.values_list("pk", "home", "away", "date"))
    plan = fixtures_plan(division=division, **settings_as_made(division))
    assert (plan.changes, len(plan.unchanged)) == (0, 6)
    report = fixtures_generate(division=division, **settings_as_made(division))
    assert (report.created, report.moved, report.removed, report.unchanged) == (0, 0, 0, 6)
    assert set(division.fixtures.values_list("pk", "home", "away", "date")) == listed


def test_a_meeting_listed_the_other_way_round_is_that_meeting_not_a_new_one():
    """Something changed (a week off after every round), so the list is planned again: each
    meeting stays the fixture it was, moved and where the plan says so home and away swapped,
    none removed and made again."""
    division, teams = division_of_four()
    hand_made_list(division, teams)
    before = {f.pk: f for f in division.fixtures.all()}
    settings = {**settings_as_made(division), "rest_every": 1}
    plan = fixtures_plan(division=division, **settings)
    assert plan.replaced == () and plan.created == ()
    swapped = {move.fixture.pk for move in plan.moved if move.swapped}
    assert swapped, "the generator's homes differ from the hand-made list's"
    # One of them seated already, its cards' links out: seated the other way round, its
    # tables go and their links stop working.
    seated = before[min(swapped)]
    boards = division.season.get_match_format().tables
    for team in (seated.home, seated.away):
        for i in range(2 * boards):
            player_register(name=f"{team.name} player {i}", team=team, season=division.season)
    home, away = (
        list(Player.objects.filter(registrations__team=team).order_by("pk"))
        for team in (seated.home, seated.away)
    )
    pairs = [(home[2 * i : 2 * i + 2], away[2 * i : 2 * i + 2]) for i in range(boards)]
    tables = fixture_tables_set(fixture=seated, pairs=pairs)
    links = [table.scoring_link_id for table in tables]
    fixtures_generate(division=division, **settings)
    assert not FixtureTable.objects.filter(fixture=seated).exists()
    assert not ScoringLink.objects.filter(pk__in=links, revoked_at__isnull=True).exists()
    after = {f.pk: f for f in division.fixtures.select_related("home")}
    assert after.keys() == before.keys()
    for pk in swapped:
        assert (after[pk].home_id, after[pk].away_id) == (before[pk].away_id, before[pk].home_id)
        assert after[pk].venue_id == after[pk].home.home_venue_id
    assert Counter(frozenset((f.home_id, f.away_id)) for f in after.values()) == Counter(
        frozenset(pair) for pair in combinations([t.pk for t in teams], 2)
    )


def preview(client, division, **fields):
    """The preview page's text, as a secretary reads it."""
    settings = {**settings_as_made(division), **fields}
    data = {key: "" if value is None else value for key, value in settings.items()}
    data["exclusions"] = ""
    page = client.post(
        reverse("leagues:manage_fixtures_generate", args=[division.pk]), data
    ).content.decode()
    main = page[page.index("<main") : page.index("</main>")]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def test_the_preview_counts_its_byes_as_it_lists_them_and_starts_on_the_league_night(client):
    """Five teams from a Sunday start, their league night a Tuesday: the list runs from the
    first Tuesday, and the byes counted are the "No match" places listed, one a night."""
    division = DivisionFactory(season__league=LeagueFactory(league_night=TUESDAY))
    division.season.starts_on = SUNDAY
    division.season.save(update_fields=["starts_on"])
    for i in range(5):
        TeamEntryFactory(division=division, team__name=f"Team {i}")
    signed_in(client, division.season.league)
    words = preview(client, division, start=SUNDAY, legs=1)
    assert f"{division.name}, {division.season.name}: from Tue 2 Sep 2025 to " in words
    assert "Sun 31 Aug" not in words
    no_match = re.findall(r"No match: (Team \d)(?: and (Team \d))?", words)
    places = sum(1 for found in no_match for name in found if name)
    assert places == 5
    assert (
        "5 byes: a team with no match on a night of the new fixtures, each listed as “No match” "
        "under its night." in words
    )


def test_the_preview_says_nothing_changes_and_dates_a_move_once(client):
    division, teams = division_of_four()
    hand_made_list(division, teams)
    signed_in(client, division.season.league)
    words = preview(client, division)
    assert "Nothing changes: no fixture is moved, replaced or new." in words
    words = preview(client, division, rest_every=1)
    plan = fixtures_plan(division=division, **{**settings_as_made(division), "rest_every": 1})
    later = [move for move in plan.moved if move.date != move.fixture.date]
    assert later
    for move in later:
        fixture = move.fixture
        said = (
            f"{fixture.home} v {fixture.away}: moved from {fixture.date:%a %-d %b} to "
            f"{move.date:%a %-d %b}"
        )
        assert said in words, words
    # The notes give each move's night as the list does, not a night the plan tried first.
    assert "→" not in words


def test_the_preview_names_each_new_fixtures_venue_as_the_list_will(client):
    """A pub hosting two matches a night, home to two teams: each new fixture's line names its
    venue (its home team's), so two home matches at the one pub on a night are seen before
    confirming, where the lines said only "Corner Boys v Mid Centre Bullets"."""
    division = DivisionFactory(season__league=LeagueFactory(league_night=TUESDAY))
    rum_shop = VenueFactory(name="Rum Shop Corner", town="Arima", matches_a_night=2)
    for name in ("Corner Boys", "Mid Centre Bullets"):
        TeamEntryFactory(division=division, team__name=name, team__home_venue=rum_shop)
    for name in ("Kings", "Aces"):
        TeamEntryFactory(division=division, team__name=name)
    signed_in(client, division.season.league)
    words = preview(client, division, legs=2)
    plan = fixtures_plan(division=division, legs=2)
    assert plan.created
    for fixture in plan.created:
        home, away = (plan.names[fixture.home], plan.names[fixture.away])
        venue = Team.objects.get(pk=fixture.home).home_venue
        assert f" {home} v {away} at {venue} " in f" {words} ", (home, away)
