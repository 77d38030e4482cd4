"""The result from the paper score card: one form on a phone for a captain of either team or a
secretary (and a secretary's settlement of a disputed result). Thin: the service
(``leagues.services.cards``) checks who may, and the card, and stores it whole or not at all."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from cups.models import PLAYOFF_HANDS_STAND, PLAYOFF_WON_AT_TABLE, PLAYOFF_WON_DECIDES, Tie
from cups.permissions import can_give_playoff
from cups.selectors import knockout_tie
from cups.services.ties import tie_playoff_enter
from leagues.card_forms import PlayoffForm, ScoreCardForm
from leagues.models import FixtureTable, ResultSubmission
from leagues.permissions import can_enter_card, can_manage_league, captained_sides
from leagues.selectors import fixtures as selectors
from leagues.selectors.people import name_people, seated_players
from leagues.services import agreement, cards, confirmation
from leagues.services.seating import mark_abandoned, tables_with_hands
from leagues.views.common import acted_by, found


@login_required
@require_http_methods(["GET", "POST"])
def score_card(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table's pair and figures from the card; the tables scored hand by hand stand."""
    fixture = found(selectors.fixture_detail, pk=pk)
    if not can_enter_card(request.user, fixture):
        raise PermissionDenied(
            "Only a captain of one of the two teams or a secretary enters the score card."
        )
    season = fixture.division.season
    fmt = season.get_match_format()
    open_result = (
        ResultSubmission.objects.filter(fixture=fixture, status__in=ResultSubmission.OPEN_STATUSES)
        .select_related("submitted_by", "disputed_by")
        .first()
    )
    disputed = (
        open_result
        if open_result is not None and open_result.status == ResultSubmission.Status.DISPUTED
        else None
    )
    # A result waiting for a side that this secretary speaks for with the paper card: the card
    # they enter settles it, as it settles a dispute.
    waiting = (
        open_result
        if open_result is not None
        and disputed is None
        and confirmation.can_settle_with_card(submission=open_result, by=request.user)
        else None
    )
    settling = disputed is not None or waiting is not None
    tables = {
        t.board: t
        for t in FixtureTable.objects.filter(fixture=fixture).select_related(
            "home_player_1", "home_player_2", "away_player_1", "away_player_2"
        )
    }
    # A table scored on the phones keeps its games, unless its game was abandoned there: the
    # card gives it then.
    mark_abandoned(list(tables.values()))
    with_hands = tables_with_hands(list(tables.values()))  # one query for every table
    played = {
        board
        for board, table in tables.items()
        if not table.from_card and not table.abandoned and table.pk in with_hands
    }
    editable = [b for b in range(1, fmt.tables + 1) if settling or b not in played]
    squads = {
        side: [r.player for r in selectors.team_squad(team=team, season=season)]
        for side, team in (("home", fixture.home), ("away", fixture.away))
    }
    name_people([*seated_players(tables.values()), *squads["home"], *squads["away"]])
    # A card a secretary types from paper may carry both captains' signatures: it counts.
    signing = can_manage_league(request.user, season.league) and not captained_sides(
        request.user, fixture
    )
    tie = knockout_tie(fixture=fixture)
    form = ScoreCardForm(
        request.POST or None,
        fixture=fixture,
        fmt=fmt,
        ruleset=season.get_ruleset(),
        squads=squads,
        tables=tables,
        editable=editable,
        settling=settling,
        waiting=waiting is not None,
        signing=signing,
        # The card of a knock-out cup tie carries its play-off game from the start.
        tie=tie,
    )
    open_for_card = cards.may_enter_card(request.user, fixture)
    # A captain's card is their team's word, so it waits for the other team's; a secretary's
    # waits for both captains (whoever submits a result does not confirm it).
    sides = captained_sides(request.user, fixture)
    as_captain = bool(sides)
    closed = None if open_for_card else cards.card_closed_why(request.user, fixture)
    # A card sent while a result waits (an older tab): not taken, and said so, unless it is
    # the very card stored (a double tap, a retry), which is answered as the page is.
    not_taken = (
        cards.card_not_taken_words(open_result, request.user)
        if request.method == "POST"
        and open_result is not None
        and closed in ("yours", "waiting")
        and not (form.is_valid() and cards.card_as_stored(tables, form.card_tables()))
        else ""
    )
    if request.method == "POST" and open_for_card and form.is_valid():
        try:
            submission = cards.fixture_card_enter(
                fixture=fixture,
                tables=form.card_tables(),
                settlement=form.cleaned_data.get("settlement", ""),
                signed=bool(form.cleaned_data.get("signed")),
                playoff=form.playoff_score(),
                by=request.user,
            )
        except ValidationError as exc:
            form.refused(exc)
        else:
            messages.success(request, _done(submission, as_captain=as_captain, tie=tie))
            if request.GET.get("from") == "desk":
                # A secretary entering a night's cards goes back to the desk's list for the next.
                return _taken(request, reverse("leagues:manage_league", args=[season.league.slug]))
            return _taken(request, reverse("leagues:fixture_result", args=[fixture.pk]))
    playoff = _playoff(request, fixture, tie) if closed == "counts" else None
    if isinstance(playoff, HttpResponse):
        return playoff
    context: dict[str, Any] = {
        "fixture": fixture,
        "league": season.league,
        "division": fixture.division,
        "form": form,
        "blocks": form.blocks(),
        "played": [tables[b] for b in sorted(played) if b not in editable],
        "abandoned": [table for table in tables.values() if table.abandoned],
        "open": open_for_card,
        "closed": closed,
        "not_taken": not_taken,
        "not_started": cards.not_started_words(fixture) if closed == "not_yet" else "",
        # The team whose captain a captain's submission waits for.
        "other_team": {"home": fixture.away, "away": fixture.home}.get(next(iter(sides), ""))
        if len(sides) == 1
        else None,
        "settling": settling,
        # A waiting result settled with the card: who submitted it, and the side it waits for.
        "waiting": waiting,
        "waiting_words": _waiting_words(request.user, fixture, waiting) if waiting else "",
        # What the dispute is about, at the top, as the result page says it.
        "dispute": disputed,
        "disputed_by": acted_by(request.user, fixture, disputed.disputed_by)
        if disputed is not None and disputed.disputed_by is not None
        else "a captain",
        "as_captain": as_captain,
        # A disputed result this captain may take back (``can_take_back``), in its words.
        "take_back": confirmation.take_back_words(
            disputed, typed=selectors.from_card(tables.values())
        )
        if disputed is not None
        and confirmation.can_take_back(submission=disputed, by=request.user, sides=sides)
        else None,
        "fmt": fmt,
        "playoff": playoff,
        # A counted level tie whose play-off game is being played at the table: why no boxes
        # (and that a score posted from boxes read before its first hand was not taken).
        "playoff_at_table": tie if closed == "counts" and tie and tie.playoff_at_table else None,
        "hands_stand": PLAYOFF_HANDS_STAND,
        # Its play-off game won at the table (its result reopened): no boxes, and why not.
        "playoff_won": open_for_card and tie is not None and tie.playoff_won_at_table,
        "won_at_table": PLAYOFF_WON_AT_TABLE,
        "won_decides": PLAYOFF_WON_DECIDES,
        "posted": request.method == "POST",
    }
    return render(request, "leagues/score_card.html", context, status=200)


