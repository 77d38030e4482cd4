"""The blank score cards printed before a match (``leagues.selectors.blank_cards``): a
fixture's, and a league night's (the whole league's, or one division's), one card a page.
Whoever can see the fixture's page may print its card: the card shows nothing that page does
not (the pairs where they are seated, never a table's scoring link)."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from config.inputs import strict_id
from leagues.selectors import blank_cards
from leagues.selectors import fixtures as selectors
from leagues.views.common import found


def _site(request: HttpRequest) -> str:
    """The site's address, before the typed score card's path the card prints."""
    return request.build_absolute_uri("/").rstrip("/")


@require_safe
def fixture_blank_card(request: HttpRequest, pk: int) -> HttpResponse:
    """The fixture's blank score card, to print; a walkover or a void fixture has none, nor a
    postponed one until it is re-arranged to a date."""
    card = found(blank_cards.fixture_blank_card, pk=pk)
    fixture = card.fixture
    return render(
        request,
        "leagues/blank_cards.html",
        {
            "league": fixture.division.season.league,
            "fixture": fixture,
            "division": fixture.division,
            "cards": [card] if card.playable else [],
            "site": _site(request),
        },
    )


@require_safe
def night_blank_cards(request: HttpRequest, slug: str, night: str) -> HttpResponse:
    """The blank score cards of every match of the league on the night ``night`` (a date,
    2025-09-09), or of one division's (``?division=``): one card a page."""
    league = found(selectors.league_get, slug=slug)
    try:
        date = datetime.date.fromisoformat(night)
    except ValueError as exc:
        raise Http404("No such night.") from exc
    division = strict_id(request.GET.get("division"))
    divisions = [division] if division else []
    cards = blank_cards.night_blank_cards(league=league, date=date, divisions=divisions)
    before, after = blank_cards.nights_beside(league=league, date=date, divisions=divisions)
    return render(
        request,
        "leagues/blank_cards.html",
        {
            "league": league,
            "night": date,
            # The division the cards are of (the crumbs name it), and its id for the links
            # to other nights.
            "division": cards[0].fixture.division if cards and division else None,
            "division_id": division,
            "cards": cards,
            "before": before,
            "after": after,
            "site": _site(request),
        },
    )
