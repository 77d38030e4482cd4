"""What the leagues views share: 404s from selectors and the secretary check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.http import Http404, HttpRequest

from leagues.models import League
from leagues.permissions import can_manage_league

T = TypeVar("T")


def found(selector: Callable[..., T], **kwargs: Any) -> T:
    """The selector's object, or a 404 when it does not exist."""
    try:
        return selector(**kwargs)
    except ObjectDoesNotExist as exc:
        raise Http404(str(exc)) from exc


def require_manager(request: HttpRequest, league: League) -> None:
    """403 unless the user may run ``league`` (see ``leagues.permissions``)."""
    if not can_manage_league(request.user, league):
        raise PermissionDenied(f"Only the secretaries of {league} can do that.")


def user_or_none(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None
