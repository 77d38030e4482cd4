"""Who makes a change, as every service is told it.

- :data:`Account` is what a league or cup service's ``by`` is where only an account acts (a
  secretary's or a captain's step): a signed-in account, an anonymous visitor (refused wherever
  an account is needed), or ``None`` for the system itself (a management command, the demo, a
  seed; trusted, as no request stands behind it).
- :class:`Actor` is who acts where a scorer with no account may too: an account, or a scorer
  who holds the table's scoring link (the session's grants), and the address the change came
  from. The scoring services ask :func:`scoring.permissions.may_score` about it under the
  game's row lock and write it into the audit trail; the result roll-up
  (``leagues.services.rollup.FixtureChanged``), a cup tie's games
  (``cups.services.ties.tie_game_changed``) and a fixture's result submission
  (``leagues.services.confirmation.result_submit``) are handed it whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    from scoring.models import Game, ScoringLink

#: A league or cup service's ``by``: an account, an anonymous visitor, or None (the system).
Account = Union["AbstractBaseUser", "AnonymousUser", None]


@dataclass(frozen=True)
class Actor:
    """A scorer: ``user`` (an active, signed-in account, or None), ``links`` (the primary keys
    of the scoring links this browser opened), ``ip``. :data:`SYSTEM` is the system (trusted);
    ``Actor()`` a visitor with neither an account nor a link.
    ``link`` names the one scoring link the change was made through when it is known (a
    link's own result submission, a table's next game; a scored game's change hands it on)."""

    user: AbstractBaseUser | None = None
    links: frozenset[int] = field(default_factory=frozenset)
    ip: str | None = None
    link: ScoringLink | None = None
    system: bool = False

    @classmethod
    def of_request(cls, request: HttpRequest) -> Actor:
        """The request's scorer: its active account, its session's link grants, its address."""
        from config.login import client_address
        from scoring.permissions import SESSION_KEY

        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not user.is_active:
            user = None
        session = getattr(request, "session", None)
        links = frozenset(session.get(SESSION_KEY, [])) if session is not None else frozenset()
        return cls(user=user, links=links, ip=client_address(request) or None)

    @classmethod
    def of(cls, by: Account, *, link: ScoringLink | None = None, ip: str | None = None) -> Actor:
        """An account (or None: the system) acting, perhaps through ``link``."""
        if by is None and link is None:
            return SYSTEM
        user = by if by is not None and getattr(by, "is_authenticated", False) else None
        return cls(user=user, link=link, links=frozenset([link.pk]) if link else frozenset(), ip=ip)

    def through(self, link: ScoringLink | None) -> Actor:
        """This scorer, acting through ``link`` (the one the audit names; None: no link)."""
        return replace(self, link=link)

    def link_for(self, game: Game) -> ScoringLink | None:
        """The game's link, when this scorer holds it and it is live (the audit's ``link``)."""
        link = game.scoring_link
        if link is None or not link.is_live or link.pk not in self.links:
            return None
        return link


#: The system itself: a command, the demo, a seed. Not asked for permission.
SYSTEM = Actor(system=True)
