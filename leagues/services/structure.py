"""Setting up a league: the league itself, its seasons, divisions, venues, teams and entries.

Every change is in the league's audit trail (before and after); an edit that changes nothing
writes nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.template.defaultfilters import pluralize

from config.inputs import one_spaced
from config.locks import lock_rows
from leagues.audit import audit_log
from leagues.days import long_date
from leagues.formats import STYLE_PRESETS
from leagues.match import MatchFormat
from leagues.models import (
    SEASON_MATCHES_A_NIGHT,
    VENUE_CLOSED,
    VENUE_MATCHES_A_NIGHT,
    AuditEntry,
    Division,
    Fixture,
    League,
    Player,
    Season,
    TableGame,
    Team,
    TeamEntry,
    Venue,
    league_address,
    name_address,
)
from leagues.nights_off import NightsOff, NightsOffError, check_overlaps, dates_off
from leagues.permissions import (
    can_approve_leagues,
    can_create_league,
    player_is_free,
    require_secretary,
    venue_is_kept_by,
)
from leagues.selectors.fixtures import matches_on_their_nights, season_spans
from leagues.selectors.people import name_people
from leagues.services.fixtures import REPLACEABLE, nights_off_checked
from leagues.services.standings import (
    refresh_division_table,
    refresh_league_tables,
    refresh_season_tables,
    refresh_tables,
)
from leagues.tiebreaks import validate_tiebreaks
from scoring.actors import Account
from scoring.forms.words import possessive
from scoring.sheet import join_words


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
    time_zone: str = "",
    description: str = "",
    by: Account = None,
    approved_by: Account = None,
) -> League:
    """A new league of ``style`` ("yorkshire" or "trinidad"), starting from the style's preset.

    ``ruleset`` is a spec such as ``{"preset": "west_yorkshire", "target": 15}``; the creator
    becomes one of its secretaries. Refused unless ``by`` may start a league, or the site's
    operator ``approved_by`` approved its request (None for both: the system). ``time_zone``
    blank: the style's (Europe/London, America/Port_of_Spain).
    """
    if approved_by is not None:
        if not can_approve_leagues(approved_by):
            raise PermissionDenied("Only the site's operator approves new leagues.")
    elif by is not None and not can_create_league(by):
        raise PermissionDenied("You may not start a league: ask the site's operator.")
    preset = STYLE_PRESETS[style]
    league = League(
        name=one_spaced(name),
        slug=league_address(name, slug),
        style=style,
        ruleset=dict(ruleset or preset.ruleset),
        match_format=(match_format or preset.match_format).to_spec(),
        tiebreaks=list(tiebreaks or preset.tiebreaks),
        league_night=league_night,
        start_time=start_time,
        time_zone=time_zone or preset.time_zone,
        description=description,
    )
    league.full_clean()
    league.save()
    if by is not None and getattr(by, "is_authenticated", False):
        league.secretaries.add(by)
    _audit(
        league=league,
        action=AuditEntry.Action.LEAGUE_CREATED,
        subject=f"{league} started",
        before=None,
        after=_league_state(league)
        | {"secretaries": sorted(league.secretaries.values_list("username", flat=True))},
        by=by,
    )
    return league


@transaction.atomic
def league_set_tiebreaks(*, league: League, tiebreaks: Sequence[str], by: Account = None) -> League:
    """The secretary's order of tie-breaks, e.g. ``["points", "games_for", "head_to_head"]``."""
    require_secretary(by, league)
    tiebreaks = list(tiebreaks)
    validate_tiebreaks(tiebreaks)
    before = _league_state(league)
    league.tiebreaks = tiebreaks
    league.save(update_fields=["tiebreaks"])
    _audit(
        league=league,
        action=AuditEntry.Action.LEAGUE_UPDATED,
        subject=f"Tie-breaks of {league} changed",
        before=before,
        after=_league_state(league),
        by=by,
    )
    refresh_league_tables(league=league)
    return league


@transaction.atomic
def league_set_match_format(
    *, league: League, match_format: MatchFormat, by: Account = None
) -> League:
    """Change how matches are scored. Results already stored keep the figures they had."""
    require_secretary(by, league)
    before = _league_state(league)
    league.match_format = match_format.to_spec()
    league.save(update_fields=["match_format"])
    _audit(
        league=league,
        action=AuditEntry.Action.LEAGUE_UPDATED,
        subject=f"Match format of {league} changed",
        before=before,
        after=_league_state(league),
        by=by,
    )
    return league


