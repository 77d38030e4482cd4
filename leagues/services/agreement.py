"""The one set of rules for agreeing a result (``ResultAgreement``): a league fixture's and a
cup race tie's. Submitted by one side (its agreement), by a table's link or by a secretary
(neither side's); each side agrees in turn, or disputes it for a secretary to settle; it counts
once both sides agreed, or a secretary who did not submit it (or the league's only one) confirms
or settles it; a secretary may reopen a counted result. Every step writes the same audit entries
(``result_submitted``, ``result_agreed``, ``result_confirmed``, ``result_disputed``,
``result_settled``, ``result_rejected``, ``result_reopened``, ``submission_withdrawn``,
``confirmed_result_changed``).

What differs between a fixture and a tie is a ``Terms``: who speaks for each side, the figures
the games give now, the scoring links to close, where the audit entry points. The callers lock
the fixture or tie (and the submission) first and own the transaction; the database constraints
(``agreement_constraints``) refuse what slips past.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.utils import timezone

from leagues.models import AuditEntry, League, ResultAgreement
from leagues.permissions import can_manage_league
from scoring.actors import Account
from scoring.models import ScoringLink

Status = ResultAgreement.Status
OPEN = tuple(ResultAgreement.OPEN_STATUSES)
CONFIRMED = tuple(ResultAgreement.CONFIRMED_STATUSES)
SIDES = ("home", "away")
#: How a result came to count from the score card both captains signed, typed by a secretary:
#: its confirmation's audit entry says it, and its result page ("Confirmed from the score card
#: both captains signed, entered by …").
SIGNED_CARD = "from the score card both captains signed"
#: How a result settled with the score card the secretary entered was settled (``settle_anew``):
#: its audit entry's ``settled_with``, which the captains' notice reads. The card corrected
#: the figures submitted (``SETTLED_WITH``), or gives them as they were (``SETTLED_AS_IS``: the
#: paper card agrees with them).
SETTLED_WITH = "the corrected score card"
SETTLED_AS_IS = "the score card"


class AlreadyDone(ValidationError):
    """A Confirm or Dispute from someone whose part is done already (a second tap, an older tab
    or phone): nothing changes, and they are told where the result stands (``already_done``),
    not refused as if it were not theirs to do."""


class Terms(ABC):
    """What a result is agreed about (a locked fixture or tie), as the shared rules need it."""

    league: League
    #: How a result both sides agreed to is recorded (``ConfirmedAs``).
    agreed_as: str
    #: Who agrees for a side, in the refusals: "captain of a team", "player of a pair".
    agreer: str
    #: Whether a secretary who judges a result (``judges``) may dispute it, or settle it with
    #: the card, for a side still to agree (a fixture's captain with no account yet): the
    #: figures they have from the paper card differ from those submitted.
    judge_disputes: bool = False

    @abstractmethod
    def sides_of(self, user: Account) -> set[str]:
        """The sides ("home", "away") that ``user`` (an account) speaks for."""

    @abstractmethod
    def side_label(self, side: str) -> str:
        """Who agreed for ``side``, in the audit trail: "Reds' captain", "Ann and Bob"."""

    @abstractmethod
    def figures(self) -> dict[str, Any]:
        """The result as the games give it now (what a submission carries)."""

    @abstractmethod
    def submissions(self) -> QuerySet[Any]:
        """The subject's submissions."""

    @abstractmethod
    def create(self, **fields: Any) -> Any:
        """A new submission of the subject."""

    @abstractmethod
    def links(self) -> QuerySet[ScoringLink]:
        """The scoring links its games are played through (closed while a result counts)."""

    @abstractmethod
    def audit(
        self,
        *,
        action: str,
        subject: str,
        before: Any,
        after: Any,
        by: Account,
        link: ScoringLink | None,
    ) -> None:
        """Write one audit entry about the subject."""

    @abstractmethod
    def __str__(self) -> str:
        """The subject in words, for the audit trail: "Reds v Blues, Tue 7 Oct 2025"."""


