"""The secretary's fixture pages: generate a division's list, re-arrange, postpone, walk over
or void a fixture, seat its tables and start their games, and adjust points."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from leagues import forms
from leagues.days import short_date
from leagues.models import Fixture, FixtureTable, PointAdjustment
from leagues.seating_forms import SIDES, TableSeatForm
from leagues.selectors import fixtures as selectors
from leagues.selectors.people import name_people, seated_boards, seated_players
from leagues.services import adjustments, fixtures, results, seating
from leagues.services.seating import mark_abandoned
from leagues.views.common import found, post_action, require_manager
from leagues.views.results import table_cards
from scoring.forms.words import signed
from scoring.sheet import join_words


def _division(request: HttpRequest, pk: int) -> Any:
    division = found(selectors.division_get, pk=pk)
    require_manager(request, division.season.league)
    return division


def _fixture(request: HttpRequest, pk: int) -> Fixture:
    fixture = found(selectors.fixture_detail, pk=pk)
    require_manager(request, fixture.division.season.league)
    return fixture


@login_required
def fixtures_generate(request: HttpRequest, pk: int) -> HttpResponse:
    """Plan the division's round robin in the season's calendar. The first post shows what
    would change (kept, moved, replaced, new, postponements) and changes nothing; the list is
    stored only when the secretary confirms that preview."""
    division = _division(request, pk)
    season = division.season
    league = season.league
    existing = selectors.division_fixtures(division=division)
    settings = selectors.generation_settings(division=division)
    spread_unrecorded = settings.pop("spread_unrecorded")
    form = forms.FixtureGenerateForm(request.POST or None, initial=settings)
    context: dict[str, Any] = {
        "league": league,
        "division": division,
        "form": form,
        "existing": existing.count(),
        "kept": selectors.division_kept_count(division=division),
        "teams": division.entries.count(),
        "spread_unrecorded": spread_unrecorded,
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        options = {
            "division": division,
            "start": data["start"],
            "league_night": data["league_night"],
            "legs": data["legs"],
            "exclusions": data["exclusions"],
            "rest_every": data["rest_every"],
            "end_by": data["end_by"],
        }
        try:
            if request.POST.get("confirm"):
                report = fixtures.fixtures_generate(
                    **options, token=request.POST.get("token") or None, by=request.user
                )
                return render(
                    request,
                    "leagues/manage/fixtures_generated.html",
                    {**context, "report": report},
                )
            plan = fixtures.fixtures_plan(**options)
        except ValidationError as exc:
            forms.add_service_error(form, exc, "start")
        else:
            return render(
                request, "leagues/manage/fixtures_preview.html", {**context, "plan": plan}
            )
    return render(request, "leagues/manage/fixtures_generate.html", context)


@login_required
def fixture_add(request: HttpRequest, pk: int) -> HttpResponse:
    """One fixture outside the generated list: a play-off, a replay."""
    division = _division(request, pk)
    league = division.season.league
    form = forms.FixtureAddForm(
        request.POST or None, division=division, initial={"time": league.start_time}
    )
    if request.method == "POST" and form.is_valid():
        try:
            fixture = fixtures.fixture_add(division=division, **form.cleaned_data, by=request.user)
        except ValidationError as exc:
            forms.add_service_error(form, exc, "date")
        else:
            messages.success(request, f"Added: {fixture}.")
            return redirect(fixture)
    return render(
        request,
        "leagues/manage/form.html",
        {
            "league": league,
            "form": form,
            "title": f"Add a fixture to {division.name}",
            "submit": "Add the fixture",
        },
    )


@login_required
def fixture_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """Re-arrange, postpone, walk over or void one fixture (one form each; ``action`` says
    which was sent)."""
    fixture = _fixture(request, pk)
    action = request.POST.get("action") if request.method == "POST" else None
    data = request.POST if action else None
    rearrange = forms.FixtureRearrangeForm(data if action == "rearrange" else None, fixture=fixture)
    postpone = forms.ReasonForm(data if action == "postpone" else None, prefix="postpone")
    walkover = forms.WalkoverForm(data if action == "walkover" else None, fixture=fixture)
    void = forms.ReasonForm(data if action == "void" else None, prefix="void")
    undo = forms.ReasonForm(data if action == "undo" else None, prefix="undo")
    sent = {
        "rearrange": rearrange,
        "postpone": postpone,
        "walkover": walkover,
        "void": void,
        "undo": undo,
    }
    form = sent.get(action or "")
    if form is not None and form.is_valid():
        values = form.cleaned_data
        try:
            if action == "rearrange":
                fixtures.fixture_rearrange(
                    fixture=fixture,
                    date=values["date"],
                    time=values["time"],
                    venue=values["venue"],
                    reason=values["reason"],
                    outside_calendar=values["outside_calendar"],
                    by=request.user,
                )
                done = "Re-arranged"
            elif action == "postpone":
                fixtures.fixture_postpone(fixture=fixture, reason=values["reason"], by=request.user)
                done = "Postponed"
            elif action == "walkover":
                given = fixtures.fixture_walkover(
                    fixture=fixture, to=values["to"], reason=values["reason"], by=request.user
                )
                done = "Walkover given"
                if given.walkover_pending:
                    done = f"{done} (it counts on {short_date(given.date)})"
            elif action == "undo":
                undone = fixtures.undo_words(fixture)
                fixtures.fixture_undo(fixture=fixture, reason=values["reason"], by=request.user)
                done = f"{undone[0].upper()}{undone[1:]} undone"
            else:
                fixtures.fixture_void(fixture=fixture, reason=values["reason"], by=request.user)
                done = "Voided"
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            messages.success(request, f"{done}: {fixture.home} v {fixture.away}.")
            return redirect(fixture)
    # A fixture a withdrawal settled is put back by reinstating the team, not undone here.
    withdrawn = fixture.withdrawn_team
    return render(
        request,
        "leagues/manage/fixture.html",
        {
            "fixture": fixture,
            "league": fixture.division.season.league,
            "division": fixture.division,
            "forms": sent,
            "posted": form,
            # A change posted from a page left open before the fixture closed to it: its form
            # is not shown, so its refusal is said at the top (undo's and void's forms say
            # theirs).
            "posted_unshown": action in ("rearrange", "postpone", "walkover"),
            "open": fixture.status in fixtures.REPLACEABLE,
            "undo": fixtures.undo_words(fixture)
            if fixture.status in fixtures.UNDOABLE
            and withdrawn is None
            and not fixture.awaits_night  # a cup tie never set for a night: nothing to undo
            else "",
            "withdrawn": withdrawn,
        },
    )


@login_required
def fixture_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat each board's home and away pair from the registered players, then start the games
    (or save the seating to start later). Once a game has started, a table not seated yet is
    seated on its own (``seating.table_seat``, as on the captains' night page); once the match
    is decided, the page says what decided it and offers no seating."""
    fixture = _fixture(request, pk)
    league = fixture.division.season.league
    season = fixture.division.season
    seated = list(fixture.tables.all())
    closed = selectors.tables_closed_words(fixture, seated)
    started = any(table.games.all() for table in seated)
    # A table whose game was abandoned waits for the secretary: offered a start again here.
    mark_abandoned(seated)
    boards = season.get_match_format().tables
    squads = {
        team: [r.player for r in selectors.team_squad(team=team, season=season)]
        for team in (fixture.home, fixture.away)
    }
    name_people([*squads[fixture.home], *squads[fixture.away], *seated_players(seated)])
    # A team with fewer registered players than tables cannot be seated: say whom to register.
    short = [(team, len(players)) for team, players in squads.items() if len(players) < boards]
    # Bound only to its own post: a page opened (a GET's empty POST) shows the pairs seated.
    posted_all = request.method == "POST" and not closed and "board" not in request.POST
    form = forms.FixtureTablesForm(
        request.POST if posted_all else None,
        boards=boards,
        home_players=squads[fixture.home],
        away_players=squads[fixture.away],
        seated={t.board: (t.home_pair, t.away_pair) for t in seated},
        pairs=season.get_ruleset().players > 1,
    )
    # Once games have started, the tables not seated yet, each seated on its own.
    unseated = selectors.unseated_boards(fixture, seated) if started else []
    posted = request.POST.get("board", "")
    boards_of = seated_boards(seated)
    seat_forms = [
        TableSeatForm(
            request.POST if posted == str(board) else None,
            board=board,
            squads={"home": squads[fixture.home], "away": squads[fixture.away]},
            seated=([], []),
            may_seat=set(SIDES),
            # A player at a seated table is offered with it ("Barry Stead (table 1)").
            boards=boards_of,
        )
        for board in unseated
    ]
    for seat_form in seat_forms:
        if posted == str(seat_form.board) and seat_form.is_valid():
            try:
                seating.table_seat(
                    fixture=fixture, board=seat_form.board, **seat_form.pairs(), by=request.user
                )
            except ValidationError as exc:
                forms.add_service_error(seat_form, exc)
            else:
                messages.success(
                    request,
                    f"Table {seat_form.board} seated: its scorer scans the table's QR code below "
                    "(or opens its link) to score it.",
                )
                return redirect("leagues:manage_fixture_tables", pk=fixture.pk)
    if (
        request.method == "POST"
        and not closed
        and not posted
        and not started
        and not short
        and form.is_valid()
    ):
        start = "start" in request.POST
        try:
            if start:
                results.fixture_start(fixture=fixture, pairs=form.pairs(), by=request.user)
            else:
                results.fixture_tables_set(fixture=fixture, pairs=form.pairs(), by=request.user)
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            if start:
                messages.success(
                    request,
                    "Games started. Each table's scorer scans that table's QR code below (or "
                    "opens its link) to score its games; no account needed. Print this card.",
                )
                return redirect("leagues:manage_fixture_card", pk=fixture.pk)
            messages.success(request, "Tables saved; start the games when the pairs sit down.")
            return redirect(fixture)
    return render(
        request,
        "leagues/manage/fixture_tables.html",
        {
            "fixture": fixture,
            "league": league,
            "division": fixture.division,
            "form": form,
            "closed": closed,
            "started": started,
            "tables": seated,
            "abandoned": [table for table in seated if table.abandoned],
            # Decided, its tables as they were seated (the pairs a card gave, if any).
            "cards": table_cards(request, fixture) if started or closed else [],
            "seat_forms": seat_forms,
            "unseated_words": join_words([str(board) for board in unseated]),
            "boards": boards,
            "short": short,
            "season": season,
            # Before the match starts its games are not started: the seating may be saved.
            "scoring_opens": "" if fixture.has_started() else results.not_started_words(fixture),
        },
    )


