"""Setting up a league: the league itself, its seasons, divisions, venues, teams and entries."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from leagues.formats import STYLE_PRESETS, MatchFormat
from leagues.models import Division, League, Player, Season, Team, TeamEntry, Venue
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
    if by is not None:
        league.secretaries.add(by)
    return league


def league_set_tiebreaks(
    *, league: League, tiebreaks: Sequence[str], by: User | None = None
) -> League:
    """The secretary's order of tie-breaks, e.g. ``["points", "games_for", "head_to_head"]``."""
    tiebreaks = list(tiebreaks)
    validate_tiebreaks(tiebreaks)
    league.tiebreaks = tiebreaks
    league.save(update_fields=["tiebreaks"])
    return league


def league_set_match_format(
    *, league: League, match_format: MatchFormat, by: User | None = None
) -> League:
    """Change how matches are scored. Results already stored keep the figures they had."""
    league.match_format = match_format.to_spec()
    league.save(update_fields=["match_format"])
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
    return season


def division_create(
    *, season: Season, name: str, rank: int = 1, slug: str = "", by: User | None = None
) -> Division:
    division = Division(season=season, name=name, slug=slug or slugify(name), rank=rank)
    division.full_clean()
    division.save()
    return division


def venue_create(
    *, name: str, town: str = "", address: str = "", slug: str = "", by: User | None = None
) -> Venue:
    venue = Venue(
        name=name, town=town, address=address, slug=slug or slugify(f"{name} {town}".strip())
    )
    venue.full_clean()
    venue.save()
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
    entry.captain = captain
    entry.save(update_fields=["captain"])
    return entry
