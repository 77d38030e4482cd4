"""What match a game is played for: a league fixture's table, a cup tie. Every viewer of the game
page is linked to it, and told what it says of the game (its table's result taken from the
score card instead of the hands scored here).

An app whose games belong to a match registers a lookup from ``AppConfig.ready``, as with
``scoring.zones.register_game_zone``. The game page reads a game with the rows the apps attach
to it one-to-one (``attached_relations``), so a lookup asks nothing of a game that is not its
own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.models import Game


@dataclass(frozen=True)
class GameMatch:
    """The match a game is played for, as its page names it."""

    title: str
    """"Black Bull A v Woolpack, table 2"."""
    url: str
    """The match's page."""
    note: str = ""
    """What the match says of the game's result, if anything ("This table's result was
    settled from the score card: 11–8. …")."""


MatchLookup = Callable[[Any], GameMatch | None]

_lookups: dict[str, MatchLookup] = {}


def register_game_match(name: str, lookup: MatchLookup) -> None:
    """``lookup(game)`` gives the match ``game`` is played for, or None when the game is not the
    app's; ``name`` makes registering twice harmless."""
    _lookups[name] = lookup


def game_match(game: Any) -> GameMatch | None:
    """The match ``game`` is played for, or None (a stand-alone game)."""
    for lookup in _lookups.values():
        found = lookup(game)
        if found is not None:
            return found
    return None


def attached_relations(prefix: str = "") -> list[str]:
    """The rows other apps attach to a game one-to-one (a league table's game, a cup tie's
    game), as ``select_related`` names them from a query of ``prefix`` ("game__" from a
    side): read with the game, an app learns without a query of its own whether it is its."""
    return [
        f"{prefix}{relation.get_accessor_name()}"
        for relation in Game._meta.related_objects
        if relation.one_to_one
    ]
