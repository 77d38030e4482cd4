"""The secretary's import: upload the spreadsheet, read the plan (what will be created or
changed, every problem by row and column, a question for each person who may be one the league
has), and confirm. Nothing is saved before the confirmation of a plan with no problem; the
confirmation carries the files again and is planned afresh (``leagues.services.league_import``).
"""

from __future__ import annotations

import base64
import binascii
import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods

from leagues import forms
from leagues.selectors import fixtures as selectors
from leagues.services import fixtures_import, league_import
from leagues.services.league_export import league_export
from leagues.views.common import found, require_manager

AGAIN = ("season", "season_name", "season_starts")
"""What "Choose another file" carries back to the form: everything typed but the files."""


def _encode(data: bytes | None) -> str:
    return base64.b64encode(data).decode() if data else ""


def _decode(text: str) -> bytes:
    try:
        return base64.b64decode(text.encode(), validate=True)
    except (binascii.Error, ValueError):
        return b""


@login_required
@require_http_methods(["GET", "POST"])
def league_import_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = found(selectors.league_get, slug=slug)
    require_manager(request, league)
    confirming = request.POST.get("action") == "confirm"
    # "Choose another file" from a plan brings back what was typed for it (a file cannot be
    # given back: the page asks for it again).
    again = {k: request.GET[k] for k in AGAIN if request.GET.get(k)}
    form = forms.ImportForm(
        None if confirming else (request.POST or None),
        None if confirming else (request.FILES or None),
        league=league,
        initial=again,
    )
    context: dict[str, Any] = {
        "league": league,
        "form": form,
        "again": bool(again),
        "dates_and_times": fixtures_import.DATES_AND_TIMES,
        "scores_help": fixtures_import.scores_help(league.get_match_format(), league.style),
    }
    if request.method != "POST":
        return render(request, "leagues/manage/import.html", context)
    sizes = (0, 0)
    if confirming:
        carried = request.POST
        files = {
            "people": _decode(carried.get("people_data", "")),
            "people_name": carried.get("people_name", "")[:200],
            "fixtures": _decode(carried.get("fixtures_data", "")) or None,
            "fixtures_name": carried.get("fixtures_name", "")[:200],
        }
        choice = {
            "season": carried.get("season", ""),
            "season_name": carried.get("season_name", "").strip()[:60],
            "season_starts": carried.get("season_starts", ""),
        }
    elif form.is_valid():
        people = form.cleaned_data["people"]
        fixtures = form.cleaned_data.get("fixtures")
        files = {
            "people": _read(people),
            "people_name": people.name,
            "fixtures": _read(fixtures) if fixtures else None,
            "fixtures_name": fixtures.name if fixtures else "",
        }
        sizes = (people.size, fixtures.size if fixtures else 0)
        starts = form.cleaned_data.get("season_starts")
        choice = {
            "season": form.cleaned_data["season"],
            "season_name": form.cleaned_data.get("season_name") or "",
            "season_starts": starts.isoformat() if starts else "",
        }
    else:
        return render(request, "leagues/manage/import.html", context, status=422)
    season = form.seasons.get(choice["season"])
    try:
        starts = datetime.date.fromisoformat(choice["season_starts"]) if not season else None
    except ValueError:
        starts = None
    if season is None and (not choice["season_name"] or starts is None):
        return redirect("leagues:manage_import", slug=league.slug)
    people, fixtures_sheet = league_import.read_files(
        people=files["people"] or b"",
        people_name=files["people_name"],
        fixtures=files["fixtures"],
        fixtures_name=files["fixtures_name"],
        sizes=sizes,
    )
    answers = {k: v for k, v in request.POST.items() if k.startswith("person-")}
    what: dict[str, Any] = {
        "league": league,
        "season": season,
        "season_name": choice["season_name"],
        "season_starts": starts,
        "sheet": people,
        "answers": answers,
        "fixtures": league_import.fixtures_reader(fixtures_sheet),
        "by": request.user,
    }
    if confirming:
        try:
            plan = league_import.league_import(
                **what,
                digest=request.POST.get("digest", ""),
                source=files["people_name"],
            )
        except league_import.ImportRefused as refused:
            plan = refused.plan
        else:
            # The plan's notes were read on the preview that was confirmed; said again after
            # the save, "If they are one person, put the rows right first" came too late.
            messages.success(request, _done(plan))
            return redirect("leagues:manage_league", slug=league.slug)
    else:
        plan = league_import.import_plan(**what)
    context.update(
        plan=plan,
        answers=answers,
        again=urlencode({k: choice[k] for k in AGAIN if choice[k]}),
        carried=None
        if plan.problems
        else {
            "people_data": _encode(files["people"]),
            "people_name": files["people_name"],
            "fixtures_data": _encode(files["fixtures"]),
            "fixtures_name": files["fixtures_name"],
            **choice,
            "digest": plan.digest(),
        },
    )
    return render(
        request,
        "leagues/manage/import_plan.html",
        context,
        status=200 if plan.ready or plan.questions and not plan.problems else 422,
    )


@login_required
def league_export_file(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole league in one file (``leagues.services.league_export``), for the secretary to
    keep or to move the league to another site (``manage.py import_league FILE``)."""
    league = found(selectors.league_get, slug=slug)
    require_manager(request, league)
    response = HttpResponse(league_export(league=league), content_type="application/json")
    day = league.today().isoformat()  # the secretary's date, where the league plays
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-{day}.json"'
    return response


def _read(upload: Any) -> bytes:
    """The upload's bytes, never more than the importer reads (plus one, so it says so)."""
    return (
        upload.read(league_import.MAX_BYTES + 1)
        if upload.size <= league_import.MAX_BYTES
        else (b"\0" * (upload.size))[: league_import.MAX_BYTES + 1]
    )


def _done(plan: league_import.Plan) -> str:
    made = plan.made_words
    if not made:
        return "Imported: nothing to change, the league already had all of it."
    return f"Imported into {plan.season_name}: {made}."
