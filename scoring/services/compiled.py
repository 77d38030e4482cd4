"""Reads and writes of model rows whose SQL is built once per database connection and run again
for each hand: the read every hand entry starts with, and the rows a hand writes.

Building that read's SQL (its joins to the game, its scoring link and what other apps attach,
and its hand count) costs the ORM about ten times as long as the database takes to run it, on
every hand. The SQL and the way its columns become model instances depend only on the query's
shape, so they are worked out once per connection (a server thread keeps its connection) and
each entry runs them with its own game id: the same rows, with the same `select_related`
objects and annotations, as evaluating the queryset would give (a test compares them). The
league's pages read a division, a team or a player so (`CompiledRead`), and a few divisions'
stored tables (`CompiledReadIn`, once per number of divisions).

Writing is the same story: `Model.objects.create`, `bulk_create` and `save(update_fields=...)`
spend two or three times as long building their statement as the database takes to run it.
`CompiledWrite` writes the same rows (a test compares them) from SQL built once per connection
and the fields' own conversions. It sends no model signals: it is for models none listens to.
"""

from __future__ import annotations

import datetime
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators

from config.locks import lock_rows

M = TypeVar("M", bound=Model)

#: The id the SQL is built with, found again among its parameters and replaced by each game's.
_MARK = -7_385_019
#: The largest id a database's id column holds (a 64-bit signed integer).
LARGEST_ID = 2**63 - 1


class CompiledRead(Generic[M]):
    """`shape(game_id)` (a queryset of one model, with `select_related` and annotations),
    compiled once per connection; `rows(game_id)` runs it.

    With `locking` (a model), `rows` first locks that model's row of the same id until the
    transaction ends, in a statement of its own before the read (`config.locks` says why).
    Where the connection prepares its statements (`_prepares`: PostgreSQL as configured by
    default) the two are sent one after the other, each prepared once a session by psycopg:
    PostgreSQL plans the read (its joins and its hand count) once a session, not on every
    hand, where planning it took longer than running it (some 0.5 ms of the database's CPU a
    hand, which the hand waited for), for one round trip more. Elsewhere on PostgreSQL both
    statements go in one round trip, as text planned each time: the read still starts once the
    lock is held (in READ COMMITTED each statement of a request sees what was committed before
    it began)."""

    def __init__(
        self,
        shape: Callable[[Any], QuerySet[M]],
        *,
        locking: type[Model] | None = None,
        kind: type = int,
        one_parent: bool = False,
    ) -> None:
        """``kind``: what the read is given, an id (``int``) or a text (``str``: a slug).
        ``one_parent``: every row reaches the same related rows (a game's sides, one game),
        which are then made once, from the first row, and given to the others."""
        self.shape = shape
        self.locking = locking
        self.kind = kind
        self.one_parent = one_parent
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Plan[M]] = (
            weakref.WeakKeyDictionary()
        )

    def one(self, pk: Any, *, using: str = "default") -> M:
        """The row of id ``pk`` (or of that text); raises its model's ``DoesNotExist`` (an id
        no database column can hold, such as one typed into an address, finds nothing without
        being sent)."""
        sendable = self.kind is not int or 0 < pk <= LARGEST_ID
        rows = self.rows(pk, using=using) if sendable else []
        if not rows:
            model = self.shape(_mark(self.kind, 0)).model
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        return rows[0]

    def rows(self, game_id: Any, *, using: str = "default") -> list[M]:
        connection = connections[using]
        plan = self._plans.get(connection)
        if plan is None:
            mark = _mark(self.kind, 0)
            plan = self._plans[connection] = _Plan(
                self.shape(mark), [mark], using, one_parent=self.one_parent
            )
        if self.locking is None or not connection.features.has_select_for_update:
            return plan.run([game_id], connection)
        if not _several_statements(connection):
            lock_rows(self.locking._default_manager.filter(pk=game_id))
            return plan.run([game_id], connection)
        quote = connection.ops.quote_name
        meta = self.locking._meta
        lock = f"SELECT 1 FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s FOR UPDATE"
        if _prepares(connection):
            with connection.cursor() as cursor:
                cursor.execute(lock, [game_id])
            return plan.run([game_id], connection)
        return plan.run([game_id], connection, after=(lock, [game_id]))


