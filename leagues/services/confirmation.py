"""A fixture's result: submitted by one side, confirmed or disputed by the other, settled by a
secretary. Each step locks the fixture row, checks the actor's role against the fixture, writes
the audit trail, and leaves the database constraints to refuse what slips past (a confirmer who
is the submitter, a second confirmed result).

Once confirmed, the fixture's scoring links are closed: from then on only a secretary changes
its games, and every change is logged.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from leagues.audit import audit_log
from leagues.models import Fixture, FixtureResult, ResultSubmission
from leagues.permissions import can_manage_league, captained_sides, fixture_links
from scoring.models import ScoringLink
from scoring.services import scoring_link_close, scoring_link_reopen

Status = ResultSubmission.Status
OPEN = tuple(ResultSubmission.OPEN_STATUSES)
CONFIRMED = tuple(ResultSubmission.CONFIRMED_STATUSES)

#: The stored figures a submission carries: what the confirmer agrees to.
FIGURES = (
    "outcome",
    "home_tables",
    "away_tables",
    "tables_halved",
    "home_games",
    "away_games",
    "home_pegs",
    "away_pegs",
    "home_hang_jacks",
    "away_hang_jacks",
    "home_match_points",
    "away_match_points",
    "home_points",
    "away_points",
)


def result_figures(result: FixtureResult | None) -> dict[str, Any]:
    if result is None:
        return {}
    return {name: getattr(result, name) for name in FIGURES}


def _lock(fixture: Fixture) -> Fixture:
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("division__season__league", "home", "away")
        .get(pk=fixture.pk)
    )


def _lock_submission(submission: ResultSubmission) -> tuple[Fixture, ResultSubmission]:
    fixture = _lock(submission.fixture)
    locked = ResultSubmission.objects.select_for_update().get(pk=submission.pk)
    return fixture, locked


def _user(by: Any) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def _final_result(fixture: Fixture) -> FixtureResult:
    result = FixtureResult.objects.filter(fixture=fixture).first()
    if result is None or not result.is_final or fixture.status != Fixture.Status.PLAYED:
        raise ValidationError("The fixture's games are not all finished: nothing to submit yet.")
    return result


def _agreed(submission: ResultSubmission) -> dict[str, Any]:
    return {"home": submission.home_agreed_by_id, "away": submission.away_agreed_by_id}


def waiting_sides(submission: ResultSubmission) -> list[str]:
    """The sides ("home", "away") whose captain has not agreed to the submission yet."""
    return [side for side, user in _agreed(submission).items() if user is None]


def _sides_to_agree(user: Any, fixture: Fixture, submission: ResultSubmission) -> list[str]:
    """The sides still to agree that ``user`` captains; never the submitter's, and one account
    agrees for one side only."""
    user = _user(user)
    if user is None or submission.submitted_by_id == user.pk:
        return []
    if user.pk in _agreed(submission).values():
        return []
    sides = captained_sides(user, fixture)
    return [side for side in waiting_sides(submission) if side in sides]


def can_submit(*, fixture: Fixture, by: Any = None, link: ScoringLink | None = None) -> bool:
    league = fixture.division.season.league
    if can_manage_league(by, league) or captained_sides(by, fixture):
        return True
    return link is not None and link.pk in fixture_links(fixture)


def can_confirm(*, submission: ResultSubmission, by: Any) -> bool:
    """A captain of a side that has not agreed yet, or a secretary who did not submit it."""
    user = _user(by)
    if user is None or submission.submitted_by_id == user.pk:
        return False
    fixture = submission.fixture
    if can_manage_league(user, fixture.division.season.league):
        return True
    return bool(_sides_to_agree(user, fixture, submission))


def can_dispute(*, submission: ResultSubmission, by: Any) -> bool:
    return bool(_sides_to_agree(by, submission.fixture, submission))


def can_settle(*, submission: ResultSubmission, by: Any) -> bool:
    user = _user(by)
    if user is None or submission.submitted_by_id == user.pk:
        return False
    return can_manage_league(user, submission.fixture.division.season.league)


def _close_links(fixture: Fixture) -> None:
    for link in ScoringLink.objects.filter(fixture_tables__fixture=fixture, closed_at__isnull=True):
        scoring_link_close(link=link)


def _reopen_links(fixture: Fixture) -> None:
    for link in ScoringLink.objects.filter(
        fixture_tables__fixture=fixture, closed_at__isnull=False, revoked_at__isnull=True
    ):
        scoring_link_reopen(link=link)


def _state(submission: ResultSubmission) -> dict[str, Any]:
    return {
        "status": submission.status,
        "figures": submission.figures,
        "agreed": [side for side, user in _agreed(submission).items() if user is not None],
    }


@transaction.atomic
def result_submit(
    *, fixture: Fixture, by: Any = None, link: ScoringLink | None = None
) -> ResultSubmission:
    """Put the fixture's result forward for the other side to confirm."""
    fixture = _lock(fixture)
    if not can_submit(fixture=fixture, by=by, link=link):
        raise PermissionDenied("Only a captain, a secretary or the table's scoring link submits.")
    result = _final_result(fixture)
    existing = ResultSubmission.objects.filter(
        fixture=fixture, status__in=[*OPEN, *CONFIRMED]
    ).first()
    if existing is not None:
        raise ValidationError(f"The result is already {existing.get_status_display().lower()}.")
    user = _user(by)
    # A captain's submission is their team's agreement; a link's or a secretary's is neither's.
    sides = captained_sides(user, fixture) if user is not None else set()
    submission = ResultSubmission.objects.create(
        fixture=fixture,
        figures=result_figures(result),
        submitted_by=user,
        submitted_by_link=link if user is None else None,
        home_agreed_by=user if sides == {"home"} else None,
        away_agreed_by=user if sides == {"away"} else None,
    )
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action="result_submitted",
        subject=f"Result of {fixture} submitted",
        after=_state(submission),
        by=by,
        link=link,
    )
    return submission


