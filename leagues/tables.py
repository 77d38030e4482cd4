"""The leagues' tables: standings, fixtures and results, player statistics.

Each subclasses the project's ``BaseTable`` (template, CSS and CSV export set once there). Key
columns come first so that a phone shows them without scrolling sideways.
"""

from __future__ import annotations

import copy
import functools
import html
from collections.abc import Callable, Mapping
from typing import Any

import django_tables2 as tables
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString

from config.paths import paths_for
from config.tables import BaseTable
from leagues.days import clock, short_date
from leagues.models import Fixture, FixtureResult, League
from leagues.selectors.counting import result_mark
from leagues.selectors.live import (
    IN_PLAY,
    NO_RESULT,
    NO_RESULT_WORDS,
    PLAY_STOPPED,
    STOPPED,
    has_stopped,
    listed_progress,
)
from leagues.selectors.race import MARKERS, Marker, Race
from leagues.selectors.standings import StandingRow
from leagues.selectors.statistics import HAND_FIGURES, PlayerStatistics
from leagues.tiebreaks import Metric
from scoring.forms.words import number_words, signed

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
KEY_METRICS = ("played", "points")
"""Standings columns shown straight after the team on every screen, in this order."""


def wide_only(metric: Metric) -> bool:
    """Whether a standings figure shows on a wide screen only (on a phone, under a tapped
    team's name, by its full name): all but ``KEY_METRICS``."""
    return metric.key not in KEY_METRICS


FORM_TITLE = "Last five results, oldest first"
MARK_NAMES = {"W": "Won", "D": "Drawn", "L": "Lost"}


class MetricColumn(tables.Column):
    """A figure shown under its abbreviation, with its full name as the header's title and
    as the CSV heading. Figures other than played and points show on a wide screen only."""

    def __init__(self, metric: Metric, style: str, **kwargs: Any) -> None:
        label = metric.label_for(style)
        self.export_header = label
        self.wide = wide_only(metric)
        """Shown on a wide screen only (on a phone, under a tapped team's name)."""
        extra = {"points": " pts"}.get(metric.key, " wide" if self.wide else "")
        attrs = {
            "th": {"class": "num" + extra, "title": label},
            "td": {"class": "num" + extra},
        }
        super().__init__(
            accessor=metric.key,
            verbose_name=metric.abbr_for(style),
            attrs=attrs,
            # The first tap on "Pts" (or "W", "PF") puts the most first, as the table does;
            # on "L" or "PA" the fewest.
            initial_sort_descending=metric.higher_is_better,
            **kwargs,
        )


def standings_columns(
    metrics: list[Metric], style: str, compact: bool = False
) -> list[tuple[str, tables.Column]]:
    """The table's columns for a style: position and team, played and points, the last five
    results, then the selector's figures in its order (a compact table stops after the last
    five). Each table has columns of its own (django-tables2 may set a column's accessor or
    hide it): copies of those made once a process for the figures and the style
    (``_standings_columns``), as a declared column is copied for each table."""
    return [
        (name, copy.copy(column))
        for name, column in _standings_columns(tuple(metrics), style, compact)
    ]


@functools.cache
def _standings_columns(
    metrics: tuple[Metric, ...], style: str, compact: bool
) -> tuple[tuple[str, tables.Column], ...]:
    """The columns ``standings_columns`` copies, made from constants only (the metrics are
    frozen, the style a name): nothing in them can change while the process runs."""
    key = [m for k in KEY_METRICS for m in metrics if m.key == k]
    rest = [] if compact else [m for m in metrics if wide_only(m)]
    columns: list[tuple[str, tables.Column]] = [
        (
            "position",
            tables.Column(
                verbose_name="Pos",
                attrs={"th": {"class": "num", "title": "Position"}, "td": {"class": "num"}},
            ),
        ),
        # render_team makes the link (and the provisional note): no linkify, or the link nests.
        ("team", tables.Column(order_by=("team__name",))),
    ]
    columns += [(metric.key, MetricColumn(metric, style)) for metric in key]
    columns.append(
        (
            "form",
            tables.Column(
                accessor="form",
                verbose_name="Last 5",
                orderable=False,
                attrs={"th": {"class": "form", "title": FORM_TITLE}, "td": {"class": "form"}},
            ),
        )
    )
    columns += [(metric.key, MetricColumn(metric, style)) for metric in rest]
    return tuple(columns)


