"""Following a league night without a reload: the fixture page and the league night's page
poll a fragment every few seconds (``static/leagues/live.js``), and a poll of an unchanged page
is answered ``304 Not Modified`` from one cache read (``fragments.versions_tag``): the fixture's
poll before any query (on its night its tag runs out at midnight: ``fragments.tag_until``), the
league night's after one (the league, whose time zone says where its night stands by the clock:
``selectors.live.night_clock``). So hundreds of phones watching cost the server next to nothing
between hands. Once there is nothing left to follow (the fixture decided, its night over with
no game in play; no league night now: ``selectors.live.night_now``, by which last night runs on
past midnight while a match of it is in play) the answer in full says so with status 286,
htmx's "stop polling": the page shows it and asks no more.

Without JavaScript the pages are the same, and a reload shows what changed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import parse_etags
from django.views.decorators.http import require_safe

from leagues.fragments import page_fragment_tagged, tag_holds, versions_tag
from leagues.models import Fixture
from leagues.selectors import fixtures as selectors
from leagues.selectors.live import (
    Night,
    NightClock,
    league_night,
    night_clock,
    night_now,
)
from leagues.tables import StandingsTable, fixture_score
from leagues.views.common import found
from leagues.views.public import FOLLOWS, SECRETARY, fixture_fragment

#: The answer to a poll with nothing left to follow: shown, and the page polls no more (as
#: htmx's polling takes it; ``static/leagues/live.js``).
STOP_POLLING = 286


def _held(request: HttpRequest, tag: str) -> str | None:
    """The tag the poller holds, if it is ``tag`` and has not run out (``tag_holds``)."""
    held = request.headers.get("If-None-Match", "")
    return next((t for t in parse_etags(held) if tag_holds(t, tag)), None) if held else None


def _answer(request: HttpRequest, tag: str, html: str, *, follows: bool) -> HttpResponse:
    """The fragment as it stands; with ``follows`` False, the last the page is to ask for."""
    response = HttpResponse(html, status=200 if follows else STOP_POLLING)
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache"  # ask every time: the ETag makes asking cheap
    return response


def _not_modified(tag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def fixture_live(request: HttpRequest, league: int, pk: int) -> HttpResponse:
    """The fixture page's figures and tables as they stand now (what the page polls)."""
    held = _held(request, versions_tag(league_id=league, fixture=pk))
    if held is not None:
        return _not_modified(held.removeprefix("W/"))
    fixture = found(selectors.fixture_get, pk=pk)
    if fixture.division.season.league_id != league:
        raise Http404("No such fixture in this league.")
    fragment, tag = fixture_fragment(request, fixture)
    return _answer(
        request,
        tag,
        fragment.removeprefix(FOLLOWS).replace(SECRETARY, ""),
        follows=fragment.startswith(FOLLOWS),
    )


def _night_fragment(
    request: HttpRequest, night_league: Any, clock: NightClock
) -> tuple[str, str, bool]:
    """The league night's fragment, its tag, and whether there is a night to follow now."""
    now = night_now(league=night_league, clock=clock)

    def context() -> dict[str, Any]:
        night: Night | None = None
        if now.date is not None:
            night = league_night(league=night_league, date=now.date)
        upcoming = None
        if night is None:
            upcoming = (
                Fixture.objects.filter(
                    division__season__league=night_league,
                    date__gt=clock.today,
                    status=Fixture.Status.SCHEDULED,
                )
                .order_by("date")
                .values_list("date", flat=True)
                .first()
            )
        tables = []
        if night is not None:
            tables = [
                (
                    standings.division,
                    StandingsTable(
                        standings.rows,
                        metrics=standings.columns,
                        style=night_league.style,
                        compact=True,
                        prefix=f"n{standings.division.pk}-",
                    ),
                )
                for standings in night.standings
            ]
        return {
            "league": night_league,
            "night": night,
            # "Today's matches" before the evening by the league's clock, "Tonight's" from then.
            "night_word": clock.night_word(now.date) if now.date is not None else "tonight",
            "fixtures": [(f, fixture_score(f)) for f in night.fixtures] if night else [],
            "tables": tables,
            # A total with an adjustment in it is marked: the note under the tables says so.
            "adjusted": night is not None
            and any(row.adjustments for standings in night.standings for row in standings.rows),
            "upcoming": upcoming,
            "over": now.over,
        }

    fragment, tag = page_fragment_tagged(
        request,
        league_id=night_league.pk,
        name=[night_league.pk, clock.key],
        params=(),
        template="leagues/_league_live_body.html",
        context=context,
        live=True,  # every table's games as they stand
        day=clock.key,
    )
    return fragment, tag, now.date is not None


@require_safe
def league_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The league night's page: every fixture of the night with its tables, and the divisions'
    tables as they would stand (provisional)."""
    league = found(selectors.league_get, slug=slug)
    fragment, tag, follows = _night_fragment(request, league, night_clock(league))
    return render(
        request,
        "leagues/league_live.html",
        {
            "league": league,
            "fragment": fragment,
            "live_url": reverse("leagues:league_live_poll", args=[league.pk]),
            "live_tag": tag,
            "every": settings.LIVE_POLL_SECONDS,
            # A league night now (tonight's, or last night's still in play): the page follows
            # its tables.
            "follows": follows,
        },
    )


@require_safe
def league_live_poll(request: HttpRequest, league: int) -> HttpResponse:
    """The league night's page below its heading as it stands now (what the page polls)."""
    found_league = found(selectors.league_get_by_pk, pk=league)
    clock = night_clock(found_league)  # the league's own: in Port of Spain past London's midnight
    held = _held(request, versions_tag(league_id=league, live=True, day=clock.key))
    if held is not None:
        return _not_modified(held.removeprefix("W/"))
    fragment, tag, follows = _night_fragment(request, found_league, clock)
    return _answer(request, tag, fragment, follows=follows)
