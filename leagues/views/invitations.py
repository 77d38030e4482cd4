"""Invitations on real pages: the league's list (resend, withdraw) and the invited person's
page behind the mailed link, where they choose their own username and password or accept with
the account they are logged in with. And the operator's page of leagues asked for while sign-up
is closed."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from config.inputs import strict_id
from config.mail import MAIL_ERRORS
from leagues import forms
from leagues.models import Invitation, LeagueRequest
from leagues.permissions import can_approve_leagues
from leagues.selectors import fixtures as selectors
from leagues.selectors.people import name_people, person_name, person_or_login
from leagues.services import invitations, league_requests
from leagues.views.common import found, post_action, require_manager
from leagues.zones import site_time_zone, zone_words

logger = logging.getLogger(__name__)

#: A page of the league's desk an invitation's buttons may send back to: a path and a query.
SAFE_BACK = re.compile(r"/[\w/.-]*(\?[\w=&.-]*)?", re.ASCII)

NOT_SENT = "The e-mail could not be sent just now, so nothing changed. Try again in a few minutes."


def invitation_sent(form: Any, send: Callable[[], object]) -> bool:
    """Run ``send`` (an invitation service): its refusal, or a mail that did not go, is shown
    on ``form``. Whether the invitation went."""
    try:
        send()
    except ValidationError as exc:
        forms.add_service_error(form, exc, "email")
    except MAIL_ERRORS:
        logger.exception("invitation mail could not be sent")
        form.add_error(None, NOT_SENT)
    else:
        return True
    return False


def _league(request: HttpRequest, slug: str) -> Any:
    league = found(selectors.league_get, slug=slug)
    require_manager(request, league)
    return league


@login_required
@post_action(lambda slug, pk: reverse("leagues:manage_secretaries", args=[slug]))
def invitation_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Resend or withdraw one of the league's invitations; the service refuses whoever does not
    run the league (a 403)."""
    league = found(selectors.league_get, slug=slug)
    invitation = get_object_or_404(Invitation, pk=pk, league=league)
    action = request.POST.get("action")
    try:
        if action == "resend":
            invitations.invitation_resend(invitation=invitation, league=league, by=request.user)
            messages.success(request, f"The invitation went to {invitation.email} again.")
        elif action == "withdraw":
            invitations.invitation_withdraw(invitation=invitation, league=league, by=request.user)
            messages.success(request, f"The invitation to {invitation.email} is withdrawn.")
        else:
            messages.error(request, "Choose resend or withdraw.")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    except MAIL_ERRORS:
        logger.exception("invitation mail could not be sent")
        messages.error(request, NOT_SENT)
    back = request.POST.get("back", "")
    if (
        back.startswith(reverse("leagues:manage_league", args=[league.slug]))
        and SAFE_BACK.fullmatch(back)
        and url_has_allowed_host_and_scheme(back, allowed_hosts=None)
    ):
        # Pressed on a team's or its captain's page: back there, not to the secretaries'.
        return redirect(back)
    return redirect("leagues:manage_secretaries", slug=league.slug)


def _known_name(invitation: Invitation, user: Any) -> str:
    """The name an invitation's form starts with: the captain's, as the secretary entered it;
    else the one the app knows the account by (its name as a player)."""
    if invitation.player is not None:
        return invitation.player.name
    return person_name(user) if user.is_authenticated else ""


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invited person makes their account (name, username, password) and accepts, or
    accepts with the account they are logged in with, giving their name if it has none."""
    try:
        invitation = invitations.invitation_from_token(token)
    except ValidationError as exc:
        return render(
            request, "registration/signup_dead.html", {"why": " ".join(exc.messages)}, status=410
        )
    logged_in = request.user.is_authenticated
    form: forms.AccountNameForm | None = None
    if not logged_in or not request.user.get_full_name():
        form_class = forms.AccountNameForm if logged_in else forms.InvitationAccountForm
        form = form_class(
            request.POST if request.method == "POST" else None,
            initial={"name": _known_name(invitation, request.user)},
        )
    if request.method == "POST" and (form is None or form.is_valid()):
        given = form.cleaned_data if form is not None else {}
        try:
            if logged_in:
                user = invitations.invitation_accept(
                    token=token, user=request.user, name=given.get("name", "")
                )
            else:
                user = invitations.invitation_accept(
                    token=token,
                    name=given["name"],
                    username=given["username"],
                    password=given["password1"],
                )
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except ValidationError as exc:
            if form is None:
                messages.error(request, " ".join(exc.messages))
            else:
                forms.add_service_error(
                    form, exc, None if logged_in else "username", aliases={"password": "password2"}
                )
        else:
            messages.success(request, f"Welcome: you are {invitations.what(invitation)}.")
            if invitation.role == Invitation.Role.CAPTAIN:
                return redirect("leagues:my_fixtures")
            return redirect("leagues:manage_league", slug=invitation.league.slug)
    name_people([invitation.player])
    return render(
        request,
        "registration/invitation.html",
        {"invitation": invitation, "what": invitations.what(invitation), "form": form},
        status=422 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def league_request_list(request: HttpRequest) -> HttpResponse:
    """The operator's page: leagues asked for while sign-up is closed, to approve or refuse."""
    if not can_approve_leagues(request.user):
        raise PermissionDenied("Only the site's operator approves new leagues.")
    if request.method == "POST":
        wanted = get_object_or_404(LeagueRequest, pk=strict_id(request.POST.get("request")) or 0)
        try:
            if request.POST.get("action") == "approve":
                form = forms.LeagueCreateForm(wanted.form_data)
                if not form.is_valid():
                    problems = [
                        f"{form[k].label}: {' '.join(v)}" if k in form.fields else " ".join(v)
                        for k, v in form.errors.items()
                    ]
                    raise ValidationError(
                        f"The league's form no longer holds: {'; '.join(problems)}"
                    )
                league = league_requests.league_request_approve(
                    league_request=wanted, league_kwargs=form.service_kwargs(), by=request.user
                )
                messages.success(
                    request, f"{league} is started; {person_or_login(wanted.asked_by)} is told."
                )
            else:
                league_requests.league_request_refuse(
                    league_request=wanted, reason=request.POST.get("reason", ""), by=request.user
                )
                messages.success(
                    request,
                    f"{wanted.name} is refused; {person_or_login(wanted.asked_by)} is told.",
                )
        except ValidationError as exc:
            messages.error(request, f"{wanted.name}: {' '.join(exc.messages)}")
        except MAIL_ERRORS:
            logger.exception("league request mail could not be sent")
            messages.error(request, NOT_SENT)
        return redirect("leagues:league_requests")
    waiting = list(
        LeagueRequest.objects.filter(status=LeagueRequest.Status.WAITING)
        .select_related("asked_by")
        .order_by("asked_at")
    )
    for item in waiting:
        # What was asked for, in the league form's words: the operator approves knowingly.
        item.asked = forms.LeagueCreateForm(item.form_data).asked()
    return render(
        request,
        "leagues/manage/league_requests.html",
        {
            "waiting": waiting,
            # The site's zone, named as a league's pages name theirs ("London time").
            "zone": zone_words(site_time_zone()),
            "decided": LeagueRequest.objects.exclude(
                status=LeagueRequest.Status.WAITING
            ).select_related("asked_by", "league")[:20],
        },
    )
