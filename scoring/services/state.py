"""What every write to a game shares: the row lock, the engine run over the stored facts, storing
what the engine derived, the one-time form keys, and `GameMovedOn` for a form that is out of date.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from config.queries import count_of
from scoring.models import Award, Game, GameStatus, Hand, HandRevision, Side
from scoring.rules import GameScore
from scoring.services.compiled import CompiledRead, CompiledWrite, execute

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    User = AbstractBaseUser


class GameMovedOn(Exception):
    """The form was filled in against a state of the game that is no longer current.

    Another phone recorded, corrected or undid a hand, or the game was won or abandoned, after the
    form was rendered. Nothing was saved; show the message and the game as it is now.
    """

    def __init__(self, message: str, *, game: Game | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game = game


# --- helpers ---------------------------------------------------------------------------------


def lock_game(game: Game | int) -> Game:
    """The game, its row locked until the transaction ends: every write starts here."""
    pk = game if isinstance(game, int) else game.pk
    return Game.objects.select_for_update().get(pk=pk)


def sides_of(game: Game) -> list[Side]:
    return list(Side.objects.filter(game=game).order_by("position"))


def scores_of(sides: Sequence[Side]) -> dict[str, int]:
    return {side.label: side.score for side in sides}


def store_scores(sides: Sequence[Side], result: GameScore) -> None:
    """The sides' scores as the engine left them: only those that changed are written."""
    changed = [side for side in sides if side.score != result.scores[side.label]]
    for side in changed:
        side.score = result.scores[side.label]
    save_scores(changed)


def save_scores(sides: Sequence[Side]) -> None:
    """Write these sides' scores, in one statement. (The ORM's `bulk_update` builds the same
    CASE statement at about fifteen times the cost of running it, on every hand.)"""
    if not sides:
        return
    quote = connection.ops.quote_name
    meta = Side._meta
    pk, score = quote(meta.pk.column), quote(meta.get_field("score").column)
    cases = " ".join("WHEN %s THEN %s" for _ in sides)
    ids = ", ".join("%s" for _ in sides)
    sql = f"UPDATE {quote(meta.db_table)} SET {score} = CASE {pk} {cases} END WHERE {pk} IN ({ids})"
    params = [value for side in sides for value in (side.pk, side.score)]
    execute(connection, sql, [*params, *(side.pk for side in sides)])


def already_done(entry_key: uuid.UUID, game: Game, action: str) -> HandRevision | None:
    """The revision an earlier submission of the same form made, if any."""
    revision = HandRevision.objects.filter(entry_key=entry_key).first()
    if revision is None:
        return None
    if revision.game_id != game.pk or revision.action != action:
        # A key is minted per rendered form; reusing it elsewhere is a forged or broken form.
        raise GameMovedOn(
            "This form was already used for something else. Nothing was saved: "
            "here is the game as it is now.",
            game=game,
        )
    return revision


def refuse_unless_in_progress(game: Game) -> None:
    if game.status == GameStatus.WON:
        raise GameMovedOn(
            f"The game is already won (on hand {game.decided_hand}), so no more hands can be "
            "recorded. Nothing was saved.",
            game=game,
        )
    if game.status == GameStatus.ABANDONED:
        raise GameMovedOn(
            "The game was abandoned, so it can no longer be changed. Nothing was saved.",
            game=game,
        )


def account_of(by: User | None) -> User | None:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


class NotAllowed(Exception):
    """Whoever sent the form may not change this game (checked under the game's row lock)."""

    def __init__(self, game: Game) -> None:
        super().__init__("You may not change this game.")
        self.game = game


def _attached() -> list[str]:
    """The rows other apps attach to a game one-to-one (a league table's game, a cup tie's
    game), read with the locked game so that the apps' receivers need no query of their own to
    learn whether the game is theirs."""
    return [
        f"game__{relation.get_accessor_name()}"
        for relation in Game._meta.related_objects
        if relation.one_to_one
    ]


def lock_for_entry(game: Game | int) -> tuple[Game, list[Side], int]:
    """The game (with its scoring link and what other apps attach to it), its sides in play order
    and how many hands it has, its row locked until the transaction ends.

    One query on SQLite; two on PostgreSQL, sent in one round trip, where the game's row is
    locked first and read after (`config.locks` says why): a read that waited for the lock would
    see the sides' scores and the hand count as they were before, so a second tap on Record
    would count the hands without the first tap's, and a hand entered during a correction would
    start from the old scores.

    Given a copy of the game read before (`game` a `Game`), only its ruleset (fixed once a game
    starts), as that copy already worked it out, is kept: everything else is read afresh."""
    pk = game if isinstance(game, int) else game.pk
    rows = _entry_rows.rows(pk)
    if not rows:
        raise Game.DoesNotExist(f"no game {pk}")
    locked = rows[0].game  # every side's (the read's one parent)
    if isinstance(game, Game) and "rules" in game.__dict__ and game.ruleset == locked.ruleset:
        # The ruleset the caller's copy of the game already worked out from the same spec (the
        # view's, to read the hand form against): not worked out again.
        locked.__dict__["rules"] = game.__dict__["rules"]
    return locked, rows, int(rows[0].hand_count)  # type: ignore[attr-defined]


def _entry_shape(pk: int) -> QuerySet[Side]:
    """The read of every hand entry: a game's sides, with the game, its scoring link, what
    other apps attach to it and its hand count."""
    return (
        Side.objects.select_related("game", "game__scoring_link", *_attached())
        .annotate(hand_count=Coalesce(count_of(Hand.objects.all(), field="game", outer="game"), 0))
        .filter(game_id=pk)
        .order_by("position")
    )


#: Built once per connection (building it costs about ten times running it).
_entry_rows = CompiledRead(_entry_shape, locking=Game, one_parent=True)


def store_game_state(game: Game, result: GameScore) -> None:
    """The game's next dealer and, from the engine's result, whether (and how) it is won."""
    game.next_dealer = result.next_dealer or game.first_dealer
    if result.winner is not None and result.decided_by is not None:
        if game.status != GameStatus.WON:
            game.ended_at = timezone.now()
        game.status = GameStatus.WON
        game.winner = result.winner
        game.decided_hand = result.decided_by.hand
        game.decided_category = str(result.decided_by.category)
    else:
        _reopen(game)
    save_game_state(game)


def _reopen(game: Game) -> None:
    game.status = GameStatus.IN_PROGRESS
    game.winner = ""
    game.decided_hand = None
    game.decided_category = ""
    game.ended_at = None


def store_game_reopened(game: Game, *, next_dealer: str) -> None:
    """The game back in progress (its winning hand undone), with who deals next."""
    game.next_dealer = next_dealer
    _reopen(game)
    save_game_state(game)


def save_game_state(game: Game) -> None:
    _GAME_STATE.update(game)


_GAME_STATE = CompiledWrite(
    Game,
    update_fields=[
        "next_dealer",
        "status",
        "winner",
        "decided_hand",
        "decided_category",
        "ended_at",
        "updated_at",
    ],
)
#: The rows a hand writes: `insert` them as `bulk_create` would (services/compiled.py).
HANDS = CompiledWrite(Hand)
AWARDS = CompiledWrite(Award)
REVISIONS = CompiledWrite(HandRevision)
