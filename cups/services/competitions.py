"""Creating a competition and entering teams, pairs or players into it.

Each service checks that the actor runs the league, that every object belongs to the league and
season, owns its transaction and writes the league's audit trail.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.template.defaultfilters import pluralize
from django.utils.text import slugify

from config.locks import lock_rows
from cups.models import Competition, Entrant
from cups.permissions import can_manage_competition
from cups.selectors import teams_to_enter
from leagues.audit import audit_log
from leagues.models import AuditEntry, League, Player, Registration, Season, Team, TeamEntry
from leagues.permissions import can_manage_league
from leagues.selectors.people import name_people
from scoring.actors import Account

Kind = Competition.EntrantKind


def require_manager(competition: Competition, by: Account) -> None:
    if not can_manage_competition(by, competition):
        raise PermissionDenied(f"Only the secretaries of {competition.league} run its cups.")


def competition_state(competition: Competition) -> dict[str, Any]:
    return {
        "name": competition.name,
        "season": competition.season_id,
        "format": competition.format,
        "entrant_kind": competition.entrant_kind,
        "tie_format": competition.tie_format,
        "best_of": competition.best_of,
        "decider": competition.decider,
        "draw_method": competition.draw_method,
        "protect_clubs": competition.protect_clubs,
        "groups": competition.groups,
        "qualifiers": competition.qualifiers,
    }


@transaction.atomic
def competition_create(
    *,
    league: League,
    season: Season,
    name: str,
    format: str = Competition.Format.KNOCKOUT,
    entrant_kind: str = Kind.TEAMS,
    best_of: int = 3,
    decider: str = Competition.Decider.PEGS,
    draw_method: str = Competition.DrawMethod.RANDOM,
    protect_clubs: bool = True,
    groups: int = 0,
    qualifiers: int = 2,
    by: Account,
) -> Competition:
    """A new cup of ``league`` in ``season``: teams play the league's match format, pairs and
    single players a race of ``best_of`` games."""
    if not can_manage_league(by, league):
        raise PermissionDenied(f"Only the secretaries of {league} run its cups.")
    if season.league_id != league.pk:
        raise ValidationError(f"{season} is not a season of {league}.")
    name = name.strip()
    if not name:
        raise ValidationError("Give the competition a name, e.g. “League Cup”.")
    for value, choices, what in (
        (format, Competition.Format, "format"),
        (entrant_kind, Kind, "kind of entrant"),
        (decider, Competition.Decider, "decider"),
        (draw_method, Competition.DrawMethod, "draw"),
    ):
        if value not in choices.values:
            raise ValidationError(f"“{value}” is not a {what} the app knows.")
    if entrant_kind == Kind.TEAMS:
        tie_format = Competition.TieFormat.MATCH
    else:
        tie_format = Competition.TieFormat.RACE
        if not (isinstance(best_of, int) and 1 <= best_of <= 15 and best_of % 2 == 1):
            raise ValidationError(
                f"A tie is best of an odd number of games from 1 to 15 (so someone wins); "
                f"not {best_of}."
            )
    if format == Competition.Format.GROUPS:
        _check_groups(groups, qualifiers)
    else:
        groups = 0
    slug = slugify(name)[:120] or "cup"
    if Competition.objects.filter(season=season, slug=slug).exists():
        raise ValidationError(f"{season.name} already has a competition called “{name}”.")
    competition = Competition.objects.create(
        league=league,
        season=season,
        name=name,
        slug=slug,
        format=format,
        entrant_kind=entrant_kind,
        tie_format=tie_format,
        best_of=best_of if tie_format == Competition.TieFormat.RACE else 1,
        decider=decider,
        draw_method=draw_method,
        protect_clubs=protect_clubs,
        groups=groups,
        qualifiers=qualifiers,
    )
    audit_log(
        league=league,
        action=AuditEntry.Action.CUP_CREATED,
        subject=f"{competition} created",
        after=competition_state(competition),
        by=by,
    )
    return competition


def _check_groups(groups: int, qualifiers: int) -> None:
    """A group stage's numbers: at least one group, one through from each, two in all."""
    if groups < 1:
        raise ValidationError("Groups then knock-out needs at least one group.")
    if qualifiers < 1:
        raise ValidationError("At least one entrant of each group goes through.")
    if groups * qualifiers < 2:
        raise ValidationError("The knock-out needs at least 2 qualifiers in all.")


