"""`{% game_path "scoring:hand_undo" game.pk %}`: `{% url %}` for a game's own addresses,
without reversing each time (`scoring.paths`)."""

from __future__ import annotations

from django import template

from scoring import paths

register = template.Library()


@register.simple_tag
def game_path(name: str, *numbers: int) -> str:
    return paths.game_path(name, *numbers)
