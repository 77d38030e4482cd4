"""The strict-order engine: facts in, awards out, one award at a time (docs/rules.md section 3).

Within a hand: kicks in the order the cards were turned, the gift, penalties in the order called,
then high, low, jack / hang jack, game (All Fives: the captures in trick order instead). The first
side to reach the target wins at that award; later awards are listed with ``counted`` False.
Gift and penalty points go to each opposing side in play order, starting after the offender.

A renege forfeits the offender's game point: the game award is listed with ``counted`` False and
``detail`` ending "forfeited: renege" (if another side had most card points, it scores game).
``renege_top_trump`` credits each opponent (two sides only) ``target - their score`` as a penalty.

The next dealer: the same dealer after a redeal (``pack_exhausted``, ``bunch``) or a take one that
ends the hand; otherwise the next side in play order (after a played hand or a misdeal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import InvalidFacts
from .facts import TIE, HandFacts, Penalty, read_hand
from .questions import kick_points, opponents, penalty_points, tie_goes_to
from .questions import next_dealer as next_dealer_after
from .result import Award, Category, DecidedBy, GameScore, HandScore
from .ruleset import Ruleset


def check_sides(ruleset: Ruleset, sides: object) -> tuple[str, ...]:
    """The side labels in play order, checked against the ruleset; raises InvalidFacts."""
    if isinstance(sides, str) or not isinstance(sides, Sequence):
        raise InvalidFacts(None, "sides", f"sides must be a list of side labels (got {sides!r})")
    labels: list[str] = []
    for label in sides:
        if not isinstance(label, str) or not label.strip():
            raise InvalidFacts(
                None, "sides", f"a side label must be non-empty text (got {label!r})"
            )
        if label in labels:
            raise InvalidFacts(None, "sides", f"side {label!r} is listed twice")
        if label == TIE:
            raise InvalidFacts(
                None, "sides", f'"{TIE}" cannot be a side label (it records a tie for game)'
            )
        labels.append(label)
    allowed = ruleset.side_counts
    if len(labels) not in allowed:
        per_side = "one player" if ruleset.players == 1 else f"{ruleset.players} players"
        counts = " or ".join(str(count) for count in allowed)
        raise InvalidFacts(
            None,
            "sides",
            f"{ruleset.label} with {per_side} per side is played by {counts} sides "
            f"(got {len(labels)}: {', '.join(labels)})",
        )
    return tuple(labels)


def check_scores(
    ruleset: Ruleset, sides: Sequence[str], scores: Mapping[str, int] | None
) -> dict[str, int]:
    """The start scores (default all 0), checked; raises InvalidFacts."""
    start = dict.fromkeys(sides, 0)
    if scores is None:
        return start
    if not isinstance(scores, Mapping):
        raise InvalidFacts(None, "scores", f"scores must map sides to points (got {scores!r})")
    for side, points in scores.items():
        if side not in start:
            raise InvalidFacts(
                None, "scores", f"{side!r} is not a side in this game (sides: {', '.join(sides)})"
            )
        if type(points) is not int or points < 0:
            raise InvalidFacts(
                None,
                "scores",
                f"{side}'s start score must be a whole number of 0 or more (got {points!r})",
            )
        if points >= ruleset.target:
            raise InvalidFacts(
                None,
                "scores",
                f"{side}'s start score {points} has already reached the target {ruleset.target}",
            )
        start[side] = points
    return start


class _Tally:
    """The running score of a game, crediting awards one at a time."""

    def __init__(self, ruleset: Ruleset, sides: tuple[str, ...], scores: dict[str, int]) -> None:
        self.ruleset = ruleset
        self.sides = sides
        self.scores = scores
        self.winner: str | None = None
        self.decided_by: DecidedBy | None = None

    def credit(
        self,
        awards: list[Award],
        hand: int,
        side: str,
        category: Category,
        points: int,
        detail: str | None = None,
        *,
        forfeited: bool = False,
    ) -> None:
        if points <= 0:
            return
        counted = self.winner is None and not forfeited
        awards.append(Award(side, category, points, detail, counted))
        if counted:
            self.scores[side] += points
            if self.scores[side] >= self.ruleset.target:
                self.winner = side
                self.decided_by = DecidedBy(hand, category)

    def score_hand(self, facts: HandFacts) -> HandScore:
        ruleset, sides, number = self.ruleset, self.sides, facts.number
        awards: list[Award] = []

        for card, points in kick_points(ruleset, facts.turn_ups):
            self.credit(awards, number, facts.dealer, Category.KICK, points, str(card))

        if facts.beg == "take_one":
            receivers = opponents(sides, facts.dealer)
            if ruleset.no_gift_to_win and self.winner is None:
                for side in receivers:
                    score = self.scores[side]
                    if score + ruleset.gift_points >= ruleset.target:
                        raise InvalidFacts(
                            number,
                            "beg",
                            f"take one not allowed: it would give {side} the target "
                            f"({score} + {ruleset.gift_points} = {score + ruleset.gift_points})",
                        )
            for side in receivers:
                self.credit(awards, number, side, Category.GIFT, ruleset.gift_points)

        for penalty in facts.penalties:
            self._penalty(awards, number, penalty)

        all_fours: str | None = None
        if ruleset.captures:
            for capture in facts.captures:
                points = ruleset.capture_values[capture.card.rank]
                self.credit(
                    awards, number, capture.side, Category.CAPTURE, points, str(capture.card)
                )
        elif facts.played:
            all_fours = self._high_low_jack_game(awards, facts)

        return HandScore(
            number=number,
            dealer=facts.dealer,
            outcome=facts.outcome,
            beg=facts.beg,
            trump=facts.trump,
            awards=awards,
            scores=dict(self.scores),
            all_fours=all_fours,
        )

    def _penalty(self, awards: list[Award], number: int, penalty: Penalty) -> None:
        ruleset = self.ruleset
        if penalty.kind == "points":
            assert penalty.points is not None
            detail = "points" if penalty.note is None else f"points: {penalty.note}"
            self.credit(awards, number, penalty.side, Category.PENALTY, penalty.points, detail)
            return
        for side in opponents(self.sides, penalty.side):
            if penalty.kind == "renege_top_trump":
                # The offenders lose at once: the opponents are credited up to the target.
                points = ruleset.target - self.scores[side]
            else:
                fixed = penalty_points(ruleset, penalty.kind)
                assert fixed is not None
                points = fixed
            self.credit(awards, number, side, Category.PENALTY, points, penalty.kind)

    def _high_low_jack_game(self, awards: list[Award], facts: HandFacts) -> str | None:
        ruleset, number = self.ruleset, facts.number
        if facts.high is not None:
            self.credit(awards, number, facts.high, Category.HIGH, 1)
        if facts.low is not None:
            self.credit(awards, number, facts.low, Category.LOW, 1)
        jack = facts.jack
        if jack is not None:
            hang = ruleset.hang_jack_points
            if hang is not None and jack.held_by is not None and jack.held_by != jack.won_by:
                self.credit(awards, number, jack.won_by, Category.HANG_JACK, hang)
            else:
                self.credit(awards, number, jack.won_by, Category.JACK, 1)

        game = facts.game
        if game is None:
            # Not recorded: the game was won before a card was played (facts.py).
            game_side: str | None = None
        elif len(game.leaders) == 1:
            game_side = game.leaders[0]
        else:
            game_side = tie_goes_to(ruleset, self.sides, dealer=facts.dealer, tied=game.leaders)
        if game is not None and game_side is not None:
            parts: list[str] = []
            if game.totals is not None:
                parts.append("-".join(str(total) for total in game.totals))
            elif game.recorded_tie:
                parts.append(TIE)
            forfeited = game_side in reneged_sides(facts)
            if forfeited:
                parts.append("forfeited: renege")
            self.credit(
                awards,
                number,
                game_side,
                Category.GAME,
                ruleset.game_point_value,
                ", ".join(parts) or None,
                forfeited=forfeited,
            )

        jack_side = None if jack is None else jack.won_by
        # A side whose renege forfeited the game point did not take game: no all fours.
        game_taken = None if game_side in reneged_sides(facts) else game_side
        if facts.high is not None and facts.high == facts.low == jack_side == game_taken:
            return facts.high
        return None


def reneged_sides(facts: HandFacts) -> set[str]:
    """The sides called for a renege this hand: none of them can score game (section 5)."""
    return {p.side for p in facts.penalties if p.kind == "renege"}


def score_game(
    *,
    ruleset: Ruleset,
    sides: Sequence[str],
    hands: Sequence[Mapping[str, Any]],
    scores: Mapping[str, int] | None = None,
    first_number: int = 1,
) -> GameScore:
    """Score a game from its recorded hands (docs/rules.md section 7's hand format).

    ``scores`` are the scores before the first of ``hands``, which is hand ``first_number``: a
    game in progress can score its next hand alone from its current scores.

    Raises InvalidFacts on the first problem: with the sides, the start scores, or a hand.
    """
    labels = check_sides(ruleset, sides)
    tally = _Tally(ruleset, labels, check_scores(ruleset, labels, scores))
    if isinstance(hands, str | bytes | Mapping) or not isinstance(hands, Sequence):
        raise InvalidFacts(None, "hands", f"hands must be a list of hands (got {hands!r})")
    scored: list[HandScore] = []
    next_dealer: str | None = None
    for number, hand in enumerate(hands, start=first_number):
        if tally.winner is not None:
            assert tally.decided_by is not None
            raise InvalidFacts(
                number,
                "hands",
                f"the game was already won by {tally.winner} in hand {tally.decided_by.hand}; "
                "no hand can follow",
            )
        facts = read_hand(hand, number=number, ruleset=ruleset, sides=labels, scores=tally.scores)
        scored.append(tally.score_hand(facts))
        next_dealer = next_dealer_after(
            ruleset, labels, dealer=facts.dealer, outcome=facts.outcome, beg=facts.beg
        )
    return GameScore(
        hands=scored,
        scores=dict(tally.scores),
        winner=tally.winner,
        decided_by=tally.decided_by,
        next_dealer=next_dealer,
    )
