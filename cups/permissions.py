"""Who may run a cup: the league's secretaries (and the site operator), as for its fixtures.

A team tie is a league fixture of kind "cup": its captains and table links act on it exactly as
on a league fixture (``leagues.permissions``). A race tie's games are scored through the tie's
own scoring link.
"""

from __future__ import annotations

from typing import Any

from cups.models import Competition
from leagues.models import League
from leagues.permissions import can_manage_league


def can_manage_competition(user: Any, competition: Competition) -> bool:
    return can_manage_league(user, competition.league)


def can_score_cup_game(user: Any, game: Any) -> bool:
    """Registered with ``scoring.permissions``: a league's secretaries may score its cup games."""
    league = League.objects.filter(competitions__ties__games__game=game).first()
    return league is not None and can_manage_league(user, league)
