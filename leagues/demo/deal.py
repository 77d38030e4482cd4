"""Deal real cards and report a hand as the facts a scorer would enter (docs/rules.md section 2).

Not a player of the game: it shuffles a 52-card pack, deals six to each player, sets trumps (a
turn-up, begged and run as the ruleset allows, or the pitcher's lead) and reads high, low and
the jack off the dealt cards. Who wins the jack and how the card points split are drawn so that
the figures look like real play. Deterministic for a seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rules import Ruleset, max_turn_ups, questions

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("C", "D", "H", "S")
CARD_POINTS = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
#: Rank strength within a suit, ace high.
STRENGTH = {rank: len(RANKS) - i for i, rank in enumerate(RANKS)}

Card = tuple[str, str]  # (rank, suit)


def card_text(card: Card) -> str:
    return f"{card[0]}{card[1]}"


def new_pack(rng: random.Random) -> list[Card]:
    pack = [(rank, suit) for suit in SUITS for rank in RANKS]
    rng.shuffle(pack)
    return pack


def seats(sides: Sequence[str], players_per_side: int) -> list[str]:
    """The side of each seat in play order: partners sit opposite (A, B, A, B)."""
    return [side for _ in range(players_per_side) for side in sides]


def deal_hand(
    rng: random.Random,
    *,
    ruleset: Ruleset,
    dealer: str,
    scores: Mapping[str, int],
    sides: Sequence[str] = ("A", "B"),
    hang_jack_chance: float = 0.15,
) -> dict[str, Any]:
    """The facts of one freshly dealt hand with ``dealer`` dealing at ``scores``."""
    seat_sides = seats(sides, ruleset.players)
    dealer_seat = seat_sides.index(dealer)
    # Deal starts left of the dealer; seat order after the dealer is the play order.
    order = [(dealer_seat + 1 + i) % len(seat_sides) for i in range(len(seat_sides))]
    pack = new_pack(rng)
    hands: dict[int, list[Card]] = {seat: [] for seat in order}

    def deal(count: int) -> None:
        for seat in order:
            for _ in range(count):
                hands[seat].append(pack.pop())

    deal(6)
    facts: dict[str, Any] = {"dealer": dealer}
    if "turn_ups" in questions.hand_questions(ruleset):
        trump = _turn_up(rng, ruleset, facts, pack, deal, scores, dealer, sides, len(seat_sides))
        if trump is None:
            return facts
    else:
        pitcher = order[0]
        suits = [card[1] for card in hands[pitcher]]
        trump = max(SUITS, key=lambda s: (suits.count(s), rng.random()))

    in_play = [(card, seat_sides[seat]) for seat in order for card in hands[seat]]
    trumps = sorted(
        ((card, side) for card, side in in_play if card[1] == trump),
        key=lambda item: STRENGTH[item[0][0]],
    )
    if trumps:
        facts["high"] = trumps[-1][1]
        low_side = trumps[0][1]
        if ruleset.low == "captured" and rng.random() < 0.3:
            low_side = _other(low_side, sides, rng)
        facts["low"] = low_side
    else:
        facts["high"] = None
        facts["low"] = None
    jack = next((side for card, side in trumps if card[0] == "J"), None)
    if jack is None:
        facts["jack"] = None
    else:
        won_by = _other(jack, sides, rng) if rng.random() < hang_jack_chance else jack
        facts["jack"] = {"held_by": jack, "won_by": won_by}
    facts["game"] = _split_card_points(rng, in_play, sides)
    return facts


def _other(side: str, sides: Sequence[str], rng: random.Random) -> str:
    return rng.choice([s for s in sides if s != side])


def _split_card_points(
    rng: random.Random, in_play: Sequence[tuple[Card, str]], sides: Sequence[str]
) -> dict[str, int]:
    """Card points won in tricks: each counting card goes to a side, favouring its holder's."""
    totals = dict.fromkeys(sides, 0)
    for card, holder in in_play:
        points = CARD_POINTS.get(card[0], 0)
        if not points:
            continue
        side = holder if rng.random() < 0.55 else rng.choice(list(sides))
        totals[side] += points
    return totals


def _turn_up(
    rng: random.Random,
    ruleset: Ruleset,
    facts: dict[str, Any],
    pack: list[Card],
    deal: Any,
    scores: Mapping[str, int],
    dealer: str,
    sides: Sequence[str],
    players: int,
) -> str | None:
    """Turn up for trumps, with the beg answered; the trump suit, or None for a redeal."""
    turned = [pack.pop()]
    facts["turn_ups"] = [card_text(turned[0])]
    beg = "stand"
    if questions.begs(ruleset) and rng.random() < 0.25:
        opponents_safe = all(
            scores[side] + ruleset.gift_points < ruleset.target for side in sides if side != dealer
        )
        beg = "take_one" if opponents_safe and rng.random() < 0.6 else "run"
    facts["beg"] = beg
    if beg == "run":
        limit = max_turn_ups(players)
        first_suit = turned[0][1]
        while True:
            deal(3)
            turned.append(pack.pop())
            if turned[-1][1] != first_suit:
                break
            if len(turned) == limit:
                facts["turn_ups"] = [card_text(card) for card in turned]
                facts["outcome"] = "pack_exhausted"
                return None
        facts["turn_ups"] = [card_text(card) for card in turned]
    return turned[-1][1]
