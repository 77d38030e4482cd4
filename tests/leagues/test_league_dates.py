"""A league's decisions by date are taken on its own date, where it plays (``League.today``),
not the site's: at 22:00 in Port of Spain (02:00 UTC) the site's date, London's, is already
the next day. The clock is moved (``clock_at``) to such a moment."""

from __future__ import annotations

import datetime

import pytest

from leagues.services.structure import team_update
from tests.factories.leagues import LeagueFactory, TeamEntryFactory
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