@transaction.atomic
def result_confirm(*, submission: ResultSubmission, by: Any) -> ResultSubmission:
    """A captain of a side that has not agreed yet agrees for it; once both teams have agreed
    (or a secretary who did not submit it confirms) the result counts and the fixture's scoring
    links close. ``submission.status`` says which: still submitted, or confirmed."""
    fixture, submission = _lock_submission(submission)
    if not can_confirm(submission=submission, by=by):
        raise PermissionDenied(
            "Only a captain of a team that has not agreed yet, or a secretary, confirms; "
            "never the submitter."
        )
    if submission.status != Status.SUBMITTED:
        raise ValidationError(f"This result is {submission.get_status_display().lower()}.")
    current = result_figures(FixtureResult.objects.filter(fixture=fixture).first())
    if current != submission.figures:
        raise ValidationError(
            "The games changed after this result was submitted: it must be submitted again."
        )
    before = _state(submission)
    sides = _sides_to_agree(by, fixture, submission)
    if sides:
        setattr(submission, f"{sides[0]}_agreed_by", by)
    if not waiting_sides(submission):
        submission.confirmed_as = ResultSubmission.ConfirmedAs.CAPTAINS
    elif can_manage_league(by, fixture.division.season.league):
        submission.confirmed_as = ResultSubmission.ConfirmedAs.SECRETARY
    fields = ["home_agreed_by", "away_agreed_by"]
    if submission.confirmed_as:
        submission.status = Status.CONFIRMED
        submission.confirmed_by = by
        submission.confirmed_at = timezone.now()
        fields += ["status", "confirmed_by", "confirmed_at", "confirmed_as"]
    submission.save(update_fields=fields)
    if submission.is_confirmed:
        _close_links(fixture)
        action, subject = "result_confirmed", f"Result of {fixture} confirmed"
    else:
        team = fixture.home if sides[0] == "home" else fixture.away
        action, subject = "result_agreed", f"Result of {fixture} agreed by {team}'s captain"
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=action,
        subject=subject,
        before=before,
        after=_state(submission),
        by=by,
    )
    return submission


@transaction.atomic
def result_dispute(*, submission: ResultSubmission, reason: str, by: Any) -> ResultSubmission:
    """The other side's captain does not agree: the secretary settles it."""
    fixture, submission = _lock_submission(submission)
    if not can_dispute(submission=submission, by=by):
        raise PermissionDenied("Only the other team's captain disputes a result.")
    if submission.status != Status.SUBMITTED:
        raise ValidationError(f"This result is {submission.get_status_display().lower()}.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say why the result is wrong: the secretary reads it.")
    before = _state(submission)
    submission.status = Status.DISPUTED
    submission.dispute_reason = reason
    submission.disputed_by = by
    submission.save(update_fields=["status", "dispute_reason", "disputed_by"])
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action="result_disputed",
        subject=f"Result of {fixture} disputed: {reason}",
        before=before,
        after=_state(submission) | {"reason": reason},
        by=by,
    )
    return submission


