"""What match a game is played for: a league fixture's table, a cup tie. Every viewer of the game
page is linked to it, and told what it says of the game (its table's result taken from the
score card instead of the hands scored here).

An app whose games belong to a match registers a lookup from ``AppConfig.ready``, as with
``scoring.zones.register_game_zone``, with the relations from the game it reads
(``related``): the game page reads them with the game (``match_relations``), so a lookup asks
no query of its own, of its game or of one that is not its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameMatch:
    """The match a game is played for, as its page names it."""

    title: str
    """"Black Bull A v Woolpack, table 2"; "League Cup: Ann and Bob v Cy and Di"."""
    url: str
    """The match's page."""
    game: str
    """Which of the match's games it is: "Game 2", "Play-off game". The page names the game
    by its match and this, where the game's own title would repeat the match."""
    note: str = ""
    """What the match says of the game's result, if anything ("This table's result was
    settled from the score card: 11–8. …")."""


MatchLookup = Callable[[Any], GameMatch | None]

_lookups: dict[str, tuple[MatchLookup, tuple[str, ...]]] = {}


def register_game_match(name: str, lookup: MatchLookup, *, related: tuple[str, ...]) -> None:
    """``lookup(game)`` gives the match ``game`` is played for, or None when the game is not the
    app's, reading only ``related`` (``select_related`` paths from the game); ``name`` makes
    registering twice harmless."""
    _lookups[name] = (lookup, related)


def match_relations() -> list[str]:
    """What the registered lookups read, for the game's query to ``select_related``."""
    return [path for _, related in _lookups.values() for path in related]


def game_match(game: Any) -> GameMatch | None:
    """The match ``game`` is played for, or None (a stand-alone game)."""
    for lookup, _ in _lookups.values():
        found = lookup(game)
        if found is not None:
            return found
    return None
