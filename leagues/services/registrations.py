"""Registering players to teams: one team per season in a league."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from config.inputs import check_name_words, one_spaced
from leagues.audit import audit_log
from leagues.models import AuditEntry, Fixture, FixtureTable, Player, Registration, Season, Team
from leagues.permissions import player_is_free, require_secretary, squad_sides
from leagues.selectors.people import LeaguePeople, name_people
from scoring.actors import Account
from scoring.forms.words import possessive


@transaction.atomic
def player_register(
    *,
    player: Player | None = None,
    name: str = "",
    team: Team,
    season: Season,
    registered_on: datetime.date | None = None,
    by: Account = None,
) -> Registration:
    """Register ``player`` to play for ``team`` in ``season``.

    ``name`` instead of ``player`` registers a new player of that name (kept only if the
    registration goes through). Refused when the team is not in the season's league, the player
    is in another league that ``by`` does not run (only the site operator moves a player between
    leagues), or the player is already registered to a team this season (the database
    constraint backs this up against a race).
    """
    require_secretary(by, season.league)
    return _register(
        player=player, name=name, team=team, season=season, registered_on=registered_on, by=by
    )


def _register(
    *,
    player: Player | None,
    name: str,
    team: Team,
    season: Season,
    registered_on: datetime.date | None,
    by: Account,
) -> Registration:
    """``player_register`` once the caller has checked that ``by`` may register for ``team``."""
    if team.league_id != season.league_id:
        raise ValidationError(f"{team} does not play in {season.league}.")
    if player is None:
        # A new player, kept only if the registration goes through (this transaction).
        player = Player(name=one_spaced(name))
        player.full_clean()
        check_name_words(player.name)
        player.save()
    if not player_is_free(by, season.league, player):
        raise ValidationError(
            {
                "player": f"{player} already plays in another league: only the site's operator "
                f"can register them in {season.league}."
            }
        )
    current = (
        Registration.objects.filter(player=player, season=season).select_related("team").first()
    )
    if current is not None:
        if current.team_id == team.pk:
            return current
        raise ValidationError(
            f"{player} is already registered to {current.team} for {season.name}: "
            "a player plays for one team a season."
        )
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                player=player,
                team=team,
                season=season,
                registered_on=registered_on or season.league.today(),
            )
            name_people([player])  # the entry says which of two of one name it is
            audit_log(
                league=season.league,
                action=AuditEntry.Action.REGISTRATION_ADDED,
                subject=f"{player} registered for {team} ({season.name})",
                after=_registration_state(registration),
                by=by,
            )
            return registration
    except IntegrityError as exc:
        raise ValidationError(
            f"{player} is already registered to a team for {season.name}."
        ) from exc


@transaction.atomic
def registration_cancel(*, registration: Registration, by: Account = None) -> None:
    """Withdraw a registration that has not yet been used at a table."""
    require_secretary(by, registration.season.league)
    player, season = registration.player_id, registration.season_id
    seat = (
        Q(home_player_1=player)
        | Q(home_player_2=player)
        | Q(away_player_1=player)
        | Q(away_player_2=player)
    )
    if FixtureTable.objects.filter(seat, fixture__division__season=season).exists():
        raise ValidationError(
            f"{registration.player} has already played this season; the registration stays."
        )
    name_people([registration.player])
    before = _registration_state(registration)
    league = registration.season.league
    subject = f"{registration.player} no longer registered for {registration.team}"
    with transaction.atomic():
        registration.delete()
        audit_log(
            league=league,
            action=AuditEntry.Action.REGISTRATION_CANCELLED,
            subject=subject,
            before=before,
            by=by,
        )


def _registration_state(registration: Registration) -> dict[str, object]:
    return {
        "player": registration.player_id,
        "player_name": str(registration.player),
        "team": registration.team_id,
        "team_name": str(registration.team),
        "season": registration.season_id,
        "registered_on": registration.registered_on.isoformat(),
    }


@transaction.atomic
def squad_register(
    *,
    team: Team,
    season: Season,
    players: Sequence[Player] = (),
    names: Sequence[str] = (),
    by: Account = None,
) -> list[Registration]:
    """Register several players to ``team`` for ``season`` at once: ``players`` chosen from the
    league's own, and ``names`` of new people (the caller has asked which names are people the
    league already has: ``leagues.selectors.people.LeaguePeople``). All or nothing: the first
    refusal names the player and nothing is registered."""
    require_secretary(by, season.league)
    return _squad(team=team, season=season, players=players, names=names, by=by)


#: How much of a name too long for a player's its refusal shows: the whole of a few names
#: pasted on one line, the start of anything longer.
NAME_SHOWN = 200


def name_too_long(name: str) -> str:
    """Why ``name`` (one-spaced) is too long for a player's, naming it: "“Fred Wolstenholme
    …” is 125 characters long: a player's name has at most 120."; "" when it is not."""
    longest = Player._meta.get_field("name").max_length or 0
    if len(name) <= longest:
        return ""
    shown = name if len(name) <= NAME_SHOWN else f"{name[:NAME_SHOWN]}…"
    return f"“{shown}” is {len(name)} characters long: a player's name has at most {longest}."


