"""The one exception the rules engine raises: facts a scorer must correct."""

from __future__ import annotations


class InvalidFacts(ValueError):
    """Recorded facts (or a ruleset, sides, start scores) that the rules refuse.

    ``hand`` is the 1-based number of the offending hand, or None for a problem with the game as a
    whole. ``fact`` names what is wrong: a hand key ("dealer", "turn_ups", "beg", "outcome", "high",
    "low", "jack", "game", "penalties", "captures", or an unknown key) or "ruleset", "sides",
    "scores", "hands" for file-level problems. ``message`` is plain English without the hand prefix.
    """

    def __init__(self, hand: int | None, fact: str, message: str) -> None:
        self.hand = hand
        self.fact = fact
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.hand is None:
            return self.message
        return f"hand {self.hand}: {self.message}"

    def __reduce__(self) -> tuple[type[InvalidFacts], tuple[int | None, str, str]]:
        return (InvalidFacts, (self.hand, self.fact, self.message))
