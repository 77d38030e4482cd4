"""Leagues asked for while open sign-up is off (``settings.OPEN_SIGNUP``): each waits for the
site's operator, who approves it (the league is created with its asker as first secretary, as
if they had started it themselves) or refuses it with a reason. The operators hear by e-mail
when one is asked for; the asker when it is decided."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from config.inputs import one_spaced
from config.locks import lock_rows
from config.mail import MAIL_ERRORS, absolute, send_templated
from leagues.models import (
    League,
    LeagueRequest,
    league_address,
    league_address_taken,
    league_name_taken,
)
from leagues.permissions import can_approve_leagues
from leagues.services.structure import league_create
from scoring.actors import Account

logger = logging.getLogger(__name__)

#: A request the database refused whose twin the check no longer sees (refused in between).
SAME_INSTANT = "{name} was asked for at the same moment by someone else: try again in a minute."


def _require_operator(by: Account) -> None:
    if not can_approve_leagues(by):
        raise PermissionDenied("Only the site's operator approves new leagues.")


def asked_address(name: str, form_data: dict[str, Any]) -> str:
    """The web address (slug) a request's league would have: the one typed, else its name's
    (``league_address``: refused when the name has nothing to make one from)."""
    typed = form_data.get("slug")
    return league_address(name, typed if isinstance(typed, str) else "")


def _refuse_taken(name: str, slug: str, by: Account) -> None:
    """Refuse a request for a league whose name or web address a league has, or a request
    still waiting (the operator could approve only one of the two; the database holds it for
    two asked at the same instant: ``LeagueRequest``'s constraints)."""
    taken = league_name_taken(name)
    if taken:
        raise ValidationError({"name": taken})
    taken = league_address_taken(slug)
    if taken:
        raise ValidationError({"slug": taken})
    waiting = asked_already(name=name, slug=slug, by=by)
    if waiting:
        raise ValidationError(waiting)


def asked_already(*, name: str, slug: str, by: Account) -> dict[str, str]:
    """Why a league of this name (``one_spaced``) and web address cannot be asked for while a
    request waits with either, by field ("name", "slug"): empty when none does. The new-league
    form says it with its other refusals; the request refuses it as it is stored."""
    for waiting in LeagueRequest.objects.filter(status=LeagueRequest.Status.WAITING):
        if one_spaced(waiting.name).casefold() == name.casefold():
            if waiting.asked_by_id == by.pk:
                return {
                    "name": f"You asked for {waiting.name} already: it waits for the site's "
                    "operator, who will tell you by e-mail."
                }
            return {
                "name": f"{waiting.name} is asked for already and waits for the site's "
                "operator: choose another name (its town or district, say)."
            }
        if waiting.slug == slug:
            if waiting.asked_by_id == by.pk:
                return {
                    "slug": f"You asked for {waiting.name} already, at the web address "
                    f"/leagues/{slug}/: it waits for the site's operator. Choose another "
                    "address for a second league."
                }
            return {
                "slug": f"The web address /leagues/{slug}/ is asked for already, by a league "
                "waiting for the site's operator: choose another (add the town, say)."
            }
    return {}


def _tell_operators(league_request: LeagueRequest) -> None:
    """Mail each of the site's operators (whoever may decide it, with an address) that the
    league waits. A mail that cannot go is logged, not raised: the request stands, and the
    operator sees it waiting on the site (the header's link, My fixtures)."""
    link = absolute(reverse("leagues:league_requests"))
    operators = get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(email="")
    for operator in operators.order_by("pk"):
        try:
            send_templated(
                to=operator.email,
                template="leagues/mail/league_request_waiting",
                context={"request": league_request, "operator": operator, "link": link},
            )
        except MAIL_ERRORS:
            logger.exception("the operator's mail about a league request could not be sent")


@transaction.atomic
def league_request_create(*, name: str, form_data: dict[str, Any], by: Account) -> LeagueRequest:
    """Ask for a league (``form_data``: the league's form as sent, checked again on approval);
    the site's operators are told by e-mail. Refused when a league, or a request still
    waiting, has its name or web address."""
    if not (getattr(by, "is_authenticated", False) and by.is_active):
        raise PermissionDenied("Log in to ask for a league.")
    # One at a time per asker: the same form sent twice at once is asked for once.
    lock_rows(get_user_model().objects.filter(pk=by.pk))
    if LeagueRequest.objects.filter(asked_by=by, status=LeagueRequest.Status.WAITING).count() >= 3:
        raise ValidationError("You have three leagues waiting already: wait for the operator.")
    name = one_spaced(name)
    slug = asked_address(name, form_data)
    _refuse_taken(name, slug, by)
    try:
        with transaction.atomic():
            league_request = LeagueRequest.objects.create(
                name=name, slug=slug, form_data=form_data, asked_by=by
            )
    except IntegrityError:
        # Another asker's request of the name or address was stored as this one was checked:
        # the database waited for theirs, so the check sees it now, and says so.
        _refuse_taken(name, slug, by)
        raise ValidationError({"name": SAME_INSTANT.format(name=name)}) from None
    transaction.on_commit(lambda: _tell_operators(league_request))
    return league_request


def _lock_waiting(league_request: LeagueRequest, by: Account) -> LeagueRequest:
    _require_operator(by)
    lock_rows(LeagueRequest.objects.filter(pk=league_request.pk))
    league_request = LeagueRequest.objects.select_related("asked_by").get(pk=league_request.pk)
    if league_request.status != LeagueRequest.Status.WAITING:
        raise ValidationError(f"{league_request.name} was {league_request.status} already.")
    return league_request


def _tell(league_request: LeagueRequest, **context: Any) -> None:
    if league_request.asked_by.email:
        send_templated(
            to=league_request.asked_by.email,
            template="leagues/mail/league_request",
            context={"request": league_request, **context},
        )


@transaction.atomic
def league_request_approve(
    *, league_request: LeagueRequest, league_kwargs: dict[str, Any], by: Account
) -> League:
    """Start the league asked for (``league_kwargs``: ``league_create``'s arguments from the
    request's form, checked again now) with its asker as first secretary."""
    league_request = _lock_waiting(league_request, by)
    league = league_create(**league_kwargs, by=league_request.asked_by, approved_by=by)
    league_request.status = LeagueRequest.Status.APPROVED
    league_request.league = league
    league_request.decided_by = by
    league_request.decided_at = timezone.now()
    league_request.save()
    _tell(
        league_request,
        link=absolute(reverse("leagues:manage_league", kwargs={"slug": league.slug})),
    )
    return league


@transaction.atomic
def league_request_refuse(
    *, league_request: LeagueRequest, reason: str, by: Account
) -> LeagueRequest:
    """Refuse the request, saying why (the asker is told)."""
    league_request = _lock_waiting(league_request, by)
    if not reason.strip():
        raise ValidationError({"reason": "Say why, for the person who asked."})
    league_request.status = LeagueRequest.Status.REFUSED
    league_request.reason = reason.strip()
    league_request.decided_by = by
    league_request.decided_at = timezone.now()
    league_request.save()
    _tell(league_request)
    return league_request
