"""The league home's lists of fixtures read along the indexes made for them, under the one plan
PostgreSQL keeps for each prepared statement (``config.settings``: ``plan_cache_mode``), made
before it knows any value the statement is given: a partial index serves it only when the
values its condition names are written into the SQL (``config.queries.Written``), not sent as
parameters. Among three thousand fixtures played, none read to find the few still to play."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.db import connection, transaction
from psycopg import ClientCursor

from leagues.models import Division, Fixture, FixtureResult, Outcome
from leagues.selectors.fixtures import (
    awaiting_query,
    division_nights_query,
    latest_query,
    next_query,
)
from tests.factories.leagues import DivisionFactory, FixtureFactory, TeamEntryFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]

PLAYED = 3000
TODAY = datetime.date(2026, 1, 6)


def played_season(dates: list[datetime.date]) -> tuple[Division, list[Fixture]]:
    """A season of two divisions (its lists read by the season), its top one's fixtures on
    ``dates`` played and agreed, between two of its teams."""
    top = DivisionFactory()
    DivisionFactory(season=top.season, rank=2)
    home, away = (TeamEntryFactory(division=top).team for _ in range(2))
    played = Fixture.objects.bulk_create(
        Fixture(
            division=top,
            home=home,
            away=away,
            venue=home.home_venue,
            date=date,
            status=Fixture.Status.PLAYED,
        )
        for date in dates
    )
    FixtureResult.objects.bulk_create(
        FixtureResult(fixture=fixture, is_final=True, outcome=Outcome.HOME, confirmed=True)
        for fixture in played
    )
    return top, played


@pytest.fixture
def season():
    """A season of two divisions (its lists read by the season) and, in its league and before
    its today, three thousand fixtures played and agreed; ANALYZEd, as a live database is."""
    top, played = played_season(
        [TODAY - datetime.timedelta(days=1 + n % 700) for n in range(PLAYED)]
    )
    home, away = played[0].home, played[0].away
    FixtureFactory(division=top, home=home, away=away, date=TODAY + datetime.timedelta(days=7))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leagues_fixture, leagues_fixtureresult")
    return top.season


def generic_plan(queryset: Any) -> str:
    """The plan PostgreSQL keeps for ``queryset``'s statement prepared, its values sent as
    parameters (as the app's connection sends them), and run with them."""
    return "\n".join(row[0] for row in _explained(queryset, "EXPLAIN"))


def analyzed_plan(queryset: Any) -> dict[str, Any]:
    """``generic_plan`` run, with what each of its nodes read (PostgreSQL's ``FORMAT JSON``)."""
    plan: dict[str, Any] = _explained(queryset, "EXPLAIN (ANALYZE, FORMAT JSON)")[0][0][0]["Plan"]
    return plan


def _explained(queryset: Any, explain: str) -> list[Any]:
    sql, params = queryset.query.get_compiler(using="default").as_sql()
    numbers = iter(range(1, len(params) + 1))
    sql = re.sub(r"%s", lambda _: f"${next(numbers)}", sql).replace("%%", "%")
    cursor = ClientCursor(connection.connection)
    cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
    cursor.execute(f"PREPARE listed AS {sql}")
    try:
        cursor.execute(f"{explain} EXECUTE listed({', '.join(['%s'] * len(params))})", params)
        return cursor.fetchall()
    finally:
        cursor.execute("DEALLOCATE listed")


def fixtures_read(plan: Any) -> int:
    """How many rows of ``leagues_fixture`` the nodes of an analyzed plan read, those a filter
    threw away included, in all their loops."""
    read = 0
    if plan.get("Relation Name") == "leagues_fixture":
        rows = plan["Actual Rows"] + plan.get("Rows Removed by Filter", 0)
        read += rows * plan["Actual Loops"]
    return read + sum(fixtures_read(child) for child in plan.get("Plans", []))


def test_a_season_over_reads_its_latest_results_back_from_its_last_night(season):
    """A season of two divisions whose last night was long before today, while another league
    has played three thousand fixtures since: its latest results are read back from its own
    last night (each division's found at the end of its index of dates), not along every
    league's fixtures from today until eight of its own turn up."""
    last = TODAY - datetime.timedelta(days=800)
    over, played = played_season([last - datetime.timedelta(weeks=n) for n in range(20)])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leagues_fixture, leagues_fixtureresult, leagues_division")
    latest = latest_query(season=over.season, until=TODAY, provisional=False)[:8]
    assert [row[0] for row in latest] == [fixture.pk for fixture in played[:8]]
    plan = analyzed_plan(latest)
    assert fixtures_read(plan) < 100, plan


def test_the_next_fixtures_are_read_along_the_fixtures_still_to_play(season):
    """From today on, along ``fixture_to_play_order``: not every fixture dated from today, of
    every league, in the order of dates, looking for those still to play."""
    plan = generic_plan(next_query(season=season, since=TODAY)[:8])
    assert "fixture_to_play_order" in plan, plan
    assert "fixture_list_order" not in plan, plan


@pytest.mark.parametrize("provisional", [False, True])
def test_the_fixtures_awaiting_results_are_read_along_the_few_of_them(season, provisional):
    """Those scheduled before today along ``fixture_to_play_order``, the results to agree along
    ``result_to_agree``, then looked up by id: never every fixture played, nor every result."""
    plan = generic_plan(awaiting_query(season=season, before=TODAY, provisional=provisional)[:8])
    assert "fixture_to_play_order" in plan, plan
    assert ("result_to_agree" in plan) is not provisional, plan
    assert "Seq Scan on leagues_fixture " not in plan, plan
    assert "Seq Scan on leagues_fixtureresult" not in plan, plan
    assert "fixture_list_order" not in plan and "fixture_division_list_order" not in plan, plan


@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_a_divisions_nights_are_read_from_their_index_alone():
    """The nights of a division's fixture list (its weeks) from ``fixture_division_nights``,
    each distinct night taken in the index's order: no fixture's row fetched, hashed or
    sorted (among ten divisions of six hundred fixtures, on sixty nights each)."""
    divisions = [DivisionFactory()]
    divisions += [DivisionFactory(season=divisions[0].season) for _ in range(9)]
    for division in divisions:
        home, away = (TeamEntryFactory(division=division).team for _ in range(2))
        Fixture.objects.bulk_create(
            Fixture(
                division=division,
                home=home,
                away=away,
                venue=home.home_venue,
                date=TODAY - datetime.timedelta(weeks=n % 60),
            )
            for n in range(600)
        )
    with connection.cursor() as cursor:
        # As autovacuum keeps a live table: its statistics, and its pages marked all visible
        # (what lets an index be read without the rows).
        cursor.execute("VACUUM ANALYZE leagues_fixture")
    with transaction.atomic():  # the plan PostgreSQL keeps for it (SET LOCAL)
        plan = generic_plan(division_nights_query(divisions[3]))
    assert "Index Only Scan using fixture_division_nights" in plan, plan
    assert "Sort" not in plan and "HashAggregate" not in plan, plan
