"""The secretary's pages: who may use them, and each job done through them end to end."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from leagues.models import (
    AuditEntry,
    Division,
    Fixture,
    FixtureResult,
    FixtureTable,
    League,
    Player,
    PointAdjustment,
    Registration,
    Season,
    TableGame,
    Team,
    Venue,
)
from leagues.services.fixtures import fixtures_generate
from leagues.services.registrations import player_register
from tests.factories.leagues import DivisionFactory, LeagueFactory, PlayerFactory, VenueFactory
from tests.leagues.helpers import entered_teams, page_words, squad

pytestmark = pytest.mark.django_db


@pytest.fixture
def division():
    division = DivisionFactory(season__league=LeagueFactory(), name="Premier")
    entered_teams(division, ["Black Bull", "Old Hall", "Crown", "Anchor"])
    return division


@pytest.fixture
def league(division):
    return division.season.league


@pytest.fixture
def fixture(division):
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    return Fixture.objects.filter(division=division).order_by("date", "pk").first()


def manage_urls(league, division, fixture) -> list[str]:
    season = division.season
    team = division.entries.first().team
    return [
        reverse("leagues:manage_league", args=[league.slug]),
        reverse("leagues:manage_league_edit", args=[league.slug]),
        reverse("leagues:manage_season_create", args=[league.slug]),
        reverse("leagues:manage_division_create", args=[league.slug, season.pk]),
        reverse("leagues:manage_venue_create", args=[league.slug]),
        reverse("leagues:manage_team_create", args=[league.slug]),
        reverse("leagues:manage_team", args=[league.slug, team.pk]),
        reverse("leagues:manage_register", args=[league.slug]),
        reverse("leagues:manage_fixtures_generate", args=[division.pk]),
        reverse("leagues:manage_adjustments", args=[division.pk]),
        reverse("leagues:manage_fixture", args=[fixture.pk]),
        reverse("leagues:manage_fixture_tables", args=[fixture.pk]),
    ]


def test_anonymous_users_are_sent_to_log_in(client, league, division, fixture):
    for url in [*manage_urls(league, division, fixture), reverse("leagues:manage_league_create")]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_other_users_are_refused_and_change_nothing(client, league, division, fixture):
    """A logged-in user who is not the league's secretary gets 403, for reading and posting."""
    client.force_login(get_user_model().objects.create_user("someone", password="pw-secret-2"))
    for url in manage_urls(league, division, fixture):
        assert client.get(url).status_code == 403, url
    response = client.post(
        reverse("leagues:manage_fixture", args=[fixture.pk]),
        {"action": "postpone", "postpone-reason": "Snow"},
    )
    assert response.status_code == 403
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED


def test_secretary_pages_render(client, signed_in, league, division, fixture):
    for url in manage_urls(league, division, fixture):
        assert client.get(url).status_code == 200, url


def test_secretary_of_another_league_is_refused(client, league, division, fixture):
    other = LeagueFactory()
    user = get_user_model().objects.create_user("elsewhere", password="pw-secret-3")
    other.secretaries.add(user)
    client.force_login(user)
    assert client.get(reverse("leagues:manage_league", args=[league.slug])).status_code == 403
    assert client.get(reverse("leagues:manage_league", args=[other.slug])).status_code == 200


