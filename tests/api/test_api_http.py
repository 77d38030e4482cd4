"""The API as HTTP clients nobody here wrote see it: CORS for any web page, HEAD, conditional
GET (ETag, Last-Modified, 304), out-of-range numbers and unknown paths as JSON 4xx, operation
ids, and the rate limit per address, shared by every server and kept when the cache is away."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.http import parse_http_date

from api import throttle
from leagues.models import League
from tests.api.test_api import build_world
from tests.worlds import world_per_module

pytestmark = pytest.mark.django_db

world = world_per_module(build_world)


def test_any_web_page_may_read_the_api_and_only_the_api(world):
    client = Client()
    origin = {"HTTP_ORIGIN": "https://www.redlion-batley.example"}
    response = client.get("/api/leagues", **origin)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    assert "Retry-After" in response["Access-Control-Expose-Headers"]
    preflight = client.options(
        "/api/leagues",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
        **origin,
    )
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert "GET" in preflight["Access-Control-Allow-Methods"]
    assert "POST" not in preflight["Access-Control-Allow-Methods"]
    assert "if-none-match" in preflight["Access-Control-Allow-Headers"]
    page = client.get(f"/leagues/{world.league.slug}/", **origin)
    assert page.status_code == 200
    assert "Access-Control-Allow-Origin" not in page


def test_head_answers_as_get_without_a_body(world):
    client = Client()
    url = f"/api/divisions/{world.fixture.division_id}/standings"
    got = client.get(url)
    head = client.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Type"] == got["Content-Type"] == "application/json; charset=utf-8"
    assert head["ETag"] == got["ETag"]
    assert client.head("/api/no-such-thing").status_code == 404


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("page=9223372036854775807", "page"),
        ("page=0", "page"),
        ("page=-3", "page"),
        ("page_size=201", "page_size"),
        ("page_size=0", "page_size"),
        ("season=9223372036854775808", "season"),
        ("team=-1", "team"),
    ],
)
def test_out_of_range_numbers_are_a_400_naming_the_parameter(world, query, named):
    response = Client().get(f"/api/leagues/{world.league.slug}/fixtures?{query}")
    assert response.status_code == 400, response.content
    assert response.json()["detail"].startswith(f"{named}:")


def test_out_of_range_ids_in_the_path_are_a_400_naming_it():
    client = Client()
    for url, named in (
        ("/api/divisions/9223372036854775808", "division_id"),
        ("/api/teams/0/fixtures", "team_id"),
        ("/api/fixtures/-1", "fixture_id"),
    ):
        response = client.get(url)
        assert response.status_code == 400, url
        assert response.json()["detail"].startswith(f"{named}:"), url
    assert client.get("/api/fixtures/9223372036854775807").status_code == 404


def test_a_page_size_up_to_the_limit_is_served(world):
    response = Client().get("/api/leagues?page_size=200&page=1000000")
    assert response.status_code == 200
    assert response.json()["items"] == []


def test_any_unknown_api_path_is_a_json_404():
    client = Client()
    for response in (
        client.get("/api/nothing-here"),
        client.get("/api/leagues/a/b/c/d"),
        client.get("/api/"),
        client.post("/api/nothing-here", {"x": "1"}),
    ):
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["detail"].startswith("No such API path")


def test_every_operation_has_its_own_id_and_its_answers_documented():
    schema = Client().get("/api/openapi.json").json()
    operations = [op for item in schema["paths"].values() for op in item.values()]
    ids = [op.get("operationId") for op in operations]
    assert None not in ids and len(set(ids)) == len(ids) == 14
    assert "listLeagues" in ids and "getDivisionStandings" in ids
    for op in operations:
        assert {"200", "400", "429"} <= set(op["responses"])


def test_the_schema_says_what_the_answers_hold(world):
    client = Client()
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]
    time = schema["FixtureOut"]["properties"]["time"]
    assert "format" not in time and time["pattern"]
    fixture = client.get(f"/api/fixtures/{world.fixture.pk}").json()
    assert re.fullmatch(time["pattern"], fixture["time"])
    table = client.get(f"/api/divisions/{world.fixture.division_id}/standings").json()
    row_fields = set(schema["StandingRowOut"]["properties"])
    columns = schema["StandingsOut"]["properties"]["columns"]["items"]["enum"]
    assert set(columns) <= row_fields
    assert "pegs_diff" in table["columns"]
    for row in table["rows"]:
        for column in table["columns"]:
            assert column in row
        assert row["pegs_diff"] == row["pegs_for"] - row["pegs_against"]


def test_an_unchanged_answer_is_a_304(world):
    client = Client()
    url = f"/api/leagues/{world.league.slug}"
    first = client.get(url)
    tag, modified = first["ETag"], first["Last-Modified"]
    assert tag and modified and first["Cache-Control"] == "no-cache"
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag and again["Last-Modified"] == modified
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{tag}").status_code == 304  # gzipped copy
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    assert client.head(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_a_changed_answer_has_a_new_tag_and_a_later_date(world):
    client = Client()
    url = f"/api/leagues/{world.league.slug}"
    first = client.get(url)
    League.objects.filter(pk=world.league.pk).update(description="Thursday nights.")
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["description"] == "Thursday nights."
    assert changed["ETag"] != first["ETag"]
    assert parse_http_date(changed["Last-Modified"]) > parse_http_date(first["Last-Modified"])
    old = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert old.status_code == 200, "a client holding the old body is sent the new one"
    # Even within the same second, and back to a body served before: always a later date.
    League.objects.filter(pk=world.league.pk).update(description=world.league.description)
    back = client.get(url)
    assert back["ETag"] == first["ETag"]
    assert parse_http_date(back["Last-Modified"]) > parse_http_date(changed["Last-Modified"])
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=changed["Last-Modified"]).status_code == 200


def test_the_rate_limit_is_per_address_with_retry_after(world, settings, monkeypatch):
    settings.API_RATE_LIMIT = 3
    monkeypatch.setattr(throttle, "now", lambda: 1_800_000_015.5)
    pub = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(3):
        assert pub.get("/api/leagues").status_code == 200
    refused = pub.get(f"/api/leagues/{world.league.slug}")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "45"
    assert refused.json()["detail"] == (
        "Too many requests from your address: at most 3 a minute. Try again in 45 seconds."
    )
    # Another server (its own client, the same shared cache) counts with it.
    assert Client(REMOTE_ADDR="203.0.113.7").get("/api/leagues").status_code == 429
    assert Client(REMOTE_ADDR="198.51.100.2").get("/api/leagues").status_code == 200
    monkeypatch.setattr(throttle, "now", lambda: 1_800_000_060.0)
    assert pub.get("/api/leagues").status_code == 200


def test_the_rate_limit_reads_the_address_behind_our_proxy(world, settings, monkeypatch):
    settings.API_RATE_LIMIT = 1
    settings.TRUSTED_PROXIES = 1
    monkeypatch.setattr(throttle, "now", lambda: 1_800_000_100.0)
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    assert (
        Client(HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy).get("/api/leagues").status_code == 200
    )
    assert (
        Client(HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy).get("/api/leagues").status_code == 429
    )
    assert (
        Client(HTTP_X_FORWARDED_FOR="203.0.113.10", **proxy).get("/api/leagues").status_code == 200
    )


def test_with_the_cache_away_the_api_answers_and_still_limits(world, settings, monkeypatch):
    """Redis at a closed port: every answer still made, tagged and limited (each process
    counting alone), never a 500."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:8129/2",
        }
    }
    settings.API_RATE_LIMIT = 2
    monkeypatch.setattr(throttle, "now", lambda: 1_800_000_200.0)
    client = Client(REMOTE_ADDR="192.0.2.44")
    first = client.get("/api/leagues")
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    assert client.get("/api/leagues", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    refused = client.get("/api/leagues")
    assert refused.status_code == 429 and refused["Retry-After"] == "40"
