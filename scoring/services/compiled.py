"""Reads and writes of model rows whose SQL is built once per database connection and run again
for each hand: the read every hand entry starts with, and the rows a hand writes.

Building that read's SQL (its joins to the game, its scoring link and what other apps attach,
and its hand count) costs the ORM about ten times as long as the database takes to run it, on
every hand. The SQL and the way its columns become model instances depend only on the query's
shape, so they are worked out once per connection (a server thread keeps its connection) and
each entry runs them with its own game id: the same rows, with the same `select_related`
objects and annotations, as evaluating the queryset would give (a test compares them).

Writing is the same story: `Model.objects.create`, `bulk_create` and `save(update_fields=...)`
spend two or three times as long building their statement as the database takes to run it.
`CompiledWrite` writes the same rows (a test compares them) from SQL built once per connection
and the fields' own conversions. It sends no model signals: it is for models none listens to.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
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
        self.converters = compiler.get_converters(
            [column[0] for column in compiler.select[: compiler.col_count]]
        )
        self.annotations = dict(compiler.annotation_col_map or {})
        self.using = using

    def run(self, game_id: int, connection: Any) -> list[M]:
        params = list(self.params)
        params[self.slot] = game_id
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            fetched = cursor.fetchall()
        converters = self.converters
        rows = self.compiler.apply_converters(fetched, converters) if converters else fetched
        found = []
        for row in rows:
            obj = self.model.from_db(self.using, self.init_list, row[self.columns])
            for populator in self.related:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found


class CompiledWrite(Generic[M]):
    """New rows of `model` (`insert`, as `bulk_create` writes them, their ids set) and the
    `update_fields` of a stored row (`update`, as `save(update_fields=...)` writes them), from
    SQL built once per connection and number of rows."""

    def __init__(self, model: type[M], *, update_fields: Sequence[str] = ()) -> None:
        meta = model._meta
        self.model = model
        self.pk = meta.pk
        self.inserted = [field for field in meta.concrete_fields if field is not meta.pk]
        self.updated = [meta.get_field(name) for name in update_fields]
        self._sql: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[int, str]] = (
            weakref.WeakKeyDictionary()
        )

    def insert(self, objs: Sequence[M], *, using: str = "default") -> None:
        if not objs:
            return
        connection = connections[using]
        if not connection.features.can_return_rows_from_bulk_insert:
            self.model._default_manager.using(using).bulk_create(objs)
            return
        sql = self._statement(connection, len(objs))
        params = [
            field.get_db_prep_save(field.pre_save(obj, True), connection)
            for obj in objs
            for field in self.inserted
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            ids = [row[0] for row in cursor.fetchall()]
        for obj, pk in zip(objs, ids, strict=True):
            obj.pk = pk
            obj._state.adding = False
            obj._state.db = using

    def update(self, obj: M, *, using: str = "default") -> None:
        connection = connections[using]
        params = [
            field.get_db_prep_save(field.pre_save(obj, False), connection) for field in self.updated
        ]
        with connection.cursor() as cursor:
            cursor.execute(self._statement(connection, 0), [*params, obj.pk])

    def _statement(self, connection: BaseDatabaseWrapper, rows: int) -> str:
        """The UPDATE (`rows` 0) or the INSERT of `rows` rows, returning their ids."""
        made = self._sql.setdefault(connection, {})
        sql = made.get(rows)
        if sql is None:
            quote = connection.ops.quote_name
            table = quote(self.model._meta.db_table)
            if rows == 0:
                sets = ", ".join(f"{quote(field.column)} = %s" for field in self.updated)
                sql = f"UPDATE {table} SET {sets} WHERE {quote(self.pk.column)} = %s"
            else:
                columns = ", ".join(quote(field.column) for field in self.inserted)
                row = "(" + ", ".join("%s" for _ in self.inserted) + ")"
                returning, _ = connection.ops.return_insert_columns([self.pk])
                values = ", ".join(row for _ in range(rows))
                sql = f"INSERT INTO {table} ({columns}) VALUES {values} {returning}"
            made[rows] = sql
        return sql
