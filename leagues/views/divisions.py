"""A division's three tables: standings, fixtures and results, player statistics.

Each is a ``SingleTableMixin`` view over a selector, sortable with ``?sort=`` and downloadable
as CSV from the same view (``as_view(export="csv")``). The standings and fixtures pages run a
fixed number of queries whatever the size of the division.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.functional import cached_property
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from config.inputs import strict_id
from config.tables import CSVExportMixin
from leagues.fragments import cached_fragment, request_params
from leagues.models import Division
from leagues.permissions import can_manage_league
from leagues.selectors import fixtures as fixture_selectors
from leagues.selectors.accounts import viewer_teams
from leagues.selectors.fixtures import ListedFixture, Night, TeamChoice
from leagues.selectors.race import MARKERS, Race, division_race
from leagues.selectors.standings import (
    Standings,
    division_for_table,
    division_standings,
    with_nights,
)
from leagues.selectors.statistics import player_leaderboard, players_teams
from leagues.tables import (
    DATE_FIRST,
    FixturesTable,
    PlayerStatisticsTable,
    StandingsTable,
    start_time,
    wide_only,
)
from leagues.views.charts import picked_out, progression_chart
from leagues.views.common import NO_PLAYER_FIGURES, found, team_options

#: A week's list with no fixture: every one of that night's was re-arranged to another.
REARRANGED_AWAY = "Every fixture of this night was re-arranged: each is listed on its new night."


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


class FragmentMixin(DivisionMixin):
    """The page below its tabs is one cached fragment (``leagues/fragments.py``): rendered from
    the full context on a miss, served as it is on a hit (the CSV is never cached)."""

    fragment_template = ""
    fragment_params: tuple[str, ...] = ("sort",)
    export: str | None = None

    def fragment_parts(self) -> list[Any] | None:
        params = request_params(self.request, self.fragment_params)
        if params is None:
            return None
        return [self.fragment_template, self.division.pk, *params]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self.export:
            return super().get(request, *args, **kwargs)  # type: ignore[misc,no-any-return]
        division = self.division

        def render() -> str:
            context = self.get_context_data(**kwargs)  # type: ignore[attr-defined]
            return render_to_string(self.fragment_template, context, request=request)

        fragment = cached_fragment(
            league_id=division.season.league_id, parts=self.fragment_parts(), render=render
        )
        return TemplateResponse(
            request,
            self.template_name,  # type: ignore[attr-defined]
            {
                "view": self,
                "division": division,
                "season": division.season,
                "league": division.season.league,
                "section": self.section,
                "can_manage": can_manage_league(request.user, division.season.league),
                "fragment": fragment,
            },
        )


class StandingsView(FragmentMixin, CSVExportMixin, SingleTableMixin, TemplateView):
    """The league table, its notes (adjustments, provisional) and the tie-break rule."""

    template_name = "leagues/division_standings.html"
    fragment_template = "leagues/_standings_body.html"
    table_class = StandingsTable
    table_pagination = False
    section = "standings"

    @cached_property
    def division(self) -> Division:
        return found(division_for_table, pk=self.kwargs["pk"])

    @cached_property
    def standings(self) -> Standings:
        return division_standings(division=self.division)

    def get_table_data(self) -> list[Any]:
        return self.standings.rows

    fragment_params = ("sort", "team")

    @cached_property
    def yours(self) -> list[int]:
        """The viewer's own teams in the division, picked out on the chart."""
        return viewer_teams(user=self.request.user, division=self.division)

    def fragment_parts(self) -> list[Any] | None:
        # The chart picks out the viewer's own team: a captain's page is not everyone's.
        parts = super().fragment_parts()
        return None if parts is None else [*parts, "yours", *sorted(self.yours)]

    @property
    def chosen(self) -> int | None:
        """The team picked out on the chart (``?team=``)."""
        return strict_id(self.request.GET.get("team"))

    @cached_property
    def race(self) -> Race:
        return division_race(standings=self.standings)

    def get_table_kwargs(self) -> dict[str, Any]:
        return {
            "metrics": self.standings.columns,
            "style": self.standings.league.style,
            "race": None if self.export else self.race,
        }

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        standings = self.standings
        # The league fixtures (not void) the table counts, and those it will: the same two
        # figures the race below reads ("16 fixtures left to count").
        counted, left = standings.counted, len(standings.remaining)
        # A big division's table is read without its teams' points a night: the chart draws
        # its band and the lines of the few teams it picks out, read now.
        with_nights(
            standings, teams=picked_out(standings.rows, yours=self.yours, chosen=self.chosen)
        )
        context.update(
            standings=standings,
            fixtures_counted=counted,
            fixtures_total=counted + left,
            provisional=left > 0,
            # A total with an adjustment in it is marked in the table: the key says what the
            # mark is.
            adjusted=any(row.adjustments for row in standings.rows),
            # Each figure's abbreviation and name, and whether it shows on a wide screen only.
            legend=[
                (
                    column.abbr_for(standings.league.style),
                    column.label_for(standings.league.style),
                    wide_only(column),
                )
                for column in standings.columns
            ],
            race=self.race,
            race_contenders=self.race.title_race(standings.rows),
            markers=MARKERS,
            chart=progression_chart(
                rows=standings.rows,
                nights=standings.nights,
                adjustments=standings.adjustments,
                band=standings.band,
                yours=self.yours,
                chosen=self.chosen,
                zone=standings.league.time_zone,
                night=standings.division.season.night,
            ),
        )
        return context


