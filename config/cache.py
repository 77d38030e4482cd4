"""Redis as the shared cache, and the pages without it when it cannot be reached.

The cache holds only what can be made again (the page fragments of ``leagues/fragments.py``,
and copies of the sessions, which are kept in the database: ``SESSION_ENGINE``), so losing Redis
must lose nothing but speed. ``ResilientRedisCache`` is Django's Redis backend
that answers a read Redis cannot serve as a miss (the page is rendered) and drops a write
(nothing is stored), instead of raising. Its connections give up after ``SOCKET_TIMEOUT``
seconds (a host that has gone silent), and once Redis has failed the backend leaves it alone
for ``RETRY_AFTER`` seconds, so a flood of requests neither waits on it nor retries it each
time. The outage is logged once when it starts and once when Redis answers again, per
process, not once a request.

A write dropped while Redis was away may have been a bump of a league's version (a result
came in): the fragments still in Redis would be stale when it comes back. So, when Redis
answers again after a dropped write, the backend empties its database before anything else
is read from it (every fragment is rendered again once; nothing else lives there).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

SOCKET_TIMEOUT = 0.5
RETRY_AFTER = 5.0

T = TypeVar("T")


class _Outage:
    """Whether one Redis (one ``LOCATION``) is away, shared by every thread of the process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down = False
        self.retry_at = 0.0
        self.dropped_write = False


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


class _KeptClients(RedisCacheClient):
    """Django's Redis client, which makes a ``redis.Redis`` for every cache call (some 50 µs,
    a few times on every page): one is made for each connection pool and kept. A client holds
    no connection of its own (its pool hands them out), so threads share it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # kept by Django for the process's life
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, a miss instead of an error while Redis cannot be reached."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = {**params, "OPTIONS": dict(params.get("OPTIONS") or {})}
        params["OPTIONS"].setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        params["OPTIONS"].setdefault("socket_timeout", SOCKET_TIMEOUT)
        super().__init__(server, params)
        self._class = _KeptClients
        self._location = server if isinstance(server, str) else ",".join(server)
        self._state = _outage(self._location)

    def _call(self, operation: Callable[[], T], fallback: T, *, writes: bool) -> T:
        state = self._state
        if state.down and not self._recovered():
            if writes:
                state.dropped_write = True
            return fallback
        try:
            return operation()
        except (RedisError, OSError) as error:
            self._failed(error, writes=writes)
            return fallback

    def _failed(self, error: Exception, *, writes: bool) -> None:
        state = self._state
        with state.lock:
            if writes:
                state.dropped_write = True
            state.retry_at = time.monotonic() + RETRY_AFTER
            if not state.down:
                state.down = True
                logger.warning(
                    "The cache (Redis at %s) cannot be reached (%s): pages are rendered "
                    "without it until it answers again.",
                    self._location,
                    error,
                )

    def _recovered(self) -> bool:
        """Redis is asked again once ``RETRY_AFTER`` has passed (by one thread at a time); it is
        emptied first if a write was dropped meanwhile (module doc)."""
        state = self._state
        if time.monotonic() < state.retry_at or not state.lock.acquire(blocking=False):
            return False
        try:
            if not state.down:
                return True
            try:
                if state.dropped_write:
                    super().clear()
                else:
                    self._cache.get_client().ping()
            except (RedisError, OSError):
                state.retry_at = time.monotonic() + RETRY_AFTER
                return False
            logger.warning(
                "The cache (Redis at %s) answers again%s.",
                self._location,
                " (emptied: a change was made while it was away)" if state.dropped_write else "",
            )
            state.down = False
            state.dropped_write = False
            return True
        finally:
            state.lock.release()

    # Reads: a miss.
    def get(self, *args: Any, **kwargs: Any) -> Any:
        default = kwargs.get("default", args[1] if len(args) > 1 else None)
        return self._call(
            lambda: super(ResilientRedisCache, self).get(*args, **kwargs), default, writes=False
        )

    def get_many(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self._call(
            lambda: super(ResilientRedisCache, self).get_many(*args, **kwargs), {}, writes=False
        )

    def has_key(self, *args: Any, **kwargs: Any) -> bool:
        return self._call(
            lambda: super(ResilientRedisCache, self).has_key(*args, **kwargs), False, writes=False
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        """Raises ValueError, as for a key that is not there, while Redis is away."""
        missing = object()
        found = self._call(
            lambda: super(ResilientRedisCache, self).incr(key, delta, version), missing, writes=True
        )
        if found is missing:
            raise ValueError(f"Key '{key}' not found (the cache cannot be reached).")
        return cast(int, found)

    # Writes: dropped (and remembered, so Redis is emptied when it is back).
    def add(self, *args: Any, **kwargs: Any) -> bool:
        return self._call(
            lambda: super(ResilientRedisCache, self).add(*args, **kwargs), False, writes=True
        )

    def set(self, *args: Any, **kwargs: Any) -> None:
        self._call(lambda: super(ResilientRedisCache, self).set(*args, **kwargs), None, writes=True)

    def set_many(self, data: dict[Any, Any], *args: Any, **kwargs: Any) -> list[Any]:
        return self._call(
            lambda: super(ResilientRedisCache, self).set_many(data, *args, **kwargs),
            list(data),
            writes=True,
        )

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        return self._call(
            lambda: super(ResilientRedisCache, self).touch(*args, **kwargs), False, writes=True
        )

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        return self._call(
            lambda: super(ResilientRedisCache, self).delete(*args, **kwargs), False, writes=True
        )

    def delete_many(self, *args: Any, **kwargs: Any) -> None:
        self._call(
            lambda: super(ResilientRedisCache, self).delete_many(*args, **kwargs), None, writes=True
        )

    def clear(self) -> None:
        self._call(lambda: super(ResilientRedisCache, self).clear(), None, writes=True)
