"""`{% game_path "scoring:hand_undo" game.pk %}`: `{% url %}` for a game's own addresses,
without reversing each time (`config.paths`)."""

from __future__ import annotations

from django import template

from config.paths import path_for

register = template.Library()


@register.simple_tag
def game_path(name: str, *numbers: int) -> str:
    return path_for(name, *numbers)
