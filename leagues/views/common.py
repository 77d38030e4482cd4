"""What the leagues views share: 404s from selectors, the secretary check, who acts at a
fixture, a team chooser's options."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.utils.safestring import SafeString

from leagues.models import Fixture, League, Season
from leagues.permissions import (
    can_manage_league,
    captained_sides,
    fixture_links,
    fixture_role,
    role_alone,
)
from leagues.selectors.people import acted_words
from scoring.actors import Actor
from scoring.models import ScoringLink

T = TypeVar("T")

#: The players' figures, empty: they count the tables whose players are known, and a score
#: card may name none ("No games finished yet." stood under a team with its first night's
#: cards counted).
NO_PLAYER_FIGURES = (
    "No games whose players are known yet: a score card that names no pairs has no players "
    "to count."
)


def found(selector: Callable[..., T], **kwargs: Any) -> T:
    """The selector's object, or a 404 when it does not exist."""
    try:
        return selector(**kwargs)
    except ObjectDoesNotExist as exc:
        raise Http404(str(exc)) from exc


def team_options(teams: Iterable[tuple[int, str]], *, chosen: int | None) -> SafeString:
    """A team chooser's ``<option>`` a team (its id and name), the chosen one selected: written
    here, not by a template loop of five lookups a team (a chooser of 100 teams is 500)."""
    return SafeString(
        "".join(
            f'<option value="{int(pk)}"{" selected" if pk == chosen else ""}>'
            f"{html.escape(name)}</option>"
            for pk, name in teams
        )
    )


def season_asked(request: HttpRequest, league: League) -> tuple[list[Season], Season | None]:
    """The league's seasons, newest first, and the one a secretary's team page shows: the one
    asked for (``?season=``, or the form's), else the league's season on its date
    (``seasons_now``: the season in play, not one made ahead of its start)."""
    from leagues.selectors.fixtures import seasons_now

    seasons = list(league.seasons.order_by("-starts_on"))
    wanted = request.GET.get("season") or request.POST.get("season") or ""
    asked = next((season for season in seasons if str(season.pk) == wanted), None)
    if asked is None and seasons:
        asked = seasons_now(seasons, today=league.today()).current or seasons[0]
    return seasons, asked


def require_manager(request: HttpRequest, league: League) -> None:
    """403 unless the user may run ``league`` (see ``leagues.permissions``)."""
    if not can_manage_league(request.user, league):
        raise PermissionDenied(f"Only the secretaries of {league} can do that.")


def acted_by(viewer: Any, fixture: Any, account: Any) -> str:
    """Who acted on ``fixture``'s result as ``viewer`` reads it (``acted_by_words``)."""
    return acted_by_words(viewer, fixture)(account)


def acted_by_words(viewer: Any, fixture: Any) -> Callable[[Any], str]:
    """Who acted on ``fixture``'s result, as ``viewer`` reads each: to the people who agree it
    (the league's secretaries, the two teams' captains) the person as the app names them and
    their role (``acted_words``), "Roy Stead (captain of Reds)", the same for all of them; to
    anyone else the role alone, "captain of Reds" (a person's name is theirs to give, not the
    public's to read). Whether the viewer reads names is asked once."""
    named = can_manage_league(viewer, fixture.division.season.league) or bool(
        captained_sides(viewer, fixture)
    )

    def who(account: Any) -> str:
        role = fixture_role(account, fixture)
        return acted_words(account, role) if named else role_alone(role)

    return who


def fixture_actor(request: HttpRequest, fixture: Fixture) -> Actor:
    """Who acts on ``fixture``'s result from this request: the signed-in account, through one of
    the fixture's live scoring links when this browser has opened it (the link the audit names,
    and a scorer with no account may submit through). Nothing read for a browser holding no
    link."""
    actor = Actor.of_request(request)
    held = actor.links & fixture_links(fixture) if actor.links else set()
    return actor.through(ScoringLink.objects.filter(pk__in=held).first() if held else None)


def user_or_none(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def post_action(back: Callable[..., str]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An action's address (a button's form posts to it): a POST does the action; a GET (a
    link followed, a page reloaded after the action, an address typed) is sent to the page the
    action is on, ``back(**url_kwargs)``, which checks who may see it, instead of a bare 405."""

    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def action(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method == "POST":
                return view(request, *args, **kwargs)
            if request.method in ("GET", "HEAD"):
                return redirect(back(**kwargs))
            return HttpResponseNotAllowed(["GET", "POST"])

        return action

    return decorator
