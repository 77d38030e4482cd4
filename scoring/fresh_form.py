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
import re
import secrets
import threading
import uuid
from collections.abc import Sequence

from django.template.loader import get_template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from config.paths import path_for
from scoring.forms import HandForm, fields_from_facts
from scoring.forms.words import possessive
from scoring.models import Game, Side

#: Marks where the per-hand values go. Random per process, so no side's name can contain them.
_MARK = secrets.token_hex(8)
CSRF, ENTRY_KEY, NUMBER = (f"fresh-{name}-{_MARK}" for name in ("csrf", "key", "number"))
#: The game's id in the kept form's address: past the largest id the database can give.
GAME = 10**19 + int(_MARK[:8], 16)


def _name_mark(label: str) -> str:
    return f"fresh-side-{label}-{_MARK}"


#: Rendered forms kept per process (about 12 KB each), each cut at its marks (`_pieces`).
KEPT = 256
_kept: dict[tuple[object, ...], list[str] | None] = {}
_lock = threading.Lock()


def fresh_form_html(
    *, csrf_token: str, game: Game, sides: Sequence[Side], number: int
) -> SafeString:
    """The fresh form for hand `number` of `game`, with the dealer the game suggests.
    `csrf_token` is the one the rest of the page carries (one random string, not two: the
    compressed reply stays small)."""
    dealer = game.next_dealer or game.first_dealer
    labels = tuple(side.label for side in sides)
    key = (json.dumps(game.ruleset, sort_keys=True), labels, dealer)
    if key in _kept:
        pieces = _kept[key]
    else:
        pieces = _pieces(_render(game, _marked(sides), dealer, pk=GAME), labels)
        with _lock:
            if len(_kept) >= KEPT:
                _kept.pop(next(iter(_kept)))
            _kept[key] = pieces
    values = {CSRF: csrf_token, ENTRY_KEY: str(uuid.uuid4()), NUMBER: str(number)}
    if pieces is None:
        # A name the template shows other than as given (or as a possessive): rendered for
        # this game, then filled in.
        html = _render(game, sides, dealer, pk=game.pk)
        pieces = re.split(f"({re.escape(CSRF)}|{re.escape(ENTRY_KEY)}|{re.escape(NUMBER)})", html)
    else:
        values[_action(GAME)] = _action(game.pk)
        for side in sides:
            mark = _name_mark(side.label)
            values[escape(possessive(mark))] = escape(possessive(side.name))
            values[mark] = str(escape(side.name))
    # The template escaped what it rendered; the values filled in are a token, a UUID, a number
    # and the names and address as the template escapes them.
    return mark_safe("".join(values[piece] if i % 2 else piece for i, piece in enumerate(pieces)))


def _pieces(html: str, labels: Sequence[str]) -> list[str] | None:
    """The kept form cut at its marks: text, mark, text, ..., mark, text; None if the template
    shows a mark some other way than the values filled in (then it is rendered for each game)."""
    marks = [_action(GAME), CSRF, ENTRY_KEY, NUMBER]
    for label in labels:
        # The possessive first: it begins with the name's own mark.
        marks += [escape(possessive(_name_mark(label))), _name_mark(label)]
    pieces = re.split("(" + "|".join(re.escape(mark) for mark in marks) + ")", html)
    if any(_MARK in text or str(GAME) in text for text in pieces[0::2]):
        return None
    return pieces


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
    return path_for("scoring:hand_record", pk)


def _render(game: Game, sides: Sequence[Side], dealer: str, *, pk: int) -> str:
    form = hand_form(game, sides, dealer=dealer, number=NUMBER)
    form.initial["entry_key"] = ENTRY_KEY
    context = {
        "form": form,
        "action": _action(pk),
        "submit_label": "Record hand",
        "htmx": True,
        # Nothing tapped: the page's script draws the next hand's form from it (scoring.js).
        "fresh": True,
        "csrf_token": CSRF,
    }
    return get_template("scoring/_hand_form.html").render(context)
