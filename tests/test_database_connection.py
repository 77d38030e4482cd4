"""A kept PostgreSQL connection's health check (config/postgresql/base.py): a connection the
server ended (as a restart ends every one) is made afresh before the next request's first
query, and a healthy one is taken as it is, without a ``SELECT 1`` round trip. Its prepared
statements keep one plan each (config/settings.py)."""

from __future__ import annotations

import io
import sys
from typing import Any

import psycopg
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection

from config.postgresql import base

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's connections"),
]


def get(path: str) -> int:
    """A GET through Django's WSGI handler as a server calls it: the request's start (which
    checks a kept connection) and end signals included, as the test client leaves them out."""
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
        answer["status"] = int(status.split()[0])

    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    chunks = WSGIHandler()(environ, start_response)
    b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(answer["status"])


def backend_pid() -> int:
    assert connection.connection is not None
    return int(connection.connection.info.backend_pid)


def ended_by_the_server(pid: int) -> None:
    """End the session `pid` as a restart does (the server's FATAL, then the socket closed),
    waiting until it is gone."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each ``SELECT 1`` Django's own health check sends (the pid it was asked of)."""
    asked: list[int] = []
    ask = base.base.DatabaseWrapper.is_usable

    def counted(self: Any) -> bool:
        asked.append(self.connection.info.backend_pid)
        return bool(ask(self))

    monkeypatch.setattr(base.base.DatabaseWrapper, "is_usable", counted)
    return asked


def test_a_connection_the_database_ended_is_made_afresh_for_the_next_request(round_trips):
    assert get("/games/") == 200
    first = backend_pid()
    ended_by_the_server(first)
    assert get("/games/") == 200
    assert backend_pid() != first
    assert round_trips == [first]  # the ended connection was asked, and failed
    assert get("/games/") == 200


def test_a_healthy_kept_connection_is_not_asked_again(round_trips):
    assert get("/games/") == 200
    kept = backend_pid()
    for _ in range(3):
        assert get("/games/") == 200
    assert backend_pid() == kept
    assert round_trips == []


def test_a_connection_in_a_transaction_or_broken_is_asked(round_trips):
    connection.ensure_connection()
    assert base.quiet(connection.connection)
    with connection.cursor() as cursor:
        cursor.execute("BEGIN")
        assert not base.quiet(connection.connection)
        cursor.execute("ROLLBACK")
    ended_by_the_server(backend_pid())
    assert not base.quiet(connection.connection)
    assert not connection.is_usable()
    connection.close()


def test_a_prepared_statement_keeps_one_plan_for_any_values() -> None:
    """The app's connection asks PostgreSQL to keep one plan for each prepared statement, not
    to plan afresh for each run's values (the settings' ``plan_cache_mode``)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("force_generic_plan",)


def test_rows_fetched_by_an_index_are_costed_as_in_memory() -> None:
    """The app's connection tells PostgreSQL that a row fetched by an index costs about what
    one read in order does (the settings' ``random_page_cost``): at the default's 4, a team's
    198 fixtures were read along its division's 9,900."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert cursor.fetchone() == ("1.1",)


def test_a_statement_is_prepared_the_second_time_a_connection_runs_it() -> None:
    """A statement is planned twice a connection (``prepare_threshold`` 1: run once as it is,
    then prepared), not three times (run twice unprepared, each planned afresh, before it was
    prepared): a league home's lists (eight tables joined) took 15–25 ms to plan each time."""
    sql = "SELECT id FROM leagues_league WHERE slug = %s"

    def prepared() -> bool:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return any("leagues_league WHERE slug = $1" in row[0] for row in cursor.fetchall())

    with connection.cursor() as cursor:
        cursor.execute(sql, ["first-run"])
        assert not prepared()
        cursor.execute(sql, ["second-run"])
        assert prepared()
