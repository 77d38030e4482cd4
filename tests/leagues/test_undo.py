"""A secretary undoes a walkover, a void or a postponement: audited, the table follows, both
captains told; what cannot be undone is refused in words."""

from __future__ import annotations

import datetime
import html

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from leagues.models import AuditEntry, TeamEntry
from leagues.selectors.standings import division_standings
from leagues.services.fixtures import fixture_postpone, fixture_undo, fixture_void, fixture_walkover
from leagues.services.standings import refresh_division_table
from tests.leagues.helpers import confirm
from tests.leagues.test_access import build
from tests.leagues.test_audit_trail import spare_fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings):
    settings.SITE_URL = "http://testserver"
    world = build(played=True)
    for role, user in world.users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
    return world


def points(fixture):
    rows = division_standings(division=fixture.division).rows
    return {row.team.pk: (row.played, row.points) for row in rows}


def scheduled(fixture):
    """The return fixture, not yet played."""
    return spare_fixture(type("World", (), {"fixture": fixture}))


@pytest.mark.parametrize("kind", ["walkover", "postponement"])
def test_a_walkover_or_a_postponement_undone_puts_the_fixture_back(
    world, kind, django_capture_on_commit_callbacks
):
    secretary = world.users["secretary"]
    fixture = scheduled(world.fixture)
    before = points(fixture)
    if kind == "walkover":
        fixture_walkover(fixture=fixture, to="home", reason="No show", by=secretary)
        assert points(fixture) != before
    else:
        fixture_postpone(fixture=fixture, reason="Pub flooded", by=secretary)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_undo(fixture=fixture, reason="Given in error", by=secretary)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.walkover_to, fixture.reason) == ("scheduled", "", "")
    assert fixture.original_date is None
    assert points(fixture) == before
    entry = AuditEntry.objects.get(action="fixture_undone")
    assert entry.by == secretary and entry.fixture == fixture
    what = f"the walkover to {fixture.home}" if kind == "walkover" else "the postponement"
    assert entry.subject == f"{fixture}: {what} undone: Given in error"
    assert sorted(m.to[0] for m in mail.outbox) == [
        "away_captain@example.org",
        "home_captain@example.org",
    ]
    assert mail.outbox[0].subject == f"Back on the list: {fixture}"
    assert f"{what[0].upper()}{what[1:]} is undone: Given in error" in mail.outbox[0].body


def test_a_void_played_fixture_undone_counts_again(world):
    secretary = world.users["secretary"]
    fixture = confirm(world.fixture)
    refresh_division_table(division=fixture.division_id)
    before = points(fixture)
    assert sum(played for played, _ in before.values()) == 2
    fixture_void(fixture=fixture, reason="Wrong venue", by=secretary)
    assert points(fixture) != before
    fixture_undo(fixture=fixture, reason="Venue was agreed after all", by=secretary)
    fixture.refresh_from_db()
    assert fixture.status == "played"
    assert points(fixture) == before


def test_undo_is_refused_for_a_scheduled_fixture_without_a_reason_or_by_a_captain(world):
    fixture = scheduled(world.fixture)
    with pytest.raises(ValidationError, match="Only a postponement, a walkover or a void"):
        fixture_undo(fixture=fixture, reason="x", by=world.users["secretary"])
    fixture_void(fixture=fixture, reason="Wrong venue", by=world.users["secretary"])
    with pytest.raises(ValidationError, match="Give the reason for undoing it"):
        fixture_undo(fixture=fixture, reason=" ", by=world.users["secretary"])
    with pytest.raises(Exception, match="Only the secretaries"):
        fixture_undo(fixture=fixture, reason="Mine", by=world.users["home_captain"])
    fixture.refresh_from_db()
    assert fixture.status == "void"


def test_the_secretary_undoes_a_walkover_from_the_fixture_page(client, world):
    fixture = scheduled(world.fixture)
    fixture_walkover(fixture=fixture, to="away", reason="No show", by=world.users["secretary"])
    client.force_login(world.users["secretary"])
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    page = client.get(url).content.decode()
    assert f"Undo the walkover to {fixture.away}" in page
    assert f"This fixture is a walkover to {fixture.away}:" in page
    response = client.post(url, {"action": "undo", "undo-reason": "Wrong team"})
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == "scheduled"


def test_a_rearrangement_offers_the_next_free_league_nights_to_pick_from(client, world):
    from leagues.services.fixtures import free_nights

    fixture = scheduled(world.fixture)
    nights = free_nights(fixture=fixture)
    assert len(nights) == 4 and nights == sorted(nights) and nights[0] > fixture.date
    assert all(night.weekday() == fixture.division.season.night for night in nights)
    client.force_login(world.users["secretary"])
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    page = client.get(url).content.decode()
    assert "Next free league nights" in page
    for night in nights:
        assert f'value="{night.isoformat()}"' in page
    response = client.post(
        url,
        {
            "action": "rearrange",
            "rearrange-night": nights[2].isoformat(),
            "rearrange-reason": "Agreed",
        },
    )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.date == nights[2]


