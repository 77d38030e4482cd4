"""The locked read every hand entry starts with, compiled once per connection, gives what
evaluating its queryset gives: the sides in play order, the game with its scoring link and what
other apps attach to it (a league table's game), and the hand count, in one query (on
PostgreSQL after the statement that locks the game's row: each prepared where the connection
prepares its statements, else both sent in one round trip)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from scoring.models import Game
from scoring.services.compiled import _prepares
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
        locks = connection.features.has_select_for_update
        # The lock and the read: one query, or two where psycopg prepares them (PostgreSQL as
        # configured by default), the lock first.
        with django_assert_num_queries(1 + (locks and _prepares(connection))) as done:
            locked, sides, count = lock_for_entry(game.pk)
        assert ("FOR UPDATE" in done.captured_queries[0]["sql"]) is locks
        assert "FOR UPDATE" not in done.captured_queries[-1]["sql"] or not _prepares(connection)
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


@pytest.mark.skipif(
    connection.vendor != "postgresql" or not _prepares(connection),
    reason="psycopg prepares statements on PostgreSQL (server-side binding)",
)
def test_the_locked_read_is_planned_once_a_connection_on_postgresql():
    """The lock and the read are each prepared on the database session by the second time it
    runs them, so PostgreSQL does not plan the read again on every hand."""
    game = GameFactory()
    with transaction.atomic():
        for _ in range(3):
            lock_for_entry(game.pk)
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE" in sql for sql in prepared)
    assert any('AS "hand_count"' in sql for sql in prepared)


def test_compiled_rows_given_an_instant_give_what_the_queryset_gives():
    """An instant (an aware ``datetime``) is a value a compiled read can be given, as an id or
    a date is: on SQLite it goes as the text the connection writes (in its zone, without the
    offset), on PostgreSQL as itself, and each run gives what the queryset gives for it."""
    import datetime

    from django.utils import timezone

    from scoring.services.compiled import CompiledRows

    games = [GameFactory() for _ in range(3)]
    instants = sorted(game.updated_at for game in games)
    read = CompiledRows(
        lambda since: Game.objects.filter(updated_at__gte=since).order_by("pk").values_list("pk"),
        kinds=(datetime.datetime,),
    )
    elsewhere = datetime.timezone(datetime.timedelta(hours=-4))
    for since in (
        *instants,
        instants[0] - datetime.timedelta(days=1),
        instants[-1] + datetime.timedelta(microseconds=1),
        timezone.localtime(instants[1], elsewhere),  # the same instant, told in another zone
    ):
        expected = list(Game.objects.filter(updated_at__gte=since).order_by("pk").values_list("pk"))
        assert read.rows(since) == expected, since
