"""Setting a cup up: the secretary enters the season's teams in one step, and changes a group
cup's groups until the draw."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from cups.forms import TeamEntrantForm
from cups.models import Competition, Entrant
from cups.services.competitions import (
    competition_create,
    competition_set_groups,
    entrant_add_team,
    entrants_add_season_teams,
)
from cups.services.draws import draw_make
from leagues.models import AuditEntry, TeamEntry
from leagues.services.withdrawal import team_withdraw
from tests.cups.helpers import cup_world

pytestmark = pytest.mark.django_db


def new_cup(world, **options):
    return competition_create(
        league=world.league,
        season=world.season,
        name=options.pop("name", "League Cup"),
        by=world.users["secretary"],
        **options,
    )


def test_every_team_playing_the_season_is_entered_but_the_withdrawn_and_those_in():
    world = cup_world(teams=5)
    cup = new_cup(world)
    a, b, c, d, e = world.teams
    entrant_add_team(competition=cup, team=b, seed=1, by=world.users["secretary"])
    team_withdraw(
        entry=TeamEntry.objects.get(team=e), reason="The pub closed", by=world.users["secretary"]
    )
    entered = entrants_add_season_teams(competition=cup, by=world.users["secretary"])
    assert [entrant.team for entrant in entered] == [a, c, d]
    assert sorted(cup.entrants.values_list("team__name", flat=True)) == [
        a.name,
        b.name,
        c.name,
        d.name,
    ]
    assert cup.entrants.get(team=b).seed == 1  # the one already in is left as it was
    added = AuditEntry.objects.filter(action="cup_entrant_added", league=world.league)
    assert added.count() == 4
    with pytest.raises(ValidationError, match="already in League Cup"):
        entrants_add_season_teams(competition=cup, by=world.users["secretary"])


@pytest.mark.parametrize("who", ["other_secretary", "home_captain", "stranger"])
def test_only_the_leagues_secretaries_enter_the_teams(who):
    world = cup_world(teams=3)
    cup = new_cup(world)
    with pytest.raises(PermissionDenied):
        entrants_add_season_teams(competition=cup, by=world.users[who])
    assert not cup.entrants.exists()


def test_no_team_is_entered_once_the_draw_is_made_nor_into_a_pairs_cup():
    world = cup_world(teams=4)
    cup = new_cup(world)
    entrants_add_season_teams(competition=cup, by=world.users["secretary"])
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    with pytest.raises(ValidationError, match="entries are closed"):
        entrants_add_season_teams(competition=cup, by=world.users["secretary"])
    pairs = new_cup(world, name="Pairs Cup", entrant_kind=Competition.EntrantKind.PAIRS)
    with pytest.raises(ValidationError, match="not teams"):
        entrants_add_season_teams(competition=pairs, by=world.users["secretary"])


def test_the_manage_page_offers_the_teams_not_in_and_enters_them(client):
    world = cup_world(teams=4)
    cup = new_cup(world)
    entrant_add_team(competition=cup, team=world.teams[0], by=world.users["secretary"])
    client.force_login(world.users["secretary"])
    url = reverse("cups:manage", args=[cup.pk])
    page = client.get(url).content.decode()
    assert "3 teams playing" in page and "Enter all 3" in page
    response = client.post(url, {"action": "enter_all"}, follow=True)
    assert "3 teams entered." in response.content.decode()
    assert cup.entrants.count() == 4
    assert 'data-testid="enter-all"' not in response.content.decode()


def test_the_team_form_offers_the_teams_enter_all_would_enter():
    """The form to enter one team offered a team withdrawn from the season (Enter all leaves
    it out): it offers the same teams, and a withdrawn one posted is not a choice."""
    world = cup_world(teams=4)
    cup = new_cup(world)
    a, b, c, d = world.teams
    entrant_add_team(competition=cup, team=a, by=world.users["secretary"])
    team_withdraw(
        entry=TeamEntry.objects.get(team=d), reason="The pub closed", by=world.users["secretary"]
    )
    offered = list(TeamEntrantForm(competition=cup).fields["team"].queryset)
    assert offered == [b, c]
    form = TeamEntrantForm({"team": d.pk}, competition=cup)
    assert not form.is_valid() and "team" in form.errors


def test_a_team_withdrawn_from_the_season_is_not_entered():
    """The service refuses a withdrawn team, naming it, however it is asked: nothing is
    entered and nothing goes in the audit trail."""
    world = cup_world(teams=3)
    cup = new_cup(world)
    withdrawn = world.teams[2]
    team_withdraw(
        entry=TeamEntry.objects.get(team=withdrawn),
        reason="The pub closed",
        by=world.users["secretary"],
    )
    with pytest.raises(ValidationError) as refused:
        entrant_add_team(competition=cup, team=withdrawn, by=world.users["secretary"])
    assert refused.value.messages == [
        f"{withdrawn} has withdrawn from {world.season.name}: a withdrawn team is not entered "
        "in its cups."
    ]
    assert not Entrant.objects.filter(competition=cup).exists()
    assert not AuditEntry.objects.filter(action="cup_entrant_added").exists()


@pytest.mark.parametrize("kind", [Competition.EntrantKind.PAIRS, Competition.EntrantKind.PLAYERS])
def test_players_of_a_team_withdrawn_from_the_season_are_not_entered(client, kind):
    """A pairs cup entered two players of a withdrawn team ("... entered.") where the team cup
    leaves a withdrawn team out: the manage page refuses them, naming the team, and nothing
    is entered or audited."""
    from tests.leagues.helpers import squad

    world = cup_world(teams=3)
    sec = world.users["secretary"]
    cup = new_cup(world, entrant_kind=kind, best_of=3)
    withdrawn = world.teams[2]
    team_withdraw(entry=TeamEntry.objects.get(team=withdrawn), reason="The pub closed", by=sec)
    players = squad(withdrawn, world.season)[:2]
    posted = {"action": "enter", "player_1": players[0].pk, "player_2": players[1].pk}
    if kind == Competition.EntrantKind.PLAYERS:
        del posted["player_2"]
    client.force_login(sec)
    page = client.post(reverse("cups:manage", args=[cup.pk]), posted, follow=True)
    said = [str(message) for message in page.context["messages"]]
    assert said == [
        f"{withdrawn} has withdrawn from {world.season.name}: a withdrawn team's players are "
        "not entered in its cups, as the team is not. Nothing was changed."
    ]
    assert not Entrant.objects.filter(competition=cup).exists()
    assert not AuditEntry.objects.filter(action="cup_entrant_added").exists()


def test_a_group_cups_groups_change_until_the_draw():
    """Three entrants cannot fill the two groups the cup was made with: the secretary makes it
    one group of three and the draw goes ahead (before, the cup was stuck: entrants only)."""
    world = cup_world(teams=3)
    cup = new_cup(world, format=Competition.Format.GROUPS, groups=2, qualifiers=2)
    entrants_add_season_teams(competition=cup, by=world.users["secretary"])
    with pytest.raises(ValidationError, match="use at most 1 group"):
        draw_make(competition=cup, seed=1, by=world.users["secretary"])
    with pytest.raises(PermissionDenied):
        competition_set_groups(competition=cup, groups=1, qualifiers=2, by=world.users["stranger"])
    with pytest.raises(ValidationError, match="at least 2 qualifiers"):
        competition_set_groups(competition=cup, groups=1, qualifiers=1, by=world.users["secretary"])
    competition_set_groups(competition=cup, groups=1, qualifiers=2, by=world.users["secretary"])
    cup.refresh_from_db()
    assert (cup.groups, cup.qualifiers) == (1, 2)
    change = AuditEntry.objects.get(action="cup_changed", league=world.league)
    assert change.before["groups"] == 2 and change.after["groups"] == 1
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    with pytest.raises(ValidationError, match="entries are closed"):
        competition_set_groups(competition=cup, groups=1, qualifiers=1, by=world.users["secretary"])


def test_a_knock_out_has_no_groups_to_change():
    world = cup_world(teams=3)
    cup = new_cup(world)
    with pytest.raises(ValidationError, match="is a knock-out"):
        competition_set_groups(competition=cup, groups=2, qualifiers=1, by=world.users["secretary"])


def test_the_manage_page_changes_the_groups(client):
    world = cup_world(teams=3)
    cup = new_cup(world, format=Competition.Format.GROUPS, groups=2, qualifiers=2)
    client.force_login(world.users["secretary"])
    url = reverse("cups:manage", args=[cup.pk])
    assert 'data-testid="change-groups"' in client.get(url).content.decode()
    bad = client.post(
        url, {"action": "groups", "groups-groups": "0", "groups-qualifiers": "2"}, follow=True
    )
    assert "At least 1 group." in bad.content.decode()
    assert "greater than or equal to" not in bad.content.decode()
    cup.refresh_from_db()
    assert cup.groups == 2
    done = client.post(
        url, {"action": "groups", "groups-groups": "1", "groups-qualifiers": "2"}, follow=True
    )
    assert "The groups are changed." in done.content.decode()
    cup.refresh_from_db()
    assert (cup.groups, cup.qualifiers) == (1, 2)
