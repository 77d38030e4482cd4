"""A fixture's result: submitted by one side, confirmed or disputed by the other, settled by a
secretary. Each step locks the fixture row and hands over to the shared rules
(``leagues.services.agreement``, also a cup race tie's): a team's captain speaks for it, a
table's scoring link may submit. The database constraints refuse what slips past (a confirmer
who is the submitter, a second confirmed result).

Once confirmed, the fixture's scoring links are closed: from then on only a secretary changes
its games, and every change is logged.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet

from leagues.audit import audit_log
from leagues.models import ConfirmedAs, Fixture, FixtureResult, FixtureTable, ResultSubmission
from leagues.permissions import can_manage_league, captained_sides, fixture_links, fixture_role
from leagues.selectors.fixtures import from_card
from leagues.selectors.people import acted_words, person_or_login
from leagues.services import agreement
from scoring.actors import Account, Actor
from scoring.forms.words import possessive
from scoring.models import ScoringLink

Status = ResultSubmission.Status

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


class FixtureTerms(agreement.Terms):
    """A league fixture, for the shared rules: its teams' captains agree for them."""

    agreed_as = ConfirmedAs.CAPTAINS
    agreer = "captain of a team"
    # A captain may have no account yet (the league's first nights): a secretary with the
    # paper card disputes the result for their side, or settles it with the card.
    judge_disputes = True

    def __init__(self, fixture: Fixture) -> None:
        self.fixture = fixture
        self.league = fixture.division.season.league

    def __str__(self) -> str:
        return str(self.fixture)

    def sides_of(self, user: Account) -> set[str]:
        return captained_sides(user, self.fixture)

    def side_label(self, side: str) -> str:
        team = self.fixture.home if side == "home" else self.fixture.away
        return f"{possessive(str(team))} captain"

    def figures(self) -> dict[str, Any]:
        return result_figures(FixtureResult.objects.filter(fixture=self.fixture).first())

    def submissions(self) -> QuerySet[ResultSubmission]:
        return ResultSubmission.objects.filter(fixture=self.fixture)

    def create(self, **fields: Any) -> ResultSubmission:
        return ResultSubmission.objects.create(fixture=self.fixture, **fields)

    def links(self) -> QuerySet[ScoringLink]:
        return ScoringLink.objects.filter(fixture_tables__fixture=self.fixture)

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
        audit_log(
            league=self.league,
            fixture=self.fixture,
            action=action,
            subject=subject,
            before=before,
            after=after,
            by=by,
            link=link,
        )


def _lock(fixture: Fixture) -> Fixture:
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("division__season__league", "home", "away")
        .get(pk=fixture.pk)
    )


def _lock_submission(submission: ResultSubmission) -> tuple[FixtureTerms, ResultSubmission]:
    fixture = _lock(submission.fixture)
    locked = ResultSubmission.objects.select_for_update().get(pk=submission.pk)
    return FixtureTerms(fixture), locked


def waiting_sides(submission: ResultSubmission) -> list[str]:
    """The sides ("home", "away") whose captain has not agreed to the submission yet."""
    return agreement.waiting_sides(submission)


def waiting_for(submission: ResultSubmission) -> str:
    """Who the submission waits for: "St James Bullseyes' captain" (``agreement.waiting_words``)."""
    return agreement.waiting_words(FixtureTerms(submission.fixture), submission)


def can_submit(*, fixture: Fixture, actor: Actor) -> bool:
    """A secretary or either team's captain (an account), or a scorer through a live scoring
    link of one of the fixture's tables (``actor.link``)."""
    league = fixture.division.season.league
    if can_manage_league(actor.user, league) or captained_sides(actor.user, fixture):
        return True
    return actor.link is not None and actor.link.pk in fixture_links(fixture)


