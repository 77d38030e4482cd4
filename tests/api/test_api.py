"""The read-only API: every endpoint answered and checked against its own OpenAPI schema, the
results that count, pagination, bad input, what it never says, and its cost in queries."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from leagues import match
from leagues.models import TeamEntry
from leagues.selectors.standings import division_standings
from leagues.services import confirmation, fixtures_import
from scoring.actors import Actor
from scoring.models import ScoringLink
from tests.factories.leagues import FixtureFactory
from tests.leagues.test_access import build
from tests.worlds import world_per_module

pytestmark = pytest.mark.django_db


def build_world(_param: object = None):
    """Black Bull beat Old Hall (confirmed); Old Hall v Royal Oak to come; captains with
    accounts and contacts."""
    world = build(played=True)
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    TeamEntry.objects.update(captain_contact="07700 900123 captain@example.org")
    division = world.fixture.division
    royal_oak = division.entries.get(team__name="Royal Oak").team
    world.later = FixtureFactory(
        division=division, home=world.fixture.away, away=royal_oak, date=datetime.date(2025, 9, 16)
    )
    # Royal Oak 3–1 Old Hall, imported from the league's records: match points alone.
    world.imported = FixtureFactory(
        division=division, home=royal_oak, away=world.fixture.away, date=datetime.date(2025, 9, 2)
    )
    fmt = world.league.get_match_format()
    fixtures_import._save_result(
        world.imported, match.points_result(fmt, 3, 1), world.league, world.users["secretary"]
    )
    return world


world = world_per_module(build_world)
"""The module's world, built once (the API only reads)."""


@pytest.fixture(scope="module")
def openapi():
    return OpenAPI.from_dict(json.loads(Client().get("/api/openapi.json").content))


def urls(world) -> dict[str, list[str]]:
    """Each path of the schema with the requests that exercise it (good and bad)."""
    slug = world.league.slug
    division = world.fixture.division_id
    season = world.fixture.division.season_id
    team = world.fixture.home_id
    return {
        "/api/leagues": ["/api/leagues", "/api/leagues?page=0"],
        "/api/leagues/{slug}": [f"/api/leagues/{slug}", "/api/leagues/no-such-league"],
        "/api/leagues/{slug}/seasons": [f"/api/leagues/{slug}/seasons"],
        "/api/leagues/{slug}/teams": [f"/api/leagues/{slug}/teams?page_size=2"],
        "/api/leagues/{slug}/fixtures": [
            f"/api/leagues/{slug}/fixtures",
            f"/api/leagues/{slug}/fixtures?season={season}&status=played&team={team}",
            f"/api/leagues/{slug}/fixtures?date_from=2025-09-10&date_to=2025-12-31&kind=league",
            f"/api/leagues/{slug}/fixtures?status=bogus",
            f"/api/leagues/{slug}/fixtures?season=999999",
        ],
        "/api/divisions/{division_id}": [f"/api/divisions/{division}", "/api/divisions/999999"],
        "/api/divisions/{division_id}/standings": [f"/api/divisions/{division}/standings"],
        "/api/divisions/{division_id}/teams": [f"/api/divisions/{division}/teams"],
        "/api/divisions/{division_id}/fixtures": [
            f"/api/divisions/{division}/fixtures",
            f"/api/divisions/{division}/fixtures?team=999999",
        ],
        "/api/divisions/{division_id}/players": [f"/api/divisions/{division}/players"],
        "/api/teams/{team_id}": [f"/api/teams/{team}", "/api/teams/999999"],
        "/api/teams/{team_id}/fixtures": [
            f"/api/teams/{team}/fixtures",
            f"/api/teams/{team}/fixtures?date_from=nonsense",
        ],
        "/api/teams/{team_id}/players": [
            f"/api/teams/{team}/players",
            f"/api/teams/{team}/players?season={season}",
        ],
        "/api/fixtures/{fixture_id}": [
            f"/api/fixtures/{world.fixture.pk}",
            f"/api/fixtures/{world.later.pk}",
        ],
    }