def test_a_user_allowed_to_add_leagues_starts_one_and_becomes_its_secretary(client):
    user = get_user_model().objects.create_user("founder", password="pw-secret-4")
    user.user_permissions.add(Permission.objects.get(codename="add_league"))
    client.force_login(user)
    form = client.get(reverse("leagues:manage_league_create")).content.decode()
    # The web address's example reads whole (a "<this>" in it was taken for a tag).
    assert "spen-valley gives /leagues/spen-valley/" in form and "<this>" not in form
    response = client.post(
        reverse("leagues:manage_league_create"),
        {
            "name": "Spen Valley All Fours League",
            "style": "yorkshire",
            "target": "15",
            "tables": "",
            "league_night": "2",
            "start_time": "20:00",
            "tiebreak_1": "games_for",
            "tiebreak_2": "pegs_diff",
        },
    )
    league = League.objects.get(slug="spen-valley-all-fours-league")
    assert response.status_code == 302
    assert response["Location"] == reverse("leagues:manage_league", args=[league.slug])
    assert league.secretaries.filter(pk=user.pk).exists()
    assert league.get_ruleset().target == 15
    assert league.get_tiebreaks() == ["points", "games_for", "pegs_diff"]
    assert league.get_match_format().tables == 4


def test_league_form_shows_a_repeated_tiebreak_as_an_error(client):
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-secret-5"))
    response = client.post(
        reverse("leagues:manage_league_create"),
        {
            "name": "Twice",
            "style": "trinidad",
            "league_night": "4",
            "start_time": "19:30",
            "tiebreak_1": "games_for",
            "tiebreak_2": "games_for",
        },
    )
    assert response.status_code == 200
    assert "“Bullseyes for” is listed twice, as tie-breaks 1 and 2" in response.content.decode()
    assert not League.objects.filter(name="Twice").exists()


def test_secretary_builds_a_season_division_venue_and_entered_team(client, signed_in, league):
    slug = league.slug
    post = client.post
    assert (
        post(
            reverse("leagues:manage_season_create", args=[slug]),
            {"name": "Winter 2026", "starts_on": "2026-01-06", "ends_on": ""},
        ).status_code
        == 302
    )
    season = Season.objects.get(league=league, name="Winter 2026")
    assert (
        post(
            reverse("leagues:manage_division_create", args=[slug, season.pk]),
            {"name": "Second", "rank": "2"},
        ).status_code
        == 302
    )
    division = Division.objects.get(season=season, name="Second")
    added = post(
        reverse("leagues:manage_venue_create", args=[slug]),
        {"name": "The Greyhound", "town": "Birstall", "address": ""},
    )
    # Back to the venues, the new one listed, for the next pub.
    assert added.status_code == 302
    assert added["Location"] == reverse("leagues:manage_venues", args=[slug])
    venue = Venue.objects.get(name="The Greyhound")
    response = post(
        reverse("leagues:manage_team_create", args=[slug]),
        {"name": "Greyhound A", "short_name": "", "home_venue": venue.pk, "division": division.pk},
    )
    team = Team.objects.get(league=league, name="Greyhound A")
    assert response.status_code == 302
    assert team.entries.get().division == division


def test_season_ending_before_it_starts_is_a_form_error(client, signed_in, league):
    response = client.post(
        reverse("leagues:manage_season_create", args=[league.slug]),
        {"name": "Backwards", "starts_on": "2026-05-01", "ends_on": "2026-01-01"},
    )
    assert response.status_code == 200
    assert "The season cannot end before it starts." in response.content.decode()
    assert not Season.objects.filter(name="Backwards").exists()


def test_register_a_new_player_then_refuse_a_second_team(client, signed_in, league, division):
    """The second registration in a season is a form error, and no player is left behind."""
    black_bull, old_hall = (Team.objects.get(name=n) for n in ("Black Bull", "Old Hall"))
    url = reverse("leagues:manage_register", args=[league.slug])
    response = client.post(
        url, {"name": "Ada Hirst", "team": black_bull.pk, "season": division.season.pk}
    )
    assert response.status_code == 302
    ada = Player.objects.get(name="Ada Hirst")
    assert Registration.objects.get(player=ada).team == black_bull

    players = Player.objects.count()
    response = client.post(
        url, {"player": ada.pk, "name": "", "team": old_hall.pk, "season": division.season.pk}
    )
    assert response.status_code == 200
    assert "already registered to Black Bull" in response.content.decode()
    assert Registration.objects.filter(player=ada).count() == 1
    assert Player.objects.count() == players


