"""A division's points, day by day: each team's running total along the days its chart runs
over, and the band that stands for the teams of a big division.

The chart (``leagues.views.charts``) draws a line for every team of a small division. In a
division of more than ``BAND_ABOVE`` teams it draws a few picked-out lines over one grey band,
from the lowest to the highest points of all its teams each day. The band is worked out with
the table (``Standings.band``) and stored with it (``DivisionTable.band``,
``leagues.services.standings``), so that the page reads the points of the few lines it draws,
not of a hundred teams on two hundred nights.

The days are the league nights with a counted result and the days with a point adjustment (on
the day it was made where the league plays). Plain Python, no Django: the same sums for the
stored band and for the lines drawn over it.
"""

from __future__ import annotations

import datetime
import itertools
import zoneinfo
from collections.abc import Iterable, Mapping, Sequence

BAND_ABOVE = 20
"""In a division of more teams than this, the teams are drawn as one grey band, from the
lowest to the highest of their points each day, under the few picked out: a hundred grey lines
are a tangle no one can follow, and most of a page's weight."""

Made = tuple[datetime.date, int, int]
"""A point adjustment as the chart counts it: (the day it was made, the team's id, points)."""


def adjustments_made(
    adjustments: Iterable[tuple[datetime.datetime, int, int]], *, zone: str
) -> list[Made]:
    """Each adjustment, given as (when it was made, team id, points), on the day it was made
    where the league plays (``zone``: one made late on a Port of Spain league night is already
    the next day in London)."""
    where = zoneinfo.ZoneInfo(zone)
    return [
        (made_at.astimezone(where).date(), team, points) for made_at, team, points in adjustments
    ]


def chart_days(nights: Iterable[datetime.date], made: Iterable[Made]) -> list[datetime.date]:
    """The days the lines have a point on, in order: the nights and the adjustments' days."""
    return sorted(set(nights) | {day for day, _, _ in made})


def running_points(
    *,
    weekly: Sequence[int],
    nights: Sequence[datetime.date],
    days: Sequence[datetime.date],
    made: Iterable[tuple[datetime.date, int]] = (),
) -> list[int]:
    """A team's points after each of ``days``: ``weekly`` are its points on each of ``nights``
    (a day of ``days`` with no result of its adds none), ``made`` its adjustments as (day,
    points), each added on its day."""
    at = {day: i for i, day in enumerate(days)}
    gained = [0] * len(days)
    for night, points in zip(nights, weekly, strict=True):
        gained[at[night]] += points
    for day, points in made:
        gained[at[day]] += points
    return list(itertools.accumulate(gained))


def team_points(
    *,
    weekly: Mapping[int, Sequence[int]],
    nights: Sequence[datetime.date],
    days: Sequence[datetime.date],
    made: Iterable[Made],
) -> dict[int, list[int]]:
    """``running_points`` of each team of ``weekly`` (team id: its points a night)."""
    theirs: dict[int, list[tuple[datetime.date, int]]] = {team: [] for team in weekly}
    for day, team, points in made:
        if team in theirs:
            theirs[team].append((day, points))
    return {
        team: running_points(weekly=points, nights=nights, days=days, made=theirs[team])
        for team, points in weekly.items()
    }


def band(
    *,
    weekly: Mapping[int, Sequence[int]],
    nights: Sequence[datetime.date],
    made: Iterable[Made],
) -> list[tuple[datetime.date, int, int]]:
    """The band of a division of more than ``BAND_ABOVE`` teams (``weekly``: each team's points
    a night): (day, lowest, highest) of its teams' points after each day; empty in a smaller
    division, or before any result or adjustment."""
    if len(weekly) <= BAND_ABOVE:
        return []
    made = [made_one for made_one in made if made_one[1] in weekly]
    days = chart_days(nights, made)
    series = team_points(weekly=weekly, nights=nights, days=days, made=made).values()
    return [
        (day, min(points), max(points))
        for day, points in zip(days, zip(*series, strict=True), strict=True)
    ]
