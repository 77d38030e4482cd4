"""The season's points progression as a server-rendered SVG: one line per team, week by week.

Plain geometry, no chart library: the page inlines the SVG, so it works without JavaScript and
under the site's content security policy (colours are SVG attributes, not styles).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q

from leagues.models import Division, Fixture
from leagues.selectors.fixtures import fixture_list
from leagues.selectors.standings import StandingRow

#: Distinct on the dark background, and distinguishable for the common colour blindnesses
#: when read with the legend (lines also carry the team's position as a label).
PALETTE = (
    "#f2c14e",
    "#6fc3ff",
    "#ff9f7a",
    "#7bd389",
    "#c9a7ff",
    "#ff6b9a",
    "#4fd1c5",
    "#e6e6e6",
    "#b5a36a",
    "#9fb3ff",
)
MAX_LINES = len(PALETTE)
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 26


@dataclass(frozen=True)
class Line:
    team: str
    position: int
    colour: str
    points: str
    """SVG ``points`` attribute of the polyline."""
    total: int


@dataclass(frozen=True)
class Chart:
    lines: list[Line]
    weeks: int
    top: int
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    bottom_y: int = HEIGHT - BOTTOM
    right_x: int = WIDTH - RIGHT
    left_out: int = 0
    """Teams left off the chart (only the top ``MAX_LINES`` are drawn)."""


def _ticks(top: int) -> list[int]:
    step = max(1, -(-top // 4))
    return list(range(0, top + 1, step))


def progression_chart(*, division: Division, rows: Sequence[StandingRow]) -> Chart | None:
    """Cumulative points from results after each league night, for the top teams; one query.

    None before any result is in.
    """
    shown = list(rows[:MAX_LINES])
    if not shown:
        return None
    ids = [row.team.pk for row in shown]
    results = list(
        fixture_list(division=division, statuses=[Fixture.Status.PLAYED, Fixture.Status.WALKOVER])
        .filter(result__is_final=True)
        .filter(Q(home__in=ids) | Q(away__in=ids))
        .order_by("date")
        .values_list("date", "home_id", "away_id", "result__home_points", "result__away_points")
    )
    if not results:
        return None
    dates = sorted({r[0] for r in results})
    week_of = {day: i for i, day in enumerate(dates)}
    gained = {pk: [0] * len(dates) for pk in ids}
    for day, home, away, home_points, away_points in results:
        if home in gained:
            gained[home][week_of[day]] += home_points
        if away in gained:
            gained[away][week_of[day]] += away_points
    running: dict[int, list[int]] = {}
    for pk, weekly in gained.items():
        total, series = 0, []
        for points in weekly:
            total += points
            series.append(total)
        running[pk] = series
    top = max(1, max(series[-1] for series in running.values()))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(1, len(dates) - 1)

    def x(week: int) -> float:
        return round(LEFT + plot_w * week / span, 1)

    def y(points: int) -> float:
        return round(TOP + plot_h * (1 - points / top), 1)

    lines = [
        Line(
            team=row.team.name,
            position=row.position,
            colour=PALETTE[i],
            points=" ".join(f"{x(w)},{y(p)}" for w, p in enumerate(running[row.team.pk])),
            total=running[row.team.pk][-1],
        )
        for i, row in enumerate(shown)
    ]
    x_step = max(1, -(-len(dates) // 6))
    return Chart(
        lines=list(reversed(lines)),  # leader drawn last, on top
        weeks=len(dates),
        top=top,
        y_ticks=[(y(t), t) for t in _ticks(top)],
        x_ticks=[(x(w), w + 1) for w in range(0, len(dates), x_step)],
        left_out=max(0, len(rows) - len(shown)),
    )
