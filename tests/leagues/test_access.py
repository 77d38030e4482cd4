"""Who may change what: every role against every write action, through the real pages.

Actions: scoring a hand; submitting, confirming, disputing and settling a result; the table's
and the game page's scoring link; fixtures (walkover, postpone, re-arrange, add, generate); points;
registrations; the league's settings, seasons, divisions, venues, teams and captains; secretaries
and captains' accounts.

Roles: an anonymous visitor, a logged-in stranger, a phone holding the table's live scoring link,
one holding a revoked link, the home and away captains, a captain of another team, a secretary
of another league, the league's secretary and the site operator. Each case starts from a fresh
league: a refused action must leave the database as it was, an allowed one must change it.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import (
    Fixture,
    FixtureTable,
    League,
    PointAdjustment,
    Registration,
    ResultSubmission,
    TeamEntry,
)
from leagues.services import confirmation
from leagues.services.results import table_link_reissue
from scoring.models import Game, Hand
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import current_game, entered_teams, start_fixture, win_game

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "stranger",
    "live_link",
    "revoked_link",
    "home_captain",
    "away_captain",
    "other_captain",
    "other_secretary",
    "secretary",
    "superuser",
)


@dataclass
class World:
    league: League
    fixture: Fixture
    table: FixtureTable
    users: dict[str, Any]

    def game(self) -> Game:
        return current_game(self.table)


def one_table_league() -> League:
    return LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=1).to_spec())


def build(*, played: bool) -> World:
    """A one-table league: Black Bull v Old Hall started (and with ``played``, won by the home
    pair); Royal Oak is a third team; another league has its own secretary."""
    league = one_table_league()
    division = DivisionFactory(season__league=league)
    home, away, other = entered_teams(division, ["Black Bull", "Old Hall", "Royal Oak"], players=2)
    users = {"secretary": UserFactory(), "other_secretary": UserFactory()}
    league.secretaries.add(users["secretary"])
    one_table_league().secretaries.add(users["other_secretary"])
    for role, team in (("home_captain", home), ("away_captain", away), ("other_captain", other)):
        users[role] = UserFactory()
        captain = PlayerFactory(name=f"{team} captain", user=users[role])
        TeamEntry.objects.filter(team=team).update(captain=captain)
    users["stranger"] = UserFactory()
    users["superuser"] = UserFactory(is_superuser=True)
    fixture = FixtureFactory(division=division, home=home, away=away)
    table_game = start_fixture(fixture)[0]
    if played:
        win_game(table_game.game, "A", 3)
    fixture.refresh_from_db()
    return World(league, fixture, FixtureTable.objects.get(fixture=fixture), users)


def client_for(world: World, role: str) -> Client:
    client = Client(REMOTE_ADDR="192.0.2.10")
    if role in world.users:
        client.force_login(world.users[role])
    if role in ("live_link", "revoked_link"):
        assert client.get(world.table.scoring_link.get_absolute_url()).status_code in (200, 302)
    if role == "revoked_link":
        world.table = table_link_reissue(table=world.table, by=world.users["secretary"])
    return client


def refused(response) -> bool:
    """403, or (for a secretary's page) the log-in page for an anonymous visitor."""
    if response.status_code == 403:
        return True
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- the write actions: each returns (response, whether it took effect) ---------------------


def record_hand(world: World, client: Client):
    game = world.game()
    count = Hand.objects.filter(game=game).count()
    response = client.post(
        reverse("scoring:hand_record", kwargs={"pk": game.pk}),
        {
            "entry_key": str(uuid.uuid4()),
            "expected_number": str(count + 1),
            "dealer": game.next_dealer,
            "outcome": "played",
            "high": "A",
            "low": "B",
            "jack": "none",
            "game": "B",
        },
    )
    return response, Hand.objects.filter(game=game).count() == count + 1


def submit(world: World, client: Client):
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"action": "submit"})
    return response, ResultSubmission.objects.filter(fixture=world.fixture).exists()


def _submitted(world: World) -> ResultSubmission:
    return confirmation.result_submit(fixture=world.fixture, by=world.users["home_captain"])


def confirm(world: World, client: Client):
    submission = _submitted(world)
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"action": "confirm"})
    submission.refresh_from_db()
    return response, submission.status == ResultSubmission.Status.CONFIRMED