MARK_HTML = {
    mark: format_html('<abbr class="mark mark-{}" title="{}">{}</abbr>', mark.lower(), name, mark)
    for mark, name in MARK_NAMES.items()
}
"""Each mark's HTML, made once (a table of 100 teams shows 500)."""

# The cells' HTML written here with f-strings is marked safe as ``SafeString(...)``, which is
# what ``mark_safe`` makes of a string, without its check for lazy text (a list of 200 fixtures
# writes 600 links).


ADJUSTED_MARK = "*"
"""Beside a table's points that an adjustment is in (the key says so, ``_adjusted_key.html``)."""


def adjusted_mark(points: int) -> str:
    """The mark beside a total with ``points`` of adjustment in it, as HTML (a number only)."""
    return (
        f'<abbr class="adjusted" title="After a points adjustment of {signed(int(points))}">'
        f"{ADJUSTED_MARK}</abbr>"
    )


def badge(marker: Marker) -> str:
    """A race mark's badge by a team's name (its words are the race module's own)."""
    return f' <abbr class="badge badge-{marker.kind}" title="{marker.label}">{marker.mark}</abbr>'


BADGE_HTML = {marker: badge(marker) for marker in MARKERS}
"""Each race mark's badge, made once (a table of 100 teams may show 100)."""


def result_marks(record: StandingRow) -> Any:
    """The last five results as W/D/L marks, each with its word for screen readers."""
    if not record.form:
        return format_html('<span class="muted">{}</span>', "—")
    marks = "".join([MARK_HTML[mark] for mark in record.form])
    return SafeString(f'<span class="marks">{marks}</span>')  # made of MARK_HTML only


