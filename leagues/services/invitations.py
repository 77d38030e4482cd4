"""Invitations: a secretary asks someone by e-mail to become a secretary of the league, or to
log in as a team's captain. The mail's link lets them set their own password (or accept with an
account they have); the secretary never types a password for someone else. Accepting is the
only way a secretary is added, or an account made a captain's (besides whoever starts a league,
and the site's operator in the admin): no one is made a secretary, or given a team's rights to
submit and confirm its results, without saying yes, and until they do they have none.

A link is signed and names the invitation and its current ``nonce``: resending gives a new
nonce and a new expiry, so only the newest link works; withdrawing, accepting or expiry end it.
An address has one unanswered invitation to a role (the database holds it): inviting it again
is refused, naming the one waiting, to send again from the list. Every step is in the league's
audit trail; a mail that cannot be sent changes nothing.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from config.locks import lock_rows
from config.mail import absolute, send_templated
from leagues import zones
from leagues.audit import audit_log
from leagues.days import long_date
from leagues.models import (
    INVITATION_UNANSWERED,
    AuditEntry,
    Invitation,
    League,
    Player,
    TeamEntry,
)
from leagues.permissions import player_is_free, require_secretary
from leagues.selectors.people import name_people, person_or_login
from leagues.services.accounts import (
    account_rename,
    account_state,
    new_account,
    secretary_names,
)
from scoring.actors import Account

_SALT = "leagues.invitation"

#: An invitation refused by the database whose twin the check no longer finds (it was answered
#: in between).
SAME_MOMENT = "An invitation to {} was sent at the same moment: see the list of invitations."


def invitation_token(invitation: Invitation) -> str:
    """The signed token of the invitation's current link: what ``invitation_accept`` takes."""
    return signing.dumps({"i": invitation.pk, "n": invitation.nonce}, salt=_SALT)


def invitation_link(invitation: Invitation) -> str:
    """The full address of the invitation's current link (what its mail carries)."""
    return absolute(reverse("invitation_accept", kwargs={"token": invitation_token(invitation)}))


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link names; ``ValidationError`` saying why when it no longer works."""
    try:
        data = signing.loads(token, salt=_SALT)
        invitation = Invitation.objects.select_related("league", "player", "team").get(
            pk=int(data["i"])
        )
    except (signing.BadSignature, Invitation.DoesNotExist, KeyError, TypeError, ValueError):
        raise ValidationError(
            "This invitation link is not one of ours: check the address."
        ) from None
    if invitation.nonce != data.get("n"):
        raise ValidationError("A newer invitation was sent since: use the link in the newest mail.")
    if invitation.withdrawn_at is not None:
        raise ValidationError(f"The secretary of {invitation.league} withdrew this invitation.")
    if invitation.accepted_at is not None:
        raise ValidationError("This invitation was accepted already: log in.")
    if invitation.expires_at <= timezone.now():
        expired = zones.date_in(invitation.expires_at, invitation.league.time_zone)
        raise ValidationError(
            f"This invitation expired on {long_date(expired)}: "
            f"ask the secretary of {invitation.league} to send it again."
        )
    return invitation


def _state(invitation: Invitation) -> dict[str, Any]:
    return {
        "invitation": invitation.pk,
        "role": invitation.role,
        "email": invitation.email,
        "player": invitation.player_id,
        "team": invitation.team_id,
        "expires_at": invitation.expires_at.isoformat(),
    }


def what(invitation: Invitation) -> str:
    if invitation.role == Invitation.Role.CAPTAIN:
        return f"captain of {invitation.team} in {invitation.league}"
    return f"a secretary of {invitation.league}"


def _send(invitation: Invitation, *, mail: bool = True) -> None:
    invitation.nonce = secrets.token_hex(16)
    invitation.sent_at = timezone.now()
    invitation.expires_at = invitation.sent_at + datetime.timedelta(days=settings.INVITATION_DAYS)
    invitation.save()
    if mail:
        invitation_mail(invitation)


def _others_unanswered(invitation: Invitation) -> QuerySet[Invitation]:
    """The other unanswered invitations to what ``invitation`` invites to: to be a secretary of
    its league, or its team's captain (that player), at any address."""
    return Invitation.objects.filter(
        INVITATION_UNANSWERED,
        league=invitation.league_id,
        role=invitation.role,
        team=invitation.team_id,
        player=invitation.player_id,
    ).exclude(pk=invitation.pk)


def _alike(invitation: Invitation) -> Invitation | None:
    """The unanswered invitation the same as ``invitation`` but for its link: to its address
    (case aside), to be a secretary of its league or its team's captain (that player)."""
    return (
        _others_unanswered(invitation)
        .filter(email__iexact=invitation.email)
        .select_related("league")
        .first()
    )


