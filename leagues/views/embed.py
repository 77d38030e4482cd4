"""A division's table, next fixtures and last results for an iframe on a pub's or league's
website: light, no scripts, readable at 300 px. Only the sites the league lists
(``League.embed_sites``) may frame it; every other page of the app keeps ``DENY``."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_exempt

from leagues.models import Fixture
from leagues.selectors import fixtures as selectors
from leagues.selectors.standings import division_for_table, division_standings
from leagues.services.embed import league_embed_sites_update
from leagues.tables import fixture_score
from leagues.views.common import found, require_manager

#: How many fixtures each list shows.
SHOWN = 5


def _framing_origin(request: HttpRequest) -> str | None:
    """The origin of the page framing this one, when the browser says it is in a frame of
    another site (``Sec-Fetch-Dest``, ``Referer``); ``None`` otherwise."""
    if request.headers.get("Sec-Fetch-Dest") not in ("iframe", "frame"):
        return None
    if request.headers.get("Sec-Fetch-Site") == "same-origin":
        return None
    referer = urlsplit(request.headers.get("Referer", ""))
    if not referer.scheme or not referer.netloc:
        return None
    return f"{referer.scheme}://{referer.netloc}".lower()


@xframe_options_exempt
def division_embed(request: HttpRequest, pk: int) -> HttpResponse:
    division = found(division_for_table, pk=pk)
    league = division.season.league
    allowed = league.embed_origins()
    policy = {"frame-ancestors": allowed or ["'none'"], "script-src": ["'none'"]}
    origin = _framing_origin(request)
    if origin is not None and origin not in allowed:
        # The refusal itself may be framed by the site that asked (it holds nothing but the
        # refusal), so the pub's page shows the app's own words, not the browser's grey
        # "refused to connect".
        response = render(
            request,
            "leagues/embed_refused.html",
            {"league": league, "division": division, "origin": origin},
            status=403,
        )
        response._csp_replace = {**policy, "frame-ancestors": [origin]}  # type: ignore[attr-defined]
        return response
    standings = division_standings(division=division)
    today = division.season.league.today()
    # The division's own fixtures, as its fixtures page lists them: not the cup ties filed
    # under it.
    upcoming = selectors.division_fixtures(division=division, statuses=Fixture.TO_PLAY).filter(
        date__gte=today
    )[:SHOWN]
    # Up to today: a walkover given ahead of its night is listed from that night on.
    results = selectors.counted_results(division=division).filter(date__lte=today)[:SHOWN]
    response = render(
        request,
        "leagues/embed.html",
        {
            "league": league,
            "division": division,
            "standings": standings,
            "upcoming": list(upcoming),
            "results": [(fixture, fixture_score(fixture)) for fixture in results],
            "page_url": request.build_absolute_uri(division.get_absolute_url()),
        },
    )
    response._csp_replace = policy  # type: ignore[attr-defined]
    return response


@login_required
def league_embed_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The secretary saves the list of websites (posted from the league's settings page)."""
    league = found(selectors.league_get, slug=slug)
    require_manager(request, league)
    back = reverse("leagues:manage_league_edit", kwargs={"slug": league.slug}) + "#embed"
    if request.method != "POST":
        return redirect(back)
    try:
        league = league_embed_sites_update(
            league=league, sites=request.POST.get("embed_sites", ""), by=request.user
        )
    except ValidationError as exc:
        messages.error(request, f"Not saved: {' '.join(exc.messages)}")
    else:
        sites = ", ".join(league.embed_origins()) or "none: no other website may show them"
        messages.success(request, f"Websites that may show the tables: {sites}.")
    return redirect(back)