def season_clash(
    *,
    league: League,
    starts_on: datetime.date,
    ends_on: datetime.date | None,
    season: Season | None = None,
) -> str:
    """Why a season of ``league`` (``season`` itself when it is one being re-dated) cannot run
    from ``starts_on`` to ``ends_on`` (open-ended when None), or "": the league plays one
    season at a time, so it may not start while another runs (from its start to its end or its
    last fixture, whichever is later) nor run into the start of a later one. Its pages show the
    season begun most recently: an overlap would hide the rest of the other."""
    for span in season_spans(league=league):
        other = span.season
        if season is not None and other.pk == season.pk:
            continue
        if other.starts_on <= starts_on <= span.runs_to:
            ends = (
                f"ends {long_date(span.runs_to)}"
                if span.runs_to == other.ends_on
                else f"has fixtures to {long_date(span.runs_to)}"
            )
            return (
                f"{other.name} runs then: it started {long_date(other.starts_on)} and {ends}. "
                "Start this season after it."
            )
        if starts_on < other.starts_on and (ends_on is None or ends_on >= other.starts_on):
            return (
                f"{other.name} starts {long_date(other.starts_on)}: give this season an end "
                "before then, or start it after that season."
            )
    return ""


@transaction.atomic
def season_create(
    *,
    league: League,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    slug: str = "",
    league_night: int | None = None,
    exclusions: Sequence[NightsOff | datetime.date] = (),
    venue_capacity: int = 1,
    by: Account = None,
) -> Season:
    """A new season with its calendar; its nights with no league are refused when they overlap
    or run outside the season's dates, as are dates inside another season's (``season_clash``)."""
    require_secretary(by, league)
    if clash := season_clash(league=league, starts_on=starts_on, ends_on=ends_on):
        raise ValidationError({"starts_on": clash})
    season = Season(
        league=league,
        name=name,
        slug=slug or name_address(name, "season"),
        starts_on=starts_on,
        ends_on=ends_on,
        # The league's rules are the default for a new season; it keeps its own copy.
        ruleset=dict(league.ruleset or STYLE_PRESETS[league.style].ruleset),
        match_format=league.get_match_format().to_spec(),
        tiebreaks=league.get_tiebreaks(),
        league_night=league_night,
        exclusions=nights_off_checked(exclusions, starts_on=starts_on, ends_on=ends_on),
        venue_capacity=venue_capacity,
    )
    season.full_clean()
    season.save()
    _audit(
        league=league,
        action=AuditEntry.Action.SEASON_ADDED,
        subject=f"Season {season.name} added",
        before=None,
        after=_season_state(season),
        by=by,
    )
    return season


def _refuse_ranking(division: Division, *, going_up_given: bool) -> None:
    """Refuse a rank another division of the season has (naming it), and teams going up from
    the top division (none is above it: the form's help says so); a top division whose
    "going up" was not given sends none."""
    others = Division.objects.filter(season=division.season_id).exclude(pk=division.pk)
    taken = others.filter(rank=division.rank).first()
    if taken is not None:
        raise ValidationError(
            {
                "rank": f"{taken.name} is already at rank {division.rank} in "
                f"{division.season.name}: give each division its own rank (1 is the top). To "
                "swap two, move one to a free rank first."
            }
        )
    if others.filter(rank__lt=division.rank).exists():
        return
    if going_up_given and division.promoted:
        raise ValidationError(
            {
                "promoted": f"{division.name} is the top division of {division.season.name}: "
                "no team goes up from it. Leave “Teams going up” at 0."
            }
        )
    division.promoted = 0


@transaction.atomic
def division_create(
    *,
    season: Season,
    name: str,
    rank: int = 1,
    promoted: int | None = None,
    relegated: int | None = None,
    slug: str = "",
    by: Account = None,
) -> Division:
    """A new division of ``season``; how many go up and down at the season's end as the
    division's defaults unless given."""
    require_secretary(by, season.league)
    division = Division(
        season=season, name=name, slug=slug or name_address(name, "division"), rank=rank
    )
    if promoted is not None:
        division.promoted = promoted
    if relegated is not None:
        division.relegated = relegated
    _refuse_ranking(division, going_up_given=promoted is not None)
    division.full_clean()
    division.save()
    _audit(
        league=season.league,
        action=AuditEntry.Action.DIVISION_ADDED,
        subject=f"{division} added",
        before=None,
        after=_division_state(division),
        by=by,
    )
    return division


