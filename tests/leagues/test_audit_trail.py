"""The league audit trail fills its gaps: fixture postponements, re-arrangements, additions and
generation; structure edits; captain changes; and the league page merges every hand-level change
of the league's games with its own entries, by time, a page at a time."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.audit import audit_log
from leagues.models import AuditEntry, Fixture, Registration, TeamEntry
from scoring.models import HandRevision, RevisionAction
from tests.factories.leagues import FixtureFactory, PlayerFactory, VenueFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db

ADDRESS = "192.0.2.77"


@pytest.fixture
def world():
    return build(played=False)


@pytest.fixture
def secretary(world) -> Client:
    client = Client(REMOTE_ADDR=ADDRESS)
    client.force_login(world.users["secretary"])
    return client


def only(action: str) -> AuditEntry:
    entry = AuditEntry.objects.get(action=action)
    assert entry.ip == ADDRESS
    return entry


def spare_fixture(world) -> Fixture:
    return FixtureFactory(
        division=world.fixture.division,
        home=world.fixture.away,
        away=world.fixture.home,
        date=datetime.date(2025, 10, 7),
    )


# --- fixtures ----------------------------------------------------------------------------------


def test_postponing_and_rearranging_a_fixture_are_audited(world, secretary):
    fixture = spare_fixture(world)
    url = reverse("leagues:manage_fixture", kwargs={"pk": fixture.pk})
    secretary.post(url, {"action": "postpone", "postpone-reason": "Pub flooded"})
    entry = only("fixture_postponed")
    assert entry.fixture == fixture and entry.by == world.users["secretary"]
    assert (entry.before["status"], entry.after["status"]) == ("scheduled", "postponed")
    assert entry.after["reason"] == "Pub flooded"

    new_venue = VenueFactory(league=world.league)
    secretary.post(
        url,
        {
            "action": "rearrange",
            "rearrange-date": "2025-11-04",
            "rearrange-time": "19:30",
            "rearrange-venue": new_venue.pk,
            "rearrange-reason": "Agreed by both captains",
            "rearrange-outside_calendar": "on",
        },
    )
    entry = only("fixture_rearranged")
    assert entry.before["date"] == "2025-10-07" and entry.after["date"] == "2025-11-04"
    assert entry.after["time"] == "19:30" and entry.after["venue"] == new_venue.pk
    assert entry.after["venue_name"] == str(new_venue)


def test_adding_and_generating_fixtures_are_audited(world, secretary):
    division = world.fixture.division
    secretary.post(
        reverse("leagues:manage_fixture_add", kwargs={"pk": division.pk}),
        {
            "home": world.fixture.away_id,
            "away": world.fixture.home_id,
            "date": "2025-12-02",
            "time": "",
            "venue": "",
        },
    )
    added = only("fixture_added")
    assert added.fixture is not None and added.after["date"] == "2025-12-02"

    secretary.post(
        reverse("leagues:manage_fixtures_generate", kwargs={"pk": division.pk}),
        {
            "start": "2026-01-06",
            "league_night": "1",
            "legs": "1",
            "exclusions": "2026-01-13",
            "confirm": "1",
        },
    )
    generated = only("fixtures_generated")
    assert generated.after["start"] == "2026-01-06" and generated.after["legs"] == 1
    assert generated.after["exclusions"] == [
        {"from": "2026-01-13", "to": "2026-01-13", "name": "", "every_year": False}
    ]
    # Three teams, single round robin: the started Black Bull v Old Hall is kept.
    # The fixture added above is moved into the new list (or replaced), never lost silently.
    assert generated.after["created"] + len(generated.after["moved"]) == 2
    assert generated.before["replaced"] + len(generated.after["moved"]) == 1


# --- structure ---------------------------------------------------------------------------------


def test_structure_edits_are_audited_with_before_and_after(world, secretary):
    league = world.league
    season = world.fixture.division.season
    division = world.fixture.division
    team = world.fixture.home
    slug = league.slug
    response = secretary.post(
        reverse("leagues:manage_season_edit", args=[slug, season.pk]),
        {"name": "Winter 2025", "starts_on": "2025-09-02", "ends_on": "2026-04-30"},
    )
    assert response.status_code == 302
    entry = only("season_updated")
    assert entry.after["name"] == "Winter 2025" and entry.after["ends_on"] == "2026-04-30"

    secretary.post(
        reverse("leagues:manage_division_edit", args=[slug, division.pk]),
        {"name": "Premier", "rank": "1"},
    )
    assert only("division_updated").after["name"] == "Premier"

    venue = team.home_venue
    secretary.post(
        reverse("leagues:manage_venue_edit", args=[slug, venue.pk]),
        {"name": "The Black Bull Inn", "town": "Birstall", "address": ""},
    )
    entry = only("venue_updated")
    assert entry.league == league and entry.after["name"] == "The Black Bull Inn"

    secretary.post(
        reverse("leagues:manage_team_edit", args=[slug, team.pk]),
        {"name": "Black Bull A", "short_name": "Bull", "home_venue": venue.pk},
    )
    entry = only("team_updated")
    assert (entry.before["name"], entry.after["name"]) == ("Black Bull", "Black Bull A")


def test_league_settings_are_audited(world, secretary):
    from leagues.forms import LeagueEditForm

    form = LeagueEditForm(league=world.league)
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data["name"] = "Calder Valley Winter League"
    data["start_time"] = "19:45"
    response = secretary.post(reverse("leagues:manage_league_edit", args=[world.league.slug]), data)
    assert response.status_code == 302, response.context["form"].errors
    entry = only("league_updated")
    assert entry.after["name"] == "Calder Valley Winter League"
    assert (entry.before["start_time"], entry.after["start_time"]) == ("20:00", "19:45")


def test_a_captain_change_is_audited_and_an_unchanged_save_writes_nothing(world, secretary):
    team = world.fixture.home
    entry = TeamEntry.objects.get(team=team)
    new_captain = PlayerFactory(name="Edna Sykes")
    for player in (new_captain, entry.captain):
        Registration.objects.create(player=player, team=team, season=entry.season)
    url = reverse("leagues:manage_team", args=[world.league.slug, team.pk])
    data = {
        "season": entry.season_id,
        "division": entry.division_id,
        "captain": entry.captain_id,
        "captain_contact": "",
    }
    AuditEntry.objects.all().delete()
    assert secretary.post(url, data).status_code == 302
    assert not AuditEntry.objects.exists()
    assert secretary.post(url, data | {"captain": new_captain.pk}).status_code == 302
    changed = only("captain_changed")
    assert changed.after["captain_name"] == "Edna Sykes"
    assert changed.before["captain"] == entry.captain_id
    secretary.post(url, data | {"captain": new_captain.pk, "captain_contact": "07700 900123"})
    assert only("captain_contact_changed").after["captain_contact"] == "07700 900123"


# --- the league's page merges the hands of its games ------------------------------------------


def league_audit(client: Client, world, page: int | None = None):
    url = reverse("leagues:manage_league_audit", kwargs={"slug": world.league.slug})
    return client.get(url, {"page": page} if page else {})


def test_the_league_page_shows_hand_changes_merged_by_time(world, secretary):
    """A hand recorded between two league entries is listed between them."""
    from tests.leagues.helpers import win_game

    AuditEntry.objects.all().delete()
    HandRevision.objects.all().delete()
    win_game(world.game(), "A", 1)
    now = timezone.now()
    hands = HandRevision.objects.filter(action=RevisionAction.RECORD)
    assert hands.exists()
    hands.update(at=now - datetime.timedelta(minutes=5))
    older = AuditEntry.objects.create(
        league=world.league, action="older", subject="Older", at=now - datetime.timedelta(hours=1)
    )
    newer = AuditEntry.objects.create(league=world.league, action="newer", subject="Newer", at=now)
    AuditEntry.objects.exclude(pk__in=[older.pk, newer.pk]).delete()
    body = league_audit(secretary, world).content.decode()
    positions = [
        body.index('data-testid="audit-newer"'),
        body.index('data-testid="audit-hand-record"'),
        body.index('data-testid="audit-older"'),
    ]
    assert positions == sorted(positions)
    assert f"{world.fixture.home} v {world.fixture.away}" in body


def test_the_trail_names_people_as_the_league_pages_do(world, secretary):
    """The "Who" column gave logins ("demo-secretary"): it names the person as the league's
    pages do, the account's own name, else their name as a player (a captain as the secretary
    entered them), the login only for an account with neither; a hand's too."""
    from tests.leagues.helpers import win_game

    AuditEntry.objects.all().delete()
    HandRevision.objects.all().delete()
    named = world.users["secretary"]
    named.first_name, named.last_name = "Susan", "Booth"
    named.save()
    captain = world.users["home_captain"]
    nameless = world.users["stranger"]
    for by, subject in ((named, "By Susan"), (captain, "By the captain"), (nameless, "By nobody")):
        AuditEntry.objects.create(league=world.league, action="edited", subject=subject, by=by)
    win_game(world.game(), "A", 1)
    HandRevision.objects.update(by=captain, link=None)
    cells = re.findall(
        r'<td data-label="Who">([^<]*)</td>', league_audit(secretary, world).content.decode()
    )
    assert {"Susan Booth", f"{world.fixture.home} captain", nameless.get_username()} == set(cells)
    fixture_page = secretary.get(
        reverse("leagues:manage_fixture_audit", kwargs={"pk": world.fixture.pk})
    )
    cells = re.findall(r'<td data-label="Who">([^<]*)</td>', fixture_page.content.decode())
    assert f"{world.fixture.home} captain" in cells and captain.get_username() not in cells
    game_page = secretary.get(reverse("scoring:game_audit", kwargs={"pk": world.game().pk}))
    assert (
        re.findall(r'data-testid="audit-who">([^<]*)<', game_page.content.decode())
        == [f"{world.fixture.home} captain (scorer)"] * HandRevision.objects.count()
    )


