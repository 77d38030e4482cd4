"""Setting up a league: the league itself, its seasons, divisions, venues, teams and entries.

Every change is in the league's audit trail (before and after); an edit that changes nothing
writes nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

from leagues.audit import audit_log
from leagues.formats import STYLE_PRESETS, MatchFormat
from leagues.models import (
    Division,
    Fixture,
    League,
    Player,
    Season,
    TableGame,
    Team,
    TeamEntry,
    Venue,
)
from leagues.services.fixtures import REPLACEABLE
from leagues.tiebreaks import validate_tiebreaks

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser as User


@transaction.atomic
def league_create(
    *,
    name: str,
    style: str,
    slug: str = "",
    ruleset: Mapping[str, Any] | None = None,
    match_format: MatchFormat | None = None,
    tiebreaks: Sequence[str] | None = None,
    league_night: int = 1,
    start_time: datetime.time = datetime.time(20, 0),
    description: str = "",
    by: User | None = None,
) -> League:
    """A new league of ``style`` ("yorkshire" or "trinidad"), starting from the style's preset.

    ``ruleset`` is a spec such as ``{"preset": "west_yorkshire", "target": 15}``; the creator
    becomes one of its secretaries.
    """
    preset = STYLE_PRESETS[style]
    league = League(
        name=name.strip(),
        slug=slug or slugify(name),
        style=style,
        ruleset=dict(ruleset or preset.ruleset),
        match_format=(match_format or preset.match_format).to_spec(),
        tiebreaks=list(tiebreaks or preset.tiebreaks),
        league_night=league_night,
        start_time=start_time,
        description=description,
    )
    league.full_clean()
    league.save()
    if by is not None and getattr(by, "is_authenticated", False):
        league.secretaries.add(by)
    _audit(
        league=league,
        action="league_created",
        subject=f"{league} started",
        before=None,
        after=_league_state(league)
        | {"secretaries": sorted(league.secretaries.values_list("username", flat=True))},
        by=by,
    )
    return league


def league_set_tiebreaks(
    *, league: League, tiebreaks: Sequence[str], by: User | None = None
) -> League:
    """The secretary's order of tie-breaks, e.g. ``["points", "games_for", "head_to_head"]``."""
    tiebreaks = list(tiebreaks)
    validate_tiebreaks(tiebreaks)
    before = _league_state(league)
    league.tiebreaks = tiebreaks
    league.save(update_fields=["tiebreaks"])
    _audit(
        league=league,
        action="league_updated",
        subject=f"Tie-breaks of {league} changed",
        before=before,
        after=_league_state(league),
        by=by,
    )
    return league


def league_set_match_format(
    *, league: League, match_format: MatchFormat, by: User | None = None
) -> League:
    """Change how matches are scored. Results already stored keep the figures they had."""
    before = _league_state(league)
    league.match_format = match_format.to_spec()
    league.save(update_fields=["match_format"])
    _audit(
        league=league,
        action="league_updated",
        subject=f"Match format of {league} changed",
        before=before,
        after=_league_state(league),
        by=by,
    )
    return league


def season_create(
    *,
    league: League,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    slug: str = "",
    by: User | None = None,
) -> Season:
    season = Season(
        league=league, name=name, slug=slug or slugify(name), starts_on=starts_on, ends_on=ends_on
    )
    season.full_clean()
    season.save()
    _audit(
        league=league,
        action="season_added",
        subject=f"Season {season.name} added",
        before=None,
        after=_season_state(season),
        by=by,
    )
    return season


def division_create(
    *, season: Season, name: str, rank: int = 1, slug: str = "", by: User | None = None
) -> Division:
    division = Division(season=season, name=name, slug=slug or slugify(name), rank=rank)
    division.full_clean()
    division.save()
    _audit(
        league=season.league,
        action="division_added",
        subject=f"{division} added",
        before=None,
        after=_division_state(division),
        by=by,
    )
    return division


def venue_create(
    *,
    name: str,
    town: str = "",
    address: str = "",
    slug: str = "",
    league: League | None = None,
    by: User | None = None,
) -> Venue:
    """A new venue (venues are shared by leagues); ``league`` is whose audit trail records it."""
    venue = Venue(
        name=name, town=town, address=address, slug=slug or slugify(f"{name} {town}".strip())
    )
    venue.full_clean()
    venue.save()
    if league is not None:
        _audit(
            league=league,
            action="venue_added",
            subject=f"Venue {venue} added",
            before=None,
            after=_venue_state(venue),
            by=by,
        )
    return venue


def team_create(
    *,
    league: League,
    name: str,
    home_venue: Venue,
    short_name: str = "",
    slug: str = "",
    by: User | None = None,
) -> Team:
    team = Team(
        league=league,
        name=name,
        slug=slug or slugify(name),
        short_name=short_name,
        home_venue=home_venue,
    )
    team.full_clean()
    team.save()
    _audit(
        league=league,
        action="team_added",
        subject=f"Team {team} added",
        before=None,
        after=_team_state(team),
        by=by,
    )
    return team


