"""The list of recent games, on the project's base table."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from config.tables import BaseTable
from scoring.models import Game

#: A game id no game has, to find where the id goes in a game's address.
_MARK = 987_654_321


class GameTable(BaseTable):
    """Recent games (`scoring.selectors.recent_games`: each with its sides in play order and
    its number of hands)."""

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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each game's address, from one worked out once for the table.
        marked = reverse("scoring:game", kwargs={"pk": _MARK})
        self._game_url = marked.replace(str(_MARK), "{}", 1)

    def render_game(self, record: Game) -> Any:
        return format_html('<a href="{}">{}</a>', self._game_url.format(record.pk), str(record))

    def value_game(self, record: Game) -> str:
        return str(record)

    def render_sides(self, record: Game) -> str:
        return " v ".join(f"{side.name} {side.score}" for side in record.sides_in_order)

    def render_variant(self, record: Game) -> str:
        return record.rules.label

    def render_status(self, record: Game, value: str) -> str:
        if record.winner:
            winner = next((s for s in record.sides_in_order if s.label == record.winner), None)
            return f"Won by {winner.name if winner else record.winner}"
        return record.status_words  # "Not started" before a hand is recorded

    def value_status(self, record: Game, value: str) -> str:
        return self.render_status(record, value)
