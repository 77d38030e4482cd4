"""People, not names: two players of one name in a league are told apart on every page (public
and the secretary's), export, the API, picker, audit entry, game and cup tie ("Linda Dyson (Black
Bull)"), and a name nobody else has stays plain."""

from __future__ import annotations

import datetime
from importlib import import_module

import pytest
from django.urls import reverse

from cups.forms import PlayersEntrantForm
from cups.models import Competition
from cups.services.competitions import competition_create, entrant_add_players
from cups.services.draws import draw_make
from leagues.formats import TRINIDAD_FORMAT
from leagues.models import Player, Registration, TeamEntry
from leagues.selectors import people
from leagues.selectors.fixtures import team_squad
from leagues.selectors.people import name_people
from leagues.services.invitations import captain_invite, invitation_accept, invitation_token
from leagues.services.registrations import player_register
from leagues.services.seating import table_seat
from leagues.services.structure import entry_set_captain
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import (
    confirm,
    current_game,
    entered_teams,
    page_words,
    squad,
    start_fixture,
    win_game,
)
from tests.scoring.test_scoring_queries import GAME_PAGE_QUERIES

pytestmark = pytest.mark.django_db

BULL = "Linda Dyson (Black Bull)"
LION = "Linda Dyson (Red Lion)"


@pytest.fixture
def league_night():
    """Black Bull v Red Lion at one table, played and confirmed: each team's first player is a
    Linda Dyson, and they sit at the table against each other."""
    league = LeagueFactory(
        trinidad=True, match_format=TRINIDAD_FORMAT.with_options(tables=1).to_spec()
    )
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Red Lion"], players=2)
    season = division.season
    lindas = [squad(home, season)[0], squad(away, season)[0]]
    for linda in lindas:
        linda.name = "Linda Dyson"
        linda.save()
    fixture = FixtureFactory(division=division, home=home, away=away)
    (first,) = start_fixture(fixture)
    win_game(first.game, "A", 3)
    win_game(current_game(first.table), "B", 5)
    confirm(fixture)
    return {
        "league": league,
        "division": division,
        "fixture": fixture,
        "home": home,
        "away": away,
        "lindas": lindas,
        "plain": squad(home, season)[1],
    }


def test_name_people_tells_namesakes_apart_in_one_query(django_assert_num_queries, league_night):
    bull, lion = (Player.objects.get(pk=p.pk) for p in league_night["lindas"])
    plain = Player.objects.get(pk=league_night["plain"].pk)
    again = Player.objects.get(pk=bull.pk)
    with django_assert_num_queries(1):
        name_people([bull, lion, plain, again, None])
    assert (bull.label, lion.label, again.label, str(bull)) == (BULL, LION, BULL, BULL)
    assert plain.label == plain.name == str(plain) == "Black Bull player 2"
    with django_assert_num_queries(0):
        name_people([])


def test_a_namesake_in_another_league_leaves_the_name_plain(league_night):
    other = TeamFactory(name="Elsewhere")
    player_register(
        player=PlayerFactory(name="Linda Dyson"),
        team=other,
        season=SeasonFactory(league=other.league),
    )
    lone = Player.objects.get(pk=league_night["plain"].pk)
    name_people([lone])
    assert lone.label == "Black Bull player 2"
    bull = Player.objects.get(pk=league_night["lindas"][0].pk)
    name_people([bull])
    assert bull.label == BULL  # told from Red Lion's, not from the other league's


def test_every_public_page_tells_the_two_lindas_apart(client, league_night):
    division, fixture = league_night["division"], league_night["fixture"]
    bull, lion = league_night["lindas"]
    plain = league_night["plain"]
    pages = {
        "division players": reverse("leagues:division_players", args=[division.pk]),
        "team": reverse("leagues:team", args=[league_night["home"].pk]),
        "fixture": reverse("leagues:fixture", args=[fixture.pk]),
        "partner's page": reverse("leagues:player", args=[plain.pk]),
    }
    for page, url in pages.items():
        words = page_words(client.get(url))
        assert BULL in words, page
        assert "Black Bull player 2" in words and "Black Bull player 2 (" not in words, page
        if page in ("division players", "fixture"):
            assert LION in words, page
        assert ">Linda Dyson<" not in words, page
    own = page_words(client.get(reverse("leagues:player", args=[lion.pk])))
    assert f"<h1>{LION}</h1>" in own and f"<title>{LION}" in own
    pairs = page_words(client.get(reverse("leagues:player", args=[bull.pk])))
    assert f"{BULL} &amp; Black Bull player 2" in pairs or f"Black Bull player 2 &amp; {BULL}" in (
        pairs
    )


