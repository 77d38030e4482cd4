"""The rules of All Fours as this app scores them: pure Python, no Django.

The rules it implements are set out in docs/rules.md. Public API::

    from scoring.rules import (
        Ruleset, PRESETS, ruleset_from_spec,
        score_game, GameScore, HandScore, Award, DecidedBy, Category,
        InvalidFacts,
    )

Modules: ``cards`` (card notation, pack arithmetic), ``ruleset`` (the Ruleset value and its
options), ``presets`` (the ten presets), ``facts`` (reading and checking one hand),
``engine`` (strict-order scoring), ``result`` (awards and results, JSON output), ``replay``
(the replay file format).
"""

from . import questions
from .cards import Card, max_turn_ups, parse_card
from .engine import score_game
from .errors import InvalidFacts
from .facts import HAND_KEYS
from .presets import PRESETS
from .replay import score_replay
from .result import Award, Category, DecidedBy, GameScore, HandScore
from .ruleset import OPTIONS, Ruleset, ruleset_from_spec

__all__ = [
    "HAND_KEYS",
    "OPTIONS",
    "PRESETS",
    "Award",
    "Card",
    "Category",
    "DecidedBy",
    "GameScore",
    "HandScore",
    "InvalidFacts",
    "Ruleset",
    "max_turn_ups",
    "parse_card",
    "questions",
    "ruleset_from_spec",
    "score_game",
    "score_replay",
]
