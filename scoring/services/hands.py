"""Recording, correcting and undoing hands. One transaction each, each with its audit entry.

Two safeguards make a hand impossible to lose or double:

- the one-time `entry_key` every form carries: a resubmitted form (double tap, retry after a
  dropped connection) finds the write it already made and returns its result again;
- `expected_number` (and for corrections `expected_revision`): a form rendered before another
  phone changed the game is refused with `GameMovedOn`, never applied over the newer state.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone

from scoring.actors import SYSTEM, Actor
from scoring.changes import GameChanged, HandCorrected, HandRecorded, HandUndone
from scoring.models import (
    Award,
    Game,
    GameStatus,
    Hand,
    HandRevision,
    RevisionAction,
    Side,
)
from scoring.permissions import may_score
from scoring.rules import GameScore, HandScore, InvalidFacts, score_game
from scoring.services.compiled import sent_together
from scoring.services.state import (
    AWARDS,
    HANDS,
    REVISIONS,
    GameMovedOn,
    NotAllowed,
    already_done,
    lock_for_entry,
    refuse_unless_in_progress,
    save_scores,
    scores_of,
    store_game_reopened,
    store_game_state,
    store_scores,
)


def _allowed(actor: Actor, game: Game) -> dict[str, Any]:
    """Under the game's row lock: `NotAllowed` unless `actor` may still score (a link revoked
    a moment ago records nothing), else the audit's `by`, `link` and `ip`."""
    if not may_score(actor, game):
        raise NotAllowed(game)
    return {"by": actor.user, "link": actor.link or actor.link_for(game), "ip": actor.ip}


def _follow(change: GameChanged) -> None:
    """What follows in the same transaction: the fixture's or cup tie's roll-up. It may refuse
    the change (`GameMovedOn`: a won game back in play while the game started after it has
    begun), and then the whole transaction, the change too, rolls back."""
    from leagues.services.rollup import game_changed

    game_changed(change)


@transaction.atomic
def hand_record(
    *,
    game: Game | int,
    facts: Mapping[str, Any],
    entry_key: uuid.UUID,
    expected_number: int,
    actor: Actor = SYSTEM,
) -> HandRecorded:
    """Record the next hand. A resubmitted form (same `entry_key`) returns the hand it recorded
    (``change`` None: nothing changed now).

    `actor` is asked under the game's row lock whether it may score (`NotAllowed` if not) and
    goes in the audit trail. The game is read once, with its sides and hand count; the engine
    scores the new hand alone from the current scores (the state a game carries from hand to
    hand), and the result roll-up follows in the same transaction.
    """
    game, sides, count = lock_for_entry(game)
    was, winner_was, changed_was = game.status, game.winner, game.updated_at
    audit = _allowed(actor, game)
    if expected_number != count + 1:
        done = already_done(entry_key, game, RevisionAction.RECORD)
        if done is not None:
            hand = Hand.objects.filter(entry_key=entry_key).first()
            if hand is None:
                raise GameMovedOn(
                    f"Hand {done.hand_number} from this form was recorded and has since been "
                    "undone. Nothing was saved: here is the game as it is now.",
                    game=game,
                )
            hand.game = game
            return HandRecorded(hand=hand, change=None)
    refuse_unless_in_progress(game)
    if expected_number != count + 1:
        raise GameMovedOn(
            f"This form was for hand {expected_number}, but the game has moved on: "
            f"{count} hand{pluralize(count)} recorded now. Nothing was "
            "saved; check the score sheet and enter the hand again if it is still missing.",
            game=game,
        )
    facts = dict(facts)
    scores_before = scores_of(sides)
    result = score_game(
        ruleset=game.rules,
        sides=[side.label for side in sides],
        hands=[facts],
        scores=scores_before,
        first_number=expected_number,
    )
    scored = result.hands[0]
    try:
        hand = Hand(
            game=game,
            number=expected_number,
            facts=facts,
            entry_key=entry_key,
            entered_by=audit["by"],
            **_derived(scored),
        )
        with sent_together():  # one round trip on PostgreSQL
            HANDS.insert([hand])
            awards = _awards(game, hand, scored)
            AWARDS.insert(awards, after="hand")
            store_scores(sides, result)
            store_game_state(game, result)
            _revision(
                game=game,
                hand_number=hand.number,
                action=RevisionAction.RECORD,
                before=None,
                after=facts,
                scores_before=scores_before,
                scores_after=scores_of(sides),
                entry_key=entry_key,
                **audit,
            )
    except IntegrityError as exc:
        # Under the lock only the one-time key can clash: this form was used before (its hand
        # since undone), or for something else. The transaction is rolled back.
        raise GameMovedOn(
            f"Hand {expected_number} from this form was already recorded and has since been "
            "undone, or the form was used for something else. Nothing was saved: here is the "
            "game as it is now.",
            game=game,
        ) from exc
    change = GameChanged(
        game=game,
        was=was,
        winner_was=winner_was,
        changed_was=changed_was,
        actor=actor.through(audit["link"]),
        what="a hand was scored",
    )
    _follow(change)
    hand.game = game
    return HandRecorded(hand=hand, change=change, sides=sides, awards=awards)


