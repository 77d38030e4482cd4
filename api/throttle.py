"""The API's rate limit: ``API_RATE_LIMIT`` requests a minute from one address (the one
``config/addresses.py`` reads), then ``429 Too Many Requests`` with ``Retry-After`` until the
minute is out.

Requests are counted in the shared cache (Redis, or the database's cache), one counter per
address and minute, incremented atomically, so every server and worker counts together. While
the shared cache cannot be reached each process counts alone in its own memory: the limit is
looser for a while, and nothing fails.
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from config.addresses import client_address

#: The process's own counters, while the shared cache is away.
_local = LocMemCache("api-rate", {"OPTIONS": {"MAX_ENTRIES": 10000}})


def now() -> float:
    """Seconds since the epoch (one place, so tests can move the clock)."""
    return time.time()


def _hits(key: str, window: int) -> int:
    """This request counted under ``key``: how many there have been in the window."""
    try:
        cache.add(key, 0, window + 1)
        return int(cache.incr(key))
    except ValueError:  # not there: the shared cache cannot be reached (or it was emptied now)
        _local.add(key, 0, window + 1)
        return int(_local.incr(key))


class AddressRate(BaseThrottle):
    """Ninja's throttle hook, counting per address and fixed window (module doc)."""

    def __init__(self) -> None:
        self._wait = threading.local()  # one throttle serves every thread's requests

    def allow_request(self, request: HttpRequest) -> bool:
        limit, window = settings.API_RATE_LIMIT, settings.API_RATE_WINDOW
        if limit <= 0:
            return True
        at = now()
        slot = int(at // window)
        self._wait.seconds = (slot + 1) * window - at
        address = client_address(request) or "unknown"
        return _hits(f"api-rate:{address}:{slot}", window) <= limit

    def wait(self) -> float | None:
        return float(getattr(self._wait, "seconds", settings.API_RATE_WINDOW))
