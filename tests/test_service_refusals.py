"""A service whose writes go through a step that checks no permission itself (a scoring link
made, revoked, re-issued, closed or reopened; a game's players named; the result roll-up and a
cup tie's games, handed the ``Actor``) refuses an account without permission and writes
nothing: every row those steps touch reads as before. The steps are no service: the scoring
services export none of them, and every public function of the modules that hold them is in
this table (or open to everyone, as starting a game is)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

import scoring.services
from cups.models import Tie, TieGame, TieResult
from cups.services.confirmation import tie_result_reopen
from cups.services.draws import draw_make
from cups.services.ties import tie_reverse
from leagues.models import AuditEntry, FixtureResult, FixtureTable, ResultSubmission
from leagues.services import cards, confirmation, results, seating
from scoring.actors import Actor
from scoring.models import Game, HandRevision, ScoringLink, Side
from scoring.services import (
    NotAllowed,
    game_abandon,
    game_link_reissue,
    game_link_revoke,
    game_play_again,
)
from scoring.services import games as game_steps
from scoring.services import links as link_steps
from tests.cups.helpers import cup_world, current, pairs_cup, play_race
from tests.leagues.test_access import World, fresh, played_world  # noqa: F401
from tests.worlds import world_per_module

pytestmark = pytest.mark.django_db

#: What the steps write, row by row.
WRITTEN = (
    ScoringLink,
    Game,
    Side,
    HandRevision,
    FixtureTable,
    FixtureResult,
    ResultSubmission,
    AuditEntry,
    Tie,
    TieGame,
    TieResult,
)


def rows() -> dict[str, list[dict[str, Any]]]:
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in WRITTEN}


# --- a league fixture, played and not yet submitted ------------------------------------------

Act = Callable[[Any], Any]


def _submitted(w: World) -> Act:
    submission = confirmation.result_submit(
        fixture=w.fixture, actor=Actor.of(w.users["home_captain"])
    )
    return lambda by: confirmation.result_confirm(submission=submission, by=by)


def _confirmed(w: World) -> Act:
    submission = confirmation.result_submit(
        fixture=w.fixture, actor=Actor.of(w.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=w.users["away_captain"])
    return lambda by: confirmation.result_reopen(fixture=w.fixture, reason="wrong", by=by)


#: Each service, prepared on the played league: what it is called with.
LEAGUE: dict[str, Callable[[World], Act]] = {
    "result_submit": lambda w: (
        lambda by: confirmation.result_submit(fixture=w.fixture, actor=Actor.of(by))
    ),
    "result_confirm (closes the links)": _submitted,
    "result_reopen (reopens the links)": _confirmed,
    "table_link_reissue": lambda w: lambda by: results.table_link_reissue(table=w.table, by=by),
    "table_link_revoke": lambda w: lambda by: results.table_link_revoke(table=w.table, by=by),
    "fixture_tables_set": lambda w: (
        lambda by: results.fixture_tables_set(
            fixture=w.fixture, pairs=[(w.table.home_pair, w.table.away_pair)], by=by
        )
    ),
    "table_seat (names the game's players)": lambda w: (
        lambda by: seating.table_seat(
            fixture=w.fixture, board=1, home=w.table.home_pair[::-1], by=by
        )
    ),
    "fixture_card_enter": lambda w: (
        lambda by: cards.fixture_card_enter(fixture=w.fixture, tables=[], by=by)
    ),
    "game_link_reissue": lambda w: lambda by: game_link_reissue(game=w.game(), by=by),
    "game_link_revoke": lambda w: lambda by: game_link_revoke(game=w.game(), by=by),
    "game_abandon (rolls the fixture up)": lambda w: (
        lambda by: game_abandon(game=w.game(), actor=Actor.of(by))
    ),
    "game_play_again": lambda w: lambda by: game_play_again(game=w.game(), actor=Actor.of(by)),
}


@pytest.mark.parametrize("service", sorted(LEAGUE))
@pytest.mark.parametrize("role", ["stranger", "other_captain", "other_secretary"])
def test_a_league_service_refuses_an_account_without_permission(played_world, service, role):  # noqa: F811
    world = fresh(played_world)
    act = LEAGUE[service](world)
    before = rows()
    with pytest.raises((PermissionDenied, NotAllowed)):
        act(world.users[role])
    assert rows() == before


# --- a cup race tie: its first game under way, or decided and counted ------------------------


def build_tie(decided: bool) -> tuple[Any, int]:
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get(round__number=1)
    if decided:
        play_race(tie, "AA")
    return world, tie.pk


tie_under_way = world_per_module(lambda _: build_tie(False))
tie_decided = world_per_module(lambda _: build_tie(True))

#: Each service, with the tie it is called on: what it is called with.
CUP: dict[str, tuple[str, Callable[[Tie], Act]]] = {
    "tie_reverse (revokes the tie's link)": (
        "tie_decided",
        lambda tie: lambda by: tie_reverse(tie=tie, reason="wrong pair", by=by),
    ),
    "tie_result_reopen (reopens the tie's link)": (
        "tie_decided",
        lambda tie: lambda by: tie_result_reopen(tie=tie, reason="wrong pair", by=by),
    ),
    "game_abandon (moves the tie on)": (
        "tie_under_way",
        lambda tie: lambda by: game_abandon(game=current(tie), actor=Actor.of(by)),
    ),
}


@pytest.mark.parametrize("service", sorted(CUP))
@pytest.mark.parametrize("role", ["stranger", "home_captain", "other_secretary"])
def test_a_cup_service_refuses_an_account_without_permission(
    tie_under_way, tie_decided, service, role
):
    state, prepare = CUP[service]
    world, pk = {"tie_under_way": tie_under_way, "tie_decided": tie_decided}[state]
    act = prepare(Tie.objects.get(pk=pk))
    before = rows()
    with pytest.raises((PermissionDenied, NotAllowed)):
        act(world.users[role])
    assert rows() == before


def test_a_permitted_account_gets_through_where_the_others_were_refused(played_world):  # noqa: F811
    """The refusals above are the permission's: the same calls by the league's secretary write."""
    world = fresh(played_world)
    secretary = world.users["secretary"]
    LEAGUE["result_submit"](world)(secretary)
    LEAGUE["table_link_revoke"](world)(secretary)
    link = ScoringLink.objects.get(pk=world.table.scoring_link_id)
    assert ResultSubmission.objects.filter(fixture=world.fixture).exists()
    assert link.revoked_at is not None


# --- the steps are no service ----------------------------------------------------------------

#: The public functions of the steps' modules that ask no permission: anyone starts a game.
OPEN_TO_ALL = {"game_start"}


def test_the_steps_are_not_exported_and_every_public_function_beside_them_is_refused():
    covered = {name.split(" ")[0] for name in (*LEAGUE, *CUP)}
    for module in (link_steps, game_steps):
        public = {
            name
            for name, value in vars(module).items()
            if inspect.isfunction(value)
            and value.__module__ == module.__name__
            and not name.startswith("_")
        }
        assert public <= covered | OPEN_TO_ALL, (module.__name__, public - covered)
    steps = {name for name in vars(link_steps) if name.startswith("_scoring_link_")}
    steps.add("_game_players_set")
    assert steps.isdisjoint(scoring.services.__all__)
    assert not {name.lstrip("_") for name in steps} & set(dir(scoring.services))
