"""The rows a hand writes from SQL built once per connection are the rows the ORM writes: the
same stored values (JSON, UUIDs, foreign keys, nulls), the timestamps the fields set themselves,
the ids set on the objects, one statement however many rows."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

from scoring.models import Award, Game, Hand, HandRevision
from scoring.services.compiled import sent_together
from scoring.services.state import AWARDS, HANDS, REVISIONS, save_game_state
from tests.factories.scoring import GameFactory

pytestmark = pytest.mark.django_db

#: Set by the database or the field itself, so different for two rows written a moment apart.
OWN = {"id", "entry_key", "number", "entered_at", "at", "hand_id"}


def _stored(model, pk) -> dict[str, object]:
    return {k: v for k, v in model.objects.filter(pk=pk).values().get().items() if k not in OWN}


def _hand(game: Game, number: int) -> Hand:
    return Hand(
        game=game,
        number=number,
        facts={"dealer": "A", "turn_ups": ["JH"], "high": "A", "penalties": []},
        entry_key=uuid.uuid4(),
        dealer="A",
        trump="H",
        all_fours="",
        scores={"A": 7, "B": 2},
    )


def _awards(hand: Hand) -> list[Award]:
    return [
        Award(
            game=hand.game,
            hand=hand,
            position=position,
            side=side,
            category=category,
            points=points,
            detail="J♥" if category == "kick" else "",
            counted=category != "low",
        )
        for position, (side, category, points) in enumerate(
            [("A", "kick", 3), ("A", "high", 1), ("B", "low", 1)]
        )
    ]


def test_a_hand_its_awards_and_its_audit_entry_are_stored_as_the_orm_stores_them(
    django_assert_num_queries,
):
    game = GameFactory()
    by_orm = _hand(game, 1)
    by_orm.save()
    compiled = _hand(game, 2)
    with django_assert_num_queries(1):
        HANDS.insert([compiled])
    assert compiled.pk is not None and not compiled._state.adding
    assert _stored(Hand, compiled.pk) == _stored(Hand, by_orm.pk)
    entered = Hand.objects.get(pk=compiled.pk).entered_at
    assert abs(timezone.now() - entered) < datetime.timedelta(minutes=1)

    orm_awards = Award.objects.bulk_create(_awards(by_orm))
    compiled_awards = _awards(compiled)
    with django_assert_num_queries(1):
        AWARDS.insert(compiled_awards)
    assert [a.pk for a in compiled_awards] == sorted(a.pk for a in compiled_awards)
    assert [_stored(Award, a.pk) for a in compiled_awards] == [
        _stored(Award, a.pk) for a in orm_awards
    ]

    revision = {
        "game": game,
        "hand_number": 2,
        "action": "record",
        "before": None,
        "after": {"dealer": "A", "high": "A"},
        "scores_before": {"A": 0, "B": 0},
        "scores_after": {"A": 7, "B": 2},
        "ip": "203.0.113.9",
    }
    orm_revision = HandRevision.objects.create(**revision, entry_key=uuid.uuid4())
    compiled_revision = HandRevision(**revision, entry_key=uuid.uuid4())
    REVISIONS.insert([compiled_revision])
    assert _stored(HandRevision, compiled_revision.pk) == _stored(HandRevision, orm_revision.pk)
    stored = HandRevision.objects.get(pk=compiled_revision.pk)
    assert stored.before is None and stored.entry_key == compiled_revision.entry_key


def test_nothing_to_insert_runs_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        AWARDS.insert([])


def test_the_game_state_is_stored_as_save_stores_it(django_assert_num_queries):
    game = GameFactory()
    before = Game.objects.get(pk=game.pk).updated_at
    game.next_dealer = "B"
    game.status = "won"
    game.winner = "B"
    game.decided_hand = 7
    game.decided_category = "game"
    game.ended_at = timezone.now()
    game.title = "not a state field: not written"
    with django_assert_num_queries(1):
        save_game_state(game)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.next_dealer, stored.status, stored.winner) == ("B", "won", "B")
    assert (stored.decided_hand, stored.decided_category) == (7, "game")
    assert stored.ended_at == game.ended_at
    assert stored.updated_at > before
    assert stored.title != game.title


def test_writes_sent_together_are_one_round_trip_on_postgresql_with_their_ids_set(
    django_assert_num_queries,
):
    """Inside ``sent_together`` the writes wait for the end of the block and go in one round
    trip on PostgreSQL (each when made elsewhere), in order, each new row's id set as before."""
    game = GameFactory()
    hand = _hand(game, 1)
    HANDS.insert([hand])
    awards = _awards(hand)
    revision = HandRevision(game=game, hand_number=1, action="record", entry_key=uuid.uuid4())
    together = connection.vendor == "postgresql"
    with django_assert_num_queries(1 if together else 3), sent_together():
        AWARDS.insert(awards)
        save_game_state(game)
        REVISIONS.insert([revision])
        assert (revision.pk is None) is together
    assert [a.pk for a in awards] == list(
        Award.objects.filter(hand=hand).order_by("position").values_list("pk", flat=True)
    )
    assert HandRevision.objects.filter(pk=revision.pk).exists()


def test_a_write_refused_in_a_block_sent_together_is_raised_as_the_block_ends():
    game = GameFactory()
    taken = HandRevision(game=game, hand_number=1, action="record", entry_key=uuid.uuid4())
    REVISIONS.insert([taken])
    again = HandRevision(game=game, hand_number=2, action="record", entry_key=taken.entry_key)
    with pytest.raises(IntegrityError), transaction.atomic(), sent_together():
        REVISIONS.insert([again])
    assert again.pk is None


def test_a_hands_awards_sent_with_it_take_its_id(django_assert_num_queries):
    """A hand and its awards inserted in one block: one round trip on PostgreSQL, where the
    awards take the id the database has just given the hand (another hand stored before in
    the same transaction does not stand in for it); each sent as made elsewhere. Either way
    every id is set on the objects and the awards belong to their hand."""
    game = GameFactory()
    together = connection.vendor == "postgresql"
    with transaction.atomic():
        before = _hand(game, 1)
        HANDS.insert([before])
        hand = _hand(game, 2)
        with django_assert_num_queries(1 if together else 2), sent_together():
            HANDS.insert([hand])
            awards = _awards(hand)
            AWARDS.insert(awards, after="hand")
            assert (hand.pk is None) is together
    assert hand.pk is not None and hand.pk != before.pk
    assert [award.hand_id for award in awards] == [hand.pk] * 3
    assert [a.pk for a in awards] == list(
        Award.objects.filter(hand=hand).order_by("position").values_list("pk", flat=True)
    )
    assert not Award.objects.filter(hand=before).exists()


def test_each_statement_is_built_once_per_connection():
    wrapper = connections["default"]
    hand = Award._meta.get_field("hand")
    for rows, follows in ((1, None), (3, None), (3, hand)):
        first = AWARDS._statement(wrapper, rows, follows)
        assert AWARDS._statement(wrapper, rows, follows) is first
