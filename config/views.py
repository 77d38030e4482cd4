from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static

from leagues.selectors.fixtures import league_list
from scoring.rules import PRESETS


def home(request: HttpRequest) -> HttpResponse:
    """The start page: what the app is, and where to go."""
    return render(request, "site/home.html", {"presets": PRESETS, "leagues": list(league_list())})


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which a browser asks for on a page naming no icon (the admin's, a
    JSON answer): the site's icon, where the pages name it."""
    return redirect(static("site/favicon.svg"))
