"""Conditional GET for what machines poll (the API, the calendar feeds): ``ETag``,
``Last-Modified`` and ``304 Not Modified``, so a poller whose copy is still right downloads
nothing.

The ``ETag`` is a digest of the body: it changes exactly when what is served changes, whatever
changed it (a result, a renamed venue, a new season). ``Last-Modified`` is when this server
first served that body at that URL: kept in the shared cache beside the tag, so every server
gives the same date; a different body gets a new date, always later than the one before (HTTP
dates are whole seconds), so a client holding an older body is never told it is current. With
the cache emptied or away the date is now: pollers download once more, never miss a change.
"""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date

#: How long a URL's (tag, date) is kept: a URL polled less often than this starts a new date.
KEPT_FOR = 60 * 60 * 24 * 7


def now() -> float:
    """Seconds since the epoch (one place, so tests can move the clock)."""
    return time.time()


def body_tag(body: bytes) -> str:
    """A strong ETag for ``body``."""
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def first_served(url: str, tag: str) -> int:
    """When the body tagged ``tag`` was first served at ``url`` (whole seconds), as the shared
    cache remembers it; now when it does not."""
    key = f"conditional:{hashlib.sha256(url.encode()).hexdigest()[:32]}"
    at = int(now())
    stored = cache.get(key)
    if isinstance(stored, tuple) and len(stored) == 2:
        if stored[0] == tag:
            return int(stored[1])
        at = max(at, int(stored[1]) + 1)
    cache.set(key, (tag, at), KEPT_FOR)
    return at


def revalidated(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A successful GET or HEAD ``response`` with its ``ETag`` and ``Last-Modified`` (and
    ``Cache-Control: no-cache``, unless it says otherwise: ask each time, the tag makes asking
    cheap); ``304 Not Modified`` when the request's ``If-None-Match`` or ``If-Modified-Since``
    shows the client holds it already. Anything else is returned as it is."""
    if request.method not in ("GET", "HEAD") or response.status_code != 200 or response.streaming:
        return response
    tag = body_tag(response.content)
    modified = first_served(request.get_full_path(), tag)
    response["ETag"] = tag
    response["Last-Modified"] = http_date(modified)
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = "no-cache"
    return get_conditional_response(request, etag=tag, last_modified=modified, response=response)
