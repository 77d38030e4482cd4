"""The season's points progression as a server-rendered SVG: one line per team, along the
season's days (the league nights by date, as the fixture list heads them).

Plain geometry, no chart library: the page inlines the SVG, so it works without JavaScript and
under the site's content security policy (colours are SVG attributes, not styles).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString

from leagues import progression
from leagues.days import day_month, short_date
from leagues.models import PointAdjustment
from leagues.selectors.standings import StandingRow, adjustments_made
from leagues.views.common import team_options


@dataclass(frozen=True)
class Pen:
    """How a picked-out team's line is drawn: a colour, a dash pattern and a marker shape, so
    that the lines still differ printed in black and white."""

    colour: str
    dash: str
    marker: str
    """"circle", "square", "triangle" or "diamond"."""


#: At most four teams stand out: the leaders, the viewer's team, a tapped team.
PENS = (
    Pen("#f2c14e", "", "circle"),
    Pen("#6fc3ff", "8 4", "square"),
    Pen("#ff9f7a", "2 3", "triangle"),
    Pen("#c9a7ff", "10 3 2 3", "diamond"),
)
GREY = "#6b7a70"
LEADERS = 2
"""Leaders picked out: the top team, and the next one while it shares first place or the top
two are the only teams shown."""
WIDTH, HEIGHT = 340, 230
LEFT, RIGHT, TOP, BOTTOM = 34, 26, 12, 30
"""``RIGHT`` leaves room after the last day: its marker and its date ("16 Sep", some 47 units
wide), centred under its tick, stand wholly inside the drawing."""
MARK_GAP = 12
"""A picked-out line's markers stand at least this far apart (in the drawing's units): with
many weeks, a marker on every week would overlap into a solid band."""
LABEL_SIZE = 13
"""Label size in the drawing's units: at least 12 px wherever the chart is 314 px wide or more
(a 360 px phone gives it 334 px)."""
TICK_GAP = 52
"""The dates along the bottom stand at least this far apart: "16 Sep" is some 40 units wide."""
ROW = 16
"""A second row of dates, beneath the first: a re-arranged night's too near a league night's."""


@dataclass(frozen=True)
class OffNight:
    """A result on a night other than the league's (a fixture re-arranged to a Thursday): its
    date along the bottom in italics, under a dashed tick, beside the league nights' dates
    (``row`` 0) or beneath them (1) where it would touch one; ``row`` None: the tick alone,
    with no room for its date in either row."""

    x: float
    label: str
    row: int | None


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Line:
    team: str
    team_id: int
    position: int
    points: str
    """SVG ``points`` attribute of the polyline."""
    total: int
    pen: Pen | None = None
    """None for the teams drawn in grey."""
    why: str = ""
    """Why it stands out: "leader", "your team", "chosen"."""
    marks: tuple[Point, ...] = ()

    @property
    def markers(self) -> SafeString:
        """The picked-out line's markers, drawn at its ``marks`` (none for a grey line)."""
        pen = self.pen
        if pen is None:
            return SafeString("")
        return SafeString(
            "".join(
                f'<use href="#m-{pen.marker}" x="{mark.x}" y="{mark.y}" fill="{pen.colour}" '
                'stroke="#0f1a14" stroke-width="1"/>'
                for mark in self.marks
            )
        )


