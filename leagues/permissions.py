"""Who may run a league: the one place every secretary page asks.

Accounts and roles come later; until then a league is run by its secretaries (``League
.secretaries``) and by superusers. Extend these functions, not the views.
"""

from __future__ import annotations

from typing import Any

from leagues.models import League


def can_manage_league(user: Any, league: League) -> bool:
    """Whether ``user`` may change ``league``: its structure, fixtures, results and points."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return league.secretaries.filter(pk=user.pk).exists()


def can_create_league(user: Any) -> bool:
    """Whether ``user`` may start a new league (and so become its first secretary)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_superuser or user.has_perm("leagues.add_league")