@login_required
@post_action(lambda pk, board: reverse("leagues:manage_fixture_tables", args=[pk]))
def table_restart(request: HttpRequest, pk: int, board: int) -> HttpResponse:
    """Start again a table whose game was abandoned (``results.table_restart``): its next
    game begins on the table's own link. The service's refusal (a table whose latest game was
    not abandoned) is shown, nothing changed."""
    fixture = _fixture(request, pk)
    table = get_object_or_404(FixtureTable, fixture=fixture, board=board)
    try:
        started = results.table_restart(table=table, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            f"Table {board} started again: game {started.number} begins at 0–0. Its scorer "
            "goes on with the same QR code (or link).",
        )
    return redirect("leagues:manage_fixture_tables", pk=fixture.pk)


@login_required
def adjustment_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Deduct or award points to a team, with the reason printed under the table."""
    division = _division(request, pk)
    form = forms.AdjustmentForm(request.POST or None, division=division)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            adjustment = adjustments.points_adjust(
                entry=data["entry"],
                points=data["points"],
                reason=data["reason"],
                fixture=data["fixture"],
                by=request.user,
            )
        except ValidationError as exc:
            forms.add_service_error(form, exc, "reason")
        else:
            messages.success(request, f"Recorded: {adjustment}.")
            return redirect("leagues:manage_adjustments", pk=division.pk)
    return render(
        request,
        "leagues/manage/adjustments.html",
        {
            "league": division.season.league,
            "division": division,
            "form": form,
            "adjustments": list(selectors.division_adjustments(division=division)),
        },
    )


@login_required
@post_action(lambda pk, adjustment: reverse("leagues:manage_adjustments", args=[pk]))
def adjustment_withdraw(request: HttpRequest, pk: int, adjustment: int) -> HttpResponse:
    """The service refuses whoever does not run the league (a 403)."""
    division = found(selectors.division_get, pk=pk)
    made = get_object_or_404(PointAdjustment, pk=adjustment, entry__division=division)
    adjustments.adjustment_withdraw(adjustment=made, by=request.user)
    messages.success(request, f"Withdrawn: {made.entry.team} {signed(made.points)}.")
    return redirect("leagues:manage_adjustments", pk=division.pk)
