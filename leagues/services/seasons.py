"""Starting the next season from a finished (or finishing) one.

The proposal carries every division, team entry, captain, team name and squad over, with the
final standings' promotion and relegation applied by the one rule the table's marks use
(``leagues.movement``): ``Division.promoted`` up from each division with one above,
``Division.relegated`` down from each with one below, withdrawn teams down first (left out of
the lowest division). The secretary reviews it (and may place any team elsewhere, or leave it
out) before ``season_start_next`` saves it, every change audited.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.defaultfilters import pluralize

from leagues import nights_off
from leagues.audit import audit_log
from leagues.days import long_date
from leagues.models import (
    AuditEntry,
    Division,
    Fixture,
    Registration,
    Season,
    Team,
    TeamEntry,
    Withdrawal,
)
from leagues.movement import DOWN, OUT, STAYS, UP, moves
from leagues.permissions import require_secretary
from leagues.selectors.counting import fixtures_with_counts
from leagues.selectors.fixtures import season_last_day
from leagues.selectors.race import division_places
from leagues.selectors.standings import Standings, season_standings
from leagues.services.structure import division_create, season_create, team_enter
from scoring.actors import Account
from scoring.forms.words import possessive


@dataclass(frozen=True)
class Placement:
    """Where a team of the old season goes, and why."""

    entry: TeamEntry
    position: int
    division: Division
    """Its division in the old season."""
    to_rank: int | None
    """The rank of its division next season; None to leave it out."""
    movement: str

    @property
    def team(self) -> Team:
        return self.entry.team

    @property
    def why(self) -> str:
        place = f"{self.position}{_suffix(self.position)} in {self.division.name}"
        if self.entry.is_withdrawn:
            if self.movement == DOWN:
                return f"{place}: withdrew, relegated"
            return f"{place}: withdrew, not carried over"
        return {
            UP: f"{place}: promoted",
            DOWN: f"{place}: relegated",
            STAYS: place,
            OUT: f"{place}: not carried over",
        }[self.movement]


def _suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def placements_refusal(season: Season, standings: Sequence[Standings]) -> str:
    """Why no placements can be proposed from ``season`` yet ("" when its tables are final):
    a league fixture still to count (``still_to_count`` says which kinds, and what settles
    each), or a division with no result at all."""
    left = [(table.division.name, len(table.remaining)) for table in standings if table.remaining]
    if left:
        count = sum(n for _, n in left)
        where = ", ".join(f"{n} in {name}" for name, n in left)
        kinds = still_to_count(season) or [
            "To play, postponed, or played and waiting for confirmation: settle each (play, "
            "confirm, award a walkover or void it)."
        ]
        return (
            f"{season.name} is not settled: {count} league fixture{pluralize(count)} "
            f"still to count ({where}). {' '.join(kinds)} Promotion and relegation come from "
            "the final tables: start the next season once every fixture counts."
        )
    unplayed = [
        table.division.name
        for table in standings
        if len(table.rows) > 1 and not any(row.played for row in table.rows)
    ]
    if unplayed:
        return (
            f"{season.name} has no result in {', '.join(unplayed)}: there is no final table to "
            "place its teams from. Play the season's fixtures first."
        )
    return ""


def still_to_count(season: Season) -> list[str]:
    """The league fixtures of ``season`` whose result does not count yet (as the tables read
    them: not void, no expunged team's), a sentence for each kind saying how many and what
    settles them: to play or postponed (play, re-arrange, award a walkover or void), played
    and not confirmed (confirm), a withdrawn team's walkovers and those the secretary gave
    ahead of their nights waiting for their dates (nothing: each counts on its own date,
    ``settle_due_walkovers``)."""
    expunged = TeamEntry.objects.filter(season=season, withdrawal=Withdrawal.EXPUNGE).values("team")
    fixtures = (
        fixtures_with_counts(
            Fixture.objects.filter(division__season=season, kind=Fixture.Kind.LEAGUE)
            .exclude(status=Fixture.Status.VOID)
            .exclude(home__in=expunged)
            .exclude(away__in=expunged)
        )
        .filter(counts=False)
        .select_related("home", "away")
        .order_by("date", "pk")
    )
    to_play = postponed = unconfirmed = 0
    waiting: list[Fixture] = []
    for fixture in fixtures:
        if fixture.status == Fixture.Status.SCHEDULED:
            to_play += 1
        elif fixture.status == Fixture.Status.POSTPONED:
            postponed += 1
        elif fixture.status == Fixture.Status.PLAYED:
            unconfirmed += 1
        elif fixture.walkover_pending:
            waiting.append(fixture)
    kinds = []
    if to_play or postponed:
        what = " and ".join(
            ([f"{to_play} to play"] if to_play else [])
            + ([f"{postponed} postponed"] if postponed else [])
        )
        them = "it" if to_play + postponed == 1 else "them"
        kinds.append(f"{what}: play {them}, re-arrange {them}, award a walkover or void {them}.")
    if unconfirmed:
        kinds.append(
            f"{unconfirmed} played, its result not yet confirmed: confirm it on its result page."
            if unconfirmed == 1
            else f"{unconfirmed} played, their results not yet confirmed: confirm each on its "
            "result page."
        )
    withdrawn = [fixture for fixture in waiting if fixture.walkover_withdrew]
    if withdrawn:
        withdrew = sorted({str(fixture.walkover_loser) for fixture in withdrawn})
        whose = " and ".join(possessive(name) for name in withdrew)
        kinds.append(
            f"{len(withdrawn)} walkover{pluralize(len(withdrawn))} from {whose} "
            f"withdrawal{pluralize(len(withdrew))}{_waiting(withdrawn)}"
        )
    conceded = [fixture for fixture in waiting if not fixture.walkover_withdrew]
    if conceded:
        n = len(conceded)
        losers = " and ".join(sorted({str(fixture.walkover_loser) for fixture in conceded}))
        kinds.append(
            f"{n} walkover{pluralize(n)} given ahead of {'its' if n == 1 else 'their'} "
            f"night{pluralize(n)} ({losers} conceded){_waiting(conceded)}"
        )
    return [kind[0].upper() + kind[1:] for kind in kinds]


def _waiting(walkovers: list[Fixture]) -> str:
    """How walkovers given ahead of their nights (in date order) come to count."""
    if len(walkovers) == 1:
        return f", waiting for its date: it counts on {long_date(walkovers[0].date)} by itself."
    return (
        ", waiting for their dates: each counts on its own date by itself (the last on "
        f"{long_date(walkovers[-1].date)})."
    )


def next_season_placements(
    *, season: Season, standings: Sequence[Standings] | None = None
) -> list[Placement]:
    """Each team of ``season``, placed for next season from its final standings
    (``season_standings``, read here unless the caller has them), by the promotion and
    relegation rule the table's marks use (``leagues.selectors.race.division_places``).
    Refused (``placements_refusal`` says why) while any table is not final."""
    if standings is None:
        standings = season_standings(season=season)
    refusal = placements_refusal(season, standings)
    if refusal:
        raise ValidationError(refusal)
    ranks = sorted({table.division.rank for table in standings})
    placements: list[Placement] = []
    for table in standings:
        division, rows = table.division, table.rows
        places = division_places(division, table, ranks)
        above = max((r for r in ranks if r < division.rank), default=division.rank)
        below = min((r for r in ranks if r > division.rank), default=division.rank)
        playing = [row for row in rows if not row.withdrawn]
        withdrawn = [row for row in rows if row.withdrawn]
        movement = moves(
            [row.team.pk for row in playing], [row.team.pk for row in withdrawn], places
        )
        to_rank = {UP: above, DOWN: below, STAYS: division.rank, OUT: None}
        for row in playing + withdrawn:
            move = movement[row.team.pk]
            placements.append(Placement(row.entry, row.position, division, to_rank[move], move))
    return placements


def season_after(season: Season) -> Season | None:
    """The league's season that follows ``season`` (the next one to start), if any."""
    return (
        Season.objects.filter(league_id=season.league_id, starts_on__gt=season.starts_on)
        .order_by("starts_on")
        .first()
    )


def next_start_refusal(season: Season, starts_on: datetime.date) -> str:
    """Why the season after ``season`` cannot start on ``starts_on`` ("" when it can): it
    starts after ``season`` has run (``season_last_day``), or after it started when it has no
    end and no fixture."""
    last = season_last_day(season)
    if last is None:
        if starts_on <= season.starts_on:
            return (
                f"The next season starts after {season.name} did ({long_date(season.starts_on)})."
            )
        return ""
    if starts_on > last:
        return ""
    if last == season.ends_on:
        return (
            f"The next season starts after {season.name} ends ({long_date(last)}): "
            "give a later date."
        )
    return (
        f"The next season starts after {possessive(season.name)} last fixture, on "
        f"{long_date(last)}: give a later date."
    )


def season_after_message(season: Season, following: Season) -> str:
    return (
        f"{following.name} already follows {season.name}: the next season starts from "
        "the latest one."
    )


@transaction.atomic
def season_start_next(
    *,
    season: Season,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    placements: Mapping[int, int | None],
    carry_squads: bool = True,
    by: Account = None,
) -> Season:
    """The next season: ``season``'s divisions again, each team of ``placements`` (team id ->
    division rank, None to leave it out) entered with its captain, contact, name and (with
    ``carry_squads``) its registered players. The new season takes the league's rules and
    ``season``'s league night and venue capacity."""
    require_secretary(by, season.league)
    league = season.league
    following = season_after(season)
    if following is not None:
        raise ValidationError(season_after_message(season, following))
    too_soon = next_start_refusal(season, starts_on)
    if too_soon:
        raise ValidationError({"starts_on": too_soon})
    old_divisions = list(season.divisions.order_by("rank", "name"))
    by_rank = {d.rank: d for d in old_divisions}
    entries = {
        e.team_id: e
        for e in TeamEntry.objects.filter(season=season).select_related("team", "captain")
    }
    unknown = [pk for pk in placements if pk not in entries]
    if unknown:
        raise ValidationError("Only teams of the season can be carried over.")
    wrong = [rank for rank in placements.values() if rank is not None and rank not in by_rank]
    if wrong:
        raise ValidationError(f"There is no division ranked {wrong[0]} to place a team in.")
    new = season_create(
        league=league,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        league_night=season.league_night,
        # Nights with no league marked every year start the new calendar, on its dates.
        exclusions=nights_off.carried(
            season.nights_off, old_start=season.starts_on, new_start=starts_on, new_end=ends_on
        ),
        venue_capacity=season.venue_capacity,
        by=by,
    )
    divisions = {
        d.rank: division_create(season=new, name=d.name, slug=d.slug, rank=d.rank, by=by)
        for d in old_divisions
    }
    for d in old_divisions:
        Division.objects.filter(pk=divisions[d.rank].pk).update(
            promoted=d.promoted, relegated=d.relegated
        )
    moves = []
    for team_id, rank in placements.items():
        if rank is None:
            continue
        old = entries[team_id]
        entry = team_enter(team=old.team, division=divisions[rank], by=by)
        entry.name = old.name or old.team.name
        entry.captain_contact = old.captain_contact
        entry.save(update_fields=["name", "captain_contact"])
        if carry_squads:
            Registration.objects.bulk_create(
                Registration(player_id=player, team_id=team_id, season=new, registered_on=starts_on)
                for player in Registration.objects.filter(
                    season=season, team_id=team_id
                ).values_list("player", flat=True)
            )
        if old.captain_id is not None and carry_squads:
            # The captain is carried with the squad (a captain is one of the team's players).
            TeamEntry.objects.filter(pk=entry.pk).update(captain=old.captain_id)
        if rank != old.division.rank:
            moves.append(f"{old.team}: {old.division.name} → {divisions[rank].name}")
    left_out = [str(entries[pk].team) for pk, rank in placements.items() if rank is None]
    audit_log(
        league=league,
        action=AuditEntry.Action.SEASON_STARTED_NEXT,
        subject=f"{new.name} started from {season.name}: {len(moves)} moved, "
        f"{len(left_out)} left out",
        before={"season": season.pk},
        after={
            "season": new.pk,
            "moves": moves,
            "left_out": left_out,
            "squads_carried": carry_squads,
            "placements": {str(k): v for k, v in placements.items()},
        },
        by=by,
    )
    return new
