"""The locked read every hand entry starts with, compiled once per connection, gives what
evaluating its queryset gives: the sides in play order, the game with its scoring link and what
other apps attach to it (a league table's game), and the hand count, in one query (on
PostgreSQL sent in one round trip after the statement that locks the game's row)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from scoring.models import Game
from scoring.services.state import _attached, _entry_shape, lock_for_entry
from tests.factories.scoring import GameFactory, play_plain_hands
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


def _values(obj) -> dict[str, object] | None:
    if obj is None:
        return None
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def _seen(side) -> dict[str, object]:
    game = side.game
    attached = {}
    for path in _attached():
        accessor = path.removeprefix("game__")
        attached[accessor] = _values(getattr(game, accessor, None))
    return {
        "side": _values(side),
        "hand_count": side.hand_count,
        "game": _values(game),
        "link": _values(game.scoring_link),
        **attached,
    }


@pytest.mark.parametrize("where", ["league table", "stand-alone"])
def test_the_compiled_read_gives_what_the_queryset_gives(where, django_assert_num_queries):
    if where == "league table":
        game = build(played=True).game()
    else:
        game = GameFactory()
        play_plain_hands(game, 4)
    with transaction.atomic():
        expected = list(_entry_shape(game.pk))
        with django_assert_num_queries(1) as done:
            locked, sides, count = lock_for_entry(game.pk)
        locks = connection.features.has_select_for_update
        assert ("FOR UPDATE" in done.captured_queries[0]["sql"]) is locks
        # Twice on one connection: the second run reuses what the first worked out.
        again = lock_for_entry(game)[1]
    assert [_seen(side) for side in sides] == [_seen(side) for side in expected]
    assert [_seen(side) for side in again] == [_seen(side) for side in expected]
    assert count == game.hands.count() > 0
    assert all(side.game is locked for side in sides)
    assert [side.position for side in sides] == sorted(side.position for side in sides)


def test_a_game_that_does_not_exist_is_refused():
    with transaction.atomic(), pytest.raises(Game.DoesNotExist):
        lock_for_entry(999_999)