@transaction.atomic
def hand_correct(
    *,
    game: Game | int,
    number: int,
    facts: Mapping[str, Any],
    entry_key: uuid.UUID,
    reason: str = "",
    expected_revision: int | None = None,
    actor: Actor = SYSTEM,
) -> HandCorrected:
    """Replace hand `number`'s facts and re-score the game from that hand on.

    The correction may change the winner, or un-win the game. It is refused (`InvalidFacts`) when
    it would end the game before hands that follow it. `expected_revision` (the hand's `revision`
    when the form was rendered) refuses a correction made against facts another phone has since
    changed. `actor` is asked under the game's row lock, as in `hand_record`. The game is read
    once, with its sides and hand count; the engine scores from the corrected hand on, starting
    from the scores after the hand before it; a later hand's row and awards are written only
    where the engine's answer differs from what is stored. The result roll-up follows in the
    same transaction.
    """
    game, sides, count = lock_for_entry(game)
    was, winner_was, changed_was = game.status, game.winner, game.updated_at
    audit = _allowed(actor, game)
    if expected_revision is None or not 1 <= number <= count:
        again = _corrected_before(entry_key, game)
        if again is not None:
            return again
    if game.status == GameStatus.ABANDONED:
        refuse_unless_in_progress(game)
    if not 1 <= number <= count:
        raise GameMovedOn(
            f"Hand {number} is no longer in this game (it was undone). Nothing was saved.",
            game=game,
        )
    hands = list(Hand.objects.filter(game=game, number__gte=number - 1).order_by("number"))
    previous = hands.pop(0) if number > 1 else None
    current = hands[0]
    if expected_revision is not None and current.revision != expected_revision:
        again = _corrected_before(entry_key, game)
        if again is not None:
            return again
        raise GameMovedOn(
            f"Hand {number} was changed on another phone after this form was opened. "
            "Nothing was saved: here is the hand as it is now.",
            game=game,
        )
    facts = dict(facts)
    start = previous.scores if previous is not None else {s.label: s.start_score for s in sides}
    try:
        result = score_game(
            ruleset=game.rules,
            sides=[side.label for side in sides],
            hands=[facts, *(hand.facts for hand in hands[1:])],
            scores=start,
            first_number=number,
        )
    except InvalidFacts as exc:
        if exc.hand is not None and exc.hand > number:
            # The corrected hand is fine alone but ends the game too soon (or breaks a later hand).
            raise InvalidFacts(
                number,
                "hands",
                f"with this correction, hand {exc.hand} is refused: {exc.message}. "
                f"Undo the hands after hand {number} first if this correction is right.",
            ) from exc
        raise
    scores_before = scores_of(sides)
    before = current.facts
    current.facts = facts
    current.revision += 1
    current.corrected_at = timezone.now()
    awards_of = _store_rescored(game, sides, hands, result)
    store_game_state(game, result)
    try:
        _revision(
            game=game,
            hand_number=number,
            action=RevisionAction.CORRECT,
            before=before,
            after=facts,
            scores_before=scores_before,
            scores_after=scores_of(sides),
            entry_key=entry_key,
            reason=reason.strip(),
            **audit,
        )
    except IntegrityError as exc:
        # Under the lock only the one-time key can clash: another revision (a hand recorded,
        # undone or corrected) already used it. The transaction, the re-scoring too, is rolled
        # back.
        raise GameMovedOn(
            f"This correction form of hand {number} was already used for something else. "
            "Nothing was saved: here is the game as it is now.",
            game=game,
        ) from exc
    change = GameChanged(
        game=game,
        was=was,
        winner_was=winner_was,
        changed_was=changed_was,
        actor=actor.through(audit["link"]),
        what="a hand was corrected",
    )
    _follow(change)
    current.game = game
    return HandCorrected(
        hand=current, change=change, sides=sides, later=hands[1:], awards_of=awards_of
    )


def _corrected_before(entry_key: uuid.UUID, game: Game) -> HandCorrected | None:
    """The hand an earlier submission of the same correction form corrected, if any."""
    done = already_done(entry_key, game, RevisionAction.CORRECT)
    if done is None:
        return None
    again = Hand.objects.filter(game=game, number=done.hand_number).first()
    if again is None:
        raise GameMovedOn(
            f"Hand {done.hand_number} was corrected and has since been undone. Nothing was "
            "saved: here is the game as it is now.",
            game=game,
        )
    again.game = game
    return HandCorrected(hand=again, change=None)


#: What the engine derives for a hand and the hand's row stores.
DERIVED = ("dealer", "trump", "outcome", "all_fours", "scores")