def test_bad_input_changes_nothing(client, signed_in, league, division):
    url = reverse("leagues:manage_register", args=[league.slug])
    players = Player.objects.count()
    response = client.post(url, {"name": "", "team": "999999", "season": "x"})
    assert response.status_code == 200
    assert Player.objects.count() == players
    response = client.post(
        reverse("leagues:manage_fixtures_generate", args=[division.pk]),
        {"start": "not a date", "league_night": "9", "legs": "3", "exclusions": "soon"},
    )
    assert response.status_code == 200
    assert "Nights with no league, line 1: “soon” does not start with a date" in (
        response.content.decode()
    )
    assert not Fixture.objects.filter(division=division).exists()


def test_generate_fixtures_shows_the_report_and_keeps_played_fixtures(client, signed_in, division):
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    form = {
        "start": "2025-09-02",
        "league_night": "1",
        "legs": "2",
        "exclusions": "2025-09-16",
    }
    response = client.post(url, form)
    preview = response.content.decode()
    assert "Check the new list" in preview
    assert not Fixture.objects.filter(division=division).exists(), "a preview changes nothing"
    # The preview lists the new fixtures night by night, by the teams' names and the venue.
    assert "The 12 new fixtures, night by night" in preview
    nights = re.findall(r"<h3>(\w{3} \d+ \w{3} \d{4})</h3>", preview)
    assert nights[0] == "Tue 2 Sep 2025" and "Tue 16 Sep 2025" not in nights
    response = client.post(url, {**form, "confirm": "1"})
    assert response.status_code == 200
    assert "Fixtures generated" in response.content.decode()
    fixtures = Fixture.objects.filter(division=division)
    assert fixtures.count() == 12
    first = fixtures.order_by("date", "pk").select_related("home", "away", "venue").first()
    line = f'<li>{first.home.name} v {first.away.name} <span class="muted">at {first.venue}</span>'
    assert line in preview
    assert not fixtures.filter(date=datetime.date(2025, 9, 16)).exists()

    played = fixtures.order_by("date", "pk").first()
    client.post(
        reverse("leagues:manage_fixture", args=[played.pk]),
        {"action": "walkover", "walkover-to": "home", "walkover-reason": "No team raised"},
    )
    page = client.get(url).content.decode()
    assert "generating never touches a played fixture" in page
    response = client.post(url, {**form, "exclusions": "", "confirm": "1"})
    assert "1 played or started fixture kept" in response.content.decode()
    played.refresh_from_db()
    assert played.status == Fixture.Status.WALKOVER


def test_a_fixtures_secretary_page_links_back_to_the_desk(client, signed_in, league, fixture):
    """A fixture's secretary page linked its public page alone: the secretary who came from
    the desk had no way back to it but the browser's."""
    page = client.get(reverse("leagues:manage_fixture", args=[fixture.pk])).content.decode()
    desk = reverse("leagues:manage_league", args=[league.slug])
    assert f'<a href="{desk}" data-testid="back-to-desk">Back to the desk</a>' in page
    fixture.status = Fixture.Status.VOID
    fixture.save(update_fields=["status"])
    page = client.get(reverse("leagues:manage_fixture", args=[fixture.pk])).content.decode()
    assert 'data-testid="back-to-desk"' in page


def test_postpone_then_rearrange(client, signed_in, fixture):
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    response = client.post(url, {"action": "postpone", "postpone-reason": ""})
    assert response.status_code == 200, "a reason is required"
    response = client.post(url, {"action": "postpone", "postpone-reason": "Pub flooded"})
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.POSTPONED and fixture.reason == "Pub flooded"
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert "Pub flooded" in page and "P–P" in page

    new_date = fixture.date + datetime.timedelta(days=2)
    response = client.post(
        url,
        {
            "action": "rearrange",
            "rearrange-date": new_date.isoformat(),
            "rearrange-time": "19:30",
            "rearrange-venue": fixture.venue_id,
            "rearrange-reason": "Played midweek",
            "rearrange-outside_calendar": "on",
        },
    )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.date == new_date and fixture.status == Fixture.Status.SCHEDULED
    assert fixture.time == datetime.time(19, 30)


