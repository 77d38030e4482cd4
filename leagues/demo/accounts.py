"""Accounts to try the demo's secretary and captain pages with (``seed_demo --accounts``, which
``make run`` runs): a secretary of both demo leagues and the captain of one Heckmondwike team,
each given a new random password every time, printed once to whoever ran the command. Only on a
development machine (``DEBUG``): a site in production never has an account whose password was
printed on a console."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from leagues.demo.seed import HECKMONDWIKE, SECRETARY, demo_leagues, demo_secretary
from leagues.models import League, TeamEntry
from leagues.selectors.fixtures import league_current_season
from leagues.services.invitations import captain_invite, invitation_accept, invitation_token

CAPTAIN = "demo-captain"


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    role: str


def _password() -> str:
    # Three groups of letters and digits: long enough for every password validator, no word.
    return "-".join(secrets.token_urlsafe(6).replace("-", "x").replace("_", "y") for _ in range(3))


@transaction.atomic
def demo_accounts() -> list[DemoAccount]:
    """The demo's secretary (of every demo league) and a Heckmondwike captain, each with a new
    password; none before the demo is seeded. Refused unless ``DEBUG`` is on."""
    if not settings.DEBUG:
        raise ImproperlyConfigured(
            "Demo accounts have their passwords printed: make them only on a development "
            "machine (DJANGO_DEBUG=1)."
        )
    leagues = demo_leagues()
    if not leagues:
        return []
    users = get_user_model().objects
    secretary = demo_secretary()
    # An address, as a real secretary's account has: the notices to secretaries (a dispute to
    # settle) are printed on the console where `make run` serves.
    secretary.email = secretary.email or f"{SECRETARY}@example.org"
    role = f"secretary of {_names(leagues)}, {secretary.get_full_name()}"
    accounts = [_with_new_password(secretary, role)]
    for league in leagues:
        league.secretaries.add(secretary)
    yorkshire = next((league for league in leagues if league.slug == HECKMONDWIKE.slug), None)
    entry = _captained_entry(yorkshire) if yorkshire is not None else None
    if entry is not None:
        captain, _ = users.get_or_create(username=CAPTAIN)
        if entry.captain.user_id != captain.pk:
            # As on a real league: the secretary invites, and the captain accepts.
            invitation = captain_invite(
                entry=entry, email=f"{CAPTAIN}@example.org", by=secretary, send=False
            )
            # Accepting, the captain gives their name, as the invitation's form asks it
            # (pre-filled with the captain's name as the secretary entered it).
            invitation_accept(
                token=invitation_token(invitation), user=captain, name=entry.captain.name
            )
        role = f"captain of {entry.display_name} ({yorkshire.name}), {entry.captain.name}"
        accounts.append(_with_new_password(captain, role))
    return accounts


def _with_new_password(user, role: str) -> DemoAccount:
    password = _password()
    user.is_active = True
    user.set_password(password)
    user.save(update_fields=["is_active", "password", "email"])
    return DemoAccount(username=user.get_username(), password=password, role=role)


def _names(leagues: list[League]) -> str:
    return " and ".join(league.name for league in sorted(leagues, key=lambda league: league.name))


def _captained_entry(league: League) -> TeamEntry | None:
    """The team of the top division this season whose captain has the account already, or else
    the first by name with a captain."""
    season = league_current_season(league=league)
    if season is None:
        return None
    entries = (
        TeamEntry.objects.filter(season=season, captain__isnull=False, withdrawn_on__isnull=True)
        .select_related("captain", "team", "division")
        .order_by("division__rank", "team__name")
    )
    mine = entries.filter(captain__user__username=CAPTAIN).first()
    return mine or entries.first()
