"""A team withdrawing mid-season, and reinstating it while the season is still running.

Two ways, chosen per case (the league's ``withdrawal`` setting is the default):

- **results stand**: what it played counts; each of its remaining league fixtures is a walkover
  to the opponent;
- **expunge**: none of its results count (``leagues.selectors.counting`` leaves them out, so the
  table, the chart and the statistics all lose them); its remaining fixtures are void.

Its deductions are kept either way, and the table marks it withdrawn. The fixtures the
withdrawal settled are remembered as they were, so that reinstating the team (until the season
ends) puts them back.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.locks import lock_rows
from leagues.audit import audit_log
from leagues.models import Fixture, League, TableGame, TeamEntry, Withdrawal
from leagues.permissions import require_secretary
from leagues.services.fixtures import REPLACEABLE, status_subject
from leagues.services.rollup import FixtureChanged, roll_up
from leagues.services.standings import refresh_division_table
from scoring.actors import Account


def _locked_entry(entry: TeamEntry) -> TeamEntry:
    """The entry, its row locked first and read after (``config.locks`` says why): an entry
    moved to another division a moment ago is read with its new division."""
    lock_rows(TeamEntry.objects.filter(pk=entry.pk))
    return TeamEntry.objects.select_related("season__league", "team", "division").get(pk=entry.pk)


def _season_over(entry: TeamEntry) -> bool:
    ends_on = entry.season.ends_on
    return ends_on is not None and timezone.localdate() > ends_on


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
    for fixture in _remaining(entry):
        settled.append(_fixture_state(fixture))
        if withdrawal == Withdrawal.STAND:
            fixture.status = Fixture.Status.WALKOVER
            fixture.walkover_to = (
                Fixture.Side.AWAY if fixture.home_id == entry.team_id else Fixture.Side.HOME
            )
        else:
            fixture.status = Fixture.Status.VOID
            fixture.walkover_to = ""
        fixture.reason = f"{entry.team} withdrew: {reason}"
        fixture.save(update_fields=["status", "walkover_to", "reason", "updated_at"])
        roll_up(FixtureChanged(fixture=fixture, by=by))
        _audit_fixture(
            fixture,
            settled[-1],
            league=league,
            action="fixture_settled_by_withdrawal",
            subject=status_subject(fixture),
            by=by,
        )
    entry.withdrawn_on = on or timezone.localdate()
    entry.withdrawal = withdrawal
    entry.withdrawal_reason = reason
    entry.withdrawal_settled = settled
    entry.save(
        update_fields=["withdrawn_on", "withdrawal", "withdrawal_reason", "withdrawal_settled"]
    )
    refresh_division_table(division=entry.division_id)
    audit_log(
        league=league,
        action="team_withdrawn",
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
        .filter(pk__in=by_pk, status=given)
        .select_related("home", "away")
    ):
        was = by_pk[fixture.pk]
        before_fixture = _fixture_state(fixture)
        fixture.status = was["status"]
        fixture.walkover_to = was["walkover_to"]
        fixture.reason = was["reason"]
        fixture.save(update_fields=["status", "walkover_to", "reason", "updated_at"])
        roll_up(FixtureChanged(fixture=fixture, by=by))
        _audit_fixture(
            fixture,
            before_fixture,
            league=entry.season.league,
            action="fixture_reinstated",
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
    refresh_division_table(division=entry.division_id)
    audit_log(
        league=entry.season.league,
        action="team_reinstated",
        subject=f"{entry.team} reinstated in {entry.division}",
        before=before,
        after=_state(entry),
        by=by,
    )
    return entry
