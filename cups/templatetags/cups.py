"""``{% league_cups league %}``: a league's cups, for its pages (public and the desk)."""

from __future__ import annotations

from typing import Any

from django import template

from cups.selectors import league_competitions

register = template.Library()


@register.inclusion_tag("cups/_league_cups.html", takes_context=True)
def league_cups(context: dict[str, Any], league: Any, manage: bool = False) -> dict[str, Any]:
    return {"league": league, "competitions": league_competitions(league=league), "desk": manage}
