"""What the rules say about a hand before it is scored: the questions a variant's hand asks, the
penalties a scorer may call, which hands have play, who deals next, the kick a turned card is
worth, whether the game was won before a card was played (so the play is not asked), the
categories a variant can award and what a tie for game does.

Forms, pages and the demo ask these functions; none of them keeps a second list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import RANKS, SUITS, Card
from .facts import BEGS, OUTCOMES, REDEALS, TURN_UPS_BY_BEG
from .result import Category
from .ruleset import Ruleset

__all__ = [
    "RANKS",
    "SUITS",
    "begs",
    "categories",
    "fewest_turn_ups",
    "hand_is_played",
    "hand_questions",
    "kick_points",
    "next_dealer",
    "opponents",
    "outcomes",
    "penalty_kinds",
    "penalty_points",
    "tie_goes_to",
    "won_before_play",
]


def hand_questions(ruleset: Ruleset) -> tuple[str, ...]:
    """The facts a hand of this variant records, in the order a scorer answers them."""
    keys = ["dealer"]
    if ruleset.trumps == "turn_up":
        keys.append("turn_ups")
        if ruleset.begging:
            keys.append("beg")
    keys.append("outcome")
    keys.extend(["captures"] if ruleset.captures else ["high", "low", "jack", "game"])
    keys.append("penalties")
    return tuple(keys)


def fewest_turn_ups(beg: str) -> int:
    """The fewest cards `beg` turns up for trumps: one for a stand or a take one, two for a run
    (the hand form takes a second card turned to mean the pack was run)."""
    return TURN_UPS_BY_BEG[beg][0]


def begs(ruleset: Ruleset) -> tuple[str, ...]:
    """The answers to a beg ("stand" first), or none where the variant has no begging."""
    return BEGS if ruleset.trumps == "turn_up" and ruleset.begging else ()


def outcomes(ruleset: Ruleset) -> tuple[str, ...]:
    """How a hand can end ("played" first): pitch variants have no redeals."""
    if ruleset.trumps == "pitch":
        return tuple(outcome for outcome in OUTCOMES if outcome not in REDEALS)
    return OUTCOMES


def hand_is_played(ruleset: Ruleset, *, outcome: str, beg: str | None) -> bool:
    """Whether cards were played: not a redeal, a misdeal, or a take one that ends the hand."""
    return outcome == "played" and not ends_on_take_one(ruleset, beg)


def ends_on_take_one(ruleset: Ruleset, beg: str | None) -> bool:
    """A take one that ends the hand: the gift is scored and the same dealer deals again."""
    return ruleset.trumps == "turn_up" and beg == "take_one" and ruleset.gift_ends_hand


def opponents(sides: Sequence[str], side: str) -> list[str]:
    """The other sides in play order, starting with the one after ``side``."""
    start = list(sides).index(side)
    return [sides[(start + step) % len(sides)] for step in range(1, len(sides))]


def beggar(sides: Sequence[str], dealer: str) -> str:
    """The side of the player next to the dealer: the one who stands or begs (and, when the
    dealer answers "take one", the side that took one)."""
    return opponents(sides, dealer)[0]


def next_dealer(
    ruleset: Ruleset, sides: Sequence[str], *, dealer: str, outcome: str, beg: str | None
) -> str:
    """Who deals after a hand: the same dealer after a redeal or a take one that ends the hand,
    otherwise the next side in play order (after a played hand or a misdeal)."""
    if outcome in REDEALS or ends_on_take_one(ruleset, beg):
        return dealer
    return opponents(sides, dealer)[0]


def penalty_kinds(ruleset: Ruleset, sides: int) -> tuple[str, ...]:
    """The penalties a scorer may call in a hand, the custom "points" last. (A misdeal's penalty
    comes with the outcome "misdeal".)"""
    kinds = ["renege"]
    if sides == 2:
        kinds.append("renege_top_trump")
    kinds.append("under_trump")
    if ruleset.trumps == "pitch":
        kinds.append("early_look")
    kinds.append("points")
    return tuple(kinds)


def penalty_points(ruleset: Ruleset, kind: str) -> int | None:
    """Points each opposing side gets for a penalty; None where it varies (a renege holding a
    top trump: up to the target; custom points: as entered)."""
    return {
        "renege": ruleset.renege_points,
        "under_trump": ruleset.under_trump_points,
        "misdeal": ruleset.misdeal_points,
        "early_look": ruleset.early_look_points,
    }.get(kind)


def kick_points(ruleset: Ruleset, cards: Sequence[Card]) -> list[tuple[Card, int]]:
    """The turned cards that score a kick for the dealer, with their points, in turn order."""
    kicking = list(cards)
    if ruleset.kicks_on == "trump_setting" and kicking:
        kicking = kicking[:1] + [card for card in kicking[1:] if card.suit != kicking[0].suit]
    return [
        (card, ruleset.kick_values[card.rank])
        for card in kicking
        if ruleset.kick_values.get(card.rank, 0) > 0
    ]


def won_before_play(
    ruleset: Ruleset,
    sides: Sequence[str],
    scores: Mapping[str, int],
    *,
    dealer: str,
    turn_ups: Sequence[Card],
    beg: str | None,
) -> str | None:
    """The side that reaches the target before a card is played, or None.

    Two awards come before any play (docs/rules.md section 3): the kicks, at the deal, in the
    order the cards were turned, then the gift of a take one, at the beg, to each other side in
    play order. Penalties are for something done in play, and high, low, jack and game are the
    play itself. A hand won so is over at that award: its play facts are not needed (given
    anyway, they are listed as not counted). ``scores`` are the scores before the hand.
    """
    running = {side: scores.get(side, 0) for side in sides}
    pre_play = [(dealer, points) for _, points in kick_points(ruleset, turn_ups)]
    if beg == "take_one" and ruleset.trumps == "turn_up" and dealer in sides:
        pre_play += [(side, ruleset.gift_points) for side in opponents(sides, dealer)]
    for side, points in pre_play:
        if side not in running or points <= 0:
            continue
        running[side] += points
        if running[side] >= ruleset.target:
            return side
    return None


def categories(ruleset: Ruleset) -> tuple[Category, ...]:
    """The categories this variant can award, in strict order."""
    found: list[Category] = []
    if ruleset.trumps == "turn_up" and ruleset.kick_values:
        found.append(Category.KICK)
    if begs(ruleset):
        found.append(Category.GIFT)
    found.append(Category.PENALTY)
    if ruleset.captures:
        found.append(Category.CAPTURE)
        return tuple(found)
    found.extend([Category.HIGH, Category.LOW, Category.JACK])
    if ruleset.hang_jack_points is not None:
        found.append(Category.HANG_JACK)
    found.append(Category.GAME)
    return tuple(found)


def tie_goes_to(
    ruleset: Ruleset, sides: Sequence[str], *, dealer: str, tied: Sequence[str]
) -> str | None:
    """The side that scores game when ``tied`` sides have equal most card points, or None."""
    if ruleset.game_tie == "non_dealer":
        return next(side for side in opponents(sides, dealer) if side in tied)
    return None
