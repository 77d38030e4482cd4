"""Permission lives in the services: every secretary's write refuses an account that is not one
of the league's secretaries (a captain, a stranger, another league's secretary), changes nothing,
and lets the league's secretary and the system (no account: a command, the demo) through."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from leagues.models import AuditEntry, TeamEntry
from leagues.services import (
    adjustments,
    fixtures,
    registrations,
    results,
    seasons,
    structure,
    withdrawal,
)
from tests.factories.leagues import FixtureFactory
from tests.leagues.test_access import fresh, played_world, started_world  # noqa: F401

pytestmark = pytest.mark.django_db


def _entry(world):
    return TeamEntry.objects.get(team=world.fixture.home, season=world.fixture.division.season)


#: Each write a secretary makes, with what it is called on (a world read afresh).
WRITES = {
    "league_update_tiebreaks": lambda w, by: structure.league_set_tiebreaks(
        league=w.league, tiebreaks=["points"], by=by
    ),
    "division_create": lambda w, by: structure.division_create(
        season=w.fixture.division.season, name="Second", rank=2, by=by
    ),
    "division_update": lambda w, by: structure.division_update(
        division=w.fixture.division, name="Renamed", rank=1, by=by
    ),
    "entry_set_contact": lambda w, by: structure.entry_set_contact(
        entry=_entry(w), contact="07700 900000", by=by
    ),
    "fixture_add": lambda w, by: fixtures.fixture_add(
        division=w.fixture.division,
        home=w.fixture.away,
        away=w.fixture.home,
        date=datetime.date(2026, 3, 3),
        by=by,
    ),
    "fixture_postpone": lambda w, by: fixtures.fixture_postpone(
        fixture=w.fixture, reason="snow", by=by
    ),
    "fixture_walkover": lambda w, by: fixtures.fixture_walkover(
        fixture=w.fixture, to="home", reason="no team", by=by
    ),
    "fixture_void": lambda w, by: fixtures.fixture_void(fixture=w.fixture, reason="x", by=by),
    "points_adjust": lambda w, by: adjustments.points_adjust(
        entry=_entry(w), points=-2, reason="late", by=by
    ),
    "player_register": lambda w, by: registrations.player_register(
        name="New Player", team=w.fixture.home, season=w.fixture.division.season, by=by
    ),
    "team_withdraw": lambda w, by: withdrawal.team_withdraw(
        entry=_entry(w), reason="folded", by=by
    ),
    "season_start_next": lambda w, by: seasons.season_start_next(
        season=w.fixture.division.season,
        name="Next",
        starts_on=datetime.date(2027, 9, 1),
        placements={},
        carry_squads=False,
        by=by,
    ),
    "table_link_reissue": lambda w, by: results.table_link_reissue(table=w.table, by=by),
    "table_restart": lambda w, by: results.table_restart(table=w.table, by=by),
}


@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("role", ["home_captain", "stranger", "other_secretary"])
def test_a_secretary_s_write_refuses_everyone_else(started_world, write, role):  # noqa: F811
    world = fresh(started_world)
    entries = AuditEntry.objects.count()
    with pytest.raises(PermissionDenied, match="secretaries"):
        WRITES[write](world, world.users[role])
    assert AuditEntry.objects.count() == entries


def test_the_secretary_and_the_system_get_through(started_world):  # noqa: F811
    world = fresh(started_world)
    # A meeting of the same teams not begun (a begun one is not postponed).
    later = FixtureFactory(
        division=world.fixture.division, home=world.fixture.home, away=world.fixture.away
    )
    assert (
        fixtures.fixture_postpone(fixture=later, reason="snow", by=world.users["secretary"]).status
        == "postponed"
    )
    assert (
        structure.division_update(
            division=world.fixture.division, name="Premier", rank=1, by=None
        ).name
        == "Premier"
    )
