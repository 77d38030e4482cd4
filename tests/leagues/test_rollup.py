"""The roll-up says what it changed: the result stored and whether its figures moved, the
standings refreshed, the audit entries (and so the notices) the agreement step wrote."""

from __future__ import annotations

import dataclasses

import pytest
from django.db.models import F

from leagues.models import FixtureResult, ResultSubmission
from leagues.services import confirmation
from leagues.services.rollup import FixtureChanged, RolledUp, roll_up
from scoring.actors import Actor
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


def test_a_fixture_in_play_that_nothing_moved_changes_nothing():
    world = build(played=False)
    # The first roll-up stores the result as the tables stand (0-0, not final); the second
    # finds nothing to move.
    assert roll_up(FixtureChanged(fixture=world.fixture)).result_changed is True
    rolled = roll_up(FixtureChanged(fixture=world.fixture))
    assert isinstance(rolled, RolledUp)
    assert rolled.fixture == world.fixture
    assert rolled.result_changed is False
    assert rolled.next_game is None
    assert rolled.tie_changed is False
    assert rolled.standings_refreshed is False
    assert rolled.entries_logged == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        rolled.result_changed = True  # type: ignore[misc]


def test_a_played_fixture_refreshes_the_standings_and_an_agreement_step_recounts_nothing():
    world = build(played=True)
    rolled = roll_up(FixtureChanged(fixture=world.fixture))
    assert rolled.result is not None and rolled.result.is_final
    assert rolled.result_changed is False
    assert rolled.standings_refreshed is True
    agreed = roll_up(FixtureChanged(fixture=world.fixture, recount=False))
    assert agreed.result_changed is False and agreed.standings_refreshed is True


def test_figures_that_moved_withdraw_the_open_submission_and_say_so():
    world = build(played=True)
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    # The stored result no longer what the games give (as after a correction at the table).
    FixtureResult.objects.filter(fixture=world.fixture).update(home_pegs=F("home_pegs") + 1)
    rolled = roll_up(
        FixtureChanged(fixture=world.fixture, actor=Actor.of(world.users["secretary"]))
    )
    assert rolled.result_changed is True
    assert rolled.entries_logged == 1
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.WITHDRAWN
