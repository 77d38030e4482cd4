"""The list of recent games, on the project's base table."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.html import format_html

from config.tables import BaseTable
from scoring.models import Game


class GameTable(BaseTable):
    # render_game makes the link, as linkify would, without working out its arguments per row.
    game = tables.Column(accessor="pk", verbose_name="Game")
    sides = tables.Column(accessor="pk", verbose_name="Sides and score")
    variant = tables.Column(verbose_name="Variant")
    hand_count = tables.Column(verbose_name="Hands", attrs={"td": {"class": "num"}})
    status = tables.Column(verbose_name="Status")

    export_name = "games"

    class Meta(BaseTable.Meta):
        model = Game
        fields = ("game", "sides", "variant", "hand_count", "status")
        empty_text = "No games yet: start one."
        orderable = False
        attrs = {"class": "data-table games", "id": "game-list"}

    def render_game(self, record: Game) -> Any:
        return format_html('<a href="{}">{}</a>', record.get_absolute_url(), str(record))

    def value_game(self, record: Game) -> str:
        return str(record)

    def render_sides(self, record: Game) -> str:
        return " v ".join(f"{side.name} {side.score}" for side in record.sides.all())

    def render_variant(self, record: Game) -> str:
        return record.rules.label

    def render_status(self, record: Game) -> str:
        if record.winner:
            winner = next((s for s in record.sides.all() if s.label == record.winner), None)
            return f"Won by {winner.name if winner else record.winner}"
        return record.get_status_display()