class StandingsTable(BaseTable):
    """A division's league table; ``standings_columns`` gives its columns for the style.

    On a phone it is compact (position, team, played, points, last five); tapping a team opens
    its full figures. A wide screen shows every column. ``compact=True`` (the league's home)
    leaves the other figures out altogether, on a phone too (a team's name is the link to its
    page: the division's full table is a tap away), and does not sort.
    """

    export_name = "standings"

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table standings"}
        empty_text = "No teams have entered this division yet."
        order_by = ("position",)

    def __init__(
        self,
        data: Any,
        *,
        metrics: list[Metric],
        style: str,
        race: Race | None = None,
        compact: bool = False,
        **kwargs: Any,
    ) -> None:
        self.metrics = metrics
        self.style = style
        self._figure_labels = [(escape(metric.label_for(style)), metric.key) for metric in metrics]
        # The tapped team's figures: one format a table, given each row's values in one call
        # (printf-style: str.format parses its format at every call, twice as long for these
        # twelve figures).
        self._figures = "".join(
            f"<div><dt>{label.replace('%', '%%')}</dt><dd>%s</dd></div>"
            for label, _ in self._figure_labels
        )
        self._figure_keys = [key for _, key in self._figure_labels]
        keys = self._figure_keys
        self._signed = keys.index("adjustments") if "adjustments" in keys else None
        self._points = keys.index("points") if "points" in keys else None
        self.race = race
        self.compact = compact
        self._team_url = paths_for("leagues:team")
        if compact:
            kwargs.setdefault("orderable", False)
            kwargs.setdefault("attrs", {"class": "data-table standings compact"})
        super().__init__(
            data, extra_columns=standings_columns(metrics, style, compact=compact), **kwargs
        )

    def _badges(self, record: StandingRow) -> str:
        """The race's marks for the row, as HTML (their words are the module's own)."""
        if self.race is None:
            return ""
        return "".join(
            [BADGE_HTML.get(marker) or badge(marker) for marker in self.race.markers(record)]
        )

    def render_team(self, record: StandingRow, value: Any) -> Any:
        # Written out with f-strings, the team's name escaped once: a table of 100 teams calls
        # this 100 times, and format_html escapes each of its arguments through a lazy wrapper.
        name = html.escape(record.entry.display_name)
        badges = self._badges(record)
        if record.withdrawn:
            withdrawal = html.escape(record.entry.get_withdrawal_display())
            badges += f' <span class="withdrawn" title="{withdrawal}">(withdrawn)</span>'
        provisional = ""
        if record.provisional:
            provisional = (
                ' <span class="provisional" title="includes results not yet confirmed">'
                f"(provisional: {int(record.provisional)})</span>"
            )
        url = self._team_url(record.team.pk)
        if self.compact:
            return SafeString(f'<a class="team-link" href="{url}">{name}</a>{badges}{provisional}')
        # The labels are escaped once per table; the figures are numbers.
        figures = self._figures % tuple(self._figure_list(record))
        places = self.race.places(record) if self.race is not None else ""
        if places:
            places = f'<p class="places">{html.escape(places)}</p>'
        return SafeString(
            f'<a class="team-link" href="{url}">{name}</a>{badges}{provisional}'
            f'<details class="row-figures"><summary>{name}{badges}{provisional}</summary>'
            f'<dl class="row-dl">{figures}</dl>{places}'
            f'<a class="team-page" href="{url}">{name}: team page</a>'
            f'<a class="chart-link" href="?team={int(record.team.pk)}#chart">'
            "Pick out on the chart</a></details>"
        )

    def _figure_list(self, record: StandingRow) -> list[Any]:
        """The row's figures in the labels' order (``StandingRow.metrics``), an adjustment
        signed ("+2", "−1", a true minus sign), the points written as the column writes them."""
        figures: list[Any] = record.metrics(self._figure_keys)
        at = self._signed
        if at is not None and figures[at]:
            figures[at] = signed(figures[at])
        if self._points is not None:
            figures[self._points] = number_words(figures[self._points])
        return figures

    def value_team(self, record: StandingRow, value: Any) -> str:
        name = record.entry.display_name
        return f"{name} (withdrawn)" if record.withdrawn else name

    def render_position(self, record: StandingRow) -> str:
        return f"{record.position}=" if record.tied else str(record.position)

    def value_position(self, record: StandingRow) -> int:
        return record.position

    def render_form(self, record: StandingRow) -> Any:
        return result_marks(record)

    def value_form(self, record: StandingRow) -> str:
        return record.form

    def render_adjustments(self, value: int) -> str:
        return signed(value) if value else "—"

    def render_points(self, record: StandingRow, value: int) -> str:
        """The points, marked where an adjustment is in them (the key says what the mark is;
        the division's notes list them): a total after a deduction does not pass for one the
        results alone gave."""
        points = number_words(value)
        if not record.adjustments:
            return points
        return SafeString(f"{points}{adjusted_mark(record.adjustments)}")

    def value_points(self, value: int) -> int:
        return value

    def value_adjustments(self, value: int) -> int:
        return value

    def _cell_writers(self) -> list[Callable[[Any], str]] | None:
        """Each shown column's writer, in order: each cell as ``BaseTable`` writes it (its
        ``_CellPlan``), and a figure (a whole number) written as it is, without the general
        checks of ``_attribute_html`` (a 100-team table has 1,000 of them). None where a row or
        a cell is not written so (attributes computed from the record, pinned rows, a column
        linked or localized): ``BaseTable`` writes the rows its general way."""
        if not self.data or self.row_attrs or any(self.rows.pinned_data.values()):
            return None
        plans = self._cell_plans()
        first = self.data[0]
        if any(
            plan.link is not None
            or plan.localize is not None
            or plan.writer(first) != plan._attribute_html
            for plan in plans
        ):
            return None
        return [_figure_writer(plan) if plan.as_is else _cell_writer(plan) for plan in plans]


