"""The replay file (docs/rules.md section 7): a whole recorded game as one JSON object."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .engine import score_game
from .errors import InvalidFacts
from .result import GameScore
from .ruleset import ruleset_from_spec

FILE_KEYS: tuple[str, ...] = ("ruleset", "sides", "scores", "hands")


def score_replay(data: object) -> GameScore:
    """Score a parsed replay file; raises InvalidFacts naming the hand and the fact."""
    if not isinstance(data, Mapping):
        raise InvalidFacts(
            None,
            "hands",
            "a replay file is a JSON object with ruleset, sides, scores (optional) and hands",
        )
    for key in data:
        if key not in FILE_KEYS:
            raise InvalidFacts(
                None, str(key), f"unknown key {key!r} in the file (keys: {', '.join(FILE_KEYS)})"
            )
    for key in ("ruleset", "sides", "hands"):
        if key not in data:
            raise InvalidFacts(None, key, f"the file has no {key!r}")
    spec: Any = data["ruleset"]
    ruleset = ruleset_from_spec(spec)
    hands: Any = data["hands"]
    return score_game(ruleset=ruleset, sides=data["sides"], hands=hands, scores=data.get("scores"))
