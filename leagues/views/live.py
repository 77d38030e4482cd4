"""Following a league night without a reload: the fixture page and the league night's page
poll a fragment every few seconds (``static/leagues/live.js``), and a poll of an unchanged page
is answered ``304 Not Modified`` from one cache read (``fragments.versions_tag``): the fixture's
poll before any query, the league night's after one (the league, whose time zone says which
date the night is). So hundreds of phones watching cost the server next to nothing between
hands.

Without JavaScript the pages are the same, and a reload shows what changed."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import parse_etags
from django.views.decorators.http import require_safe

from leagues.fragments import page_fragment_tagged, versions_tag
from leagues.models import Fixture
from leagues.selectors import fixtures as selectors
from leagues.selectors.live import Night, league_night, night_of
from leagues.tables import StandingsTable, fixture_score
from leagues.views.common import found
from leagues.views.public import FOLLOWS, SECRETARY, fixture_fragment

#: How often a page polls, in seconds (the pages say so).
EVERY = 10


def _seen(request: HttpRequest, tag: str) -> bool:
    """Whether the poller holds ``tag`` (GZip makes a sent tag weak: ``W/"..."``)."""
    held = request.headers.get("If-None-Match", "")
    return any(t.removeprefix("W/") == tag for t in parse_etags(held)) if held else False


def _answer(request: HttpRequest, tag: str, html: str) -> HttpResponse:
    response = HttpResponse(html)
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
    tag = versions_tag(league_id=league, fixture=pk)
    if _seen(request, tag):
        return _not_modified(tag)
    fixture = found(selectors.fixture_get, pk=pk)
    if fixture.division.season.league_id != league:
        raise Http404("No such fixture in this league.")
    fragment, tag = fixture_fragment(request, fixture)
    return _answer(request, tag, fragment.removeprefix(FOLLOWS).replace(SECRETARY, ""))


def _night_fragment(request: HttpRequest, night_league: Any, today: Any) -> tuple[str, str]:
    date = night_of(league=night_league, today=today)

    def context() -> dict[str, Any]:
        night: Night | None = None
        if date is not None:
            night = league_night(league=night_league, date=date)
        upcoming = None
        if night is None:
            upcoming = (
                Fixture.objects.filter(
                    division__season__league=night_league,
                    date__gt=today,
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
            "fixtures": [(f, fixture_score(f)) for f in night.fixtures] if night else [],
            "tables": tables,
            "upcoming": upcoming,
        }

    return page_fragment_tagged(
        request,
        league_id=night_league.pk,
        name=[night_league.pk, today.isoformat()],
        params=(),
        template="leagues/_league_live_body.html",
        context=context,
        live=True,  # every table's games as they stand
        day=today.isoformat(),
    )


@require_safe
def league_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The league night's page: every fixture of the night with its tables, and the divisions'
    tables as they would stand (provisional)."""
    league = found(selectors.league_get, slug=slug)
    fragment, tag = _night_fragment(request, league, league.today())
    return render(
        request,
        "leagues/league_live.html",
        {
            "league": league,
            "fragment": fragment,
            "live_url": reverse("leagues:league_live_poll", args=[league.pk]),
            "live_tag": tag,
            "every": EVERY,
        },
    )


@require_safe
def league_live_poll(request: HttpRequest, league: int) -> HttpResponse:
    """The league night's page below its heading as it stands now (what the page polls)."""
    found_league = found(selectors.league_get_by_pk, pk=league)
    today = found_league.today()  # the league's night: in Port of Spain it runs past midnight
    tag = versions_tag(league_id=league, live=True, day=today.isoformat())
    if _seen(request, tag):
        return _not_modified(tag)
    fragment, tag = _night_fragment(request, found_league, today)
    return _answer(request, tag, fragment)
