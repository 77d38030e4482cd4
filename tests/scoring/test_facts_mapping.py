"""The facts↔fields mapping: a hand's facts, shown in the hand form and posted back unchanged,
are the same facts. Each case is a hand a scorer records; no database is needed."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.forms import HandForm, fields_from_facts
from scoring.models import Side
from scoring.rules import PRESETS, score_game

SIDES = [Side(label="A", name="Reds", position=0), Side(label="B", name="Blues", position=1)]
THREE = [*SIDES, Side(label="C", name="Greens", position=2)]

CASES: list[tuple[str, list[Side], dict[str, Any]]] = [
    (
        "trinidad",
        SIDES,
        {
            "dealer": "A",
            "turn_ups": ["5H"],
            "beg": "stand",
            "high": "A",
            "low": "B",
            "jack": {"held_by": "A", "won_by": "A"},
            "game": "B",
        },
    ),
    (
        "trinidad",
        SIDES,
        {
            "dealer": "B",
            "turn_ups": ["6H"],
            "beg": "stand",
            "high": "A",
            "low": "A",
            "jack": {"held_by": "B", "won_by": "A"},
            "game": {"A": 40, "B": 30},
            "penalties": [{"kind": "renege", "side": "B"}],
        },
    ),
    (
        "trinidad",
        SIDES,
        {
            "dealer": "A",
            "turn_ups": ["5H", "7S"],
            "beg": "run",
            "high": "B",
            "low": "B",
            "jack": None,
            "game": "tie",
        },
    ),
    (
        "trinidad",
        SIDES,
        {
            "dealer": "A",
            "turn_ups": ["5H", "7H", "9H"],
            "beg": "run",
            "outcome": "pack_exhausted",
        },
    ),
    (
        "trinidad",
        SIDES,
        {
            "dealer": "A",
            "turn_ups": ["4C"],
            "beg": "take_one",
            "high": None,
            "low": None,
            "jack": None,
            "game": "A",
            "penalties": [{"kind": "points", "to": "B", "points": 2, "note": "slow play"}],
        },
    ),
    ("trinidad", SIDES, {"dealer": "B", "outcome": "misdeal"}),
    ("original", SIDES, {"dealer": "A", "turn_ups": ["4C"], "beg": "take_one"}),
    (
        "west_yorkshire",
        THREE,
        {
            "dealer": "C",
            "high": "A",
            "low": "C",
            "jack": {"held_by": "B", "won_by": "B"},
            "game": {"A": 30, "B": 30, "C": 20},
            "penalties": [
                {"kind": "early_look", "side": "A"},
                {"kind": "under_trump", "side": "C"},
            ],
        },
    ),
    (
        "all_fives",
        SIDES,
        {
            "dealer": "A",
            "turn_ups": ["4S"],
            "beg": "stand",
            "captures": [{"card": "10S", "side": "A"}, {"card": "5S", "side": "B"}],
        },
    ),
]


def _posted(initial: dict[str, Any]) -> dict[str, str]:
    """The form's initial values as the browser posts them back."""
    return {key: str(value) for key, value in initial.items() if value not in (None, "")}


@pytest.mark.parametrize(("variant", "sides", "facts"), CASES)
def test_facts_shown_in_the_form_come_back_unchanged(variant, sides, facts) -> None:
    ruleset = PRESETS[variant]
    # Each case is a hand the engine accepts.
    score_game(ruleset=ruleset, sides=[s.label for s in sides], hands=[facts])
    initial = fields_from_facts(ruleset=ruleset, facts=facts, dealer="A", number=1, revision=0)
    form = HandForm(_posted(initial), ruleset=ruleset, sides=sides, correcting=True)
    assert form.is_valid(), form.errors
    assert form.facts == facts
