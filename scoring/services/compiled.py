"""A read of model rows whose SQL is built once per database connection and run again for each
game: the locked read every hand entry starts with.

Building that read's SQL (its joins to the game, its scoring link and what other apps attach,
and its hand count) costs the ORM about ten times as long as the database takes to run it, on
every hand. The SQL and the way its columns become model instances depend only on the query's
shape, so they are worked out once per connection (a server thread keeps its connection) and
each entry runs them with its own game id: the same rows, with the same `select_related`
objects and annotations, as evaluating the queryset would give (a test compares them).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

#: The id the SQL is built with, found again among its parameters and replaced by each game's.
_MARK = -7_385_019


class CompiledRead(Generic[M]):
    """`shape(game_id)` (a queryset of one model, with `select_related` and annotations),
    compiled once per connection; `rows(game_id)` runs it."""

    def __init__(self, shape: Callable[[int], QuerySet[M]]) -> None:
        self.shape = shape
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Plan[M]] = (
            weakref.WeakKeyDictionary()
        )

    def rows(self, game_id: int, *, using: str = "default") -> list[M]:
        connection = connections[using]
        plan = self._plans.get(connection)
        if plan is None:
            plan = self._plans[connection] = _Plan(self.shape(_MARK), using)
        return plan.run(game_id, connection)


class _Plan(Generic[M]):
    """The SQL, where the game id goes, and how each row becomes instances (as Django's own
    `ModelIterable` does it)."""

    def __init__(self, queryset: QuerySet[M], using: str) -> None:
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        self.compiler = compiler
        self.sql = sql
        self.params = list(params)
        self.slot = self.params.index(_MARK)
        info = compiler.klass_info
        assert info is not None
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        self.model: type[M] = info["model"]
        self.columns = slice(start, end)
        self.init_list = [column[0].target.attname for column in compiler.select[start:end]]
        self.related = get_related_populators(info, compiler.select, using)
        self.annotations = dict(compiler.annotation_col_map or {})
        self.using = using

    def run(self, game_id: int, connection: Any) -> list[M]:
        params = list(self.params)
        params[self.slot] = game_id
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            fetched = cursor.fetchall()
        found = []
        for row in self.compiler.results_iter([fetched]):
            obj = self.model.from_db(self.using, self.init_list, row[self.columns])
            for populator in self.related:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found