def dispute(world: World, client: Client):
    submission = _submitted(world)
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"action": "dispute", "reason": "Table 1 was 11-7, not 11-3"})
    submission.refresh_from_db()
    return response, submission.status == ResultSubmission.Status.DISPUTED


def settle(world: World, client: Client):
    submission = confirmation.result_dispute(
        submission=_submitted(world), reason="wrong score", by=world.users["away_captain"]
    )
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"action": "uphold", "reason": "Score sheets agree"})
    submission.refresh_from_db()
    return response, submission.status == ResultSubmission.Status.SETTLED


def reissue_link(world: World, client: Client):
    before = world.table.scoring_link_id
    url = reverse("leagues:manage_fixture_card", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"table": world.table.pk, "action": "reissue"})
    return response, FixtureTable.objects.get(pk=world.table.pk).scoring_link_id != before


def walkover(world: World, client: Client):
    other = FixtureFactory(
        division=world.fixture.division, home=world.fixture.away, away=world.fixture.home
    )
    url = reverse("leagues:manage_fixture", kwargs={"pk": other.pk})
    data = {"action": "walkover", "walkover-to": "home", "walkover-reason": "No team"}
    response = client.post(url, data)
    other.refresh_from_db()
    return response, other.status == Fixture.Status.WALKOVER


def adjust(world: World, client: Client):
    entry = TeamEntry.objects.get(team=world.fixture.home)
    url = reverse("leagues:manage_adjustments", kwargs={"pk": world.fixture.division_id})
    response = client.post(
        url, {"entry": entry.pk, "points": "-2", "reason": "Unregistered player", "fixture": ""}
    )
    return response, PointAdjustment.objects.filter(entry=entry).exists()


def register(world: World, client: Client):
    url = reverse("leagues:manage_register", kwargs={"slug": world.league.slug})
    response = client.post(
        url,
        {
            "name": "New Signing",
            "team": world.fixture.home_id,
            "season": world.fixture.division.season_id,
        },
    )
    return response, Registration.objects.filter(player__name="New Signing").exists()


# --- accounts ----------------------------------------------------------------------------------

STRONG = "heckmondwike-pitch-11"


def _secretaries_url(world: World) -> str:
    return reverse("leagues:manage_secretaries", kwargs={"slug": world.league.slug})


def _usernames(world: World) -> set[str]:
    return set(world.league.secretaries.values_list("username", flat=True))


def add_secretary(world: World, client: Client):
    newcomer = UserFactory(username="newcomer")
    response = client.post(_secretaries_url(world), {"action": "add", "add-username": "newcomer"})
    return response, newcomer.username in _usernames(world)


def create_secretary(world: World, client: Client):
    data = {"action": "create", "new-username": "fresh", "new-password": STRONG}
    response = client.post(_secretaries_url(world), data)
    return response, "fresh" in _usernames(world)


def remove_secretary(world: World, client: Client):
    second = UserFactory(username="second")
    world.league.secretaries.add(second)
    response = client.post(_secretaries_url(world), {"action": "remove", "user": second.pk})
    return response, "second" not in _usernames(world)


def _captain_url(world: World) -> str:
    return reverse(
        "leagues:manage_captain_account", args=[world.league.slug, world.fixture.home_id]
    )


def _home_captain() -> Any:
    return TeamEntry.objects.select_related("captain__user").get(team__name="Black Bull").captain


def link_captain(world: World, client: Client):
    UserFactory(username="bull-captain")
    response = client.post(_captain_url(world), {"action": "link", "link-username": "bull-captain"})
    return response, _home_captain().user.username == "bull-captain"


def create_captain(world: World, client: Client):
    data = {"action": "create", "new-username": "bull-new", "new-password": STRONG}
    response = client.post(_captain_url(world), data)
    return response, _home_captain().user.username == "bull-new"


def unlink_captain(world: World, client: Client):
    response = client.post(_captain_url(world), {"action": "unlink"})
    return response, _home_captain().user is None


# --- the game page's scoring link ---------------------------------------------------------------


