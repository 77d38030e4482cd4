"""Forms for scoring: starting a game (`new_game`) and entering a hand (`hand`).

`facts` maps one hand's facts to the hand form's fields and back; `cards` shows cards as a scorer
reads them; `fields` holds the pieces both forms share.
"""

from scoring.forms.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, card_label, split_cards
from scoring.forms.facts import facts_from_fields, fields_from_facts
from scoring.forms.hand import HandForm
from scoring.forms.new_game import NewGameForm

__all__ = [
    "RANKS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "HandForm",
    "NewGameForm",
    "card_label",
    "facts_from_fields",
    "fields_from_facts",
    "split_cards",
]
