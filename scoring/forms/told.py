"""A hand's facts as a player tells them, a line a fact, for the audit trail: "Beg: Blues begged;
the dealer ran the pack", "Penalties: Blues reneged; 1 point to Reds (late lead)", never the
replay format's "run" or "Points (to Reds, points 1)"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.defaultfilters import pluralize

from scoring.forms.cards import card_label
from scoring.forms.words import NONE_WORDS, OUTCOME_WORDS
from scoring.rules import questions

#: Each fact of a hand (a replay-file hand: docs/rules.md section 7) in the order a hand is
#: told, under the name a line gives it.
FACT_NAMES = {
    "dealer": "Dealer",
    "turn_ups": "Cards turned up",
    "beg": "Beg",
    "outcome": "Outcome",
    "high": "High",
    "low": "Low",
    "jack": "Jack of trumps",
    "game": "Game",
    "penalties": "Penalties",
    "captures": "Trumps captured",
}
#: What the side next to the dealer did at the beg: `{beggar}` is its name.
BEG_TOLD = {
    "stand": "{beggar} stood",
    "take_one": "{beggar} begged; the dealer gave one",
    "run": "{beggar} begged; the dealer ran the pack",
}
#: What an offending side did: "Blues reneged".
PENALTY_TOLD = {
    "renege": "reneged",
    "renege_top_trump": "reneged holding a top trump",
    "under_trump": "under-trumped",
    "early_look": "looked before the pitch",
    "misdeal": "misdealt",
}


def told(facts: Mapping[str, Any] | None, names: Mapping[str, str]) -> dict[str, str]:
    """The hand's facts as lines, by the names of ``FACT_NAMES`` in their order: each side by
    its name (``names``: the sides' names by label, in play order), cards with suit symbols;
    a fact the hand does not have has no line. A fact of another kind reads as it is stored."""
    if not isinstance(facts, Mapping):
        return {}
    keys = [key for key in FACT_NAMES if key in facts]
    keys += [str(key) for key in facts if key not in FACT_NAMES]
    return {
        FACT_NAMES.get(key, key.replace("_", " ").capitalize()): _fact(
            key, facts[key], facts, names
        )
        for key in keys
    }


def _fact(key: str, value: Any, facts: Mapping[str, Any], names: Mapping[str, str]) -> str:
    def name(label: Any) -> str:
        return names.get(str(label), str(label))

    if key == "turn_ups" and isinstance(value, list):
        return ", ".join(card_label(str(card)) for card in value)
    if key == "beg" and value in BEG_TOLD:
        return BEG_TOLD[value].format(beggar=name(_beggar(facts, names)))
    if key == "outcome":
        return OUTCOME_WORDS.get(str(value), str(value))
    if key in ("high", "low"):
        return NONE_WORDS[key] if value is None else name(value)
    if key == "jack":
        return _jack(value, name)
    if key == "game":
        if isinstance(value, Mapping):
            return ", ".join(f"{name(side)} {points}" for side, points in value.items())
        return "tied" if value == "tie" else name(value)
    if key == "penalties" and isinstance(value, list):
        return "; ".join(_penalty(penalty, name) for penalty in value) or "none"
    if key == "captures" and isinstance(value, list):
        return ", ".join(
            f"{card_label(str(c.get('card')))} to {name(c.get('side'))}"
            if isinstance(c, Mapping)
            else str(c)
            for c in value
        )
    return name(value)


def _beggar(facts: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The side next to the dealer (the beggar), or the dealer's label where it is no side."""
    dealer = str(facts.get("dealer"))
    return questions.beggar(list(names), dealer) if dealer in names else dealer


def _jack(value: Any, name: Any) -> str:
    """ "Reds held it, Blues won it", "Reds held it and won it", "Blues won it", "Not out"."""
    if not isinstance(value, Mapping):
        return NONE_WORDS["jack"] if value is None else name(value)
    held, won = value.get("held_by"), value.get("won_by")
    if held is None:
        return f"{name(won)} won it"
    if held == won:
        return f"{name(held)} held it and won it"
    return f"{name(held)} held it, {name(won)} won it"


def _penalty(penalty: Any, name: Any) -> str:
    """ "Blues reneged", "1 point to Reds (late lead)", "2 points to Blues"."""
    if not isinstance(penalty, Mapping):
        return str(penalty)
    kind = str(penalty.get("kind"))
    if kind == "points":
        points = penalty.get("points")
        said = f"{points} point{pluralize(points)} to {name(penalty.get('to'))}"
        return f"{said} ({penalty['note']})" if penalty.get("note") else said
    done = PENALTY_TOLD.get(kind, kind.replace("_", " "))
    return f"{name(penalty.get('side'))} {done}"
