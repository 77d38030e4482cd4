"""Accounts for the people who run a league: its secretaries, and each season's team captains.

Only a secretary of the league (or the site's operator) takes these rights away. Every change
is in the league's audit trail with who, when, from where, before and after; a password never
is. A secretary never types a password for someone else, nor gives anyone a secretary's or a
captain's rights without asking them: a new secretary, and a captain's account, come in by an
invitation they accept (``leagues.services.invitations``), with an account they have or one
they make. New accounts are checked by Django's username rules and password validators, and a
refusal names the field it is about.

Every account has a person's name, given at sign-up or when an invitation is accepted and
changed on the account's own page (``account_rename``): it is how the app names them to the
people they run the league with (``leagues.selectors.people.person_name``), never the username.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from config.inputs import check_name_words, clean_text, one_spaced
from config.locks import lock_rows
from leagues.audit import audit_log
from leagues.models import AuditEntry, League, Player, TeamEntry
from leagues.permissions import can_manage_league, player_is_free
from leagues.selectors.people import name_people, person_or_login
from scoring.actors import Account


def _require_manager(league: League, by: Account) -> None:
    if not can_manage_league(by, league):
        raise PermissionDenied(f"Only the secretaries of {league} can do that.")


def secretary_names(league: League) -> list[str]:
    return sorted(league.secretaries.values_list("username", flat=True))


def _lock_league(league: League, by: Account) -> League:
    """The league, its row locked until the transaction ends, once ``by`` is found to be one of
    its secretaries after the lock is held: a secretary removed while their own change waited
    for the lock no longer makes it."""
    league = League.objects.select_for_update().get(pk=league.pk)
    _require_manager(league, by)
    return league


#: The longest name an account keeps: a player's, so a captain's name as the secretary typed it
#: always fits.
NAME_LENGTH: int = Player._meta.get_field("name").max_length or 120

#: What a form asks for (and a refusal of a missing name says).
NAME_WORDS = "Your name, as your league knows you"
NO_NAME = "Give your name, as your league knows you: the people you run the league with read it."


def account_name(name: str) -> str:
    """``name`` as an account keeps it (``one_spaced``); ``ValidationError`` on the "name"
    field when there is none, it is too long, it has a word too long to wrap
    (``check_name_words``), or it holds a control character."""
    try:
        name = one_spaced(clean_text(name))
        check_name_words(name)
    except ValidationError as exc:
        raise ValidationError({"name": exc.messages}) from None
    if not name:
        raise ValidationError({"name": NO_NAME})
    if len(name) > NAME_LENGTH:
        raise ValidationError(
            {"name": f"Give your name in {NAME_LENGTH} characters at most ({len(name)} now)."}
        )
    return name


def name_account(user: Any, name: str) -> None:
    """Give ``user`` the name ``name`` (``account_name``'s), unsaved. Django's full name is its
    first and last names joined by a space: the name's last word is the last name and the rest
    the first, so the admin's two boxes read naturally and the whole name reads back as given."""
    first, _, last = name.rpartition(" ")
    user.first_name, user.last_name = (first, last) if first else (last, "")


def new_account(*, username: str, email: str, password: str, name: str) -> Any:
    """A new, active account of a person called ``name``; ``ValidationError`` by field
    (name, username, email, password)."""
    user = get_user_model()(username=username.strip(), email=email.strip())
    errors: dict[str, list[str]] = {}
    try:
        name_account(user, account_name(name))
    except ValidationError as exc:
        errors.update(exc.message_dict)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if not password:
        errors["password"] = ["Give the new account a password."]
    else:
        try:
            validate_password(password, user)
        except ValidationError as exc:
            errors["password"] = exc.messages
    if errors:
        raise ValidationError(errors)
    user.set_password(password)
    user.save()
    return user


def account_state(user: Account) -> dict[str, Any]:
    # What identifies the account, never its password.
    return {
        "user": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "name": user.get_full_name(),
    }


@transaction.atomic
def account_rename(*, account: Any, name: str, by: Account) -> Any:
    """Give ``account`` the name ``name`` (``account_name``), as the person themselves: nobody
    names someone else's account (the site's operator does, in the admin)."""
    if by is None or not by.is_authenticated or by.pk != account.pk:
        raise PermissionDenied("Only the person whose account it is changes its name.")
    name_account(account, account_name(name))
    account.save(update_fields=["first_name", "last_name"])
    return account


# --- secretaries (they come in by invitation: leagues.services.invitations) --------------------


@transaction.atomic
def secretary_remove(*, league: League, user: Account, by: Account) -> League:
    """Take ``user``'s secretary's rights away. A league always keeps at least one secretary,
    so the last one cannot be removed (not even by themselves)."""
    league = _lock_league(league, by)
    if not league.secretaries.filter(pk=user.pk).exists():
        raise ValidationError(f"{person_or_login(user)} is not a secretary of {league}.")
    before = secretary_names(league)
    if len(before) <= 1:
        raise ValidationError(
            f"{person_or_login(user)} is the league's only secretary: add another secretary first."
        )
    league.secretaries.remove(user)
    audit_log(
        league=league,
        action=AuditEntry.Action.SECRETARY_REMOVED,
        subject=f"{person_or_login(user)} is no longer a secretary",
        before={"secretaries": before},
        after={"secretaries": secretary_names(league)},
        by=by,
    )
    return league


# --- captains' accounts (they come in by invitation: leagues.services.invitations) -------------


def _lock_entry(entry: TeamEntry) -> TeamEntry:
    """The entry, its row locked first and read after (``config.locks`` says why): a captain
    chosen a moment ago is the captain read."""
    lock_rows(TeamEntry.objects.filter(pk=entry.pk))
    return TeamEntry.objects.select_related("season__league", "team").get(pk=entry.pk)


def _captain(entry: TeamEntry, by: Account) -> Player:
    """The entry's captain, locked; refused when they are in a league ``by`` does not run.

    The player's row is locked first and read after, with their account: an account taken by an
    invitation accepted, or unlinked through another season's entry, a moment ago is the one
    read."""
    if entry.captain_id is None:
        raise ValidationError(
            f"{entry.team} has no captain for {entry.season.name}: choose the captain first."
        )
    lock_rows(Player.objects.filter(pk=entry.captain_id))
    captain = Player.objects.select_related("user").get(pk=entry.captain_id)
    name_people([captain])  # the audit entry says which of two of one name it is
    if not player_is_free(by, entry.season.league, captain):
        raise ValidationError(
            f"{captain} plays in another league too: only the site's operator can change their "
            "account."
        )
    return captain


def _captain_state(player: Player) -> dict[str, Any]:
    user = player.user
    return {
        "player": player.pk,
        "player_name": player.name,
        "user": user.pk if user else None,
        "username": user.get_username() if user else None,
    }


@transaction.atomic
def captain_account_unlink(*, entry: TeamEntry, by: Account) -> Player:
    """The captain's player no longer logs in with the account (the account itself stays)."""
    entry = _lock_entry(entry)
    _require_manager(entry.season.league, by)
    captain = _captain(entry, by)
    if captain.user is None:
        raise ValidationError(f"{captain} has no account to unlink.")
    before = _captain_state(captain)
    captain.user = None
    captain.save(update_fields=["user"])
    audit_log(
        league=entry.season.league,
        action=AuditEntry.Action.CAPTAIN_ACCOUNT_UNLINKED,
        subject=f"{captain}, captain of {entry.team}, no longer has an account",
        before=before,
        after=_captain_state(captain),
        by=by,
    )
    return captain