@transaction.atomic
def venue_create(
    *,
    name: str,
    town: str = "",
    address: str = "",
    slug: str = "",
    matches_a_night: int | None = None,
    closed: Sequence[NightsOff] = (),
    league: League | None = None,
    by: Account = None,
) -> Venue:
    """A new venue kept by ``league`` (``None``: the site operator's own). Its name and town
    are stored one-spaced, as a second of the same is refused. ``matches_a_night``: how many
    matches it can host on one night (None: the season's setting); ``closed``: the dates it
    is closed (``_closed_checked``)."""
    name, town = one_spaced(name), one_spaced(town)
    if league is not None:
        require_secretary(by, league)
        _refuse_venue_twice(league, name, town)
    _refuse_matches_a_night(matches_a_night)
    stored_closed = _closed_checked(closed)
    slug = slug or name_address(f"{name} {town}".strip(), "venue")
    if league is not None and Venue.objects.filter(slug=slug).exists():
        # Slugs are the site's: another league's pub of that name has it.
        base, number = f"{slug}-{league.slug}"[:110], 1
        slug = base
        while Venue.objects.filter(slug=slug).exists():
            number += 1
            slug = f"{base}-{number}"
    venue = Venue(
        league=league,
        name=name,
        town=town,
        address=address,
        slug=slug,
        matches_a_night=matches_a_night,
        closed=stored_closed,
    )
    venue.full_clean()
    venue.save()
    if league is not None:
        _audit(
            league=league,
            action=AuditEntry.Action.VENUE_ADDED,
            subject=f"Venue {venue} added",
            before=None,
            after=_venue_state(venue),
            by=by,
        )
    return venue


def _refuse_matches_a_night(matches_a_night: int | None) -> None:
    """Refuse a venue's number of matches a night below 1 (None is the season's setting)."""
    if matches_a_night is not None and matches_a_night < 1:
        raise ValidationError(
            {
                "matches_a_night": f"{VENUE_MATCHES_A_NIGHT}: at least 1, not "
                f"{matches_a_night} (blank for the season's setting)."
            }
        )


def _closed_checked(closed: Sequence[NightsOff]) -> list[dict[str, object]]:
    """A venue's dates it is closed as stored, refused (naming the range) when two overlap or
    one is marked every year (a season's nights with no league are carried so; a pub's
    closing is for the dates given)."""
    try:
        ranges = check_overlaps(closed)
    except NightsOffError as exc:
        raise ValidationError({"closed": f"{VENUE_CLOSED}: {exc}."}) from exc
    for nights in ranges:
        if nights.every_year:
            raise ValidationError(
                {
                    "closed": f"{VENUE_CLOSED}: {nights.label} is marked every year; a venue is "
                    "closed on the dates given: write each year's."
                }
            )
    return [nights.to_json() for nights in ranges]


def _refuse_closed_booked(*, venue: Venue, league: League, closed: Sequence[NightsOff]) -> None:
    """Refuse closing ``venue`` on a night to come it already hosts a match on, each named
    with its night: re-arranged first, the night can be closed."""
    days = dates_off(closed)
    if not days:
        return
    booked = [
        f"{fixture.home} v {fixture.away} on {long_date(fixture.date)}"
        for fixture in matches_on_their_nights(
            Fixture.objects.filter(venue=venue, date__gte=league.today(), date__in=days)
        )
        .select_related("home", "away")
        .order_by("date", "pk")
    ]
    if booked:
        raise ValidationError(
            {
                "closed": f"{venue} already hosts {'; '.join(booked)}: re-arrange "
                f"{'it' if len(booked) == 1 else 'them'} first (on the fixture's page), or "
                f"leave {'that night' if len(booked) == 1 else 'those nights'} open."
            }
        )


def _refuse_nights_over(
    *,
    league: League,
    fixtures: QuerySet[Fixture],
    room: Callable[[Season], int],
    field: str,
    advice: str,
) -> None:
    """Refuse a venue's number of matches a night (its own, or the season's it follows) that
    ``fixtures`` already break on a night from today on: more matches at one venue that night
    than ``room`` (of the fixture's season) lets it host. Each venue is named with each such
    night and its matches, and how to go on (``advice``, ending "... to", is followed by the
    most it hosts on one of them); nothing is changed."""
    nights: dict[tuple[int, datetime.date], list[Fixture]] = {}
    for fixture in (
        matches_on_their_nights(fixtures.filter(date__gte=league.today()))
        .select_related("home", "away", "venue", "division__season")
        .order_by("date", "pk")
    ):
        nights.setdefault((fixture.venue_id, fixture.date), []).append(fixture)
    over: dict[Venue, list[str]] = {}
    can: dict[Venue, int] = {}
    most = 0
    for (_, day), matches in nights.items():
        venue, number = matches[0].venue, room(matches[0].division.season)
        if len(matches) > number:
            over.setdefault(venue, []).append(
                f"{len(matches)} matches on {long_date(day)} "
                f"({'; '.join(f'{f.home} v {f.away}' for f in matches)})"
            )
            can[venue] = number
            most = max(most, len(matches))
    if over:
        said = " ".join(
            f"{venue} already has {join_words(its)}: it can host {can[venue]} a night."
            for venue, its in over.items()
        )
        raise ValidationError(
            {
                field: f"{said} Re-arrange a match off each of those nights first (on the "
                f"fixture's page), {advice} {most} or more."
            }
        )


