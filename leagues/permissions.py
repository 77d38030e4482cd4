"""Who may do what in a league: the one place every league page and service asks.

- The site operator (superuser) and a league's secretaries (``League.secretaries``) run it.
- A team's captain for a season (``TeamEntry.captain``, a player with an account) submits,
  confirms or disputes the results of that team's fixtures in that season.
- On the night the home team's captain seats both sides' pairs, the away captain their own
  (``seating_sides``); a captain adds a player to their own squad there where the league lets
  captains register (``League.captains_register``). Either captain, or a secretary, enters the
  result from the paper score card (``can_enter_card``).
- A table's scoring link (no account) scores the table's games and may submit the result.
- Everyone else reads the public pages.

Every object a secretary changes is owned by a league or reached through one: teams, seasons and
venues by ``league``; players by the leagues they are registered in. A secretary may take a
player into their league only when they are in no other league the secretary does not run; the
site operator may always. An account is never taken: it comes into a league by an invitation
its owner accepts (``leagues.services.invitations``). The services ask ``player_is_free`` before
they register a player, make a captain, invite a captain or unlink their account, and
``venue_is_kept_by`` before a venue is used or changed. ``by=None`` is the system itself (the
demo, a management command), never a request.

Extend these functions, not the views.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Q

from leagues.models import Fixture, League, Registration, Team, TeamEntry, Venue
from scoring.actors import Account


def _active(user: Account) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def can_manage_league(user: Account, league: League) -> bool:
    """Whether ``user`` may change ``league``: its structure, fixtures, results and points.
    From the league's secretaries where they were read with it (``prefetch_related``: a list
    asking it of each of its rows asks no query a row), else one query."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    read = getattr(league, "_prefetched_objects_cache", {}).get("secretaries")
    if read is not None:
        return any(secretary.pk == user.pk for secretary in read)
    return league.secretaries.filter(pk=user.pk).exists()


def require_secretary(by: Account, league: League) -> None:
    """Every write to a league's structure, fixtures, results or points asks this first, in its
    service: refused (``PermissionDenied``, nothing changed) unless ``by`` is one of the league's
    secretaries or the site's operator. ``None`` is the system itself (a management command, the
    demo, a seed; no request stands behind it); views always pass the request's user."""
    if by is not None and not can_manage_league(by, league):
        raise PermissionDenied(f"Only the secretaries of {league} can do that.")


def _runs_all(user: Account, league_ids: set[int]) -> bool:
    if user is None:
        return True
    if not _active(user):
        return False
    if user.is_superuser or not league_ids:
        return True
    return League.objects.filter(pk__in=league_ids, secretaries=user).count() == len(league_ids)


def player_leagues(player: Any) -> set[int]:
    """The leagues a player is in: registered for one of its teams or its captain in any
    season, or their account is one of its secretaries."""
    leagues = set(
        Registration.objects.filter(player=player).values_list("season__league", flat=True)
    )
    leagues |= set(
        TeamEntry.objects.filter(captain=player).values_list("season__league", flat=True)
    )
    if player.user_id is not None:
        leagues |= set(
            League.objects.filter(secretaries=player.user_id).values_list("pk", flat=True)
        )
    return leagues


def player_is_free(by: Account, league: League, player: Any) -> bool:
    """Whether ``by`` may register ``player`` in ``league``, make them a captain there or give
    them an account: they are in no other league, or ``by`` runs every other one they are in."""
    return _runs_all(by, player_leagues(player) - {league.pk})


def venue_is_kept_by(venue: Venue, league: League) -> bool:
    """Whether ``league`` keeps ``venue`` (so its secretaries may use and change it): it is the
    league's own, and no other league's team or fixture uses it."""
    if venue.league_id != league.pk:
        return False
    other_teams = Team.objects.filter(home_venue=venue).exclude(league=league)
    other_fixtures = Fixture.objects.filter(venue=venue).filter(~Q(division__season__league=league))
    return not other_teams.exists() and not other_fixtures.exists()


def can_create_league(user: Account) -> bool:
    """Whether ``user`` may start a new league at once (and so become its first secretary):
    anyone with an account while sign-up is open (``settings.OPEN_SIGNUP``); otherwise only the
    site's operator and accounts given "Can add league" (the others ask, and the operator
    approves: ``leagues.services.league_requests``)."""
    if not _active(user):
        return False
    if settings.OPEN_SIGNUP:
        return True
    return user.is_superuser or user.has_perm("leagues.add_league")


