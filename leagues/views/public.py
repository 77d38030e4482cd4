"""Pages anyone can read without an account: leagues, a fixture, a team, a player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django_tables2 import RequestConfig

from leagues.models import Fixture, ResultSubmission
from leagues.permissions import can_manage_league
from leagues.selectors import fixtures as selectors
from leagues.selectors.statistics import pair_statistics, player_leaderboard, player_statistics
from leagues.tables import DATE_FIRST, FixturesTable, PlayerStatisticsTable, fixture_score
from leagues.views.common import found

LATEST = 8


def league_list(request: HttpRequest) -> HttpResponse:
    return render(request, "leagues/league_list.html", {"leagues": selectors.league_list()})


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's home: its seasons and divisions, latest results and next fixtures."""
    league = found(selectors.league_get, slug=slug)
    seasons = list(selectors.league_seasons(league=league))
    current = seasons[0] if seasons else None
    results = upcoming = []
    if current is not None:
        results = list(
            selectors.fixture_list(
                season=current, statuses=[Fixture.Status.PLAYED, Fixture.Status.WALKOVER]
            ).order_by("-date", "-time", "-pk")[:LATEST]
        )
        upcoming = list(
            selectors.fixture_list(
                season=current, statuses=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED]
            ).filter(date__gte=timezone.localdate())[:LATEST]
        )
    return render(
        request,
        "leagues/league_detail.html",
        {
            "league": league,
            "seasons": seasons,
            "current": current,
            "results": [(f, fixture_score(f)) for f in results],
            "upcoming": upcoming,
            "match_format": league.get_match_format().describe(),
            "ruleset": league.get_ruleset(),
            "can_manage": can_manage_league(request.user, league),
        },
    )


def fixture_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A fixture: its result, and each table's pairs and games with links to the score sheets."""
    fixture = found(selectors.fixture_detail, pk=pk)
    league = fixture.division.season.league
    return render(
        request,
        "leagues/fixture_detail.html",
        {
            "fixture": fixture,
            "league": league,
            "division": fixture.division,
            "result": getattr(fixture, "result", None),
            "score": fixture_score(fixture),
            "tables": list(fixture.tables.all()),
            "adjustments": list(fixture.adjustments.all()),
            "can_manage": can_manage_league(request.user, league),
            "confirmed": fixture.submissions.filter(
                status__in=ResultSubmission.CONFIRMED_STATUSES
            ).exists(),
        },
    )


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A team's season (``?season=``, the latest by default): squad, fixtures, players."""
    team = found(selectors.team_get, pk=pk)
    entries = list(selectors.team_entries(team=team))
    wanted = request.GET.get("season", "")
    latest = entries[0] if entries else None
    entry = next((e for e in entries if str(e.season_id) == wanted), latest)
    context: dict[str, Any] = {
        "team": team,
        "league": team.league,
        "entries": entries,
        "entry": entry,
        "can_manage": can_manage_league(request.user, team.league),
    }
    if entry is not None:
        fixtures = FixturesTable(
            selectors.fixture_list(team=team, season=entry.season),
            prefix="f-",
            sequence=DATE_FIRST,
        )
        players = PlayerStatisticsTable(
            player_leaderboard(team=team, season=entry.season),
            style=team.league.style,
            prefix="p-",
        )
        config = RequestConfig(request, paginate=False)
        config.configure(fixtures)
        config.configure(players)
        context.update(
            squad=list(selectors.team_squad(team=team, season=entry.season)),
            fixtures=fixtures,
            players=players,
        )
    return render(request, "leagues/team_detail.html", context)


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: teams by season, figures from stored hands, partners, and games played."""
    player = found(selectors.player_get, pk=pk)
    tables = selectors.player_tables(player=player)
    seats = []
    for table in tables:
        home = player in table.home_pair
        pair = table.home_pair if home else table.away_pair
        seats.append(
            {
                "table": table,
                "fixture": table.fixture,
                "team": table.fixture.home if home else table.fixture.away,
                "opponents": table.fixture.away if home else table.fixture.home,
                "partner": [p for p in pair if p != player],
                "side": "A" if home else "B",
                "games": list(table.games.all()),
            }
        )
    return render(
        request,
        "leagues/player_detail.html",
        {
            "player": player,
            "registrations": list(selectors.player_registrations(player=player)),
            "stats": player_statistics(player=player),
            "pairs": pair_statistics(player=player),
            "seats": seats,
        },
    )
