"""Making the draw: the knock-out bracket, or the groups and, once they are played, the
knock-out of their qualifiers.  ``cups.draw`` decides the places; this stores them, readies the
ties whose entrants are known and writes the draw (with its seed) to the league's audit trail.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from cups import draw as drawing
from cups.models import Competition, Entrant, Group, Round, Tie
from cups.selectors import group_tables
from cups.services.competitions import require_manager
from cups.services.ties import HOME, _ready, _send_through
from leagues.audit import audit_log
from leagues.models import AuditEntry
from leagues.schedule import ScheduleError, TeamSlot, round_robin
from scoring.actors import Account

Stage = Competition.Stage
MAX_SEED = 2**62


def _lock(competition: Competition) -> Competition:
    return (
        Competition.objects.select_for_update(of=("self",))
        .select_related("league", "season")
        .get(pk=competition.pk)
    )


def _ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Seed 1 first; entrants without a seed after the seeded ones, by name."""
    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, e.name, e.pk))


def _slots(entrants: Sequence[Entrant]) -> list[drawing.Slot]:
    return [drawing.Slot(key=e.pk, club=e.club_id, name=e.name) for e in entrants]


def _build_knockout(competition: Competition, made: drawing.Draw, *, by: Account) -> list[Tie]:
    entrants = {e.pk: e for e in competition.entrants.all()}
    rounds = [
        Round.objects.create(
            competition=competition, number=n, name=drawing.round_name(n, made.rounds)
        )
        for n in range(1, made.rounds + 1)
    ]
    first = [
        Tie.objects.create(
            competition=competition,
            round=rounds[0],
            position=pairing.position,
            home=entrants[pairing.home],  # type: ignore[index]
            away=entrants[pairing.away] if pairing.away is not None else None,  # type: ignore[index]
            status=Tie.Status.BYE if pairing.is_bye else Tie.Status.WAITING,
            winner=HOME if pairing.is_bye else "",
        )
        for pairing in made.ties
    ]
    Tie.objects.bulk_create(
        Tie(competition=competition, round=rnd, position=p)
        for rnd in rounds[1:]
        for p in range(made.size // 2**rnd.number)
    )
    for tie in first:
        tie.competition = competition
        if tie.status == Tie.Status.BYE:
            _send_through(tie, by=by)
        else:
            _ready(tie, by=by)
    competition.stage = Stage.KNOCKOUT
    competition.save(update_fields=["stage"])
    return first


def _draw_record(made: drawing.Draw, entrants: dict[int, str]) -> dict[str, Any]:
    return {
        "seed": made.seed,
        "size": made.size,
        "ties": [
            [entrants[t.home], entrants[t.away] if t.away is not None else "bye"]  # type: ignore[index]
            for t in made.ties
        ],
        "notes": list(made.notes),
    }


@transaction.atomic
def draw_make(
    *, competition: Competition, seed: int | None = None, byes: bool = True, by: Account
) -> Competition:
    """Make the draw.  A random draw uses ``seed`` (a new one when not given): the same seed and
    the same entrants give the same draw, and the seed is shown on the competition's page.

    A knock-out: round one (byes to the top seeds), the later rounds waiting for their winners.
    Groups then knock-out: the entrants split into groups by seed (snake order), each group a
    round robin; the knock-out is drawn when the groups are finished (``groups_finish``)."""
    competition = _lock(competition)
    require_manager(competition, by)
    if competition.stage != Stage.ENTRIES:
        raise ValidationError(f"The draw for {competition.name} has already been made.")
    entrants = _ranked(list(competition.entrants.all()))
    if competition.draw_method == Competition.DrawMethod.RANDOM:
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        if not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
            raise ValidationError("The draw's seed is a whole number from 0 to 2⁶² − 1.")
        import random

        shuffled = list(entrants)
        random.Random(seed).shuffle(shuffled)
    else:
        seed = None
        shuffled = entrants
    names = {e.pk: e.name for e in entrants}
    try:
        if competition.format == Competition.Format.GROUPS:
            record = _make_groups(competition, shuffled, seed=seed)
        else:
            if competition.draw_method == Competition.DrawMethod.RANDOM:
                assert seed is not None
                made = drawing.random_draw(
                    _slots(entrants), seed=seed, byes=byes, protect=competition.protect_clubs
                )
            else:
                made = drawing.seeded_draw(
                    _slots(entrants), byes=byes, protect=competition.protect_clubs
                )
            _build_knockout(competition, made, by=by)
            record = _draw_record(made, names)
    except (drawing.DrawError, ScheduleError) as exc:
        raise ValidationError(str(exc)) from exc
    competition.draw_seed = seed
    competition.save(update_fields=["draw_seed"])
    audit_log(
        league=competition.league,
        action=AuditEntry.Action.CUP_DRAWN,
        subject=f"Draw made for {competition}"
        + (f" (random, seed {seed})" if seed is not None else " (by ranking)"),
        after=record | {"method": competition.draw_method, "byes": byes},
        by=by,
    )
    return competition


def _make_groups(
    competition: Competition, entrants: list[Entrant], *, seed: int | None
) -> dict[str, Any]:
    split = drawing.snake_groups(_slots(entrants), groups=competition.groups)
    by_pk = {e.pk: e for e in entrants}
    league = competition.league
    # Each group's round robin from the draw's day (or the season's start, if later): a group
    # tie is played on its round's league night, one a night for each entrant.
    start = max(league.today(), competition.season.starts_on)
    record: dict[str, Any] = {"seed": seed, "groups": {}}
    for position, keys in enumerate(split):
        group = Group.objects.create(
            competition=competition, name=chr(ord("A") + position), position=position
        )
        members = [by_pk[k] for k in keys]  # type: ignore[index]
        Entrant.objects.filter(pk__in=[m.pk for m in members]).update(group=group)
        record["groups"][group.name] = [m.name for m in members]
        # Today's fixture generator plans each group's round robin.
        schedule = round_robin(
            teams=[TeamSlot(m.pk, None, m.name) for m in members],
            start=start,
            league_night=league.league_night,
        )
        for index, planned in enumerate(schedule.fixtures):
            tie = Tie.objects.create(
                competition=competition,
                group=group,
                position=index,
                home=by_pk[planned.home],  # type: ignore[index]
                away=by_pk[planned.away],  # type: ignore[index]
            )
            tie.competition = competition
            _ready(tie, date=planned.date)
    competition.stage = Stage.GROUPS
    competition.save(update_fields=["stage"])
    return record


@transaction.atomic
def groups_finish(*, competition: Competition, by: Account) -> Competition:
    """Every group tie decided: the top ``qualifiers`` of each group go into the knock-out,
    crossed (A1 v B2, B1 v A2 …), byes to the group winners."""
    competition = _lock(competition)
    require_manager(competition, by)
    if competition.stage != Stage.GROUPS:
        raise ValidationError(f"{competition.name} is not in its group stage.")
    waiting = competition.ties.filter(group__isnull=False).exclude(status__in=Tie.DECIDED)
    if waiting.exists():
        raise ValidationError(
            f"{waiting.count()} group ties are still to be decided: play them, walk them over "
            "or settle them first."
        )
    tables = group_tables(competition=competition)
    standings = [[row.entrant.pk for row in table.rows] for table in tables]
    names = {e.pk: e.name for e in competition.entrants.all()}
    try:
        slots = drawing.crossed_qualifiers(standings, qualifiers=competition.qualifiers)
        made = drawing.seeded_draw(slots, protect=True)
    except drawing.DrawError as exc:
        raise ValidationError(str(exc)) from exc
    _build_knockout(competition, made, by=by)
    audit_log(
        league=competition.league,
        action=AuditEntry.Action.CUP_DRAWN,
        subject=f"Knock-out of {competition} drawn from the groups (crossed)",
        after=_draw_record(made, names),
        by=by,
    )
    return competition
