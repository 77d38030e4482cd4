"""Who may do what in a league: the one place every league page and service asks.

- The site operator (superuser) and a league's secretaries (``League.secretaries``) run it.
- A team's captain for a season (``TeamEntry.captain``, a player with an account) submits,
  confirms or disputes the results of that team's fixtures in that season.
- A table's scoring link (no account) scores the table's games and may submit the result.
- Everyone else reads the public pages.

Extend these functions, not the views.
"""

from __future__ import annotations

from typing import Any

from leagues.models import Fixture, League, TeamEntry


def _active(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def can_manage_league(user: Any, league: League) -> bool:
    """Whether ``user`` may change ``league``: its structure, fixtures, results and points."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    return league.secretaries.filter(pk=user.pk).exists()


def can_create_league(user: Any) -> bool:
    """Whether ``user`` may start a new league (and so become its first secretary)."""
    if not _active(user):
        return False
    return user.is_superuser or user.has_perm("leagues.add_league")


def can_captain(user: Any, entry: TeamEntry) -> bool:
    """Whether ``user`` is the captain of this team entry (one team, one season)."""
    if not _active(user) or entry.captain_id is None:
        return False
    return entry.captain is not None and entry.captain.user_id == user.pk


def captained_sides(user: Any, fixture: Fixture) -> set[str]:
    """The sides of ``fixture`` ("home", "away") whose team ``user`` captains this season."""
    if not _active(user):
        return set()
    teams = set(
        TeamEntry.objects.filter(
            season_id=fixture.division.season_id,
            team_id__in=[fixture.home_id, fixture.away_id],
            captain__user=user,
        ).values_list("team_id", flat=True)
    )
    return {
        side
        for side, team in (("home", fixture.home_id), ("away", fixture.away_id))
        if team in teams
    }


def fixture_links(fixture: Fixture) -> set[int]:
    """The primary keys of the live scoring links of the fixture's tables."""
    return set(
        fixture.tables.filter(
            scoring_link__revoked_at__isnull=True, scoring_link__closed_at__isnull=True
        ).values_list("scoring_link_id", flat=True)
    )


def can_score_league_game(user: Any, game: Any) -> bool:
    """Registered with ``scoring.permissions``: a league's secretaries may score its games
    (and are the only ones who may once the fixture's result is confirmed)."""
    league = League.objects.filter(seasons__divisions__fixtures__tables__games__game=game).first()
    return league is not None and can_manage_league(user, league)
