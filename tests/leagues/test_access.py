"""Who may change what: every role against every write action, through the real pages.

Actions: scoring a hand; submitting, confirming, disputing and settling a result; the table's
and the game page's scoring link; fixtures (walkover, postpone, re-arrange, add, generate); points;
registrations; the league's settings, seasons, divisions, venues, teams and captains; secretaries
and captains' accounts and invitations; the operator's approval of leagues asked for.

Roles: an anonymous visitor, a logged-in stranger, a phone holding the table's live scoring link,
one holding a revoked link, the home and away captains, a captain of another team, a secretary
of another league, the league's secretary and the site operator. Each case starts from the same
league as it was built (two leagues, a fixture started and one played, built once per module and
each test rolled back: ``tests/worlds.py``), read afresh: a refused action must leave the
database as it was, an allowed one must change it.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import (
    AuditEntry,
    Fixture,
    FixtureTable,
    Invitation,
    League,
    LeagueRequest,
    PointAdjustment,
    Registration,
    ResultSubmission,
    TeamEntry,
)
from leagues.services import (
    confirmation,
    invitations,
    league_requests,
    registrations,
    structure,
)
from leagues.services.results import table_link_reissue
from scoring.actors import Actor
from scoring.models import Game, Hand
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import (
    current_game,
    entered_teams,
    refused,
    start_fixture,
    win_game,
)
from tests.worlds import world_per_module

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


started_world = world_per_module(lambda _: build(played=False))
played_world = world_per_module(lambda _: build(played=True))


@pytest.fixture
def worlds(started_world: World, played_world: World) -> dict[bool, World]:
    """Both leagues, by whether their fixture is played; each test reads its own copy."""
    return {False: started_world, True: played_world}


def fresh(world: World) -> World:
    """The world read again from the database: a test's changes to its copy (a link re-issued,
    a fixture refreshed) stay with that test."""
    users = get_user_model().objects.in_bulk([user.pk for user in world.users.values()])
    return World(
        League.objects.get(pk=world.league.pk),
        Fixture.objects.get(pk=world.fixture.pk),
        FixtureTable.objects.get(pk=world.table.pk),
        {role: users[user.pk] for role, user in world.users.items()},
    )


def client_for(world: World, role: str) -> Client:
    client = Client(REMOTE_ADDR="192.0.2.10")
    if role in world.users:
        client.force_login(world.users[role])
    if role in ("live_link", "revoked_link"):
        assert client.get(world.table.scoring_link.get_absolute_url()).status_code in (200, 302)
    if role == "revoked_link":
        world.table = table_link_reissue(table=world.table, by=world.users["secretary"])
    return client


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
    return confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )


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


def _secretaries_url(world: World) -> str:
    return reverse("leagues:manage_secretaries", kwargs={"slug": world.league.slug})


def _usernames(world: World) -> set[str]:
    return set(world.league.secretaries.values_list("username", flat=True))


def invite_secretary(world: World, client: Client):
    data = {"action": "invite", "invite-email": "fresh@example.org"}
    response = client.post(_secretaries_url(world), data)
    return response, Invitation.objects.filter(email="fresh@example.org").exists()


def _invitation(world: World) -> Invitation:
    return invitations.secretary_invite(
        league=world.league, email="waiting@example.org", by=world.users["secretary"]
    )


def resend_invitation(world: World, client: Client):
    invitation = _invitation(world)
    url = reverse("leagues:manage_invitation", args=[world.league.slug, invitation.pk])
    response = client.post(url, {"action": "resend"})
    return response, Invitation.objects.get(pk=invitation.pk).nonce != invitation.nonce


def withdraw_invitation(world: World, client: Client):
    invitation = _invitation(world)
    url = reverse("leagues:manage_invitation", args=[world.league.slug, invitation.pk])
    response = client.post(url, {"action": "withdraw"})
    return response, Invitation.objects.get(pk=invitation.pk).withdrawn_at is not None


def _asked(world: World) -> LeagueRequest:
    return league_requests.league_request_create(
        name="Calder Valley",
        form_data={
            "name": "Calder Valley",
            "style": "yorkshire",
            "league_night": "1",
            "start_time": "20:00",
        },
        by=world.users["stranger"],
    )


def approve_league(world: World, client: Client):
    asked = _asked(world)
    url = reverse("leagues:league_requests")
    response = client.post(url, {"request": asked.pk, "action": "approve"})
    return response, League.objects.filter(name="Calder Valley").exists()


def refuse_league(world: World, client: Client):
    asked = _asked(world)
    url = reverse("leagues:league_requests")
    response = client.post(url, {"request": asked.pk, "action": "refuse", "reason": "Spam"})
    asked.refresh_from_db()
    return response, asked.status == LeagueRequest.Status.REFUSED


def remove_secretary(world: World, client: Client):
    second = UserFactory(username="second")
    world.league.secretaries.add(second)
    response = client.post(_secretaries_url(world), {"action": "remove", "user": second.pk})
    return response, "second" not in _usernames(world)


def _captain_url(world: World) -> str:
    return reverse(
        "leagues:manage_captain_account", args=[world.league.slug, world.fixture.home_id]
    )


def _home_captain(world: World) -> Any:
    entry = TeamEntry.objects.select_related("captain__user").get(team=world.fixture.home_id)
    return entry.captain


def invite_captain(world: World, client: Client):
    TeamEntry.objects.filter(team=world.fixture.home_id).update(captain=PlayerFactory())
    data = {"action": "invite", "invite-email": "bull@example.org"}
    response = client.post(_captain_url(world), data)
    return response, Invitation.objects.filter(email="bull@example.org").exists()


def unlink_captain(world: World, client: Client):
    response = client.post(_captain_url(world), {"action": "unlink"})
    return response, _home_captain(world).user is None


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
        "rearrange-outside_calendar": "on",
        "rearrange-reason": "Agreed by both captains",
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
    data = {
        "start": "2026-01-06",
        "league_night": "1",
        "legs": "1",
        "exclusions": "",
        "confirm": "1",
    }
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


def _night_url(world: World) -> str:
    return reverse("leagues:fixture_night", kwargs={"pk": world.fixture.pk})


def _swapped(world: World, side: str) -> dict[str, Any]:
    """The night page's form for table 1 with ``side``'s two players in the other order."""
    pair = getattr(world.table, f"{side}_pair")
    return {
        "action": "seat",
        "board": "1",
        f"t1-{side}_1": pair[1].pk,
        f"t1-{side}_2": pair[0].pk,
    }


def seat_home_pair(world: World, client: Client):
    response = client.post(_night_url(world), _swapped(world, "home"))
    before = world.table.home_player_1_id
    return response, FixtureTable.objects.get(pk=world.table.pk).home_player_1_id != before


def seat_away_pair(world: World, client: Client):
    response = client.post(_night_url(world), _swapped(world, "away"))
    before = world.table.away_player_1_id
    return response, FixtureTable.objects.get(pk=world.table.pk).away_player_1_id != before


def add_home_player(world: World, client: Client):
    data = {"action": "add", "side": "home", "name": "Ena Sharples"}
    response = client.post(_night_url(world), data)
    added = Registration.objects.filter(player__name="Ena Sharples", team=world.fixture.home)
    return response, added.exists()


def add_away_player(world: World, client: Client):
    data = {"action": "add", "side": "away", "name": "Ena Sharples"}
    response = client.post(_night_url(world), data)
    added = Registration.objects.filter(player__name="Ena Sharples", team=world.fixture.away)
    return response, added.exists()


def import_spreadsheet(world: World, client: Client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    season = world.fixture.division.season
    people = b"team,player\nBlack Bull,Imported Ivy\n"
    data = {"season": str(season.pk), "people": SimpleUploadedFile("squads.csv", people)}
    url = reverse("leagues:manage_import", args=[world.league.slug])
    preview = client.post(url, data)
    if preview.status_code != 200 or not preview.context.get("carried"):
        return preview, Registration.objects.filter(player__name="Imported Ivy").exists()
    response = client.post(url, dict(preview.context["carried"]) | {"action": "confirm"})
    return response, Registration.objects.filter(player__name="Imported Ivy").exists()


def enter_card(world: World, client: Client):
    """The score card of the one-table fixture (its table opened on a phone, no hand yet)."""
    url = reverse("leagues:score_card", kwargs={"pk": world.fixture.pk})
    response = client.post(url, {"t1_g1_home": "11", "t1_g1_away": "7"})
    return response, FixtureTable.objects.filter(pk=world.table.pk, source="card").exists()


SECRETARIES = {"secretary", "superuser"}

#: action: (function, needs a played fixture, the roles allowed)
ACTIONS = {
    "enter_score_card": (enter_card, False, {"home_captain", "away_captain", *SECRETARIES}),
    "seat_home_pair": (seat_home_pair, False, {"home_captain", *SECRETARIES}),
    "seat_away_pair": (seat_away_pair, False, {"home_captain", "away_captain", *SECRETARIES}),
    "add_home_player_on_the_night": (add_home_player, False, {"home_captain", *SECRETARIES}),
    "add_away_player_on_the_night": (add_away_player, False, {"away_captain", *SECRETARIES}),
    "record_hand": (record_hand, False, {"live_link", "secretary", "superuser"}),
    "submit_result": (
        submit,
        True,
        {"live_link", "home_captain", "away_captain", "secretary", "superuser"},
    ),
    "confirm_result": (confirm, True, {"away_captain", "secretary", "superuser"}),
    # A secretary who did not submit it disputes it for the side it waits for (a captain with
    # no account yet: the secretary has the paper card).
    "dispute_result": (dispute, True, {"away_captain", "secretary", "superuser"}),
    "settle_dispute": (settle, True, {"secretary", "superuser"}),
    "reissue_link": (reissue_link, False, {"secretary", "superuser"}),
    "walkover": (walkover, False, {"secretary", "superuser"}),
    "adjust_points": (adjust, False, {"secretary", "superuser"}),
    "register_player": (register, False, {"secretary", "superuser"}),
    "invite_secretary": (invite_secretary, False, SECRETARIES),
    "resend_invitation": (resend_invitation, False, SECRETARIES),
    "withdraw_invitation": (withdraw_invitation, False, SECRETARIES),
    "approve_league": (approve_league, False, {"superuser"}),
    "refuse_league": (refuse_league, False, {"superuser"}),
    "remove_secretary": (remove_secretary, False, SECRETARIES),
    "invite_captain": (invite_captain, False, SECRETARIES),
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
    "import_spreadsheet": (import_spreadsheet, False, SECRETARIES),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_permission_matrix(action: str, role: str, worlds: dict[bool, World]) -> None:
    """Each role may do exactly the actions its row allows; everything else is refused and
    changes nothing."""
    function, played, allowed = ACTIONS[action]
    world = fresh(worlds[played])
    client = client_for(world, role)
    response, took_effect = function(world, client)
    if role in allowed:
        assert took_effect, (action, role, response.status_code)
        assert response.status_code in (200, 302), (action, role, response.status_code)
    else:
        assert not took_effect, (action, role)
        assert refused(response), (action, role, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_no_one_gives_a_captain_an_account_by_typing_its_username(
    role: str, worlds: dict[bool, World]
) -> None:
    """A secretary (or the operator) made any account a team's captain's, and so gave it the
    team's rights to submit and confirm results, by typing its username: its owner was never
    asked. No role can now: a captain's account is theirs only once they accept an invitation
    (``invite_captain`` above; accepting it: ``tests/leagues/test_invitations.py``)."""
    world = fresh(worlds[False])
    client = client_for(world, role)
    UserFactory(username="bull-captain")
    data = {"action": "link", "link-username": "bull-captain"}
    response = client.post(_captain_url(world), data)
    assert _home_captain(world).user == world.users["home_captain"], role
    assert response.status_code in (302, 403), (role, response.status_code)
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CAPTAIN_ACCOUNT_LINKED).exists()


def test_the_matrix_covers_every_role_and_the_refusals_name_the_reason(
    started_world: World,
) -> None:
    """The scorer's refusal page says how to get the right to score."""
    world = fresh(started_world)
    response, _ = record_hand(world, Client())
    assert "scoring link" in response.content.decode()
    assert set(ROLES) >= set().union(*(allowed for _, _, allowed in ACTIONS.values()))