def _squad(
    *, team: Team, season: Season, players: Sequence[Player], names: Sequence[str], by: Account
) -> list[Registration]:
    """``squad_register`` once the caller has checked that ``by`` may register for ``team``."""
    chosen: list[Player] = list(players)
    for name in names:
        name = one_spaced(name)
        if not name:
            continue
        if too_long := name_too_long(name):
            raise ValidationError(f"{too_long} Nothing was registered.")
        try:
            check_name_words(name)
        except ValidationError as exc:
            raise ValidationError(f"{exc.message} Nothing was registered.") from exc
        chosen.append(Player.objects.create(name=name))
    if not chosen:
        raise ValidationError("Choose players or give their names: the squad is empty.")
    registrations = []
    seen: set[int] = set()
    for player in chosen:
        if player.pk in seen:
            continue
        seen.add(player.pk)
        try:
            registrations.append(
                _register(
                    player=player, name="", team=team, season=season, registered_on=None, by=by
                )
            )
        except ValidationError as exc:
            raise ValidationError(f"{player}: {' '.join(exc.messages)}") from exc
    return registrations


@transaction.atomic
def squad_add_on_the_night(*, fixture: Fixture, side: str, name: str, by: Account) -> Registration:
    """Add a player by name to one side's squad for the fixture's season, on the night: a
    captain's own side where the league lets captains register players
    (``League.captains_register``), either side for a secretary. A name the league already
    knows is that player."""
    if side not in ("home", "away"):
        raise ValidationError("Choose the home or the away side.")
    if by is not None and side not in squad_sides(by, fixture):
        raise PermissionDenied(
            "Only that team's captain (where the league allows it) or a secretary adds a "
            "player to its squad."
        )
    team = fixture.home if side == "home" else fixture.away
    season = fixture.division.season
    name = one_spaced(name)
    if not name:
        raise ValidationError(f"Type the new player's name for {team}.")
    if Registration.objects.filter(team=team, season=season, player__name__iexact=name).exists():
        raise ValidationError(
            f"{name} is already in {possessive(str(team))} squad: choose them at the table."
        )
    # A name the league knows is that person: surely (``LeaguePeople``), or its only person of
    # that name not playing this season; several who may be are chosen on the squad page.
    people = LeaguePeople(league=season.league, season=season)
    found = people.match(name, team)
    if found.player is None and len(found.candidates) == 1:
        found.player = found.candidates[0]
    if found.player is None and found.candidates:
        named = " and ".join(people.label(p) for p in found.candidates)
        raise ValidationError(
            f"The league has {named}: register the right one from "
            f"{possessive(str(team))} squad page."
        )
    known = [found.player] if found.player is not None else []
    (registration,) = _squad(
        team=team, season=season, players=known, names=[] if known else [name], by=by
    )
    return registration