def test_other_leagues_hands_are_not_shown(world, secretary):
    other = build(played=True)
    assert HandRevision.objects.filter(game=other.game()).exists()
    body = league_audit(secretary, world).content.decode()
    assert 'data-testid="audit-hand-record"' not in body
    other_client = Client()
    other_client.force_login(other.users["secretary"])
    assert 'data-testid="audit-hand-record"' in league_audit(other_client, other).content.decode()


def test_the_league_page_is_paginated_with_a_fixed_number_of_queries(
    world, secretary, django_assert_max_num_queries
):
    """Whatever the page and however many entries and hands, the same handful of queries."""
    from tests.leagues.helpers import win_game

    win_game(world.game(), "A", 3)
    hands = HandRevision.objects.filter(game__league_game__table__fixture=world.fixture).count()
    now = timezone.now()
    AuditEntry.objects.bulk_create(
        AuditEntry(
            league=world.league,
            action="bulk",
            subject=f"Entry {n}",
            by=world.users["secretary"],
            at=now - datetime.timedelta(minutes=n),
        )
        for n in range(150)
    )
    total = AuditEntry.objects.filter(league=world.league).count() + hands
    with django_assert_max_num_queries(9):
        first = league_audit(secretary, world)
    with django_assert_max_num_queries(9):
        second = league_audit(secretary, world, page=2)
    assert first.context["page"].paginator.count == total
    assert len(first.context["rows"]) == 100 and len(second.context["rows"]) == total - 100
    assert 'data-testid="audit-older"' in first.content.decode()
    shown = [row.at for row in first.context["rows"] + second.context["rows"]]
    assert shown == sorted(shown, reverse=True)
    kinds = {row.kind for row in first.context["rows"] + second.context["rows"]}
    assert kinds == {"league", "hand"}


def test_an_audit_entrys_action_is_one_of_the_models_choices(world):
    """The actions are ``AuditEntry.Action``: a service writing one not among them (a typo the
    notices and the pages would not know) is refused, nothing written; the admin's filter
    names each in words."""
    with pytest.raises(ValueError, match="secretary_adedd"):
        audit_log(league=world.league, action="secretary_adedd", subject="A typo")
    assert not AuditEntry.objects.filter(action="secretary_adedd").exists()
    entry = audit_log(league=world.league, action="secretary_added", subject="A secretary")
    assert entry.action == AuditEntry.Action.SECRETARY_ADDED
    assert entry.get_action_display() == "Secretary added"