def _refuse_venue_twice(league: League, name: str, town: str, but: int | None = None) -> None:
    """Refuse a second venue of one name (and town), case aside, in ``league`` (``name`` and
    ``town`` one-spaced, as they are stored): the league's lists and pickers would show two
    alike."""
    same = league.venues.filter(name__iexact=name, town__iexact=town).exclude(pk=but).first()
    if same is not None:
        # Named as the league's list shows it, not as typed this time.
        where = f" in {same.town}" if same.town else ""
        raise ValidationError(
            {
                "name": f"{league} has a venue called {same.name}{where} already: use it, or "
                "give this one another name."
            }
        )


@transaction.atomic
def team_create(
    *,
    league: League,
    name: str,
    home_venue: Venue,
    short_name: str = "",
    slug: str = "",
    division: Division | None = None,
    by: Account = None,
) -> Team:
    """A new team of ``league`` at one of its venues, entered in ``division`` if given (all or
    nothing)."""
    require_secretary(by, league)
    _require_venue(home_venue, league)
    team = Team(
        league=league,
        name=name,
        slug=slug or name_address(name, "team"),
        short_name=short_name,
        home_venue=home_venue,
    )
    team.full_clean()
    team.save()
    _audit(
        league=league,
        action=AuditEntry.Action.TEAM_ADDED,
        subject=f"Team {team} added",
        before=None,
        after=_team_state(team),
        by=by,
    )
    if division is not None:
        team_enter(team=team, division=division, by=by)
    return team


@transaction.atomic
def team_enter(
    *,
    team: Team,
    division: Division,
    captain: Player | None = None,
    by: Account = None,
) -> TeamEntry:
    """Enter a team into a division for the division's season (one division a season)."""
    require_secretary(by, division.season.league)
    season = division.season
    if team.league_id != season.league_id:
        raise ValidationError(f"{team} does not belong to {season.league}.")
    existing = TeamEntry.objects.filter(team=team, season=season).select_related("division")
    if existing.exists():
        raise ValidationError(f"{team} is already entered in {existing.get().division.name}.")
    entry = TeamEntry.objects.create(team=team, division=division, season=season, name=team.name)
    _audit(
        league=season.league,
        action=AuditEntry.Action.TEAM_ENTERED,
        subject=f"{team} entered in {division}",
        before=None,
        after=_entry_state(entry),
        by=by,
    )
    refresh_division_table(division=division)
    if captain is not None:
        entry_set_captain(entry=entry, captain=captain, by=by)
    return entry


@transaction.atomic
def entry_set_captain(*, entry: TeamEntry, captain: Player | None, by: Account = None) -> TeamEntry:
    """Make ``captain`` (registered to the team this season, and in no other league ``by``
    does not run) the team's captain."""
    require_secretary(by, entry.season.league)
    league = entry.season.league
    changed = captain is not None and captain.pk != entry.captain_id
    if changed and captain is not None and not player_is_free(by, league, captain):
        raise ValidationError(
            {
                "captain": f"{captain} plays in another league: only the site's operator can "
                f"make them a captain in {league}."
            }
        )
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
    name_people([captain])  # the audit entry says which of two of one name it is
    _audit(
        league=entry.season.league,
        action=AuditEntry.Action.CAPTAIN_CHANGED,
        subject=(
            f"{possessive(str(entry.team))} captain for {entry.season.name}: {captain or 'none'}"
        ),
        before=before,
        after=_entry_state(entry),
        by=by,
    )
    return entry


def _require_venue(venue: Venue, league: League, field: str = "home_venue") -> None:
    """Refuse a venue another league keeps (see ``leagues.permissions.venue_is_kept_by``)."""
    if not venue_is_kept_by(venue, league):
        raise ValidationError({field: f"{venue} is not one of {league}'s venues."})


def _audit(
    *,
    league: League,
    action: str,
    subject: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    by: Account,
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
        "time_zone": league.time_zone,
        "ruleset": league.ruleset,
        "match_format": league.match_format,
        "tiebreaks": league.tiebreaks,
        "show_provisional": league.show_provisional,
        "withdrawal": league.withdrawal,
        "withdrawn_take_places": league.withdrawn_take_places,
        "captains_register": league.captains_register,
    }


def _season_state(season: Season) -> dict[str, Any]:
    return {
        "season": season.pk,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat() if season.ends_on else None,
        "league_night": season.league_night,
        "exclusions": season.exclusions,
        "venue_capacity": season.venue_capacity,
    }


