"""Who may change a scored game: the one place every scoring write view asks.

A scorer has no account. Opening a game's private scoring link stores a grant for that link in
the session; the grant is good for as long as the link is live (not revoked, not closed). People
with accounts may score a game when they started it, when they are superusers, or when a check
another app registered says so (the leagues app: "a secretary of this game's league").

Once a link is closed (the fixture's result is confirmed), its games are changed only by those
registered checks and by superusers: a confirmed result is the secretary's alone.

A phone refused says why (`why_refused`): the result confirmed, the link re-issued (the phone
holds a key it replaced), the link revoked, or the phone holding no link of the game at all.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import models
from django.http import HttpRequest

from scoring.actors import Account, Actor
from scoring.models import Game, ScoringLink

#: Session key: the primary keys of the scoring links this browser has opened.
SESSION_KEY = "scoring_links"

ScorerCheck = Callable[[Account, Game], bool]
_scorer_checks: dict[str, ScorerCheck] = {}


def register_scorer_check(name: str, check: ScorerCheck) -> None:
    """Let `check(user, game)` grant an account holder the right to score `game`.

    Registered by other apps from `AppConfig.ready`; `name` makes registering twice harmless.
    """
    _scorer_checks[name] = check


def grant(request: HttpRequest, link: ScoringLink) -> None:
    """Remember in the session that this browser opened `link`."""
    granted = list(request.session.get(SESSION_KEY, []))
    if link.pk not in granted:
        granted.append(link.pk)
        request.session[SESSION_KEY] = granted[-50:]


def held_links(request: HttpRequest, *, most: int = 3) -> list[ScoringLink]:
    """The live links this browser opened, the latest first (at most ``most``): where a phone
    whose game is no longer kept goes on scoring."""
    session = getattr(request, "session", None)
    held = list(session.get(SESSION_KEY, [])) if session is not None else []
    live = ScoringLink.objects.filter(pk__in=held, revoked_at=None, closed_at=None)
    by_pk = {link.pk: link for link in live}
    return [by_pk[pk] for pk in reversed(held) if pk in by_pk][:most]


def granted_link(request: HttpRequest, game: Game) -> ScoringLink | None:
    """The game's link, if this browser holds a grant for it and it is live."""
    link = game.scoring_link
    if link is None or not link.is_live:
        return None
    session = getattr(request, "session", None)
    if session is None or link.pk not in session.get(SESSION_KEY, []):
        return None
    return link


def request_user(request: HttpRequest) -> Account:
    """The logged-in, active user, or None."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    return user


def can_oversee(user: Account, game: Game) -> bool:
    """Superusers and whoever a registered check names (a secretary of the game's league)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return any(check(user, game) for check in _scorer_checks.values())


def may_score(actor: Actor, game: Game) -> bool:
    """Whether ``actor`` may record, correct or undo hands of `game`, or abandon it. The
    scoring services ask it under the game's row lock (a link revoked a moment ago counts);
    the system (``SYSTEM``) may."""
    if actor.system:
        return True
    user = actor.user
    if can_oversee(user, game):
        return True
    link = game.scoring_link
    if link is not None and link.closed_at is not None:
        return False
    if actor.link_for(game) is not None:
        return True
    return user is not None and game.created_by_id == user.pk


def can_score(request: HttpRequest, game: Game) -> bool:
    """Whether this request may score `game` (what a page offers; the services decide)."""
    return may_score(Actor.of_request(request), game)


class Refused(models.TextChoices):
    """Why a phone may not score a game, as the phone is told (scoring.offline.sync's 403)."""

    CLOSED = "closed", "The result is confirmed"
    REISSUED = "reissued", "The link was re-issued"
    REVOKED = "revoked", "The link was revoked"
    SIGNED_OUT = "signed_out", "No link of the game held"
    #: Not a permission: the game is no longer kept (taken away before a hand of it was
    #: recorded), as sync's 410 says it.
    GONE = "gone", "The game is no longer kept"


def why_refused(actor: Actor, game: Game) -> Refused:
    """Why ``actor`` may not score ``game`` (asked once it may not): its link closed (the result
    confirmed; re-issued or not) or revoked with no new link yet, as ``ScoringLink.state``
    ranks them; re-issued from a key this phone holds; or none of its keys held (a session
    ended, an account logged out)."""
    link = game.scoring_link
    if link is None:
        return Refused.SIGNED_OUT
    if link.state != "live":
        return Refused(link.state)
    if _holds_a_replaced_key(actor, link):
        return Refused.REISSUED
    return Refused.SIGNED_OUT


def _holds_a_replaced_key(actor: Actor, link: ScoringLink) -> bool:
    """Whether ``actor`` holds a link that ``link`` replaced, once or more (one read a re-issue
    back)."""
    replaced, seen = link.replaces_id, set()
    while actor.links and replaced is not None and replaced not in seen:
        if replaced in actor.links:
            return True
        seen.add(replaced)
        replaced = (
            ScoringLink.objects.filter(pk=replaced).values_list("replaces_id", flat=True).first()
        )
    return False


def can_manage_link(user: Account, game: Game) -> bool:
    """Whether `user` may re-issue or revoke the game's scoring link: the account that started
    the game, a superuser, or whoever a registered check names (a secretary of its league)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return game.created_by_id == user.pk or can_oversee(user, game)


def actor_role(user: Account, link: ScoringLink | None, game: Game) -> str:
    """Who acted on ``game``, by role, as the public reads it: "scoring link", "secretary",
    "site operator", "the game's starter" or "scorer"; never an account name."""
    if user is None:
        return "scoring link" if link is not None else "scorer"
    if user.is_superuser:
        return "site operator"
    if any(check(user, game) for check in _scorer_checks.values()):
        return "secretary"
    if game.created_by_id == user.pk:
        return "the game's starter"
    return "scorer"
