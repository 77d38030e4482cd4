"""The season's fixture grid of a division, made to be printed for the pub noticeboard."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from leagues.selectors import fixtures as selectors
from leagues.selectors.grid import season_grid
from leagues.views.common import found


def division_grid(request: HttpRequest, pk: int) -> HttpResponse:
    division = found(selectors.division_get, pk=pk)
    return render(
        request,
        "leagues/division_grid.html",
        {
            "division": division,
            "season": division.season,
            "league": division.season.league,
            "grid": season_grid(division=division),
        },
    )