def test_every_endpoint_answers_as_its_schema_says(world, openapi):
    schema = json.loads(Client().get("/api/openapi.json").content)
    exercised = urls(world)
    assert set(exercised) == set(schema["paths"]), "every endpoint is exercised here"
    client = Client()
    statuses = set()
    for path_urls in exercised.values():
        for url in path_urls:
            response = client.get(url)
            assert response.status_code in (200, 400, 404), (url, response.status_code)
            statuses.add(response.status_code)
            if response.status_code != 400:
                # A 400 answers a request the schema itself refuses.
                openapi.validate_request(DjangoOpenAPIRequest(response.wsgi_request))
            openapi.validate_response(
                DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response)
            )
    assert statuses == {200, 400, 404}


def test_bad_input_is_a_clear_4xx(world):
    client = Client()
    slug = world.league.slug
    assert client.get("/api/leagues/no-such-league").json() == {
        "detail": "No league no-such-league."
    }
    bad = client.get(f"/api/leagues/{slug}/fixtures?status=bogus&date_to=31/12/2025")
    assert bad.status_code == 400
    assert bad.json()["detail"].startswith("status: Input should be 'scheduled'")
    assert "date_to:" in bad.json()["detail"]
    assert client.get("/api/leagues?page=0").json()["detail"].startswith("page:")
    elsewhere = build(played=False).fixture.home_id
    response = client.get(f"/api/leagues/{slug}/fixtures?team={elsewhere}")
    assert response.status_code == 404
    assert "team in" in response.json()["detail"]


def test_a_result_is_given_only_once_it_counts(world):
    client = Client()
    fixtures = client.get(f"/api/divisions/{world.fixture.division_id}/fixtures").json()
    by_id = {item["id"]: item for item in fixtures["items"]}
    played = by_id[world.fixture.pk]
    assert played["result"]["outcome"] == "home"
    assert played["result"]["provisional"] is False
    assert by_id[world.later.pk]["result"] is None
    confirmation.result_reopen(
        fixture=world.fixture, reason="Wrong pair", by=world.users["secretary"]
    )
    again = client.get(f"/api/fixtures/{world.fixture.pk}").json()
    assert again["status"] == "played"
    assert again["result"] is None


def test_a_figure_nobody_recorded_is_null_not_0(world):
    """An imported result gives its match points (and games) alone: its pegs and hang jacks
    read 0–0, as if nobody had scored. They are null; the tables its match points say
    (a one-table 3–1 is 1 table to 0) are given, as are a played result's figures."""
    fixtures = Client().get(f"/api/divisions/{world.fixture.division_id}/fixtures").json()
    by_id = {item["id"]: item["result"] for item in fixtures["items"]}
    imported, played = by_id[world.imported.pk], by_id[world.fixture.pk]
    assert (imported["home_match_points"], imported["away_match_points"]) == (3, 1)
    assert (imported["home_games"], imported["away_games"]) == (1, 0)
    assert (imported["home_tables"], imported["away_tables"], imported["tables_halved"]) == (
        1,
        0,
        0,
    )
    for side in ("home", "away"):
        assert imported[f"{side}_pegs"] is None
        assert imported[f"{side}_hang_jacks"] is None
        assert isinstance(played[f"{side}_pegs"], int)
        assert isinstance(played[f"{side}_hang_jacks"], int)
    assert played["home_pegs"] > 0
    assert Client().get(f"/api/fixtures/{world.imported.pk}").json()["result"] == imported


def test_a_walkovers_pegs_and_hang_jacks_are_null_its_tables_and_games_given(world):
    """A walkover is given without play: nobody pegged or hung a jack, and its page shows
    neither. The API says null for them, not 0–0; the tables and games the walkover gives
    (every table to its side) count in the table and are given."""
    from leagues.services.fixtures import fixture_walkover

    fixture_walkover(
        fixture=world.later,
        to="away",
        reason="Old Hall could not raise a team",
        by=world.users["secretary"],
    )
    result = Client().get(f"/api/fixtures/{world.later.pk}").json()["result"]
    assert result["walkover"] is True and result["outcome"] == "away"
    tables = world.league.get_match_format().tables
    assert (result["home_tables"], result["away_tables"]) == (0, tables)
    assert result["away_games"] > 0 and result["away_match_points"] > 0
    for side in ("home", "away"):
        assert result[f"{side}_pegs"] is None
        assert result[f"{side}_hang_jacks"] is None


