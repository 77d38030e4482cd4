"""A fixture's result: submit, confirm, dispute, settle; the secretary's fixture card with each
table's scoring link; the audit trail per fixture and per league.

Thin: the services check who may do what against the fixture and raise ``PermissionDenied``
(a 403) otherwise; the page only offers what the viewer may do.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from config.inputs import clean_text, strict_id
from cups.permissions import can_give_playoff
from cups.selectors import knockout_tie
from cups.services.ties import playoff_due
from leagues.models import AuditEntry, FixtureTable, League, ResultSubmission
from leagues.permissions import can_manage_league, captained_sides
from leagues.selectors import audit
from leagues.selectors import fixtures as selectors
from leagues.selectors.live import NO_RESULT_WORDS, STOPPED_NEXT, play_stopped, status_words
from leagues.selectors.people import name_people, seated_players
from leagues.services import agreement, cards, confirmation, results
from leagues.services.seating import mark_abandoned
from leagues.views.common import acted_by_words, fixture_actor, found, require_manager
from notices.notices import secretaries_told
from scoring.actors import Actor
from scoring.views import qr_svg


@require_http_methods(["GET", "POST"])
def fixture_result(request: HttpRequest, pk: int) -> HttpResponse:
    """The result as the tables give it, where it stands, and the step this viewer may take."""
    fixture = found(selectors.fixture_detail, pk=pk)
    actor = fixture_actor(request, fixture)
    user = actor.user
    current = (
        ResultSubmission.objects.filter(fixture=fixture)
        .exclude(status=ResultSubmission.Status.WITHDRAWN)
        .select_related(
            "submitted_by",
            "submitted_by_link",
            "confirmed_by",
            "settled_by",
            "home_agreed_by",
            "away_agreed_by",
        )
        .first()
    )
    if request.method == "POST":
        return _act(request, fixture, current, actor)
    league = fixture.division.season.league
    secretary = can_manage_league(request.user, league)
    who = acted_by_words(request.user, fixture)

    actors = (
        {
            "submitted": who(current.submitted_by),
            "confirmed": confirmed_how(current, who(current.confirmed_by))
            if current.confirmed_by
            else "",
            "disputed": who(current.disputed_by) if current.disputed_by else "a captain",
            "settled": who(current.settled_by) if current.settled_by else "",
            # Both sides that agreed, each named with when it did: not the last alone.
            "agreed": [
                {"who": who(side.by), "at": side.at} for side in selectors.sides_agreed(current)
            ],
        }
        if current is not None
        else {}
    )
    # Why none of its results stands, where one did: the heading and the body say it alike.
    withdrawal = (
        selectors.last_withdrawal(fixture)
        if current is None and fixture.status != fixture.Status.VOID
        else None
    )
    tables = list(fixture.tables.all())  # as fixture_detail read them, by board
    mark_abandoned(tables)  # its result is to come from the card: said so, not "being played"
    # A cup tie the counted match left level: its play-off game's score is still to come.
    tie = knockout_tie(fixture=fixture)
    playoff_tie = tie if tie is not None and tie.playoff_to_come else None
    result = getattr(fixture, "result", None)
    # A void fixture's tables were played, but nothing of it counts: no step is offered.
    void = fixture.status == fixture.Status.VOID
    context = {
        "void": void,
        "actors": actors,
        "fixture": fixture,
        "league": league,
        "division": fixture.division,
        "result": result,
        # The match's tables not seated yet: named, so one table seated is not the match.
        "unseated": selectors.unseated_boards(fixture, tables),
        # "In play" mid-match, as the fixture's page says it (its tables are read already).
        "status_words": reopened_words(
            fixture, withdrawal, words := status_words(fixture, league.today())
        ),
        # A table abandoned and none other being played: not "Play is still going on".
        "play_stopped": play_stopped(fixture),
        "stopped_next": STOPPED_NEXT,
        # Its night has passed with no game scored: the result is to come from the card.
        "no_result": words == NO_RESULT_WORDS,
        "submission": current,
        # Why none of its results stands, where one did (told to the captains by email too).
        "withdrawn": withdrawn_why(request.user, fixture, withdrawal),
        # What became of its earlier results, each as it went (taken back, settled with the
        # card, ...), not all of them "withdrawn".
        "history": selectors.earlier_words(fixture),
        "may_submit": confirmation.may_submit(fixture=fixture, actor=actor, tables=tables),
        # A secretary who is neither side's captain and submits cannot confirm it too: say so
        # before, and after (the page would otherwise wait on a captain who may have no account).
        "as_secretary": secretary and not captained_sides(user, fixture),
        "only_secretary": secretary and agreement.only_secretary(league, user),
        "you_submitted": current is not None
        and user is not None
        and current.submitted_by_id == user.pk,
        "may_confirm": current is not None
        and not void
        and current.status == ResultSubmission.Status.SUBMITTED
        and confirmation.can_confirm(submission=current, by=user),
        "may_dispute": current is not None
        and not void
        and current.status == ResultSubmission.Status.SUBMITTED
        and confirmation.can_dispute(submission=current, by=user),
        "may_take_back": current is not None
        and not void
        and confirmation.can_take_back(submission=current, by=user),
        # In the words of what it was scored on: the card's figures, or the phones' games.
        "take_back": confirmation.take_back_words(current, typed=selectors.from_card(tables))
        if current is not None
        else None,
        # Who settles a dispute, and whether they were told (only what the notices record).
        "secretaries_told": current is not None
        and current.status == ResultSubmission.Status.DISPUTED
        and secretaries_told(
            fixture=fixture, action=AuditEntry.Action.RESULT_DISPUTED, since=current.submitted_at
        ),
        "may_settle": current is not None
        and not void
        and current.status == ResultSubmission.Status.DISPUTED
        and confirmation.can_settle(submission=current, by=user),
        "tables": tables,
        "pegs_gap": (gap := selectors.pegs_gap(tables, result)),
        # The bonus the league points include: the line adds up ("bonus … 0–2").
        "bonus": selectors.result_bonus(fixture.division.season.get_match_format(), result, gap),
        "bonus_words": cards.AGGREGATE_BONUS,
        "may_enter_card": (card := user is not None and cards.may_enter_card(user, fixture)),
        # Its figures came from the score card and no result of them stands (taken back,
        # rejected or reopened): put right on the card and entered again, not submitted as
        # they are (``may_submit`` says no); the phones' figures are submitted as they are.
        "card_again": card
        and current is None
        and fixture.status == fixture.Status.PLAYED
        and selectors.from_card(tables),
        "may_reopen": current is not None
        and not void
        and current.is_confirmed
        and confirmation.can_reopen(fixture=fixture, by=user),
        "playoff_tie": playoff_tie,
        # A level result waiting for agreement with no play-off score from the card (nor a
        # play-off game won at the table): once it counts, the play-off game decides the tie.
        "playoff_after": tie is not None
        and current is not None
        and current.status == ResultSubmission.Status.SUBMITTED
        and tie.playoff_home is None
        and playoff_due(tie, result)
        and not tie.playoff_won_at_table,
        # The play-off game's score the card gave with the result: to agree with the tables'.
        "playoff_score": tie.playoff_score_words if tie is not None else "",
        # Its boxes, unless the play-off game is being played at the table (``playoff_words``).
        "may_give_playoff": playoff_tie is not None
        and playoff_tie.playoff_from_card
        and can_give_playoff(user, playoff_tie),
    }
    return render(request, "leagues/fixture_result.html", context)


def reopened_words(fixture: Any, entry: AuditEntry | None, words: str) -> str:
    """The result page's heading of a played fixture whose confirmed result a secretary
    reopened, none submitted since (``entry``: ``selectors.last_withdrawal``): ``REOPENED``,
    as its body says "Not submitted yet", not "Played" as if it counted; else ``words``, its
    status as every page gives it (``status_words``: a cup tie's reads "Result not yet
    submitted" already)."""
    if (
        entry is not None
        and entry.action == AuditEntry.Action.RESULT_REOPENED
        and fixture.status == fixture.Status.PLAYED
        and words == fixture.get_status_display()
    ):
        return REOPENED
    return words


#: The heading of a result reopened and not submitted again (``reopened_words``).
REOPENED = "Reopened: to be submitted again"


def withdrawn_why(viewer: Any, fixture: Any, entry: AuditEntry | None) -> str:
    """Why the fixture's latest result, none of them standing now, was withdrawn (``entry``:
    ``selectors.last_withdrawal``), as ``viewer`` reads it (``selectors.withdrawn_words``): a
    confirmed result reopened by a secretary, to everyone; one withdrawn or set aside (its
    reason may name who took it back), to the people who agree it only (the league's
    secretaries, the two teams' captains). "" for none."""
    if entry is None:
        return ""
    league = fixture.division.season.league
    named = can_manage_league(viewer, league) or bool(captained_sides(viewer, fixture))
    if entry.action != AuditEntry.Action.RESULT_REOPENED and not named:
        return ""
    return selectors.withdrawn_words(entry, acted_by_words(viewer, fixture)(entry.by))


#: What a step on a result no longer there did, by the step (``no_result_words``).
NOT_DONE = {
    "confirm": "Nothing was confirmed.",
    "dispute": "Nothing was disputed.",
    "take_back": "Nothing was taken back.",
    "uphold": "Nothing was settled.",
    "reject": "Nothing was settled.",
    "reopen": "Nothing was reopened.",
}


def no_result_words(viewer: Any, fixture: Any, action: str) -> str:
    """Why a step from a page loaded before the result was withdrawn (a captain's Confirm after
    a hand was corrected at a table) finds no result to act on: nothing was done, what
    withdrew it and why (``withdrawn_why``), and how it comes again: whoever took it back
    entering the corrected card, else ``confirmation.submit_again_words``. "There is no
    submitted result to act on." where none was withdrawn (or the viewer reads no reasons)."""
    entry = selectors.last_withdrawal(fixture)
    why = withdrawn_why(viewer, fixture, entry)
    if entry is None or not why:
        return "There is no submitted result to act on."
    after = entry.after if isinstance(entry.after, dict) else {}
    step = after.get("next") if entry.action == AuditEntry.Action.SUBMISSION_WITHDRAWN else ""
    then = (
        f"{step}: you will be asked to confirm it."
        if step
        else confirmation.submit_again_words(fixture)
    )
    return " ".join(
        part for part in (NOT_DONE.get(action, "Nothing was changed."), why, then) if part
    )


def submitted_again_words(viewer: Any, fixture: Any, action: str) -> str:
    """Why a step from a page loaded before its result was withdrawn and submitted again (a
    Confirm of figures since changed) was not taken: nothing was done, what withdrew the result
    the page showed (``withdrawn_why``), and that the one submitted since is to be checked."""
    why = withdrawn_why(viewer, fixture, selectors.last_withdrawal(fixture))
    again = "The result has been submitted again since this page was loaded: check it below first."
    return " ".join(
        part for part in (NOT_DONE.get(action, "Nothing was changed."), why, again) if part
    )


def confirmed_how(submission: ResultSubmission, confirmer: str) -> str:
    """How the result came to count, as its audit entry says it, after "Confirmed": "by
    the secretary", or "from the score card both captains signed, entered by the secretary"."""
    if submission.signed_card:
        return f"{agreement.SIGNED_CARD}, entered by {confirmer}"
    return f"by {confirmer}"


def _act(request: HttpRequest, fixture: Any, current: Any, actor: Actor) -> HttpResponse:
    user = actor.user
    action = request.POST.get("action", "")
    try:
        text = clean_text(request.POST.get("reason", "")[:2000], multiline=True)
    except ValidationError as exc:
        messages.error(request, f"The reason: {' '.join(exc.messages)} Nothing was changed.")
        return redirect("leagues:fixture_result", pk=fixture.pk)
    if action != "submit" and current is None:
        messages.error(request, no_result_words(request.user, fixture, action))
        return redirect("leagues:fixture_result", pk=fixture.pk)
    seen = strict_id(request.POST.get("submission", ""))
    if action != "submit" and seen is not None and seen != current.pk:
        # Its page was loaded before the result it showed was withdrawn and submitted again:
        # not confirmed (or disputed) unseen.
        messages.error(request, submitted_again_words(request.user, fixture, action))
        return redirect("leagues:fixture_result", pk=fixture.pk)
    to_card = False
    try:
        if action == "submit":
            submission = confirmation.result_submit(fixture=fixture, actor=actor)
            if user is not None and submission.submitted_by_id not in (None, user.pk):
                # The other captain had just submitted the same figures: agreed instead.
                done = (
                    "The other team had just submitted this very result: your team's agreement "
                    "is recorded, and it counts."
                    if submission.is_confirmed
                    else "The other team had just submitted this very result: your team's "
                    "agreement is recorded."
                )
            else:
                done = (
                    "Result submitted: it counts once both teams have agreed "
                    "(or a secretary confirms it)."
                )
        elif action == "confirm":
            agreed = confirmation.result_confirm(submission=current, by=user)
            done = (
                "Result confirmed: it counts in the table."
                if agreed.is_confirmed
                else "Your team's agreement is recorded: the other team's captain (or a "
                "secretary) confirms it next."
            )
        elif action == "take_back":
            # A card's figures are put right on the card, which opens with them typed in.
            to_card = selectors.from_card(fixture.tables.all())
            done = confirmation.take_back_words(current, typed=to_card).done
            confirmation.result_take_back(submission=current, by=user)
        elif action == "dispute":
            disputed = confirmation.result_dispute(submission=current, reason=text, by=user)
            done = (
                "Result disputed: settle it below, or with the corrected score card."
                if confirmation.can_settle(submission=disputed, by=user)
                else "Result disputed: the secretary will settle it."
            )
        elif action in ("uphold", "reject"):
            confirmation.result_settle(
                submission=current, uphold=action == "uphold", note=text, by=user
            )
            done = "Dispute settled."
        elif action == "reopen":
            confirmation.result_reopen(fixture=fixture, reason=text, by=user)
            done = "Confirmed result reopened."
        else:
            raise PermissionDenied("Unknown action.")
    except agreement.AlreadyDone as exc:
        # A second Confirm (or a late Dispute) from an older tab: done already, not refused.
        messages.info(request, " ".join(exc.messages))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done)
        if to_card and cards.may_enter_card(user, fixture):
            return redirect("leagues:score_card", pk=fixture.pk)
    return redirect("leagues:fixture_result", pk=fixture.pk)