def account(by: Account) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def _agreed(submission: ResultAgreement) -> dict[str, Any]:
    return {"home": submission.home_agreed_by_id, "away": submission.away_agreed_by_id}


def waiting_sides(submission: ResultAgreement) -> list[str]:
    """The sides ("home", "away") that have not agreed to the submission yet."""
    return [side for side, user in _agreed(submission).items() if user is None]


def sides_to_agree(terms: Terms, submission: ResultAgreement, by: Account) -> list[str]:
    """The sides still to agree that ``by`` speaks for; never the submitter's, and one account
    agrees for one side only."""
    user = account(by)
    if user is None or submission.submitted_by_id == user.pk:
        return []
    if user.pk in _agreed(submission).values():
        return []
    sides = terms.sides_of(user)
    return [side for side in waiting_sides(submission) if side in sides]


def is_secretary(terms: Terms, by: Account) -> bool:
    return can_manage_league(by, terms.league)


def judges(terms: Terms, submission: ResultAgreement, by: Account) -> bool:
    """Whether ``by`` decides for the league whether ``submission`` counts (confirms it without
    both sides, settles its dispute): a secretary who did not submit it, or the league's only
    secretary (a league run by one person, whose captains may have no accounts, is not left
    with results no one can make count)."""
    user = account(by)
    if user is None or not is_secretary(terms, user):
        return False
    return submission.submitted_by_id != user.pk or only_secretary(terms.league, user)


def waiting_words(terms: Terms, submission: ResultAgreement) -> str:
    """Who the submission waits for, as a sentence names them: "Old Hall's captain", "Ann and
    Bob", both sides' joined by "and"."""
    return " and ".join(terms.side_label(side) for side in waiting_sides(submission))


def standing_words(terms: Terms, submission: ResultAgreement) -> str:
    """Where the submission stands, after "this result": "it counts", "it waits for Old Hall's
    captain (or a secretary) to confirm it", "it was disputed by Old Hall's captain, and a
    secretary settles it", "it was withdrawn"."""
    if submission.is_confirmed:
        return "it counts"
    if submission.status == Status.SUBMITTED:
        return f"it waits for {waiting_words(terms, submission)} (or a secretary) to confirm it"
    if submission.status == Status.DISPUTED:
        by = submission.disputed_by
        sides = terms.sides_of(by) if by is not None else set()
        side = next((s for s in SIDES if s in sides), None)
        who = terms.side_label(side) if side is not None else "a secretary"
        return f"it was disputed by {who}, and a secretary settles it"
    return "it was withdrawn"


def already_done(terms: Terms, submission: ResultAgreement, by: Account) -> str:
    """What ``by`` did to ``submission`` already, and where it stands now, for a Confirm or a
    Dispute of theirs that finds their part done (``AlreadyDone``): "You have already confirmed
    this result: it counts." (agreed for their side, or confirmed it as a secretary), "You have
    already disputed this result: …", "Your side has already confirmed this result: …" (their
    co-captain or partner did). "" when they did nothing to it yet, and for its submitter (who
    never confirms what they submitted, a refusal of its own)."""
    user = account(by)
    if user is None or submission.submitted_by_id == user.pk:
        return ""
    if submission.disputed_by_id == user.pk:
        done = "You have already disputed this result"
    elif user.pk in (*_agreed(submission).values(), submission.confirmed_by_id):
        done = "You have already confirmed this result"
    else:
        sides = terms.sides_of(user)
        if not sides or set(waiting_sides(submission)) & sides:
            return ""
        done = "Your side has already confirmed this result"
    if submission.status == Status.DISPUTED and submission.disputed_by_id == user.pk:
        return f"{done}: a secretary settles it."
    return f"{done}: {standing_words(terms, submission)}."