def test_a_league_games_link_reissued_from_the_game_page_moves_the_table_with_it(
    started_world: World,
) -> None:
    """The fixture card and the table follow the new key; the old key is refused at once."""
    world = fresh(started_world)
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


# --- cross-league chains ------------------------------------------------------------------------
# League 2's secretary tries to reach into league 1 one step at a time: register league 1's home
# captain to a league-2 team, make him their captain, give him a new account, and with it confirm
# league 1's fixture; set a league-1 venue as their team's home and rename it. Each step is tried
# as if the previous one had gone through, and each is refused, through the real pages.


@dataclass
class Raid:
    world: World
    team: Any  # league 2's team
    entry: TeamEntry
    target: Any  # league 1's home captain (a player with an account)
    client: Client  # league 2's secretary


@pytest.fixture
def raid(played_world: World) -> Raid:
    world = fresh(played_world)
    other = League.objects.get(secretaries=world.users["other_secretary"])
    division = DivisionFactory(season__league=other)
    (team,) = entered_teams(division, ["Raiders"], players=2)
    entry = TeamEntry.objects.get(team=team)
    client = client_for(world, "other_secretary")
    _submitted(world)  # league 1's home captain has submitted; the away side has not agreed
    return Raid(world, team, entry, _home_captain(world), client)