def may_submit(
    *, fixture: Fixture, actor: Actor, tables: Iterable[FixtureTable] | None = None
) -> bool:
    """Whether ``actor`` is offered to submit the fixture's result now: every table has
    finished (the fixture is played), no side has submitted it yet (its stored result says so,
    as the lists' "not yet submitted" does: ``FixtureResult.submitted``, no withdrawn
    submission counted), ``can_submit``, and its figures are not from the score card
    (``from_card``: a card's result taken back, or rejected or reopened, is put right on the
    card, whose entry submits it). The result page's Submit and the fixture page's note
    pointing to it ask this one rule; it reads ``can_submit``'s and, where all else holds, the
    fixture's tables (none when ``tables``, the fixture's, are given), and nothing at all for
    a visitor with neither an account nor a link."""
    result = getattr(fixture, "result", None)
    return (
        fixture.status == Fixture.Status.PLAYED
        and result is not None
        and not result.submitted
        and can_submit(fixture=fixture, actor=actor)
        and not from_card(fixture.tables.all() if tables is None else tables)
    )


def can_confirm(*, submission: ResultSubmission, by: Account) -> bool:
    """A captain of a side that has not agreed yet, or a secretary who did not submit it (or
    the league's only secretary)."""
    return agreement.can_confirm(FixtureTerms(submission.fixture), submission, by)


def to_confirm(*, fixture: Fixture, by: Account) -> ResultSubmission | None:
    """The fixture's submitted result when ``by`` may confirm it (``can_confirm``): what the
    fixture's page asks them to see to. None for a fixture not played (a void one's result
    counts for nothing) and for one with no result waiting to be confirmed."""
    if agreement.account(by) is None or fixture.status != Fixture.Status.PLAYED:
        return None
    submission = (
        ResultSubmission.objects.filter(fixture=fixture, status=Status.SUBMITTED)
        .select_related("fixture__division__season__league", "submitted_by")
        .first()
    )
    if submission is None or not can_confirm(submission=submission, by=by):
        return None
    return submission


def can_take_back(
    *, submission: ResultSubmission, by: Account, sides: Collection[str] | None = None
) -> bool:
    """Whoever submitted the result (an account), while it waits or is disputed and no side but
    their own has agreed to it: a figure they typed wrong is theirs to put right, before anyone
    relies on it, and a dispute they find the other side right about is theirs to end by
    entering the corrected card (the secretary need not settle it). A disputed result no
    account submitted (a table's scoring link did) is the home captain's to take back on the
    same terms: the home side enters the card, as it seats the tables. ``sides``: the sides
    ``by`` captains in the fixture, where the caller read them already (else read here)."""
    user = agreement.account(by)
    if user is None or submission.status not in ResultSubmission.OPEN_STATUSES:
        return False
    submitter = submission.submitted_by_id == user.pk
    from_table = submission.submitted_by_id is None and submission.status == Status.DISPUTED
    if not (submitter or from_table):
        return False
    own = set(sides) if sides is not None else FixtureTerms(submission.fixture).sides_of(user)
    if not submitter and "home" not in own:
        return False
    agreed = {side for side in ("home", "away") if side not in waiting_sides(submission)}
    return agreed <= own


@dataclass(frozen=True)
class TakeBackWords:
    """How taking a result back reads, for what it is taken back for (``take_back_words``):
    what the result page says above its button and on it, and once it is done."""

    note: str
    button: str
    done: str


#: A result only waiting for the other team, taken back for a slip of its submitter's.
TAKE_BACK_SLIP = TakeBackWords(
    note="A figure you typed wrong? Take the result back before the other team agrees, put it "
    "right, and submit it again.",
    button="Take it back to put a figure right",
    done="Result taken back: put the figure right, on the score card or at the table, then "
    "submit it again.",
)
#: A disputed result taken back: the dispute is right, the corrected card goes in.
TAKE_BACK_DISPUTE = TakeBackWords(
    note="Is the dispute right? Take the result back, enter the corrected card and submit it "
    "again: the secretary need not settle it, and the dispute stays in the league's audit "
    "trail.",
    button="Take back this result and enter the corrected card",
    done="Result taken back: the dispute is over. Enter the corrected card, then submit it again.",
)


