"""Query pieces more than one app uses."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.db.models import (
    BooleanField,
    CharField,
    Count,
    F,
    Func,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)


def count_of(rows: QuerySet, *, field: str, outer: str) -> Subquery:
    """How many of ``rows`` have ``field`` equal to the outer query's ``outer``, as a correlated
    subquery (NULL where there are none: wrap it in ``Coalesce`` to read 0)."""
    counted = (
        rows.filter(**{field: OuterRef(outer)})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(counted, output_field=IntegerField())


class Written(Value):
    """One of the app's own words (a choice's value, ``Fixture.Status.SCHEDULED``) written
    into a statement's SQL as a constant, not sent beside it as a parameter. PostgreSQL keeps
    one plan for each prepared statement, made before it knows any parameter
    (``config.settings``: ``plan_cache_mode``), and such a plan reads along a partial index
    only when the values the index's condition names are in the SQL itself
    (``Fixture``'s ``fixture_to_play_order``: the statuses still to play). Never for what
    someone typed: a word of anything but letters, digits, ``_`` and ``-`` is refused."""

    def __init__(self, value: str) -> None:
        if not _WORD.fullmatch(value):
            raise ValueError(f"{value!r} is not a word to write into SQL")
        super().__init__(value, output_field=CharField())

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        return f"'{self.value}'", []


def written(values: Iterable[str]) -> list[Written]:
    """``values`` written into the SQL (``Written``): for ``field__in=written(...)``."""
    return [Written(value) for value in values]


_WORD = re.compile(r"[\w-]+", re.ASCII)


class AmongFew(Func):
    """Whether ``field`` is among the values ``rows`` (a one-column queryset of a few rows)
    selects: on PostgreSQL ``field = ANY(ARRAY(rows))``, which it reads first, by itself (an
    initplan), and then looks the few up by ``field``'s index, whatever the plan it keeps for
    a prepared statement (``config.settings``: ``plan_cache_mode``) guessed of the values it
    would be given; ``field IN (rows)`` elsewhere. For ``rows`` read along a small partial
    index (the fixtures still to play whose night has passed), where a plain ``IN`` may be
    planned as a walk along all of ``field``'s table hoping to meet them soon."""

    output_field = BooleanField()

    def __init__(self, field: str, rows: QuerySet[Any]) -> None:
        super().__init__(F(field), Subquery(rows))

    def as_sql(  # type: ignore[override]
        self, compiler: Any, connection: Any, **extra: Any
    ) -> tuple[str, list[Any]]:
        field, rows = self.get_source_expressions()
        field_sql, field_params = compiler.compile(field)
        rows_sql, rows_params = compiler.compile(rows)
        among = "= ANY(ARRAY{})" if connection.vendor == "postgresql" else "IN {}"
        return f"{field_sql} {among.format(rows_sql)}", [*field_params, *rows_params]
