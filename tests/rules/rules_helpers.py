"""Shared helpers for the rules-engine tests: a compact notation for awards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rules import Award, GameScore, ruleset_from_spec, score_game


def show(award: Award) -> str:
    """``"A kick 3 JH"``; ``" x"`` is appended when the award is not counted."""
    text = f"{award.side} {award.category} {award.points}"
    if award.detail is not None:
        text += f" {award.detail}"
    return text if award.counted else text + " x"


def play(
    spec: str | Mapping[str, Any],
    hands: Sequence[Mapping[str, Any]],
    sides: Sequence[str] = ("A", "B"),
    scores: Mapping[str, int] | None = None,
) -> GameScore:
    return score_game(ruleset=ruleset_from_spec(spec), sides=sides, hands=hands, scores=scores)


def awards(result: GameScore) -> list[list[str]]:
    return [[show(award) for award in hand.awards] for hand in result.hands]
