"""Query pieces more than one app uses."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.db.models import CharField, Count, IntegerField, OuterRef, QuerySet, Subquery, Value


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
