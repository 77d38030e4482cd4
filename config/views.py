import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views import defaults

from leagues.selectors.fixtures import league_list
from scoring.rules import PRESETS


def home(request: HttpRequest) -> HttpResponse:
    """The start page: what the app is, and where to go."""
    return render(request, "site/home.html", {"presets": PRESETS, "leagues": list(league_list())})


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which a browser asks for on a page naming no icon (the admin's, a
    JSON answer): the site's icon, where the pages name it."""
    return redirect(static("site/favicon.svg"))


#: What search engines may index: the public league pages, not accounts, secretaries' pages,
#: scoring links and games, e-mail links or the API.
ROBOTS = """User-agent: *
Disallow: /admin/
Disallow: /accounts/
Disallow: /notices/
Disallow: /games/
Disallow: /api/
Disallow: /leagues/*/manage/
Disallow: /leagues/new/
Allow: /
"""


def robots(request: HttpRequest) -> HttpResponse:
    """``/robots.txt``."""
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")


def apple_touch_icon(request: HttpRequest) -> HttpResponse:
    """``/apple-touch-icon.png``, which iOS asks for when a page is added to the home screen
    without naming one."""
    return redirect(static("scoring/offline/apple-touch-icon.png"))


DATABASE_DOWN = (
    "The league's records cannot be reached just now, so this page cannot be shown. "
    "Try again in a minute or two."
)
SCORERS_KEEP_THEIR_HANDS = (
    "Scoring a game? Carry on: a game page opened on your phone before keeps working, keeps "
    "every hand you record on the phone and sends them by itself once the site is back."
)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's last resort for an uncaught exception (``handler500``). The database gone (it
    refuses or drops connections) is not a fault of the page: a 503 in the app's words, made
    without the database (no session, no account, no context processors), and JSON under
    ``/api/``. Any other fault is the plain 500 page."""
    error = sys.exc_info()[1]
    if not isinstance(error, (OperationalError, InterfaceError)):
        return defaults.server_error(request)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": DATABASE_DOWN}, status=503)
    else:
        html = render_to_string(
            "site/unavailable.html", {"message": DATABASE_DOWN, "scorers": SCORERS_KEEP_THEIR_HANDS}
        )
        response = HttpResponse(html, status=503)
    response["Retry-After"] = "60"
    return response