def _smuggle_registration(r: Raid) -> None:
    """As if the registration had gone through (it cannot: see ``chain_register``)."""
    Registration.objects.create(player=r.target, team=r.team, season=r.entry.season)


def chain_register(r: Raid):
    url = reverse("leagues:manage_register", kwargs={"slug": r.team.league.slug})
    data = {"player": r.target.pk, "team": r.team.pk, "season": r.entry.season_id}
    response = r.client.post(url, data)
    return response, Registration.objects.filter(player=r.target, team=r.team).exists()


def chain_captain(r: Raid):
    _smuggle_registration(r)
    url = reverse("leagues:manage_team", args=[r.team.league.slug, r.team.pk])
    data = {"season": r.entry.season_id, "division": r.entry.division_id, "captain": r.target.pk}
    response = r.client.post(url, data)
    r.entry.refresh_from_db()
    return response, r.entry.captain_id == r.target.pk


def _smuggle_captaincy(r: Raid) -> str:
    _smuggle_registration(r)
    TeamEntry.objects.filter(pk=r.entry.pk).update(captain=r.target)
    return reverse("leagues:manage_captain_account", args=[r.team.league.slug, r.team.pk])


def chain_invite_their_player(r: Raid):
    url = _smuggle_captaincy(r)
    data = {"action": "invite", "invite-email": "evil@example.org"}
    response = r.client.post(url, data)
    return response, Invitation.objects.filter(player=r.target).exists()