def _cell_writer(plan: Any) -> Callable[[Any], str]:
    """A column's ``<td>`` for a record, as ``BaseTable`` writes it (``_attribute_html``)."""
    cell = plan._attribute_html
    return lambda record: cell(None, record)  # type: ignore[no-any-return]


def _figure_writer(plan: Any) -> Callable[[Any], str]:
    """A column of figures' ``<td>`` for a record: a whole number as ``BaseTable`` writes it
    (its text, not grouped, ``_CellPlan._text``), any other value by ``_cell_writer``."""
    name, start, end = plan.name, "<td " + plan.td + ">", "</td>"
    if plan.grouped:
        return _cell_writer(plan)
    cell = plan._attribute_html

    def figure(record: Any) -> str:
        value = getattr(record, name)
        if type(value) is int:
            return start + str(value) + end
        return cell(None, record)  # type: ignore[no-any-return]

    return figure


# The statuses, kind and style a list's cells compare each fixture with, read once: reading a
# member of a choices enum (``Fixture.Status.VOID``) takes some 100 ns, longer than the
# comparison, and a list of 200 fixtures made six a row.
POSTPONED, VOID = Fixture.Status.POSTPONED, Fixture.Status.VOID
SCHEDULED, WALKOVER = Fixture.Status.SCHEDULED, Fixture.Status.WALKOVER
LEAGUE_FIXTURE = Fixture.Kind.LEAGUE
TRINIDAD = League.Style.TRINIDAD


def fixture_score(fixture: Fixture, *, marked: bool = True) -> str:
    """How a fixture's result reads in a list: match points (Yorkshire) or bullseyes
    (Trinidad), "P–P" when postponed, "v" before it is played; ``marked``: with how the
    result stands ("awaiting confirmation", "not yet submitted", "provisional") where that is
    not said beside it."""
    if fixture.status == POSTPONED:
        return "P–P"
    if fixture.status == VOID:
        return "void"
    if fixture.walkover_pending:  # a walkover not yet due: the status says when it counts
        return "v"
    result: FixtureResult | None = getattr(fixture, "result", None)
    if result is None:
        return "v"
    if fixture.league.style == TRINIDAD:
        home, away = result.home_games, result.away_games
    else:
        home, away = result.home_match_points, result.away_match_points
    text = f"{home}–{away}"
    if not result.is_final:
        # A match whose play stopped at an abandoned table is not played on: said so.
        return f"{text}, {STOPPED}" if has_stopped(fixture) else f"{text} {IN_PLAY}"
    if result.is_walkover:
        text = f"{text} w/o"
    mark = result_mark(fixture) if marked else ""
    return f"{text} {mark}" if mark else text


def status_text(fixture: Fixture) -> str:
    """A fixture's status as lists print it: "Walkover to Alpha", "Played (provisional)",
    "Play-off: Scheduled", "Cup: Result not in yet" (its night passed, nothing scored),
    "Postponed: no new date yet" (as its page says it; a cup tie waiting for a night, "No night
    yet": ``Fixture.postponed_words``)."""
    label = fixture.postponed_words if fixture.status == POSTPONED else fixture.get_status_display()
    if fixture.status == SCHEDULED:  # begun: a game at a table, or a table done
        progress = listed_progress(fixture, fixture.league.today())
        if progress == NO_RESULT:
            label = NO_RESULT_WORDS  # as its page says it
        elif progress == IN_PLAY:
            label = "In play"
        elif progress == STOPPED:
            label = PLAY_STOPPED  # as its page's figures say it
    if fixture.status == WALKOVER and fixture.walkover_to:
        label = fixture.walkover_words
    # A cup tie's match level, its play-off game to come ("League Cup: Level 3–3: a play-off
    # game to come"), not "Played" as if the tie were done.
    label = getattr(fixture, "cup_level", "") or label
    mark = result_mark(fixture)
    if mark and mark != fixture.get_kind_display().lower():
        label = f"{label} ({mark})"
    if fixture.kind != LEAGUE_FIXTURE:
        # A cup tie's fixture in a list is named by its cup ("Knockout Cup: Scheduled"): a
        # league may run two.
        label = f"{getattr(fixture, 'cup_name', '') or fixture.get_kind_display()}: {label}"
    return label