@dataclass(frozen=True)
class Chart:
    lines: list[Line]
    """The grey lines first, the picked-out ones last (drawn on top)."""
    days: int
    """How many days the lines have a point on: the nights with a result, the days with an
    adjustment and none."""
    top: int
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, str]]
    """The league nights named along the bottom, as (x, "2 Sep"): a week or a few apart, each
    on the league's night, so a result on another night (a fixture re-arranged to a Thursday)
    or an adjustment stands between two of them, and the chart's weeks are the league's."""
    off_nights: list[OffNight]
    """The results on another night, each named (``OffNight``) so that it reads too."""
    teams: list[tuple[int, str]]
    """Every team, for the chooser."""
    first: datetime.date
    last: datetime.date
    """The first and last days the lines have a point on, which the summary names and the
    bottom names too: a league night (``x_ticks``), or a re-arranged night or an adjustment's
    day beyond the league nights, named in italics (``off_nights``)."""
    adjusted: bool = False
    """Whether a point adjustment has a day of its own on the chart (the summary says so)."""
    chosen: int | None = None
    band: str = ""
    """SVG ``points`` of the grey band standing for every team, in a division of more than
    ``BAND_ABOVE`` teams (only the picked-out teams' lines are drawn, over it)."""
    banded: int = 0
    """How many teams the band stands for."""
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    bottom_y: int = HEIGHT - BOTTOM
    right_x: int = WIDTH - RIGHT
    label_size: int = LABEL_SIZE

    @property
    def days_words(self) -> str:
        """ "Tue 2 Sep to Tue 16 Sep": the first and last days drawn, as the summary says
        them."""
        if self.first == self.last:
            return short_date(self.first)
        return f"{short_date(self.first)} to {short_date(self.last)}"

    @property
    def team_options(self) -> SafeString:
        """The chooser's ``<option>`` a team, the chosen one selected."""
        return team_options(self.teams, chosen=self.chosen)

    @property
    def drawing(self) -> SafeString:
        """The drawing's axes, the band and the lines, as the SVG writes them: written here,
        not by template loops of a dozen lookups a line and a tick."""
        left, size = self.left, self.label_size
        parts = [
            f'\n    <line x1="{left}" x2="{self.right_x}" y1="{y}" y2="{y}" stroke="#2f4a39" '
            f'stroke-width="1"/>\n    <text x="{left - 4}" y="{y}" dy="4" text-anchor="end" '
            f'fill="#d5dccf" font-size="{size}">{value}</text>\n    '
            for y, value in self.y_ticks
        ]
        parts.append("\n    ")
        parts += [
            f'\n    <line x1="{x}" x2="{x}" y1="{self.bottom_y}" y2="{self.bottom_y + 4}" '
            f'stroke="{GREY}" stroke-width="1"/>\n    <text x="{_label_x(x, day)}" '
            f'y="{self.bottom_y + 16}" text-anchor="middle" fill="#d5dccf" '
            f'font-size="{size}">{day}</text>\n    '
            for x, day in self.x_ticks
        ]
        parts += [self._off_night(off) for off in self.off_nights]
        parts.append("\n    ")
        if self.band:
            parts.append(
                f'<polygon points="{escape(self.band)}" fill="{GREY}" fill-opacity="0.45" '
                f'stroke="{GREY}" stroke-width="1" stroke-linejoin="round" '
                'data-testid="chart-band"/>'
            )
        parts.append("\n    ")
        parts += [_drawn(line) + "\n    " for line in self.lines]
        return SafeString("".join(parts))

    def _off_night(self, off: OffNight) -> str:
        """A re-arranged night's dashed tick, down to its date's row, and its date in italics."""
        depth = 4 + ROW * (off.row or 0)
        tick = (
            f'\n    <line x1="{off.x}" x2="{off.x}" y1="{self.bottom_y}" '
            f'y2="{self.bottom_y + depth}" stroke="{GREY}" stroke-width="1" '
            'stroke-dasharray="2 2" data-testid="off-night"/>'
        )
        if off.row is None:
            return tick + "\n    "
        return (
            f'{tick}\n    <text x="{_label_x(off.x, off.label)}" '
            f'y="{self.bottom_y + 16 + ROW * off.row}" text-anchor="middle" '
            f'font-style="italic" fill="#d5dccf" font-size="{self.label_size}">'
            f"{off.label}</text>\n    "
        )

    @property
    def standing_out(self) -> list[Line]:
        return [line for line in self.lines if line.pen is not None]

    @property
    def others(self) -> int:
        """How many teams are drawn in grey, as lines or as the band."""
        return self.banded or sum(1 for line in self.lines if line.pen is None)


def _label_x(x: float, label: str) -> float:
    """Where a date along the bottom is centred: under its tick, kept inside the drawing (the
    first night's under the left edge would be cut off; ``RIGHT`` leaves room for the last's)."""
    half = len(label) * LABEL_SIZE * 0.3
    return round(min(max(x, half), WIDTH - half), 1)


def _named_nights(
    first: datetime.date, last: datetime.date, *, night: int, week_width: float
) -> list[datetime.date]:
    """The league nights named along the bottom, from the first on the league's ``night``
    (Monday 0) at or after ``first``, every week or every few (``week_width`` apart: at least
    ``TICK_GAP``), and the last such night by ``last`` always (in place of the one stepped to
    before it where the two would touch); ``first`` alone when no such night falls by
    ``last``."""
    start = first + datetime.timedelta(days=(night - first.weekday()) % 7)
    if start > last:
        return [first]
    step = max(1, math.ceil(TICK_GAP / week_width))
    weeks = (last - start).days // 7
    named = list(range(0, weeks + 1, step))
    if named[-1] != weeks:
        if len(named) > 1 and (weeks - named[-1]) * week_width < TICK_GAP:
            named.pop()
        named.append(weeks)
    return [start + datetime.timedelta(weeks=week) for week in named]


