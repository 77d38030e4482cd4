"""Calendar feeds of fixtures: a league's, a division's and a team's (``.ics``).

Calendars that subscribe ask again every few hours: each answer has an ``ETag`` and a
``Last-Modified``, and an unchanged feed is a bodiless ``304`` (``config/conditional.py``).
``HEAD`` answers as ``GET`` without the body; nothing else is allowed."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from config.conditional import revalidated
from leagues.calendar import fixtures_calendar
from leagues.models import Fixture
from leagues.selectors import fixtures as selectors
from leagues.selectors.feeds import feed_fixtures
from leagues.views.common import found


def _feed(
    request: HttpRequest, *, uid: str, name: str, fixtures: QuerySet[Fixture]
) -> HttpResponse:
    base_url = f"{request.scheme}://{request.get_host()}"
    body = fixtures_calendar(uid=uid, name=name, fixtures=fixtures, base_url=base_url)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{slugify(name) or "fixtures"}.ics"'
    return revalidated(request, response)


@require_safe
def league_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    league = found(selectors.league_get, slug=slug)
    return _feed(
        request, uid=f"league-{league.pk}", name=league.name, fixtures=feed_fixtures(league=league)
    )


@require_safe
def division_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    division = found(selectors.division_get, pk=pk)
    name = f"{division.season.league.name}: {division}"
    return _feed(
        request, uid=f"division-{division.pk}", name=name, fixtures=feed_fixtures(division=division)
    )


@require_safe
def team_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    team = found(selectors.team_get, pk=pk)
    name = f"{team.name} ({team.league.name})"
    return _feed(request, uid=f"team-{team.pk}", name=name, fixtures=feed_fixtures(team=team))