@transaction.atomic
def result_settle(
    *, submission: ResultSubmission, uphold: bool, note: str, by: Any
) -> ResultSubmission:
    """The secretary decides a dispute: uphold the submitted result (it counts, as settled), or
    reject it (withdrawn: the games are corrected and the result submitted again)."""
    fixture, submission = _lock_submission(submission)
    if not can_settle(submission=submission, by=by):
        raise PermissionDenied("Only a secretary of the league settles a dispute.")
    if submission.status != Status.DISPUTED:
        raise ValidationError(f"This result is {submission.get_status_display().lower()}.")
    note = note.strip()
    if not note:
        raise ValidationError("Say how the dispute was settled: both captains read it.")
    before = _state(submission)
    submission.settled_by = by
    submission.settlement = note
    if uphold:
        current = result_figures(FixtureResult.objects.filter(fixture=fixture).first())
        if current != submission.figures:
            raise ValidationError(
                "The games changed after this result was submitted: reject it and let it be "
                "submitted again."
            )
        submission.status = Status.SETTLED
        submission.confirmed_as = ResultSubmission.ConfirmedAs.SECRETARY
        submission.confirmed_by = by
        submission.confirmed_at = timezone.now()
    else:
        submission.status = Status.WITHDRAWN
    submission.save()
    if uphold:
        _close_links(fixture)
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action="result_settled" if uphold else "result_rejected",
        subject=f"Dispute over {fixture} settled: {note}",
        before=before,
        after=_state(submission) | {"settlement": note},
        by=by,
    )
    return submission


@transaction.atomic
def result_reopen(*, fixture: Fixture, reason: str, by: Any) -> None:
    """A secretary takes back a confirmed result (a mistake found later): it stops counting,
    the tables' links open again, and the result is submitted afresh."""
    fixture = _lock(fixture)
    if not can_manage_league(by, fixture.division.season.league):
        raise PermissionDenied("Only a secretary of the league reopens a confirmed result.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say why the confirmed result is reopened.")
    confirmed = ResultSubmission.objects.filter(fixture=fixture, status__in=CONFIRMED).first()
    if confirmed is None:
        raise ValidationError("There is no confirmed result to reopen.")
    before = _state(confirmed)
    confirmed.status = Status.WITHDRAWN
    confirmed.save(update_fields=["status"])
    _reopen_links(fixture)
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action="result_reopened",
        subject=f"Confirmed result of {fixture} reopened: {reason}",
        before=before,
        after=_state(confirmed) | {"reason": reason},
        by=by,
    )


def result_changed(
    *,
    fixture: Fixture,
    before: dict[str, Any],
    after: dict[str, Any],
    by: Any = None,
    link: ScoringLink | None = None,
) -> None:
    """Called by the result roll-up (inside its transaction) when a fixture's figures change.

    An open submission no longer describes the games: it is withdrawn, to be submitted again.
    A confirmed result changed by a secretary keeps counting, and the change is logged.
    """
    if before == after:
        return
    league = fixture.division.season.league
    for submission in ResultSubmission.objects.filter(fixture=fixture, status__in=OPEN):
        submission.status = Status.WITHDRAWN
        submission.save(update_fields=["status"])
        audit_log(
            league=league,
            fixture=fixture,
            action="submission_withdrawn",
            subject=f"Submitted result of {fixture} withdrawn: the games changed",
            before={"status": "submitted", "figures": submission.figures},
            after={"status": "withdrawn", "figures": after},
            by=by,
            link=link,
        )
    if ResultSubmission.objects.filter(fixture=fixture, status__in=CONFIRMED).exists():
        audit_log(
            league=league,
            fixture=fixture,
            action="confirmed_result_changed",
            subject=f"Confirmed result of {fixture} changed",
            before=before,
            after=after,
            by=by,
            link=link,
        )
