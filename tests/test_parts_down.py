"""When a part of the production stack fails: Redis unreachable or emptied (the pages and
log-in work without it, the outage logged once), the database unreachable (a 503 in the app's
words, not a bare 500)."""

from __future__ import annotations

import logging
import os
import socket
import time

import pytest
import redis
from django.core.cache import cache, caches
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from config import cache as resilient
from leagues.models import League

# The suite's page and log-in checks, run again here with the cache at a closed port (below):
# pytest collects each imported test again in this module, under its autouse fixture.
from tests.leagues.test_leagues_demo import small_plans  # noqa: F401
from tests.leagues.test_pages import (  # noqa: F401
    played,
    test_fixture_page_shows_tables_pairs_scores_and_score_sheet_links,
    test_fixtures_by_week_and_by_team,
    test_league_home_lists_divisions_results_and_next_fixtures,
    test_player_page_shows_teams_figures_and_games,
    test_standings_show_teams_figures_adjustment_and_rule,
    test_start_page_and_league_list_link_the_league,
    test_team_page_shows_squad_fixtures_and_players,
    world,
)
from tests.test_client_address_and_login import (  # noqa: F401
    account,
    test_an_address_guessing_many_usernames_is_stopped,
    test_failures_slow_down_before_they_lock,
    test_no_one_can_lock_a_captain_out_from_another_address,
)


def closed_port() -> int:
    """A local port nothing listens on (bound for a moment by us, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_at(url: str) -> dict[str, dict[str, str]]:
    return {"default": {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": url}}


REDIS_DOWN = redis_at(f"redis://127.0.0.1:{closed_port()}/0")


@pytest.fixture(autouse=True)
def _redis_unreachable(request, settings):
    """Every test here runs with REDIS_URL at a closed port, unless it names its own cache."""
    if "live_redis" not in request.fixturenames:
        settings.CACHES = REDIS_DOWN
    yield
    resilient._outages.clear()


@pytest.mark.django_db
def test_seed_demo_builds_the_demo_with_redis_down(small_plans):  # noqa: F811
    call_command("seed_demo", verbosity=0)
    assert League.objects.filter(slug__in=[plan.slug for plan in small_plans]).count() == 2


def test_an_outage_is_logged_once_not_once_a_request(caplog):
    caplog.set_level(logging.WARNING, logger="config.cache")
    started = time.monotonic()
    for i in range(300):
        assert cache.get(f"k{i}", "missed") == "missed"
        cache.set(f"k{i}", 1)
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("a", 1) is False
        with pytest.raises(ValueError):
            cache.incr("a")
    assert time.monotonic() - started < 2, "Redis is left alone for a while once it failed"
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "cannot be reached" in warnings[0].getMessage()


@pytest.fixture
def live_redis(settings):
    """A real Redis (CI's, or TEST_REDIS_URL), emptied before and after."""
    url = os.environ.get("TEST_REDIS_URL") or os.environ.get(
        "CI_REDIS_URL", "redis://127.0.0.1:6379/15"
    )
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {url}")
    settings.CACHES = redis_at(url)
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


def test_a_real_redis_away_back_and_flushed(live_redis, monkeypatch, caplog, client, db):
    """One test, so no two workers share CI's Redis database at once.

    Away with only reads missed, it is used as it was when back. Away while a write (a
    league's version bumped) was dropped, the first request after it is back empties it
    before reading, so no stale fragment is served. Flushed under a running site, the pages
    are rendered again."""
    caplog.set_level(logging.WARNING, logger="config.cache")
    monkeypatch.setattr(resilient, "RETRY_AFTER", 0.0)
    redis_client = live_redis._cache
    real = redis_client.get_client
    # One client a connection pool, kept: not a new one made for every cache call.
    assert real(write=True) is real(write=True) and real() is real(write=True)

    def refused(*args, **kwargs):
        raise redis.ConnectionError("Connection refused")

    live_redis.set("fragment", "still good")
    monkeypatch.setattr(redis_client, "get_client", refused)
    assert live_redis.get("fragment") is None  # a miss: the page is rendered
    monkeypatch.setattr(redis_client, "get_client", real)
    assert live_redis.get("fragment") == "still good"

    live_redis.set("fragment", "rendered before the change")
    monkeypatch.setattr(redis_client, "get_client", refused)
    assert live_redis.get("fragment") is None
    live_redis.set("version", "bumped while away")  # dropped
    monkeypatch.setattr(redis_client, "get_client", real)
    assert live_redis.get("fragment") is None, "emptied, never the stale fragment"
    live_redis.set("fragment", "rendered after")
    assert live_redis.get("fragment") == "rendered after"
    messages = [r.getMessage() for r in caplog.records if r.name == "config.cache"]
    assert len(messages) == 4 and "answers again (emptied" in messages[3], messages

    from tests.factories.leagues import DivisionFactory

    league = DivisionFactory(season__league__name="Spen Valley League").season.league
    first = client.get(league.get_absolute_url())
    assert first.status_code == 200 and "Spen Valley League" in first.content.decode()
    redis.Redis.from_url(live_redis._servers[0]).flushdb()
    again = client.get(league.get_absolute_url())
    assert again.status_code == 200 and "Spen Valley League" in again.content.decode()
    stored = redis.Redis.from_url(live_redis._servers[0]).keys("*fragments:*")
    assert any(b"fragments:version:league" in key for key in stored), "made again"


# --- the database unreachable -----------------------------------------------------------------


@pytest.fixture
def database_down(db):
    """Every new query fails as on a refused connection (until the test's end, before the test
    database is rolled back)."""

    def refused():
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    connection.ensure_connection = refused
    yield
    del connection.ensure_connection


@pytest.mark.parametrize(
    "method, path",
    [("get", "/"), ("get", "/leagues/"), ("get", "/games/"), ("post", "/accounts/login/")],
)
def test_with_the_database_down_a_page_is_a_503_in_the_apps_words(database_down, method, path):
    client = Client(raise_request_exception=False)
    if method == "post":
        response = client.post(path, {"username": "cap11", "password": "a-long-Passphrase-42"})
    else:
        response = client.get(path)
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    text = response.content.decode()
    assert "The league&#x27;s records cannot be reached just now" in text
    assert "keeps every hand you record on the phone" in text
    assert "Server Error" not in text


def test_with_the_database_down_the_api_answers_json_503(database_down):
    response = Client(raise_request_exception=False).get("/api/leagues")
    assert response.status_code == 503
    assert "cannot be reached" in response.json()["detail"]


@pytest.mark.django_db
def test_any_other_fault_is_still_a_plain_500(monkeypatch):
    from config import views

    def broken(request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "league_list", broken)
    response = Client(raise_request_exception=False).get(reverse("home"))
    assert response.status_code == 500
    assert "records cannot be reached" not in response.content.decode()
