"""The secretary's edit pages: the league's settings, seasons, divisions, venues, teams (and
moving a team between divisions), the captain's private contact, and adding one fixture."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse

from leagues.forms import LeagueEditForm
from leagues.models import Division, Fixture, League, Season, Team, TeamEntry, Venue
from leagues.services.fixtures import fixtures_generate
from tests.factories.leagues import DivisionFactory, LeagueFactory, VenueFactory
from tests.leagues.helpers import entered_teams, page_words, squad

pytestmark = pytest.mark.django_db

CONTACT = "07700 900461 / captain.bull@example.org"


@pytest.fixture
def division():
    division = DivisionFactory(season__league=LeagueFactory(), name="Premier")
    entered_teams(division, ["Black Bull", "Old Hall", "Crown", "Anchor"], players=2)
    return division


@pytest.fixture
def second(division):
    return DivisionFactory(season=division.season, name="First", rank=2)


@pytest.fixture
def league(division):
    return division.season.league


@pytest.fixture
def team(division):
    return Team.objects.get(name="Black Bull")


def league_data(league: League, **changes) -> dict:
    """What the settings page posts when nothing is touched, with ``changes``."""
    form = LeagueEditForm(league=league)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        if isinstance(value, datetime.time):
            value = value.strftime("%H:%M")
        data[name] = "" if value is None else str(value)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = str(value)
    return data


def edit_urls(league, division, team, venue) -> list[str]:
    slug = league.slug
    return [
        reverse("leagues:manage_league_edit", args=[slug]),
        reverse("leagues:manage_season_edit", args=[slug, division.season_id]),
        reverse("leagues:manage_division_edit", args=[slug, division.pk]),
        reverse("leagues:manage_venues", args=[slug]),
        reverse("leagues:manage_venue_edit", args=[slug, venue.pk]),
        reverse("leagues:manage_team_edit", args=[slug, team.pk]),
        reverse("leagues:manage_team", args=[slug, team.pk]),
        reverse("leagues:manage_fixture_add", args=[division.pk]),
    ]


def test_edit_pages_are_for_the_leagues_secretary_only(client, league, division, team):
    """Anonymous users are sent to log in; another league's secretary gets 403 and changes
    nothing; the league's own secretary sees every page."""
    urls = edit_urls(league, division, team, team.home_venue)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url

    other = LeagueFactory()
    outsider = get_user_model().objects.create_user("elsewhere", password="pw-secret-3")
    other.secretaries.add(outsider)
    client.force_login(outsider)
    for url in urls:
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"name": "Hijacked"}).status_code == 403, url
    assert not League.objects.filter(name="Hijacked").exists()
    assert not Team.objects.filter(name="Hijacked").exists()
    assert not Venue.objects.filter(name="Hijacked").exists()

    user = get_user_model().objects.create_user("sec", password="pw-secret-1")
    league.secretaries.add(user)
    client.force_login(user)
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_secretary_edits_the_league_on_one_page(client, signed_in, league):
    response = client.post(
        reverse("leagues:manage_league_edit", args=[league.slug]),
        league_data(
            league,
            name="Spen Valley League",
            description="Tuesdays at eight.",
            league_night=3,
            start_time="19:45",
            target=15,
            tables=5,
            aggregate_bonus=3,
            tiebreak_1="pegs_diff",
            tiebreak_2="head_to_head",
            tiebreak_3="",
        ),
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.name == "Spen Valley League"
    assert league.description == "Tuesdays at eight."
    assert league.league_night == 3
    assert league.start_time == datetime.time(19, 45)
    assert league.get_ruleset().target == 15
    assert league.get_match_format().tables == 5
    assert league.get_match_format().aggregate_bonus == 3
    assert league.get_tiebreaks() == ["points", "pegs_diff", "head_to_head"]


def test_a_match_format_that_gives_no_points_is_refused_and_nothing_saved(
    client, signed_in, league
):
    response = client.post(
        reverse("leagues:manage_league_edit", args=[league.slug]),
        league_data(
            league, name="Renamed", points_per_table=0, points_per_game=0, aggregate_bonus=0
        ),
    )
    assert response.status_code == 200
    assert "no match could be won" in response.content.decode()
    league.refresh_from_db()
    assert league.name != "Renamed"


def test_every_problem_with_the_settings_is_said_at_once_against_its_field(
    client, signed_in, league
):
    """A secretary was told one problem a submission: the first tie-break listed twice but not
    the second, and a format giving no points only once the tables were filled in (said by
    "Games", which it is not about). One submission says them all, each by its field, and
    nothing is saved."""
    before = (league.name, league.get_match_format(), league.get_tiebreaks())
    response = client.post(
        reverse("leagues:manage_league_edit", args=[league.slug]),
        league_data(
            league,
            name="Renamed",
            tables="",
            points_per_table=0,
            points_per_game=0,
            aggregate_bonus=0,
            tiebreak_1="pegs_diff",
            tiebreak_2="pegs_diff",
            tiebreak_3="pegs_for",
            tiebreak_4="pegs_for",
        ),
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["tables"] == ["This field is required."]
    assert [e for e in errors["points_per_table"] if "no match could be won" in e]
    assert "games" not in errors
    assert errors["tiebreak_2"] == [
        "“Pegs difference” is listed twice, as tie-breaks 1 and 2: each tie-break may be "
        "listed only once."
    ]
    assert errors["tiebreak_4"] == [
        "“Pegs for” is listed twice, as tie-breaks 3 and 4: each tie-break may be listed only once."
    ]
    assert "tiebreak_1" not in errors and "tiebreak_3" not in errors
    league.refresh_from_db()
    assert (league.name, league.get_match_format(), league.get_tiebreaks()) == before


def test_a_played_season_keeps_its_rules_when_the_league_changes_them(
    client, signed_in, league, division
):
    """The league's target, format and tie-breaks are the defaults for new seasons: a season
    with a fixture played keeps its own (and its own page refuses a change), a new season
    takes the league's, and can change them until its first fixture is played."""
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    Fixture.objects.filter(pk=Fixture.objects.filter(division=division).first().pk).update(
        status=Fixture.Status.PLAYED
    )
    played = division.season
    url = reverse("leagues:manage_league_edit", args=[league.slug])
    response = client.post(
        url, league_data(league, name="Renamed", tables=6, target=15, tiebreak_1="pegs_for")
    )
    assert response.status_code == 302
    league.refresh_from_db()
    played.refresh_from_db()
    assert league.name == "Renamed"
    assert (league.get_match_format().tables, league.get_ruleset().target) == (6, 15)
    assert league.get_tiebreaks()[1] == "pegs_for"
    assert (played.get_match_format().tables, played.get_ruleset().target) == (4, 11)
    assert played.get_tiebreaks()[1] != "pegs_for"

    rules = reverse("leagues:manage_season_rules", args=[league.slug, played.pk])
    response = client.post(rules, league_data(league, tables=5))
    assert response.status_code == 200
    assert "has been played" in response.content.decode()
    played.refresh_from_db()
    assert played.get_match_format().tables == 4

    response = client.post(
        reverse("leagues:manage_season_create", args=[league.slug]),
        {"name": "2026–27", "starts_on": "2026-09-01", "ends_on": ""},
    )
    assert response.status_code == 302
    new = league.seasons.get(name="2026–27")
    assert (new.get_match_format().tables, new.get_ruleset().target) == (6, 15)
    response = client.post(
        reverse("leagues:manage_season_rules", args=[league.slug, new.pk]),
        league_data(league, tables=3, target=21),
    )
    assert response.status_code == 302
    new.refresh_from_db()
    assert (new.get_match_format().tables, new.get_ruleset().target) == (3, 21)
    assert league.seasons.get(pk=played.pk).get_match_format().tables == 4


def test_secretary_edits_a_season_and_bad_dates_are_refused(client, signed_in, league, division):
    season = division.season
    url = reverse("leagues:manage_season_edit", args=[league.slug, season.pk])
    response = client.post(
        url, {"name": "Winter 2026", "starts_on": "2026-01-06", "ends_on": "2025-12-01"}
    )
    assert response.status_code == 200
    assert "The season cannot end before it starts." in response.content.decode()
    season.refresh_from_db()
    assert season.name != "Winter 2026"

    response = client.post(
        url, {"name": "Winter 2026", "starts_on": "2026-01-06", "ends_on": "2026-04-28"}
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.starts_on, season.ends_on) == (
        "Winter 2026",
        datetime.date(2026, 1, 6),
        datetime.date(2026, 4, 28),
    )


def test_the_desk_gives_each_season_its_dates_and_says_when_no_end_is_set(
    client, signed_in, league, division
):
    """The desk gave a season as "from 12 Jun 2026" whether or not its end was set: a season
    ending 11 Sep read as if it ran on. The end is optional (a season may be started before
    its fixture list settles when it ends): the desk gives both dates, or says none is set."""
    season = division.season
    url = reverse("leagues:manage_season_edit", args=[league.slug, season.pk])
    desk = reverse("leagues:manage_league", args=[league.slug])

    def said(response) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())

    client.post(url, {"name": "Summer 2026", "starts_on": "2026-06-12", "ends_on": "2026-09-11"})
    assert "Summer 2026 Fri 12 Jun 2026 to Fri 11 Sep 2026 · edit" in said(client.get(desk))

    client.post(url, {"name": "Summer 2026", "starts_on": "2026-06-12", "ends_on": ""})
    season.refresh_from_db()
    assert season.ends_on is None
    assert "Summer 2026 from Fri 12 Jun 2026, no end set · edit" in said(client.get(desk))
    form = page_words(client.get(url))
    assert "Blank until you know it" in form


def test_secretary_renames_and_reranks_a_division_but_not_onto_another(
    client, signed_in, league, division, second
):
    url = reverse("leagues:manage_division_edit", args=[league.slug, second.pk])
    response = client.post(url, {"name": "Premier", "rank": "2"})
    assert response.status_code == 200
    assert "The season already has a division of that name" in response.content.decode()
    assert Division.objects.get(pk=second.pk).name == "First"

    assert client.post(url, {"name": "Championship", "rank": "3"}).status_code == 302
    second.refresh_from_db()
    assert (second.name, second.rank) == ("Championship", 3)


def test_two_divisions_of_a_season_never_share_a_rank(client, signed_in, league, division):
    """A new division at the rank of another is refused by the rank, naming the other; the
    form offers the next free rank; the database refuses a second at a rank too."""
    season = division.season
    url = reverse("leagues:manage_division_create", args=[league.slug, season.pk])
    assert client.get(url).context["form"]["rank"].value() == 2
    response = client.post(url, {"name": "Division One", "rank": "1", "promoted": "2"})
    assert response.status_code == 200
    assert response.context["form"].errors["rank"] == [
        f"Premier is already at rank 1 in {season.name}: give each division its own rank (1 "
        "is the top). To swap two, move one to a free rank first."
    ]
    assert list(season.divisions.values_list("name", flat=True)) == ["Premier"]
    assert client.post(url, {"name": "Division One", "rank": "2"}).status_code == 302
    edit = reverse("leagues:manage_division_edit", args=[league.slug, division.pk])
    response = client.post(edit, {"name": "Premier", "rank": "2", "promoted": "0"})
    assert "Division One is already at rank 2" in response.context["form"].errors["rank"][0]
    with pytest.raises(IntegrityError), transaction.atomic():
        Division.objects.create(season=season, name="Division Two", slug="two", rank=2)


def test_the_top_division_sends_no_team_up(client, signed_in, league, division):
    """As the form's help says ("none for the top division"): teams going up from the top
    division are refused, naming it; left blank, none go up; the one below keeps its own."""
    season = division.season
    edit = reverse("leagues:manage_division_edit", args=[league.slug, division.pk])
    response = client.post(edit, {"name": "Premier", "rank": "1", "promoted": "2"})
    assert response.context["form"].errors["promoted"] == [
        f"Premier is the top division of {season.name}: no team goes up from it. Leave "
        "“Teams going up” at 0."
    ]
    assert client.post(edit, {"name": "Premier", "rank": "1"}).status_code == 302
    assert Division.objects.get(pk=division.pk).promoted == 0
    add = reverse("leagues:manage_division_create", args=[league.slug, season.pk])
    assert client.post(add, {"name": "First", "rank": "2", "promoted": "3"}).status_code == 302
    assert season.divisions.get(name="First").promoted == 3


def test_a_division_of_another_league_is_not_found(client, signed_in, league):
    elsewhere = DivisionFactory()
    url = reverse("leagues:manage_division_edit", args=[league.slug, elsewhere.pk])
    assert client.get(url).status_code == 404


def test_venue_list_and_edit(client, signed_in, league, team):
    """The secretary sees the league's venues (not another league's) and edits one."""
    venue = team.home_venue
    other_league_team = Team.objects.create(
        league=LeagueFactory(), name="Elsewhere", slug="elsewhere", home_venue=VenueFactory()
    )
    foreign = other_league_team.home_venue
    page = client.get(reverse("leagues:manage_venues", args=[league.slug])).content.decode()
    assert venue.name in page
    assert foreign.name not in page
    assert (
        client.get(reverse("leagues:manage_venue_edit", args=[league.slug, foreign.pk])).status_code
        == 404
    )

    url = reverse("leagues:manage_venue_edit", args=[league.slug, venue.pk])
    response = client.post(url, {"name": "", "town": "Nowhere Bridge", "address": ""})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert Venue.objects.get(pk=venue.pk).town != "Nowhere Bridge"

    response = client.post(
        url, {"name": "The Black Bull", "town": "Liversedge", "address": "1 Market St"}
    )
    assert response.status_code == 302
    venue.refresh_from_db()
    assert (venue.name, venue.town, venue.address) == (
        "The Black Bull",
        "Liversedge",
        "1 Market St",
    )


def test_secretary_edits_a_team_but_not_onto_another_teams_name(client, signed_in, league, team):
    url = reverse("leagues:manage_team_edit", args=[league.slug, team.pk])
    new_home = VenueFactory(name="The Greyhound", league=league)
    response = client.post(url, {"name": "Old Hall", "short_name": "", "home_venue": new_home.pk})
    assert response.status_code == 200
    assert "The league already has a team of that name" in response.content.decode()
    assert Team.objects.get(pk=team.pk).home_venue_id != new_home.pk

    response = client.post(
        url, {"name": "Black Bull Heck", "short_name": "Bull", "home_venue": new_home.pk}
    )
    assert response.status_code == 302
    team.refresh_from_db()
    assert (team.name, team.short_name, team.home_venue_id) == (
        "Black Bull Heck",
        "Bull",
        new_home.pk,
    )


def entry_post(team, division, **extra) -> dict:
    return {
        "season": division.season_id,
        "division": division.pk,
        "captain": "",
        "captain_contact": "",
        **extra,
    }


def test_a_team_moves_division_before_it_has_played(client, signed_in, league, division, second):
    team = Team.objects.get(name="Crown")
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    url = reverse("leagues:manage_team", args=[league.slug, team.pk])
    response = client.post(url, entry_post(team, second))
    assert response.status_code == 302
    assert TeamEntry.objects.get(team=team).division == second
    assert not Fixture.objects.filter(division=division, home=team).exists()
    assert not Fixture.objects.filter(division=division, away=team).exists()


def test_a_team_that_has_played_stays_in_its_division(client, signed_in, league, division, second):
    team = Team.objects.get(name="Crown")
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    played = Fixture.objects.filter(division=division, home=team).first() or (
        Fixture.objects.filter(division=division, away=team).first()
    )
    Fixture.objects.filter(pk=played.pk).update(status=Fixture.Status.PLAYED)
    count = Fixture.objects.filter(division=division).count()
    captain = squad(team, division.season)[0]
    response = client.post(
        reverse("leagues:manage_team", args=[league.slug, team.pk]),
        entry_post(team, second, captain=captain.pk, captain_contact=CONTACT),
    )
    assert response.status_code == 200
    assert "has played in Premier this season" in response.content.decode()
    entry = TeamEntry.objects.get(team=team)
    assert entry.division == division
    assert entry.captain is None and entry.captain_contact == ""
    assert Fixture.objects.filter(division=division).count() == count


def test_captain_contact_is_for_the_secretary_only(client, signed_in, league, division, team):
    """Saved and shown on the secretary's team page; never on the public team, player or
    fixture pages, even to the secretary."""
    captain = squad(team, division.season)[0]
    url = reverse("leagues:manage_team", args=[league.slug, team.pk])
    response = client.post(
        url, entry_post(team, division, captain=captain.pk, captain_contact=CONTACT)
    )
    assert response.status_code == 302
    entry = TeamEntry.objects.get(team=team)
    assert (entry.captain, entry.captain_contact) == (captain, CONTACT)
    assert CONTACT in client.get(url).content.decode()

    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    fixture = Fixture.objects.filter(home=team).first()
    public = [
        team.get_absolute_url(),
        captain.get_absolute_url(),
        fixture.get_absolute_url(),
        division.get_absolute_url(),
        reverse("leagues:division_players", args=[division.pk]),
        league.get_absolute_url(),
    ]
    for viewer in (signed_in, None):
        if viewer is None:
            client.logout()
        for page in public:
            response = client.get(page)
            assert response.status_code == 200, page
            assert "07700" not in response.content.decode(), page
            assert "captain.bull" not in response.content.decode(), page


def test_secretary_adds_a_single_fixture(client, signed_in, league, division):
    home, away = Team.objects.get(name="Black Bull"), Team.objects.get(name="Anchor")
    url = reverse("leagues:manage_fixture_add", args=[division.pk])

    response = client.post(url, {"home": home.pk, "away": home.pk, "date": "2025-10-07"})
    assert response.status_code == 200
    assert "A team cannot play itself." in response.content.decode()
    response = client.post(url, {"home": home.pk, "away": away.pk, "date": ""})
    assert "This field is required." in response.content.decode()
    assert not Fixture.objects.filter(division=division).exists()

    response = client.post(
        url, {"home": home.pk, "away": away.pk, "date": "2025-10-07", "time": "", "venue": ""}
    )
    fixture = Fixture.objects.get(division=division)
    assert response.status_code == 302
    assert response["Location"] == fixture.get_absolute_url()
    assert (fixture.home, fixture.away, fixture.venue) == (home, away, home.home_venue)
    assert fixture.date == datetime.date(2025, 10, 7)
    assert fixture.time == league.start_time

    # The same night again: the service's clash is shown on the form and nothing is added.
    crown = Team.objects.get(name="Crown")
    response = client.post(url, {"home": crown.pk, "away": home.pk, "date": "2025-10-07"})
    assert response.status_code == 200
    assert "already on that night" in response.content.decode()
    assert Fixture.objects.filter(division=division).count() == 1


def test_a_withdrawn_teams_refusal_shows_with_its_team_not_the_date(client, signed_in, division):
    """Adding a league fixture for a team that withdrew: the refusal showed under the Date
    field, as if another date would do. It shows with the team it is about (the Home field
    here, the Away field for the away team), the date left unmarked."""
    from html import unescape

    from leagues.services.withdrawal import team_withdraw

    bull, anchor = Team.objects.get(name="Black Bull"), Team.objects.get(name="Anchor")
    team_withdraw(entry=bull.entries.get(), reason="The pub has closed", by=signed_in)
    url = reverse("leagues:manage_fixture_add", args=[division.pk])
    night = division.season.starts_on + datetime.timedelta(weeks=2)
    for home, away, field in ((bull, anchor, "home"), (anchor, bull, "away")):
        page = unescape(
            client.post(url, {"home": home.pk, "away": away.pk, "date": night}).content.decode()
        )
        # Each field's block, by its input's name: those marked wrong.
        blocks = page.split('<div class="field')[1:]
        errors = {
            re.search(r'name="(\w+)"', block)[1]: block
            for block in blocks
            if block.startswith(" has-error")
        }
        assert list(errors) == [field], errors
        assert "Black Bull withdrew from the season on" in errors[field]
    assert not Fixture.objects.filter(division=division).exists()


def test_a_team_not_in_the_division_cannot_be_chosen(client, signed_in, league, division, second):
    outsider = Team.objects.create(
        league=league, name="Swan", slug="swan", home_venue=VenueFactory()
    )
    TeamEntry.objects.create(team=outsider, division=second, season=second.season)
    home = Team.objects.get(name="Black Bull")
    response = client.post(
        reverse("leagues:manage_fixture_add", args=[division.pk]),
        {"home": home.pk, "away": outsider.pk, "date": "2025-10-07"},
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Fixture.objects.exists()
    assert Season.objects.count() == 1


def test_the_secretary_sets_the_leagues_time_zone(client, signed_in, league, division):
    """A new league is in the site's zone; the settings page moves it to Port of Spain (the
    audit trail says so) and its pages then name the times as Port of Spain time; a zone that
    is not one is refused by name and changes nothing."""
    from leagues.models import AuditEntry

    assert league.time_zone == "Europe/London"
    url = reverse("leagues:manage_league_edit", args=[league.slug])
    response = client.post(url, league_data(league, time_zone="Europe/Atlantis"))
    assert response.status_code == 200
    assert "Europe/Atlantis is not one of the available choices" in response.content.decode()
    league.refresh_from_db()
    assert league.time_zone == "Europe/London"

    response = client.post(url, league_data(league, time_zone="America/Port_of_Spain"))
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.time_zone == "America/Port_of_Spain"
    entry = AuditEntry.objects.filter(league=league, action="league_updated").latest("pk")
    assert (entry.before["time_zone"], entry.after["time_zone"]) == (
        "Europe/London",
        "America/Port_of_Spain",
    )
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Port of Spain time" in page
    adding = client.get(reverse("leagues:manage_fixture_add", args=[division.pk]))
    assert "Port of Spain time" in adding.content.decode()


def test_a_night_off_added_after_the_list_says_which_fixtures_are_on_it(
    client, signed_in, league, division
):
    """A night off added once the fixtures are listed left them booked on it, with only "Season
    saved.": the save says so, and the desk lists them to re-arrange, until they are."""
    season = division.season
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=1)
    on_it = list(Fixture.objects.filter(division=division, date=datetime.date(2025, 9, 9)))
    assert len(on_it) == 2
    url = reverse("leagues:manage_season_edit", args=[league.slug, season.pk])
    response = client.post(
        url,
        {
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat() if season.ends_on else "",
            "exclusions": "2025-09-09 Heckmondwike Feast",
            "venue_capacity": str(season.venue_capacity),
        },
        follow=True,
    )
    words = page_words(re.sub(r"<[^>]*>", " ", response.content.decode()))
    assert (
        f"Season {season.name} saved. 2 fixtures are still on a night with no league now "
        "(Tue 9 Sep 2025): re-arrange them, from the list on the desk." in words
    )
    desk = client.get(reverse("leagues:manage_league", args=[league.slug])).content.decode()
    for fixture in on_it:
        assert f'data-testid="night-off-{fixture.pk}"' in desk
    Fixture.objects.filter(pk=on_it[0].pk).update(date=datetime.date(2025, 9, 30))
    desk = client.get(reverse("leagues:manage_league", args=[league.slug])).content.decode()
    assert f'data-testid="night-off-{on_it[0].pk}"' not in desk
    assert f'data-testid="night-off-{on_it[1].pk}"' in desk
