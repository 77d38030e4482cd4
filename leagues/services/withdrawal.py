"""A team withdrawing mid-season, and reinstating it while the season is still running.

Two ways, chosen per case (the league's ``withdrawal`` setting is the default):

- **results stand**: what it played counts; each of its remaining league fixtures is a walkover
  to the opponent, **on its own date**: one dated today or earlier (in the league's zone,
  ``leagues.zones``) counts at once; a later one is given now but ``walkover_pending`` (lists
  say "Walkover to Black Bull on Tue 9 Dec (Red Lion withdrew)"; ``counts_q`` leaves it out), so
  the table never shows a game not yet due;
- **expunge**: none of its results count (``leagues.selectors.counting`` leaves them out, so the
  table, the chart and the statistics all lose them); its remaining fixtures are void.

Its deductions are kept either way, and the table marks it withdrawn. Each fixture it settles
stores the side that withdrew (``Fixture.withdrew``: the walkover's words, the undo's refusal
read it). They are remembered as they were, so that reinstating the team (until the season
ends) puts them back, pending or counted.

**A date passing.** A pending walkover starts to count through ``settle_due_walkovers``: an
idempotent settle step that finds the pending walkovers whose date has come where their
league plays and, for each, clears the mark under the fixture's lock and rolls it up like any
other change (the stored table is refreshed in that transaction, the league's cached pages are
cleared, and the audit trail has a ``walkover_counted`` entry by the system, which notifies no
one). So the stored table always equals the one worked out from scratch: what counts changes
only in a transaction that refreshes it, never with the clock, and no request writes.
Nobody has to do anything on the date: ``make serve`` runs the step every
``SETTLE_EVERY_SECONDS`` (default 900: the table is right within a quarter of an hour after
midnight, long before the morning) from gunicorn's master (``config/gunicorn.py``), and
``manage.py settle_walkovers`` runs it once (a cron job, or ``make migrate``/``make demo``).
Running it twice, or on two servers at once, settles each fixture once.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from config.locks import lock_rows
from leagues.audit import audit_log
from leagues.models import (
    AuditEntry,
    Fixture,
    League,
    TableGame,
    TeamEntry,
    Withdrawal,
    withdrew_words,
)
from leagues.permissions import require_secretary
from leagues.services.fixtures import REPLACEABLE, status_subject
from leagues.services.rollup import FixtureChanged, roll_up
from leagues.services.standings import refresh_entry_tables
from leagues.zones import today_in
from scoring.actors import Account, Actor

#: What a withdrawal changes of each fixture it settles, and reinstating the team puts back.
SETTLED_FIELDS = ("status", "walkover_to", "walkover_pending", "withdrew", "reason")


def _locked_entry(entry: TeamEntry) -> TeamEntry:
    """The entry, its row locked first and read after (``config.locks`` says why): an entry
    moved to another division a moment ago is read with its new division."""
    lock_rows(TeamEntry.objects.filter(pk=entry.pk))
    return TeamEntry.objects.select_related("season__league", "team", "division").get(pk=entry.pk)


def _season_over(entry: TeamEntry) -> bool:
    """Whether the season has ended by the league's today (a Port of Spain evening is already
    tomorrow in London)."""
    ends_on = entry.season.ends_on
    return ends_on is not None and today_in(entry.season.league.time_zone) > ends_on


def _remaining(entry: TeamEntry) -> list[Fixture]:
    """The team's league fixtures still to play, none of their games begun, locked.

    They are locked first and read after (``config.locks`` says why): a fixture whose games
    began a moment ago, while this waited for its lock, is then seen to have begun."""
    fixtures = Fixture.objects.filter(
        division=entry.division, kind=Fixture.Kind.LEAGUE, status__in=REPLACEABLE
    ).filter(Q(home=entry.team) | Q(away=entry.team))
    lock_rows(fixtures)
    started = TableGame.objects.filter(table__fixture__division=entry.division).values(
        "table__fixture"
    )
    return list(
        fixtures.select_for_update(of=("self",))  # one put back to play meanwhile, if any
        .exclude(pk__in=started)
        .select_related("division__season__league", "home", "away")
        .order_by("date", "pk")
    )


def _state(entry: TeamEntry) -> dict[str, Any]:
    return {
        "withdrawn_on": entry.withdrawn_on.isoformat() if entry.withdrawn_on else None,
        "withdrawal": entry.withdrawal,
        "reason": entry.withdrawal_reason,
        "fixtures": [item["pk"] for item in entry.withdrawal_settled],
    }


def _fixture_state(fixture: Fixture) -> dict[str, Any]:
    return {
        "pk": fixture.pk,
        "status": fixture.status,
        "walkover_to": fixture.walkover_to,
        "walkover_pending": fixture.walkover_pending,
        "reason": fixture.reason,
    }


def _audit_fixture(
    fixture: Fixture,
    before: dict[str, Any],
    *,
    league: League,
    action: str,
    subject: str,
    by: Account,
) -> None:
    """Each fixture a withdrawal settles (or a reinstatement puts back) has its own entry, so
    its audit page tells it and its calendar event is seen to change."""
    audit_log(
        league=league,
        fixture=fixture,
        action=action,
        subject=subject,
        before=before,
        after=_fixture_state(fixture),
        by=by,
    )


@transaction.atomic
def team_withdraw(
    *,
    entry: TeamEntry,
    reason: str,
    withdrawal: str | None = None,
    on: datetime.date | None = None,
    by: Account = None,
) -> TeamEntry:
    """Withdraw the team from its season's division; its remaining fixtures are settled."""
    require_secretary(by, entry.season.league)
    entry = _locked_entry(entry)
    league = entry.season.league
    withdrawal = withdrawal or league.withdrawal
    if withdrawal not in Withdrawal.values:
        raise ValidationError(f"“{withdrawal}” is not a way to withdraw a team.")
    if entry.is_withdrawn:
        raise ValidationError(f"{entry.team} has already withdrawn from {entry.season.name}.")
    if _season_over(entry):
        raise ValidationError(f"{entry.season.name} has ended; its table is final.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give the reason the team withdrew: the table's notes print it.")
    before = _state(entry)
    settled = []
    today = today_in(league.time_zone)
    for fixture in _remaining(entry):
        settled.append(_fixture_state(fixture))
        home = fixture.home_id == entry.team_id
        fixture.withdrew = Fixture.Side.HOME if home else Fixture.Side.AWAY
        if withdrawal == Withdrawal.STAND:
            fixture.status = Fixture.Status.WALKOVER
            fixture.walkover_to = Fixture.Side.AWAY if home else Fixture.Side.HOME
            fixture.walkover_pending = fixture.date > today
        else:
            fixture.status = Fixture.Status.VOID
            fixture.walkover_to = ""
        fixture.reason = withdrew_words(entry.team, reason)
        fixture.save(update_fields=[*SETTLED_FIELDS, "updated_at"])
        roll_up(FixtureChanged(fixture=fixture, actor=Actor.of(by)))
        _audit_fixture(
            fixture,
            settled[-1],
            league=league,
            action=AuditEntry.Action.FIXTURE_SETTLED_BY_WITHDRAWAL,
            subject=status_subject(fixture),
            by=by,
        )
    entry.withdrawn_on = on or today
    entry.withdrawal = withdrawal
    entry.withdrawal_reason = reason
    entry.withdrawal_settled = settled
    entry.save(
        update_fields=["withdrawn_on", "withdrawal", "withdrawal_reason", "withdrawal_settled"]
    )
    refresh_entry_tables(entry=entry)
    audit_log(
        league=league,
        action=AuditEntry.Action.TEAM_WITHDRAWN,
        subject=f"{entry.team} withdrew from {entry.division} "
        f"({entry.get_withdrawal_display().lower()}): {reason}",
        before=before,
        after=_state(entry),
        by=by,
    )
    return entry


