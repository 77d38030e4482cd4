"""Where a game is played, in time: the zone its moments (its audit trail's) are shown in.

A stand-alone game is in the site's zone (``TIME_ZONE``). An app whose games belong to something
with a zone of its own (a league's fixture, a cup's tie: the league's) registers a lookup from
``AppConfig.ready``, as with ``scoring.permissions.register_scorer_check``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings

ZoneLookup = Callable[[Any], str | None]

_lookups: dict[str, ZoneLookup] = {}


def register_game_zone(name: str, lookup: ZoneLookup) -> None:
    """``lookup(game)`` gives the game's zone name, or None when the game is not the app's;
    ``name`` makes registering twice harmless."""
    _lookups[name] = lookup


def zone_words(name: str) -> str:
    """The zone as a reader says it: "America/Port_of_Spain" -> "Port of Spain time"."""
    if name == "UTC":
        return "UTC"
    return f"{name.rsplit('/', 1)[-1].replace('_', ' ')} time"


def game_zone(game: Any) -> str:
    """The IANA name of the zone ``game``'s moments are shown in."""
    for lookup in _lookups.values():
        zone = lookup(game)
        if zone:
            return zone
    return str(settings.TIME_ZONE)
