"""Points deducted from or given to a team, each with its reason and who made it."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from leagues.audit import audit_log
from leagues.models import AuditEntry, Fixture, PointAdjustment, TeamEntry
from leagues.permissions import require_secretary
from leagues.services.standings import refresh_division_table
from scoring.actors import Account
from scoring.forms.words import signed


def _state(adjustment: PointAdjustment) -> dict[str, object]:
    return {
        "entry": adjustment.entry_id,
        "team": str(adjustment.entry.team),
        "points": adjustment.points,
        "reason": adjustment.reason,
        "fixture": adjustment.fixture_id,
    }


@transaction.atomic
def points_adjust(
    *,
    entry: TeamEntry,
    points: int,
    reason: str,
    fixture: Fixture | None = None,
    by: Account = None,
) -> PointAdjustment:
    """Deduct (negative ``points``) or award points to a team's entry; the reason is shown on
    the table."""
    require_secretary(by, entry.season.league)
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give the reason: it is printed under the table.")
    if points == 0:
        raise ValidationError("An adjustment of 0 points changes nothing.")
    if fixture is not None:
        if fixture.division_id != entry.division_id:
            raise ValidationError(f"{fixture} is not in {entry.division}.")
        if fixture.kind != Fixture.Kind.LEAGUE:
            raise ValidationError(
                f"{fixture} is a cup tie: the league's table does not count it, so points "
                "cannot arise from it."
            )
        if entry.team_id not in (fixture.home_id, fixture.away_id):
            raise ValidationError(f"{fixture} is not a fixture of {entry.team}.")
    adjustment = PointAdjustment.objects.create(
        entry=entry,
        points=points,
        reason=reason,
        fixture=fixture,
        made_by=by if by is not None and by.is_authenticated else None,
        made_at=timezone.now(),
    )
    audit_log(
        league=entry.season.league,
        fixture=fixture,
        action=AuditEntry.Action.ADJUSTMENT_MADE,
        subject=f"{entry.team}: {signed(points)} points ({reason})",
        after=_state(adjustment),
        by=by,
    )
    refresh_division_table(division=entry.division_id)
    return adjustment


@transaction.atomic
def adjustment_withdraw(*, adjustment: PointAdjustment, by: Account = None) -> None:
    """Withdraw an adjustment made in error."""
    require_secretary(by, adjustment.entry.season.league)
    before = _state(adjustment)
    league, fixture = adjustment.entry.season.league, adjustment.fixture
    subject = f"{adjustment.entry.team}: {signed(adjustment.points)} points withdrawn"
    division = adjustment.entry.division_id
    adjustment.delete()
    refresh_division_table(division=division)
    audit_log(
        league=league,
        fixture=fixture,
        action=AuditEntry.Action.ADJUSTMENT_WITHDRAWN,
        subject=subject,
        before=before,
        by=by,
    )
