"""Cached fragments of the public league pages, never stale.

A league page's expensive part (a standings table with its race and chart, a week of
fixtures, a team's season) changes only when something of its league changes: a result, a
fixture moved, an adjustment, a team renamed. Each fragment is stored in Django's cache
(``settings.CACHES``: the database, or Redis) beside the **version** of its league that it was
rendered from; every league write bumps that version (``invalidate_league``: ``audit_log``
calls it for every audited change, and the result services for every result they store), so a
fragment of an older version is never served again. A change saved in Django's admin
bypasses the services: it bumps the version every fragment carries (``invalidate_all``).

The version is bumped at once and again when the writing transaction commits, so a page
rendered from the data before the commit, and stored under the version bumped at once (Redis
is outside the transaction), is not served either. The database cache needs no second bump:
its version is a row written inside the writing transaction, seen by every other request at
the moment the change is, and rolled back with it.

A hand in a game still in progress at a fixture's table changes no result: it bumps only the
league's **live** version and that fixture's (``invalidate_live``), which only the pages that
show games as they stand check (the league night's, that fixture's, and the players'), so on a
league night, hands coming in from every table, the tables, fixture lists, team pages, the
league's home and the other fixtures' pages stay cached. ``versions_tag`` turns the versions a
fragment depends on into an ETag, so that a poll of an unchanged page is answered ``304 Not
Modified`` from one cache read. A fragment that changes with the date, polled without a query
to learn the date (a fixture's page on its night), carries in its tag the instant it runs out
(``tag_until``).

Only requests whose query string holds nothing but the page's own parameters are cached (any
other parameter would be echoed into links), and a page that depends on today's date puts the
date in its key.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from config.release import release

ALL = "fragments:version:all"
PARAM = re.compile(r"^[-\w:.]{0,60}$")


PLAYERS = 0
"""The pseudo-league of the player pages: a player's page reads every league they played in,
so every league's change bumps it too."""


def _league_key(league_id: int) -> str:
    return f"fragments:version:league:{league_id}"


def _live_key(league_id: int) -> str:
    return f"fragments:version:live:{league_id}"


def _fixture_live_key(fixture_id: int) -> str:
    return f"fragments:version:fixture-live:{fixture_id}"


def _bump(*keys: str) -> None:
    """New versions for ``keys``, in one write (one round trip to Redis)."""
    cache.set_many({key: uuid.uuid4().hex for key in keys}, None)


def _bump_now_and_at_commit(*keys: str) -> None:
    """Bump at once, and again at commit unless the cache is the database's (module doc) or
    there is no transaction to commit (a commit hook would run at once: a second round trip
    to Redis for the same)."""
    _bump(*keys)
    if (
        not isinstance(caches["default"], DatabaseCache)
        and transaction.get_connection().in_atomic_block
    ):
        transaction.on_commit(lambda: _bump(*keys))


def invalidate_league(league_id: int) -> None:
    """Every cached fragment of the league is out of date from now on."""
    _bump_now_and_at_commit(_league_key(league_id), _league_key(PLAYERS))


def invalidate_live(league_id: int, fixture_id: int | None = None) -> None:
    """A game in progress at one of the league's tables changed: the fragments that show games
    as they stand (``live=True``: the league night's page; ``fixture=``: that fixture's page)
    and the player pages are out of date from now on; the league's others are not, nor the
    pages of the league's other fixtures."""
    keys = [_live_key(league_id), _league_key(PLAYERS)]
    if fixture_id is not None:
        keys.append(_fixture_live_key(fixture_id))
    _bump_now_and_at_commit(*keys)


def invalidate_all() -> None:
    """Every cached fragment of every league is out of date (a change made in the admin)."""
    _bump_now_and_at_commit(ALL)


def _version(key: str) -> str:
    """The current version, made when there is none (first use, or evicted)."""
    cache.add(key, uuid.uuid4().hex, None)
    return str(cache.get(key) or uuid.uuid4().hex)


def request_params(request: HttpRequest, allowed: Iterable[str]) -> list[str] | None:
    """The page's parameters as key parts, or None when the request must not be cached
    (another parameter, a repeated one, or a value that is not a plain word or date)."""
    allowed = tuple(allowed)
    parts = []
    for name in request.GET:
        values = request.GET.getlist(name)
        if name not in allowed or len(values) != 1 or not PARAM.match(values[0]):
            return None
    for name in allowed:
        parts.append(f"{name}={request.GET.get(name, '')}")
    return parts


def _version_keys(league_id: int, *, live: bool, fixture: int | None) -> list[str]:
    """What a fragment depends on: its league, every league (the admin), and with ``live``
    the games in progress at the league's tables, or with ``fixture`` at that fixture's."""
    keys = [_league_key(league_id), ALL]
    if live:
        keys.append(_live_key(league_id))
    if fixture is not None:
        keys.append(_fixture_live_key(fixture))
    return keys


def _tag(league_id: int, fixture: int | None, day: str, versions: Iterable[Any]) -> str:
    digest = hashlib.sha256(
        ":".join([release(), str(league_id), str(fixture), day, *map(str, versions)]).encode()
    )
    return f'"{digest.hexdigest()[:32]}"'


