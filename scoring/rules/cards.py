"""Cards as a scorer writes them: rank + suit, e.g. ``"JH"``, ``"10S"`` (``"TS"`` accepted).

The canonical form (used in every ``detail`` string) writes ten as ``10``.
"""

from __future__ import annotations

from typing import NamedTuple

RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
PACK_SIZE = 52


class Card(NamedTuple):
    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def parse_rank(value: object) -> str | None:
    """The canonical rank for ``value`` ("T" and "t" mean 10), or None if it is not a rank."""
    if not isinstance(value, str):
        return None
    rank = value.strip().upper()
    if rank == "T":
        rank = "10"
    return rank if rank in RANKS else None


def parse_card(value: object) -> Card | None:
    """The card written as ``value`` (case-insensitive), or None if no such card exists."""
    if not isinstance(value, str):
        return None
    text = value.strip().upper()
    if len(text) < 2:
        return None
    rank, suit = parse_rank(text[:-1]), text[-1]
    if rank is None or suit not in SUITS:
        return None
    return Card(rank, suit)


def max_turn_ups(players: int) -> int:
    """The most cards that can be turned for trumps with ``players`` players at the table.

    6n cards are dealt, then one turned; each run deals 3n more and turns one more.
    """
    return 1 + (PACK_SIZE - 1 - 6 * players) // (3 * players + 1)