def test_a_walkover_from_a_withdrawal_is_not_offered_to_undo_the_page_says_reinstate(client, world):
    """A fixture a team's withdrawal settled is put back by reinstating the team (the service
    refuses to undo it alone): its page offers no undo form, and says so with a link to the
    team's secretary page; the status reads as a sentence."""
    from leagues.services.withdrawal import team_withdraw

    secretary = world.users["secretary"]
    fixture = scheduled(world.fixture)  # Old Hall v Black Bull
    season = fixture.division.season
    team_withdraw(
        entry=TeamEntry.objects.get(team=fixture.away, season=season),
        reason="Pub shut",
        withdrawal="stand",
        by=secretary,
    )
    client.force_login(secretary)
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    page = html.unescape(client.get(url).content.decode())
    assert "Undo the walkover" not in page and 'value="undo"' not in page
    assert f"This fixture is a walkover to {fixture.home}:" in page
    assert "This fixture is walkover" not in page
    team_page = reverse("leagues:manage_team", args=[world.league.slug, fixture.away.pk])
    assert (
        f"It was settled by {fixture.away}'s withdrawal: reinstate the team on "
        f'<a href="{team_page}?season={season.pk}">its secretary page</a> to undo it.'
    ) in page
    with pytest.raises(ValidationError, match="reinstate the team to undo it"):
        fixture_undo(fixture=fixture, reason="Wrong team", by=secretary)


def test_a_walkover_is_not_undone_onto_a_night_booked_meanwhile(world):
    """A walkover frees its night: the home team was booked a friendly on it. Undoing the
    walkover put both matches on one night for the same team; it is refused, naming the clash,
    and the walkover stands."""
    from leagues.models import Fixture, Team
    from leagues.services.fixtures import fixture_add

    secretary = world.users["secretary"]
    fixture = scheduled(world.fixture)
    fixture_walkover(fixture=fixture, to="home", reason="No show", by=secretary)
    other = Team.objects.get(name="Royal Oak")
    friendly = fixture_add(
        division=fixture.division,
        home=fixture.home,
        away=other,
        date=fixture.date,
        kind=Fixture.Kind.FRIENDLY,
        by=secretary,
    )
    with pytest.raises(ValidationError) as refused:
        fixture_undo(fixture=fixture, reason="Given in error", by=secretary)
    words = " ".join(refused.value.messages)
    assert f"The walkover to {fixture.home} cannot be undone" in words
    assert f"({friendly.home} v {friendly.away}, friendly)" in words  # not the fixture itself
    fixture.refresh_from_db()
    assert fixture.status == "walkover"
    assert not AuditEntry.objects.filter(action="fixture_undone").exists()


def test_an_undo_refused_on_the_page_is_said_once_at_its_form(world, client):
    """The refusal was printed twice on a phone: at the top and in the undo form."""
    from leagues.models import Fixture, Team
    from leagues.services.fixtures import fixture_add

    secretary = world.users["secretary"]
    fixture = scheduled(world.fixture)
    fixture_walkover(fixture=fixture, to="home", reason="No show", by=secretary)
    other = Team.objects.get(name="Royal Oak")
    fixture_add(
        division=fixture.division,
        home=fixture.home,
        away=other,
        date=fixture.date,
        kind=Fixture.Kind.FRIENDLY,
        by=secretary,
    )
    client.force_login(secretary)
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    page = client.post(url, {"action": "undo", "undo-reason": "Given in error"}).content.decode()
    assert html.unescape(page).count("cannot be undone") == 1


def test_a_friendlys_page_says_it_is_a_friendly(world, client):
    """Only the team's list said "Friendly"; the match's own page did not."""
    from leagues.models import Fixture, Team
    from leagues.services.fixtures import fixture_add

    fixture = world.fixture
    friendly = fixture_add(
        division=fixture.division,
        home=fixture.home,
        away=Team.objects.get(name="Royal Oak"),
        date=fixture.date + datetime.timedelta(days=3),
        kind=Fixture.Kind.FRIENDLY,
        by=world.users["secretary"],
    )
    page = client.get(friendly.get_absolute_url()).content.decode()
    assert '<strong data-testid="fixture-kind">Friendly</strong>' in page
    assert (
        'data-testid="fixture-kind"' not in client.get(fixture.get_absolute_url()).content.decode()
    )
