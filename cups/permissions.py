"""Who may run a cup: the league's secretaries (and the site operator), as for its fixtures.

A team tie is a league fixture of kind "cup": its captains and table links act on it exactly as
on a league fixture (``leagues.permissions``). A race tie's games are scored through the tie's
own scoring link, and its result is agreed for each side by a player of the pair (their own
account) or by the captain of the pair's team that season: most pub players have no account,
and a league's captain signs for the team's pairs as for its tables.
"""

from __future__ import annotations

from typing import Any

from cups.models import Competition, Entrant, Tie
from leagues.models import League, TeamEntry
from leagues.permissions import (
    BY_SECRETARY,
    BY_SITE_OPERATOR,
    can_enter_card,
    can_manage_league,
    captain_of,
)
from scoring.actors import Account


def can_manage_competition(user: Account, competition: Competition) -> bool:
    return can_manage_league(user, competition.league)


def can_give_playoff(user: Account, tie: Tie) -> bool:
    """Whether ``user`` may give a level team tie's play-off game's score from the score card
    once its result counts (``cups.services.ties.tie_playoff_enter``): who may enter its
    fixture's card, a captain of either team that season or a secretary, as its pages say
    (``cups.models.PLAYOFF_GIVERS``)."""
    return tie.fixture is not None and can_enter_card(user, tie.fixture)


def can_score_cup_game(user: Account, game: Any) -> bool:
    """Registered with ``scoring.permissions``: a league's secretaries may score its cup games."""
    league = League.objects.filter(competitions__ties__games__game=game).first()
    return league is not None and can_manage_league(user, league)


def cup_game_zone(game: Any) -> str | None:
    """Registered with ``scoring.zones``: a cup tie's game is in its league's zone."""
    return (
        League.objects.filter(competitions__ties__games__game=game)
        .values_list("time_zone", flat=True)
        .first()
    )


def speaks_for(user: Account, entrant: Entrant | None, season_id: int) -> bool:
    """Whether ``user`` agrees a result for ``entrant`` (a pair or a single player): one of its
    players, or the captain of its team in the competition's season."""
    if entrant is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.pk in {p.user_id for p in entrant.players if p.user_id is not None}:
        return True
    return (
        entrant.team_id is not None
        and TeamEntry.objects.filter(
            season_id=season_id, team_id=entrant.team_id, captain__user=user
        ).exists()
    )


def tie_sides(user: Account, tie: Tie) -> set[str]:
    """The sides of a race tie ("home", "away") that ``user`` agrees its result for."""
    season = tie.competition.season_id
    return {
        side
        for side, entrant in (("home", tie.home), ("away", tie.away))
        if speaks_for(user, entrant, season)
    }


def tie_role(user: Account, tie: Tie, *, named: bool = False) -> str:
    """Who acted on a race tie's result, by role, as the public reads it ("one of Ann Lee & Bob
    Hirst", "captain of Reds", "secretary", "site operator": a league fixture's words,
    ``leagues.permissions.fixture_role``); never an account name. ``named``: as it follows
    their name (``leagues.selectors.people.acted_words``), where a pair's player is said with
    their partner, "Ann Lee (with Bob Hirst)", not their own name twice; a single player's
    name is their side, so their role is then their name alone ("")."""
    if user is None:
        return "the tie's scoring link"
    for entrant in (tie.home, tie.away):
        if entrant is not None and user.pk in {p.user_id for p in entrant.players}:
            partners = [p.name for p in entrant.players if p.user_id != user.pk]
            if named:
                return f"with {' & '.join(partners)}" if partners else ""
            return f"one of {entrant}" if partners else str(entrant)
    for entrant in (tie.home, tie.away):
        if speaks_for(user, entrant, tie.competition.season_id):
            return captain_of(entrant.team)  # type: ignore[union-attr]
    if getattr(user, "is_superuser", False):
        return BY_SITE_OPERATOR
    if tie.competition.league.secretaries.filter(pk=user.pk).exists():
        return BY_SECRETARY
    return "a former player or captain"
