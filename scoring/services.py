"""Every write to a scored game: start, record, correct, undo, abandon. One transaction each.

Each service locks the game row, runs the rules engine over the game's stored facts (cheap: a
game has a few dozen hands), stores what the engine derived, writes the audit trail and sends
`game_changed`. Reading a game never runs the engine.

Two safeguards make a hand impossible to lose or double:

- the one-time `entry_key` every form carries: a resubmitted form (double tap, retry after a
  dropped connection) finds the write it already made and returns its result again;
- `expected_number` (and for corrections `expected_revision`): a form rendered before another
  phone changed the game is refused with `GameMovedOn`, never applied over the newer state.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from scoring.models import (
    SIDE_LABELS,
    Award,
    Game,
    GameStatus,
    Hand,
    HandRevision,
    RevisionAction,
    ScoringLink,
    Side,
)
from scoring.rules import GameScore, InvalidFacts, Ruleset, score_game
from scoring.signals import game_changed, scoring_link_reissued

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    User = AbstractBaseUser

__all__ = [
    "GameMovedOn",
    "InvalidFacts",
    "game_abandon",
    "game_link_reissue",
    "game_link_revoke",
    "game_start",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "scoring_link_close",
    "scoring_link_create",
    "scoring_link_reissue",
    "scoring_link_reopen",
    "scoring_link_revoke",
]


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


def _lock(game: Game | int) -> Game:
    pk = game if isinstance(game, int) else game.pk
    return Game.objects.select_for_update().get(pk=pk)


def _sides(game: Game) -> list[Side]:
    return list(Side.objects.filter(game=game).order_by("position"))


def _hands(game: Game) -> list[Hand]:
    return list(Hand.objects.filter(game=game).order_by("number"))


def _score(game: Game, sides: Sequence[Side], facts: Sequence[Mapping[str, Any]]) -> GameScore:
    return score_game(
        ruleset=game.rules,
        sides=[side.label for side in sides],
        hands=[dict(f) for f in facts],
        scores={side.label: side.start_score for side in sides},
    )


def _scores(sides: Sequence[Side]) -> dict[str, int]:
    return {side.label: side.score for side in sides}


def _store(
    game: Game, sides: Sequence[Side], hands: Sequence[Hand], result: GameScore, *, start: int
) -> None:
    """Write what the engine derived: hands numbered `start` and later get fresh awards."""
    changed = [hand for hand in hands if hand.number >= start]
    Award.objects.filter(game=game, hand__number__gte=start).delete()
    awards: list[Award] = []
    for hand in changed:
        scored = result.hands[hand.number - 1]
        hand.dealer = scored.dealer
        hand.trump = scored.trump or ""
        hand.outcome = scored.outcome
        hand.all_fours = scored.all_fours or ""
        hand.scores = dict(scored.scores)
        awards.extend(
            Award(
                game=game,
                hand=hand,
                position=position,
                side=award.side,
                category=str(award.category),
                points=award.points,
                detail=award.detail or "",
                counted=award.counted,
            )
            for position, award in enumerate(scored.awards)
        )
    if changed:
        Hand.objects.bulk_update(changed, ["dealer", "trump", "outcome", "all_fours", "scores"])
    Award.objects.bulk_create(awards)

    for side in sides:
        side.score = result.scores[side.label]
    Side.objects.bulk_update(sides, ["score"])

    game.next_dealer = result.next_dealer or game.first_dealer
    if result.winner is not None and result.decided_by is not None:
        if game.status != GameStatus.WON:
            game.ended_at = timezone.now()
        game.status = GameStatus.WON
        game.winner = result.winner
        game.decided_hand = result.decided_by.hand
        game.decided_category = str(result.decided_by.category)
    else:
        game.status = GameStatus.IN_PROGRESS
        game.winner = ""
        game.decided_hand = None
        game.decided_category = ""
        game.ended_at = None
    game.save(
        update_fields=[
            "next_dealer",
            "status",
            "winner",
            "decided_hand",
            "decided_category",
            "ended_at",
            "updated_at",
        ]
    )


def _already_done(entry_key: uuid.UUID, game: Game, action: str) -> HandRevision | None:
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


def _refuse_unless_in_progress(game: Game) -> None:
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


# --- services --------------------------------------------------------------------------------


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

    if scoring_link is None:
        scoring_link = scoring_link_create(label=title.strip(), by=by)
    game = Game.objects.create(
        title=title.strip(),
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
            name=(name.strip() or f"Side {label}"),
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
        by=_account(by),
        ip=ip or None,
    )
    game_changed.send(sender=Game, game=game)
    return game


@transaction.atomic
def hand_record(
    *,
    game: Game,
    facts: Mapping[str, Any],
    entry_key: uuid.UUID,
    expected_number: int,
    by: User | None = None,
    link: ScoringLink | None = None,
    ip: str | None = None,
) -> Hand:
    """Record the next hand. A resubmitted form (same `entry_key`) returns the hand it recorded."""
    game = _lock(game)
    done = _already_done(entry_key, game, RevisionAction.RECORD)
    if done is not None:
        hand = Hand.objects.filter(entry_key=entry_key).select_related("game").first()
        if hand is None:
            raise GameMovedOn(
                f"Hand {done.hand_number} from this form was recorded and has since been undone. "
                "Nothing was saved: here is the game as it is now.",
                game=game,
            )
        return hand
    _refuse_unless_in_progress(game)
    hands = _hands(game)
    if expected_number != len(hands) + 1:
        raise GameMovedOn(
            f"This form was for hand {expected_number}, but the game has moved on: "
            f"{len(hands)} hand{'s' if len(hands) != 1 else ''} recorded now. Nothing was "
            "saved; check the score sheet and enter the hand again if it is still missing.",
            game=game,
        )
    sides = _sides(game)
    facts = dict(facts)
    result = _score(game, sides, [hand.facts for hand in hands] + [facts])
    scores_before = _scores(sides)

    hand = Hand.objects.create(
        game=game,
        number=expected_number,
        facts=facts,
        dealer=str(facts.get("dealer", "")),
        entry_key=entry_key,
        entered_by=by,
    )
    _store(game, sides, [*hands, hand], result, start=hand.number)
    HandRevision.objects.create(
        game=game,
        hand_number=hand.number,
        action=RevisionAction.RECORD,
        before=None,
        after=facts,
        scores_before=scores_before,
        scores_after=_scores(sides),
        by=by,
        link=link,
        ip=ip or None,
        entry_key=entry_key,
    )
    game_changed.send(sender=Game, game=game)
    return hand


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    facts: Mapping[str, Any],
    entry_key: uuid.UUID,
    by: User | None = None,
    reason: str = "",
    expected_revision: int | None = None,
    link: ScoringLink | None = None,
    ip: str | None = None,
) -> Hand:
    """Replace a hand's facts and re-score the game from its facts.

    The correction may change the winner, or un-win the game. It is refused (`InvalidFacts`) when
    it would end the game before hands that follow it. `expected_revision` (the hand's `revision`
    when the form was rendered) refuses a correction made against facts another phone has since
    changed.
    """
    game = _lock(hand.game_id)
    done = _already_done(entry_key, game, RevisionAction.CORRECT)
    if done is not None:
        again = Hand.objects.filter(game=game, number=done.hand_number).first()
        if again is None:
            raise GameMovedOn(
                f"Hand {done.hand_number} was corrected and has since been undone. Nothing was "
                "saved: here is the game as it is now.",
                game=game,
            )
        return again
    if game.status == GameStatus.ABANDONED:
        _refuse_unless_in_progress(game)
    hands = _hands(game)
    current = next((h for h in hands if h.number == hand.number), None)
    if current is None:
        raise GameMovedOn(
            f"Hand {hand.number} is no longer in this game (it was undone). Nothing was saved.",
            game=game,
        )
    if expected_revision is not None and current.revision != expected_revision:
        raise GameMovedOn(
            f"Hand {hand.number} was changed on another phone after this form was opened. "
            "Nothing was saved: here is the hand as it is now.",
            game=game,
        )
    sides = _sides(game)
    facts = dict(facts)
    all_facts = [facts if h.number == current.number else h.facts for h in hands]
    try:
        result = _score(game, sides, all_facts)
    except InvalidFacts as exc:
        if exc.hand is not None and exc.hand > current.number:
            # The corrected hand is fine alone but ends the game too soon (or breaks a later hand).
            raise InvalidFacts(
                current.number,
                "hands",
                f"with this correction, hand {exc.hand} is refused: {exc.message}. "
                f"Undo the hands after hand {current.number} first if this correction is right.",
            ) from exc
        raise
    scores_before = _scores(sides)
    before = current.facts

    current.facts = facts
    current.revision += 1
    current.corrected_at = timezone.now()
    current.save(update_fields=["facts", "revision", "corrected_at"])
    _store(game, sides, hands, result, start=current.number)
    HandRevision.objects.create(
        game=game,
        hand_number=current.number,
        action=RevisionAction.CORRECT,
        before=before,
        after=facts,
        scores_before=scores_before,
        scores_after=_scores(sides),
        by=by,
        link=link,
        ip=ip or None,
        entry_key=entry_key,
        reason=reason.strip(),
    )
    game_changed.send(sender=Game, game=game)
    current.game = game
    return current


@transaction.atomic
def hand_undo(
    *,
    game: Game,
    expected_number: int,
    by: User | None = None,
    entry_key: uuid.UUID | None = None,
    reason: str = "",
    link: ScoringLink | None = None,
    ip: str | None = None,
) -> None:
    """Take back the last hand (`expected_number` is its number). Its facts stay in the audit.

    Undoing the hand that won the game puts the game back in progress.
    """
    game = _lock(game)
    if entry_key is not None and _already_done(entry_key, game, RevisionAction.UNDO):
        return
    if game.status == GameStatus.ABANDONED:
        _refuse_unless_in_progress(game)
    hands = _hands(game)
    if not hands:
        raise GameMovedOn("There is no hand to undo. Nothing was changed.", game=game)
    last = hands[-1]
    if last.number != expected_number:
        raise GameMovedOn(
            f"This undo was for hand {expected_number}, but the last hand is now hand "
            f"{last.number}. Nothing was undone: check the score sheet.",
            game=game,
        )
    sides = _sides(game)
    remaining = hands[:-1]
    result = _score(game, sides, [hand.facts for hand in remaining])
    scores_before = _scores(sides)
    last.delete()
    _store(game, sides, remaining, result, start=last.number)
    HandRevision.objects.create(
        game=game,
        hand_number=last.number,
        action=RevisionAction.UNDO,
        before=last.facts,
        after=None,
        scores_before=scores_before,
        scores_after=_scores(sides),
        by=by,
        link=link,
        ip=ip or None,
        entry_key=entry_key,
        reason=reason.strip(),
    )
    game_changed.send(sender=Game, game=game)


@transaction.atomic
def game_abandon(
    *,
    game: Game,
    by: User | None = None,
    reason: str = "",
    link: ScoringLink | None = None,
    ip: str | None = None,
) -> Game:
    """Stop a game in progress for good; its hands and scores are kept as they are."""
    game = _lock(game)
    _refuse_unless_in_progress(game)
    scores = _scores(_sides(game))
    game.status = GameStatus.ABANDONED
    game.ended_at = timezone.now()
    game.save(update_fields=["status", "ended_at", "updated_at"])
    HandRevision.objects.create(
        game=game,
        hand_number=None,
        action=RevisionAction.ABANDON,
        scores_before=scores,
        scores_after=scores,
        by=by,
        link=link,
        ip=ip or None,
        reason=reason.strip(),
    )
    game_changed.send(sender=Game, game=game)
    return game


# --- scoring links ---------------------------------------------------------------------------


def _new_key() -> str:
    # 32 random bytes: 43 URL-safe characters, far beyond guessing.
    return secrets.token_urlsafe(32)


def scoring_link_create(
    *, label: str = "", next_url: str = "", by: User | None = None
) -> ScoringLink:
    """A new live link; attach games to it (`game_start(scoring_link=...)`)."""
    return ScoringLink.objects.create(
        key=_new_key(), label=label[:160], next_url=next_url, created_by=_account(by)
    )


def _account(by: User | None) -> User | None:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


@transaction.atomic
def scoring_link_revoke(*, link: ScoringLink, by: User | None = None) -> ScoringLink:
    """Stop a link working at once: phones holding it can no longer score."""
    link = ScoringLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


@transaction.atomic
def scoring_link_reissue(*, link: ScoringLink, by: User | None = None) -> ScoringLink:
    """Revoke `link` and move its games to a new link under a new key (a lost or leaked card)."""
    old = scoring_link_revoke(link=link, by=by)
    new = ScoringLink.objects.create(
        key=_new_key(),
        label=old.label,
        next_url=old.next_url,
        created_by=_account(by),
        closed_at=old.closed_at,
    )
    Game.objects.filter(scoring_link=old).update(scoring_link=new)
    scoring_link_reissued.send(sender=ScoringLink, old=old, new=new, by=_account(by))
    return new


def _link_state(link: ScoringLink) -> dict[str, Any]:
    # The link's number and state, never its key: the audit trail must not hand out the key.
    return {"link": link.pk, "state": link.state}


def _link_revision(
    game: Game, action: str, before: dict[str, Any], by: User | None, ip: str | None
) -> HandRevision:
    link = ScoringLink.objects.get(pk=game.scoring_link_id)
    scores = _scores(_sides(game))
    return HandRevision.objects.create(
        game=game,
        hand_number=None,
        action=action,
        before=before,
        after=_link_state(link),
        scores_before=scores,
        scores_after=scores,
        by=_account(by),
        ip=ip or None,
    )


def _game_link(game: Game) -> tuple[Game, ScoringLink]:
    game = _lock(game)
    if game.scoring_link_id is None:
        raise GameMovedOn("This game has no scoring link.", game=game)
    return game, ScoringLink.objects.get(pk=game.scoring_link_id)


@transaction.atomic
def game_link_reissue(*, game: Game, by: User | None = None, ip: str | None = None) -> ScoringLink:
    """A new key for the game's link (a lost or leaked phone): the old key stops working at once.

    Every game sharing the link (a fixture table's games) moves to the new key; each one's audit
    trail records it. Works on a revoked link too, to let scoring resume.
    """
    game, old = _game_link(game)
    before = _link_state(old)
    new = scoring_link_reissue(link=old, by=by)
    for each in Game.objects.filter(scoring_link=new).order_by("pk"):
        _link_revision(each, RevisionAction.REISSUE, before, by, ip)
    return new


@transaction.atomic
def game_link_revoke(*, game: Game, by: User | None = None, ip: str | None = None) -> ScoringLink:
    """Stop the game's link working, with no replacement (re-issue to let scoring resume)."""
    game, link = _game_link(game)
    if link.revoked_at is not None:
        return link
    before = _link_state(link)
    link = scoring_link_revoke(link=link, by=by)
    for each in Game.objects.filter(scoring_link=link).order_by("pk"):
        _link_revision(each, RevisionAction.REVOKE, before, by, ip)
    return link


@transaction.atomic
def scoring_link_close(*, link: ScoringLink) -> ScoringLink:
    """Close a link because its games' result is confirmed: from now on only a secretary scores."""
    link = ScoringLink.objects.select_for_update().get(pk=link.pk)
    if link.closed_at is None:
        link.closed_at = timezone.now()
        link.save(update_fields=["closed_at"])
    return link


@transaction.atomic
def scoring_link_reopen(*, link: ScoringLink) -> ScoringLink:
    """Open a closed link again (a confirmed result sent back for play to continue)."""
    link = ScoringLink.objects.select_for_update().get(pk=link.pk)
    if link.closed_at is not None:
        link.closed_at = None
        link.save(update_fields=["closed_at"])
    return link