def _division_state(division: Division) -> dict[str, Any]:
    return {
        "division": division.pk,
        "name": division.name,
        "rank": division.rank,
        "promoted": division.promoted,
        "relegated": division.relegated,
    }


def _venue_state(venue: Venue) -> dict[str, Any]:
    return {
        "venue": venue.pk,
        "name": venue.name,
        "town": venue.town,
        "address": venue.address,
        "matches_a_night": venue.matches_a_night,
        "closed": [nights.label for nights in venue.closed_ranges],
    }


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


def season_has_played(*, season: Season) -> bool:
    """Whether any fixture of the season is played, walked over or has a game started: from
    then on its rules are what its stored results were scored with."""
    fixtures = Fixture.objects.filter(division__season=season)
    return (
        fixtures.filter(status__in=_DECIDED).exists()
        or TableGame.objects.filter(table__fixture__in=fixtures).exists()
    )


def _season_rules(season: Season) -> dict[str, Any]:
    return {
        "season": season.pk,
        "ruleset": season.ruleset,
        "match_format": season.match_format,
        "tiebreaks": season.tiebreaks,
    }


@transaction.atomic
def season_rules_update(
    *,
    season: Season,
    target: int | None,
    match_format: MatchFormat,
    tiebreaks: Sequence[str],
    by: Account = None,
) -> Season:
    """A season's target (``None``: the style's), match format and tie-breaks; refused once a
    fixture of the season is played."""
    require_secretary(by, season.league)
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    league = season.league
    before = _season_rules(season)
    ruleset = dict(season.ruleset or league.ruleset or STYLE_PRESETS[league.style].ruleset)
    new_target = target if target is not None else STYLE_PRESETS[league.style].ruleset.get("target")
    if new_target is not None:
        ruleset["target"] = new_target
    tiebreaks = list(tiebreaks)
    validate_tiebreaks(tiebreaks)
    after = {"ruleset": ruleset, "match_format": match_format.to_spec(), "tiebreaks": tiebreaks}
    if all(before[key] == value for key, value in after.items()):
        return season
    if season_has_played(season=season):
        raise ValidationError(
            f"A fixture of {season.name} has been played: its target, match format and "
            "tie-breaks are the ones its results were scored with. Change them for next season."
        )
    season.ruleset = ruleset
    season.match_format = after["match_format"]
    season.tiebreaks = tiebreaks
    season.full_clean()
    season.save(update_fields=["ruleset", "match_format", "tiebreaks"])
    _audit(
        league=league,
        action=AuditEntry.Action.SEASON_UPDATED,
        subject=f"Rules of {season.name} changed",
        before=before,
        after=_season_rules(season),
        by=by,
    )
    refresh_season_tables(season=season)
    return season


def league_has_played(*, league: League) -> bool:
    """Whether any fixture of the league is played, walked over or has a game started: from
    then on its ruleset and match format are what its stored results were scored with."""
    fixtures = Fixture.objects.filter(division__season__league=league)
    return (
        fixtures.filter(status__in=_DECIDED).exists()
        or TableGame.objects.filter(table__fixture__in=fixtures).exists()
    )


def _pin_season_rules(league: League) -> None:
    """Seasons still reading the league's rules get their own copy, before the league's
    change, so that a season already played keeps the rules it was scored with."""
    for season in league.seasons.all():
        if season.ruleset and season.match_format and season.tiebreaks:
            continue
        season.ruleset = season.ruleset or dict(
            league.ruleset or STYLE_PRESETS[league.style].ruleset
        )
        season.match_format = season.match_format or league.get_match_format().to_spec()
        season.tiebreaks = season.tiebreaks or league.get_tiebreaks()
        season.save(update_fields=["ruleset", "match_format", "tiebreaks"])