#: A result whose tables were all scored on the phones, taken back for a slip: no figure was
#: typed. Its games stay as scored (a captain's card does not replace them: only a secretary
#: settling a dispute does); a hand scored wrong is corrected at its table, through its link.
TAKE_BACK_PHONES_SLIP = TakeBackWords(
    note="Something wrong? Take the result back before the other team agrees: the tables' "
    "games stay as scored (a hand scored wrong is put right at its table, on its scoring "
    "link), and you submit it again.",
    button="Take the result back",
    done="Result taken back: the tables' games stay as scored. Put a hand scored wrong right "
    "at its table, on its scoring link, then submit the result again.",
)
#: A disputed result the phones scored, taken back: the dispute is right about a hand.
TAKE_BACK_PHONES_DISPUTE = TakeBackWords(
    note="Is the dispute right? Take the result back: the tables' games stay as scored (a "
    "hand scored wrong is put right at its table, on its scoring link), and you submit it "
    "again. The secretary need not settle it, and the dispute stays in the league's audit "
    "trail.",
    button="Take back this result",
    done="Result taken back: the dispute is over. The tables' games stay as scored: put a "
    "hand scored wrong right at its table, on its scoring link, then submit the result again.",
)


def take_back_words(submission: ResultSubmission, *, typed: bool) -> TakeBackWords:
    """The words of taking ``submission`` back (``can_take_back``), disputed or not: ``typed``,
    its figures came from the score card (a table of it: ``selectors.fixtures.from_card``),
    put right on the card; else every table was scored on the phones, its games staying as
    scored."""
    disputed = submission.status == Status.DISPUTED
    if typed:
        return TAKE_BACK_DISPUTE if disputed else TAKE_BACK_SLIP
    return TAKE_BACK_PHONES_DISPUTE if disputed else TAKE_BACK_PHONES_SLIP


def can_dispute(*, submission: ResultSubmission, by: Account) -> bool:
    return agreement.can_dispute(FixtureTerms(submission.fixture), submission, by)


def can_settle(*, submission: ResultSubmission, by: Account) -> bool:
    return agreement.can_settle(FixtureTerms(submission.fixture), submission, by)


def can_settle_with_card(*, submission: ResultSubmission, by: Account) -> bool:
    """Whether ``by`` settles ``submission`` by entering the score card: a disputed one, a
    secretary who may settle it (``can_settle``); one waiting for a side, a secretary who did
    not submit it, for that side (``agreement.judges_for_a_side``: the card they have is its
    word). ``agreement.settle_anew`` asks the same (``agreement.can_settle_with_card``)."""
    return submission.status in (
        Status.DISPUTED,
        Status.SUBMITTED,
    ) and agreement.can_settle_with_card(FixtureTerms(submission.fixture), submission, by)


def can_reopen(*, fixture: Fixture, by: Account) -> bool:
    """Any secretary of the league (``agreement.can_reopen``): whoever submitted a result, or
    typed the score card both captains signed, included."""
    return agreement.can_reopen(FixtureTerms(fixture), by)


@transaction.atomic
def result_submit(*, fixture: Fixture, actor: Actor) -> ResultSubmission:
    """Put the fixture's result forward for the other side to confirm (``can_submit`` says who
    may); the audit entry names ``actor``'s account or link."""
    fixture = _lock(fixture)
    if not can_submit(fixture=fixture, actor=actor):
        raise PermissionDenied("Only a captain, a secretary or the table's scoring link submits.")
    result = FixtureResult.objects.filter(fixture=fixture).first()
    if result is None or not result.is_final or fixture.status != Fixture.Status.PLAYED:
        raise ValidationError("The fixture's games are not all finished: nothing to submit yet.")
    submission: ResultSubmission = agreement.submit(
        FixtureTerms(fixture), by=actor.user, link=actor.link
    )
    _follow(fixture, actor)
    return submission


