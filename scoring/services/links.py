"""Scoring links. The services: a game's link re-issued or revoked (``game_link_reissue``,
``game_link_revoke``: its starter, a secretary of its league or the operator), with an entry in
each of its games' audit trails.

The steps (a leading underscore) are not services: they check no permission, and each caller
is a service that has checked it already, inside the transaction the step joins. A new link
(``_scoring_link_create``): ``game_start``, a fixture table's (``leagues.services.results``,
``.seating``), a cup race tie's (``cups.services.ties``). Revoked or re-issued
(``_scoring_link_revoke``, ``_scoring_link_reissue``): the two services here, a table's link
(``leagues.services.results``, ``.cards``), a reversed or redrawn tie's (``cups.services.ties``).
Closed and reopened as a result comes to count and stops counting (``_scoring_link_close``,
``_scoring_link_reopen``): ``leagues.services.agreement``, for the result services of a fixture
(``leagues.services.confirmation``) and of a cup race tie (``cups.services.confirmation``).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from scoring.models import Game, HandRevision, RevisionAction, ScoringLink
from scoring.services.state import (
    GameMovedOn,
    NotAllowed,
    account_of,
    lock_game,
    scores_of,
    sides_of,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    User = AbstractBaseUser


def _new_key() -> str:
    # 32 random bytes: 43 URL-safe characters, far beyond guessing.
    return secrets.token_urlsafe(32)


def _scoring_link_create(
    *, label: str = "", next_url: str = "", by: User | None = None
) -> ScoringLink:
    """A new live link; attach games to it (`game_start(scoring_link=...)`). A step: the
    caller checked permission."""
    return ScoringLink.objects.create(
        key=_new_key(), label=label[:160], next_url=next_url, created_by=account_of(by)
    )


@transaction.atomic
def _scoring_link_revoke(*, link: ScoringLink) -> ScoringLink:
    """Stop a link working at once: phones holding it can no longer score. A step: the caller
    checked permission."""
    link = ScoringLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


@transaction.atomic
def _scoring_link_reissue(*, link: ScoringLink, by: User | None = None) -> ScoringLink:
    """Revoke `link` and move its games to a new link under a new key (a lost or leaked card),
    made by ``by``; the new link names the one it replaces. A step: the caller checked
    permission. A link already replaced (a table's re-issue and its game's, one waiting on the
    other's lock) gives the link that replaced it, and no other."""
    old = _scoring_link_revoke(link=link)
    already = ScoringLink.objects.filter(replaces=old).first()
    if already is not None:
        return already
    new = ScoringLink.objects.create(
        key=_new_key(),
        label=old.label,
        next_url=old.next_url,
        created_by=account_of(by),
        closed_at=old.closed_at,
        replaces=old,
    )
    Game.objects.filter(scoring_link=old).update(scoring_link=new)
    # A fixture table that held the old link follows it (leagues.services.results).
    from leagues.services.results import _table_link_follow

    _table_link_follow(old=old, new=new)
    return new


@transaction.atomic
def _scoring_link_close(*, link: ScoringLink) -> ScoringLink:
    """Close a link because its games' result is confirmed: from now on only a secretary scores.
    A step: the caller checked permission."""
    link = ScoringLink.objects.select_for_update().get(pk=link.pk)
    if link.closed_at is None:
        link.closed_at = timezone.now()
        link.save(update_fields=["closed_at"])
    return link


@transaction.atomic
def _scoring_link_reopen(*, link: ScoringLink) -> ScoringLink:
    """Open a closed link again (a confirmed result sent back for play to continue). A step:
    the caller checked permission."""
    link = ScoringLink.objects.select_for_update().get(pk=link.pk)
    if link.closed_at is not None:
        link.closed_at = None
        link.save(update_fields=["closed_at"])
    return link


def _link_state(link: ScoringLink) -> dict[str, Any]:
    # The link's number and state, never its key: the audit trail must not hand out the key.
    return {"link": link.pk, "state": link.state}


def _link_revision(
    game: Game, action: str, before: dict[str, Any], by: User | None, ip: str | None
) -> HandRevision:
    link = ScoringLink.objects.get(pk=game.scoring_link_id)
    scores = scores_of(sides_of(game))
    return HandRevision.objects.create(
        game=game,
        hand_number=None,
        action=action,
        before=before,
        after=_link_state(link),
        scores_before=scores,
        scores_after=scores,
        by=account_of(by),
        ip=ip or None,
    )


def _require_link_manager(game: Game, by: User | None) -> None:
    """Whoever manages the game's link: its starter, a secretary of its league, the operator
    (None: the system)."""
    from scoring.permissions import can_manage_link

    if by is not None and not can_manage_link(by, game):
        raise NotAllowed(game)


def _game_link(game: Game) -> tuple[Game, ScoringLink]:
    game = lock_game(game)
    if game.scoring_link_id is None:
        raise GameMovedOn("This game has no scoring link.", game=game)
    return game, ScoringLink.objects.get(pk=game.scoring_link_id)


@transaction.atomic
def game_link_reissue(*, game: Game, by: User | None = None, ip: str | None = None) -> ScoringLink:
    """A new key for the game's link (a lost or leaked phone): the old key stops working at once.

    Every game sharing the link (a fixture table's games) moves to the new key; each one's audit
    trail records it. Works on a revoked link too, to let scoring resume.
    """
    _require_link_manager(game, by)
    game, old = _game_link(game)
    before = _link_state(old)
    new = _scoring_link_reissue(link=old, by=by)
    for each in Game.objects.filter(scoring_link=new).order_by("pk"):
        _link_revision(each, RevisionAction.REISSUE, before, by, ip)
    return new


@transaction.atomic
def game_link_revoke(*, game: Game, by: User | None = None, ip: str | None = None) -> ScoringLink:
    """Stop the game's link working, with no replacement (re-issue to let scoring resume)."""
    _require_link_manager(game, by)
    game, link = _game_link(game)
    if link.revoked_at is not None:
        return link
    before = _link_state(link)
    link = _scoring_link_revoke(link=link)
    for each in Game.objects.filter(scoring_link=link).order_by("pk"):
        _link_revision(each, RevisionAction.REVOKE, before, by, ip)
    return link