@transaction.atomic
def league_update(
    *,
    league: League,
    name: str,
    description: str,
    league_night: int,
    start_time: datetime.time,
    target: int | None,
    time_zone: str | None = None,
    match_format: MatchFormat,
    tiebreaks: Sequence[str],
    show_provisional: bool | None = None,
    withdrawal: str | None = None,
    withdrawn_take_places: bool | None = None,
    captains_register: bool | None = None,
    by: Account = None,
) -> League:
    """Everything a secretary can change about a running league, in one go.

    The target (``None`` keeps the style's), match format and tie-breaks are the league's
    defaults for new seasons; seasons not yet started take them too, while a season with a
    fixture played keeps the rules its results were scored with (``season_rules_update``).
    """
    require_secretary(by, league)
    league = League.objects.select_for_update().get(pk=league.pk)
    before = _league_state(league)
    _pin_season_rules(league)
    ruleset = dict(league.ruleset or STYLE_PRESETS[league.style].ruleset)
    preset_target = STYLE_PRESETS[league.style].ruleset.get("target")
    new_target = target if target is not None else preset_target
    if new_target is not None:
        ruleset["target"] = new_target
    spec = match_format.to_spec()
    tiebreaks = list(tiebreaks)
    validate_tiebreaks(tiebreaks)
    league.name = one_spaced(name)
    league.description = description
    league.league_night = league_night
    league.start_time = start_time
    if time_zone:
        league.time_zone = time_zone
    league.ruleset = ruleset
    league.match_format = spec
    league.tiebreaks = tiebreaks
    if show_provisional is not None:
        league.show_provisional = show_provisional
    if withdrawal is not None:
        league.withdrawal = withdrawal
    if withdrawn_take_places is not None:
        league.withdrawn_take_places = withdrawn_take_places
    if captains_register is not None:
        league.captains_register = captains_register
    league.full_clean()
    league.save()
    # The league's rules are the default for seasons to come: a season not yet started takes
    # them too; a season with a fixture played keeps its own.
    for season in league.seasons.all():
        if not season_has_played(season=season):
            season_rules_update(
                season=season, target=target, match_format=match_format, tiebreaks=tiebreaks, by=by
            )
    _audit(
        league=league,
        action=AuditEntry.Action.LEAGUE_UPDATED,
        subject=f"Settings of {league} changed",
        before=before,
        after=_league_state(league),
        by=by,
    )
    if (
        before.get("tiebreaks") != league.tiebreaks
        or before.get("show_provisional") != league.show_provisional
        or before.get("time_zone") != league.time_zone
    ):
        # What counts (a provisional result) or the order of the tables changed, or the day
        # an adjustment counts on in a big division's chart band (the league's date).
        refresh_league_tables(league=league)
    return league


def _fixtures_words(fixtures: Sequence[Fixture], which: str) -> str:
    """ "13 fixtures played (the first Black Bull A v Swan on Tue 10 Nov 2026)", "1 fixture still
    to play (Swan v Woolpack on Sun 22 Nov 2026)" (``which``: "first" or "last" of them)."""
    named = fixtures[0] if which == "first" else fixtures[-1]
    count = len(fixtures)
    if not (named.status in _DECIDED or named.begun):
        how = "still to play"
    elif any(f.status == Fixture.Status.WALKOVER for f in fixtures):
        how = "played or given as walkovers"
    else:
        how = "played"
    the = "" if count == 1 else f"the {which} "
    return (
        f"{count} fixture{pluralize(count)} {how} "
        f"({the}{named.home} v {named.away} on {long_date(named.date)})"
    )


def fixtures_left_outside(
    *, season: Season, starts_on: datetime.date, ends_on: datetime.date | None
) -> dict[str, str]:
    """Why ``season`` may not be re-dated to run from ``starts_on`` to ``ends_on``, by field
    ("starts_on", "ends_on"; empty when it may): the change would leave fixtures of it (not
    void) before its start or after its end, which were inside its dates before (a fixture
    arranged outside the calendar with a reason stays where it is). A fixture played, walked
    over or begun is named so, one still to play is to be re-arranged first. The league's pages
    take a season as the one in play from its start: moved past the matches played, the
    league's home showed last season as current and this one as next."""
    left: dict[str, str] = {}
    fixtures = (
        Fixture.objects.filter(division__season=season)
        .exclude(status=Fixture.Status.VOID)
        .annotate(begun=Exists(TableGame.objects.filter(table__fixture=OuterRef("pk"))))
        .select_related("home", "away")
        .order_by("date", "time", "pk")
    )
    outside = {
        "starts_on": list(fixtures.filter(date__lt=starts_on, date__gte=season.starts_on)),
        "ends_on": list(
            fixtures.filter(date__gt=ends_on).filter(
                Q() if season.ends_on is None else Q(date__lte=season.ends_on)
            )
        )
        if ends_on is not None
        else [],
    }
    for field, found in outside.items():
        if not found:
            continue
        settled = [f for f in found if f.status in _DECIDED or f.begun]
        to_play = [f for f in found if f not in settled]
        if field == "starts_on":
            day, where, which, move = long_date(starts_on), "before", "first", "start"
            bound = long_date(found[0].date)
        else:
            day, where, which, move = long_date(ends_on or starts_on), "after", "last", "end"
            bound = long_date(found[-1].date)
        said = " and ".join(_fixtures_words(part, which) for part in (settled, to_play) if part)
        advice = (
            f"{move} the season on or {where} {bound}"
            if settled
            else f"re-arrange {'it' if len(to_play) == 1 else 'them'} first, or {move} the "
            f"season on or {where} {bound}"
        )
        left[field] = f"{season.name} has {said} {where} {day}: {advice}."
    return left


