"""The fresh hand form of a game (nothing tapped yet), rendered once per process and filled in
for each hand.

Rendering the hand form (the card picker, the tap groups, the penalty buttons) is most of the
work of answering a recorded hand, and of the page of every game just started (some 10 ms
each, when a league night starts its games at once). A fresh form depends only on the ruleset,
the sides, who deals and the game's address. It is rendered once per ruleset, side labels and
dealer, with marks for the sides' names and the game's address, and kept; each answer fills in
the names, the address and what differs per hand and per request: the CSRF token, the one-time
entry key and the expected hand number. The result is byte for byte what rendering the template
gives (a test says so); a form whose names the template shows other than as given (or as a
possessive) is rendered for its game instead.
"""

from __future__ import annotations

import json
import secrets
import threading
import uuid
from collections.abc import Sequence

from django.template.loader import get_template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.forms import HandForm, fields_from_facts
from scoring.forms.words import possessive
from scoring.models import Game, Side
from scoring.paths import game_path

#: Marks where the per-hand values go. Random per process, so no side's name can contain them.
_MARK = secrets.token_hex(8)
CSRF, ENTRY_KEY, NUMBER = (f"fresh-{name}-{_MARK}" for name in ("csrf", "key", "number"))
#: The game's id in the kept form's address: past the largest id the database can give.
GAME = 10**19 + int(_MARK[:8], 16)


def _name_mark(label: str) -> str:
    return f"fresh-side-{label}-{_MARK}"


#: Rendered forms kept per process: about 12 KB each.
KEPT = 256
_kept: dict[tuple[object, ...], str] = {}
_lock = threading.Lock()


def fresh_form_html(
    *, csrf_token: str, game: Game, sides: Sequence[Side], number: int
) -> SafeString:
    """The fresh form for hand `number` of `game`, with the dealer the game suggests.
    `csrf_token` is the one the rest of the page carries (one random string, not two: the
    compressed reply stays small)."""
    dealer = game.next_dealer or game.first_dealer
    key = (json.dumps(game.ruleset, sort_keys=True), tuple(side.label for side in sides), dealer)
    html = _kept.get(key)
    if html is None:
        html = _render(game, _marked(sides), dealer, pk=GAME)
        with _lock:
            if len(_kept) >= KEPT:
                _kept.pop(next(iter(_kept)))
            _kept[key] = html
    html = html.replace(_action(GAME), _action(game.pk))
    for side in sides:
        mark = _name_mark(side.label)
        html = html.replace(escape(possessive(mark)), escape(possessive(side.name)))
        html = html.replace(mark, str(escape(side.name)))
    rest = html.replace(CSRF, "").replace(ENTRY_KEY, "").replace(NUMBER, "")
    if _MARK in rest or str(GAME) in rest:
        html = _render(game, sides, dealer, pk=game.pk)  # a name shown some other way
    filled = (
        html.replace(CSRF, csrf_token)
        .replace(ENTRY_KEY, str(uuid.uuid4()))
        .replace(NUMBER, str(number))
    )
    # The template escaped what it rendered; the values filled in are a token, a UUID, a number.
    return mark_safe(filled)


def hand_form(game: Game, sides: Sequence[Side], *, dealer: str, number: object) -> HandForm:
    """A fresh hand form: nothing tapped, `dealer` dealing hand `number`."""
    initial = fields_from_facts(ruleset=game.rules, facts=None, dealer=dealer, number=0)
    initial["expected_number"] = number
    return HandForm(initial=initial, ruleset=game.rules, sides=list(sides))


def _marked(sides: Sequence[Side]) -> list[Side]:
    """The sides with marks for names (unsaved copies)."""
    return [
        Side(label=side.label, name=_name_mark(side.label), position=side.position)
        for side in sides
    ]


def _action(pk: int) -> str:
    return game_path("scoring:hand_record", pk)


def _render(game: Game, sides: Sequence[Side], dealer: str, *, pk: int) -> str:
    form = hand_form(game, sides, dealer=dealer, number=NUMBER)
    form.initial["entry_key"] = ENTRY_KEY
    context = {
        "form": form,
        "action": _action(pk),
        "submit_label": "Record hand",
        "htmx": True,
        "csrf_token": CSRF,
    }
    return get_template("scoring/_hand_form.html").render(context)
