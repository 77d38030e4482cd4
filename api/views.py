"""The API's endpoints: thin reads through the leagues' selectors, every list paginated.

A league is named by its slug, everything else by its id. An unknown one is a 404 naming what
was asked for; a malformed or out-of-range parameter a 400 naming the parameter; any other path
under ``/api/`` a JSON 404. Too many requests from one address are a 429 (``api/throttle.py``).
"""

import datetime
import math
from typing import Annotated, Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet
from django.http import HttpRequest, JsonResponse
from ninja import Field, NinjaAPI, Path, Query, Schema
from ninja.errors import HttpError, Throttled, ValidationError
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
from api.throttle import AddressRate
from leagues.models import Division, Fixture, League, Season, Team
from leagues.selectors import fixtures as selectors
from leagues.selectors.standings import division_standings, divisions_for_tables
from leagues.selectors.statistics import player_leaderboard

api = NinjaAPI(
    title="All Fours leagues",
    version="1",
    description="Read-only: leagues, seasons, divisions, standings, fixtures with the results "
    "that count, teams and player statistics. Lists are paginated (`page` from 1 to "
    "1,000,000; `page_size` from 1 to 200, 50 by default). Any web page may read it (CORS, "
    "GET and HEAD). Each answer has an `ETag` and a `Last-Modified`: ask again with "
    "`If-None-Match` or `If-Modified-Since` and an unchanged answer is a bodiless 304. One "
    "address may make a limited number of requests a minute; past it, a 429 whose "
    "`Retry-After` says how many seconds to wait.",
    urls_namespace="api",
    docs_url="/docs",
    openapi_url="/openapi.json",
    throttle=AddressRate(),
)

BAD_INPUT: dict[int, Any] = {400: ErrorOut, 429: ErrorOut}
NOT_FOUND: dict[int, Any] = {**BAD_INPUT, 404: ErrorOut}

#: The largest id there can be (a 64-bit key): a larger one is a 400, never a database error.
MAX_ID = 2**63 - 1
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
PathId = Annotated[int, Path(ge=1, le=MAX_ID)]
Slug = Annotated[str, Path(min_length=1, max_length=100)]


@api.exception_handler(ValidationError)
def bad_parameter(request: Any, exc: ValidationError) -> Any:
    """A malformed query parameter: 400, naming the parameter and what is wrong with it."""
    problems = []
    for error in exc.errors:
        where = [str(part) for part in error.get("loc", ()) if part not in ("query", "path")]
        problems.append(f"{'.'.join(where) or 'query'}: {error.get('msg', 'invalid')}")
    return api.create_response(request, {"detail": "; ".join(problems)}, status=400)


@api.exception_handler(Throttled)
def too_many(request: Any, exc: Throttled) -> Any:
    """Past the rate limit: 429 (Ninja adds ``Retry-After``)."""
    seconds = max(1, math.ceil(exc.wait or 1))
    detail = (
        f"Too many requests from your address: at most {settings.API_RATE_LIMIT} a minute. "
        f"Try again in {seconds} seconds."
    )
    return api.create_response(request, {"detail": detail}, status=429)


def not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """Any path under ``/api/`` that is not one of the API's: a JSON 404, whatever the method."""
    return JsonResponse(
        {"detail": f"No such API path: {request.path}. The paths are listed at /api/docs."},
        status=404,
    )


class Page(PageNumberPagination):
    """``page`` (from 1 to 1,000,000) and ``page_size`` (from 1 to 200, 50 by default):
    anything else is a 400 naming the parameter, never a quiet clamp or a database error."""

    class Input(Schema):
        page: int = Field(1, ge=1, le=1_000_000, description="The page, from 1.")
        page_size: int = Field(50, ge=1, le=200, description="Items a page, at most 200.")

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
    team: Id | None = None
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


@api.get(
    "/leagues",
    response={200: list[LeagueOut], **BAD_INPUT},
    tags=["leagues"],
    operation_id="listLeagues",
)
@paginate(Page)
def leagues(request: Any) -> QuerySet[League]:
    """Every league, by name."""
    return selectors.league_list()


@api.get(
    "/leagues/{slug}",
    response={200: LeagueOut, **NOT_FOUND},
    tags=["leagues"],
    operation_id="getLeague",
)
def league(request: Any, slug: Slug) -> League:
    return _league(slug)


@api.get(
    "/leagues/{slug}/seasons",
    response={200: list[SeasonOut], **NOT_FOUND},
    tags=["leagues"],
    operation_id="listLeagueSeasons",
)
@paginate(Page)
def seasons(request: Any, slug: Slug) -> QuerySet[Season]:
    """The league's seasons, latest first, each with its divisions."""
    return selectors.league_seasons(league=_league(slug))


@api.get(
    "/leagues/{slug}/teams",
    response={200: list[TeamOut], **NOT_FOUND},
    tags=["teams"],
    operation_id="listLeagueTeams",
)
@paginate(Page)
def league_teams(request: Any, slug: Slug) -> QuerySet[Team]:
    return (
        Team.objects.filter(league=_league(slug))
        .select_related("league", "home_venue")
        .order_by("name")
    )


