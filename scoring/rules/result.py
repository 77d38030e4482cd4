"""What the engine produces: awards in strict order, hand by hand, and the game's result.

``Award.detail`` strings:

- kick, capture: the card in canonical form (ten written ``10``), e.g. ``"JH"``, ``"10D"``;
- penalty: the penalty kind (``"renege"``, ``"renege_top_trump"``, ``"under_trump"``,
  ``"misdeal"``, ``"early_look"``); a custom ``points`` penalty gives ``"points"`` or
  ``"points: <note>"``;
- game: the card-point totals in the sides' order (``"27-19"``) when totals were recorded,
  ``"tie"`` when a tie was recorded and the tie rule gave the point, else None; a game point
  that a renege forfeits adds ``"forfeited: renege"`` (e.g. ``"27-19, forfeited: renege"``) and
  has ``counted`` false;
- gift, high, low, jack, hang_jack: None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Category(StrEnum):
    """Why points were awarded.

    GAME is the card-point award (most card points in tricks), not the race to the target.
    """

    KICK = "kick"
    GIFT = "gift"
    PENALTY = "penalty"
    HIGH = "high"
    LOW = "low"
    JACK = "jack"
    HANG_JACK = "hang_jack"
    GAME = "game"
    CAPTURE = "capture"


#: Section 3's strict order; captures (All Fives) take the place of high .. game.
CATEGORY_ORDER: dict[Category, int] = {
    Category.KICK: 0,
    Category.GIFT: 1,
    Category.PENALTY: 2,
    Category.HIGH: 3,
    Category.LOW: 4,
    Category.JACK: 5,
    Category.HANG_JACK: 5,
    Category.GAME: 6,
    Category.CAPTURE: 3,
}


@dataclass(frozen=True)
class Award:
    """Points to one side for one reason; ``counted`` is False after the game was won (or when
    a renege forfeits the game point)."""

    side: str
    category: Category
    points: int
    detail: str | None
    counted: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "category": str(self.category),
            "points": self.points,
            "detail": self.detail,
            "counted": self.counted,
        }


@dataclass(frozen=True)
class DecidedBy:
    """The award that took the winner to the target: its hand (1-based) and category."""

    hand: int
    category: Category

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "category": str(self.category)}


@dataclass
class HandScore:
    """One hand scored: its awards in strict order and the running totals after it."""

    number: int
    dealer: str
    outcome: str
    beg: str | None
    trump: str | None
    awards: list[Award] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    all_fours: str | None = None
    """The side that took high, low, jack and game (counted or not) in this hand, if any: not
    a side whose renege forfeited the game point (it cannot score game this hand)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "trump": self.trump,
            "awards": [award.to_json() for award in self.awards],
            "scores": dict(self.scores),
        }


@dataclass
class GameScore:
    """A game scored from its facts."""

    hands: list[HandScore]
    scores: dict[str, int]
    winner: str | None
    decided_by: DecidedBy | None
    next_dealer: str | None
    """The dealer to suggest for the next hand (None before the first hand)."""

    def to_json(self) -> dict[str, Any]:
        """Exactly the replay output of docs/rules.md section 7."""
        return {
            "hands": [hand.to_json() for hand in self.hands],
            "scores": dict(self.scores),
            "winner": self.winner,
            "decided_by": None if self.decided_by is None else self.decided_by.to_json(),
        }