@transaction.atomic
def team_reinstate(*, entry: TeamEntry, by: Account = None) -> TeamEntry:
    """Undo a withdrawal while the season runs: the fixtures it settled are put back as they
    were (those changed since are left alone), and its results count again."""
    require_secretary(by, entry.season.league)
    entry = _locked_entry(entry)
    if not entry.is_withdrawn:
        raise ValidationError(f"{entry.team} has not withdrawn.")
    if _season_over(entry):
        raise ValidationError(f"{entry.season.name} has ended; the withdrawal stands.")
    before = _state(entry)
    given = Fixture.Status.WALKOVER if entry.withdrawal == Withdrawal.STAND else Fixture.Status.VOID
    by_pk = {item["pk"]: item for item in entry.withdrawal_settled}
    for fixture in (
        Fixture.objects.select_for_update(of=("self",))
        .filter(pk__in=by_pk)
        .exclude(withdrew="")
        .select_related("home", "away")
    ):
        fixture.withdrew = ""
        if fixture.status != given:  # the secretary voided its walkover since: theirs now
            fixture.save(update_fields=["withdrew", "updated_at"])
            continue
        was = by_pk[fixture.pk]
        before_fixture = _fixture_state(fixture)
        fixture.status = was["status"]
        fixture.walkover_to = was["walkover_to"]
        fixture.walkover_pending = was.get("walkover_pending", False)
        fixture.reason = was["reason"]
        fixture.save(update_fields=[*SETTLED_FIELDS, "updated_at"])
        roll_up(FixtureChanged(fixture=fixture, actor=Actor.of(by)))
        _audit_fixture(
            fixture,
            before_fixture,
            league=entry.season.league,
            action=AuditEntry.Action.FIXTURE_REINSTATED,
            subject=f"{fixture}: back as it was, {entry.team} reinstated",
            by=by,
        )
    entry.withdrawn_on = None
    entry.withdrawal = ""
    entry.withdrawal_reason = ""
    entry.withdrawal_settled = []
    entry.save(
        update_fields=["withdrawn_on", "withdrawal", "withdrawal_reason", "withdrawal_settled"]
    )
    refresh_entry_tables(entry=entry)
    audit_log(
        league=entry.season.league,
        action=AuditEntry.Action.TEAM_REINSTATED,
        subject=f"{entry.team} reinstated in {entry.division}",
        before=before,
        after=_state(entry),
        by=by,
    )
    return entry


