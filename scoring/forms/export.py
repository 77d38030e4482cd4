"""The page's words for the browser: ``static/scoring/offline/words.mjs`` is written from
``scoring/forms/words.py`` (``manage.py export_rules``), so the buttons' words and the table of
refusals live only there. ``tests/scoring/test_refusal_words.py`` fails when the file is out of
date. (The rules' own data goes to ``static/scoring/rules/generated.mjs``: the rules know nothing
of the page's words.)
"""

from __future__ import annotations

from pathlib import Path

from scoring.forms.cards import SUIT_NAMES, SUIT_SYMBOLS
from scoring.forms.words import (
    BEG_WORDS,
    KEY_WORDS,
    NONE_WORDS,
    OUTCOME_WORDS,
    PENALTY_WORDS,
    REFUSALS,
    SWAPS,
    WON_WITH,
)
from scoring.rules.export import es_module

GENERATED = Path(__file__).resolve().parents[2] / "static" / "scoring" / "offline" / "words.mjs"


def render() -> str:
    """The text of ``words.mjs``."""
    constants = {
        "PENALTY_WORDS": PENALTY_WORDS,
        "OUTCOME_WORDS": OUTCOME_WORDS,
        "BEG_WORDS": BEG_WORDS,
        "NONE_WORDS": NONE_WORDS,
        "KEY_WORDS": KEY_WORDS,
        "SUIT_NAMES": SUIT_NAMES,
        "SUIT_SYMBOLS": SUIT_SYMBOLS,
        "WON_WITH": WON_WITH,
    }
    rows = {"REFUSALS": REFUSALS, "SWAPS": SWAPS}
    return es_module("scoring/forms/words.py", constants, rows)
