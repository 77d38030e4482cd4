"""Setting up leagues, teams and registrations through the services."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from leagues.formats import STYLE_PRESETS
from leagues.match import FIXED, FormatError, MatchFormat
from leagues.models import RESERVED_SLUGS, League, Registration
from leagues.services.registrations import player_register, registration_cancel
from leagues.services.structure import (
    division_create,
    entry_set_captain,
    league_create,
    season_create,
    team_create,
    team_enter,
    venue_create,
)
from leagues.urls import urlpatterns
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
)
from tests.leagues.helpers import page_words

pytestmark = pytest.mark.django_db


def test_a_league_starts_from_its_styles_preset():
    secretary = get_user_model().objects.create_user("secretary")
    league = league_create(
        name="Heckmondwike & District All Fours League", style="yorkshire", by=secretary
    )
    assert league.slug == "heckmondwike-district-all-fours-league"
    assert league.get_ruleset().name == "west_yorkshire"
    assert league.get_ruleset().trumps == "pitch"
    assert league.get_match_format() == STYLE_PRESETS["yorkshire"].match_format
    assert league.get_tiebreaks() == ["points", "games_for", "head_to_head"]
    assert list(league.secretaries.all()) == [secretary]

    trinidad = league_create(
        name="Port of Spain All Fours Association",
        style="trinidad",
        match_format=STYLE_PRESETS["trinidad"].match_format.with_options(tables=8),
    )
    rules = trinidad.get_ruleset()
    assert (rules.name, rules.target, rules.hang_jack_points) == ("trinidad", 14, 3)
    assert trinidad.get_match_format().tables == 8
    assert trinidad.games_word == "bullseyes"


def test_ruleset_overrides_are_checked_by_the_engine():
    league = league_create(
        name="Fifteen Up", style="yorkshire", ruleset={"preset": "west_yorkshire", "target": 15}
    )
    assert league.get_ruleset().target == 15
    with pytest.raises(ValidationError):
        league_create(
            name="Bad", style="yorkshire", ruleset={"preset": "west_yorkshire", "target": 0}
        )
    assert not League.objects.filter(name="Bad").exists()


def test_match_format_presets_and_validation():
    yorkshire = STYLE_PRESETS["yorkshire"].match_format
    assert (yorkshire.tables, yorkshire.points_per_table, yorkshire.aggregate_bonus) == (4, 2, 2)
    assert yorkshire.max_match_points == 10
    trinidad = STYLE_PRESETS["trinidad"].match_format
    assert trinidad.games_mode == FIXED and trinidad.points_per_game == 1
    assert MatchFormat.from_spec(trinidad.to_spec()) == trinidad
    with pytest.raises(FormatError, match="unknown match format"):
        MatchFormat.from_spec({"tabels": 4})
    with pytest.raises(FormatError, match="games must be 1"):
        MatchFormat(games=3)
    with pytest.raises(FormatError, match="no match points"):
        MatchFormat(points_per_table=0, points_per_game=0, aggregate_bonus=0)
    assert "4 tables, one game per table" in yorkshire.describe()


def test_structure_services_build_a_division():
    league = LeagueFactory()
    season = season_create(
        league=league, name="2025–26", slug="2025-26", starts_on=datetime.date(2025, 9, 2)
    )
    division = division_create(season=season, name="Premier Division")
    venue = venue_create(name="Black Bull", town="Heckmondwike", league=league)
    team = team_create(league=league, name="Black Bull A", home_venue=venue)
    entry = team_enter(team=team, division=division)
    assert (entry.season, entry.division, entry.team) == (season, division, team)


def test_a_team_enters_one_division_a_season_of_its_own_league():
    division = DivisionFactory()
    team = TeamFactory(league=division.season.league)
    team_enter(team=team, division=division)
    other = DivisionFactory(season=division.season, name="First Division")
    with pytest.raises(ValidationError, match="already entered"):
        team_enter(team=team, division=other)
    with pytest.raises(ValidationError, match="does not belong"):
        team_enter(team=TeamFactory(), division=division)


def test_one_team_a_season_per_player():
    """The service refuses a second team in a season, and the database backs it up."""
    season = SeasonFactory()
    bull, hall = TeamFactory(league=season.league), TeamFactory(league=season.league)
    player = PlayerFactory(name="Wilf Sykes")
    registration = player_register(player=player, team=bull, season=season)
    assert player_register(player=player, team=bull, season=season) == registration
    with pytest.raises(ValidationError, match="already registered to"):
        player_register(player=player, team=hall, season=season)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(player=player, team=hall, season=season)
    # Next season is another matter.
    next_season = SeasonFactory(league=season.league, starts_on=datetime.date(2026, 9, 1))
    player_register(player=player, team=hall, season=next_season)


def test_a_player_registers_only_with_a_team_of_the_seasons_league():
    season = SeasonFactory()
    with pytest.raises(ValidationError, match="does not play in"):
        player_register(player=PlayerFactory(), team=TeamFactory(), season=season)


def test_the_captain_must_be_registered_to_the_team():
    division = DivisionFactory()
    team = TeamFactory(league=division.season.league)
    entry = team_enter(team=team, division=division)
    player = PlayerFactory()
    with pytest.raises(ValidationError, match="not registered"):
        entry_set_captain(entry=entry, captain=player)
    player_register(player=player, team=team, season=division.season)
    assert entry_set_captain(entry=entry, captain=player).captain == player


def test_a_registration_can_be_withdrawn_until_the_player_has_played():
    season = SeasonFactory()
    team = TeamFactory(league=season.league)
    registration = player_register(player=PlayerFactory(), team=team, season=season)
    registration_cancel(registration=registration)
    assert not Registration.objects.exists()


def test_home_and_away_must_differ():
    fixture = FixtureFactory()
    fixture.away = fixture.home
    with pytest.raises(IntegrityError), transaction.atomic():
        fixture.save()


def test_every_fixed_address_under_leagues_is_a_reserved_slug():
    """A league whose slug is a fixed first part of our addresses (``new/``, ``division/``...)
    would share its pages' addresses with ours."""
    fixed = {str(p.pattern).split("/")[0] for p in urlpatterns} - {"", "<slug:slug>"}
    assert fixed and fixed <= RESERVED_SLUGS


