"""One world per module for read-only tests.

Building a league whose games were played hand by hand takes a second or more; tests that only
read it (pages fetched with the client, selectors) can share one. `world_per_module(build)`
makes a module-scoped fixture that builds the world once per module (and per parameter) inside
a transaction rolled back when the module is done; each test still runs in its own transaction
nested inside it (pytest-django's `db`), so a test that writes by mistake changes nothing for
the next one. The cache lives in the database in tests, so cached page fragments roll back too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from django.db import transaction


def world_per_module(
    build: Callable[[Any], Any], *, params: Sequence[Any] = (None,), ids: Sequence[str] = ()
) -> Any:
    """A module-scoped fixture giving `build(param)`, built once per module and parameter."""

    def world(
        request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
    ) -> Iterator[Any]:
        with django_db_blocker.unblock(), transaction.atomic():
            yield build(getattr(request, "param", None))
            transaction.set_rollback(True)

    if list(params) == [None]:
        return pytest.fixture(scope="module")(world)  # one world: no parameter in the test ids
    return pytest.fixture(scope="module", params=params, ids=ids or None)(world)