def reissue_game_link(world: World, client: Client):
    game = world.game()
    before = game.scoring_link_id
    response = client.post(
        reverse("scoring:game_link", kwargs={"pk": game.pk}), {"action": "reissue"}
    )
    game.refresh_from_db()
    return response, game.scoring_link_id != before


def revoke_game_link(world: World, client: Client):
    game = world.game()
    response = client.post(
        reverse("scoring:game_link", kwargs={"pk": game.pk}), {"action": "revoke"}
    )
    game.refresh_from_db()
    return response, game.scoring_link is not None and game.scoring_link.revoked_at is not None


# --- fixtures ------------------------------------------------------------------------------------


def _spare(world: World) -> Fixture:
    return FixtureFactory(
        division=world.fixture.division,
        home=world.fixture.away,
        away=world.fixture.home,
        date=datetime.date(2025, 10, 7),
    )


def postpone(world: World, client: Client):
    fixture = _spare(world)
    url = reverse("leagues:manage_fixture", kwargs={"pk": fixture.pk})
    response = client.post(url, {"action": "postpone", "postpone-reason": "Pub flooded"})
    fixture.refresh_from_db()
    return response, fixture.status == Fixture.Status.POSTPONED


def rearrange(world: World, client: Client):
    fixture = _spare(world)
    url = reverse("leagues:manage_fixture", kwargs={"pk": fixture.pk})
    data = {
        "action": "rearrange",
        "rearrange-date": "2025-11-04",
        "rearrange-venue": fixture.venue_id,
    }
    response = client.post(url, data)
    fixture.refresh_from_db()
    return response, fixture.date == datetime.date(2025, 11, 4)


def add_fixture(world: World, client: Client):
    url = reverse("leagues:manage_fixture_add", kwargs={"pk": world.fixture.division_id})
    data = {"home": world.fixture.away_id, "away": world.fixture.home_id, "date": "2025-12-02"}
    response = client.post(url, data)
    return response, Fixture.objects.filter(date=datetime.date(2025, 12, 2)).exists()


def generate_fixtures(world: World, client: Client):
    url = reverse("leagues:manage_fixtures_generate", kwargs={"pk": world.fixture.division_id})
    data = {"start": "2026-01-06", "league_night": "1", "legs": "1", "exclusions": ""}
    response = client.post(url, data)
    return response, Fixture.objects.filter(date__gte=datetime.date(2026, 1, 6)).exists()


# --- structure -----------------------------------------------------------------------------------


def league_settings(world: World, client: Client):
    from leagues.forms import LeagueEditForm

    form = LeagueEditForm(league=world.league)
    data = {name: form[name].value() for name in form.fields}
    # Unticked boxes and empty fields are not sent (0 is a value: "0 points for a defeat").
    data = {
        k: ("on" if v is True else v) for k, v in data.items() if v is not None and v is not False
    }
    data["name"] = "Renamed League"
    response = client.post(reverse("leagues:manage_league_edit", args=[world.league.slug]), data)
    return response, League.objects.filter(name="Renamed League").exists()


def season_edit(world: World, client: Client):
    season = world.fixture.division.season
    url = reverse("leagues:manage_season_edit", args=[world.league.slug, season.pk])
    response = client.post(url, {"name": "Renamed", "starts_on": "2025-09-02"})
    season.refresh_from_db()
    return response, season.name == "Renamed"


def division_edit(world: World, client: Client):
    division = world.fixture.division
    url = reverse("leagues:manage_division_edit", args=[world.league.slug, division.pk])
    response = client.post(url, {"name": "Premier", "rank": "1"})
    division.refresh_from_db()
    return response, division.name == "Premier"


def venue_edit(world: World, client: Client):
    venue = world.fixture.home.home_venue
    url = reverse("leagues:manage_venue_edit", args=[world.league.slug, venue.pk])
    response = client.post(url, {"name": "The Renamed Arms", "town": "", "address": ""})
    venue.refresh_from_db()
    return response, venue.name == "The Renamed Arms"


def team_edit(world: World, client: Client):
    team = world.fixture.home
    url = reverse("leagues:manage_team_edit", args=[world.league.slug, team.pk])
    response = client.post(url, {"name": "Renamed Bull", "home_venue": team.home_venue_id})
    team.refresh_from_db()
    return response, team.name == "Renamed Bull"


