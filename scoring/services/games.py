"""Starting and abandoning a game. One transaction each, each with its audit entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from scoring.actors import SYSTEM, Actor
from scoring.changes import GameChanged
from scoring.models import (
    SIDE_LABELS,
    Game,
    GameStatus,
    HandRevision,
    RevisionAction,
    ScoringLink,
    Side,
)
from scoring.rules import InvalidFacts, Ruleset, score_game
from scoring.services.links import _scoring_link_create
from scoring.services.state import (
    GameMovedOn,
    account_of,
    lock_game,
    refuse_unless_in_progress,
    scores_of,
    sides_of,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    User = AbstractBaseUser


@transaction.atomic
def game_start(
    *,
    ruleset: Ruleset,
    sides: Sequence[tuple[str, Sequence[str]]],
    first_dealer: str = "A",
    start_scores: Mapping[str, int] | None = None,
    title: str = "",
    by: User | None = None,
    scoring_link: ScoringLink | None = None,
    ip: str | None = None,
) -> Game:
    """Start a game: `sides` are (name, players in seat order) in play order, labelled A, B, C.

    The game is scored through `scoring_link` (a fixture table's link) or, without one, through
    a new link of its own. The start is the first entry of the game's audit trail.
    """
    if not 2 <= len(sides) <= len(SIDE_LABELS):
        raise InvalidFacts(None, "sides", f"a game here has 2 or 3 sides (got {len(sides)})")
    labels = list(SIDE_LABELS[: len(sides)])
    scores = {label: 0 for label in labels}
    for label, value in (start_scores or {}).items():
        if label not in scores:
            raise InvalidFacts(None, "scores", f"{label!r} is not a side in this game")
        scores[label] = value
    if first_dealer not in labels:
        raise InvalidFacts(
            None, "dealer", f"the first dealer {first_dealer!r} is not a side in this game"
        )
    # Let the engine refuse a ruleset, side count or start score it cannot play.
    score_game(ruleset=ruleset, sides=labels, hands=[], scores=scores)

    # A league's title or side name (teams, cup entrants, players told apart) may run past its
    # column: it is cut to fit rather than refused mid-tie.
    title = title.strip()[:120]
    if scoring_link is None:
        scoring_link = _scoring_link_create(label=title, by=by)
    game = Game.objects.create(
        title=title,
        ruleset=ruleset.to_spec(),
        variant=ruleset.name,
        first_dealer=first_dealer,
        next_dealer=first_dealer,
        created_by=by,
        scoring_link=scoring_link,
    )
    stored = Side.objects.bulk_create(
        Side(
            game=game,
            label=label,
            name=(name.strip()[:80] or f"Side {label}"),
            players=[player.strip() for player in players if player.strip()],
            position=position,
            start_score=scores[label],
            score=scores[label],
        )
        for position, (label, (name, players)) in enumerate(zip(labels, sides, strict=True))
    )
    HandRevision.objects.create(
        game=game,
        hand_number=None,
        action=RevisionAction.START,
        # The sides as stored (a blank name becomes "Side A", blank players are dropped).
        after={
            "title": game.title,
            "variant": game.variant,
            "first_dealer": first_dealer,
            "sides": [
                {"label": side.label, "name": side.name, "players": list(side.players)}
                for side in stored
            ],
        },
        scores_after=scores,
        by=account_of(by),
        ip=ip or None,
    )
    return game


@transaction.atomic
def _game_players_set(*, game: Game, players: Mapping[str, Sequence[str]]) -> Game:
    """Name the players of a game's sides (``{"A": ["Ann", "Bob"]}``) before its first hand:
    a league table's pair changed after its game was opened. Refused once a hand is recorded
    (the players are then part of what was scored).

    Not a service: a step of ``leagues.services.seating.table_seat``, which checks who may seat
    the pair and audits the change; it checks no permission of its own."""
    game = lock_game(game)
    if game.hands.exists():
        raise InvalidFacts(None, "sides", "a hand has been recorded: the players are set")
    for side in game.sides.all():
        if side.label in players:
            side.players = [name.strip() for name in players[side.label] if name.strip()]
            side.save(update_fields=["players"])
    return game


@transaction.atomic
def game_abandon(
    *,
    game: Game,
    reason: str = "",
    actor: Actor = SYSTEM,
) -> Game:
    """Stop a game in progress for good; its hands and scores are kept as they are. `actor` is
    asked under the game's row lock whether it may score the game; the result roll-up follows."""
    from scoring.services.hands import _allowed, _follow

    game = lock_game(game)
    audit = _allowed(actor, game)
    refuse_unless_in_progress(game)
    scores = scores_of(sides_of(game))
    game.status = GameStatus.ABANDONED
    game.ended_at = timezone.now()
    game.save(update_fields=["status", "ended_at", "updated_at"])
    HandRevision.objects.create(
        game=game,
        hand_number=None,
        action=RevisionAction.ABANDON,
        scores_before=scores,
        scores_after=scores,
        reason=reason.strip(),
        **audit,
    )
    _follow(
        GameChanged(
            game=game,
            was=GameStatus.IN_PROGRESS,
            actor=actor.through(audit["link"]),
            what="the game was abandoned",
        )
    )
    return game


@transaction.atomic
def game_play_again(*, game: Game, actor: Actor = SYSTEM) -> Game:
    """A new game after a won one: the same sides, players and ruleset, on the same scoring link,
    and the deal passing on as the variant says (the engine's next dealer after the last hand).
    Whoever may score the won game may start it (``NotAllowed`` otherwise)."""
    from scoring.services.hands import _allowed

    game = lock_game(game)
    _allowed(actor, game)
    if game.status != GameStatus.WON:
        raise GameMovedOn("Only a finished game can be played again.", game=game)
    sides = sides_of(game)
    return game_start(
        ruleset=game.rules,
        sides=[(side.name, list(side.players)) for side in sides],
        first_dealer=game.next_dealer or game.first_dealer,
        title=game.title,
        by=actor.user,
        scoring_link=game.scoring_link,
        ip=actor.ip,
    )
