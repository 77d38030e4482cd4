"""Project-wide fixtures: a phone-sized page in headless Debian Chromium for browser tests."""

import datetime
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls made by the test
# itself (setting up data, checking results) are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


def pytest_configure(config: pytest.Config) -> None:
    """Four settings for the whole run, module-wide worlds included (built before any test's
    ``settings`` fixture applies):

    - the tests never read collected static files: WhiteNoise's middleware, made again for
      every test client, would otherwise list every file `make serve` or a bench collected into
      ``staticfiles/`` (some 900 files, tens of milliseconds a client, over a minute a run);
    - test passwords are hashed cheaply: the production hasher is deliberately slow (some
      twenty seconds a run in the worlds' accounts alone);
    - the API's rate limit is off: every test client is one address, and the whole run's
      requests would be counted against it (tests/api/test_api_http.py turns it on);
    - a game's page does not ask by itself whether the game changed: a browser test's phone
      keeps the page it was shown (tests/scoring/test_browser_watch.py turns it on)."""
    from django.conf import settings

    settings.STATIC_ROOT = os.path.join(os.path.dirname(__file__), "no-collected-static")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.API_RATE_LIMIT = 0
    settings.GAME_WATCH_SECONDS = 0
    settings.LIVE_POLL_SECONDS = 2


class _TestsApp:
    """The live server's app, open only while a test that uses it runs.

    Between tests (a page's late request after its test ended, a service worker's fetch) it
    answers 503 without touching the database, which is then being emptied or not allowed. On
    SQLite it also lets one request at a time into the app: the in-memory test database is one
    connection shared by the server's threads, and two requests at once on it fail with
    "database table is locked", which a real SQLite file (a connection per request) never does.
    The server keeps its threads, so a connection a browser opened and left idle blocks nothing.
    """

    lock = threading.Lock()
    open = False
    one_at_a_time = False
    answering = 0
    """Requests in the app (elsewhere than SQLite): closing waits for them, so that none
    writes after its test's tables were emptied (its rows would be the next tests')."""
    answered = threading.Condition(lock)

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.one_at_a_time:
            with self.lock:
                if not self.open:
                    return self.closed(start_response)
                return self._answer(environ, start_response)
        with self.lock:
            if not self.open:
                return self.closed(start_response)
            _TestsApp.answering += 1
        try:
            return self._answer(environ, start_response)
        finally:
            with self.lock:
                _TestsApp.answering -= 1
                self.answered.notify_all()

    def _answer(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        """The app's whole answer, read to its end: the request is over when it returns."""
        response = self.app(environ, start_response)
        try:
            return [b"".join(response)]
        finally:
            if hasattr(response, "close"):
                response.close()

    @classmethod
    def in_turn(cls, test_thread: int) -> Any:
        """A query wrapper for the test's own thread on SQLite: each of its queries waits for
        the answer in progress (a page's late fetch, a service worker's) to end, as the
        server's requests wait for each other. The connection is the server's too: a factory
        writing while a request reads fails at once with "database table is locked"."""

        def wait_for_the_answer(execute: Any, sql: str, params: Any, many: bool, context: Any):
            if threading.get_ident() != test_thread:
                return execute(sql, params, many, context)
            with cls.lock:
                return execute(sql, params, many, context)

        return wait_for_the_answer

    @staticmethod
    def closed(start_response: Any) -> list[bytes]:
        start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
        return [b"Between tests."]


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest) -> Iterator[object]:
    """pytest-django's live server, its app wrapped in `_TestsApp`."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.db import connection
    from pytest_django.live_server_helper import LiveServer

    address = (
        request.config.getvalue("liveserver")
        or os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    _TestsApp.one_at_a_time = connection.vendor == "sqlite"
    server = LiveServer(address, start=False)
    server.thread.static_handler = lambda app: _TestsApp(StaticFilesHandler(app))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def live_server_turn(live_server: object) -> threading.Lock:
    """The lock an answer of the live server holds on SQLite (tests/test_live_server.py)."""
    return _TestsApp.lock


@pytest.fixture
def cache_outside_the_database(settings):
    """Page fragments cached outside the database, as Redis does in production (tests/races.py
    says why the race tests need it)."""
    from tests.races import CACHE_OUTSIDE_THE_DATABASE

    settings.CACHES = CACHE_OUTSIDE_THE_DATABASE


@pytest.fixture(scope="session", autouse=True)
def _emptied_by_delete_on_postgresql() -> Iterator[None]:
    """After each test that commits (the browser tests' live server), Django empties every table
    with one TRUNCATE; on PostgreSQL that makes new files for each of some forty tables and
    their indexes, about 0.2 s a test, where deleting the few rows a test wrote takes 0.02 s.
    Foreign keys are deferred (Django makes them so), so the tables are emptied in any order.
    Sequences are left as TRUNCATE leaves them unless a reset is asked for, which still
    truncates."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: DatabaseOperations,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"DELETE FROM {self.quote_name(table)}" for table in tables
        ]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole session. An assertion on a page waits up to 10 s, as
    the pages' own actions do (`set_default_timeout`), not Playwright's 5: on CI's two cores a
    browser reopened on its profile, its service worker and IndexedDB, took longer than 5 s to
    show a kept hand once."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=10_000)

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make browser)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: object) -> Iterator[object]:
    """A fresh page at a phone viewport (390×844), closed after the test."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


#: Console errors that are a page working as meant: a refused request's status (a 409, 422 or
#: 403 the page shows in its own words; htmx logs each), a request with no connection or whose
#: answer was lost (the offline tests; htmx logs the failed send). Anything else (a
#: Content-Security-Policy violation, an uncaught error) fails the test.
EXPECTED_CONSOLE_ERRORS = (
    "Failed to load resource",
    "Response Status Error Code",
    "net::ERR_INTERNET_DISCONNECTED",
    "htmx:sendError",
    "htmx:afterRequest",
)


def _console_problem(message: Any) -> str | None:
    if message.type != "error":
        return None
    text = message.text
    return None if any(known in text for known in EXPECTED_CONSOLE_ERRORS) else text


@pytest.fixture(autouse=True)
def _no_console_errors(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A browser test fails on any console error a page logs (a style or script the pages'
    Content-Security-Policy refuses, an uncaught error), in every context it opens."""
    if "browser" not in request.fixturenames and "phone" not in request.fixturenames:
        yield
        return
    from playwright.sync_api import Browser, BrowserContext, BrowserType

    problems: list[str] = []

    def watch(context: BrowserContext) -> BrowserContext:
        context.on("console", lambda m: problems.append(p) if (p := _console_problem(m)) else None)
        context.on("weberror", lambda e: problems.append(f"uncaught: {e.error}"))
        return context

    new_context = Browser.new_context
    persistent = BrowserType.launch_persistent_context
    monkeypatch.setattr(
        Browser, "new_context", lambda self, *a, **k: watch(new_context(self, *a, **k))
    )
    monkeypatch.setattr(
        BrowserType,
        "launch_persistent_context",
        lambda self, *a, **k: watch(persistent(self, *a, **k)),
    )
    yield
    assert problems == [], f"the pages logged console errors: {problems}"