def test_the_schema_says_which_figures_may_be_null(openapi):
    fields = Client().get("/api/openapi.json").json()["components"]["schemas"]["ResultOut"]
    for name in ("home_pegs", "away_hang_jacks", "tables_halved"):
        described = fields["properties"][name]
        assert {"type": "null"} in described["anyOf"]
        assert "null where nobody recorded" in described["description"]
    assert fields["properties"]["home_games"]["type"] == "integer"


def test_the_standings_are_the_pages_standings(world):
    data = Client().get(f"/api/divisions/{world.fixture.division_id}/standings").json()
    table = division_standings(division=world.fixture.division_id)
    assert [(r["team"]["name"], r["points"], r["position"]) for r in data["rows"]] == [
        (row.team.name, row.points, row.position) for row in table.rows
    ]
    assert data["rows"][0]["team"]["name"] == "Black Bull"
    assert data["rows"][0]["played"] == 1


def test_lists_are_paginated(world):
    client = Client()
    slug = world.league.slug
    first = client.get(f"/api/leagues/{slug}/teams?page_size=2").json()
    assert first["count"] == 3
    assert [t["name"] for t in first["items"]] == ["Black Bull", "Old Hall"]
    second = client.get(f"/api/leagues/{slug}/teams?page_size=2&page=2").json()
    assert [t["name"] for t in second["items"]] == ["Royal Oak"]
    players = client.get(f"/api/divisions/{world.fixture.division_id}/players?page_size=1").json()
    assert players["count"] == 4
    assert len(players["items"]) == 1
    assert players["items"][0]["games_won"] == 1


def test_it_never_says_a_key_a_contact_or_an_account_name(world):
    client = Client()
    bodies = "".join(
        client.get(url).content.decode() for path in urls(world).values() for url in path
    )
    bodies += client.get("/api/openapi.json").content.decode()
    assert ScoringLink.objects.exists()
    for key in ScoringLink.objects.values_list("key", flat=True):
        assert key not in bodies
    assert "07700" not in bodies and "captain@example.org" not in bodies
    assert "captain_contact" not in bodies and "username" not in bodies
    for username in get_user_model().objects.values_list("username", flat=True):
        assert f'"{username}"' not in bodies


QUERIES = {
    "/api/leagues": 2,
    "/api/leagues/{slug}": 1,
    "/api/leagues/{slug}/seasons": 4,
    "/api/leagues/{slug}/teams": 3,
    "/api/leagues/{slug}/fixtures": 4,
    "/api/divisions/{division_id}": 1,
    # The division with its stored table, then the table's rows (no adjustments to read).
    "/api/divisions/{division_id}/standings": 2,
    "/api/divisions/{division_id}/teams": 3,
    "/api/divisions/{division_id}/fixtures": 3,
    # The players' stored figures summed in one query (``leagues.selectors.statistics``).
    "/api/divisions/{division_id}/players": 4,
    "/api/teams/{team_id}": 1,
    "/api/teams/{team_id}/fixtures": 4,
    "/api/teams/{team_id}/players": 4,
    "/api/fixtures/{fixture_id}": 1,
}


def test_each_endpoint_costs_a_fixed_number_of_queries(
    world, django_assert_num_queries, cache_outside_the_database
):
    """Counted with the cache outside the database, as Redis is in production (the ETag's
    date is kept there). The lists hold a played result and an imported one: what of a
    result was not recorded is read from the result itself, not from each fixture's tables."""
    for _ in range(3):
        FixtureFactory(division=world.fixture.division)
    client = Client()
    for path, [url, *_] in urls(world).items():
        with django_assert_num_queries(QUERIES[path]):
            assert client.get(url).status_code == 200, url


def test_the_docs_page_uses_only_our_own_files():
    response = Client().get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "https://" not in html and "http://" not in html
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert response["X-Frame-Options"] == "DENY"


def test_the_leagues_page_links_the_api_docs():
    html = Client().get("/leagues/").content.decode()
    assert 'href="/api/docs"' in html


