"""The stored league table follows every change to what counts.

A property test: random sequences of the changes a league sees (a result confirmed, taken
back, corrected; a walkover, a void; an adjustment made or withdrawn; a team withdrawn,
expunged or standing, and reinstated; a week passing, which makes a withdrawn team's walkover
due on that night count), each through its service, and after every step the
stored table (what the pages read) equals the table worked out from scratch from the results,
and each result's stored standing (confirmed, expunged: what every list filters on) equals the
one worked out from its submissions and its teams' entries.
Plus the rebuild command and the pages reading the stored table.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import (
    DivisionTable,
    Fixture,
    FixtureResult,
    PointAdjustment,
    TableGame,
    TableRow,
    Withdrawal,
)
from leagues.selectors.counting import STANDING, result_standing
from leagues.selectors.standings import (
    divisions_standings,
    stored_figures,
    worked_out_standings,
)
from leagues.services import confirmation
from leagues.services.adjustments import adjustment_withdraw, points_adjust
from leagues.services.fixtures import fixture_void, fixture_walkover
from leagues.services.withdrawal import settle_due_walkovers, team_reinstate, team_withdraw
from scoring.actors import Actor
from scoring.services import hand_undo
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import entered_teams, start_fixture
from tests.leagues.helpers import win_game as win

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 9, 2)
NAMES = ("Alpha", "Bravo", "Charlie", "Delta")


def table_as_stored(division) -> dict[str, Any]:
    (standings,) = divisions_standings(divisions=[division])
    return _table(standings)


def table_worked_out(division) -> dict[str, Any]:
    (standings,) = worked_out_standings(divisions=[division])
    return _table(standings)


def standing_as_stored(division) -> dict[int, tuple[bool, ...]]:
    return {
        result.fixture_id: tuple(getattr(result, name) for name in STANDING)
        for result in FixtureResult.objects.filter(fixture__division=division)
    }


def standing_worked_out(division) -> dict[int, tuple[bool, ...]]:
    return result_standing(Fixture.objects.filter(division=division))


def _table(standings) -> dict[str, Any]:
    return {
        "rows": [(row.team.name, stored_figures(row)) for row in standings.rows],
        "counted": standings.counted,
        "remaining": sorted(standings.remaining),
        "nights": standings.nights,
        "adjustments": [adjustment.pk for adjustment in standings.adjustments],
    }


def build_world() -> dict[str, Any]:
    """Four teams, a single round of six fixtures: four played to the end (not yet
    confirmed), two to play; head-to-head is a tie-break, so every figure matters."""
    league = LeagueFactory(
        match_format=YORKSHIRE_FORMAT.with_options(tables=1).to_spec(),
        tiebreaks=["points", "head_to_head", "games_for"],
    )
    secretaries = [UserFactory(), UserFactory()]
    league.secretaries.add(*secretaries)
    division = DivisionFactory(season__league=league)
    teams = entered_teams(division, NAMES, players=2)
    fixtures = []
    pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]
    for week, (home, away) in enumerate(pairs):
        fixture = FixtureFactory(
            division=division,
            home=teams[home],
            away=teams[away],
            date=DAY + datetime.timedelta(weeks=week),
        )
        if week < 4:
            (table_game,) = start_fixture(fixture)
            win(table_game.game, "A" if week % 2 else "B", 2 + week)
        fixtures.append(fixture)
    return {
        "division": division,
        "fixtures": fixtures,
        "entries": list(division.entries.order_by("pk")),
        "secretaries": secretaries,
    }


def apply(world: dict[str, Any], step: tuple[str, int, int]) -> None:
    """One change through its service; a change the state refuses (a validation error or a
    permission the service denies) changes nothing, as for a real secretary."""
    kind, i, j = step
    first, second = world["secretaries"]
    fixture = Fixture.objects.get(pk=world["fixtures"][i % len(world["fixtures"])].pk)
    entry = world["entries"][i % len(world["entries"])]
    entry.refresh_from_db()
    if kind == "confirm":
        submission = confirmation.result_submit(fixture=fixture, actor=Actor.of(first))
        confirmation.result_confirm(submission=submission, by=second)
    elif kind == "reopen":
        confirmation.result_reopen(fixture=fixture, reason="A wrong pair", by=first)
    elif kind == "correct":
        table_game = TableGame.objects.filter(table__fixture=fixture).order_by("-number").first()
        last = table_game and table_game.game.hands.order_by("-number").first()
        if last is None:
            raise ValidationError("no hand to undo")
        hand_undo(game=table_game.game, expected_number=last.number, actor=Actor.of(first))
    elif kind == "walkover":
        fixture_walkover(fixture=fixture, to=("home", "away")[j % 2], reason="No team", by=first)
    elif kind == "void":
        fixture_void(fixture=fixture, reason="Unregistered player", by=first)
    elif kind == "adjust":
        points_adjust(entry=entry, points=(j % 5) - 2 or 3, reason="Late card", by=first)
    elif kind == "unadjust":
        adjustment = PointAdjustment.objects.filter(entry__division=world["division"]).first()
        if adjustment is None:
            raise ValidationError("no adjustment to withdraw")
        adjustment_withdraw(adjustment=adjustment, by=first)
    elif kind == "withdraw":
        how = (Withdrawal.EXPUNGE, Withdrawal.STAND)[j % 2]
        team_withdraw(entry=entry, withdrawal=how, reason="The pub closed", by=first)
    elif kind == "reinstate":
        team_reinstate(entry=entry, by=first)
    elif kind == "night":  # a week passes: the walkovers now due count (the settle step)
        world["today"] += datetime.timedelta(weeks=1)
        settle_due_walkovers()


STEPS = st.tuples(
    st.sampled_from(
        (
            "confirm",
            "reopen",
            "correct",
            "walkover",
            "void",
            "adjust",
            "unadjust",
            "withdraw",
            "reinstate",
            "night",
        )
    ),
    st.integers(0, 5),
    st.integers(0, 4),
)


#: Every kind of change at least once, in an order where each one moves the table.
EVERY_CHANGE = [
    ("confirm", 0, 0),
    ("confirm", 1, 0),
    ("correct", 1, 0),
    ("reopen", 0, 0),
    ("confirm", 0, 0),
    ("walkover", 4, 1),
    ("void", 2, 0),
    ("adjust", 3, 0),
    ("unadjust", 0, 0),
    ("withdraw", 1, 0),
    ("reinstate", 1, 0),
    ("withdraw", 2, 1),
    ("reinstate", 2, 0),
    ("withdraw", 1, 1),
    ("night", 0, 0),
    ("night", 0, 0),
    ("reinstate", 1, 0),
]


def test_the_stored_table_equals_the_one_worked_out_after_every_change(monkeypatch):
    world = build_world()
    division = world["division"]
    # "Today" is the night of the fourth fixture: the last two are ahead, so a team withdrawn
    # with its results standing gives them as pending walkovers, and each "night" step moves
    # today on a week and runs the settle step that makes the one now due count.
    world["today"] = DAY + datetime.timedelta(weeks=3)
    monkeypatch.setattr("leagues.services.withdrawal.today_in", lambda zone: world["today"])
    assert table_as_stored(division) == table_worked_out(division)

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.lists(STEPS, min_size=1, max_size=7))
    @example(steps=EVERY_CHANGE)
    def changes(steps: list[tuple[str, int, int]]) -> None:
        world["today"] = DAY + datetime.timedelta(weeks=3)
        with transaction.atomic():
            for step in steps:
                try:
                    with transaction.atomic():
                        apply(world, step)
                except (ValidationError, PermissionDenied):
                    assert steps != EVERY_CHANGE, f"{step} was refused"
                assert table_as_stored(division) == table_worked_out(division), step
                assert standing_as_stored(division) == standing_worked_out(division), step
            transaction.set_rollback(True)

    changes()


def test_a_table_changes_with_a_confirmation_and_the_rebuild_puts_back_a_lost_one():
    world = build_world()
    division = world["division"]
    first, second = world["secretaries"]
    assert [row.played for row in divisions_standings(divisions=[division])[0].rows] == [0] * 4
    submission = confirmation.result_submit(fixture=world["fixtures"][0], actor=Actor.of(first))
    confirmation.result_confirm(submission=submission, by=second)
    stored = table_as_stored(division)
    assert sorted(figures["played"] for _, figures in stored["rows"]) == [0, 0, 1, 1]
    assert stored["counted"] == 1 and len(stored["remaining"]) == 5

    # A table lost or changed behind the services' back comes back from the results.
    TableRow.objects.filter(table__division=division).update(won=0, drawn=0, lost=0, played=0)
    DivisionTable.objects.filter(pk=division.pk).update(counted=0)
    assert table_as_stored(division) != stored
    call_command("rebuild_standings", "--league", division.season.league.slug, stdout=None)
    assert table_as_stored(division) == stored
    DivisionTable.objects.all().delete()
    call_command("rebuild_standings", "--missing", stdout=None)
    assert table_as_stored(division) == stored
    TableRow.objects.filter(table__division=division).update(won=0, drawn=0, lost=0, played=0)
    call_command("rebuild_standings", "--missing", stdout=None)  # it has a table: left alone
    assert table_as_stored(division) != stored


def test_the_rebuild_names_a_league_it_does_not_know():
    with pytest.raises(Exception, match="No league with the slug nowhere"):
        call_command("rebuild_standings", "--league", "nowhere")
