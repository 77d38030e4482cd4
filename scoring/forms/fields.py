"""Pieces the scoring forms share: tap-button radios, side choices, number-box messages."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from django import forms
from django.template.defaultfilters import pluralize
from django.utils.choices import BaseChoiceIterator

from scoring.models import Side


class PlainChoices(BaseChoiceIterator):
    """Choices that are already what Django makes of a list of (value, label) pairs of plain
    strings: a field given them takes them as they are. A list goes through Django's
    normalising twice for each choice field of every form built (once for the field, once for
    its widget), more than half of building the field; the hand form builds seven on every
    hand."""

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.pairs = list(pairs)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


def side_choices(sides: Sequence[Side]) -> list[tuple[str, str]]:
    return [(side.label, side.name) for side in sides]


def whole_number_messages(what: str, least: int, most: int) -> dict[str, str]:
    """Errors for a number box that name the box: the page may show them away from it."""
    wanted = f"{what} must be a whole number from {least} to {most}"
    return {
        "invalid": f"{wanted}.",
        "min_value": f"{wanted} (got %(show_value)s).",
        "max_value": f"{wanted} (got %(show_value)s).",
    }


class TargetField(forms.IntegerField):
    """The points a game is played to, refused in the game's words ("A game is played to at
    least 5 points."), never Django's "Ensure this value is greater than or equal to 5.": every
    form that takes a target (a new game, a league asked for, a league's or a season's rules)."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        least = f"{min_value} point{pluralize(min_value)}"
        super().__init__(
            min_value=min_value,
            max_value=max_value,
            error_messages={
                "invalid": "A game is played to a whole number of points.",
                "min_value": f"A game is played to at least {least}.",
                "max_value": f"A game is played to at most {max_value} points.",
            },
            **kwargs,
        )


class CountField(forms.IntegerField):
    """A number of things (``thing``: "group", "game"), refused in words a secretary reads
    ("At least 1 group.", "At most 15 games.", "A whole number of games."), never Django's
    "Ensure this value is less than or equal to 15."."""

    def __init__(
        self,
        *,
        thing: str,
        min_value: int | None = None,
        max_value: int | None = None,
        **kwargs: Any,
    ) -> None:
        def things(count: int) -> str:
            return f"{count} {thing}{pluralize(count)}"

        messages = {"invalid": f"A whole number of {thing}s."}
        if min_value is not None:
            messages["min_value"] = f"At least {things(min_value)}."
        if max_value is not None:
            messages["max_value"] = f"At most {things(max_value)}."
        super().__init__(
            min_value=min_value,
            max_value=max_value,
            error_messages=messages | kwargs.pop("error_messages", {}),
            **kwargs,
        )


class NumericInput(forms.NumberInput):
    """A number box that asks a phone for its digit keypad. Given to a field as a class, not an
    instance: a field deep-copies a widget instance it is given, and the hand form builds four
    such boxes on every hand."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"inputmode": "numeric", **(attrs or {})})


class TapRadio(forms.RadioSelect):
    """Radio buttons that the templates render as big tap buttons (label-wrapped inputs)."""
