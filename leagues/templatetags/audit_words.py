"""``{% audit_changes entry.before entry.after %}``: what an audit entry changed, one line per
field in the page's words ("Status: scheduled → postponed", "Jack won by: Blues → Reds"), never
the stored JSON. Every audit page uses it: the league's, a fixture's, a tie's and a game's.

Give ``game=`` for a game's hands: its sides' letters ("A", "B") read as their names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import template

from leagues.models import FixtureTable
from scoring.forms.cards import card_label
from scoring.forms.words import KEY_WORDS, OUTCOME_WORDS, PENALTY_WORDS
from scoring.models import names_by_label

register = template.Library()

#: What an empty or missing value reads as.
NOTHING = "—"
#: Keys whose values are cards ("JS" reads "J♠").
CARD_KEYS = {"turn_ups", "card"}
#: Keys whose values have words of their own on the scoring pages.
VALUE_WORDS = {"outcome": OUTCOME_WORDS, "kind": PENALTY_WORDS}
#: Keys whose whole-number values are a record's id, stored for the operator beside the names
#: the entry also stores (its subject, ``username``, ``player_name``): not shown as a change.
ID_KEYS = {"invitation", "player", "season", "team", "user"}
#: A stored code such as "pack_exhausted": read with spaces.
CODE = re.compile(r"[a-z]+(?:_[a-z]+)+")
#: Keys whose object's fields read without the key: a result's "figures" ("Home tables: 3"),
#: a score card table's "card" ("Table 1 games: 11–7").
SILENT_OBJECTS = {"figures", "card"}
#: Keys whose two numbers are the home and away sides' ("1–1"), or a list of such pairs, a
#: game a pair ("14–9, 14–12").
SCORE_KEYS = {"games", "bullseyes", "hang_jacks"}
#: Keys whose values have words of their own on the league's pages (the model's labels).
LEAGUE_VALUE_WORDS = {"source": dict(FixtureTable.Source.choices)}


@dataclass(frozen=True)
class Change:
    """One field: ``before`` is None when the entry had nothing before (a thing made)."""

    field: str
    before: str | None
    after: str


def _key(key: str, names: dict[str, str]) -> str:
    if key.isdigit():
        # A score card's tables, by board.
        return f"table {key}"
    return names.get(key) or KEY_WORDS.get(key) or key.replace("_", " ")


def _fields(state: Any, names: dict[str, str], prefix: str = "") -> dict[tuple[str, str], Any]:
    """The state's fields, a nested object's under its key's words: (key, words) → value."""
    if not isinstance(state, dict):
        return {} if state is None else {("", prefix): state}
    fields: dict[tuple[str, str], Any] = {}
    for key, value in state.items():
        if key in ID_KEYS and type(value) is int:
            continue
        silent = key in SILENT_OBJECTS and isinstance(value, dict)
        words = prefix if silent else f"{prefix} {_key(str(key), names)}".strip()
        if isinstance(value, dict) and value:
            fields |= _fields(value, names, words)
        else:
            fields[(str(key), words)] = value
    return fields


def _text(value: Any, key: str, names: dict[str, str]) -> str:
    """A value in words: sides by name, cards with suit symbols, codes with spaces."""
    if value is None or value == "" or value == [] or value == {}:
        return NOTHING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in SCORE_KEYS and isinstance(value, list):
        if len(value) == 2 and all(type(n) is int for n in value):
            return f"{value[0]}–{value[1]}"
        return ", ".join(_text(item, key, names) for item in value)
    if isinstance(value, list):
        return ", ".join(_text(item, key, names) for item in value)
    if isinstance(value, dict):
        return _headline(value, names)
    text = str(value)
    if key in CARD_KEYS:
        return card_label(text)
    if text in names:
        return names[text]
    if text in VALUE_WORDS.get(key, {}):
        return VALUE_WORDS[key][text]
    if text in LEAGUE_VALUE_WORDS.get(key, {}):
        return LEAGUE_VALUE_WORDS[key][text]
    return text.replace("_", " ") if CODE.fullmatch(text) else text


def _headline(item: dict[str, Any], names: dict[str, str]) -> str:
    """One item of a list ("Renege (side Reds)"): its first value, then the others it adds."""
    (key, value), *rest = item.items()
    head = _text(value, key, names)
    more = [(k, _text(v, k, names)) for k, v in rest]
    said = ", ".join(f"{_key(k, names)} {text}" for k, text in more if text != head)
    return f"{head} ({said})" if said else head


def changes(before: Any, after: Any, names: dict[str, str] | None = None) -> list[Change]:
    """The fields whose words differ between ``before`` and ``after``, in their stored order."""
    names = names or {}
    old, new = _fields(before, names), _fields(after, names)
    made = before is None or before == {}
    lines = []
    for key, words in dict.fromkeys([*old, *new]):
        was = _text(old.get((key, words)), key, names)
        now = _text(new.get((key, words)), key, names)
        if was != now:
            field = words[:1].upper() + words[1:]
            lines.append(Change(field, None if made else was, now))
    return lines


@register.inclusion_tag("leagues/_audit_changes.html")
def audit_changes(before: Any, after: Any, game: Any = None) -> dict[str, Any]:
    names = names_by_label(game.sides.all()) if game is not None else {}
    return {"lines": changes(before, after, names)}