def chain_unlink_account(r: Raid):
    url = _smuggle_captaincy(r)
    response = r.client.post(url, {"action": "unlink"})
    r.target.refresh_from_db()
    return response, r.target.user is None


def chain_confirm(r: Raid):
    """A league-2 captain's account (made by league 2) confirms league 1's fixture."""
    submission = ResultSubmission.objects.get(fixture=r.world.fixture)
    evil = UserFactory(username="evilcap")
    own = PlayerFactory(name="Raiders skipper", user=evil)
    Registration.objects.create(player=own, team=r.team, season=r.entry.season)
    TeamEntry.objects.filter(pk=r.entry.pk).update(captain=own)
    client = Client(REMOTE_ADDR="192.0.2.10")
    client.force_login(evil)
    url = reverse("leagues:fixture_result", kwargs={"pk": r.world.fixture.pk})
    response = client.post(url, {"action": "confirm"})
    submission.refresh_from_db()
    return response, submission.status == ResultSubmission.Status.CONFIRMED


def _their_venue(r: Raid) -> Any:
    return r.world.fixture.home.home_venue


def chain_venue_edit(r: Raid):
    venue = _their_venue(r)
    url = reverse("leagues:manage_venue_edit", args=[r.team.league.slug, venue.pk])
    response = r.client.post(url, {"name": "The Renamed Arms", "town": "", "address": ""})
    venue.refresh_from_db()
    return response, venue.name == "The Renamed Arms"


def chain_venue_as_home(r: Raid):
    venue = _their_venue(r)
    url = reverse("leagues:manage_team_edit", args=[r.team.league.slug, r.team.pk])
    response = r.client.post(url, {"name": r.team.name, "home_venue": venue.pk})
    r.team.refresh_from_db()
    return response, r.team.home_venue_id == venue.pk


def chain_venue_for_a_fixture(r: Raid):
    venue = _their_venue(r)
    Team = type(r.team)
    second = Team.objects.create(
        league=r.team.league, name="Second", slug="second", home_venue=r.team.home_venue
    )
    TeamEntry.objects.create(team=second, season=r.entry.season, division=r.entry.division)
    url = reverse("leagues:manage_fixture_add", kwargs={"pk": r.entry.division_id})
    data = {"home": r.team.pk, "away": second.pk, "date": "2025-12-02", "venue": venue.pk}
    response = r.client.post(url, data)
    return response, Fixture.objects.filter(venue=venue, home=r.team).exists()


