"""The rules' data for the browser: presets and option names as an ES module.

``static/scoring/rules/generated.mjs`` is written from here (``manage.py export_rules``), so the
presets live only in ``presets.py``; ``tests/rules/test_rules_js.py`` fails when the file is out
of date. Mappings are written as lists of pairs: their order shows in messages.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .facts import BEGS, HAND_KEYS, OUTCOMES, PENALTY_KINDS, TURN_UPS_BY_BEG
from .presets import PRESETS
from .ruleset import GAME_TIE_RULES, KICKS_ON, LOW_RULES, OPTIONS, TRUMPS

GENERATED = Path(__file__).resolve().parents[2] / "static" / "scoring" / "rules" / "generated.mjs"


def _value(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "to_dict"):
        return [[key, _value(item)] for key, item in value.items()]
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    return value


def es_module(source: str, constants: Mapping[str, Any], rows: Mapping[str, Iterable[Any]]) -> str:
    """An ES module of JSON data: each of ``constants`` on one line, each of ``rows`` a list
    written one item a line. ``source`` is where it is generated from."""
    lines = [f"// Generated from {source} by `manage.py export_rules`: do not edit by hand.", ""]
    for name, value in constants.items():
        lines.append(f"export const {name} = {json.dumps(value, ensure_ascii=False)};")
    for name, items in rows.items():
        lines.append(f"export const {name} = [")
        lines.extend(f"  {json.dumps(item, ensure_ascii=False)}," for item in items)
        lines.append("];")
    return "\n".join(lines) + "\n"


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
        "TURN_UPS_BY_BEG": TURN_UPS_BY_BEG,
        "OUTCOMES": OUTCOMES,
        "PENALTY_KINDS": PENALTY_KINDS,
        "TRUMPS": TRUMPS,
        "LOW_RULES": LOW_RULES,
        "GAME_TIE_RULES": GAME_TIE_RULES,
        "KICKS_ON": KICKS_ON,
    }
    return es_module("scoring/rules", constants, {"PRESET_FIELDS": presets})