def _waiting_words(waiting: Invitation) -> str:
    zone = waiting.league.time_zone
    sent = long_date(zones.date_in(waiting.sent_at, zone))
    if waiting.expires_at <= timezone.now():
        expired = long_date(zones.date_in(waiting.expires_at, zone))
        return (
            f"The invitation to {waiting.email} sent {sent} expired on {expired}: send it again "
            "from the list, with a new link."
        )
    return (
        f"An invitation to {waiting.email} is already waiting (sent {sent}): send it again from "
        "the list."
    )


def _send_new(invitation: Invitation, *, mail: bool) -> None:
    """Store and send a new invitation, refused while one alike is unanswered: its link (in
    the person's inbox) keeps working, and the secretary sends that one again if need be. A
    second invitation would be a second link that works, and a double tap on Send would send
    it; sending the first again unasked would kill the link the person may be opening."""
    waiting = _alike(invitation)
    if waiting is not None:
        raise ValidationError({"email": _waiting_words(waiting)})
    try:
        with transaction.atomic():
            _send(invitation, mail=False)
    except IntegrityError:
        # One alike was stored as this one was checked (the database holds one: the lock each
        # caller takes is its own entry's, and a captain has one a season): it has committed
        # by now, so it is there to name.
        waiting = _alike(invitation)
        raise ValidationError(
            {"email": _waiting_words(waiting) if waiting else SAME_MOMENT.format(invitation.email)}
        ) from None
    if mail:
        invitation_mail(invitation)


def inviter_words(invitation: Invitation) -> str:
    """Who invites, as the mail names them: the person as the app names them ("Maureen
    Kaye"), an account that has given no name its username, else "The secretary"."""
    by = invitation.invited_by
    if by is None:
        return "The secretary"
    return person_or_login(by)


def invitation_mail(invitation: Invitation) -> None:
    """Mail the invitation's current link (raises one of ``config.mail.MAIL_ERRORS``)."""
    send_templated(
        to=invitation.email,
        template="leagues/mail/invitation",
        context={
            "invitation": invitation,
            "inviter": inviter_words(invitation),
            "what": what(invitation),
            "link": invitation_link(invitation),
            "days": settings.INVITATION_DAYS,
        },
    )


def _clean_email(email: str) -> str:
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ValidationError({"email": "Give the e-mail address the invitation goes to."}) from exc
    return email


@transaction.atomic
def secretary_invite(*, league: League, email: str, by: Account) -> Invitation:
    """Invite ``email`` to become a secretary of ``league``; the mail goes now."""
    lock_rows(League.objects.filter(pk=league.pk))
    require_secretary(by, league)
    email = _clean_email(email)
    if league.secretaries.filter(email__iexact=email).exists():
        raise ValidationError({"email": f"{email} is already a secretary's address."})
    invitation = Invitation(league=league, role=Invitation.Role.SECRETARY, email=email)
    invitation.invited_by = by
    _send_new(invitation, mail=True)
    audit_log(
        league=league,
        action=AuditEntry.Action.INVITATION_SENT,
        subject=f"{email} invited to be a secretary",
        after=_state(invitation),
        by=by,
    )
    return invitation


@transaction.atomic
def captain_invite(*, entry: TeamEntry, email: str, by: Account, send: bool = True) -> Invitation:
    """Invite the season's captain of ``entry`` to log in with their own account (``send``
    False: the caller mails it with ``invitation_mail`` once its own transaction is done)."""
    lock_rows(TeamEntry.objects.filter(pk=entry.pk))
    entry = TeamEntry.objects.select_related("season__league", "team", "captain").get(pk=entry.pk)
    league = entry.season.league
    require_secretary(by, league)
    email = _clean_email(email)
    captain = entry.captain
    if captain is None:
        raise ValidationError(
            f"{entry.team} has no captain for {entry.season.name}: choose the captain first."
        )
    if not player_is_free(by, league, captain):
        raise ValidationError(
            {
                "email": f"{captain} plays in another league too: only the site's operator can "
                "give them an account."
            }
        )
    if captain.user_id is not None:
        raise ValidationError({"email": f"{captain} already has an account."})
    name_people([captain])  # the audit entry says which of two of one name it is
    invitation = Invitation(
        league=league, role=Invitation.Role.CAPTAIN, player=captain, team=entry.team, email=email
    )
    invitation.invited_by = by
    _send_new(invitation, mail=send)
    # One address a captain: an invitation still waiting at another (a mistyped address, or
    # one the captain no longer reads) would be a second link that works, for whoever reads it.
    _withdraw_replaced(invitation, by=by)
    audit_log(
        league=league,
        action=AuditEntry.Action.INVITATION_SENT,
        subject=f"{captain}, captain of {entry.team}, invited at {email}",
        after=_state(invitation),
        by=by,
    )
    return invitation


def _withdraw_replaced(invitation: Invitation, *, by: Account) -> None:
    """Withdraw the captain's invitations still waiting at other addresses than the new
    ``invitation``'s, each with its audit entry saying which replaced it."""
    for replaced in _others_unanswered(invitation).select_for_update():
        _withdrawn(
            replaced,
            by=by,
            subject=f"Invitation to {replaced.email} withdrawn: {invitation.email} invited instead",
        )


