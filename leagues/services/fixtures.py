"""The fixture list: generation by round robin, postponement, re-arrangement, walkover, void.

Generation calls the pure planner in ``leagues.schedule``; this module turns teams into its
``TeamSlot`` values, keeps what has been played, stores what it plans and says what it moved.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from leagues.audit import audit_log
from leagues.models import Division, Fixture, TableGame, Team, TeamEntry, Venue
from leagues.schedule import (
    PlannedFixture,
    ScheduleError,
    TeamSlot,
    next_free_night,
    occupancy,
    round_robin,
)
from leagues.services.results import fixture_result_recompute

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser as User

#: Fixtures a re-generation may replace: nothing has been played at them.
REPLACEABLE = (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED)


@dataclass(frozen=True)
class GenerationReport:
    """What ``fixtures_generate`` did, for the message to the secretary."""

    created: int
    kept: int
    removed: int
    byes: int
    notes: tuple[str, ...]


def _day(value: datetime.date) -> str:
    return f"{value:%a} {value.day} {value:%b %Y}"


def _locked(division: Division) -> list[Fixture]:
    """Fixtures re-generation must not touch: decided ones, and any with a game started."""
    started = TableGame.objects.filter(table__fixture__division=division).values("table__fixture")
    return list(
        Fixture.objects.filter(division=division)
        .filter(~Q(status__in=REPLACEABLE) | Q(pk__in=started))
        .order_by("date", "pk")
    )


@transaction.atomic
def fixtures_generate(
    *,
    division: Division,
    start: datetime.date,
    league_night: int | None = None,
    legs: int = 1,
    exclusions: Collection[datetime.date] = (),
    by: User | None = None,
) -> GenerationReport:
    """Plan the division's round robin from ``start``, one round a league night.

    Played, walked-over and void fixtures (and any with a game started) are kept as they are;
    every other fixture of the division is replaced. A fixture that would put two home matches
    in one pub on one night (teams sharing a venue, in this division or another of the season)
    is moved, and its note says so.
    """
    division = Division.objects.select_related("season__league").get(pk=division.pk)
    league = division.season.league
    night = league.league_night if league_night is None else league_night
    entries = list(
        TeamEntry.objects.filter(division=division)
        .select_related("team")
        .order_by("team__name", "team__pk")
    )
    teams = [entry.team for entry in entries]
    venue_of = {team.pk: team.home_venue_id for team in teams}
    locked = _locked(division)
    keep = [
        PlannedFixture(round=f.round or 0, date=f.date, home=f.home_id, away=f.away_id)
        for f in locked
    ]
    try:
        schedule = round_robin(
            teams=[TeamSlot(key=t.pk, venue=t.home_venue_id, name=t.name) for t in teams],
            start=start,
            league_night=night,
            legs=legs,
            exclusions=frozenset(exclusions),
            keep=keep,
        )
    except ScheduleError as exc:
        raise ValidationError(str(exc)) from exc

    kept_keys = {(f.home, f.away, f.date) for f in keep}
    planned = [f for f in schedule.fixtures if (f.home, f.away, f.date) not in kept_keys]
    planned = _clear_other_divisions(
        division, planned, schedule.fixtures, venue_of, night, exclusions
    )

    replaced = Fixture.objects.filter(division=division, status__in=REPLACEABLE).exclude(
        pk__in=[f.pk for f in locked]
    )
    before = replaced.count()
    removed, _ = replaced.delete()
    Fixture.objects.bulk_create(
        Fixture(
            division=division,
            round=f.round,
            home_id=f.home,
            away_id=f.away,
            date=f.date,
            time=league.start_time,
            venue_id=venue_of[f.home],
            note=f.note,
        )
        for f in planned
    )
    report = GenerationReport(
        created=len(planned),
        kept=len(locked),
        removed=removed,
        byes=len(schedule.byes),
        notes=tuple(f.note for f in planned if f.note),
    )
    audit_log(
        league=league,
        action="fixtures_generated",
        subject=f"Fixture list of {division} generated: {report.created} new, "
        f"{report.kept} kept, {before} replaced",
        before={"replaced": before, "kept": report.kept},
        after={
            "division": division.pk,
            "created": report.created,
            "start": start.isoformat(),
            "league_night": night,
            "legs": legs,
            "exclusions": sorted(day.isoformat() for day in exclusions),
            "first": min((f.date for f in planned), default=start).isoformat(),
            "last": max((f.date for f in planned), default=start).isoformat(),
        },
        by=by,
    )
    return report


def fixture_state(fixture: Fixture) -> dict[str, object]:
    """A fixture's when, where and status, as the audit trail records it."""
    return {
        "date": fixture.date.isoformat(),
        "time": fixture.time.strftime("%H:%M") if fixture.time else None,
        "venue": fixture.venue_id,
        "venue_name": str(fixture.venue),
        "status": fixture.status,
        "reason": fixture.reason,
    }