@transaction.atomic
def result_confirm(
    *, submission: ResultSubmission, by: Account, signed_card: bool = False
) -> ResultSubmission:
    """A captain of a side that has not agreed yet agrees for it; once both teams have agreed
    (or a secretary who did not submit it, or the league's only one, confirms) the result
    counts and the fixture's scoring links close. ``submission.status`` says which: still
    submitted, or confirmed. ``signed_card``: a secretary typed the card both captains signed
    (``agreement.confirm``)."""
    terms, submission = _lock_submission(submission)
    agreement.confirm(terms, submission, by=by, signed_card=signed_card)
    if signed_card:
        # The result page says so, as the audit entry does (``agreement.SIGNED_CARD``).
        submission.signed_card = True
        submission.save(update_fields=["signed_card"])
    _follow(terms.fixture, Actor.of(by))
    return submission


@transaction.atomic
def result_take_back(*, submission: ResultSubmission, by: Account) -> None:
    """Whoever submitted the result takes it back to put a figure right (``can_take_back``),
    disputed or not, as does the home captain a disputed one the table submitted: it is
    withdrawn (audited, with the dispute's reason; both captains are told, and the secretaries
    of a disputed one), the fixture's result is not in again, and the result page or the score
    card submits it again."""
    terms, submission = _lock_submission(submission)
    if not can_take_back(submission=submission, by=by):
        raise PermissionDenied(
            "Only whoever submitted the result takes it back (a disputed one the table's "
            "scoring link submitted, the home captain), while the other team has not agreed "
            "to it."
        )
    # Told to the captains and the secretaries (the notice, the audit trail): the person who
    # took it back, as the result page names them to them.
    who = acted_words(by, fixture_role(by, terms.fixture))
    why = f"taken back by {who}, to put a figure right"
    if submission.status == Status.DISPUTED:
        why = (
            f"taken back by {who}, to put it right after it was disputed "
            f"({submission.dispute_reason})"
        )
    agreement.withdraw_open(
        terms,
        why=why,
        after=terms.figures(),
        by=by,
        link=None,
        next_step=take_back_next(terms.fixture, by),
    )
    _follow(terms.fixture, Actor.of(by))


def take_back_next(fixture: Fixture, by: Account) -> str:
    """How a result ``by`` took back comes again, as the other side is told it (the person
    named as the app names people, ``person_or_login``): its figures from the score card are
    put right on it, "Roy Stead is entering the corrected score card"; the phones' games stay
    as scored (``take_back_words``), "The tables' games stay as scored: Roy Stead submits the
    result again"."""
    name = person_or_login(by)
    if from_card(fixture.tables.all()):
        return f"{name} is entering the corrected score card"
    return f"The tables' games stay as scored: {name} submits the result again"


@transaction.atomic
def result_dispute(*, submission: ResultSubmission, reason: str, by: Account) -> ResultSubmission:
    """The other side's captain does not agree: the secretary settles it."""
    terms, submission = _lock_submission(submission)
    agreement.dispute(terms, submission, reason=reason, by=by)
    _follow(terms.fixture, Actor.of(by))
    return submission


@transaction.atomic
def result_settle(
    *, submission: ResultSubmission, uphold: bool, note: str, by: Account
) -> ResultSubmission:
    """The secretary decides a dispute: uphold the submitted result (it counts, as settled), or
    reject it (withdrawn: the games are corrected and the result submitted again)."""
    terms, submission = _lock_submission(submission)
    # Rejected, the sides are told how it comes again (``submit_again_words``).
    to_do = "" if uphold else submit_again_words(terms.fixture)
    agreement.settle(terms, submission, uphold=uphold, note=note, by=by, to_do=to_do)
    _follow(terms.fixture, Actor.of(by))
    return submission