def versions_tag(
    *, league_id: int, live: bool = False, fixture: int | None = None, day: str = ""
) -> str:
    """A strong ETag for what a fragment of these versions (and of ``day``, for a page that
    depends on the date) shows, from one cache read: a poll whose ``If-None-Match`` holds it
    has seen every change there is to see."""
    keys = _version_keys(league_id, live=live, fixture=fixture)
    found = cache.get_many(keys)
    return _tag(league_id, fixture, day, [found.get(key) or _version(key) for key in keys])


#: Between a tag and the instant it runs out (``tag_until``).
UNTIL = "-until-"


def tag_until(tag: str, until: datetime.datetime | None) -> str:
    """``tag`` (``versions_tag``'s) good only until ``until``: a fragment that changes with the
    date, on a page polled without a query (none to learn which date it is where its league
    plays), runs out at the instant it changes, and the next poll is answered in full."""
    if until is None:
        return tag
    return f'{tag[:-1]}{UNTIL}{int(until.timestamp())}"'


def tag_holds(held: str, tag: str) -> bool:
    """Whether a poller's ``held`` tag (GZip makes a sent tag weak: ``W/"..."``) is ``tag``
    (``versions_tag``'s), and its end (``tag_until``), if it has one, has not come."""
    held = held.removeprefix("W/")
    if held == tag:
        return True
    digest, until, end = held.partition(UNTIL)
    end = end.removesuffix('"')
    return (
        bool(until)
        and f'{digest}"' == tag
        and end.isdigit()
        and timezone.now().timestamp() < int(end)
    )


def cached_fragment_tagged(
    *,
    league_id: int,
    parts: Iterable[Any] | None,
    render: Callable[[], str],
    live: bool = False,
    fixture: int | None = None,
    day: str = "",
) -> tuple[SafeString, str]:
    """The fragment named by ``parts`` for the league's current version (and its live version
    too with ``live``: the fragment shows the league's games in progress; or that fixture's
    with ``fixture``): from the cache, or rendered by ``render()`` and stored; and its
    ``versions_tag`` (of the versions read with it: no second read). ``parts`` None: rendered
    and not stored."""
    if parts is None:
        tag = versions_tag(league_id=league_id, live=live, fixture=fixture, day=day)
        return mark_safe(render()), tag
    name = ":".join(str(part) for part in parts)
    # Under the code's release: a fragment an older release rendered is never served.
    key = f"fragments:{release()}:{league_id}:{hashlib.sha256(name.encode()).hexdigest()[:32]}"
    version_keys = _version_keys(league_id, live=live, fixture=fixture)
    found = cache.get_many([*version_keys, key])
    stored = found.get(key)
    versions = tuple(found.get(version_key) for version_key in version_keys)
    if None not in versions and stored is not None and tuple(stored[:-1]) == versions:
        return mark_safe(stored[-1]), _tag(league_id, fixture, day, versions)
    versions = tuple(
        _version(version_key) if version is None else version
        for version_key, version in zip(version_keys, versions, strict=True)
    )
    html = str(render())
    cache.set(key, (*versions, html), settings.FRAGMENT_CACHE_SECONDS)
    return mark_safe(html), _tag(league_id, fixture, day, versions)


def cached_fragment(
    *,
    league_id: int,
    parts: Iterable[Any] | None,
    render: Callable[[], str],
    live: bool = False,
) -> SafeString:
    """``cached_fragment_tagged``'s fragment alone."""
    if parts is None:
        return mark_safe(render())
    return cached_fragment_tagged(league_id=league_id, parts=parts, render=render, live=live)[0]


def page_fragment(
    request: HttpRequest,
    *,
    league_id: int,
    name: Iterable[Any],
    params: Iterable[str],
    template: str,
    context: Callable[[], dict[str, Any]],
    live: bool = False,
) -> SafeString:
    """A function view's cached fragment: ``template`` rendered with ``context()`` on a miss;
    cached per ``name`` and the request's ``params`` (not cached with any other parameter).
    ``live``: it shows the league's games in progress (``cached_fragment_tagged``)."""
    parts, render = _page(request, name=name, params=params, template=template, context=context)
    return cached_fragment(league_id=league_id, parts=parts, render=render, live=live)


def _page(
    request: HttpRequest,
    *,
    name: Iterable[Any],
    params: Iterable[str],
    template: str,
    context: Callable[[], dict[str, Any]],
) -> tuple[list[Any] | None, Callable[[], str]]:
    """A page fragment's key parts (None: not cached) and how it is rendered."""
    found = request_params(request, params)

    def render() -> str:
        return render_to_string(template, context(), request=request)

    return (None if found is None else [template, *name, *found]), render


def page_fragment_tagged(
    request: HttpRequest,
    *,
    league_id: int,
    name: Iterable[Any],
    params: Iterable[str],
    template: str,
    context: Callable[[], dict[str, Any]],
    live: bool = False,
    fixture: int | None = None,
    day: str = "",
) -> tuple[SafeString, str]:
    """``page_fragment`` with its ETag (``cached_fragment_tagged``), for a page that is polled."""
    parts, render = _page(request, name=name, params=params, template=template, context=context)
    return cached_fragment_tagged(
        league_id=league_id, parts=parts, render=render, live=live, fixture=fixture, day=day
    )
