"""The API's endpoints: thin reads through the leagues' selectors, every list paginated.

A league is named by its slug, everything else by its id. An unknown one is a 404 naming what
was asked for; a malformed query parameter a 422 naming the parameter.
"""

import datetime
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet
from ninja import NinjaAPI, Query, Schema
from ninja.errors import HttpError, ValidationError
from ninja.pagination import PageNumberPagination, paginate

from api.schemas import (
    DivisionOut,
    ErrorOut,
    FixtureOut,
    LeagueOut,
    PlayerStatisticsOut,
    SeasonOut,
    StandingsOut,
    TeamOut,
)
from leagues.models import Division, Fixture, League, Season, Team
from leagues.selectors import fixtures as selectors
from leagues.selectors.standings import division_standings
from leagues.selectors.statistics import player_leaderboard

api = NinjaAPI(
    title="All Fours leagues",
    version="1",
    description="Read-only: leagues, seasons, divisions, standings, fixtures with the results "
    "that count, teams and player statistics. Lists are paginated (`page`, `page_size`).",
    urls_namespace="api",
    docs_url="/docs",
    openapi_url="/openapi.json",
)

NOT_FOUND: dict[int, Any] = {400: ErrorOut, 404: ErrorOut}


@api.exception_handler(ValidationError)
def bad_parameter(request: Any, exc: ValidationError) -> Any:
    """A malformed query parameter: 400, naming the parameter and what is wrong with it."""
    problems = []
    for error in exc.errors:
        where = [str(part) for part in error.get("loc", ()) if part not in ("query", "path")]
        problems.append(f"{'.'.join(where) or 'query'}: {error.get('msg', 'invalid')}")
    return api.create_response(request, {"detail": "; ".join(problems)}, status=400)


class Page(PageNumberPagination):
    """``page`` (from 1) and ``page_size`` (50 by default, at most 200)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(page_size=50, max_page_size=200, **kwargs)


def _get(queryset: QuerySet[Any], what: str, **lookup: Any) -> Any:
    try:
        return queryset.get(**lookup)
    except ObjectDoesNotExist:
        key = ", ".join(f"{value}" for value in lookup.values())
        raise HttpError(404, f"No {what} {key}.") from None


def _league(slug: str) -> League:
    return _get(League.objects.all(), "league", slug=slug)


def _division(division_id: int) -> Division:
    return _get(Division.objects.select_related("season__league"), "division", pk=division_id)


def _team(team_id: int) -> Team:
    return _get(Team.objects.select_related("league", "home_venue"), "team", pk=team_id)


class FixtureFilters(Schema):
    status: Fixture.Status | None = None
    kind: Fixture.Kind | None = None
    team: int | None = None
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None


def _filtered(fixtures: QuerySet[Fixture], filters: FixtureFilters) -> QuerySet[Fixture]:
    if filters.status is not None:
        fixtures = fixtures.filter(status=filters.status)
    if filters.kind is not None:
        fixtures = fixtures.filter(kind=filters.kind)
    if filters.date_from is not None:
        fixtures = fixtures.filter(date__gte=filters.date_from)
    if filters.date_to is not None:
        fixtures = fixtures.filter(date__lte=filters.date_to)
    return fixtures


def _team_filter(fixtures: QuerySet[Fixture], team_id: int | None, league: League) -> Any:
    if team_id is None:
        return fixtures
    team = _get(Team.objects.filter(league=league), f"team in {league.name} with id", pk=team_id)
    return fixtures.filter(Q(home=team) | Q(away=team))


@api.get("/leagues", response={200: list[LeagueOut], 400: ErrorOut}, tags=["leagues"])
@paginate(Page)
def leagues(request: Any) -> QuerySet[League]:
    """Every league, by name."""
    return selectors.league_list()


@api.get("/leagues/{slug}", response={200: LeagueOut, **NOT_FOUND}, tags=["leagues"])
def league(request: Any, slug: str) -> League:
    return _league(slug)


@api.get("/leagues/{slug}/seasons", response={200: list[SeasonOut], **NOT_FOUND}, tags=["leagues"])
@paginate(Page)
def seasons(request: Any, slug: str) -> QuerySet[Season]:
    """The league's seasons, latest first, each with its divisions."""
    return selectors.league_seasons(league=_league(slug))