def test_the_csv_and_the_api_tell_the_two_lindas_apart(client, league_night):
    division = league_night["division"]
    csv = client.get(reverse("leagues:division_players_csv", args=[division.pk]))
    lines = csv.content.decode().splitlines()
    assert any(line.startswith(f"{BULL},") for line in lines)
    assert any(line.startswith(f"{LION},") for line in lines)
    assert any(line.startswith("Red Lion player 2,") for line in lines)
    rows = client.get(f"/api/divisions/{division.pk}/players").json()["items"]
    labels = {row["player"]["id"]: (row["player"]["name"], row["player"]["label"]) for row in rows}
    bull, lion = league_night["lindas"]
    assert labels[bull.pk] == ("Linda Dyson", BULL)
    assert labels[lion.pk] == ("Linda Dyson", LION)
    plain = league_night["plain"]
    assert labels[plain.pk] == ("Black Bull player 2", "Black Bull player 2")
    team = client.get(f"/api/teams/{league_night['away'].pk}/players").json()["items"]
    assert {row["player"]["label"] for row in team} >= {LION}


def test_the_night_the_qr_code_and_the_score_card_tell_them_apart(client, league_night):
    secretary = UserFactory()
    league_night["league"].secretaries.add(secretary)
    client.force_login(secretary)
    fixture = league_night["fixture"]
    next_week = FixtureFactory(
        division=league_night["division"],
        home=league_night["home"],
        away=league_night["away"],
        date=fixture.date + datetime.timedelta(days=7),
    )
    for url in (
        reverse("leagues:fixture_night", args=[fixture.pk]),  # the pairs seated
        reverse("leagues:table_qr", args=[fixture.pk, 1]),
        reverse("leagues:fixture_night", args=[next_week.pk]),  # the squads to seat
        reverse("leagues:score_card", args=[next_week.pk]),
    ):
        words = page_words(client.get(url))
        assert BULL in words and LION in words, url


def test_two_of_one_name_at_one_team_are_numbered(client):
    """Mother and daughter, both Linda Dyson, played for Black Bull a season apart: the team
    alone does not tell them apart, so each has a number, in the order they joined."""
    league = LeagueFactory()
    earlier = SeasonFactory(league=league, starts_on=datetime.date(2024, 9, 1))
    later = DivisionFactory(season__league=league, season__starts_on=datetime.date(2025, 9, 1))
    (bull,) = entered_teams(later, ["Black Bull"], players=1)
    mother, daughter = PlayerFactory(name="Linda Dyson"), PlayerFactory(name="Linda Dyson")
    player_register(player=mother, team=bull, season=earlier)
    player_register(player=daughter, team=bull, season=later.season)
    lone = squad(bull, later.season)[0]
    name_people([mother, daughter, lone])
    assert mother.label == "Linda Dyson (Black Bull, 1)"
    assert daughter.label == "Linda Dyson (Black Bull, 2)"
    assert lone.label == lone.name
    words = page_words(client.get(reverse("leagues:team", args=[bull.pk])))
    assert "Linda Dyson (Black Bull, 2)" in words


# --- helpers -----------------------------------------------------------------------------


def _secretary(client, league):
    secretary = UserFactory()
    league.secretaries.add(secretary)
    client.force_login(secretary)
    return secretary


def _next_week(league_night):
    fixture = league_night["fixture"]
    return FixtureFactory(
        division=league_night["division"],
        home=league_night["home"],
        away=league_night["away"],
        date=fixture.date + datetime.timedelta(days=7),
    )


# --- pickers -----------------------------------------------------------------------------