def test_the_docs_page_fits_a_phone():
    """Our own ninja/swagger.html: the page django-ninja ships, with a viewport."""
    html = Client().get("/api/docs").content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert 'id="swagger-ui"' in html and "/static/ninja/swagger-ui-init.js" in html


def test_a_fixtures_time_carries_its_leagues_zone(db):
    """``date`` and ``time`` stay the league's local ones; ``starts_at`` is the instant with
    its offset, and the schema says so."""
    from tests.factories.leagues import DivisionFactory

    division = DivisionFactory(season__league__time_zone="America/Port_of_Spain")
    fixture = FixtureFactory(
        division=division, date=datetime.date(2025, 7, 10), time=datetime.time(19, 30)
    )
    body = Client().get(f"/api/fixtures/{fixture.pk}").json()
    assert (body["date"], body["time"]) == ("2025-07-10", "19:30:00")
    assert body["starts_at"] == "2025-07-10T19:30:00-04:00"
    assert body["time_zone"] == "America/Port_of_Spain"
    instant = datetime.datetime.fromisoformat(body["starts_at"]).astimezone(datetime.UTC)
    assert instant == datetime.datetime(2025, 7, 10, 23, 30, tzinfo=datetime.UTC)
    league = Client().get(f"/api/leagues/{division.season.league.slug}").json()
    assert league["time_zone"] == "America/Port_of_Spain"
    schema = json.loads(Client().get("/api/openapi.json").content)["components"]["schemas"]
    starts_at = schema["FixtureOut"]["properties"]["starts_at"]
    assert starts_at["format"] == "date-time" and "offset" in starts_at["description"]


def test_the_standings_say_which_team_has_withdrawn(world):
    """The division's page and its CSV read "Old Hall (withdrawn)"; the API gave the plain name
    with nothing to tell an app the team had gone."""
    from leagues.services.withdrawal import team_withdraw

    entry = TeamEntry.objects.get(team=world.fixture.away, season=world.fixture.division.season)
    team_withdraw(entry=entry, reason="The pub closed", by=world.users["secretary"])
    data = Client().get(f"/api/divisions/{world.fixture.division_id}/standings").json()
    withdrawn = {row["team"]["name"]: row["withdrawn"] for row in data["rows"]}
    assert withdrawn == {
        row.team.name: row.team == entry.team
        for row in division_standings(division=world.fixture.division_id).rows
    }
    assert withdrawn[entry.team.name] is True


def test_a_divisions_fixtures_are_its_own_as_its_pages_list_them(db):
    """A cup tie is filed under its home team's division: the API listed it among the
    division's fixtures (against another division's team) where the division's fixtures page,
    grid, embed and calendar leave it out. The API lists the division's own fixtures, as the
    pages do (a play-off's included), by team too; the cup tie is in its team's list."""
    from leagues.models import Fixture
    from leagues.selectors.fixtures import division_fixture_rows
    from tests.factories.leagues import DivisionFactory, TeamEntryFactory

    division = DivisionFactory()
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    league = FixtureFactory(division=division, home=home, away=away)
    stranger = TeamEntryFactory(division=DivisionFactory(season=division.season, rank=2)).team
    cup, playoff = (
        FixtureFactory(division=division, home=h, away=a, date=datetime.date(2025, 9, d), kind=k)
        for h, a, d, k in (
            (home, stranger, 12, Fixture.Kind.CUP),
            (away, home, 16, Fixture.Kind.PLAYOFF),
        )
    )
    client = Client()

    def listed(url: str) -> list[int]:
        return [item["id"] for item in client.get(url).json()["items"]]

    url = f"/api/divisions/{division.pk}/fixtures"
    pages = [row.pk for row in division_fixture_rows(division=division)]
    assert listed(url) == pages == [league.pk, playoff.pk]
    by_team = [row.pk for row in division_fixture_rows(division=division, team=home)]
    assert listed(f"{url}?team={home.pk}") == by_team == [league.pk, playoff.pk]
    assert listed(f"/api/teams/{home.pk}/fixtures") == [league.pk, cup.pk, playoff.pk]