@transaction.atomic
def season_update(
    *,
    season: Season,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    league_night: int | None = None,
    exclusions: Sequence[NightsOff | datetime.date] | None = None,
    venue_capacity: int | None = None,
    by: Account = None,
) -> Season:
    """Rename or re-date a season, or change its calendar; its slug (and so its addresses)
    stays. Fixtures already listed stay where they are: generate again (after the preview)
    or re-arrange them. Dates inside another season's are refused (``season_clash``)."""
    require_secretary(by, season.league)
    if clash := season_clash(
        league=season.league, starts_on=starts_on, ends_on=ends_on, season=season
    ):
        raise ValidationError({"starts_on": clash})
    if stranded := fixtures_left_outside(season=season, starts_on=starts_on, ends_on=ends_on):
        raise ValidationError(stranded)
    before = _season_state(season)
    season.name = name.strip()
    season.starts_on = starts_on
    season.ends_on = ends_on
    season.league_night = league_night
    season.exclusions = nights_off_checked(
        season.nights_off if exclusions is None else exclusions,
        starts_on=starts_on,
        ends_on=ends_on,
    )
    if venue_capacity is not None and venue_capacity != season.venue_capacity:
        # The venues with a number of their own keep it.
        _refuse_nights_over(
            league=season.league,
            fixtures=Fixture.objects.filter(
                division__season=season, venue__matches_a_night__isnull=True
            ),
            room=lambda _season: venue_capacity,
            field="venue_capacity",
            advice=f"give the venue a number of its own ({VENUE_MATCHES_A_NIGHT}, on its "
            f"page), or set {SEASON_MATCHES_A_NIGHT} to",
        )
        season.venue_capacity = venue_capacity
    season.full_clean()
    season.save(
        update_fields=[
            "name",
            "starts_on",
            "ends_on",
            "league_night",
            "exclusions",
            "venue_capacity",
        ]
    )
    _audit(
        league=season.league,
        action=AuditEntry.Action.SEASON_UPDATED,
        subject=f"Season {season.name} changed",
        before=before,
        after=_season_state(season),
        by=by,
    )
    return season


@transaction.atomic
def division_update(
    *,
    division: Division,
    name: str,
    rank: int,
    promoted: int | None = None,
    relegated: int | None = None,
    by: Account = None,
) -> Division:
    """Rename or re-rank a division, and how many of its teams go up and down at the season's
    end (left as they are when not given)."""
    require_secretary(by, division.season.league)
    before = _division_state(division)
    division.name = name.strip()
    division.rank = rank
    if promoted is not None:
        division.promoted = promoted
    if relegated is not None:
        division.relegated = relegated
    _refuse_ranking(division, going_up_given=promoted is not None)
    division.full_clean()
    division.save(update_fields=["name", "rank", "promoted", "relegated"])
    _audit(
        league=division.season.league,
        action=AuditEntry.Action.DIVISION_UPDATED,
        subject=f"{division} changed",
        before=before,
        after=_division_state(division),
        by=by,
    )
    return division


@transaction.atomic
def venue_update(
    *,
    venue: Venue,
    name: str,
    town: str = "",
    address: str = "",
    matches_a_night: int | None = None,
    closed: Sequence[NightsOff] | None = None,
    league: League,
    by: Account = None,
) -> Venue:
    """Rename or re-address a venue ``league`` keeps (no other league's team or fixture uses
    it), or set how many matches it can host on one night (``matches_a_night``; None: the
    season's setting); the change is in ``league``'s audit trail. A number below what the
    venue already hosts on a night to come is refused, naming each such night and its matches
    (``_refuse_nights_over``): the fixture list would hold more than it can host. ``closed``:
    the dates it is closed (``_closed_checked``; None: as they are), refused on a night to come
    it already hosts a match on (``_refuse_closed_booked``)."""
    require_secretary(by, league)
    _require_venue(venue, league, "name")
    name, town = one_spaced(name), one_spaced(town)
    _refuse_venue_twice(league, name, town, but=venue.pk)
    _refuse_matches_a_night(matches_a_night)
    if matches_a_night != venue.matches_a_night:
        _refuse_nights_over(
            league=league,
            fixtures=Fixture.objects.filter(venue=venue),
            room=lambda season: matches_a_night or season.venue_capacity,
            field="matches_a_night",
            advice=f"or set {VENUE_MATCHES_A_NIGHT} to",
        )
    if closed is None:
        closed = venue.closed_ranges
    stored_closed = _closed_checked(closed)
    _refuse_closed_booked(venue=venue, league=league, closed=closed)
    before = _venue_state(venue)
    venue.name, venue.town = name, town
    venue.address = address
    venue.matches_a_night = matches_a_night
    venue.closed = stored_closed
    venue.full_clean()
    venue.save(update_fields=["name", "town", "address", "matches_a_night", "closed"])
    _audit(
        league=league,
        action=AuditEntry.Action.VENUE_UPDATED,
        subject=f"Venue {venue} changed",
        before=before,
        after=_venue_state(venue),
        by=by,
    )
    return venue