def player_create(*, name: str, by: User | None = None) -> Player:
    player = Player(name=name.strip())
    player.full_clean()
    player.save()
    return player


def team_enter(
    *,
    team: Team,
    division: Division,
    captain: Player | None = None,
    by: User | None = None,
) -> TeamEntry:
    """Enter a team into a division for the division's season (one division a season)."""
    season = division.season
    if team.league_id != season.league_id:
        raise ValidationError(f"{team} does not belong to {season.league}.")
    existing = TeamEntry.objects.filter(team=team, season=season).select_related("division")
    if existing.exists():
        raise ValidationError(f"{team} is already entered in {existing.get().division.name}.")
    entry = TeamEntry.objects.create(team=team, division=division, season=season)
    _audit(
        league=season.league,
        action="team_entered",
        subject=f"{team} entered in {division}",
        before=None,
        after=_entry_state(entry),
        by=by,
    )
    if captain is not None:
        entry_set_captain(entry=entry, captain=captain, by=by)
    return entry


def entry_set_captain(
    *, entry: TeamEntry, captain: Player | None, by: User | None = None
) -> TeamEntry:
    """Make ``captain`` (registered to the team this season) the team's captain."""
    if (
        captain is not None
        and not captain.registrations.filter(team=entry.team_id, season=entry.season_id).exists()
    ):
        raise ValidationError(
            f"{captain} is not registered for {entry.team} in {entry.season.name}."
        )
    before = _entry_state(entry)
    entry.captain = captain
    entry.save(update_fields=["captain"])
    _audit(
        league=entry.season.league,
        action="captain_changed",
        subject=f"{entry.team}'s captain for {entry.season.name}: {captain or 'none'}",
        before=before,
        after=_entry_state(entry),
        by=by,
    )
    return entry


def _audit(
    *,
    league: League,
    action: str,
    subject: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    by: User | None,
) -> None:
    if before is not None and before == after:
        return
    audit_log(league=league, action=action, subject=subject, before=before, after=after, by=by)


def _league_state(league: League) -> dict[str, Any]:
    return {
        "name": league.name,
        "description": league.description,
        "league_night": league.league_night,
        "start_time": str(league.start_time)[:5],
        "ruleset": league.ruleset,
        "match_format": league.match_format,
        "tiebreaks": league.tiebreaks,
        "show_provisional": league.show_provisional,
    }


def _season_state(season: Season) -> dict[str, Any]:
    return {
        "season": season.pk,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat() if season.ends_on else None,
    }


def _division_state(division: Division) -> dict[str, Any]:
    return {"division": division.pk, "name": division.name, "rank": division.rank}


def _venue_state(venue: Venue) -> dict[str, Any]:
    return {"venue": venue.pk, "name": venue.name, "town": venue.town, "address": venue.address}


def _team_state(team: Team) -> dict[str, Any]:
    return {
        "team": team.pk,
        "name": team.name,
        "short_name": team.short_name,
        "home_venue": team.home_venue_id,
        "home_venue_name": str(team.home_venue),
    }


def _entry_state(entry: TeamEntry) -> dict[str, Any]:
    captain = entry.captain
    return {
        "team": entry.team_id,
        "season": entry.season_id,
        "division": entry.division_id,
        "captain": entry.captain_id,
        "captain_name": captain.name if captain else None,
        "captain_contact": entry.captain_contact,
    }


#: Fixture states that mean a result is stored for it.
_DECIDED = (Fixture.Status.PLAYED, Fixture.Status.WALKOVER)


def league_has_played(*, league: League) -> bool:
    """Whether any fixture of the league is played, walked over or has a game started: from
    then on its ruleset and match format are what its stored results were scored with."""
    fixtures = Fixture.objects.filter(division__season__league=league)
    return (
        fixtures.filter(status__in=_DECIDED).exists()
        or TableGame.objects.filter(table__fixture__in=fixtures).exists()
    )


@transaction.atomic
def league_update(
    *,
    league: League,
    name: str,
    description: str,
    league_night: int,
    start_time: datetime.time,
    target: int | None,
    match_format: MatchFormat,
    tiebreaks: Sequence[str],
    show_provisional: bool | None = None,
    by: User | None = None,
) -> League:
    """Everything a secretary can change about a running league, in one go.

    The ruleset's target (``None`` keeps the style's) and the match format are refused once a
    fixture of the league has been played: its stored results were scored by the old ones.
    """
    league = League.objects.select_for_update().get(pk=league.pk)
    before = _league_state(league)
    ruleset = dict(league.ruleset or STYLE_PRESETS[league.style].ruleset)
    preset_target = STYLE_PRESETS[league.style].ruleset.get("target")
    new_target = target if target is not None else preset_target
    if new_target is not None:
        ruleset["target"] = new_target
    spec = match_format.to_spec()
    changed = {}
    if ruleset != (league.ruleset or STYLE_PRESETS[league.style].ruleset):
        changed["target"] = "The target cannot change once a fixture has been played."
    if spec != league.get_match_format().to_spec():
        changed["match_format"] = (
            "The match format cannot change once a fixture has been played: "
            "stored results were scored with the current one."
        )
    if changed and league_has_played(league=league):
        raise ValidationError(changed)
    tiebreaks = list(tiebreaks)
    validate_tiebreaks(tiebreaks)
    league.name = name.strip()
    league.description = description
    league.league_night = league_night
    league.start_time = start_time
    league.ruleset = ruleset
    league.match_format = spec
    league.tiebreaks = tiebreaks
    if show_provisional is not None:
        league.show_provisional = show_provisional
    league.full_clean()
    league.save()
    _audit(
        league=league,
        action="league_updated",
        subject=f"Settings of {league} changed",
        before=before,
        after=_league_state(league),
        by=by,
    )
    return league


