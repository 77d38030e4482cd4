"""The rules' data for the browser: presets and option names as an ES module.

``static/scoring/rules/generated.mjs`` is written from here (``manage.py export_rules``), so the
presets live only in ``presets.py``; ``tests/rules/test_rules_js.py`` fails when the file is out
of date. Mappings are written as lists of pairs: their order shows in messages.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from .facts import BEGS, HAND_KEYS, OUTCOMES, PENALTY_KINDS
from .presets import PRESETS
from .ruleset import GAME_TIE_RULES, KICKS_ON, LOW_RULES, OPTIONS, TRUMPS

GENERATED = Path(__file__).resolve().parents[2] / "static" / "scoring" / "rules" / "generated.mjs"


def _value(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "to_dict"):
        return [[key, _value(item)] for key, item in value.items()]
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    return value


def render() -> str:
    """The text of ``generated.mjs``."""
    presets = [
        {field.name: _value(getattr(ruleset, field.name)) for field in dataclasses.fields(ruleset)}
        for ruleset in PRESETS.values()
    ]
    constants = {
        "OPTIONS": OPTIONS,
        "HAND_KEYS": HAND_KEYS,
        "BEGS": BEGS,
        "OUTCOMES": OUTCOMES,
        "PENALTY_KINDS": PENALTY_KINDS,
        "TRUMPS": TRUMPS,
        "LOW_RULES": LOW_RULES,
        "GAME_TIE_RULES": GAME_TIE_RULES,
        "KICKS_ON": KICKS_ON,
    }
    lines = [
        "// Generated from scoring/rules by `manage.py export_rules`: do not edit by hand.",
        "",
    ]
    for name, value in constants.items():
        lines.append(f"export const {name} = {json.dumps(list(value))};")
    lines.append("export const PRESET_FIELDS = [")
    for preset in presets:
        lines.append(f"  {json.dumps(preset, ensure_ascii=False)},")
    lines.append("];")
    return "\n".join(lines) + "\n"