def test_seat_the_tables_and_start_the_games(client, signed_in, fixture):
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    form = {}
    for board in range(1, 5):
        pick = slice(2 * board - 2, 2 * board)
        for seat, player in enumerate(home[pick], start=1):
            form[f"board_{board}_home_{seat}"] = player.pk
        for seat, player in enumerate(away[pick], start=1):
            form[f"board_{board}_away_{seat}"] = player.pk
    url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])

    clash = {**form, "board_2_home_1": home[0].pk}
    response = client.post(url, {**clash, "start": "1"})
    assert response.status_code == 200
    assert "is chosen for 2 seats" in response.content.decode()
    assert not TableGame.objects.filter(table__fixture=fixture).exists()

    response = client.post(url, {**form, "start": "1"})
    assert response.status_code == 302
    games = TableGame.objects.filter(table__fixture=fixture).select_related("game")
    assert games.count() == 4
    page = client.get(fixture.get_absolute_url()).content.decode()
    for table_game in games:
        assert table_game.game.get_absolute_url() in page
    page = client.get(url).content.decode()
    assert "Games have started" in page


def test_a_player_chosen_for_several_seats_is_named_once_with_every_seat(
    client, signed_in, fixture
):
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    form = {}
    for board in range(1, 5):
        form[f"board_{board}_home_1"] = home[2 * board - 2].pk
        form[f"board_{board}_away_1"] = away[2 * board - 2].pk
    twice = home[0]
    form |= {"board_1_home_2": twice.pk, "board_3_home_1": twice.pk}
    url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])
    response = client.post(url, {**form, "save": "1"})
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    said = (
        f"{twice.name} is chosen for 3 seats (home player 1 at table 1, home player 2 at "
        "table 1 and home player 1 at table 3): a player sits at one seat only."
    )
    assert page.count(said) == 1
    assert page.count(twice.name + " is") == 1
    assert not fixture.tables.exists()


def test_walkover_and_void(client, signed_in, fixture):
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    response = client.post(
        url, {"action": "walkover", "walkover-to": "away", "walkover-reason": "Home conceded"}
    )
    assert response.status_code == 302
    result = FixtureResult.objects.get(fixture=fixture)
    assert result.is_walkover and result.outcome == "away"
    standings = client.get(fixture.division.get_absolute_url()).content.decode()
    assert fixture.away.name in standings

    response = client.post(
        url, {"action": "walkover", "walkover-to": "home", "walkover-reason": "x"}
    )
    assert response.status_code == 200, "a walkover cannot be given twice"
    assert "Only a fixture not yet played" in response.content.decode()

    response = client.post(url, {"action": "void", "void-reason": "Both teams withdrew"})
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.VOID
    assert not FixtureResult.objects.filter(fixture=fixture).exists()


def test_point_adjustment_is_recorded_shown_and_withdrawn(client, signed_in, division):
    entry = division.entries.get(team__name="Crown")
    url = reverse("leagues:manage_adjustments", args=[division.pk])
    response = client.post(url, {"entry": entry.pk, "points": "0", "reason": "Nothing"})
    assert response.status_code == 200
    assert "0 points changes nothing" in response.content.decode()
    response = client.post(url, {"entry": entry.pk, "points": "-3", "reason": "Late result card"})
    assert response.status_code == 302
    adjustment = PointAdjustment.objects.get(entry=entry)
    assert adjustment.points == -3 and adjustment.made_by == signed_in
    standings = client.get(division.get_absolute_url()).content.decode()
    assert "Late result card" in standings
    response = client.post(
        reverse("leagues:manage_adjustment_withdraw", args=[division.pk, adjustment.pk])
    )
    assert response.status_code == 302
    assert not PointAdjustment.objects.filter(entry=entry).exists()


