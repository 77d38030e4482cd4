"""Pieces the scoring forms share: tap-button radios, side choices, number-box messages."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from scoring.models import Side


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


class TapRadio(forms.RadioSelect):
    """Radio buttons that the templates render as big tap buttons (label-wrapped inputs)."""
