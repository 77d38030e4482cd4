from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from leagues.selectors.fixtures import league_list
from scoring.rules import PRESETS


def home(request: HttpRequest) -> HttpResponse:
    """The start page: what the app is, and where to go."""
    return render(request, "site/home.html", {"presets": PRESETS, "leagues": list(league_list())})
