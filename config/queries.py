"""Query pieces more than one app uses."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery


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
