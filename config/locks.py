"""Row locks taken in a statement of their own, before the rows are read.

On PostgreSQL (READ COMMITTED) a ``SELECT ... FOR UPDATE`` that has to wait for another
transaction's lock returns the locked row as that transaction committed it, but every other row
the same statement reads (joined with ``select_related``, in a subquery or an annotation) as it
was when the statement began: before the other transaction's writes. A foreign key the other
transaction changed even loses its joined row (``None``, or no row at all). So a service that
decides anything from more than the locked row's own columns locks the row first, with
``lock_rows``, and reads it after, in a statement that starts once the lock is held.

On SQLite there are no row locks (``select_for_update`` does nothing) and no query is run: the
transactions begin IMMEDIATE, one writer at a time from its BEGIN, so every read sees every
write committed before.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import QuerySet


def lock_rows(queryset: QuerySet[Any]) -> None:
    """Lock the rows ``queryset`` selects (its own table's only) until the transaction ends.
    One query on a database with row locks, none on SQLite."""
    if connection.features.has_select_for_update:
        list(queryset.select_for_update(of=("self",)).values_list("pk", flat=True))
