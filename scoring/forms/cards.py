"""Cards as the scoring pages show them: suit symbols and names, a card's label, typed cards split
into tokens."""

from __future__ import annotations

import re

from scoring.rules import parse_card

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def split_cards(text: str) -> list[str]:
    """`"JH 6h, 10s"` → `["JH", "6H", "10S"]`; tokens that are not cards are kept for the engine
    to name in its error."""
    return [token.upper() for token in re.split(r"[\s,;]+", text.strip()) if token]


def card_label(card: str) -> str:
    parsed = parse_card(card)
    if parsed is None:
        return card
    return f"{parsed.rank}{SUIT_SYMBOLS[parsed.suit]}"
