"""`{% offline_state game can_score %}`: the game as the phone scores it offline, as JSON data."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from scoring.models import Game
from scoring.offline import page_state

register = template.Library()


@register.simple_tag
def offline_state(game: Game, can_score: bool) -> SafeString:
    return json_script(page_state(game, can_score=bool(can_score)), "offline-state")
