"""Two requests at the same moment, for the tests that make them: the first holds its row locks
(its work done, its transaction not yet committed) until it is let go; the second runs in a
thread of its own and waits for those locks. On PostgreSQL the second must see what the first
wrote, never the rows as they were when it began waiting.

Only on a database with row locks: the SQLite test database is in memory, shared between
threads by table locks, not the file's write lock the server waits on. And with the page
fragments' cache outside the database, as in production (Redis): the database cache's rows,
written inside the request's transaction, would make any two writers to a league wait for each
other at their first cache write, before they reach the row lock the test is about.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

#: The mark of a test module that needs two connections waiting on each other's row locks, with
#: the page fragments cached outside the database (`cache_outside_the_database`, in conftest).
race = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("cache_outside_the_database"),
]

if connection.vendor == "sqlite":
    race.append(
        pytest.mark.skip(
            reason="the SQLite test database is in memory, shared between threads by table "
            "locks, not the file's write lock the server waits on"
        )
    )


#: Page fragments cached outside the database, as Redis does in production.
CACHE_OUTSIDE_THE_DATABASE = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "races"}
}


def holding_the_locks(write: Callable[[], Any]) -> tuple[threading.Event, threading.Thread]:
    """Run `write()` in a thread inside a transaction that, once `write` has returned, waits to
    be let go before it commits (so it keeps every row lock `write` took). Returns the event
    that lets it go and its thread."""
    done, release = threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            with transaction.atomic():
                write()
                done.set()
                assert release.wait(10)
        except BaseException as exc:  # shown by the assertion below, not lost in the thread
            failed.append(exc)
            done.set()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    assert done.wait(10)
    assert not failed, failed
    return release, thread


def meanwhile(act: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """`act()` in a thread of its own (it will wait for the locks); what it returned or
    raised."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = act()
        except Exception as exc:  # what the second request would be told
            outcome["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.5)  # long enough to be waiting for the lock
    return thread, outcome


def both_finish(release: threading.Event, *threads: threading.Thread) -> None:
    """Let the first go and wait for both."""
    release.set()
    for thread in threads:
        thread.join(10)
        assert not thread.is_alive()