@pytest.mark.parametrize("name, slug", [("New", ""), ("Batley League", "division")])
def test_a_league_cannot_take_a_reserved_slug(client, name, slug):
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-root-9"))
    response = client.post(
        reverse("leagues:manage_league_create"),
        {
            "name": name,
            "slug": slug,
            "style": "yorkshire",
            "league_night": "1",
            "start_time": "20:00",
        },
    )
    assert response.status_code == 200
    assert "is a word the site&#x27;s own addresses use" in response.content.decode()
    assert not League.objects.exists()
    with pytest.raises(ValidationError, match="addresses use"):
        league_create(name="New", style="yorkshire")


def shown(html: str) -> str:
    """What a reader sees of a page: its text, without the tags and their attributes."""
    return re.sub(r"<[^>]*>", " ", html)


def test_the_new_league_form_asks_for_a_web_address_not_a_slug(client):
    """A new secretary reads "Web address", with what it makes, and a refusal in those words:
    never Django's "slug"."""
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-root-9"))
    url = reverse("leagues:manage_league_create")
    page = page_words(client.get(url))
    assert (
        "slug" not in shown(page).lower()
        and "Web address" in page
        and "/leagues/spen-valley/" in page
    )
    response = client.post(
        url,
        {
            "name": "Spen Valley",
            "slug": "spen valley!",
            "style": "yorkshire",
            "league_night": "1",
            "start_time": "20:00",
        },
    )
    words = page_words(response)
    assert response.status_code == 200 and not League.objects.exists()
    assert "slug" not in shown(words).lower()
    assert "The web address may have only letters, digits and hyphens" in words


def test_a_new_league_may_not_take_another_leagues_name(client):
    """Two leagues of one name were two lines alike on the list of leagues: a second league of
    that name (case and spaces aside) is refused on the name, and nothing is made."""
    LeagueFactory(name="Spen Valley All Fours League", slug="spen-valley")
    user = get_user_model().objects.create_user("newsec", password="x", is_superuser=True)
    client.force_login(user)
    response = client.post(
        reverse("leagues:manage_league_create"),
        {
            "name": "spen valley  All Fours league",
            "slug": "spen-valley-2",
            "style": "yorkshire",
            "league_night": "1",
            "start_time": "20:00",
            "time_zone": "Europe/London",
        },
    )
    assert response.status_code == 200
    assert "There is a league called spen valley All Fours league already" in (
        response.content.decode()
    )
    assert League.objects.count() == 1
    other = league_create(name="Calder Valley All Fours League", style="yorkshire", by=user)
    from leagues.services.structure import league_update

    with pytest.raises(ValidationError, match="already"):
        league_update(
            league=other,
            name="Spen Valley All Fours League",
            description="",
            league_night=1,
            start_time=datetime.time(20),
            target=None,
            match_format=other.get_match_format(),
            tiebreaks=other.get_tiebreaks(),
            by=user,
        )
    other.refresh_from_db()
    assert other.name == "Calder Valley All Fours League"


