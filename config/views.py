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