class CompiledRows:
    """`shape(*marks)` (a `values_list` queryset: tuples, not instances), compiled once per
    connection; `rows(*values)` runs it with each mark's value in its place: the same tuples
    as evaluating `shape(*values)` gives (a test compares them).

    `kinds` says what each value is, in order: a whole number (an id), a date, an instant (an
    aware ``datetime``) or a text. The SQL is built with a mark of that kind no stored row
    holds, found again among its parameters (where a backend passes a date or an instant as
    its text, as that text) and replaced by each call's value. A value the shape does not
    pass to the database as a parameter (a slice, a choice of filter) cannot be a mark: it is
    part of the shape."""

    def __init__(
        self, shape: Callable[..., QuerySet[Any]], *, kinds: Sequence[type] = (int,)
    ) -> None:
        self.shape = shape
        self.marks = [_mark(kind, number) for number, kind in enumerate(kinds)]
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _RowsPlan] = (
            weakref.WeakKeyDictionary()
        )

    def rows(self, *values: Any, using: str = "default") -> list[tuple[Any, ...]]:
        connection = connections[using]
        plan = self._plans.get(connection)
        if plan is None:
            plan = self._plans[connection] = _RowsPlan(self.shape(*self.marks), self.marks, using)
        return plan.run(values, connection)


def _mark(kind: type, number: int) -> Any:
    """The ``number``th mark of its kind: an id, a date, an instant or a text no stored row
    holds (the mark is never sent: the text has a character no database text column stores)."""
    if kind is int:
        return _MARK - number
    if kind is datetime.datetime:
        return datetime.datetime(2, 1, 2 + number, tzinfo=datetime.UTC)
    if kind is datetime.date:
        return datetime.date(1, 1, 2 + number)
    if kind is str:
        return f"\x00mark {number}"
    raise TypeError(f"no mark for {kind.__name__}")


class _Statement:
    """A queryset's SQL, built once with marks for the values it is run with; where each
    value goes among its parameters (a query may take one more than once: a player in any
    seat; a backend may pass a date as its ISO text), and its columns' conversions."""

    def __init__(self, queryset: QuerySet[Any], marks: Sequence[Any], using: str) -> None:
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        self.compiler = compiler
        self.sql = sql
        self.params = list(params)
        # (position, which value, as text)
        self.slots = [
            (position, index, param != mark)
            for position, param in enumerate(self.params)
            for index, mark in enumerate(marks)
            if param == mark or (isinstance(param, str) and param == _as_text(mark, using))
        ]
        self.using = using
        missing = set(range(len(marks))) - {index for _, index, _ in self.slots}
        assert not missing, "the query's shape does not use every value it is given"
        self.converters = compiler.get_converters(
            [column[0] for column in compiler.select[: compiler.col_count]]
        )

    def fetch(
        self,
        values: Sequence[Any],
        connection: Any,
        *,
        after: tuple[str, list[Any]] | None = None,
    ) -> list[Any]:
        """The rows for these values, converted, read in a statement sent after `after` (SQL
        and parameters; its result is not read) in the same round trip."""
        params = list(self.params)
        for position, index, as_text in self.slots:
            params[position] = _as_text(values[index], self.using) if as_text else values[index]
        with connection.cursor() if after is None else _statements_cursor(connection) as cursor:
            if after is None:
                cursor.execute(self.sql, params)
            else:
                cursor.execute(f"{after[0]}; {self.sql}", [*after[1], *params])
                cursor.nextset()
            fetched = cursor.fetchall()
        if not self.converters:
            return fetched
        return list(self.compiler.apply_converters(fetched, self.converters))


def _as_text(value: Any, using: str) -> str:
    """A value as a backend that passes it as text passes it: an instant as the connection
    writes it (SQLite: in the connection's zone, without its offset), anything else as its
    ``str``."""
    if isinstance(value, datetime.datetime):
        return str(connections[using].ops.adapt_datetimefield_value(value))
    return str(value)


class _RowsPlan(_Statement):
    """A values query's statement, its rows as tuples (as Django's `ValuesListIterable`
    gives them)."""

    def run(self, values: Sequence[Any], connection: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.fetch(values, connection)]


def _prepares(connection: BaseDatabaseWrapper) -> bool:
    """Whether psycopg prepares the statements `connection` runs again (server-side binding,
    `config.settings`; not with `DATABASE_PREPARED=0`, for a pooler that cannot keep them)."""
    options = connection.settings_dict.get("OPTIONS", {})
    return bool(options.get("server_side_binding")) and options.get("prepare_threshold") is not None


def _several_statements(connection: BaseDatabaseWrapper) -> bool:
    """Whether one `execute` may send several statements: on PostgreSQL, through
    `_statements_cursor`."""
    return connection.vendor == "postgresql"


def _statements_cursor(connection: BaseDatabaseWrapper) -> Any:
    """A cursor whose `execute` may send several statements in one round trip: Django's own
    (psycopg's client-side parameters, Django's default), or, where the connection binds
    parameters on the server to prepare its statements (the `server_side_binding` option,
    `config.settings`), a client-side cursor on the same connection, wrapped as Django wraps
    its own (so it is counted and logged like any)."""
    if not connection.settings_dict.get("OPTIONS", {}).get("server_side_binding"):
        return connection.cursor()
    from psycopg import ClientCursor

    connection.ensure_connection()
    return connection._prepare_cursor(ClientCursor(connection.connection))