def _require_not_done(
    terms: Terms, submission: ResultAgreement, by: Account, *, may: bool, reason: str | None = None
) -> None:
    """A Confirm or Dispute that ``by`` ``may`` not take (any longer), or on a result no longer
    waiting, where their part is done already: ``AlreadyDone``, saying so. A Dispute's
    ``reason`` typed is said back, not recorded, with whom to tell now."""
    if may and submission.status == Status.SUBMITTED:
        return
    done = already_done(terms, submission, by)
    if not done:
        return
    user = account(by)
    if reason is not None and (user is None or submission.disputed_by_id != user.pk):
        typed = f" (you wrote: “{reason.strip()}”)" if reason.strip() else ""
        done += (
            f" Your dispute was not recorded{typed}: to say the result is wrong now, tell the "
            "league's secretary."
        )
    raise AlreadyDone(done)


def only_secretary(league: League, user: Account) -> bool:
    """Whether ``user`` is the league's only secretary (the one who judges what they submit)."""
    return not league.secretaries.exclude(pk=user.pk).exists()


def can_confirm(terms: Terms, submission: ResultAgreement, by: Account) -> bool:
    """A side that has not agreed yet (never the submitter's), or a secretary who judges it
    (``judges``)."""
    return judges(terms, submission, by) or bool(sides_to_agree(terms, submission, by))


def can_dispute(terms: Terms, submission: ResultAgreement, by: Account) -> bool:
    """A side that has not agreed yet (never the submitter's), or, where the terms allow it
    (``Terms.judge_disputes``), a secretary who judges it for a side still to agree
    (``judges_for_a_side``)."""
    return bool(sides_to_agree(terms, submission, by)) or judges_for_a_side(terms, submission, by)


def judges_for_a_side(terms: Terms, submission: ResultAgreement, by: Account) -> bool:
    """Whether ``by``, a secretary who judges ``submission`` (``judges``) and did not submit it,
    speaks for a side still to agree (``Terms.judge_disputes``): disputes it, or settles it with
    the score card, where its captain would, one with no account included."""
    user = account(by)
    return (
        terms.judge_disputes
        and user is not None
        and submission.submitted_by_id != user.pk
        and bool(waiting_sides(submission))
        and judges(terms, submission, user)
    )


def can_settle(terms: Terms, submission: ResultAgreement, by: Account) -> bool:
    return judges(terms, submission, by)


def can_settle_with_card(terms: Terms, submission: ResultAgreement, by: Account) -> bool:
    """Whether ``by`` settles ``submission`` with the result as they entered it (the score
    card): one still waiting for a side, a secretary who speaks for that side
    (``judges_for_a_side``: the card they have is its word); else one who may settle it
    (``can_settle``)."""
    if submission.status == Status.SUBMITTED:
        return judges_for_a_side(terms, submission, by)
    return can_settle(terms, submission, by)


def can_reopen(terms: Terms, by: Account) -> bool:
    """Any secretary of the league, the one who submitted or confirmed the result included (a
    score card both captains signed, typed with a slip, is put right by whoever typed it): the
    four eyes are the sides' agreement to a result, not undoing it, and reopening is audited."""
    user = account(by)
    return user is not None and is_secretary(terms, user)


def _state(submission: ResultAgreement) -> dict[str, Any]:
    return {
        "status": submission.status,
        "figures": submission.figures,
        "agreed": [side for side, user in _agreed(submission).items() if user is not None],
    }


def _close_links(terms: Terms) -> None:
    from scoring.services.links import _scoring_link_close

    for link in terms.links().filter(closed_at__isnull=True):
        _scoring_link_close(link=link)


def _reopen_links(terms: Terms) -> None:
    from scoring.services.links import _scoring_link_reopen

    for link in terms.links().filter(closed_at__isnull=False, revoked_at__isnull=True):
        _scoring_link_reopen(link=link)


def _require_open(submission: ResultAgreement, status: str) -> None:
    if submission.status != status:
        raise ValidationError(f"This result is {submission.get_status_display().lower()}.")


