"""Django's PostgreSQL backend, its connection health check made without a round trip where
it can be (`ENGINE = "config.postgresql"`, set in `config.settings`).

With `CONN_HEALTH_CHECKS` Django asks a kept connection whether it still works before the
first query of every request, by running ``SELECT 1``: a round trip to the database, on every
request that uses it (a recorded hand's request among them), for a connection that almost
always does. When the database restarts, or a pooler or an administrator ends the session, the
server sends the connection its last message (FATAL, "terminating connection") and closes it:
the connection's socket has something to read, the end of the stream after it. An idle
connection of this app has nothing else to read: it listens to no channel and every answer was
read to its end. So a kept connection whose socket has nothing waiting, that psycopg has not
found broken and that is in no transaction, is taken as usable without asking the server;
anything else (something waiting, a connection psycopg found broken, an open transaction) is
asked with ``SELECT 1`` as before, and a connection that fails it is closed and made afresh
before the request's first query.

What the round trip would find and this does not: a server that vanished without closing the
connection (its machine off, the network cut). ``SELECT 1`` would wait for it as long as the
request's own first query does, so neither answers sooner.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


def quiet(connection: object) -> bool:
    """Whether a psycopg connection is open, idle outside a transaction, and has nothing to
    read on its socket (no last message from the server, no end of stream)."""
    pgconn = connection.pgconn  # type: ignore[attr-defined]
    if pgconn.status != pq.ConnStatus.OK:
        return False
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    waiting = select.poll()
    waiting.register(pgconn.socket, select.POLLIN | select.POLLPRI)
    return not waiting.poll(0)


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        if self.connection is not None and quiet(self.connection):
            return True
        return super().is_usable()