@login_required
@require_http_methods(["GET", "POST"])
def fixture_card(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable fixture card: each table's private scoring link and its QR code, with
    re-issue and revoke for a lost card. Secretaries only: the links are the scorers' keys."""
    fixture = found(selectors.fixture_detail, pk=pk)
    require_manager(request, fixture.division.season.league)
    if request.method == "POST":
        table_id, action = strict_id(request.POST.get("table")), request.POST.get("action")
        if table_id is None or action not in ("revoke", "reissue"):
            messages.error(request, "Choose a table and Re-issue or Revoke. Nothing was changed.")
            return redirect("leagues:manage_fixture_card", pk=fixture.pk)
        table = get_object_or_404(FixtureTable, pk=table_id, fixture=fixture)
        if action == "revoke":
            results.table_link_revoke(table=table, by=request.user)
            messages.success(request, f"Table {table.board}'s link no longer works.")
        else:
            try:
                results.table_link_reissue(table=table, by=request.user)
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            else:
                messages.success(
                    request, f"Table {table.board} has a new link; the old one is void."
                )
        return redirect("leagues:manage_fixture_card", pk=fixture.pk)
    tables = table_cards(request, fixture)
    return render(
        request,
        "leagues/manage/fixture_card.html",
        {
            "subject": f"{fixture.home.name} v {fixture.away.name}",
            "back": fixture,
            "fixture": fixture,
            "league": fixture.division.season.league,
            "division": fixture.division,
            "tables": tables,
        },
    )


def table_cards(request: HttpRequest, fixture: Any) -> list[dict[str, Any]]:
    """Each table of the fixture with its scoring link, the link's full address and its QR code
    (only while the link works): what the scorers need, on the card and after seating."""
    cards = []
    tables = list(
        FixtureTable.objects.filter(fixture=fixture).select_related(
            "scoring_link", "home_player_1", "home_player_2", "away_player_1", "away_player_2"
        )
    )
    name_people(seated_players(tables))
    for table in tables:
        link = table.scoring_link
        url = request.build_absolute_uri(link.get_absolute_url()) if link else ""
        cards.append(
            {
                "table": table,
                "link": link,
                "url": url,
                "qr": qr_svg(url) if link and link.is_live else "",
            }
        )
    return cards


@login_required
def fixture_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change to the fixture: its result, adjustments, and each hand of its games."""
    fixture = found(selectors.fixture_detail, pk=pk)
    require_manager(request, fixture.division.season.league)
    entries, hands = audit.fixture_audit(fixture=fixture)
    return render(
        request,
        "leagues/manage/audit.html",
        {
            "subject": f"{fixture.home.name} v {fixture.away.name}",
            "back": fixture,
            "fixture": fixture,
            "league": fixture.division.season.league,
            "division": fixture.division,
            # Its entries leave out the figures the season's ruleset does not have.
            "audit_ruleset": fixture.division.season.get_ruleset(),
            "entries": entries,
            "hands": hands,
        },
    )


@login_required
def league_audit(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's audit trail with every hand-level change to its games, newest first, a page
    of 100 at a time."""
    league = get_object_or_404(League, slug=slug)
    require_manager(request, league)
    page, rows = audit.league_audit_page(league=league, page=request.GET.get("page"))
    return render(
        request,
        "leagues/manage/league_audit.html",
        {"league": league, "rows": rows, "page": page},
    )
