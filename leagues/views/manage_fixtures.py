"""The secretary's fixture pages: generate a division's list, re-arrange, postpone, walk over
or void a fixture, seat its tables and start their games, and adjust points."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from leagues import forms
from leagues.models import Fixture, PointAdjustment
from leagues.selectors import fixtures as selectors
from leagues.services import adjustments, fixtures, results
from leagues.views.common import found, require_manager


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
    """Plan the division's round robin. Played fixtures (and any with a game started) are kept
    as they are; the page says so before and after."""
    division = _division(request, pk)
    league = division.season.league
    existing = selectors.division_fixtures(division=division)
    form = forms.FixtureGenerateForm(
        request.POST or None,
        initial={"start": division.season.starts_on, "league_night": league.league_night},
    )
    context: dict[str, Any] = {
        "league": league,
        "division": division,
        "form": form,
        "existing": existing.count(),
        "kept": selectors.division_kept_count(division=division),
        "teams": division.entries.count(),
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            report = fixtures.fixtures_generate(
                division=division,
                start=data["start"],
                league_night=data["league_night"],
                legs=data["legs"],
                exclusions=data["exclusions"],
                by=request.user,
            )
        except ValidationError as exc:
            forms.add_service_error(form, exc, "start")
        else:
            return render(
                request, "leagues/manage/fixtures_generated.html", {**context, "report": report}
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
    sent = {"rearrange": rearrange, "postpone": postpone, "walkover": walkover, "void": void}
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
                    by=request.user,
                )
                done = "Re-arranged"
            elif action == "postpone":
                fixtures.fixture_postpone(fixture=fixture, reason=values["reason"], by=request.user)
                done = "Postponed"
            elif action == "walkover":
                fixtures.fixture_walkover(
                    fixture=fixture, to=values["to"], reason=values["reason"], by=request.user
                )
                done = "Walkover given"
            else:
                fixtures.fixture_void(fixture=fixture, reason=values["reason"], by=request.user)
                done = "Voided"
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            messages.success(request, f"{done}: {fixture.home} v {fixture.away}.")
            return redirect(fixture)
    return render(
        request,
        "leagues/manage/fixture.html",
        {
            "fixture": fixture,
            "league": fixture.division.season.league,
            "division": fixture.division,
            "forms": sent,
            "posted": form,
            "open": fixture.status in fixtures.REPLACEABLE,
        },
    )


@login_required
def fixture_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat each board's home and away pair from the registered players, then start the games
    (or save the seating to start later)."""
    fixture = _fixture(request, pk)
    league = fixture.division.season.league
    season = fixture.division.season
    seated = list(fixture.tables.all())
    started = any(table.games.all() for table in seated)
    form = forms.FixtureTablesForm(
        request.POST or None,
        boards=league.get_match_format().tables,
        home_players=[r.player for r in selectors.team_squad(team=fixture.home, season=season)],
        away_players=[r.player for r in selectors.team_squad(team=fixture.away, season=season)],
        initial_pairs=[(t.home_pair, t.away_pair) for t in seated],
    )
    if request.method == "POST" and not started and form.is_valid():
        start = "start" in request.POST
        try:
            if start:
                results.fixture_start(fixture=fixture, pairs=form.pairs(), by=request.user)
            else:
                results.fixture_tables_set(fixture=fixture, pairs=form.pairs(), by=request.user)
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            messages.success(
                request,
                "Games started: each table's scorer opens its game from this page."
                if start
                else "Tables saved; start the games when the pairs sit down.",
            )
            return redirect(fixture)
    return render(
        request,
        "leagues/manage/fixture_tables.html",
        {
            "fixture": fixture,
            "league": league,
            "division": fixture.division,
            "form": form,
            "started": started,
            "tables": seated,
        },
    )


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
@require_POST
def adjustment_withdraw(request: HttpRequest, pk: int, adjustment: int) -> HttpResponse:
    division = _division(request, pk)
    made = get_object_or_404(PointAdjustment, pk=adjustment, entry__division=division)
    adjustments.adjustment_withdraw(adjustment=made, by=request.user)
    messages.success(request, f"Withdrawn: {made.entry.team} {made.points:+d}.")
    return redirect("leagues:manage_adjustments", pk=division.pk)