def _clear_other_divisions(
    division: Division,
    planned: list[PlannedFixture],
    everything: Sequence[PlannedFixture],
    venue_of: dict[int, int],
    night: int,
    exclusions: Collection[datetime.date],
) -> list[PlannedFixture]:
    """Move planned fixtures off nights when their pub hosts another division's home match."""
    if not planned:
        return planned
    first = min(f.date for f in planned)
    others = Fixture.objects.filter(
        division__season=division.season_id,
        venue__in=set(venue_of.values()),
        date__gte=first,
    ).exclude(division=division)
    venue_busy: dict[datetime.date, set[int]] = {}
    hosts: dict[tuple[datetime.date, int], str] = {}
    for other in others.select_related("home"):
        venue_busy.setdefault(other.date, set()).add(other.venue_id)
        hosts[(other.date, other.venue_id)] = other.home.name
    if not venue_busy:
        return planned
    busy, own_venues = occupancy(everything, venue_of)
    for day, venues in own_venues.items():
        venue_busy.setdefault(day, set()).update(venues)
    names = dict(Team.objects.filter(pk__in=venue_of).values_list("pk", "name"))
    moved: list[PlannedFixture] = []
    for fixture in planned:
        venue = venue_of[fixture.home]
        if (fixture.date, venue) not in hosts:
            moved.append(fixture)
            continue
        busy[fixture.date] -= {fixture.home, fixture.away}
        new_day = next_free_night(
            after=fixture.date,
            league_night=night,
            home=fixture.home,
            away=fixture.away,
            busy=busy,
            venue=venue,
            venue_busy=venue_busy,
            exclusions=frozenset(exclusions),
        )
        busy.setdefault(new_day, set()).update((fixture.home, fixture.away))
        venue_busy.setdefault(new_day, set()).add(venue)
        note = (
            f"{names[fixture.home]} v {names[fixture.away]} moved from {_day(fixture.date)} to "
            f"{_day(new_day)}: {names[fixture.home]} shares a home venue with "
            f"{hosts[(fixture.date, venue)]}, who is at home on {_day(fixture.date)}"
        )
        combined = f"{fixture.note}; {note}" if fixture.note else note
        moved.append(PlannedFixture(fixture.round, new_day, fixture.home, fixture.away, combined))
    return moved


@transaction.atomic
def fixture_add(
    *,
    division: Division,
    home: Team,
    away: Team,
    date: datetime.date,
    time: datetime.time | None = None,
    venue: Venue | None = None,
    by: User | None = None,
) -> Fixture:
    """One fixture outside the generated list (a play-off, a replay)."""
    ids = set(TeamEntry.objects.filter(division=division).values_list("team", flat=True))
    if home.pk not in ids or away.pk not in ids:
        raise ValidationError(f"Both teams must be entered in {division}.")
    if home.pk == away.pk:
        raise ValidationError("A team cannot play itself.")
    venue = venue or home.home_venue
    _refuse_clash(season_id=division.season_id, date=date, teams=(home.pk, away.pk), venue=venue.pk)
    fixture = Fixture(
        division=division,
        home=home,
        away=away,
        date=date,
        time=time or division.season.league.start_time,
        venue=venue,
    )
    fixture.full_clean()
    fixture.save()
    audit_log(
        league=division.season.league,
        fixture=fixture,
        action="fixture_added",
        subject=f"{fixture} added to {division.name}",
        after=fixture_state(fixture),
        by=by,
    )
    return fixture


def _refuse_clash(
    *,
    season_id: int,
    date: datetime.date,
    teams: tuple[int, int],
    venue: int,
    exclude: int | None = None,
) -> None:
    others = Fixture.objects.filter(division__season=season_id, date=date).exclude(
        status=Fixture.Status.VOID
    )
    if exclude is not None:
        others = others.exclude(pk=exclude)
    clash = others.filter(Q(home__in=teams) | Q(away__in=teams)).select_related("home", "away")
    if clash:
        raise ValidationError(f"{clash[0]} is already on that night.")
    at_venue = others.filter(venue=venue).select_related("home", "away", "venue")
    if at_venue:
        raise ValidationError(
            f"{at_venue[0].venue} already hosts {at_venue[0].home} v {at_venue[0].away} that night."
        )


@transaction.atomic
def fixture_postpone(*, fixture: Fixture, reason: str, by: User | None = None) -> Fixture:
    """Postpone a fixture not yet played; the rest of the list stays as it is."""
    if fixture.status != Fixture.Status.SCHEDULED:
        raise ValidationError(
            f"Only a scheduled fixture can be postponed; this one is "
            f"{fixture.get_status_display().lower()}."
        )
    if not reason.strip():
        raise ValidationError("Give the reason for the postponement.")
    before = fixture_state(fixture)
    fixture.status = Fixture.Status.POSTPONED
    fixture.original_date = fixture.original_date or fixture.date
    fixture.reason = reason.strip()
    fixture.save(update_fields=["status", "original_date", "reason", "updated_at"])
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action="fixture_postponed",
        subject=f"{fixture} postponed: {fixture.reason}",
        before=before,
        after=fixture_state(fixture),
        by=by,
    )
    return fixture