def test_pickers_number_two_of_one_name_at_one_team(client):
    """A picker names everyone with their team: mother and daughter at one team are numbered
    there too, as on every page, where they read alike before."""
    league = LeagueFactory()
    earlier = SeasonFactory(league=league, starts_on=datetime.date(2024, 9, 1))
    later = DivisionFactory(season__league=league, season__starts_on=datetime.date(2025, 9, 1))
    (bull,) = entered_teams(later, ["Black Bull"], players=1)
    player_register(player=PlayerFactory(name="Linda Dyson"), team=bull, season=earlier)
    player_register(player=PlayerFactory(name="Linda Dyson"), team=bull, season=later.season)
    _secretary(client, league)
    words = page_words(client.get(reverse("leagues:manage_register", args=[league.slug])))
    assert ">Linda Dyson (Black Bull, 1)</option>" in words
    assert ">Linda Dyson (Black Bull, 2)</option>" in words
    assert ">Black Bull player 1 (Black Bull)</option>" in words


# --- names as stored ---------------------------------------------------------------------


def test_a_name_is_stored_one_spaced_and_its_namesakes_found_whatever_the_case(client):
    """ "Linda  Dyson" and "linda dyson " are one name: stored one-spaced, each is told apart
    from the other even when shown alone, and the register form asks about the other."""
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    bull, lion = entered_teams(division, ["Black Bull", "Red Lion"], players=1)
    season = division.season
    first = player_register(name="Linda  Dyson", team=bull, season=season).player
    second = player_register(name="linda dyson ", team=lion, season=season).player
    assert (first.name, second.name) == ("Linda Dyson", "linda dyson")
    alone = [Player.objects.get(pk=first.pk), Player.objects.get(pk=second.pk)]
    for player in alone:
        name_people([player])
    assert [p.label for p in alone] == [BULL, "linda dyson (Red Lion)"]
    _secretary(client, league)
    response = client.post(
        reverse("leagues:manage_register", args=[league.slug]),
        {"name": " LINDA   dyson", "team": bull.pk, "season": season.pk},
    )
    assert f"The league has {BULL} and linda dyson (Red Lion)" in page_words(response)
    assert Player.objects.filter(name__iexact="linda dyson").count() == 2


def test_names_stored_before_are_made_one_spaced():
    """The data migration, and the admin's form: every way in stores a name one-spaced."""
    from django.apps import apps

    from leagues.admin import PlayerForm

    untidy = Player.objects.create(name=" Linda \t Dyson  ")
    tidy = Player.objects.create(name="Jo Smith")
    import_module("leagues.migrations.0024_player_names_one_spaced").one_spaced(apps, None)
    untidy.refresh_from_db()
    tidy.refresh_from_db()
    assert (untidy.name, tidy.name) == ("Linda Dyson", "Jo Smith")
    form = PlayerForm(data={"name": "  Linda   Dyson "})
    assert form.is_valid() and form.cleaned_data["name"] == "Linda Dyson"


# --- cups --------------------------------------------------------------------------------


def test_a_cup_tie_between_the_two_lindas_tells_them_apart(client, league_night):
    """Single players: each entrant is named as every page names the player, and so is the
    tie, its games' sides and its audit trail."""
    league = league_night["league"]
    secretary = _secretary(client, league)
    cup = competition_create(
        league=league,
        season=league_night["division"].season,
        name="Singles",
        entrant_kind=Competition.EntrantKind.PLAYERS,
        best_of=1,
        by=secretary,
    )
    bull, lion = league_night["lindas"]
    for linda in (bull, lion):
        entrant_add_players(competition=cup, players=[linda], by=secretary)
    assert sorted(cup.entrants.values_list("name", flat=True)) == [BULL, LION]
    draw_make(competition=cup, seed=1, by=secretary)
    tie = cup.ties.get()
    words = page_words(client.get(tie.get_absolute_url()))
    assert f'{BULL}</span> <span class="muted">v</span>' in words or (
        f'{LION}</span> <span class="muted">v</span>' in words
    )
    assert BULL in words and LION in words
    sides = {side.name: side.display_name for side in tie.games.get().game.sides.all()}
    assert sides == {BULL: BULL, LION: LION}  # not "Linda Dyson (Black Bull) (Linda Dyson)"
    audit = page_words(client.get(reverse("cups:tie_audit", args=[tie.pk])))
    assert BULL in audit and LION in audit
    league_audit = reverse("leagues:manage_league_audit", args=[league.slug])
    assert f"{BULL} entered Singles" in page_words(client.get(league_audit))