def change_captain(world: World, client: Client):
    entry = TeamEntry.objects.get(team=world.fixture.home)
    player = PlayerFactory(name="Edna Sykes")
    Registration.objects.create(player=player, team=entry.team, season=entry.season)
    url = reverse("leagues:manage_team", args=[world.league.slug, entry.team_id])
    data = {"season": entry.season_id, "division": entry.division_id, "captain": player.pk}
    response = client.post(url, data)
    entry.refresh_from_db()
    return response, entry.captain_id == player.pk


SECRETARIES = {"secretary", "superuser"}

#: action: (function, needs a played fixture, the roles allowed)
ACTIONS = {
    "record_hand": (record_hand, False, {"live_link", "secretary", "superuser"}),
    "submit_result": (
        submit,
        True,
        {"live_link", "home_captain", "away_captain", "secretary", "superuser"},
    ),
    "confirm_result": (confirm, True, {"away_captain", "secretary", "superuser"}),
    "dispute_result": (dispute, True, {"away_captain"}),
    "settle_dispute": (settle, True, {"secretary", "superuser"}),
    "reissue_link": (reissue_link, False, {"secretary", "superuser"}),
    "walkover": (walkover, False, {"secretary", "superuser"}),
    "adjust_points": (adjust, False, {"secretary", "superuser"}),
    "register_player": (register, False, {"secretary", "superuser"}),
    "add_secretary": (add_secretary, False, SECRETARIES),
    "create_secretary_account": (create_secretary, False, SECRETARIES),
    "remove_secretary": (remove_secretary, False, SECRETARIES),
    "link_captain_account": (link_captain, False, SECRETARIES),
    "create_captain_account": (create_captain, False, SECRETARIES),
    "unlink_captain_account": (unlink_captain, False, SECRETARIES),
    "reissue_game_link": (reissue_game_link, False, SECRETARIES),
    "revoke_game_link": (revoke_game_link, False, SECRETARIES),
    "postpone": (postpone, False, SECRETARIES),
    "rearrange": (rearrange, False, SECRETARIES),
    "add_fixture": (add_fixture, False, SECRETARIES),
    "generate_fixtures": (generate_fixtures, False, SECRETARIES),
    "league_settings": (league_settings, False, SECRETARIES),
    "season_edit": (season_edit, False, SECRETARIES),
    "division_edit": (division_edit, False, SECRETARIES),
    "venue_edit": (venue_edit, False, SECRETARIES),
    "team_edit": (team_edit, False, SECRETARIES),
    "change_captain": (change_captain, False, SECRETARIES),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_permission_matrix(action: str, role: str) -> None:
    """Each role may do exactly the actions its row allows; everything else is refused and
    changes nothing."""
    function, played, allowed = ACTIONS[action]
    world = build(played=played)
    client = client_for(world, role)
    response, took_effect = function(world, client)
    if role in allowed:
        assert took_effect, (action, role, response.status_code)
        assert response.status_code in (200, 302), (action, role, response.status_code)
    else:
        assert not took_effect, (action, role)
        assert refused(response), (action, role, response.status_code)


def test_the_matrix_covers_every_role_and_the_refusals_name_the_reason() -> None:
    """The scorer's refusal page says how to get the right to score."""
    world = build(played=False)
    response, _ = record_hand(world, Client())
    assert "scoring link" in response.content.decode()
    assert set(ROLES) >= set().union(*(allowed for _, _, allowed in ACTIONS.values()))


def test_a_league_games_link_reissued_from_the_game_page_moves_the_table_with_it() -> None:
    """The fixture card and the table follow the new key; the old key is refused at once."""
    world = build(played=False)
    phone = client_for(world, "live_link")
    old = world.table.scoring_link
    secretary = client_for(world, "secretary")
    response, moved = reissue_game_link(world, secretary)
    assert moved
    table = FixtureTable.objects.select_related("scoring_link").get(pk=world.table.pk)
    assert table.scoring_link == world.game().scoring_link != old
    assert table.scoring_link.is_live
    world.table = table
    assert not record_hand(world, phone)[1]
    assert Client().get(old.get_absolute_url()).status_code == 403
    assert record_hand(world, client_for(world, "live_link"))[1]
