"""Accounts on real pages: a league's secretaries (and invitations to become one), each
season's captain's account (an invitation to accept with one, or unlinking it), and the
captain's own "My fixtures". The services check who may do it and write the audit trail."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from config.inputs import strict_id
from leagues import forms
from leagues.models import Team
from leagues.selectors import accounts as account_selectors
from leagues.selectors import fixtures as selectors
from leagues.selectors.blank_cards import card_to_print
from leagues.selectors.people import name_people, person_or_login
from leagues.services import accounts, cards, confirmation, invitations, seating
from leagues.tables import fixture_score
from leagues.views.common import found, require_manager, season_asked
from leagues.views.invitations import invitation_sent
from notices.notices import email_address


def _league(request: HttpRequest, slug: str) -> Any:
    league = found(selectors.league_get, slug=slug)
    require_manager(request, league)
    return league


@login_required
@require_http_methods(["GET", "POST"])
def secretaries(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's secretaries: invite one by e-mail (they are one once they accept), remove
    one; the invitations waiting for an answer (to withdraw or send again), then the others."""
    league = _league(request, slug)
    action = request.POST.get("action") if request.method == "POST" else None
    invite = forms.InviteForm(request.POST if action == "invite" else None, prefix="invite")
    if action == "remove":
        wanted = request.POST.get("user", "")
        user = get_object_or_404(get_user_model(), pk=strict_id(wanted) or 0)
        try:
            accounts.secretary_remove(league=league, user=user, by=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, f"{person_or_login(user)} is no longer a secretary.")
            if user.pk == request.user.pk:
                return redirect(league)
        return redirect("leagues:manage_secretaries", slug=league.slug)
    if action == "invite" and invite.is_valid():
        email = invite.cleaned_data["email"]
        if invitation_sent(
            invite,
            lambda: invitations.secretary_invite(league=league, email=email, by=request.user),
        ):
            messages.success(
                request, f"An invitation went to {email}: once accepted, they are a secretary."
            )
            return redirect("leagues:manage_secretaries", slug=league.slug)
    status = 422 if action == "invite" else 200
    waiting, earlier = account_selectors.league_invitations(league=league)
    return render(
        request,
        "leagues/manage/secretaries.html",
        {
            "league": league,
            "secretaries": account_selectors.league_secretaries(league=league),
            "invite": invite,
            "invitation_days": settings.INVITATION_DAYS,
            "waiting": waiting,
            "invitations": earlier,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def captain_account(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The season's captain's account: invite the captain by e-mail (the account they accept
    with is the captain's), or unlink the account they have. No account is made the captain's
    without its owner saying yes."""
    league = _league(request, slug)
    team = get_object_or_404(Team, pk=pk, league=league)
    seasons, season = season_asked(request, league)
    entry = (
        team.entries.filter(season=season).select_related("season", "captain__user").first()
        if season
        else None
    )
    back = f"{reverse('leagues:manage_team', args=[league.slug, team.pk])}"
    here = f"{reverse('leagues:manage_captain_account', args=[league.slug, team.pk])}"
    action = request.POST.get("action") if request.method == "POST" else None
    captain = entry.captain if entry else None
    sent = (
        account_selectors.captain_invitations(team=team, captain=captain)
        if captain is not None
        else []
    )
    # The invitation still unanswered (one a captain: inviting at another address withdraws
    # it), shown first with Send again and Withdraw; a new address is the second choice.
    unanswered = [i for i in sent if i.is_unanswered]
    pending = unanswered[0] if unanswered and captain and captain.user_id is None else None
    # The captain's contact, where it is an e-mail address, is where the invitation would go
    # (not where the one pending went already).
    contact = email_address(entry.captain_contact) if entry else ""
    if pending is not None and contact.lower() == pending.email.lower():
        contact = ""
    invite = forms.InviteForm(
        request.POST if action == "invite" else None,
        prefix="invite",
        initial={"email": contact} if contact else None,
    )
    if entry is not None and action == "invite":
        if invite.is_valid():
            email = invite.cleaned_data["email"]
            if invitation_sent(
                invite,
                lambda: invitations.captain_invite(entry=entry, email=email, by=request.user),
            ):
                messages.success(request, f"An invitation went to {email}.")
                return redirect(f"{here}?season={season.pk}")
    elif entry is not None and action:
        if action == "unlink":
            try:
                accounts.captain_account_unlink(entry=entry, by=request.user)
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            else:
                messages.success(request, "The captain no longer has an account.")
        else:  # "link" from a page opened while an account was linked by its username
            messages.error(
                request,
                "An account is the captain's only once they accept an invitation: invite them "
                "by e-mail.",
            )
        return redirect(f"{here}?season={season.pk}")
    status = 422 if action == "invite" else 200
    name_people([captain, *(invitation.player for invitation in sent)])
    return render(
        request,
        "leagues/manage/captain_account.html",
        {
            "league": league,
            "team": team,
            "season": season,
            "seasons": seasons,
            "entry": entry,
            "captain": captain,
            "invite": invite,
            "pending": pending,
            "pending_list": [pending] if pending else [],
            "invitations": [invitation for invitation in sent if invitation != pending],
            # Resend or withdraw one of them comes back here, not to the secretaries' page.
            "invitations_back": f"{here}?season={season.pk}" if season else here,
            "back": f"{back}?season={season.pk}" if season else back,
        },
        status=status,
    )


@login_required
def my_fixtures(request: HttpRequest) -> HttpResponse:
    """The fixtures of the teams this account captains this season, with the step it can take
    on each: submit the result, confirm or dispute the other side's; the cup pairs ties of the
    pairs it plays in (or captains the team of), to agree or dispute their results (those
    waiting for it listed with the fixtures waiting for it, first on the page); and the
    leagues it is a secretary of, each a tap from its desk; the leagues it asked for (waiting
    for the site's operator, or lately decided). Where logging in lands (the operator's count of
    leagues waiting is on every page: ``base.html``)."""
    from cups.selectors import my_ties

    fixtures = account_selectors.captain_fixtures(user=request.user)
    ties = my_ties(user=request.user)
    # Whether its score card is offered, by the rule the fixture's other pages ask: a card to
    # enter waits for the captain, as a result to confirm does.
    cards_due = {
        row.fixture.pk
        for row in fixtures
        if cards.card_offered(request.user, row.fixture, row.submission)
    }

    # Its night (seating, QR codes) where it is useful: the next night's, or one passed and
    # not yet played.
    nights = account_selectors.nights_to_seat(
        fixtures,
        open_nights={row.fixture.pk for row in fixtures if seating.night_open(row.fixture)},
    )

    def listed(row: Any) -> tuple[Any, str, bool, bool, bool]:
        """A fixture with its score as the lists give it (a captain confirms what they can
        see), whether its night (seating, QR codes) is offered, its card to enter and its
        blank card to print; a cup tie as it is."""
        if not isinstance(row, account_selectors.CaptainFixture):
            return row, "", False, False, False
        fixture = row.fixture
        return (
            row,
            fixture_score(fixture, marked=False),
            fixture.pk in nights,
            fixture.pk in cards_due,
            card_to_print(fixture, fixture.division.season.league.today()),
        )

    # Its disputed result is this captain's to take back (they submitted it, or the table did
    # and they captain the home side), by the rule the result page asks: it waits for them.
    taking_back = {
        row.fixture.pk
        for row in fixtures
        if row.submission is not None
        and confirmation.can_take_back(submission=row.submission, by=request.user, sides=row.sides)
    }
    sections = [
        (section, [listed(row) for row in section.rows])
        for section in account_selectors.captain_sections(
            fixtures, cards_due=cards_due, taking_back=taking_back, ties=ties
        )
    ]
    run = account_selectors.leagues_run_by(user=request.user)
    return render(
        request,
        "leagues/my_fixtures.html",
        {
            "captain": bool(fixtures),
            "sections": sections,
            # The cup ties not waiting for this account (those are in "Waiting for you").
            "ties": [tie for tie in ties if not tie.waits_for_you],
            "taking_back": taking_back,
            # Of those, the results from the score card, put right on it; the phones' games
            # stay as scored, and the result is submitted again (``take_back_words``).
            # A result to confirm names the bonus its score includes, as its result page does.
            "bonus_words": cards.AGGREGATE_BONUS,
            "typed_cards": {
                row.fixture.pk
                for row in fixtures
                if row.fixture.pk in taking_back and selectors.from_card(row.fixture.tables.all())
            },
            "leagues_run": run,
            "league_requests": account_selectors.league_requests_of(user=request.user),
        },
    )
