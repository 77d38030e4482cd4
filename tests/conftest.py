"""Project-wide fixtures: a phone-sized page in headless Debian Chromium for browser tests."""

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.servers.basehttp import WSGIServer

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


class _OneRequestAtATime(WSGIServer):
    """Django's plain WSGI server, answering in the live server's own thread (which already uses
    the test's connections); it closes each connection after its answer, so none waits."""

    answering = threading.Lock()

    def __init__(self, *args: Any, connections_override: object = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.answering:
            super().process_request(request, client_address)


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest) -> Iterator[object]:
    """pytest-django's live server; on SQLite it answers one request at a time.

    The test database on SQLite lives in memory, and the server's threads all share the test's
    one connection: two requests at once (a double tap, a sync beside a page load) would run on
    the same connection and fail with "database table is locked", which a real SQLite file with
    its own connections per request never does. On PostgreSQL each request has its own
    connection and the server stays threaded, so real concurrent requests are tested there.
    """
    from django.db import connection
    from pytest_django.live_server_helper import LiveServer

    address = (
        request.config.getvalue("liveserver")
        or os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(address, start=False)
    if connection.vendor == "sqlite":
        server.thread.server_class = _OneRequestAtATime  # type: ignore[misc]
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hash test passwords cheaply: the production hasher is deliberately slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole session."""
    from playwright.sync_api import sync_playwright

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


@pytest.fixture(autouse=True)
def _live_server_quiet_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """Let the live server finish what the browser asked before the database is emptied.

    A page closed at the end of a test may leave a request in flight (a service worker's
    precache, a sync on close); on SQLite its open statement on the shared connection would make
    the teardown's flush fail with "database table is locked". This fixture is set up after
    pytest-django's database fixtures, so it is torn down, and waits, before them; the browser
    contexts of the test are closed by then, so no new request comes.
    """
    yield
    if "live_server" in request.fixturenames and _OneRequestAtATime.answering.acquire(timeout=15):
        _OneRequestAtATime.answering.release()