@transaction.atomic
def team_update(
    *,
    team: Team,
    name: str,
    home_venue: Venue,
    short_name: str = "",
    by: Account = None,
) -> Team:
    """Rename a team or move its home; fixtures already made keep the venue they had."""
    require_secretary(by, team.league)
    if home_venue.pk != team.home_venue_id:
        _require_venue(home_venue, team.league)
    before = _team_state(team)
    team.name = name.strip()
    team.short_name = short_name.strip()
    team.home_venue = home_venue
    team.full_clean()
    team.save(update_fields=["name", "short_name", "home_venue"])
    # The name of seasons still running (or to come) follows; past seasons keep theirs. Still
    # running where the league plays: at 22:00 on its last night in Port of Spain the site's
    # date (London's) is already the day after.
    today = team.league.today()
    TeamEntry.objects.filter(team=team).filter(
        Q(season__ends_on__isnull=True) | Q(season__ends_on__gte=today)
    ).update(name=team.name)
    _audit(
        league=team.league,
        action=AuditEntry.Action.TEAM_UPDATED,
        subject=f"Team {team} changed",
        before=before,
        after=_team_state(team),
        by=by,
    )
    return team


@transaction.atomic
def entry_move(*, entry: TeamEntry, division: Division, by: Account = None) -> int:
    """Move a team's entry to another division of the same season, before it has played.

    Its fixtures still to play in the old division go with it (they are deleted; generate the
    new division's list again). Returns how many were deleted.
    """
    require_secretary(by, entry.season.league)
    # Locked first and read after (``config.locks`` says why): a move posted twice finds the
    # entry already moved, where a read that waited for the lock would find no entry at all.
    lock_rows(TeamEntry.objects.filter(pk=entry.pk))
    entry = TeamEntry.objects.select_related("team", "division").get(pk=entry.pk)
    if division.season_id != entry.season_id:
        raise ValidationError({"division": "A team can only move within the same season."})
    if division.pk == entry.division_id:
        return 0
    team_fixtures = Fixture.objects.filter(
        division=entry.division_id, kind=Fixture.Kind.LEAGUE
    ).filter(Q(home=entry.team_id) | Q(away=entry.team_id))
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
    left = entry.division_id
    entry.division = division
    entry.save(update_fields=["division"])
    refresh_tables(divisions=[left, division])
    _audit(
        league=division.season.league,
        action=AuditEntry.Action.TEAM_MOVED,
        subject=f"{entry.team} moved to {division.name} ({removed} unplayed fixtures removed)",
        before=before,
        after=_entry_state(entry),
        by=by,
    )
    return removed


@transaction.atomic
def entry_set_contact(*, entry: TeamEntry, contact: str, by: Account = None) -> TeamEntry:
    """The captain's phone or email, for the secretary only (never on a public page)."""
    require_secretary(by, entry.season.league)
    before = _entry_state(entry)
    entry.captain_contact = contact.strip()
    entry.full_clean()
    entry.save(update_fields=["captain_contact"])
    _audit(
        league=entry.season.league,
        action=AuditEntry.Action.CAPTAIN_CONTACT_CHANGED,
        subject=f"{possessive(str(entry.team))} captain's contact for {entry.season.name} changed",
        before=before,
        after=_entry_state(entry),
        by=by,
    )
    return entry


@transaction.atomic
def entry_save(
    *,
    team: Team,
    season: Season,
    division: Division,
    captain: Player | None,
    contact: str,
    by: Account = None,
) -> tuple[TeamEntry, int]:
    """A team's season from the secretary's team page, all or nothing: enter it (or move it to
    ``division``), its captain and the captain's contact. Returns the entry and how many
    unplayed fixtures the move removed."""
    require_secretary(by, season.league)
    if division.season_id != season.pk or team.league_id != season.league_id:
        raise ValidationError({"division": f"{division} is not in {team.league}'s {season.name}."})
    entry = TeamEntry.objects.filter(team=team, season=season).first()
    removed = 0
    if entry is None:
        entry = team_enter(team=team, division=division, by=by)
    else:
        removed = entry_move(entry=entry, division=division, by=by)
        entry.refresh_from_db()
    entry_set_captain(entry=entry, captain=captain, by=by)
    entry_set_contact(entry=entry, contact=contact, by=by)
    return entry, removed