def settle_due_walkovers() -> int:
    """Count every pending walkover whose date has come where its league plays (the module's
    doc): each in its own transaction, under its fixture's lock, audited by the system. The
    number settled; 0 when none is due (one query), however often it runs."""
    pending = Fixture.objects.filter(walkover_pending=True).values_list(
        "pk", "date", "division__season__league__time_zone"
    )
    today: dict[str, datetime.date] = {}
    due = [pk for pk, day, zone in pending if day <= today.setdefault(zone, today_in(zone))]
    return sum(_settle_walkover(pk) for pk in due)


@transaction.atomic
def _settle_walkover(pk: int) -> int:
    lock_rows(Fixture.objects.filter(pk=pk))
    fixture = (
        Fixture.objects.filter(pk=pk, walkover_pending=True)
        .select_related("division__season__league", "home", "away")
        .first()
    )
    if fixture is None or fixture.date > today_in(fixture.division.season.league.time_zone):
        return 0  # settled meanwhile (another server), put back, or moved
    before = _fixture_state(fixture)
    fixture.walkover_pending = False
    fixture.save(update_fields=["walkover_pending", "updated_at"])
    roll_up(FixtureChanged(fixture=fixture, recount=False))
    winner = fixture.walkover_winner
    _audit_fixture(
        fixture,
        before,
        league=fixture.division.season.league,
        action=AuditEntry.Action.WALKOVER_COUNTED,
        subject=f"{fixture}: the walkover to {winner} counts from its date ({fixture.reason})",
        by=None,
    )
    return 1
