"""A race tie's result, agreed as a league fixture's is (``leagues.services.agreement``): the
tie's scoring link puts it forward when the deciding game is won (or a side or a secretary
does, after a rejected one); a player of each pair, or the pair's team captain, agrees for it
or disputes it; a secretary who did not submit it confirms it or settles a dispute, and any
secretary reopens a counted result. The winner goes through once the result counts, and comes
back when it stops counting, which is refused (nothing changes) once the next round's tie has
started.

A team tie's result is its fixture's (``leagues.services.confirmation``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from cups.models import Competition, Tie, TieResult
from cups.services import ties
from cups.services.results import TieTerms, race_figures
from leagues.services import agreement
from scoring.actors import Account


def _race(tie: Tie) -> TieTerms:
    if tie.competition.tie_format != Competition.TieFormat.RACE:
        raise ValidationError(
            "A team tie's result is agreed on its fixture's result page, as in the league."
        )
    return TieTerms(tie)


def _lock(result: TieResult) -> tuple[TieTerms, TieResult]:
    tie = ties.lock_tie(result.tie_id)
    return _race(tie), TieResult.objects.select_for_update().get(pk=result.pk)


def can_submit(*, tie: Tie, by: Account) -> bool:
    terms = TieTerms(tie)
    return agreement.is_secretary(terms, by) or bool(terms.sides_of(agreement.account(by)))


def can_confirm(*, result: TieResult, by: Account) -> bool:
    return agreement.can_confirm(TieTerms(result.tie), result, by)


def can_dispute(*, result: TieResult, by: Account) -> bool:
    return agreement.can_dispute(TieTerms(result.tie), result, by)


def already_done(*, result: TieResult, by: Account) -> str:
    """What ``by`` did to the result already and where it stands (``agreement.already_done``),
    "" when nothing: a second Confirm is told so, not refused."""
    return agreement.already_done(TieTerms(result.tie), result, by)


def can_settle(*, result: TieResult, by: Account) -> bool:
    return agreement.can_settle(TieTerms(result.tie), result, by)


def can_reopen(*, tie: Tie, by: Account) -> bool:
    """Any secretary of the league, whoever submitted the result (``agreement.can_reopen``)."""
    return agreement.can_reopen(TieTerms(tie), by)


@transaction.atomic
def tie_result_submit(*, tie: Tie, by: Account) -> TieResult:
    """Put the result the tie's games give forward again (after a rejected one): a side's
    submission is its agreement."""
    tie = ties.lock_tie(tie)
    terms = _race(tie)
    if not can_submit(tie=tie, by=by):
        raise PermissionDenied(
            "Only a player (or team captain) of either side, or a secretary, submits a result."
        )
    if tie.status == Tie.Status.WALKOVER or tie.decided_by == ties.SETTLED:
        raise ValidationError("The secretary decided this tie: there is no result to agree.")
    if not race_figures(tie)["winner"]:
        need = tie.competition.games_to_win
        raise ValidationError(f"Neither side has {need} games yet: nothing to submit.")
    result: TieResult = agreement.submit(terms, by=by)
    return result


@transaction.atomic
def tie_result_confirm(*, result: TieResult, by: Account) -> TieResult:
    """A side that has not agreed yet agrees; once both have (or a secretary who did not submit
    it confirms) it counts and the winner goes through."""
    terms, result = _lock(result)
    agreement.confirm(terms, result, by=by)
    if result.is_confirmed:
        ties.tie_result_counted(tie=terms.tie, by=by)
    return result


@transaction.atomic
def tie_result_dispute(*, result: TieResult, reason: str, by: Account) -> TieResult:
    """A side that has not agreed says it is wrong: a secretary settles it."""
    terms, result = _lock(result)
    agreement.dispute(terms, result, reason=reason, by=by)
    return result


@transaction.atomic
def tie_result_settle(*, result: TieResult, uphold: bool, note: str, by: Account) -> TieResult:
    """A secretary decides a dispute: uphold the result (it counts; the winner goes through) or
    reject it (the games are corrected at the table, or the secretary settles the score)."""
    terms, result = _lock(result)
    agreement.settle(terms, result, uphold=uphold, note=note, by=by)
    if uphold:
        ties.tie_result_counted(tie=terms.tie, by=by)
    return result


@transaction.atomic
def tie_result_reopen(*, tie: Tie, reason: str, by: Account) -> TieResult:
    """A secretary takes a counted result back: the winner comes back out of the next round
    (refused once that tie has started: reverse it first) and the tie's link works again."""
    terms = _race(ties.lock_tie(tie))
    result: TieResult = agreement.reopen(terms, reason=reason, by=by)
    ties.tie_result_counted(tie=terms.tie, by=by)
    return result