@pytest.fixture(autouse=True)
def _live_server_open_during_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Open the live server's app for a test that uses it, and close it before the database is
    emptied: set up after pytest-django's database fixtures, so torn down before them. Closing
    waits for an answer in progress on SQLite, where answers are taken in turn."""
    from django.db import connection

    uses_server = "live_server" in request.fixturenames
    _TestsApp.open = uses_server
    if uses_server and connection.vendor == "sqlite":
        with connection.execute_wrapper(_TestsApp.in_turn(threading.get_ident())):
            yield
    else:
        yield
    if uses_server:
        with _TestsApp.lock:
            _TestsApp.open = False
            # A request already in the app (not on SQLite, where it holds the lock) ends first.
            _TestsApp.answered.wait_for(lambda: _TestsApp.answering == 0, timeout=30)


@pytest.fixture
def migrate_to(transactional_db: None) -> Iterator[Any]:
    """Moves the test database to the named migrations, ``migrate_to([("leagues", "0028_…")])``,
    and gives the apps as they were there; afterwards every app is migrated forward again.
    Moving one app back unapplies the other apps' migrations that depend on it (a column of
    ``notices`` among them), and a later test on the same database needs every column."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    def to(targets: list[tuple[str, str]] | None = None) -> Any:
        """To ``targets``; with none, every app's latest (the code's models: its pages)."""
        executor = MigrationExecutor(connection)
        targets = targets or executor.loader.graph.leaf_nodes()
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    yield to
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


#: The day the tests' fixture lists are made on unless a test says otherwise: before every
#: test's season (the factories' seasons start in September 2025). The generator puts new
#: fixtures only on nights not yet past, and the tests' seasons are long past by the clock.
LISTS_MADE_ON = datetime.date(2000, 1, 3)


@pytest.fixture(scope="session", autouse=True)
def _lists_made_before_the_seasons() -> Iterator[Any]:
    """Every test makes its fixture lists as on ``LISTS_MADE_ON`` (a module's world too);
    yields the generator's own reading of the day, for ``lists_made_today``."""
    from leagues.services import fixtures

    made_on = fixtures.list_made_on
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fixtures, "list_made_on", lambda league: LISTS_MADE_ON)
        yield made_on


@pytest.fixture
def lists_made_today(monkeypatch: pytest.MonkeyPatch, _lists_made_before_the_seasons: Any) -> None:
    """The fixture lists made on today where the league plays, by the clock (which the test
    sets): the generator's own reading of the day."""
    from leagues.services import fixtures

    monkeypatch.setattr(fixtures, "list_made_on", _lists_made_before_the_seasons)
