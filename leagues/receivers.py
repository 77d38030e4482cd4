"""Signal receivers: they only hand over to services."""

from __future__ import annotations

from typing import Any


def on_game_changed(sender: Any, *, game: Any, **kwargs: Any) -> None:
    """A scored game changed: if it was played at a fixture table, roll the fixture up again."""
    from leagues.services.results import fixture_game_changed

    fixture_game_changed(game=game)


def on_scoring_link_reissued(sender: Any, *, old: Any, new: Any, **kwargs: Any) -> None:
    """A link was re-issued (say from a game's page): the fixture table that held it follows."""
    from leagues.services.results import table_link_follow

    table_link_follow(old=old, new=new)