def chain_seat_their_fixture(r: Raid):
    """League 2's secretary seats a pair at league 1's (unplayed) fixture from the night page."""
    fixture = FixtureFactory(
        division=r.world.fixture.division, home=r.world.fixture.home, away=r.world.fixture.away
    )
    players = list(Registration.objects.filter(team=fixture.home).values_list("player", flat=True))
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "1", "t1-home_1": players[0], "t1-home_2": players[1]}
    response = r.client.post(url, data)
    return response, FixtureTable.objects.filter(fixture=fixture).exists()


def chain_add_to_their_squad(r: Raid):
    url = reverse("leagues:fixture_night", kwargs={"pk": r.world.fixture.pk})
    response = r.client.post(url, {"action": "add", "side": "home", "name": "Smuggled In"})
    return response, Registration.objects.filter(player__name="Smuggled In").exists()


def chain_enter_their_card(r: Raid):
    """League 2's secretary types a score card for league 1's fixture."""
    fixture = FixtureFactory(
        division=r.world.fixture.division, home=r.world.fixture.home, away=r.world.fixture.away
    )
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    response = r.client.post(url, {"t1_g1_home": "11", "t1_g1_away": "7"})
    return response, FixtureTable.objects.filter(fixture=fixture).exists()


CHAINS = {
    "enter_their_score_card": chain_enter_their_card,
    "seat_their_fixture": chain_seat_their_fixture,
    "add_to_their_squad": chain_add_to_their_squad,
    "register_their_captain": chain_register,
    "make_their_player_captain": chain_captain,
    "invite_their_player_as_captain": chain_invite_their_player,
    "unlink_their_players_account": chain_unlink_account,
    "confirm_their_fixture": chain_confirm,
    "edit_their_venue": chain_venue_edit,
    "take_their_venue_as_home": chain_venue_as_home,
    "play_a_fixture_at_their_venue": chain_venue_for_a_fixture,
}


@pytest.mark.parametrize("chain", list(CHAINS))
def test_another_leagues_secretary_cannot_reach_into_the_league(chain: str, raid: Raid) -> None:
    """Every step of the cross-league chains is refused and changes nothing in either league;
    league 1's audit trail is untouched."""
    r = raid
    audited = AuditEntry.objects.filter(league=r.world.league).count()
    response, took_effect = CHAINS[chain](r)
    assert not took_effect, chain
    assert response.status_code in (200, 302, 403, 404, 422), (chain, response.status_code)
    assert AuditEntry.objects.filter(league=r.world.league).count() == audited


def test_the_services_refuse_the_chains_without_the_views(raid: Raid) -> None:
    """The services check ownership themselves: a view that forgot would still be refused."""
    r = raid
    by = r.world.users["other_secretary"]
    with pytest.raises(ValidationError, match="another league"):
        registrations.player_register(player=r.target, team=r.team, season=r.entry.season, by=by)
    _smuggle_registration(r)
    with pytest.raises(ValidationError, match="another league"):
        structure.entry_set_captain(entry=r.entry, captain=r.target, by=by)
    TeamEntry.objects.filter(pk=r.entry.pk).update(captain=r.target)
    r.entry.refresh_from_db()
    with pytest.raises(ValidationError, match="another league"):
        invitations.captain_invite(entry=r.entry, email="evil@example.org", by=by)
    venue = _their_venue(r)
    with pytest.raises(ValidationError):
        structure.venue_update(venue=venue, name="Renamed", league=r.team.league, by=by)
    with pytest.raises(ValidationError):
        structure.team_update(team=r.team, name=r.team.name, home_venue=venue, by=by)


def test_the_site_operator_may_register_a_player_in_a_second_league(raid: Raid) -> None:
    r = raid
    registrations.player_register(
        player=r.target, team=r.team, season=r.entry.season, by=r.world.users["superuser"]
    )
    assert Registration.objects.filter(player=r.target, team=r.team).exists()


def test_the_games_list_links_to_each_games_page_not_its_title() -> None:
    from tests.factories.scoring import GameFactory

    game = GameFactory(title="https://evil.example/login")
    page = Client().get(reverse("scoring:game_list")).content.decode()
    assert f'href="{game.get_absolute_url()}"' in page
    assert 'href="https://evil.example/login"' not in page