def test_a_league_keeps_one_venue_of_a_name_and_any_league_may_have_its_own(client):
    """A secretary could add "swan millbridge" beside "Swan Millbridge" (two venues alike in
    the list), and adding it a third time was refused as "Venue with this Slug already
    exists". Each league keeps its own venue of a name, and one alone."""
    from leagues.models import Venue

    user = get_user_model().objects.create_user("sec", password="x")
    leagues = [LeagueFactory() for _ in range(3)]
    for league in leagues:
        league.secretaries.add(user)
    for league in leagues:
        venue_create(name="Swan Millbridge", league=league, by=user)
    assert Venue.objects.filter(name="Swan Millbridge").count() == 3
    client.force_login(user)
    url = reverse("leagues:manage_venue_create", args=[leagues[0].slug])
    response = client.post(url, {"name": "swan  millbridge", "town": "", "address": ""})
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "name": [
            f"{leagues[0]} has a venue called Swan Millbridge already: use it, or give this "
            "one another name."
        ]
    }
    assert leagues[0].venues.count() == 1
    other = venue_create(name="Swan", town="Millbridge", league=leagues[0], by=user)
    from leagues.services.structure import venue_update

    with pytest.raises(ValidationError, match="has a venue called Swan Millbridge already"):
        venue_update(venue=other, name="Swan Millbridge", league=leagues[0], by=user)


def test_the_database_keeps_one_venue_of_a_name_in_a_league_even_past_the_services():
    """One venue of a name and town in a league, case aside, is the database's rule too: a
    second added past the services (the admin, a script) is refused by it, while the services
    still say so in words; other leagues and the site operator's own venues are not held to
    it."""
    from leagues.models import Venue

    league, other = LeagueFactory(), LeagueFactory()
    venue_create(name="Swan", town="Millbridge", league=league)
    with pytest.raises(IntegrityError), transaction.atomic():
        Venue.objects.create(league=league, name="SWAN", town="millbridge", slug="swan-2")
    with pytest.raises(ValidationError, match=f"{league} has a venue called Swan in Millbridge"):
        venue_create(name="swan", town="MILLBRIDGE", league=league)
    Venue.objects.create(league=league, name="Swan", town="", slug="swan-nowhere")
    Venue.objects.create(league=other, name="Swan", town="Millbridge", slug="swan-other")
    for slug in ("swan-operator", "swan-operator-2"):
        Venue.objects.create(league=None, name="Swan", town="Millbridge", slug=slug)
    assert Venue.objects.filter(name="Swan", town="Millbridge").count() == 4


def test_a_venue_typed_with_extra_spaces_is_stored_one_spaced_and_not_added_twice():
    """A venue typed " Swan  Millbridge " was stored so, and "Swan Millbridge" (or "swan
    millbridge" typed with two spaces again) passed the check of a second venue of that name:
    names and towns are stored one-spaced, and the second is refused in words."""
    from leagues.services.structure import venue_update

    league = LeagueFactory()
    venue = venue_create(name=" Swan  Millbridge ", town="Low  Moor", league=league)
    assert (venue.name, venue.town) == ("Swan Millbridge", "Low Moor")
    for typed in ("Swan Millbridge", "swan  millbridge"):
        with pytest.raises(ValidationError, match="has a venue called Swan Millbridge in Low"):
            venue_create(name=typed, town="low moor", league=league)
    other = venue_create(name="Swan", league=league)
    venue_update(venue=other, name="The  Swan", town=" Cleckheaton  ", league=league)
    other.refresh_from_db()
    assert (other.name, other.town) == ("The Swan", "Cleckheaton")
    assert league.venues.count() == 2


def test_a_league_given_no_time_zone_takes_its_styles():
    assert league_create(name="Arima Fours", style="trinidad").time_zone == "America/Port_of_Spain"
    assert league_create(name="Batley Fours", style="yorkshire").time_zone == "Europe/London"
    chosen = league_create(name="Tunapuna Fours", style="trinidad", time_zone="UTC")
    assert chosen.time_zone == "UTC"
