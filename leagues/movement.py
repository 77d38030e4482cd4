"""Promotion and relegation: the one rule that says which teams of a division go up or down.

Pure Python (no Django). The table's marks (C, ↑, ↓, through ``leagues.selectors.race``) and
"Start the next season" (``leagues.services.seasons``) both ask it, so what the final table
marks is what the next season does.

The rule:

* places go up only where there is a division above, down only where there is one below;
* a withdrawn team (its results standing or expunged) goes down first: it can never be
  promoted, and it is relegated wherever a division is below (in the lowest division it is left
  out of the next season);
* a withdrawn team does not take one of the relegation places (the teams still playing lose as
  many as ever) unless the league says it does (``withdrawn_take_places``);
* the places are never more than the teams still playing: the top ``up`` of them go up, the
  bottom ``down`` of the rest go down.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

__all__ = ["DOWN", "OUT", "STAYS", "UP", "MovingPlaces", "moves", "moving_places"]

UP, DOWN, STAYS, OUT = "up", "down", "stays", "out"


@dataclass(frozen=True)
class MovingPlaces:
    """How many of the teams still playing go up and down, and where withdrawn teams go."""

    up: int
    down: int
    withdrawn: str
    """DOWN where a division is below, else OUT."""


def moving_places(
    *,
    playing: int,
    withdrawn: int,
    promoted: int,
    relegated: int,
    above: bool,
    below: bool,
    withdrawn_take_places: bool = False,
) -> MovingPlaces:
    """The places for a division of ``playing`` teams still in it and ``withdrawn`` withdrawn
    ones; ``promoted`` and ``relegated`` are the division's settings, ``above``/``below`` whether
    a division is above or below it."""
    if min(playing, withdrawn, promoted, relegated) < 0:
        raise ValueError("team and place counts cannot be negative")
    up = min(promoted, playing) if above else 0
    down = 0
    if below:
        down = relegated - withdrawn if withdrawn_take_places else relegated
        down = max(0, min(down, playing - up))
    return MovingPlaces(up=up, down=down, withdrawn=DOWN if below else OUT)


def moves(
    order: Sequence[Hashable], withdrawn: Sequence[Hashable], places: MovingPlaces
) -> dict[Hashable, str]:
    """Each team's movement from the final order of the teams still playing (top first) and
    the withdrawn teams."""
    out: dict[Hashable, str] = {}
    for index, team in enumerate(order):
        if index < places.up:
            out[team] = UP
        elif index >= len(order) - places.down:
            out[team] = DOWN
        else:
            out[team] = STAYS
    for team in withdrawn:
        out[team] = places.withdrawn
    return out