@api.get(
    "/leagues/{slug}/fixtures",
    response={200: list[FixtureOut], **NOT_FOUND},
    tags=["fixtures"],
    operation_id="listLeagueFixtures",
)
@paginate(Page)
def league_fixtures(
    request: Any, slug: Slug, filters: Query[FixtureFilters], season: Id | None = None
) -> QuerySet[Fixture]:
    """The league's fixtures in date order; a result is given once it counts."""
    league = _league(slug)
    fixtures = selectors.fixture_list(standing=True).filter(division__season__league=league)
    if season is not None:
        chosen = _get(league.seasons.all(), f"season of {league.name} with id", pk=season)
        fixtures = fixtures.filter(division__season=chosen)
    return _team_filter(_filtered(fixtures, filters), filters.team, league)


@api.get(
    "/divisions/{division_id}",
    response={200: DivisionOut, **NOT_FOUND},
    tags=["divisions"],
    operation_id="getDivision",
)
def division(request: Any, division_id: PathId) -> Division:
    return _division(division_id)


@api.get(
    "/divisions/{division_id}/standings",
    response={200: StandingsOut, **NOT_FOUND},
    tags=["divisions"],
    operation_id="getDivisionStandings",
)
def standings(request: Any, division_id: PathId) -> dict[str, Any]:
    """The league table, in the league's tie-break order, from the results that count."""
    table = division_standings(division=_get(divisions_for_tables(), "division", pk=division_id))
    return {
        "division": table.division,
        "rule_text": table.rule_text,
        "columns": table.column_keys,
        "rows": table.rows,
    }


@api.get(
    "/divisions/{division_id}/teams",
    response={200: list[TeamOut], **NOT_FOUND},
    tags=["teams"],
    operation_id="listDivisionTeams",
)
@paginate(Page)
def division_teams(request: Any, division_id: PathId) -> QuerySet[Team]:
    return (
        Team.objects.filter(entries__division=_division(division_id))
        .select_related("league", "home_venue")
        .order_by("name")
    )


@api.get(
    "/divisions/{division_id}/fixtures",
    response={200: list[FixtureOut], **NOT_FOUND},
    tags=["fixtures"],
    operation_id="listDivisionFixtures",
)
@paginate(Page)
def division_fixtures(
    request: Any, division_id: PathId, filters: Query[FixtureFilters]
) -> QuerySet[Fixture]:
    """The division's own fixtures in date order, as its pages list them: not the cup ties
    filed under it (each is in its teams' lists); a result is given once it counts."""
    division = _division(division_id)
    fixtures = _filtered(selectors.division_fixtures(division=division, standing=True), filters)
    return _team_filter(fixtures, filters.team, division.season.league)


@api.get(
    "/divisions/{division_id}/players",
    response={200: list[PlayerStatisticsOut], **NOT_FOUND},
    tags=["players"],
    operation_id="listDivisionPlayers",
)
@paginate(Page)
def division_players(request: Any, division_id: PathId) -> list[Any]:
    """Each player's figures in the division, most games won first (results that count)."""
    return player_leaderboard(division=_division(division_id))


@api.get(
    "/teams/{team_id}", response={200: TeamOut, **NOT_FOUND}, tags=["teams"], operation_id="getTeam"
)
def team(request: Any, team_id: PathId) -> Team:
    return _team(team_id)


@api.get(
    "/teams/{team_id}/fixtures",
    response={200: list[FixtureOut], **NOT_FOUND},
    tags=["fixtures"],
    operation_id="listTeamFixtures",
)
@paginate(Page)
def team_fixtures(request: Any, team_id: PathId, filters: Query[FixtureFilters]) -> Any:
    """The team's fixtures, every season, in date order."""
    return _filtered(selectors.fixture_list(team=_team(team_id), standing=True), filters)


@api.get(
    "/teams/{team_id}/players",
    response={200: list[PlayerStatisticsOut], **NOT_FOUND},
    tags=["players"],
    operation_id="listTeamPlayers",
)
@paginate(Page)
def team_players(request: Any, team_id: PathId, season: Id | None = None) -> list[Any]:
    """Each player's figures for the team (one season with ``season``)."""
    team = _team(team_id)
    chosen = None
    if season is not None:
        chosen = _get(team.league.seasons.all(), f"season of {team.league.name} with id", pk=season)
    return player_leaderboard(team=team, season=chosen)


@api.get(
    "/fixtures/{fixture_id}",
    response={200: FixtureOut, **NOT_FOUND},
    tags=["fixtures"],
    operation_id="getFixture",
)
def fixture(request: Any, fixture_id: PathId) -> Fixture:
    # One fixture: its division, season and league in the same query, not a list's one more.
    one = (
        selectors.fixture_list(standing=True)
        .prefetch_related(None)
        .select_related("division__season__league")
    )
    return _get(one, "fixture", pk=fixture_id)
