"""The results that count: the one definition every table, chart, statistic and CSV reads.

A fixture's result counts when all of these hold:

- it is a **league** fixture (cup, play-off and friendly results never reach the standings);
- it was **played** to the end (every table decided) or given as a **walkover** — never void,
  never with a game still in progress, never a walkover still **pending** (one given ahead of
  its night, by the secretary or for a withdrawn team, counts once its date has come:
  ``leagues.services.withdrawal.settle_due_walkovers``);
- it is **confirmed** by the other side or a secretary, or it is a walkover (the secretary's own
  decision), or the league shows **provisional** results (then it is marked provisional
  wherever it appears);
- neither team's entry was **withdrawn with its results expunged**.

``counts_q(prefix)`` is that definition as a filter for any model that reaches ``Fixture``
through ``prefix`` (``""`` for fixtures, ``"table__fixture__"`` for a table's games, ...), so
the standings, the chart, the statistics and every list filter with the same words.
``fixtures_with_standing`` annotates each fixture of a list with how its result stands, for the
marks the lists print (:func:`result_mark`).

Whether a result is confirmed and whether it is expunged are worked out here from the
fixture's submissions and the teams' entries (:func:`result_standing`), and stored on the
result (``FixtureResult.confirmed``, ``.expunged``) by
``leagues.services.standings.store_result_standing`` in the transaction of every change to
either, so that the filter reads two columns rather than searching every submission.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)

from leagues.models import Fixture, ResultSubmission, TeamEntry, Withdrawal

#: The statuses of a fixture with a result: played to the end, or walked over.
RESULT_STATUSES = (Fixture.Status.PLAYED, Fixture.Status.WALKOVER)


def _field(prefix: str, name: str) -> str:
    return f"{prefix}{name}"


def confirmed_exists(prefix: str = "") -> Exists:
    """Whether the fixture at ``prefix`` has a confirmed (or settled) submission: what
    ``FixtureResult.confirmed`` stores."""
    return Exists(
        ResultSubmission.objects.filter(
            fixture=OuterRef(_field(prefix, "pk")),
            status__in=ResultSubmission.CONFIRMED_STATUSES,
        )
    )


def submitted_exists(prefix: str = "") -> Exists:
    """Whether a side has submitted the result of the fixture at ``prefix`` (a submission of
    it stands, waiting, disputed or agreed: not withdrawn): what ``FixtureResult.submitted``
    stores."""
    return Exists(
        ResultSubmission.objects.filter(fixture=OuterRef(_field(prefix, "pk"))).exclude(
            status=ResultSubmission.Status.WITHDRAWN
        )
    )


def disputed_exists(prefix: str = "") -> Exists:
    """Whether the other side disputes the submitted result of the fixture at ``prefix`` (a
    secretary settles it): what ``FixtureResult.disputed`` stores."""
    return Exists(
        ResultSubmission.objects.filter(
            fixture=OuterRef(_field(prefix, "pk")), status=ResultSubmission.Status.DISPUTED
        )
    )


def expunged_exists(prefix: str = "") -> Exists:
    """Whether either team of the fixture at ``prefix`` withdrew with its results expunged:
    what ``FixtureResult.expunged`` stores."""
    return Exists(
        TeamEntry.objects.filter(
            season=OuterRef(_field(prefix, "division__season")),
            withdrawal=Withdrawal.EXPUNGE,
        ).filter(
            Q(team=OuterRef(_field(prefix, "home"))) | Q(team=OuterRef(_field(prefix, "away")))
        )
    )


#: What ``result_standing`` works out of each result, in its order: ``FixtureResult``'s names.
STANDING = ("confirmed", "expunged", "submitted", "disputed")


def result_standing(fixtures: QuerySet[Fixture]) -> dict[int, tuple[bool, ...]]:
    """For each fixture of ``fixtures`` that has a result: (confirmed, expunged, submitted,
    disputed), as ``STANDING`` names them, worked out from its submissions and its teams'
    entries."""
    rows = (
        fixtures.filter(result__isnull=False)
        .annotate(
            is_confirmed=confirmed_exists(),
            is_expunged=expunged_exists(),
            is_submitted=submitted_exists(),
            is_disputed=disputed_exists(),
        )
        .values_list("pk", *(f"is_{name}" for name in STANDING))
    )
    return {pk: tuple(standing) for pk, *standing in rows}


#: The kinds of fixture whose results count by default: the league's own.
LEAGUE_ONLY: tuple[str, ...] = (Fixture.Kind.LEAGUE,)


def counts_q(
    prefix: str = "", *, provisional: bool | None = None, kinds: Collection[str] = LEAGUE_ONLY
) -> Q:
    """The results that count, for a query reaching ``Fixture`` through ``prefix``.

    ``provisional=None`` follows each fixture's league (``League.show_provisional``); ``False``
    counts confirmed results and walkovers only; ``True`` counts unconfirmed ones too.
    ``kinds``: the league's own fixtures by default (the standings never read anything else);
    player statistics also ask for cup ties, or both.
    """
    q = Q(
        **{
            _field(prefix, "kind__in"): list(kinds),
            _field(prefix, "status__in"): RESULT_STATUSES,
            _field(prefix, "result__is_final"): True,
            _field(prefix, "walkover_pending"): False,
        }
    ) & ~Q(**{_field(prefix, "result__expunged"): True})
    if provisional is True:
        return q
    agreed = Q(**{_field(prefix, "status"): Fixture.Status.WALKOVER}) | Q(
        **{_field(prefix, "result__confirmed"): True}
    )
    if provisional is None:
        agreed |= Q(**{_field(prefix, "division__season__league__show_provisional"): True})
    return q & agreed


def is_provisional_q(prefix: str = "") -> Q:
    """A counted result that is not yet agreed: played, not confirmed, not a walkover."""
    return Q(**{_field(prefix, "status"): Fixture.Status.PLAYED}) & ~Q(
        **{_field(prefix, "result__confirmed"): True}
    )


def counted_fixtures(queryset: QuerySet[Fixture] | None = None) -> QuerySet[Fixture]:
    """The fixtures (of ``queryset``, or all) whose results count, each annotated with
    ``provisional``."""
    fixtures = Fixture.objects.all() if queryset is None else queryset
    return fixtures.filter(counts_q()).annotate(
        provisional=ExpressionWrapper(is_provisional_q(), output_field=BooleanField())
    )


def fixtures_with_counts(
    queryset: QuerySet[Fixture], *, provisional: bool | None = None
) -> QuerySet[Fixture]:
    """Every fixture of ``queryset``, annotated with ``counts`` (True or False: whether its
    result counts, as :func:`counted_fixtures` has it, ``provisional`` as :func:`counts_q`
    takes it; a fixture with no result is False, not NULL) and ``provisional``."""
    return queryset.annotate(
        counts=Case(
            When(counts_q(provisional=provisional), then=Value(True)), default=Value(False)
        ),
        provisional=ExpressionWrapper(is_provisional_q(), output_field=BooleanField()),
    )


def fixtures_with_standing(
    queryset: QuerySet[Fixture], *, kinds: Collection[str] = LEAGUE_ONLY
) -> QuerySet[Fixture]:
    """Every fixture of ``queryset``, annotated with ``result_counts`` for :func:`result_mark`
    (which reads the rest from the fixture's result); ``kinds`` as :func:`counts_q` takes them
    (a calendar gives a cup tie's result too)."""
    return queryset.annotate(
        result_counts=ExpressionWrapper(counts_q(kinds=kinds), output_field=BooleanField())
    )


#: A stored result's state, as every page words it (``result_state``).
EXPUNGED = "expunged"
CONFIRMED = "confirmed"
#: The submitted status's label after its comma ("Submitted, awaiting confirmation").
TO_CONFIRM = ResultSubmission.Status.SUBMITTED.label.partition(", ")[2]
DISPUTED = ResultSubmission.Status.DISPUTED.label.lower()
NOT_SUBMITTED = "not yet submitted"
#: The states of a result played to the end that is not (yet) agreed.
UNAGREED = (TO_CONFIRM, DISPUTED, NOT_SUBMITTED)


def result_state(result: Any) -> str:
    """Where a stored result (a ``FixtureResult``, or a list's ``ListedResult``) stands, from
    what it stores, in the one wording of it: ``EXPUNGED`` (a team withdrew with its results
    expunged), ``CONFIRMED`` (agreed, or settled), ``DISPUTED`` (the other side disputes it:
    its submission's status's word), ``TO_CONFIRM`` (a side has submitted it), else
    ``NOT_SUBMITTED``. The lists' marks (``result_mark``), the Tables page of a decided match
    (``tables_closed_words``) and the league home's awaited results (``live.awaiting_words``)
    say it so."""
    if result.expunged:
        return EXPUNGED
    if result.confirmed:
        return CONFIRMED
    if result.disputed:
        return DISPUTED
    return TO_CONFIRM if result.submitted else NOT_SUBMITTED


#: Who a result both sides agreed was confirmed by, after "Result confirmed", by how it came
#: to count (``ConfirmedAs``): both, not the last to agree alone.
BOTH_AGREED = {
    ResultSubmission.ConfirmedAs.CAPTAINS: "by both captains",
    ResultSubmission.ConfirmedAs.SIDES: "by both sides",
}


def result_words(status: str = ResultSubmission.Status.CONFIRMED, how: str = "") -> str:
    """A submitted result's standing, as the fixture's page and My fixtures say it: "Result
    confirmed", "Result settled by the secretary", "Result disputed": its status's label
    (``SubmissionStatus``), the words its result page heads it with; one both sides agreed
    (``how``, its ``confirmed_as``) "Result confirmed by both captains". A counted result whose
    submission is not read says "Result confirmed"."""
    words = f"Result {ResultSubmission.Status(status).label.lower()}"
    if status == ResultSubmission.Status.CONFIRMED and how in BOTH_AGREED:
        return f"{words} {BOTH_AGREED[ResultSubmission.ConfirmedAs(how)]}"
    return words


def result_mark(fixture: Fixture) -> str:
    """How a listed fixture's result stands, in a word or two ("" when it simply counts or has
    no result yet): "provisional" (and "provisional, disputed": a league that counts results
    before they are agreed counts a disputed one too, and says so), its ``result_state`` when
    it does not count ("awaiting confirmation", "disputed", "not yet submitted", "expunged"),
    or the kind ("cup") of a cup tie's agreed result (one not yet agreed says where it stands,
    as a league result's does: its winner goes through only once it is)."""
    if fixture.status not in RESULT_STATUSES:
        return ""
    result = getattr(fixture, "result", None)
    if result is None or not result.is_final:
        return ""
    state = result_state(result)
    if fixture.kind != Fixture.Kind.LEAGUE:
        waiting = fixture.status != Fixture.Status.WALKOVER and state in UNAGREED
        return state if waiting else fixture.get_kind_display().lower()
    if state == EXPUNGED:
        return state
    if fixture.status == Fixture.Status.WALKOVER or state == CONFIRMED:
        return ""
    if fixture.league.show_provisional:
        return f"provisional, {DISPUTED}" if state == DISPUTED else "provisional"
    return state