@api.get("/leagues/{slug}/teams", response={200: list[TeamOut], **NOT_FOUND}, tags=["teams"])
@paginate(Page)
def league_teams(request: Any, slug: str) -> QuerySet[Team]:
    return (
        Team.objects.filter(league=_league(slug))
        .select_related("league", "home_venue")
        .order_by("name")
    )


@api.get(
    "/leagues/{slug}/fixtures", response={200: list[FixtureOut], **NOT_FOUND}, tags=["fixtures"]
)
@paginate(Page)
def league_fixtures(
    request: Any, slug: str, filters: Query[FixtureFilters], season: int | None = None
) -> QuerySet[Fixture]:
    """The league's fixtures in date order; a result is given once it counts."""
    league = _league(slug)
    fixtures = selectors.fixture_list().filter(division__season__league=league)
    if season is not None:
        chosen = _get(league.seasons.all(), f"season of {league.name} with id", pk=season)
        fixtures = fixtures.filter(division__season=chosen)
    return _team_filter(_filtered(fixtures, filters), filters.team, league)


@api.get("/divisions/{division_id}", response={200: DivisionOut, **NOT_FOUND}, tags=["divisions"])
def division(request: Any, division_id: int) -> Division:
    return _division(division_id)


@api.get(
    "/divisions/{division_id}/standings",
    response={200: StandingsOut, **NOT_FOUND},
    tags=["divisions"],
)
def standings(request: Any, division_id: int) -> dict[str, Any]:
    """The league table, in the league's tie-break order, from the results that count."""
    table = division_standings(division=_division(division_id).pk)
    return {
        "division": table.division,
        "rule_text": table.rule_text,
        "columns": table.column_keys,
        "rows": table.rows,
    }


@api.get(
    "/divisions/{division_id}/teams", response={200: list[TeamOut], **NOT_FOUND}, tags=["teams"]
)
@paginate(Page)
def division_teams(request: Any, division_id: int) -> QuerySet[Team]:
    return (
        Team.objects.filter(entries__division=_division(division_id))
        .select_related("league", "home_venue")
        .order_by("name")
    )


@api.get(
    "/divisions/{division_id}/fixtures",
    response={200: list[FixtureOut], **NOT_FOUND},
    tags=["fixtures"],
)
@paginate(Page)
def division_fixtures(
    request: Any, division_id: int, filters: Query[FixtureFilters]
) -> QuerySet[Fixture]:
    division = _division(division_id)
    fixtures = _filtered(selectors.fixture_list(division=division), filters)
    return _team_filter(fixtures, filters.team, division.season.league)


@api.get(
    "/divisions/{division_id}/players",
    response={200: list[PlayerStatisticsOut], **NOT_FOUND},
    tags=["players"],
)
@paginate(Page)
def division_players(request: Any, division_id: int) -> list[Any]:
    """Each player's figures in the division, most games won first (results that count)."""
    return player_leaderboard(division=_division(division_id))


@api.get("/teams/{team_id}", response={200: TeamOut, **NOT_FOUND}, tags=["teams"])
def team(request: Any, team_id: int) -> Team:
    return _team(team_id)


@api.get(
    "/teams/{team_id}/fixtures", response={200: list[FixtureOut], **NOT_FOUND}, tags=["fixtures"]
)
@paginate(Page)
def team_fixtures(request: Any, team_id: int, filters: Query[FixtureFilters]) -> Any:
    """The team's fixtures, every season, in date order."""
    return _filtered(selectors.fixture_list(team=_team(team_id)), filters)


@api.get(
    "/teams/{team_id}/players",
    response={200: list[PlayerStatisticsOut], **NOT_FOUND},
    tags=["players"],
)
@paginate(Page)
def team_players(request: Any, team_id: int, season: int | None = None) -> list[Any]:
    """Each player's figures for the team (one season with ``season``)."""
    team = _team(team_id)
    chosen = None
    if season is not None:
        chosen = _get(team.league.seasons.all(), f"season of {team.league.name} with id", pk=season)
    return player_leaderboard(team=team, season=chosen)


@api.get("/fixtures/{fixture_id}", response={200: FixtureOut, **NOT_FOUND}, tags=["fixtures"])
def fixture(request: Any, fixture_id: int) -> Fixture:
    return _get(selectors.fixture_list(), "fixture", pk=fixture_id)
