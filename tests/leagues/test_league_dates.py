"""A league's decisions by date are taken on its own date, where it plays (``League.today``),
not the site's: at 22:00 in Port of Spain (02:00 UTC) the site's date, London's, is already
the next day. The clock is moved (``clock_at``) to such a moment."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cups.models import Competition
from cups.services.draws import draw_make
from leagues.services.registrations import player_register
from leagues.services.structure import team_update
from leagues.services.withdrawal import team_reinstate, team_withdraw
from tests.cups.helpers import cup_world, team_cup
from tests.factories.leagues import LeagueFactory, PlayerFactory, TeamEntryFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import clock_at, small_hours_utc

pytestmark = pytest.mark.django_db

PORT_OF_SPAIN = "America/Port_of_Spain"
DAY = datetime.timedelta(days=1)


@pytest.fixture
def evening_in_port_of_spain(monkeypatch):
    """A league in Port of Spain at 22:00 its time (02:00 UTC): its date, a day behind the
    site's."""
    instant = small_hours_utc()
    clock_at(monkeypatch, instant)
    league = LeagueFactory(time_zone=PORT_OF_SPAIN)
    assert league.today() == instant.date() - DAY
    return league


def _entry(league, *, ends_on, **kwargs):
    return TeamEntryFactory(
        division__season__league=league,
        division__season__starts_on=ends_on - 90 * DAY,
        division__season__ends_on=ends_on,
        **kwargs,
    )


def test_a_team_renamed_on_a_seasons_last_night_takes_its_new_name_in_that_season(
    evening_in_port_of_spain,
):
    """Renamed at 22:00 on the season's last night where the league plays, the season is still
    running: its entry takes the new name (it kept the old one, the site's date being the day
    after its end); the season that ended the night before keeps the old one."""
    league = evening_in_port_of_spain
    tonight = league.today()
    running = _entry(league, ends_on=tonight, team__name="Woolpack", name="Woolpack")
    team = running.team
    ended = _entry(league, ends_on=tonight - DAY, team=team, name="Woolpack")

    team_update(team=team, name="The New Woolpack", home_venue=team.home_venue)

    running.refresh_from_db()
    ended.refresh_from_db()
    assert running.name == "The New Woolpack"
    assert ended.name == "Woolpack"


def test_a_team_withdraws_and_is_reinstated_on_its_seasons_last_night(evening_in_port_of_spain):
    """At 22:00 on the season's last night where the league plays, a team may still withdraw
    (it was refused, "the season has ended", the site's date being the day after), is withdrawn
    on the league's date, and may be reinstated."""
    league = evening_in_port_of_spain
    secretary = UserFactory()
    league.secretaries.add(secretary)
    tonight = league.today()
    entry = _entry(league, ends_on=tonight, team__name="Red Lion")

    team_withdraw(entry=entry, reason="Pub shut", by=secretary)
    entry.refresh_from_db()
    assert entry.is_withdrawn and entry.withdrawn_on == tonight

    team_reinstate(entry=entry, by=secretary)
    entry.refresh_from_db()
    assert not entry.is_withdrawn


def test_a_seasons_end_is_kept_on_the_leagues_date(evening_in_port_of_spain):
    """The night after its last, where the league plays, a season has ended: no withdrawal."""
    league = evening_in_port_of_spain
    secretary = UserFactory()
    league.secretaries.add(secretary)
    entry = _entry(league, ends_on=league.today() - DAY, team__name="Red Lion")
    with pytest.raises(ValidationError, match="has ended; its table is final"):
        team_withdraw(entry=entry, reason="Pub shut", by=secretary)
    entry.refresh_from_db()
    assert not entry.is_withdrawn


def test_a_player_registered_in_the_evening_is_registered_on_the_leagues_date(
    evening_in_port_of_spain,
):
    league = evening_in_port_of_spain
    team = _entry(league, ends_on=league.today() + 90 * DAY).team
    registration = player_register(
        player=PlayerFactory(name="Linda Dyson"), team=team, season=team.entries.get().season
    )
    assert registration.registered_on == league.today()


def test_the_league_file_is_named_by_the_leagues_date(client, evening_in_port_of_spain):
    league = evening_in_port_of_spain
    secretary = UserFactory()
    league.secretaries.add(secretary)
    client.force_login(secretary)
    response = client.get(reverse("leagues:manage_export", args=[league.slug]))
    assert response.status_code == 200
    assert (
        f'filename="{league.slug}-{league.today().isoformat()}.json"'
        in (response["Content-Disposition"])
    )


def _in_port_of_spain(world):
    world.league.time_zone = PORT_OF_SPAIN
    world.league.save(update_fields=["time_zone"])


def test_a_cup_tie_drawn_in_the_evening_is_dated_the_leagues_day(monkeypatch):
    """A team tie with no round date is played from the draw's day where the league plays: on
    its league night that day (in London already the next day)."""
    clock_at(monkeypatch, small_hours_utc())
    world = cup_world(2)
    _in_port_of_spain(world)
    world.league.league_night = world.league.today().weekday()
    world.league.save(update_fields=["league_night"])
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    (final,) = cup.ties.all()
    assert final.fixture.date == world.league.today()


def test_a_cup_group_drawn_on_a_league_night_starts_that_night(monkeypatch):
    """A group drawn at 22:00 on a league night where the league plays has its first round
    that night, not a week later (the site's date being the next day)."""
    clock_at(monkeypatch, small_hours_utc())
    world = cup_world(3)
    _in_port_of_spain(world)
    world.league.league_night = world.league.today().weekday()
    world.league.save(update_fields=["league_night"])
    cup = team_cup(world, format=Competition.Format.GROUPS, groups=1, qualifiers=2)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    nights = sorted(t.fixture.date for t in cup.ties.filter(group__isnull=False))
    assert nights[0] == world.league.today()