class CompiledReadIn(Generic[M]):
    """`shape(ids)` (a queryset of one model filtered by a list of ids, `division__in=ids`,
    or by a few ids each in its own place, a team's and a season's), compiled once per
    connection and number of ids; `rows(ids)` runs it: a league's page reads its few
    divisions' stored tables so, a team's page its squad."""

    def __init__(self, shape: Callable[[list[int]], QuerySet[M]]) -> None:
        self.shape = shape
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[int, Any]] = (
            weakref.WeakKeyDictionary()
        )

    def _plan(self, queryset: QuerySet[Any], marks: Sequence[Any], using: str) -> Any:
        return _Plan(queryset, marks, using)

    def rows(self, ids: Sequence[int], *, using: str = "default") -> list[M]:
        if not ids:
            return []
        connection = connections[using]
        plans = self._plans.setdefault(connection, {})
        plan = plans.get(len(ids))
        if plan is None:
            marks = [_mark(int, number) for number in range(len(ids))]
            plan = plans[len(ids)] = self._plan(self.shape(marks), marks, using)
        return plan.run(ids, connection)  # type: ignore[no-any-return]


class CompiledRowsIn(CompiledReadIn[Any]):
    """`shape(ids)` a `values_list` queryset filtered by a list of ids, compiled once per
    connection and number of ids: `rows(ids)` gives its tuples (as `CompiledRows` does for a
    few values), not model instances: a division's stored table is read so."""

    def _plan(self, queryset: QuerySet[Any], marks: Sequence[Any], using: str) -> Any:
        return _RowsPlan(queryset, marks, using)


class _Plan(_Statement, Generic[M]):
    """A statement whose rows become instances of one model, with their `select_related`
    objects and annotations (as Django's own `ModelIterable` makes them)."""

    def __init__(
        self,
        queryset: QuerySet[M],
        marks: Sequence[Any],
        using: str,
        *,
        one_parent: bool = False,
    ) -> None:
        super().__init__(queryset, marks, using)
        compiler = self.compiler
        info = compiler.klass_info
        assert info is not None
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        self.model: type[M] = info["model"]
        self.columns = slice(start, end)
        self.init_list = [column[0].target.attname for column in compiler.select[start:end]]
        self.related = get_related_populators(info, compiler.select, using)
        # With one parent: the first row's related objects (its own, as the populators set
        # them: forward relations only), given to each row after it as the populator would.
        self.parents = (
            [related["field"] for related in info.get("related_klass_infos", [])]
            if one_parent
            else None
        )
        assert self.parents is None or not any(
            related["reverse"] for related in info.get("related_klass_infos", [])
        ), "one parent: forward relations only"
        self.annotations = dict(compiler.annotation_col_map or {})
        self.using = using

    def run(
        self,
        values: Sequence[Any],
        connection: Any,
        *,
        after: tuple[str, list[Any]] | None = None,
    ) -> list[M]:
        """The rows for the marks' values, in order (``fetch``)."""
        found: list[M] = []
        for row in self.fetch(values, connection, after=after):
            obj = self.model.from_db(self.using, self.init_list, row[self.columns])
            if found and self.parents is not None:
                for field in self.parents:
                    field.set_cached_value(obj, field.get_cached_value(found[0]))
            else:
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
        self._sql: weakref.WeakKeyDictionary[
            BaseDatabaseWrapper, dict[tuple[int, Field[Any, Any] | None], str]
        ] = weakref.WeakKeyDictionary()

    def insert(self, objs: Sequence[M], *, using: str = "default", after: str = "") -> None:
        """Insert `objs`, their ids set (inside `sent_together`, once the block has run).

        `after` names a foreign key of theirs to a row inserted just before them in the same
        `sent_together` block (a hand's awards, after the hand), whose id is not known until
        the block has run: on PostgreSQL the key is written as the id the database has just
        given that row (its table's id sequence's `currval`, in the same round trip), and set
        on the objects with their own ids. Where the block sends each write as it is made,
        that row's id is known and written as given."""
        if not objs:
            return
        connection = connections[using]
        if not connection.features.can_return_rows_from_bulk_insert:
            self.model._default_manager.using(using).bulk_create(objs)
            return
        follows = self.model._meta.get_field(after) if after and _batching(connection) else None
        sql = self._statement(connection, len(objs), follows)
        params = [
            field.get_db_prep_save(field.pre_save(obj, True), connection)
            for obj in objs
            for field in self.inserted
            if field is not follows
        ]

        def stored(rows: list[tuple[Any, ...]]) -> None:
            for obj, row in zip(objs, rows, strict=True):
                obj.pk = row[0]
                obj._state.adding = False
                obj._state.db = using
                if follows is not None:
                    setattr(obj, follows.attname, getattr(obj, follows.name).pk)

        execute(connection, sql, params, then=stored)

    def update(self, obj: M, *, using: str = "default") -> None:
        connection = connections[using]
        params = [
            field.get_db_prep_save(field.pre_save(obj, False), connection) for field in self.updated
        ]
        execute(connection, self._statement(connection, 0), [*params, obj.pk])

    def _statement(
        self, connection: BaseDatabaseWrapper, rows: int, follows: Field[Any, Any] | None = None
    ) -> str:
        """The UPDATE (`rows` 0) or the INSERT of `rows` rows, returning their ids; with
        `follows` (a foreign key), its column the id just given in the table it refers to."""
        made = self._sql.setdefault(connection, {})
        sql = made.get((rows, follows))
        if sql is None:
            quote = connection.ops.quote_name
            table = quote(self.model._meta.db_table)
            if rows == 0:
                sets = ", ".join(f"{quote(field.column)} = %s" for field in self.updated)
                sql = f"UPDATE {table} SET {sets} WHERE {quote(self.pk.column)} = %s"
            else:
                columns = ", ".join(quote(field.column) for field in self.inserted)
                last = "%s"
                if follows is not None:
                    target = follows.related_model._meta  # type: ignore[union-attr]
                    last = (
                        f"currval(pg_get_serial_sequence('{quote(target.db_table)}', "
                        f"'{target.pk.column}'))"
                    )
                row = (
                    "("
                    + ", ".join(last if field is follows else "%s" for field in self.inserted)
                    + ")"
                )
                returning, _ = connection.ops.return_insert_columns([self.pk])
                values = ", ".join(row for _ in range(rows))
                sql = f"INSERT INTO {table} ({columns}) VALUES {values} {returning}"
            made[rows, follows] = sql
        return sql