def season_update(
    *,
    season: Season,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    by: User | None = None,
) -> Season:
    """Rename or re-date a season; its slug (and so its addresses) stays."""
    before = _season_state(season)
    season.name = name.strip()
    season.starts_on = starts_on
    season.ends_on = ends_on
    season.full_clean()
    season.save(update_fields=["name", "starts_on", "ends_on"])
    _audit(
        league=season.league,
        action="season_updated",
        subject=f"Season {season.name} changed",
        before=before,
        after=_season_state(season),
        by=by,
    )
    return season


def division_update(
    *, division: Division, name: str, rank: int, by: User | None = None
) -> Division:
    before = _division_state(division)
    division.name = name.strip()
    division.rank = rank
    division.full_clean()
    division.save(update_fields=["name", "rank"])
    _audit(
        league=division.season.league,
        action="division_updated",
        subject=f"{division} changed",
        before=before,
        after=_division_state(division),
        by=by,
    )
    return division


def venue_update(
    *,
    venue: Venue,
    name: str,
    town: str = "",
    address: str = "",
    league: League | None = None,
    by: User | None = None,
) -> Venue:
    """Rename or re-address a venue; ``league`` is whose audit trail records it."""
    before = _venue_state(venue)
    venue.name = name.strip()
    venue.town = town.strip()
    venue.address = address
    venue.full_clean()
    venue.save(update_fields=["name", "town", "address"])
    if league is not None:
        _audit(
            league=league,
            action="venue_updated",
            subject=f"Venue {venue} changed",
            before=before,
            after=_venue_state(venue),
            by=by,
        )
    return venue


def team_update(
    *,
    team: Team,
    name: str,
    home_venue: Venue,
    short_name: str = "",
    by: User | None = None,
) -> Team:
    """Rename a team or move its home; fixtures already made keep the venue they had."""
    before = _team_state(team)
    team.name = name.strip()
    team.short_name = short_name.strip()
    team.home_venue = home_venue
    team.full_clean()
    team.save(update_fields=["name", "short_name", "home_venue"])
    _audit(
        league=team.league,
        action="team_updated",
        subject=f"Team {team} changed",
        before=before,
        after=_team_state(team),
        by=by,
    )
    return team


@transaction.atomic
def entry_move(*, entry: TeamEntry, division: Division, by: User | None = None) -> int:
    """Move a team's entry to another division of the same season, before it has played.

    Its fixtures still to play in the old division go with it (they are deleted; generate the
    new division's list again). Returns how many were deleted.
    """
    entry = (
        TeamEntry.objects.select_for_update().select_related("team", "division").get(pk=entry.pk)
    )
    if division.season_id != entry.season_id:
        raise ValidationError({"division": "A team can only move within the same season."})
    if division.pk == entry.division_id:
        return 0
    team_fixtures = Fixture.objects.filter(division=entry.division_id).filter(
        Q(home=entry.team_id) | Q(away=entry.team_id)
    )
    started = TableGame.objects.filter(table__fixture__in=team_fixtures)
    if team_fixtures.exclude(status__in=REPLACEABLE).exists() or started.exists():
        raise ValidationError(
            {
                "division": f"{entry.team} has played in {entry.division.name} this season; "
                "it stays there."
            }
        )
    before = _entry_state(entry)
    removed, _ = team_fixtures.delete()
    entry.division = division
    entry.save(update_fields=["division"])
    _audit(
        league=division.season.league,
        action="team_moved",
        subject=f"{entry.team} moved to {division.name} ({removed} unplayed fixtures removed)",
        before=before,
        after=_entry_state(entry),
        by=by,
    )
    return removed


def entry_set_contact(*, entry: TeamEntry, contact: str, by: User | None = None) -> TeamEntry:
    """The captain's phone or email, for the secretary only (never on a public page)."""
    before = _entry_state(entry)
    entry.captain_contact = contact.strip()
    entry.full_clean()
    entry.save(update_fields=["captain_contact"])
    _audit(
        league=entry.season.league,
        action="captain_contact_changed",
        subject=f"{entry.team}'s captain's contact for {entry.season.name} changed",
        before=before,
        after=_entry_state(entry),
        by=by,
    )
    return entry