def test_a_new_teams_page_goes_squad_then_captain_then_withdrawal(
    client, signed_in, league, division
):
    """A team just added ("Register its players next"): its page showed the division and an
    empty captain's list, then the withdrawal form and its red button, and the squad last. It
    goes as a secretary works: the squad (its button the first step), the division and captain
    (the list, empty until a squad is registered, says so with the way to it), the withdrawal
    last."""
    team = Team.objects.create(
        league=league, name="Commercial", slug="commercial", home_venue=VenueFactory()
    )
    url = reverse("leagues:manage_team", args=[league.slug, team.pk])
    client.post(url, {"season": division.season.pk, "division": division.pk})
    squad_url = reverse("leagues:manage_squad", args=[league.slug, team.pk])
    squad_url += f"?season={division.season.pk}"
    page = page_words(client.get(url))
    order = [
        page.index("<h3>Squad</h3>"),
        page.index(f'<a class="button primary" href="{squad_url}">Register a squad</a>'),
        page.index('<label for="id_captain">'),
        page.index("<h3>Withdrawal</h3>"),
        page.index("Withdraw Commercial from"),
    ]
    assert order == sorted(order)
    assert "{#" not in page and "#}" not in page
    first = (
        'Register the squad first: the captain is one of its players (<a href="'
        + html.escape(squad_url)
        + '">register a squad</a>).'
    )
    assert first in page
    assert page.index("Register the squad first") > page.index('<label for="id_captain">')
    player_register(player=PlayerFactory(name="Edna Senior"), team=team, season=division.season)
    page = page_words(client.get(url))
    assert "Register the squad first" not in page
    assert f'<a class="button" href="{squad_url}">Register a squad</a>' in page


