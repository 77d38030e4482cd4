"""What the site accepts as typed input, in one place: free text without control characters
or direction overrides, ids of ASCII digits only, and dates in a sane range.

Every free-text form field is a ``TextField`` (several lines when its widget is a text area),
a person's name a ``NameField`` (no word too long to wrap on a phone, ``check_name_words``);
every id read from a query string or a post goes through ``strict_id``; every date field is a
``SaneDateField``. Bad input is a form error naming what was wrong, never a server error.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

#: Bidirectional overrides, embeddings and isolates: they reverse how a name reads on a page.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
#: The longest id a page accepts (larger would not fit a database key).
MAX_ID_DIGITS = 18
#: The largest id (or hand number) a page accepts: ``MAX_ID_DIGITS`` nines.
MAX_TYPED_ID = 10**MAX_ID_DIGITS - 1
#: Dates outside these years are typing mistakes (and overflow date arithmetic near 9999).
EARLIEST = datetime.date(1900, 1, 1)
LATEST = datetime.date(2199, 12, 31)


def one_spaced(text: str) -> str:
    """Text as a name is stored and compared: trimmed, each run of spaces, tabs or line breaks
    one space ("Royal  Oak " is "Royal Oak"). Every way a name comes in (a form, an import, a
    league's export, the admin) stores it so, so that looking a name up finds it whatever
    spaces were typed."""
    return " ".join(text.split())


#: The longest word a person's name may have: "Featherstonehaugh-Worthington" is 29; a longer
#: run of letters with no space is a slip that runs off a phone's screen.
LONGEST_NAME_WORD = 30


def check_name_words(name: str) -> None:
    """``ValidationError`` naming the word when a person's name (a player's, an account's) has
    a word longer than ``LONGEST_NAME_WORD``: every form and service that takes a name asks
    this, so no page has a name it cannot wrap on a phone."""
    for word in name.split():
        if len(word) > LONGEST_NAME_WORD:
            shown = word if len(word) <= 40 else f"{word[:40]}…"
            raise ValidationError(
                f"“{shown}” is one word of {len(word)} characters: a name's words are "
                f"{LONGEST_NAME_WORD} characters at most. Put in the spaces between its words.",
                code="long_word",
            )


def strict_id(text: Any) -> int | None:
    """``text`` as a positive id if it is ASCII digits only (not "²" or "١"), else ``None``."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not text or len(text) > MAX_ID_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def clean_text(value: str, *, multiline: bool = False) -> str:
    """``value`` with direction overrides removed; ``ValidationError`` if it holds a NUL or
    another control character (tabs and, for several lines, line breaks are allowed)."""
    allowed = "\t\r\n" if multiline else "\t"
    for char in value:
        if char in allowed:
            continue
        if unicodedata.category(char) == "Cc":
            name = "a NUL" if char == "\0" else f"a control character (U+{ord(char):04X})"
            raise ValidationError(
                f"This contains {name}, which cannot be stored: retype it.", code="control"
            )
    return BIDI_CONTROLS.sub("", value)


class TextField(forms.CharField):
    """A free-text field: control characters refused with a message, direction overrides
    stripped; line breaks are allowed when its widget is a text area."""

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        multiline = isinstance(self.widget, forms.Textarea)
        return clean_text(text, multiline=multiline) if text else text


class NameField(TextField):
    """A person's name: free text (``TextField``) with no word past ``LONGEST_NAME_WORD``
    (``check_name_words``)."""

    default_validators = [check_name_words]


class SaneDateField(forms.DateField):
    """A date between 1900 and 2199: a year like 9999 is a typing mistake."""

    def to_python(self, value: Any) -> datetime.date | None:
        date = super().to_python(value)
        if date is not None and not EARLIEST <= date <= LATEST:
            raise ValidationError(
                f"{date:%d %b %Y} is not a date the league could use: check the year.",
                code="out_of_range",
            )
        return date