def _withdrawn(invitation: Invitation, *, by: Account, subject: str) -> None:
    """End ``invitation`` (its link no longer works), with its audit entry."""
    before = _state(invitation)
    invitation.withdrawn_at = timezone.now()
    invitation.save(update_fields=["withdrawn_at"])
    audit_log(
        league=invitation.league,
        action=AuditEntry.Action.INVITATION_WITHDRAWN,
        subject=subject,
        before=before,
        by=by,
    )


def _lock_open(invitation: Invitation, league: League, by: Account) -> Invitation:
    lock_rows(Invitation.objects.filter(pk=invitation.pk))
    invitation = Invitation.objects.select_related("league", "player", "team").get(pk=invitation.pk)
    if invitation.league_id != league.pk:
        raise PermissionDenied("That invitation is not this league's.")
    require_secretary(by, invitation.league)
    if invitation.accepted_at is not None:
        raise ValidationError(f"{invitation.email} accepted the invitation already.")
    if invitation.withdrawn_at is not None:
        raise ValidationError(f"The invitation to {invitation.email} was withdrawn.")
    return invitation


@transaction.atomic
def invitation_resend(*, invitation: Invitation, league: League, by: Account) -> Invitation:
    """Send the invitation again with a new link and a new expiry; the old link stops working."""
    invitation = _lock_open(invitation, league, by)
    before = _state(invitation)
    _send(invitation)
    audit_log(
        league=invitation.league,
        action=AuditEntry.Action.INVITATION_RESENT,
        subject=f"Invitation to {invitation.email} sent again",
        before=before,
        after=_state(invitation),
        by=by,
    )
    return invitation


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation, league: League, by: Account) -> Invitation:
    """End the invitation: its link no longer works."""
    invitation = _lock_open(invitation, league, by)
    _withdrawn(invitation, by=by, subject=f"Invitation to {invitation.email} withdrawn")
    return invitation


@transaction.atomic
def invitation_accept(
    *, token: str, user: Account = None, username: str = "", password: str = "", name: str = ""
) -> Any:
    """Accept the invitation a link names: as ``user`` (an account the person is logged in
    with; given ``name``, the account takes it as its name, ``account_rename``), or with a new
    account of ``name``, ``username`` and ``password`` (its e-mail the invited one, so
    confirmed by the link itself). Returns the account."""
    invitation = invitation_from_token(token)
    lock_rows(Invitation.objects.filter(pk=invitation.pk))
    invitation = invitation_from_token(token)
    league = invitation.league
    if user is None:
        user = new_account(username=username, email=invitation.email, password=password, name=name)
        audit_log(
            league=league,
            action=AuditEntry.Action.ACCOUNT_CREATED,
            subject=f"Account {user.get_username()} created from an invitation",
            after=account_state(user),
            by=user,
        )
    elif not user.is_active:
        raise ValidationError("This account is closed.")
    elif not user.email:
        # Notices go by e-mail: an account with no address takes the one the invitation
        # reached (its link confirms it), or its captain or secretary is never told anything.
        user.email = invitation.email
        user.save(update_fields=["email"])
    if invitation.role == Invitation.Role.SECRETARY:
        if not league.secretaries.filter(pk=user.pk).exists():
            before = secretary_names(league)
            league.secretaries.add(user)
            audit_log(
                league=league,
                action=AuditEntry.Action.SECRETARY_ADDED,
                # By the name they give with it (the account is named last, below).
                subject=f"{name or person_or_login(user)} made a secretary by invitation",
                before={"secretaries": before},
                after={"secretaries": secretary_names(league)},
                by=user,
            )
    else:
        lock_rows(Player.objects.filter(pk=invitation.player_id))
        player = Player.objects.get(pk=invitation.player_id)
        name_people([player])
        if player.user_id is not None and player.user_id != user.pk:
            raise ValidationError(f"{player} has an account already: log in with it.")
        other = Player.objects.filter(user=user).exclude(pk=player.pk).first()
        if other is not None:
            raise ValidationError(
                f"{user.get_username()} is already the account of {other}: log out and make a "
                "new account for this invitation."
            )
        player.user = user
        player.save(update_fields=["user"])
        audit_log(
            league=league,
            action=AuditEntry.Action.CAPTAIN_ACCOUNT_LINKED,
            subject=f"{player}, captain of {invitation.team}, logs in as {user.get_username()}",
            before={"player": player.pk, "user": None},
            after={"player": player.pk, "user": user.pk, "username": user.get_username()},
            by=user,
        )
    if name and user.get_full_name() != name:
        # Last: a refusal above leaves the account as it was, its name too.
        account_rename(account=user, name=name, by=user)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    audit_log(
        league=league,
        action=AuditEntry.Action.INVITATION_ACCEPTED,
        subject=f"{invitation.email} accepted: {person_or_login(user)} is {what(invitation)}",
        after=_state(invitation) | {"user": user.pk},
        by=user,
    )
    return user