def _store_rescored(
    game: Game, sides: list[Side], hands: list[Hand], result: GameScore
) -> dict[int, list[Award]]:
    """Store a correction: the corrected hand (`hands[0]`, its facts already set) and what the
    engine derived for it and the hands after it, the sides' scores. A later hand is written only
    where the engine's answer differs from its stored row and awards: a correction usually
    moves the later running totals (one statement for all of them) and nothing else."""
    stored: dict[int, list[Award]] = {hand.pk: [] for hand in hands}
    for award in Award.objects.filter(hand_id__in=list(stored)).order_by("hand_id", "position"):
        stored[award.hand_id].append(award)
    awards_of: dict[int, list[Award]] = {}
    rewritten: list[Award] = []
    moved: list[Hand] = []
    fields: set[str] = set()
    for hand, scored in zip(hands, result.hands, strict=True):
        derived = _derived(scored)
        changed = {name for name, value in derived.items() if getattr(hand, name) != value}
        for name in changed:
            setattr(hand, name, derived[name])
        if hand is not hands[0] and changed:
            moved.append(hand)
            fields |= changed
        fresh = _awards(game, hand, scored)
        if [_award_key(a) for a in fresh] == [_award_key(a) for a in stored[hand.pk]]:
            awards_of[hand.number] = stored[hand.pk]
        else:
            awards_of[hand.number] = fresh
            rewritten.extend(fresh)
    hands[0].save(update_fields=["facts", "revision", "corrected_at", *DERIVED])
    if moved:
        Hand.objects.bulk_update(moved, sorted(fields))
    if rewritten:
        Award.objects.filter(hand_id__in={award.hand_id for award in rewritten}).delete()
        AWARDS.insert(rewritten)
    store_scores(sides, result)
    return awards_of


def _derived(scored: HandScore) -> dict[str, Any]:
    return {
        "dealer": scored.dealer,
        "trump": scored.trump or "",
        "outcome": scored.outcome,
        "all_fours": scored.all_fours or "",
        "scores": dict(scored.scores),
    }


def _awards(game: Game, hand: Hand, scored: HandScore) -> list[Award]:
    """The rows of the awards the engine gave `hand`, in strict order."""
    return [
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
    ]


def _revision(**fields: Any) -> None:
    """Write the hand's audit entry."""
    REVISIONS.insert([HandRevision(**fields)])


def _award_key(award: Award) -> tuple[Any, ...]:
    return (award.position, award.side, award.category, award.points, award.detail, award.counted)


@transaction.atomic
def hand_undo(
    *,
    game: Game | int,
    expected_number: int,
    entry_key: uuid.UUID | None = None,
    reason: str = "",
    actor: Actor = SYSTEM,
) -> HandUndone:
    """Take back the last hand (`expected_number` is its number). Its facts stay in the audit.

    The game goes back to where it stood before that hand: the scores after the hand before it
    (or the start scores), its dealer to deal again, and in progress if that hand won it. The
    result roll-up follows in the same transaction.
    """
    game, sides, count = lock_for_entry(game)
    was, winner_was, changed_was = game.status, game.winner, game.updated_at
    audit = _allowed(actor, game)
    # A second tap on the same undo form finds the undo it already made.
    undone = count != expected_number and entry_key is not None
    if undone and entry_key is not None and already_done(entry_key, game, RevisionAction.UNDO):
        return HandUndone(game=game, number=expected_number, change=None, sides=sides)
    if game.status == GameStatus.ABANDONED:
        refuse_unless_in_progress(game)
    if count == 0:
        raise GameMovedOn("There is no hand to undo. Nothing was changed.", game=game)
    if count != expected_number:
        raise GameMovedOn(
            f"This undo was for hand {expected_number}, but the last hand is now hand "
            f"{count}. Nothing was undone: check the score sheet.",
            game=game,
        )
    last_two = list(Hand.objects.filter(game=game).order_by("-number")[:2])
    last = last_two[0]
    before = last_two[1].scores if len(last_two) > 1 else None
    scores_before = scores_of(sides)
    for side in sides:
        side.score = before.get(side.label, 0) if before is not None else side.start_score
    Hand.objects.filter(pk=last.pk).delete()  # and its awards
    save_scores(sides)
    store_game_reopened(game, next_dealer=last.dealer)
    try:
        _revision(
            game=game,
            hand_number=last.number,
            action=RevisionAction.UNDO,
            before=last.facts,
            after=None,
            scores_before=scores_before,
            scores_after=scores_of(sides),
            entry_key=entry_key,
            reason=reason.strip(),
            **audit,
        )
    except IntegrityError as exc:
        raise GameMovedOn(
            "This undo form was already used for something else. Nothing was undone: here is "
            "the game as it is now.",
            game=game,
        ) from exc
    change = GameChanged(
        game=game,
        was=was,
        winner_was=winner_was,
        changed_was=changed_was,
        actor=actor.through(audit["link"]),
        what="a hand was taken back",
    )
    _follow(change)
    return HandUndone(game=game, number=last.number, change=change, sides=sides)