class _Escaped(dict[str, str]):
    """Texts escaped as the table's template escapes a cell's (``html.escape``, what Django's
    escape does to a ``str``), each once: a list's venues and statuses come again and again."""

    def __call__(self, text: str) -> str:
        found = self.get(text)
        if found is None:
            found = self[text] = html.escape(text)
        return found


class _TeamLinks(dict[tuple[int, str], str]):
    """Each team's link in a list, by its id and the name shown, written once: a team's list
    names it in every row, a division's each team on each night. ``html.escape``: what
    Django's escape does, without its check for lazy text."""

    def __init__(self, url: Callable[[int], str]) -> None:
        super().__init__()
        self.url = url

    def __call__(self, pk: int, name: str) -> str:
        found = self.get((pk, name))
        if found is None:
            found = self[pk, name] = f'<a href="{self.url(pk)}">{html.escape(name)}</a>'
        return found


class FixturesTable(BaseTable):
    """Fixtures and results, one row a fixture (the score links to the fixture's page).

    The match comes first; a team's list (``sequence=DATE_FIRST``) starts with the date.
    """

    date = tables.DateColumn(
        format="D j M", order_by=("date", "time", "pk"), attrs={"td": {"class": "when"}}
    )
    # The columns make their own links (render_home, render_score, render_away), as linkify
    # would: a team's URL is worked out once per table, not once per fixture it plays in.
    home = tables.Column(order_by=("home__name",), attrs={"td": {"class": "home"}})
    score = tables.Column(
        accessor="pk",
        verbose_name="Result",
        orderable=False,
        attrs={"td": {"class": "score"}, "th": {"class": "score"}},
    )
    away = tables.Column(order_by=("away__name",), attrs={"td": {"class": "away"}})
    venue = tables.Column(order_by=("venue__name",), attrs={"td": {"class": "venue"}})
    status = tables.Column(attrs={"td": {"class": "status"}})
    # The start time where the league plays, a column of the CSV; a page gives it with the
    # date of a fixture still to begin (``render_date``) and names the league's zone once.
    time = tables.Column(visible=False, orderable=False, attrs={"td": {"class": "time"}})

    export_name = "fixtures"

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table fixtures"}
        sequence = ("home", "score", "away", "date", "time", "venue", "status")
        empty_text = "No fixtures yet."
        order_by = ("date",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._team_links = _TeamLinks(paths_for("leagues:team"))
        self._fixture_url = paths_for("leagues:fixture")

    def _team_link(self, team: Any, name: str) -> Any:
        return SafeString(self._team_links(team.pk, name))

    def render_home(self, record: Fixture) -> Any:
        return self._team_link(record.home, self.value_home(record))

    def value_home(self, record: Fixture) -> str:
        return getattr(record, "home_name", None) or record.home.name

    def render_away(self, record: Fixture) -> Any:
        return self._team_link(record.away, self.value_away(record))

    def value_away(self, record: Fixture) -> str:
        return getattr(record, "away_name", None) or record.away.name

    def render_date(self, record: Fixture) -> str:
        """ "Fri 4 Dec", and its start time where it is still to begin, "Fri 4 Dec, 19:30", as
        the league home's next fixtures give it (the page names the league's zone once)."""
        when = short_date(record.date)
        starts = start_time(record)
        return f"{when}, {starts}" if starts else when

    def render_time(self, record: Fixture) -> str:
        """Where a week's list shows the column (its fixtures start at different times): the
        start time of a fixture still to begin, else a dash."""
        return start_time(record) or "—"

    def render_score(self, record: Fixture) -> Any:
        url = self._fixture_url(record.pk)
        return SafeString(f'<a href="{url}">{html.escape(fixture_score(record))}</a>')

    def value_score(self, record: Fixture) -> str:
        return fixture_score(record)

    def render_venue(self, record: Fixture) -> str:
        """As the fixture's page names it, the town with it (``venue_words``)."""
        return str(record.venue)

    def value_venue(self, record: Fixture) -> str:
        return str(record.venue)

    def render_status(self, record: Fixture) -> Any:
        label = status_text(record)
        if record.first_set_for:
            return format_html(
                '{} <span class="muted">(was {})</span>', label, record.first_set_for
            )
        return label

    def value_status(self, record: Fixture) -> str:
        return status_text(record)

    def value_date(self, record: Fixture) -> str:
        return record.date.isoformat()

    def value_time(self, record: Fixture) -> str:
        return clock(record.time) if record.time else ""

    def _cell_writers(self) -> list[Callable[[Any], str]] | None:
        """Each shown column's writer (``_cell_writer``), in order: each cell as ``BaseTable``
        writes it, by the column's own writer, without the general lookups and checks a cell,
        each team's link written once a list, each venue, status and result escaped once (a
        team's list of 198 fixtures: 1.8 ms of CPU, not 2.3). None where a row or a cell is not
        written so (attributes computed from the record, pinned rows, a subclass's columns)."""
        if type(self) is not FixturesTable or self.row_attrs or any(self.rows.pinned_data.values()):
            return None
        plans = self._cell_plans()
        if any(
            plan.td is None or plan.link is not None or plan.localize is not None or not plan.direct
            for plan in plans
        ):
            return None
        escaped = _Escaped()
        return [self._cell_writer(plan, escaped) for plan in plans]

    def _cell_writer(self, plan: Any, escaped: _Escaped) -> Callable[[Any], str]:
        """What writes a column's ``<td>`` for a record: the column's default where its value
        is empty, else its ``render_*`` method's content, escaped unless safe (``escaped``)."""
        column, name, empty = plan.bound_column.name, plan.name, plan.empty_values
        start, end = "<td " + plan.td + ">", "</td>"
        default = start + plan._text(plan.default) + end
        if column in ("home", "away") and name == column:
            listed = self.value_home if column == "home" else self.value_away
            links = self._team_links

            def team(record: Any) -> str:
                value = getattr(record, name)
                if value in empty:
                    return default
                return start + links(value.pk, listed(record)) + end

            return team
        if column == "score" and name == "pk":
            fixture_url = self._fixture_url

            def score(record: Any) -> str:
                pk = record.pk
                if pk in empty:
                    return default
                text = escaped(fixture_score(record))
                return f'{start}<a href="{fixture_url(pk)}">{text}</a>{end}'

            return score
        render = plan.render

        def cell(record: Any) -> str:
            if getattr(record, name) in empty:
                return default
            content = render(record=record)
            kind = type(content)
            if kind is str:
                return start + escaped(content) + end
            return start + (content if kind is SafeString else plan._text(content)) + end

        return cell


DATE_FIRST = ("date", "time", "home", "score", "away", "venue", "status")


def start_time(fixture: Fixture) -> str:
    """ "19:30": when a fixture still to begin starts (in its league's zone, which the page
    names once); "" for one begun, played, given or void, and for one postponed (it has no
    date, nor time, until it is re-arranged: not listed as if it were still on)."""
    if fixture.status == SCHEDULED and getattr(fixture, "result", None) is None:
        return clock(fixture.time)
    return ""


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
#: A player's figure nobody recorded: only score cards gave their games (``HAND_FIGURES``).
NOT_KNOWN = "—"


class FigureColumn(tables.Column):
    def __init__(self, key: str, abbr: str, label: str, *, wide: bool = False, **kwargs: Any):
        self.export_header = label
        self.wide = wide
        """Shown on a wide screen only (on a phone, under a tapped player's name)."""
        kind = "num wide" if wide else "num"
        attrs = {"th": {"class": kind, "title": label}, "td": {"class": kind}}
        super().__init__(accessor=key, verbose_name=abbr, attrs=attrs, **kwargs)


#: The players' figures a 360 px phone shows in the row; the rest open under a tapped name.
PHONE_FIGURES = ("games_played", "games_won", "win_percentage")


class PlayerStatisticsTable(BaseTable):
    """Players' figures from stored hands and score cards; games won first."""

    player = tables.Column(order_by=("player__name",))
    # The player's team(s) that season, a column of the CSV (the page lists a division's
    # players with their figures alone).
    team = tables.Column(visible=False, orderable=False, empty_values=())

    export_name = "players"

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table players"}
        empty_text = "No games finished yet."

    def __init__(
        self,
        data: Any,
        *,
        style: str,
        phone: bool = False,
        teams: Mapping[int, str] | None = None,
        **kwargs: Any,
    ) -> None:
        """``phone``: on a phone only the player and ``PHONE_FIGURES`` show in the row, and a
        tap on the name opens the other figures (as the standings do); a wide screen shows all.
        ``teams``: each player's team(s) by id, for the CSV's Team column."""
        self._teams = teams or {}
        self._figures = [
            (key, abbr, label)
            for key, abbr, label in PLAYER_FIGURES
            if style == League.Style.TRINIDAD or key not in TRINIDAD_ONLY
        ]
        self.phone = phone
        self._player_url = paths_for("leagues:player")
        columns = [
            (
                key,
                # A figure not known (only score cards gave the player's games) reads "—"
                # (an empty cell in the CSV).
                FigureColumn(
                    key,
                    abbr,
                    label,
                    default=NOT_KNOWN if key in HAND_FIGURES else "",
                    wide=phone and key not in PHONE_FIGURES,
                ),
            )
            for key, abbr, label in self._figures
        ]
        if phone:
            kwargs.setdefault("attrs", {"class": "data-table players phone"})
        super().__init__(data, extra_columns=columns, **kwargs)

    def render_player(self, record: PlayerStatistics, value: Any) -> str:
        url = self._player_url(value.pk)
        if not self.phone:
            return format_html('<a href="{}">{}</a>', url, value)
        figures = format_html_join(
            "",
            "<div><dt>{}</dt><dd>{}</dd></div>",
            (
                (label, self._value(record, key))
                for key, _, label in self._figures
                if key not in PHONE_FIGURES
            ),
        )
        return format_html(
            '<a class="player-link" href="{url}">{name}</a>'
            '<details class="row-figures"><summary>{name}</summary><dl class="row-dl">{figures}'
            '</dl><a class="team-page" href="{url}">{name}: player page</a></details>',
            url=url,
            name=value,
            figures=figures,
        )

    def value_player(self, record: PlayerStatistics, value: Any) -> str:
        return str(value)

    def value_team(self, record: PlayerStatistics) -> str:
        return self._teams.get(record.player.pk, "") if record.player is not None else ""

    def _value(self, record: PlayerStatistics, key: str) -> str:
        value = getattr(record, key, "")
        return NOT_KNOWN if value is None else str(value)

    def render_win_percentage(self, record: PlayerStatistics) -> str:
        value = record.win_percentage
        return "" if value is None else f"{value:.0f}"

    def value_win_percentage(self, record: PlayerStatistics) -> Any:
        return "" if record.win_percentage is None else record.win_percentage