def _taken(request: HttpRequest, url: str) -> HttpResponse:
    """The card taken: on to ``url``, as a plain form post is redirected. The card page's
    script (``static/leagues/score_card.js``, asking ``X-Card-Reply: location``) is told where
    and goes there itself, so the page's message is still to be read there (a fetch following
    the redirect would read it away)."""
    if request.headers.get("X-Card-Reply") == "location":
        return JsonResponse({"location": url})
    return redirect(url)


def _playoff(
    request: HttpRequest, fixture: Any, tie: Tie | None
) -> PlayoffForm | HttpResponse | None:
    """A counted cup tie left level, its play-off game to come: its boxes, for a captain of
    either team or a secretary (``tie_playoff_enter``); the result page once it is given (the
    cup's page, for a secretary who gave it there). None while the game is being played at the
    table (``Tie.playoff_from_card``): the page says so instead."""
    if tie is None or not tie.playoff_from_card or not can_give_playoff(request.user, tie):
        return None
    form = PlayoffForm(
        request.POST or None, fixture=fixture, ruleset=fixture.division.season.get_ruleset()
    )
    if request.method == "POST" and form.is_valid():
        try:
            tie = tie_playoff_enter(
                tie=tie,
                home=form.cleaned_data["playoff_home"],
                away=form.cleaned_data["playoff_away"],
                by=request.user,
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, f"Play-off game entered: {tie.through_words}.")
            if request.GET.get("from") == "cup":
                # A secretary giving the cup's level ties' play-offs goes back to its list.
                return redirect("cups:manage", pk=tie.competition_id)
            return redirect("leagues:fixture_result", pk=fixture.pk)
    return form


def _waiting_words(user: Any, fixture: Any, waiting: ResultSubmission) -> str:
    """What the result a secretary settles with the card is: "Submitted by Roy Stead (captain
    of Black Bull); it waits for Old Hall's captain to confirm it"."""
    waits_for = agreement.waiting_words(confirmation.FixtureTerms(fixture), waiting)
    return (
        f"Submitted by {acted_by(user, fixture, waiting.submitted_by)}; it waits for "
        f"{waits_for} to confirm it"
    )


def _done(submission: ResultSubmission, *, as_captain: bool, tie: Tie | None = None) -> str:
    if submission.is_confirmed:
        done = (
            "Settled with the score card: the result counts."
            if submission.status == ResultSubmission.Status.SETTLED
            and not submission.dispute_reason
            else "Dispute settled with the score card: the result counts."
            if submission.status == ResultSubmission.Status.SETTLED
            else "Result from the signed score card entered: it counts."
        )
        if tie is not None:
            # Who goes through (on the card's play-off game too), or that it is still to come.
            tie.refresh_from_db()
            outcome = tie.through_words or tie.level_words
            done += f" {outcome}." if outcome else ""
        return done
    if as_captain:
        return (
            "Result from the score card submitted: it counts once the other team's captain "
            "confirms it (or a secretary does)."
        )
    return (
        "Result from the score card submitted: it counts once both teams' captains agree, or "
        "a secretary confirms it on the result page."
    )
