"""Signal receivers: they only hand over to services."""

from __future__ import annotations

from typing import Any


def on_game_changed(sender: Any, *, game: Any, was: str | None, **kwargs: Any) -> None:
    """A scored game changed: if it is a game of a cup tie, roll the tie up again."""
    from cups.services.ties import tie_game_changed

    tie_game_changed(game=game, was=was)


def on_fixture_saved(sender: Any, *, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """A fixture, its result or a submission of it was saved: a cup tie played as that fixture
    follows (its winner goes through once the result counts)."""
    if raw:
        return
    from cups.services.ties import tie_fixture_changed

    fixture_id = instance.pk if sender.__name__ == "Fixture" else instance.fixture_id
    tie_fixture_changed(fixture_id=fixture_id)