@transaction.atomic
def competition_set_groups(
    *, competition: Competition, groups: int, qualifiers: int, by: Account
) -> Competition:
    """How many groups a groups-then-knock-out cup has and how many go through from each,
    changed while its entries are open (once the draw is made they are its groups)."""
    competition = _lock(competition)
    require_manager(competition, by)
    _taking_entries(competition)
    if competition.format != Competition.Format.GROUPS:
        raise ValidationError(f"{competition.name} is a knock-out: it has no groups.")
    _check_groups(groups, qualifiers)
    before = competition_state(competition)
    competition.groups, competition.qualifiers = groups, qualifiers
    competition.save(update_fields=["groups", "qualifiers"])
    audit_log(
        league=competition.league,
        action=AuditEntry.Action.CUP_CHANGED,
        subject=f"{competition}: {groups} group{pluralize(groups)}, {qualifiers} through from each",
        before=before,
        after=competition_state(competition),
        by=by,
    )
    return competition


def _lock(competition: Competition) -> Competition:
    return (
        Competition.objects.select_for_update(of=("self",))
        .select_related("league", "season")
        .get(pk=competition.pk)
    )


def _taking_entries(competition: Competition) -> None:
    if competition.stage != Competition.Stage.ENTRIES:
        raise ValidationError(f"The draw for {competition.name} is made: entries are closed.")


def _seed(seed: int | None) -> int | None:
    if seed is None:
        return None
    if not isinstance(seed, int) or not 1 <= seed <= 999:
        raise ValidationError("A seed is a ranking from 1 (the best) to 999.")
    return seed


def _require_teams_cup(competition: Competition) -> None:
    if competition.entrant_kind != Kind.TEAMS:
        raise ValidationError(
            f"{competition.name} is for {competition.get_entrant_kind_display().lower()}, "
            "not teams."
        )


def _enter_team(competition: Competition, team: Team, *, seed: int | None, by: Account) -> Entrant:
    """The team entered (by its name, its home venue its club), in the audit trail."""
    entrant = Entrant.objects.create(
        competition=competition,
        team=team,
        name=team.name,
        club_id=team.home_venue_id,
        seed=seed,
    )
    _audit_entrant(competition, entrant, by)
    return entrant


@transaction.atomic
def entrant_add_team(
    *, competition: Competition, team: Team, seed: int | None = None, by: Account
) -> Entrant:
    """Enter a team of the league that plays this season (not one withdrawn from it)."""
    competition = _lock(competition)
    require_manager(competition, by)
    _taking_entries(competition)
    _require_teams_cup(competition)
    if team.league_id != competition.league_id:
        raise ValidationError(f"{team} does not play in {competition.league}.")
    # A withdrawal of the team at the same time waits for the entry, or the entry for it.
    season_entry = TeamEntry.objects.filter(team=team, season=competition.season_id)
    lock_rows(season_entry)
    entry = season_entry.first()
    if entry is None:
        raise ValidationError(f"{team} has not entered {competition.season.name}.")
    if entry.is_withdrawn:
        raise ValidationError(
            f"{team} has withdrawn from {competition.season.name}: a withdrawn team is not "
            "entered in its cups."
        )
    if competition.entrants.filter(team=team).exists():
        raise ValidationError(f"{team} is already in {competition.name}.")
    return _enter_team(competition, team, seed=_seed(seed), by=by)