# --- a game's players --------------------------------------------------------------------


@pytest.fixture
def family():
    """Mother and daughter, both Linda Dyson, sit for Black Bull as a pair against Red Lion."""
    league = LeagueFactory(
        trinidad=True, match_format=TRINIDAD_FORMAT.with_options(tables=1).to_spec()
    )
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Red Lion"], players=2)
    for linda in squad(home, division.season):
        linda.name = "Linda Dyson"
        linda.save()
    fixture = FixtureFactory(division=division, home=home, away=away)
    return {"league": league, "division": division, "fixture": fixture}


MOTHER, DAUGHTER = "Linda Dyson (Black Bull, 1)", "Linda Dyson (Black Bull, 2)"


def test_a_games_pages_tell_two_of_one_name_in_one_pair_apart(
    client, family, django_assert_max_num_queries
):
    """The game's sides keep the players' names as the league tells them apart, so its page
    (the winner), its audit trail and its next game need no query of the league's."""
    (table,) = start_fixture(family["fixture"])
    game = win_game(table.game, "A", 3)
    pair = f"{MOTHER} &amp; {DAUGHTER}"
    with django_assert_max_num_queries(GAME_PAGE_QUERIES):
        words = page_words(client.get(game.get_absolute_url()))
    assert f"Black Bull ({pair}) won" in words
    audit = page_words(client.get(reverse("scoring:game_audit", args=[game.pk])))
    assert f"{MOTHER}, {DAUGHTER}" in audit
    (side, _) = current_game(table.table).sides.all()
    assert side.players == [MOTHER, DAUGHTER]  # the table's next game


def test_a_pair_seated_on_the_night_is_told_apart_in_its_game(family):
    """Seated by a captain on the night: the game opens with the pair told apart, and a pair
    changed before the first hand too."""
    fixture, season = family["fixture"], family["division"].season
    secretary = UserFactory()
    family["league"].secretaries.add(secretary)
    mother, daughter = squad(fixture.home, season)
    away = squad(fixture.away, season)
    table = table_seat(fixture=fixture, board=1, home=[mother, daughter], away=away, by=secretary)
    assert [s.players for s in current_game(table).sides.all()] == [
        [MOTHER, DAUGHTER],
        [p.name for p in away],
    ]
    table_seat(fixture=fixture, board=1, home=[daughter, mother], by=secretary)
    (side, _) = current_game(table).sides.all()
    assert side.players == [DAUGHTER, MOTHER]


def test_a_pairs_cup_entrant_of_mother_and_daughter_is_numbered(family):
    league, season = family["league"], family["division"].season
    secretary = UserFactory()
    league.secretaries.add(secretary)
    cup = competition_create(
        league=league,
        season=season,
        name="Pairs",
        entrant_kind=Competition.EntrantKind.PAIRS,
        best_of=1,
        by=secretary,
    )
    pair = squad(family["fixture"].home, season)
    entrant = entrant_add_players(competition=cup, players=pair, by=secretary)
    assert entrant.name == f"{MOTHER} & {DAUGHTER}"
    form = PlayersEntrantForm(competition=cup)
    labels = [label for _, label in form.fields["player_1"].choices]
    assert MOTHER in labels and DAUGHTER in labels


# --- the secretary's and captains' pages -------------------------------------------------