def submit(terms: Terms, *, by: Account = None, link: ScoringLink | None = None) -> Any:
    """Put the result the games give forward; the submitter's side (if it speaks for exactly
    one) has agreed. The caller checked the submitter may and the games are finished.

    Already submitted, with these very figures, by the other side's captain (the two captains
    pressed Submit at once): a captain of the side still to agree agrees instead (``confirm``), as
    they would have next; the submission is returned, its ``submitted_by`` someone else's."""
    existing = terms.submissions().filter(status__in=[*OPEN, *CONFIRMED]).first()
    user = account(by)
    sides = terms.sides_of(user) if user is not None else set()
    if (
        existing is not None
        and existing.status == Status.SUBMITTED
        and existing.submitted_by_id is not None
        and existing.figures == terms.figures()
        and len(sides) == 1
        and sides <= set(waiting_sides(existing))
    ):
        return confirm(terms, existing, by=by)
    if existing is not None:
        raise ValidationError(f"The result is already {existing.get_status_display().lower()}.")
    submission = terms.create(
        figures=terms.figures(),
        submitted_by=user,
        submitted_by_link=link if user is None else None,
        home_agreed_by=user if sides == {"home"} else None,
        away_agreed_by=user if sides == {"away"} else None,
    )
    terms.audit(
        action=AuditEntry.Action.RESULT_SUBMITTED,
        subject=f"Result of {terms} submitted",
        before=None,
        after=_state(submission),
        by=by,
        link=link,
    )
    return submission


def confirm(
    terms: Terms, submission: ResultAgreement, *, by: Account, signed_card: bool = False
) -> ResultAgreement:
    """A side that has not agreed yet agrees; once both have (or a secretary who judges it
    confirms) the result counts and the scoring links close. ``submission.status`` says
    which: still submitted, or confirmed. ``signed_card``: a secretary typed the score card
    both captains signed, which is their agreement: it counts, whoever submitted it. Pressed
    again by one who confirmed it (an older tab): ``AlreadyDone``, nothing changed."""
    may = can_confirm(terms, submission, by) or (signed_card and is_secretary(terms, by))
    _require_not_done(terms, submission, by, may=may)
    if not may:
        raise PermissionDenied(
            f"Only a {terms.agreer} that has not agreed yet, or a secretary, confirms; "
            "never the submitter, unless they are the league's only secretary."
        )
    _require_open(submission, Status.SUBMITTED)
    if terms.figures() != submission.figures:
        raise ValidationError(
            "The games changed after this result was submitted: it must be submitted again."
        )
    before = _state(submission)
    sides = sides_to_agree(terms, submission, by)
    if sides:
        setattr(submission, f"{sides[0]}_agreed_by", by)
    if not waiting_sides(submission):
        submission.confirmed_as = terms.agreed_as
    elif is_secretary(terms, by):
        submission.confirmed_as = ResultAgreement.ConfirmedAs.SECRETARY
    fields = ["home_agreed_by", "away_agreed_by"]
    if submission.confirmed_as:
        submission.status = Status.CONFIRMED
        submission.confirmed_by = by
        submission.confirmed_at = timezone.now()
        fields += ["status", "confirmed_by", "confirmed_at", "confirmed_as"]
    submission.save(update_fields=fields)
    if submission.is_confirmed:
        _close_links(terms)
        action, subject = "result_confirmed", f"Result of {terms} confirmed"
        if signed_card:
            subject += f" {SIGNED_CARD}"
    else:
        action, subject = (
            "result_agreed",
            f"Result of {terms} agreed by {terms.side_label(sides[0])}",
        )
    terms.audit(
        action=action, subject=subject, before=before, after=_state(submission), by=by, link=None
    )
    return submission


def dispute(
    terms: Terms, submission: ResultAgreement, *, reason: str, by: Account
) -> ResultAgreement:
    """A side that has not agreed says it is wrong (or a secretary for it: ``can_dispute``): a
    secretary settles it. Pressed by one who confirmed or disputed it already (an older
    tab): ``AlreadyDone``, nothing changed."""
    may = can_dispute(terms, submission, by)
    _require_not_done(terms, submission, by, may=may, reason=reason)
    if not may:
        raise PermissionDenied(
            f"Only a {terms.agreer} that has not agreed, or a secretary who did not submit it, "
            "disputes a result."
        )
    _require_open(submission, Status.SUBMITTED)
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say why the result is wrong: the secretary reads it.")
    before = _state(submission)
    submission.status = Status.DISPUTED
    submission.dispute_reason = reason
    submission.disputed_by = by
    submission.save(update_fields=["status", "dispute_reason", "disputed_by"])
    terms.audit(
        action=AuditEntry.Action.RESULT_DISPUTED,
        subject=f"Result of {terms} disputed: {reason}",
        before=before,
        after=_state(submission) | {"reason": reason},
        by=by,
        link=None,
    )
    return submission