def test_team_page_enters_a_team_and_sets_its_captain(client, signed_in, league, division):
    team = Team.objects.create(
        league=league, name="Greyhound", slug="greyhound", home_venue=VenueFactory()
    )
    url = reverse("leagues:manage_team", args=[league.slug, team.pk])
    response = client.post(url, {"season": division.season.pk, "division": division.pk})
    assert response.status_code == 302
    entry = team.entries.get()
    assert entry.division == division and entry.captain is None
    crown = Team.objects.get(name="Crown")
    outsider = squad(crown, division.season)[0]
    response = client.post(
        url, {"season": division.season.pk, "division": division.pk, "captain": outsider.pk}
    )
    assert response.status_code == 200, "only the team's registered players can captain it"
    assert "Select a valid choice" in response.content.decode()
    own = PlayerFactory(name="Edna Senior")
    player_register(player=own, team=team, season=division.season)
    response = client.post(
        url, {"season": division.season.pk, "division": division.pk, "captain": own.pk}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.captain == own
    client.logout()
    public = client.get(team.get_absolute_url()).content.decode()
    assert "Edna Senior" in public, "in the squad"
    assert "captain" not in public.lower(), "the captain is not named on the public page"


def test_too_early_an_end_is_said_by_the_end_date_not_as_a_short_season(
    client, signed_in, division
):
    """A date to end by that leaves too few league nights was refused by the start, as "the
    season is too short", though the season's own end was months away."""
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    response = client.post(
        url, {"start": "2025-09-02", "league_night": "1", "legs": "2", "end_by": "2025-09-09"}
    )
    form = response.context["form"]
    assert form.errors == {
        "end_by": [
            "Too early an end: 6 rounds need 6 league nights, but from Tue 2 Sep 2025 to "
            "Tue 9 Sep 2025 there are 2; end later, or leave it blank"
        ]
    }
    assert not Fixture.objects.filter(division=division).exists()


def test_a_repeated_tiebreak_names_the_choice_given_twice(client):
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-secret-5"))
    response = client.post(
        reverse("leagues:manage_league_create"),
        {
            "name": "Twice",
            "style": "trinidad",
            "league_night": "4",
            "start_time": "19:30",
            "tiebreak_1": "games_for",
            "tiebreak_2": "hang_jacks_for",
            "tiebreak_3": "games_for",
        },
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "“Bullseyes for” is listed twice, as tie-breaks 1 and 3" in text


def test_a_new_league_is_in_its_styles_time_zone_unless_another_is_chosen(client):
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-secret-5"))
    url = reverse("leagues:manage_league_create")
    form = client.get(url).content.decode()
    # Neither style's zone is chosen for the secretary: the blank choice says which each takes.
    zone_select = form.split('name="time_zone"')[1]
    selected = re.findall(r'<option value="([^"]*)"[^>]*selected', zone_select)
    assert selected[0] == ""
    assert "Yorkshire: Europe/London; Trinidad: America/Port of Spain" in form
    base = {"league_night": "4", "start_time": "19:30", "time_zone": ""}
    for name, style, chosen, zone in [
        ("Port of Spain Fours", "trinidad", "", "America/Port_of_Spain"),
        ("Spen Valley Fours", "yorkshire", "", "Europe/London"),
        ("San Fernando Fours", "trinidad", "Europe/London", "Europe/London"),
    ]:
        response = client.post(url, {**base, "name": name, "style": style, "time_zone": chosen})
        assert response.status_code == 302, response.content.decode()
        assert League.objects.get(name=name).time_zone == zone


def test_a_list_generated_again_that_moves_fixtures_does_not_also_say_none_moved(
    client, signed_in, division
):
    """Generating again a week later moves the scheduled fixtures: the report said "12
    fixtures moved to another night." and then "No fixture needed swapping or moving.", which
    meant the generator's own swaps and moves for a shared home venue."""
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    form = {"start": "2025-09-02", "league_night": "1", "legs": "2", "confirm": "1"}
    client.post(url, form)
    words = page_words(client.post(url, {**form, "start": "2025-09-09"}))
    assert "moved to another night." in words
    assert "No fixture needed swapping or moving." not in words
    assert "No fixture needed swapping home and away, or moving, for a shared venue." in words


def test_an_adjustment_is_dated_where_the_league_plays(client, signed_in, league, division):
    """Made at 21:30 on a Port of Spain league night (01:30 the next day in London, the site's
    zone), the desk's list of adjustments dated it the next day."""
    league.time_zone = "America/Port_of_Spain"
    league.save(update_fields=["time_zone"])
    entry = division.entries.get(team__name="Crown")
    PointAdjustment.objects.create(
        entry=entry,
        points=-1,
        reason="Late start",
        made_at=datetime.datetime(2026, 11, 7, 1, 30, tzinfo=datetime.UTC),
    )
    page = page_words(client.get(reverse("leagues:manage_adjustments", args=[division.pk])))
    assert "6 Nov 2026" in page and "7 Nov 2026" not in page


def test_generating_a_new_divisions_list_says_where_its_teams_are_entered(
    client, signed_in, league
):
    """A new season's division has no teams: its "Generate fixtures" page said "0 teams."
    and nothing of where a team is entered (each team's page on the desk), so the secretary
    was left with a list refused for want of teams. Once two are in, the pointer goes."""
    division = DivisionFactory(season__league=league, name="First")
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    page = page_words(client.get(url))
    desk = reverse("leagues:manage_league", args=[league.slug])
    assert "A list needs two teams or more. A team is entered in First from its page:" in page
    assert f'href="{desk}#teams"' in client.get(url).content.decode()
    assert 'id="teams"' in client.get(desk).content.decode()
    entered_teams(division, ["Swan", "Woolpack"])
    assert 'data-testid="enter-teams"' not in client.get(url).content.decode()


def test_new_season_form_names_the_league_night(client, signed_in, league):
    """The default night option says which night the league plays, not just "the league's"."""
    league.league_night = 1
    league.save(update_fields=["league_night"])
    response = client.get(reverse("leagues:manage_season_create", args=[league.slug]))
    assert "The league&#x27;s night (Tuesday)" in response.content.decode()


def test_the_preview_and_the_weekly_list_name_the_team_with_no_match(client, signed_in, division):
    """Five teams: each night of the preview and each week of the division's list says which
    team has the bye ("No match: Red Lion"), the same team on both pages."""
    entered_teams(division, ["Red Lion"])
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    form = {"start": "2025-09-02", "league_night": "1", "legs": "1", "exclusions": ""}
    preview = html.unescape(client.post(url, form).content.decode())
    byes = re.findall(r'<h3>([^<]+)</h3>\s*<ul class="notes">.*?No match: ([^<]+)</li>', preview)
    assert len(byes) == 5
    assert sorted(team for _, team in byes) == sorted(t.name for t in Team.objects.all())
    client.post(url, {**form, "confirm": "1"})
    for night, team in byes:
        week = datetime.datetime.strptime(night, "%a %d %b %Y").date().isoformat()
        page = client.get(reverse("leagues:division_fixtures", args=[division.pk]), {"week": week})
        assert f'<p data-testid="no-match">No match: {team}</p>' in html.unescape(
            page.content.decode()
        )


def test_a_teams_secretary_pages_open_on_the_season_in_play_not_one_made_ahead(
    client, signed_in, league, division
):
    """A season made ahead for next year (no entries yet) is the newest: the team's page and
    its captain's account page opened on it, showing the team in no division and no captain,
    mid-season."""
    from tests.factories.leagues import SeasonFactory

    team = division.entries.first().team
    ahead = SeasonFactory(league=league, starts_on=league.today() + datetime.timedelta(days=90))
    for name in ("leagues:manage_team", "leagues:manage_captain_account"):
        url = reverse(name, args=[league.slug, team.pk])
        page = client.get(url).content.decode()
        chosen = re.search(r'<a href="\?season=(\d+)" aria-current="page">', page)
        assert chosen and int(chosen.group(1)) == division.season_id, name
        asked = client.get(url, {"season": ahead.pk}).content.decode()
        chosen = re.search(r'<a href="\?season=(\d+)" aria-current="page">', asked)
        assert chosen and int(chosen.group(1)) == ahead.pk, name


def test_the_desk_opens_on_the_league_night_with_each_matchs_pages(
    client, signed_in, league, fixture
):
    """On a league night the desk lists the night's matches first, each linked to its night
    page (the pairs seated, the QR codes), its tables and its score card, and to the league
    night's page: the desk listed only past nights' results."""
    desk = reverse("leagues:manage_league", args=[league.slug])
    page = client.get(desk).content.decode()
    assert 'data-testid="desk-tonight"' not in page and "League night ·" not in page

    Fixture.objects.filter(pk=fixture.pk).update(date=league.today())
    page = client.get(desk).content.decode()
    night = reverse("leagues:fixture_night", args=[fixture.pk])
    assert f'<a href="{night}" data-testid="tonight-{fixture.pk}">' in page
    assert reverse("leagues:manage_fixture_tables", args=[fixture.pk]) in page
    assert reverse("leagues:score_card", args=[fixture.pk]) + "?from=desk" in page
    assert reverse("leagues:league_live", args=[league.slug]) in page
    words = page_words(page)
    assert f"{fixture.home.name} v {fixture.away.name}" in words and "not started" in words
    # First on the desk, under its heading: before its buttons and the results to see to.
    assert page.index('data-testid="desk-tonight"') < page.index("League settings")


def test_the_adjustments_page_names_who_made_each_adjustment_not_their_login(
    client, signed_in, division
):
    """The list read "by sec", the secretary's login: it names the person, as the secretaries
    page does, and the login only for an account that gave no name."""
    entry = division.entries.get(team__name="Crown")
    url = reverse("leagues:manage_adjustments", args=[division.pk])
    client.post(url, {"entry": entry.pk, "points": "-2", "reason": "Late result card"})
    assert "by sec" in page_words(client.get(url))
    signed_in.first_name, signed_in.last_name = "Susan", "Booth"
    signed_in.save(update_fields=["first_name", "last_name"])
    page = page_words(client.get(url))
    assert "by Susan Booth" in page and "by sec" not in page


def test_generating_again_brings_back_every_setting_and_names_the_fixtures_it_disturbs(
    client, signed_in, division, lists_made_today
):
    """A fifth team added, the list generated again: the form remembered the nights with no
    league but not "A week off every 3 rounds", so the new list quietly dropped the week off.
    Every setting of the last generation comes back, the preview says them all, and it marks
    the fixtures it moves or removes whose blank cards may be printed already (within the
    next week, or seated)."""
    season = division.season
    today = season.league.today()
    season.starts_on = today
    season.save(update_fields=["starts_on"])
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    off = today + datetime.timedelta(days=35)
    first = {
        "start": today.isoformat(),
        "league_night": str(today.weekday()),
        "legs": "1",
        "exclusions": off.isoformat(),
        "rest_every": "3",
    }
    assert client.post(url, {**first, "confirm": "1"}).status_code == 200
    entered_teams(division, ["Red Lion"], players=2)

    response = client.get(url)
    form = response.context["form"]
    again = {name: form[name].value() for name in first}
    assert {k: str(v) for k, v in again.items() if k != "exclusions"} == {
        k: v for k, v in first.items() if k != "exclusions"
    }
    assert again["exclusions"] == off.isoformat()
    page = response.content.decode()
    assert re.search(r'name="rest_every" value="3"', page)

    data = {k: "" if v is None else str(v) for k, v in again.items()} | {"end_by": ""}
    preview = client.post(url, data)
    plan = preview.context["plan"]
    assert plan.rest_every == 3
    words = html.unescape(preview.content.decode())
    assert "a week off every 3 rounds" in words
    soon = today + datetime.timedelta(days=7)
    disturbed = [m.fixture for m in plan.moved] + list(plan.replaced)
    later = [f for f in disturbed if f.date > soon]
    assert later and len(later) < len(disturbed), "the fifth team moves fixtures of this week"
    assert plan.cards_out == {f.pk for f in disturbed if f.date <= soon}
    # Pairs seated at a later fixture's table: its cards may be printed too.
    seated = later[0]
    FixtureTable.objects.create(
        fixture=seated, board=1, home_player_1=Player.objects.filter(name__contains="1").first()
    )
    preview = client.post(url, data)
    plan = preview.context["plan"]
    assert seated.pk in plan.cards_out
    words = html.unescape(preview.content.decode())
    assert 'data-testid="cards-out"' in words
    assert f"{len(plan.cards_out)} of the fixtures it moves or removes" in words
    assert "blank score cards may be printed already" in words


def test_a_list_generated_before_the_week_off_was_recorded_says_so(client, signed_in, division):
    """A list generated before the audit entry recorded its week off and end date: the form
    cannot bring them back, and said nothing, so generating again quietly packed the rounds.
    It now says so, until a list is generated with them recorded."""
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    assert 'data-testid="spread-unrecorded"' not in client.get(url).content.decode()
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.FIXTURES_GENERATED)
    assert 'data-testid="spread-unrecorded"' not in client.get(url).content.decode()
    entry.after = {k: v for k, v in entry.after.items() if k not in ("rest_every", "end_by")}
    entry.save(update_fields=["after"])
    words = html.unescape(client.get(url).content.decode())
    assert (
        "The last list of Premier was generated before the app recorded a week off or an end "
        "date: if it had one, give it again below (left blank, the new list has neither)."
    ) in words