def _off_nights(
    off: Sequence[tuple[float, str]], *, named: Sequence[tuple[float, str]]
) -> list[OffNight]:
    """Where each re-arranged night's date goes (``off``: its x and date, in order): beside the
    league nights' dates (``named``) where it stands ``TICK_GAP`` from each of them, else in the
    row beneath, ``TICK_GAP`` from the last one there, else nowhere (its tick alone)."""
    rows: list[list[float]] = [[_label_x(x, label) for x, label in named], []]
    placed = []
    for x, label in off:
        at = _label_x(x, label)
        row = next(
            (
                number
                for number, taken in enumerate(rows)
                if all(abs(at - other) >= TICK_GAP for other in taken)
            ),
            None,
        )
        if row is not None:
            rows[row].append(at)
        placed.append(OffNight(x, label, row))
    return placed


def _spaced(xs: Sequence[float]) -> list[int]:
    """Which points of a line carry a marker: at least ``MARK_GAP`` apart, the first and the
    last always (the one before the last dropped when too near it)."""
    marked = [0]
    for at, here in enumerate(xs):
        if here - xs[marked[-1]] >= MARK_GAP:
            marked.append(at)
    last = len(xs) - 1
    if marked[-1] != last:
        if len(marked) > 1 and xs[last] - xs[marked[-1]] < MARK_GAP:
            marked.pop()
        marked.append(last)
    return marked


def _drawn(line: Line) -> str:
    """A line of the chart: a picked-out team's with its pen and markers, or grey."""
    title = f"<title>{escape(line.team)}: {line.total}</title>"
    points = escape(line.points)
    pen = line.pen
    if pen is None:
        return (
            f'\n    <polyline points="{points}" fill="none" stroke="{GREY}" stroke-width="1.5" '
            f'stroke-linejoin="round" data-team="{line.team_id}">{title}</polyline>'
        )
    dash = f' stroke-dasharray="{pen.dash}"' if pen.dash else ""
    return (
        f'\n    <g class="standout" data-team="{line.team_id}">\n      <polyline points="{points}" '
        f'fill="none" stroke="{pen.colour}" stroke-width="3" stroke-linejoin="round"{dash}>'
        f"{title}</polyline>\n      {line.markers}\n    </g>"
    )


def picked_out(
    rows: Sequence[StandingRow], *, yours: Sequence[int] = (), chosen: int | None = None
) -> dict[int, str]:
    """The teams that stand out, in drawing order, with why: the leaders, the viewer's team(s),
    the chosen team; at most ``len(PENS)``."""
    picked: dict[int, str] = {}
    for row in rows[:LEADERS]:
        if row.position == 1 or not picked:
            picked[row.team.pk] = "leader"
    ids = {row.team.pk for row in rows}
    for team in yours:
        if team in ids:
            picked.setdefault(team, "your team")
    if chosen in ids and chosen is not None:
        picked.setdefault(chosen, "chosen")
    return dict(list(picked.items())[: len(PENS)])


