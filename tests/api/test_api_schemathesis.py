"""Schemathesis against the API's served schema (``/api/openapi.json``, fetched through the
app), with every check it has: each operation called with data generated from the schema,
valid and invalid, and each answer held to what the schema says (status codes, content types,
bodies, headers, invalid data refused, valid data accepted, unknown methods refused). Every
case is sent twice: with the ids it was generated with (mostly unknown ones: 404s and 400s)
and with the world's own (full answers), so both kinds of answer are checked. A bounded number
of examples keeps it to seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from config.wsgi import application
from tests.api.test_api import build_world
from tests.worlds import world_per_module

pytestmark = pytest.mark.django_db

world = world_per_module(build_world)


def real_parameters(world: Any) -> dict[str, Any]:
    """Path parameters that name the world's own league, division, team and fixture."""
    return {
        "slug": world.league.slug,
        "division_id": world.fixture.division_id,
        "team_id": world.fixture.home_id,
        "fixture_id": world.fixture.pk,
    }


#: Examples per operation and kind of data: enough to cross every parameter, few enough that the
#: whole run takes seconds.
EXAMPLES = 6


@pytest.fixture
def requests_keep_the_tests_connection() -> Iterator[None]:
    """The app called as a server calls it, but without closing the database connection at
    each request's end (the test's transaction is on it), as Django's test client does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def test_the_api_keeps_to_its_schema(world: Any, requests_keep_the_tests_connection: None) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
    real = real_parameters(world)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 14
    for operation in operations:
        ours = {p.name: real[p.name] for p in operation.path_parameters}
        for strategy in (
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=ours),
            operation.as_strategy(GenerationMode.POSITIVE),
            operation.as_strategy(GenerationMode.NEGATIVE),
        ):
            run_cases(strategy)


def run_cases(strategy: Any) -> None:
    @given(case=strategy)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def each(case: Any) -> None:
        # Called through WSGI, where nothing would undo the gzip a browser asks for.
        case.call_and_validate(headers={"Accept-Encoding": "identity"})

    each()
