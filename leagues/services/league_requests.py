"""Leagues asked for while open sign-up is off (``settings.OPEN_SIGNUP``): each waits for the
site's operator, who approves it (the league is created with its asker as first secretary, as
if they had started it themselves) or refuses it with a reason. The asker hears by e-mail."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from config.locks import lock_rows
from config.mail import absolute, send_templated
from leagues.models import League, LeagueRequest, league_name_taken
from leagues.permissions import can_approve_leagues
from leagues.services.structure import league_create
from scoring.actors import Account


def _require_operator(by: Account) -> None:
    if not can_approve_leagues(by):
        raise PermissionDenied("Only the site's operator approves new leagues.")


@transaction.atomic
def league_request_create(*, name: str, form_data: dict[str, Any], by: Account) -> LeagueRequest:
    """Ask for a league (``form_data``: the league's form as sent, checked again on approval)."""
    if not (getattr(by, "is_authenticated", False) and by.is_active):
        raise PermissionDenied("Log in to ask for a league.")
    if LeagueRequest.objects.filter(asked_by=by, status=LeagueRequest.Status.WAITING).count() >= 3:
        raise ValidationError("You have three leagues waiting already: wait for the operator.")
    taken = league_name_taken(name)
    if taken:
        raise ValidationError({"name": taken})
    return LeagueRequest.objects.create(name=name.strip(), form_data=form_data, asked_by=by)


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