# --- writes sent together --------------------------------------------------------------------

#: A write waiting to be sent: its SQL, its parameters and what reads its rows.
_Statement = tuple[str, Sequence[Any], Callable[[list[tuple[Any, ...]]], None] | None]
#: The statements waiting to be sent together (`sent_together`), with their connection.
_waiting: ContextVar[tuple[BaseDatabaseWrapper, list[_Statement]] | None] = ContextVar(
    "compiled_waiting", default=None
)


@contextmanager
def sent_together(*, using: str = "default") -> Iterator[None]:
    """The writes made inside (`CompiledWrite`'s and `execute`'s) are sent in one round trip
    when the block ends, in the order made, each one's result (a new row's id) read after; on
    PostgreSQL. Elsewhere each is sent when it is made.

    For writes no read in the block depends on: a read inside runs before them. An error of
    any of them (a one-time key already used) is raised as the block ends, in the service's
    transaction, which rolls back whole."""
    connection = connections[using]
    if not _several_statements(connection) or _waiting.get() is not None:
        yield
        return
    batch: list[_Statement] = []
    token = _waiting.set((connection, batch))
    try:
        yield
    finally:
        _waiting.reset(token)
    if not batch:
        return
    with _statements_cursor(connection) as cursor:
        # Each statement takes its parameters into its text on its own, and the texts go as one
        # with none left to fill in: psycopg keeps how it splits a statement of up to 50
        # parameters for the next time, and a hand's writes together have more (it split them
        # afresh, most of the CPU this block costs, on every hand). The same text as passing
        # them all at once (psycopg's client-side binding is this filling in).
        cursor.execute("; ".join(cursor.mogrify(sql, params) for sql, params, _ in batch))
        for index, (_, _, then) in enumerate(batch):
            if index:
                cursor.nextset()
            if then is not None:
                then(cursor.fetchall())


def _batching(connection: BaseDatabaseWrapper) -> bool:
    """Whether writes on `connection` wait for the end of a `sent_together` block."""
    waiting = _waiting.get()
    return waiting is not None and waiting[0].alias == connection.alias


def execute(
    connection: BaseDatabaseWrapper,
    sql: str,
    params: Sequence[Any],
    *,
    then: Callable[[list[tuple[Any, ...]]], None] | None = None,
) -> None:
    """Run a write now, or (inside `sent_together`) with the others at the end of the block;
    `then` is given its rows (RETURNING)."""
    waiting = _waiting.get()
    if waiting is not None and waiting[0].alias == connection.alias:
        waiting[1].append((sql, params, then))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if then is not None:
            then(cursor.fetchall())