def test_the_secretarys_pages_tell_the_two_lindas_apart(client, league_night):
    league, home = league_night["league"], league_night["home"]
    secretary = _secretary(client, league)
    bull, lion = league_night["lindas"]
    entry = TeamEntry.objects.get(team=home, season=league_night["division"].season)
    entry_set_captain(entry=entry, captain=bull, by=secretary)
    captain_invite(entry=entry, email="linda@example.org", by=secretary, send=False)
    fixture, next_week = league_night["fixture"], _next_week(league_night)
    both = {
        "fixture card": reverse("leagues:manage_fixture_card", args=[fixture.pk]),
        "tables, started": reverse("leagues:manage_fixture_tables", args=[fixture.pk]),
        "tables to seat": reverse("leagues:manage_fixture_tables", args=[next_week.pk]),
    }
    for page, url in both.items():
        words = page_words(client.get(url))
        assert BULL in words and LION in words, page
        assert ">Linda Dyson<" not in words and "Linda Dyson &amp;" not in words, page
    picker = page_words(client.get(both["tables to seat"]))
    assert f">{BULL}</option>" in picker and f">{LION}</option>" in picker
    team = page_words(client.get(reverse("leagues:manage_team", args=[league.slug, home.pk])))
    assert f'>{BULL}</a> <span class="muted">(captain)</span>' in team
    assert f"{BULL} has no account yet" in team
    account = reverse("leagues:manage_captain_account", args=[league.slug, home.pk])
    words = page_words(client.get(account))
    assert f"<strong>{BULL}</strong>" in words and f"Invite {BULL} at another address" in words
    assert f"captain of Black Bull: {BULL}" in words  # the invitation sent
    secretaries = reverse("leagues:manage_secretaries", args=[league.slug])
    assert f"captain of Black Bull: {BULL}" in page_words(client.get(secretaries))


# --- audit entries -----------------------------------------------------------------------


def test_audit_entries_say_which_linda_dyson(client, league_night):
    """An audit entry's text is written when the change is made, naming a namesake as every
    page does at that moment."""
    league, home, away = league_night["league"], league_night["home"], league_night["away"]
    season = league_night["division"].season
    secretary = _secretary(client, league)
    bull, lion = league_night["lindas"]
    entry = TeamEntry.objects.get(team=home, season=season)
    entry_set_captain(entry=entry, captain=bull, by=secretary)
    invitation = captain_invite(entry=entry, email="linda@example.org", by=secretary, send=False)
    invitation_accept(token=invitation_token(invitation), user=UserFactory(username="lindad"))
    next_week = _next_week(league_night)
    home_pair = squad(home, season)
    away_pair = squad(away, season)
    table_seat(fixture=next_week, board=1, home=home_pair, away=away_pair, by=secretary)
    third = player_register(name="  linda   dyson ", team=away, season=season, by=secretary)
    words = page_words(client.get(reverse("leagues:manage_league_audit", args=[league.slug])))
    assert f"Black Bull&#x27;s captain for {season.name}: {BULL}" in words
    assert f"{BULL}, captain of Black Bull, logs in as lindad" in words
    assert f"Table 1: {BULL} &amp; Black Bull player 2 v {LION} &amp; Red Lion player 2" in words
    assert f"linda dyson (Red Lion, 2) registered for Red Lion ({season.name})" in words
    assert third.player.name == "linda dyson"  # stored one-spaced
    fixture_audit = reverse("leagues:manage_fixture_audit", args=[next_week.pk])
    assert f"Table 1: {BULL} &amp;" in page_words(client.get(fixture_audit))


def test_namesakes_read_by_a_query_built_once_are_its_queryset(league_night):
    """``name_people`` reads the namesakes by a query built once per connection and number of
    names: the same rows as its queryset gives, for one name, two and three, whatever their
    case; a name nobody has finds nothing."""
    names = ["linda dyson", "black bull player 2", "red lion player 2"]
    for count in (1, 2, 3):
        keys = set(names[:count])
        expected = list(people._namesakes_shape(*sorted(keys)))
        assert expected and people._namesakes(keys) == expected
    assert people._namesakes({"nobody of this name"}) == []


def test_a_squad_read_by_a_query_built_once_is_its_queryset(league_night):
    """A team's squad of a season is read by a query built once per connection: its players by
    name, each with its player, only that team's and that season's."""
    home, season = league_night["home"], league_night["division"].season
    player_register(
        player=PlayerFactory(name="Aaron Later"),
        team=home,
        season=SeasonFactory(league=league_night["league"], starts_on=datetime.date(2030, 9, 1)),
    )
    expected = Registration.objects.filter(team=home, season=season).order_by("player__name")
    read = team_squad(team=home, season=season)
    assert [(r.pk, r.player.name) for r in read] == [(r.pk, r.player.name) for r in expected]
    assert [r.player.name for r in read] == ["Black Bull player 2", "Linda Dyson"]