class FixturesView(FragmentMixin, CSVExportMixin, SingleTableMixin, TemplateView):
    """Fixtures and results one league night at a time (``?week=``), or one team's
    (``?team=``). The CSV with neither is the whole list; each CSV has the whole list's columns
    in its order."""

    template_name = "leagues/division_fixtures.html"
    fragment_template = "leagues/_fixtures_body.html"
    fragment_params = ("week", "team", "sort")
    table_class = FixturesTable
    table_pagination = False
    section = "fixtures"

    def fragment_parts(self) -> list[Any] | None:
        # Without ?week= the page shows the next league night: it depends on today.
        parts = super().fragment_parts()
        return None if parts is None else [*parts, self.division.season.league.today().isoformat()]

    @cached_property
    def teams(self) -> list[TeamChoice]:
        return fixture_selectors.division_teams(division=self.division)

    @cached_property
    def team(self) -> TeamChoice | None:
        wanted = strict_id(self.request.GET.get("team"))
        if wanted is None:
            return None
        return next((team for team in self.teams if team.pk == wanted), None)

    @cached_property
    def nights(self) -> list[Night]:
        return fixture_selectors.division_nights(division=self.division)

    @cached_property
    def week(self) -> datetime.date | None:
        """The night shown: none where a team's fixtures are (the nights are not read)."""
        if self.team is not None:
            return None
        wanted = self.request.GET.get("week", "")
        try:
            chosen = datetime.date.fromisoformat(wanted)
        except ValueError:
            chosen = None
        days = [night.date for night in self.nights]
        if chosen in days:
            return chosen
        if self.export or not days:
            return None
        today = self.division.season.league.today()
        return next((day for day in days if day >= today), days[-1])

    def get_table_kwargs(self) -> dict[str, Any]:
        # Every CSV (the season's, a week's, a team's) has the same columns in the same order:
        # a secretary pastes them into one spreadsheet.
        if self.export:
            return {}
        # A week's fixtures share one date: the page heading says it. A night is listed with
        # none only when it is a week every fixture of which was re-arranged to another.
        if self.week is not None:
            return {"exclude": ("date",), "empty_text": REARRANGED_AWAY}
        if self.team is not None:
            return {"sequence": DATE_FIRST}
        return {}

    @cached_property
    def rows(self) -> list[ListedFixture]:
        return fixture_selectors.division_fixture_rows(
            division=self.division, team=self.team, week=self.week
        )

    def get_table_data(self) -> Any:
        return self.rows

    @cached_property
    def week_starts(self) -> list[str]:
        """The start times of the week's fixtures still to begin: one, said with the night's
        date; more (a match moved to another hour), a column of the list."""
        if self.week is None:
            return []
        return sorted({start_time(row) for row in self.rows} - {""})

    def get_table(self, **kwargs: Any) -> Any:
        table = super().get_table(**kwargs)
        if not self.export and len(self.week_starts) > 1:
            table.columns.show("time")
        return table

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        week = self.week
        nights = [] if week is None else self.nights
        # The CSV of what the page shows: the week shown, asked for or not (the next night).
        query = self.request.GET.copy()
        if week is not None:
            query["week"] = week.isoformat()
        index = next((i for i, night in enumerate(nights) if night.date == week), None)
        night = None if index is None else nights[index]
        context.update(
            csv_query=query.urlencode(),
            team_options=team_options(self.teams, chosen=self.team.pk if self.team else None),
            team=self.team,
            by="team" if self.team is not None else "week",
            week=week,
            night=night,
            starts=self.week_starts,
            # "Week 3 of 5": of the league nights, not a play-off's.
            league_weeks=sum(1 for night in nights if night.week is not None),
            previous_night=nights[index - 1] if index else None,
            next_night=nights[index + 1] if index is not None and index + 1 < len(nights) else None,
            # The week's team with no match (the bye): of the teams the chooser reads already.
            # Only a league night's: the teams not in a re-arranged match that night had none
            # to play.
            no_match=""
            if night is None or night.week is None
            else fixture_selectors.no_match_words(
                ((row.home.pk, row.away.pk) for row in self.rows),
                {team.pk: team.name for team in self.teams},
            ),
        )
        return context


class PlayersView(DivisionMixin, CSVExportMixin, SingleTableMixin, TemplateView):
    """Every player's figures in the division, from stored hands and score cards."""

    template_name = "leagues/division_players.html"
    table_class = PlayerStatisticsTable
    table_pagination = False
    section = "players"

    def get_table_data(self) -> list[Any]:
        return player_leaderboard(division=self.division)

    def get_table_kwargs(self) -> dict[str, Any]:
        return {
            "style": self.division.season.league.style,
            "phone": True,
            "empty_text": NO_PLAYER_FIGURES,
            # The CSV's Team column (the page shows none: no query for it there).
            "teams": players_teams(season=self.division.season) if self.export else None,
        }