@transaction.atomic
def fixture_rearrange(
    *,
    fixture: Fixture,
    date: datetime.date | None = None,
    time: datetime.time | None = None,
    venue: Venue | None = None,
    reason: str = "",
    by: User | None = None,
) -> Fixture:
    """Move a scheduled or postponed fixture to ``date`` (or the next league night when both
    teams and the venue are free), without moving any other fixture."""
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("division__season__league", "venue")
        .get(pk=fixture.pk)
    )
    if fixture.status not in REPLACEABLE:
        raise ValidationError(
            f"Only a scheduled or postponed fixture can be re-arranged; this one is "
            f"{fixture.get_status_display().lower()}."
        )
    season = fixture.division.season
    venue_id = venue.pk if venue is not None else fixture.venue_id
    if date is None:
        others = (
            Fixture.objects.filter(division__season=season, date__gte=fixture.date)
            .exclude(pk=fixture.pk)
            .exclude(status=Fixture.Status.VOID)
        )
        busy: dict[datetime.date, set[int]] = {}
        venue_busy: dict[datetime.date, set[int]] = {}
        for day, home, away, at in others.values_list("date", "home", "away", "venue"):
            busy.setdefault(day, set()).update((home, away))
            venue_busy.setdefault(day, set()).add(at)
        date = next_free_night(
            after=max(fixture.date, datetime.date.today() - datetime.timedelta(days=1)),
            league_night=season.league.league_night,
            home=fixture.home_id,
            away=fixture.away_id,
            busy=busy,
            venue=venue_id,
            venue_busy=venue_busy,
        )
    _refuse_clash(
        season_id=season.pk,
        date=date,
        teams=(fixture.home_id, fixture.away_id),
        venue=venue_id,
        exclude=fixture.pk,
    )
    was = fixture.date
    before = fixture_state(fixture)
    fixture.original_date = fixture.original_date or was
    fixture.date = date
    fixture.time = time or fixture.time
    fixture.venue_id = venue_id
    fixture.status = Fixture.Status.SCHEDULED
    line = f"Re-arranged from {_day(was)} to {_day(date)}" + (
        f": {reason.strip()}" if reason.strip() else "."
    )
    fixture.note = f"{fixture.note}\n{line}".strip()
    fixture.save()
    audit_log(
        league=season.league,
        fixture=fixture,
        action="fixture_rearranged",
        subject=f"{fixture.home} v {fixture.away}: {line}",
        before=before,
        after=fixture_state(fixture),
        by=by,
    )
    return fixture


@transaction.atomic
def fixture_walkover(*, fixture: Fixture, to: str, reason: str, by: User | None = None) -> Fixture:
    """Award the fixture to ``to`` ("home" or "away"): the format's walkover score."""
    if to not in Fixture.Side.values:
        raise ValidationError('A walkover goes to "home" or "away".')
    if fixture.status not in REPLACEABLE:
        raise ValidationError(
            f"Only a fixture not yet played can be given as a walkover; this one is "
            f"{fixture.get_status_display().lower()}."
        )
    if not reason.strip():
        raise ValidationError("Give the reason for the walkover.")
    fixture.status = Fixture.Status.WALKOVER
    fixture.walkover_to = to
    fixture.reason = reason.strip()
    fixture.save(update_fields=["status", "walkover_to", "reason", "updated_at"])
    fixture_result_recompute(fixture=fixture, by=by)
    _audit_status(fixture, "walkover", f"Walkover to {to} in {fixture}: {fixture.reason}", by)
    return fixture


def _audit_status(fixture: Fixture, action: str, subject: str, by: User | None) -> None:
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=action,
        subject=subject,
        after={"status": fixture.status, "walkover_to": fixture.walkover_to},
        by=by,
    )


@transaction.atomic
def fixture_void(*, fixture: Fixture, reason: str, by: User | None = None) -> Fixture:
    """Void a fixture: it stays on the list with its reason and gives nobody any points."""
    if fixture.status == Fixture.Status.VOID:
        raise ValidationError("This fixture is already void.")
    if not reason.strip():
        raise ValidationError("Give the reason for voiding the fixture.")
    fixture.status = Fixture.Status.VOID
    fixture.walkover_to = ""
    fixture.reason = reason.strip()
    fixture.save(update_fields=["status", "walkover_to", "reason", "updated_at"])
    fixture_result_recompute(fixture=fixture, by=by)
    _audit_status(fixture, "void", f"{fixture} voided: {fixture.reason}", by)
    return fixture