def can_approve_leagues(user: Account) -> bool:
    """Whether ``user`` decides the leagues asked for while sign-up is closed: the operator."""
    return _active(user) and bool(user.is_superuser)


def can_captain(user: Account, entry: TeamEntry) -> bool:
    """Whether ``user`` is the captain of this team entry (one team, one season)."""
    if not _active(user) or entry.captain_id is None:
        return False
    return entry.captain is not None and entry.captain.user_id == user.pk


def captained_sides(user: Account, fixture: Fixture) -> set[str]:
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


def seating_sides(user: Account, fixture: Fixture) -> set[str]:
    """The sides of ``fixture`` whose pairs ``user`` may seat: both for a secretary and the
    home team's captain (the home side sets the tables), the away captain's own side."""
    if can_manage_league(user, fixture.division.season.league):
        return {"home", "away"}
    sides = captained_sides(user, fixture)
    return {"home", "away"} if "home" in sides else sides


def squad_sides(user: Account, fixture: Fixture) -> set[str]:
    """The sides of ``fixture`` whose squad ``user`` may add a player to on the night: a
    secretary's both; a captain's own, where the league lets captains register players."""
    league = fixture.division.season.league
    if can_manage_league(user, league):
        return {"home", "away"}
    return captained_sides(user, fixture) if league.captains_register else set()


def can_enter_card(user: Account, fixture: Fixture) -> bool:
    """Whether ``user`` may enter ``fixture``'s result from the paper score card: a captain of
    either team that season, or a secretary."""
    return can_manage_league(user, fixture.division.season.league) or bool(
        captained_sides(user, fixture)
    )


def fixture_links(fixture: Fixture) -> set[int]:
    """The primary keys of the live scoring links of the fixture's tables."""
    return set(
        fixture.tables.filter(
            scoring_link__revoked_at__isnull=True, scoring_link__closed_at__isnull=True
        ).values_list("scoring_link_id", flat=True)
    )


def can_score_league_game(user: Account, game: Any) -> bool:
    """Registered with ``scoring.permissions``: a league's secretaries may score its games
    (and are the only ones who may once the fixture's result is confirmed)."""
    league = League.objects.filter(seasons__divisions__fixtures__tables__games__game=game).first()
    return league is not None and can_manage_league(user, league)


def league_game_zone(game: Any) -> str | None:
    """Registered with ``scoring.zones``: a fixture table's game is in its league's zone."""
    return (
        League.objects.filter(seasons__divisions__fixtures__tables__games__game=game)
        .values_list("time_zone", flat=True)
        .first()
    )


#: Who acted on a result, by role, in the words every page gives (``fixture_role``).
BY_TABLE_LINK = "the table's scoring link"
BY_SECRETARY = "secretary"
BY_SITE_OPERATOR = "site operator"


def captain_of(team: Any) -> str:
    """A team's captain as the one who acted on a result: "captain of Reds"."""
    return f"captain of {team}"


def role_alone(role: str) -> str:
    """A role said alone as the one who acted, where no name goes before it (the public's
    pages, an account with no name): "by the secretary", "by the captain of Reds", "by the site
    operator"; a role that is already a phrase ("the table's scoring link", "a former
    captain", a cup tie's pair) as it is. After a name, in brackets, the role stays bare:
    "Roy Stead (captain of Reds)"."""
    if role in (BY_SECRETARY, BY_SITE_OPERATOR) or role.startswith(captain_of("")):
        return f"the {role}"
    return role


def fixture_role(user: Account, fixture: Fixture) -> str:
    """Who acted on ``fixture``'s result, by role, as the public reads it ("captain of Reds",
    "secretary", "site operator"); never an account name."""
    if user is None:
        return BY_TABLE_LINK
    sides = captained_sides(user, fixture)
    if sides:
        return captain_of(fixture.home if "home" in sides else fixture.away)
    if getattr(user, "is_superuser", False):
        return BY_SITE_OPERATOR
    if fixture.division.season.league.secretaries.filter(pk=user.pk).exists():
        return BY_SECRETARY
    return "a former captain"