def _ticks(low: int, top: int) -> list[int]:
    step = max(1, -(-(top - low) // 4))
    below = list(range(0, low - 1, -step))[1:] if low < 0 else []
    return sorted(below) + list(range(0, top + 1, step))


def progression_chart(
    *,
    rows: Sequence[StandingRow],
    nights: Sequence[datetime.date],
    adjustments: Sequence[PointAdjustment] = (),
    band: Sequence[tuple[datetime.date, int, int]] = (),
    yours: Sequence[int] = (),
    chosen: int | None = None,
    zone: str,
    night: int | None = None,
) -> Chart | None:
    """Cumulative points after each league night, every team in grey but the few picked out
    (``picked_out``); no query. In a division of more than ``BAND_ABOVE`` teams the grey is one
    band, from the lowest to the highest points each day: ``band`` as stored with the table
    (``Standings.band``: then only the picked-out rows need their points a night), else worked
    out from the rows (``leagues.progression``).

    The days stand apart as far as they are in time, the league nights (``night``: the
    season's, Monday 0; None: the first result's weekday) named by date along the bottom: a
    result on a night of its own (a fixture re-arranged to a Thursday) or an adjustment counts
    on its day, between the league's weeks; the re-arranged night is named too, in italics
    (``OffNight``), beneath the league nights' dates where it would touch one.

    The results are the table's own (each row's points on the table's ``nights``, from the ones
    ``leagues.selectors.counting`` counts) and each adjustment is added on the day it was made
    where the league plays (``zone``: one made late on a Port of Spain league night is already
    the next day in London), so every line ends on the team's points in the table. None before
    any result or adjustment is in.
    """
    shown = list(rows)
    if not shown:
        return None
    ids = [row.team.pk for row in shown]
    shown_ids = set(ids)
    made = [made for made in adjustments_made(adjustments, zone=zone) if made[1] in shown_ids]
    picked = picked_out(shown, yours=yours, chosen=chosen)
    pens = dict(zip(picked, PENS, strict=False))
    if not band:
        band = progression.band(
            weekly={row.team.pk: row.nights for row in shown}, nights=nights, made=made
        )
    # Under a band, only the picked-out teams are drawn as lines.
    shown_lines = [row for row in shown if row.team.pk in pens] if band else shown
    dates = sorted(set(progression.chart_days(nights, made)) | {day for day, _, _ in band})
    if not dates:
        return None
    week_of = {day: i for i, day in enumerate(dates)}
    running = progression.team_points(
        weekly={row.team.pk: row.nights for row in shown_lines},
        nights=nights,
        days=dates,
        made=made,
    )
    lows = [min(series) for series in running.values()] + [low for _, low, _ in band]
    highs = [max(series) for series in running.values()] + [high for _, _, high in band]
    low = min(0, *lows)
    top = max(1, *highs)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    first, last = dates[0], dates[-1]
    span = max(1, (last - first).days)

    def x(day: datetime.date) -> float:
        return round(LEFT + plot_w * (day - first).days / span, 1)

    def y(points: int) -> float:
        return round(TOP + plot_h * (1 - (points - low) / (top - low)), 1)

    # Each day's "x," and each total's y, worked out once (a total is drawn on many days, by
    # many lines): a line is these joined.
    xs = [x(day) for day in dates]
    week_at = [f"{at}," for at in xs]
    totals = {points for series in running.values() for points in series}
    totals.update(points for _, lowest, highest in band for points in (lowest, highest))
    height = {points: str(y(points)) for points in totals}
    edge = [week_at[week_of[day]] + height[highest] for day, _, highest in band]
    edge += [week_at[week_of[day]] + height[lowest] for day, lowest, _ in reversed(band)]
    marked = _spaced(xs)
    lines = []
    for row in shown_lines:
        series = running[row.team.pk]
        pen = pens.get(row.team.pk)
        lines.append(
            Line(
                team=row.entry.display_name,
                team_id=row.team.pk,
                position=row.position,
                points=" ".join([week_at[w] + height[p] for w, p in enumerate(series)]),
                total=series[-1],
                pen=pen,
                why=picked.get(row.team.pk, ""),
                marks=tuple(Point(xs[w], y(series[w])) for w in marked) if pen else (),
            )
        )
    grey = [line for line in lines if line.pen is None]
    bright = sorted(
        (line for line in lines if line.pen is not None),
        key=lambda line: list(picked).index(line.team_id),
    )
    if night is None:
        night = (nights[0] if nights else first).weekday()
    named = _named_nights(first, last, night=night, week_width=plot_w * 7 / span)
    x_ticks = [(x(day), day_month(day)) for day in named]
    # Named in italics: a result on a night other than the league's, and a day drawn before
    # the first league night named or after the last (an adjustment made after the last
    # night: the summary's last day, which the bottom names too).
    off = {day for day in nights if day.weekday() != night}
    off.update(day for day in dates if not named[0] <= day <= named[-1])
    off_nights = _off_nights([(x(day), day_month(day)) for day in sorted(off)], named=x_ticks)
    return Chart(
        lines=grey + list(reversed(bright)),  # the first picked (the leader) drawn last, on top
        days=len(dates),
        top=top,
        y_ticks=[(y(t), t) for t in _ticks(low, top)],
        x_ticks=x_ticks,
        off_nights=off_nights,
        height=HEIGHT + (ROW if any(off.row for off in off_nights) else 0),
        teams=[
            (row.team.pk, row.entry.display_name)
            for row in sorted(shown, key=lambda r: r.team.name)
        ],
        first=first,
        last=last,
        adjusted=bool(made),
        chosen=chosen if chosen in ids else None,
        band=" ".join(edge),
        banded=len(shown) if band else 0,
    )