def settle(
    terms: Terms,
    submission: ResultAgreement,
    *,
    uphold: bool,
    note: str,
    by: Account,
    to_do: str = "",
) -> ResultAgreement:
    """A secretary decides a dispute: uphold the submitted result (it counts, as settled), or
    reject it (withdrawn: the games are corrected and the result submitted again; ``to_do``:
    what the sides do to bring it again, as they are told it)."""
    if not can_settle(terms, submission, by):
        raise PermissionDenied("Only a secretary of the league settles a dispute.")
    _require_open(submission, Status.DISPUTED)
    note = note.strip()
    if not note:
        raise ValidationError("Say how the dispute was settled: both sides read it.")
    if uphold and terms.figures() != submission.figures:
        raise ValidationError(
            "The games changed after this result was submitted: reject it and let it be "
            "submitted again."
        )
    before = _state(submission)
    submission.settled_by = by
    submission.settlement = note
    if uphold:
        submission.status = Status.SETTLED
        submission.confirmed_as = ResultAgreement.ConfirmedAs.SECRETARY
        submission.confirmed_by = by
        submission.confirmed_at = timezone.now()
    else:
        submission.status = Status.WITHDRAWN
    submission.save()
    if uphold:
        _close_links(terms)
    terms.audit(
        action=AuditEntry.Action.RESULT_SETTLED if uphold else "result_rejected",
        subject=f"Dispute over {terms} settled: {note}",
        before=before,
        after=_state(submission)
        | {"settlement": note}
        | ({"to_do": to_do} if to_do and not uphold else {}),
        by=by,
        link=None,
    )
    return submission


def settle_anew(
    terms: Terms, *, replacing: ResultAgreement, note: str, by: Account
) -> ResultAgreement:
    """A secretary settles a dispute with the result as they entered it (the score card): the
    disputed result gives way to it (withdrawn, with no entry of its own: this one's ``before``
    is it), and the result the games now give counts, submitted as the disputed one was and
    settled by the secretary. Its audit entry says so (``SETTLED_WITH``, or ``SETTLED_AS_IS``
    where the card gives the figures submitted), and what both
    captains are told: the result now, and the one submitted where it differs. A result still
    waiting for a side is settled so by a secretary who speaks for that side
    (``judges_for_a_side``): the card they have is that side's word."""
    replacing.refresh_from_db()
    waiting = replacing.status == Status.SUBMITTED
    if not can_settle_with_card(terms, replacing, by):
        raise PermissionDenied(
            "Only a secretary who did not submit it (or the league's only secretary) settles "
            "a dispute."
        )
    note = note.strip()
    if not note:
        raise ValidationError("Say how the dispute was settled: both sides read it.")
    if replacing.status not in (Status.SUBMITTED, Status.DISPUTED, Status.WITHDRAWN):
        raise ValidationError(f"This result is {replacing.get_status_display().lower()}.")
    before = _state(replacing)
    if replacing.status in OPEN:
        replacing.status = Status.WITHDRAWN
        replacing.save(update_fields=["status"])
    now = timezone.now()
    settled = terms.create(
        figures=terms.figures(),
        submitted_by=replacing.submitted_by,
        submitted_by_link=replacing.submitted_by_link,
        submitted_at=replacing.submitted_at,
        home_agreed_by=replacing.home_agreed_by,
        away_agreed_by=replacing.away_agreed_by,
        dispute_reason=replacing.dispute_reason,
        disputed_by=replacing.disputed_by,
        status=Status.SETTLED,
        confirmed_as=ResultAgreement.ConfirmedAs.SECRETARY,
        confirmed_by=by,
        confirmed_at=now,
        settled_by=by,
        settlement=note,
    )
    _close_links(terms)
    terms.audit(
        action=AuditEntry.Action.RESULT_SETTLED,
        subject=f"{'Result of' if waiting else 'Dispute over'} {terms} settled: {note}",
        before=before,
        after=_state(settled)
        | {
            "settlement": note,
            "settled_with": SETTLED_AS_IS if settled.figures == replacing.figures else SETTLED_WITH,
        },
        by=by,
        link=None,
    )
    return settled


