"""The fresh hand form of a game (nothing tapped yet), rendered once per process and filled in
for each hand.

Rendering the hand form (the card picker, the tap groups, the penalty buttons) is most of the
work of answering a recorded hand, and a fresh form depends only on the game (its address), its
ruleset, its sides' names and who deals. That is rendered once and kept; each answer fills in
what differs per hand and per request: the CSRF token, the one-time entry key and the expected
hand number. The result is byte for byte what rendering the template gives (a test says so).
"""

from __future__ import annotations

import json
import secrets
import threading
import uuid
from collections.abc import Sequence

from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from scoring.forms import HandForm, fields_from_facts
from scoring.models import Game, Side

#: Marks where the per-hand values go. Random per process, so no side's name can contain them.
_MARK = secrets.token_hex(8)
CSRF, ENTRY_KEY, NUMBER = (f"fresh-{name}-{_MARK}" for name in ("csrf", "key", "number"))

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
    key = (
        game.pk,
        json.dumps(game.ruleset, sort_keys=True),
        tuple((side.label, side.name) for side in sides),
        dealer,
    )
    html = _kept.get(key)
    if html is None:
        html = _render(game, sides, dealer)
        with _lock:
            if len(_kept) >= KEPT:
                _kept.pop(next(iter(_kept)))
            _kept[key] = html
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


def _render(game: Game, sides: Sequence[Side], dealer: str) -> str:
    form = hand_form(game, sides, dealer=dealer, number=NUMBER)
    form.initial["entry_key"] = ENTRY_KEY
    context = {
        "form": form,
        "action": reverse("scoring:hand_record", kwargs={"pk": game.pk}),
        "submit_label": "Record hand",
        "htmx": True,
        "csrf_token": CSRF,
    }
    return get_template("scoring/_hand_form.html").render(context)
