"""A division's three tables: standings, fixtures and results, player statistics.

Each is a ``SingleTableMixin`` view over a selector, sortable with ``?sort=`` and downloadable
as CSV from the same view (``as_view(export="csv")``). The standings and fixtures pages run a
fixed number of queries whatever the size of the division.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count
from django.utils import timezone
from django.utils.functional import cached_property
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from config.tables import CSVExportMixin
from leagues.models import Division, Fixture, Team
from leagues.permissions import can_manage_league
from leagues.selectors import fixtures as fixture_selectors
from leagues.selectors.standings import Standings, division_standings
from leagues.selectors.statistics import player_leaderboard
from leagues.tables import DATE_FIRST, FixturesTable, PlayerStatisticsTable, StandingsTable
from leagues.views.charts import progression_chart
from leagues.views.common import found

SETTLED = (Fixture.Status.PLAYED, Fixture.Status.WALKOVER)


class DivisionMixin:
    """The division from the URL (with season and league), and the page's common context."""

    kwargs: dict[str, Any]
    request: Any
    section = ""

    @cached_property
    def division(self) -> Division:
        return found(fixture_selectors.division_get, pk=self.kwargs["pk"])

    def export_filename(self, table: Any) -> str:
        division = self.division
        return f"{division.season.league.slug}-{division.season.slug}-{division.slug}-" + (
            table.export_name
        )

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)  # type: ignore[misc]
        division = self.division
        context.update(
            division=division,
            season=division.season,
            league=division.season.league,
            section=self.section,
            can_manage=can_manage_league(self.request.user, division.season.league),
        )
        return context


class StandingsView(DivisionMixin, CSVExportMixin, SingleTableMixin, TemplateView):
    """The league table, its notes (adjustments, provisional) and the tie-break rule."""

    template_name = "leagues/division_standings.html"
    table_class = StandingsTable
    table_pagination = False
    section = "standings"

    @cached_property
    def standings(self) -> Standings:
        return division_standings(division=self.division)

    def get_table_data(self) -> list[Any]:
        return self.standings.rows

    def get_table_kwargs(self) -> dict[str, Any]:
        return {"metrics": self.standings.columns, "style": self.standings.league.style}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        standings = self.standings
        counts = dict(
            fixture_selectors.division_fixtures(division=self.division)
            .order_by()
            .values_list("status")
            .annotate(n=Count("pk"))
        )
        total = sum(counts.values())
        settled = sum(counts.get(status, 0) for status in SETTLED)
        context.update(
            standings=standings,
            fixtures_total=total,
            fixtures_settled=settled,
            provisional=settled < total - counts.get(Fixture.Status.VOID, 0),
            legend=[
                (column.abbr_for(standings.league.style), column.label_for(standings.league.style))
                for column in standings.columns
            ],
            chart=progression_chart(division=self.division, rows=standings.rows),
        )
        return context


class FixturesView(DivisionMixin, CSVExportMixin, SingleTableMixin, TemplateView):
    """Fixtures and results one league night at a time (``?week=``), or one team's
    (``?team=``). The CSV with neither is the whole list."""

    template_name = "leagues/division_fixtures.html"
    table_class = FixturesTable
    table_pagination = False
    section = "fixtures"

    @cached_property
    def entries(self) -> list[Any]:
        return list(fixture_selectors.division_entries(division=self.division))

    @cached_property
    def team(self) -> Team | None:
        wanted = self.request.GET.get("team", "")
        if not wanted.isdigit():
            return None
        return next((e.team for e in self.entries if e.team.pk == int(wanted)), None)

    @cached_property
    def weeks(self) -> list[datetime.date]:
        return list(
            fixture_selectors.division_fixtures(division=self.division)
            .order_by("date")
            .values_list("date", flat=True)
            .distinct()
        )

    @cached_property
    def week(self) -> datetime.date | None:
        wanted = self.request.GET.get("week", "")
        try:
            chosen = datetime.date.fromisoformat(wanted)
        except ValueError:
            chosen = None
        if chosen in self.weeks:
            return chosen
        if self.export or not self.weeks:
            return None
        today = timezone.localdate()
        return next((day for day in self.weeks if day >= today), self.weeks[-1])

    def get_table_kwargs(self) -> dict[str, Any]:
        # A week's fixtures share one date: the page heading says it.
        if self.team is None and self.week is not None and not self.export:
            return {"exclude": ("date",)}
        if self.team is not None:
            return {"sequence": DATE_FIRST}
        return {}

    def get_table_data(self) -> Any:
        if self.team is not None:
            return fixture_selectors.fixture_list(division=self.division, team=self.team)
        fixtures = fixture_selectors.division_fixtures(division=self.division)
        if self.week is not None:
            return fixtures.filter(date=self.week)
        return fixtures

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        weeks, week = self.weeks, self.week
        index = weeks.index(week) if week in weeks else None
        context.update(
            entries=self.entries,
            team=self.team,
            by="team" if self.team is not None else "week",
            week=week,
            week_number=None if index is None else index + 1,
            weeks=weeks,
            previous_week=weeks[index - 1] if index else None,
            next_week=weeks[index + 1] if index is not None and index + 1 < len(weeks) else None,
        )
        return context


class PlayersView(DivisionMixin, CSVExportMixin, SingleTableMixin, TemplateView):
    """Every player's figures in the division, from stored hands."""

    template_name = "leagues/division_players.html"
    table_class = PlayerStatisticsTable
    table_pagination = False
    section = "players"

    def get_table_data(self) -> list[Any]:
        return player_leaderboard(division=self.division)

    def get_table_kwargs(self) -> dict[str, Any]:
        return {"style": self.division.season.league.style}