def reopen(terms: Terms, *, reason: str, by: Account, to_do: str = "") -> ResultAgreement:
    """A secretary takes back a counted result (a mistake found later): it stops counting and
    the scoring links open again. ``to_do``: what the sides do to bring it again, as they are
    told it (``withdraw_open``)."""
    if not can_reopen(terms, by):
        raise PermissionDenied("Only a secretary of the league reopens a confirmed result.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Say why the confirmed result is reopened.")
    confirmed = terms.submissions().filter(status__in=CONFIRMED).first()
    if confirmed is None:
        raise ValidationError("There is no confirmed result to reopen.")
    before = _state(confirmed)
    confirmed.status = Status.WITHDRAWN
    confirmed.save(update_fields=["status"])
    _reopen_links(terms)
    terms.audit(
        action=AuditEntry.Action.RESULT_REOPENED,
        subject=f"Confirmed result of {terms} reopened: {reason}",
        before=before,
        after=_state(confirmed) | {"reason": reason} | ({"to_do": to_do} if to_do else {}),
        by=by,
        link=None,
    )
    return confirmed


def withdraw_open(
    terms: Terms,
    *,
    why: str,
    after: Any,
    by: Account,
    link: ScoringLink | None,
    statuses: tuple[str, ...] = OPEN,
    next_step: str = "",
    to_do: str = "",
) -> int:
    """Withdraw the open submission (it no longer describes the games, or the secretary decided
    the result another way), and with ``statuses`` also a counted one (the games are set aside).
    ``next_step``: how the result comes again, as the captains are told it ("Roy Stead is
    entering the corrected score card"), where the one withdrawing it knows; ``to_do``: what
    the captains do to bring it again, said as it is ("Submit it again from the result page
    once you have checked it."). Returns how many were withdrawn."""
    withdrawn = 0
    for submission in terms.submissions().filter(status__in=statuses):
        before = {"status": submission.status, "figures": submission.figures}
        submission.status = Status.WITHDRAWN
        submission.save(update_fields=["status"])
        terms.audit(
            action=AuditEntry.Action.SUBMISSION_WITHDRAWN,
            subject=f"Submitted result of {terms} withdrawn: {why}",
            before=before,
            after={
                "status": "withdrawn",
                "figures": after,
                "reason": why,
                **({"next": next_step} if next_step else {}),
                **({"to_do": to_do} if to_do else {}),
            },
            by=by,
            link=link,
        )
        withdrawn += 1
    return withdrawn


def result_changed(
    terms: Terms,
    *,
    before: dict[str, Any],
    after: dict[str, Any],
    by: Account,
    link: ScoringLink | None,
    why: str = "",
    to_do: str = "",
) -> int:
    """The figures the games give changed (``why``: what changed them, in words; "the games
    changed" when not given): an open submission is withdrawn, to be submitted again (``to_do``:
    how, ``withdraw_open``); a counted result changed (by a secretary: the links are closed)
    keeps counting, and the change is logged. How many audit entries it wrote (each sends its
    notices)."""
    if before == after:
        return 0
    logged = withdraw_open(
        terms, why=why or "the games changed", after=after, by=by, link=link, to_do=to_do
    )
    if terms.submissions().filter(status__in=CONFIRMED).exists():
        logged += 1
        terms.audit(
            action=AuditEntry.Action.CONFIRMED_RESULT_CHANGED,
            subject=f"Confirmed result of {terms} changed",
            before=before,
            after=after,
            by=by,
            link=link,
        )
    return logged
