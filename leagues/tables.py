"""The leagues' tables: standings, fixtures and results, player statistics.

Each subclasses the project's ``BaseTable`` (template, CSS and CSV export set once there). Key
columns come first so that a phone shows them without scrolling sideways.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.html import format_html

from config.tables import BaseTable
from leagues.models import Fixture, FixtureResult, League
from leagues.selectors.standings import StandingRow
from leagues.selectors.statistics import PlayerStatistics
from leagues.tiebreaks import Metric

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
KEY_METRICS = ("points", "played")
"""Standings columns shown straight after the team, whatever the selector's order."""


class MetricColumn(tables.Column):
    """A figure shown under its abbreviation, with its full name as the header's title and
    as the CSV heading."""

    def __init__(self, metric: Metric, style: str, **kwargs: Any) -> None:
        label = metric.label_for(style)
        self.export_header = label
        attrs = {"th": {"class": "num", "title": label}, "td": {"class": "num"}}
        super().__init__(
            accessor=metric.key, verbose_name=metric.abbr_for(style), attrs=attrs, **kwargs
        )


def standings_columns(metrics: list[Metric], style: str) -> list[tuple[str, tables.Column]]:
    """The figure columns for a style: points and played first, then the selector's order."""
    ordered = sorted(
        metrics,
        key=lambda m: KEY_METRICS.index(m.key) if m.key in KEY_METRICS else len(KEY_METRICS),
    )
    return [(metric.key, MetricColumn(metric, style)) for metric in ordered]


class StandingsTable(BaseTable):
    """A division's league table; ``standings_columns`` adds the style's figures."""

    position = tables.Column(verbose_name="Pos", attrs=NUM)
    # render_team makes the link (and the provisional note): no linkify, or the link nests.
    team = tables.Column(order_by=("team__name",))

    export_name = "standings"

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table standings"}
        empty_text = "No teams have entered this division yet."
        order_by = ("position",)

    def __init__(self, data: Any, *, metrics: list[Metric], style: str, **kwargs: Any) -> None:
        super().__init__(data, extra_columns=standings_columns(metrics, style), **kwargs)

    def render_team(self, record: StandingRow, value: Any) -> Any:
        link = format_html('<a href="{}">{}</a>', record.team.get_absolute_url(), value)
        if not record.provisional:
            return link
        return format_html(
            '{} <span class="provisional" title="includes results not yet confirmed">'
            "(provisional: {})</span>",
            link,
            record.provisional,
        )

    def value_team(self, record: StandingRow, value: Any) -> str:
        return str(value)

    def render_position(self, record: StandingRow) -> str:
        return f"{record.position}=" if record.tied else str(record.position)

    def value_position(self, record: StandingRow) -> int:
        return record.position

    def render_adjustments(self, value: int) -> str:
        return f"{value:+d}" if value else "—"

    def value_adjustments(self, value: int) -> int:
        return value


def fixture_score(fixture: Fixture) -> str:
    """How a fixture's result reads in a list: match points (Yorkshire) or bullseyes
    (Trinidad), "P–P" when postponed, "v" before it is played."""
    if fixture.status == Fixture.Status.POSTPONED:
        return "P–P"
    if fixture.status == Fixture.Status.VOID:
        return "void"
    result: FixtureResult | None = getattr(fixture, "result", None)
    if result is None:
        return "v"
    if fixture.division.season.league.style == League.Style.TRINIDAD:
        home, away = result.home_games, result.away_games
    else:
        home, away = result.home_match_points, result.away_match_points
    text = f"{home}–{away}"
    if result.is_walkover:
        return f"{text} w/o"
    if not result.is_final:
        return f"{text} in play"
    return text


class FixturesTable(BaseTable):
    """Fixtures and results, one row a fixture (the score links to the fixture's page).

    The match comes first; a team's list (``sequence=DATE_FIRST``) starts with the date.
    """

    date = tables.DateColumn(format="D j M", order_by=("date", "time", "pk"))
    home = tables.Column(linkify=True, order_by=("home__name",))
    score = tables.Column(
        accessor="pk",
        verbose_name="Result",
        orderable=False,
        linkify=lambda record: record.get_absolute_url(),
        attrs={"td": {"class": "score"}, "th": {"class": "score"}},
    )
    away = tables.Column(linkify=True, order_by=("away__name",))
    venue = tables.Column(order_by=("venue__name",))
    status = tables.Column()

    export_name = "fixtures"

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table fixtures"}
        sequence = ("home", "score", "away", "date", "venue", "status")
        empty_text = "No fixtures yet."
        order_by = ("date",)

    def render_score(self, record: Fixture) -> str:
        return fixture_score(record)

    def render_venue(self, record: Fixture) -> str:
        return record.venue.name

    def render_status(self, record: Fixture) -> Any:
        label = record.get_status_display()
        if record.status == Fixture.Status.WALKOVER and record.walkover_to:
            winner = record.home if record.walkover_to == Fixture.Side.HOME else record.away
            label = f"Walkover to {winner}"
        if record.original_date and record.original_date != record.date:
            return format_html(
                '{} <span class="muted">(was {})</span>', label, f"{record.original_date:%d %b}"
            )
        return label

    def value_status(self, record: Fixture) -> str:
        return record.get_status_display()

    def value_date(self, record: Fixture) -> str:
        return record.date.isoformat()


DATE_FIRST = ("date", "home", "score", "away", "venue", "status")


#: Player figures, in the order shown; the style decides which of the optional ones appear.
PLAYER_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("games_played", "P", "Games played"),
    ("games_won", "W", "Games won"),
    ("win_percentage", "%", "Games won %"),
    ("highs", "Hi", "Highs"),
    ("lows", "Lo", "Lows"),
    ("jacks", "J", "Jacks"),
    ("game_points", "Gm", "Game points"),
    ("hang_jacks_taken", "HJT", "Hang jacks taken"),
    ("hang_jacks_given", "HJG", "Hang jacks given"),
    ("kicks", "K", "Kicks"),
    ("all_fours", "A4", "All-fours hands"),
)
TRINIDAD_ONLY = ("hang_jacks_taken", "hang_jacks_given", "kicks")


class FigureColumn(tables.Column):
    def __init__(self, key: str, abbr: str, label: str, **kwargs: Any) -> None:
        self.export_header = label
        attrs = {"th": {"class": "num", "title": label}, "td": {"class": "num"}}
        super().__init__(accessor=key, verbose_name=abbr, attrs=attrs, **kwargs)


class PlayerStatisticsTable(BaseTable):
    """Players' figures from stored hands; games won first."""

    player = tables.Column(linkify=True, order_by=("player__name",))

    export_name = "players"

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table players"}
        empty_text = "No games finished yet."

    def __init__(self, data: Any, *, style: str, **kwargs: Any) -> None:
        columns = [
            (key, FigureColumn(key, abbr, label, default=""))
            for key, abbr, label in PLAYER_FIGURES
            if style == League.Style.TRINIDAD or key not in TRINIDAD_ONLY
        ]
        super().__init__(data, extra_columns=columns, **kwargs)

    def render_win_percentage(self, record: PlayerStatistics) -> str:
        value = record.win_percentage
        return "" if value is None else f"{value:.0f}"

    def value_win_percentage(self, record: PlayerStatistics) -> Any:
        return "" if record.win_percentage is None else record.win_percentage