@transaction.atomic
def result_settle_with_card(
    *, replacing: ResultSubmission, note: str, by: Account
) -> ResultSubmission:
    """The secretary settled a dispute, or a result waiting for a side (``can_settle_with_card``),
    by entering the score card (``leagues.services.cards``): the result the card gives counts,
    settled."""
    terms = FixtureTerms(_lock(replacing.fixture))
    settled: ResultSubmission = agreement.settle_anew(terms, replacing=replacing, note=note, by=by)
    # The figures that stand are the secretary's: the result page says so, not only who
    # submitted the result they replaced.
    settled.settled_with_card = True
    settled.save(update_fields=["settled_with_card"])
    _follow(terms.fixture, Actor.of(by))
    return settled


@transaction.atomic
def result_reopen(*, fixture: Fixture, reason: str, by: Account) -> None:
    """A secretary takes back a confirmed result (a mistake found later): it stops counting,
    the tables' links open again, and the result is submitted afresh; both captains are told
    why, and how (``submit_again_words``). A void fixture's is refused: nothing of it counts,
    and its tables are not to be scored again (undo the void)."""
    fixture = _lock(fixture)
    if fixture.status == Fixture.Status.VOID:
        raise ValidationError(
            "This fixture is void: its result does not count, so there is nothing to reopen "
            "(undo the void first)."
        )
    terms = FixtureTerms(fixture)
    agreement.reopen(terms, reason=reason, by=by, to_do=submit_again_words(fixture))
    _follow(terms.fixture, Actor.of(by))


def _follow(fixture: Fixture, actor: Actor) -> None:
    """The agreement changed, not the games, by ``actor``: the roll-up's later steps follow (a
    cup tie, the standings, the cached pages); the agreement step wrote its own audit entry,
    and what the cup tie's step writes names ``actor`` too."""
    from leagues.services.rollup import FixtureChanged, roll_up

    roll_up(FixtureChanged(fixture=fixture, actor=actor, recount=False))


def result_changed(
    *,
    fixture: Fixture,
    before: dict[str, Any],
    after: dict[str, Any],
    actor: Actor,
    why: str = "",
) -> int:
    """Step 3 of the result roll-up (``leagues.services.rollup``): a fixture's figures changed
    (``why``: what changed them, "a hand was corrected at table 2").

    An open submission no longer describes the games: it is withdrawn, its captains told why
    and how it comes again (``submit_again_words``). A confirmed result changed by a secretary
    keeps counting, and the change is logged. Returns how many audit entries that wrote.
    """
    return agreement.result_changed(
        FixtureTerms(fixture),
        before=before,
        after=after,
        by=actor.user,
        link=actor.link,
        why=why,
        to_do=submit_again_words(fixture),
    )


#: How a result no longer submitted (withdrawn, rejected or reopened) comes again, as its
#: captains are told it and its page says it (``submit_again_words``): nothing submits it by
#: itself. Every table finished, scored on the phones:
SUBMIT_AGAIN = "Submit it again from the result page once you have checked it."
#: Every table finished, the figures from the score card (``may_submit`` offers no Submit):
CARD_AGAIN = (
    "Put it right on the score card (the result page opens it with its figures in) and enter "
    "it again: that submits it."
)
#: A game back in play:
FINISH_THEN_SUBMIT = "Once every table has finished, submit it again from the result page."


def submit_again_words(fixture: Fixture) -> str:
    """How the fixture's result, no longer submitted, comes again (no result is submitted by
    itself: a captain, a secretary or a table's scoring link submits it, or the score card
    entered again does): ``SUBMIT_AGAIN``, ``CARD_AGAIN`` (``from_card``), or, while a table
    is still being played, ``FINISH_THEN_SUBMIT``; "" for a fixture no result is submitted
    for (void, a walkover)."""
    if fixture.status == Fixture.Status.PLAYED:
        return CARD_AGAIN if from_card(fixture.tables.all()) else SUBMIT_AGAIN
    if fixture.status in Fixture.TO_PLAY:
        return FINISH_THEN_SUBMIT
    return ""
