"""The browser tests' live server on SQLite: the test's own queries take their turn with the
server's answers (`_TestsApp` in tests/conftest.py)."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_query_of_the_test_waits_for_the_answer_in_progress(
    live_server_turn: threading.Lock,
) -> None:
    """A factory's write while a page's request is being answered would fail at once with
    "database table is locked" (one in-memory connection for both): it waits instead."""
    if connection.vendor != "sqlite":
        pytest.skip("answers are taken in turn only on SQLite")
    answering = threading.Event()
    released_at: list[float] = []

    def an_answer_in_progress() -> None:
        with live_server_turn:
            answering.set()
            time.sleep(0.3)
            released_at.append(time.monotonic())

    server = threading.Thread(target=an_answer_in_progress)
    server.start()
    answering.wait()
    get_user_model().objects.create_user("waited", password="x")
    written_at = time.monotonic()
    server.join()
    assert released_at and written_at >= released_at[0]