@transaction.atomic
def entrants_add_season_teams(*, competition: Competition, by: Account) -> list[Entrant]:
    """Enter every team playing the cup's season that is not in it yet (a withdrawn team is
    not): a league cup that all its teams play, entered in one step, each in the audit trail."""
    competition = _lock(competition)
    require_manager(competition, by)
    _taking_entries(competition)
    _require_teams_cup(competition)
    teams = list(teams_to_enter(competition=competition))
    if not teams:
        raise ValidationError(
            f"Every team playing {competition.season.name} is already in {competition.name}."
        )
    return [_enter_team(competition, team, seed=None, by=by) for team in teams]


@transaction.atomic
def entrant_add_players(
    *, competition: Competition, players: Sequence[Player], seed: int | None = None, by: Account
) -> Entrant:
    """Enter a pair (or, one a side, a single player) registered to one team this season, a
    team not withdrawn from it (as a team cup enters no withdrawn team)."""
    competition = _lock(competition)
    require_manager(competition, by)
    _taking_entries(competition)
    wanted = 2 if competition.entrant_kind == Kind.PAIRS else 1
    if competition.entrant_kind == Kind.TEAMS:
        raise ValidationError(f"{competition.name} is for teams, not pairs or players.")
    if len(players) != wanted or len({p.pk for p in players}) != wanted:
        raise ValidationError(
            "A pair is two different players." if wanted == 2 else "Enter one player."
        )
    teams = {
        r.player_id: r.team
        for r in Registration.objects.filter(
            season=competition.season_id, player__in=players, team__league=competition.league_id
        ).select_related("team")
    }
    for player in players:
        if player.pk not in teams:
            raise ValidationError(
                f"{player} is not registered to a team of {competition.league} for "
                f"{competition.season.name}."
            )
    if wanted == 2 and teams[players[0].pk].pk != teams[players[1].pk].pk:
        raise ValidationError(
            f"{players[0]} plays for {teams[players[0].pk]} and {players[1]} for "
            f"{teams[players[1].pk]}: a pair is two players of one team."
        )
    taken = competition.entrants.filter(player_1__in=players) | competition.entrants.filter(
        player_2__in=players
    )
    if taken.exists():
        raise ValidationError(f"{taken.first()} is already entered; a player enters once.")
    team = teams[players[0].pk]
    # A withdrawal of the team at the same time waits for the entry, or the entry for it.
    season_entry = TeamEntry.objects.filter(team=team, season=competition.season_id)
    lock_rows(season_entry)
    entry = season_entry.first()
    if entry is not None and entry.is_withdrawn:
        raise ValidationError(
            f"{team} has withdrawn from {competition.season.name}: a withdrawn team's players "
            "are not entered in its cups, as the team is not. Nothing was changed."
        )
    name_people(players)  # named once, as entered, as every page names them
    entrant = Entrant.objects.create(
        competition=competition,
        team=team,
        player_1=players[0],
        player_2=players[1] if wanted == 2 else None,
        name=" & ".join(p.label for p in players)[:200],
        club_id=team.home_venue_id,
        seed=_seed(seed),
    )
    _audit_entrant(competition, entrant, by)
    return entrant


def _audit_entrant(competition: Competition, entrant: Entrant, by: Account) -> None:
    audit_log(
        league=competition.league,
        action=AuditEntry.Action.CUP_ENTRANT_ADDED,
        subject=f"{entrant} entered {competition}",
        after={"entrant": entrant.pk, "name": entrant.name, "seed": entrant.seed},
        by=by,
    )


@transaction.atomic
def entrant_remove(*, entrant: Entrant, by: Account) -> None:
    competition = _lock(entrant.competition)
    require_manager(competition, by)
    _taking_entries(competition)
    audit_log(
        league=competition.league,
        action=AuditEntry.Action.CUP_ENTRANT_REMOVED,
        subject=f"{entrant} withdrawn from {competition}",
        before={"entrant": entrant.pk, "name": entrant.name},
        by=by,
    )
    entrant.delete()
