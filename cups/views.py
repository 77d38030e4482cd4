"""Cup pages: public (competition and bracket, tie, roll of honour), a race tie's result (agreed
by both sides, disputed, confirmed, settled or reopened by a secretary) and the secretary's
(create, entrants, draw, round dates, a tie's walkover, postponement, settlement and
reversal).  Reads through ``cups.selectors``, writes through ``cups.services``; who may do
what is asked of ``cups.permissions`` inside the services; a view asks it too only to decide
what a page shows (a secretary's page is a 403 for anyone else)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse

from config.inputs import clean_text
from cups import forms, selectors
from cups.models import Competition, Entrant, Round, Tie, TieResult
from cups.permissions import can_manage_competition, tie_role, tie_sides
from cups.services import competitions, confirmation, draws, ties
from leagues.card_forms import PlayoffForm
from leagues.forms import add_service_error
from leagues.match import decider_words
from leagues.permissions import role_alone
from leagues.selectors import fixtures as league_selectors
from leagues.selectors.people import acted_words
from leagues.services import agreement
from leagues.tiebreaks import pegs_word
from leagues.views.common import found, post_action, require_manager, user_or_none


def _current_round(rounds: list[Any]) -> int:
    """The round to show first: the earliest with a tie still to play, else the last."""
    for rnd in rounds:
        if any(t.status in (Tie.Status.SCHEDULED, Tie.Status.POSTPONED) for t in rnd.tie_list):
            return int(rnd.number)
    return int(rounds[-1].number) if rounds else 0


def competition_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket: a round at a time on a phone (tabs), the whole as SVG on a wide screen and
    in print; the group tables; the draw's seed."""
    competition = found(selectors.competition_get, pk=pk)
    rounds = selectors.competition_rounds(competition=competition)
    try:
        shown = int(request.GET.get("round", ""))
    except ValueError:
        shown = 0
    if shown not in {r.number for r in rounds}:
        shown = _current_round(rounds)
    return render(
        request,
        "cups/competition.html",
        {
            "league": competition.league,
            "competition": competition,
            "decider": decider_words(
                competition.decider,
                aggregate=pegs_word(competition.league.style),
                hang_jacks=competition.season.get_ruleset().hang_jack_points is not None,
            ),
            "rounds": rounds,
            "shown": shown,
            "bracket": selectors.bracket(rounds),
            "groups": selectors.group_tables(competition=competition),
            "can_manage": can_manage_competition(request.user, competition),
        },
    )


def roll_of_honour(request: HttpRequest, pk: int) -> HttpResponse:
    competition = found(selectors.competition_get, pk=pk)
    return render(
        request,
        "cups/honours.html",
        {
            "league": competition.league,
            "competition": competition,
            "honours": selectors.roll_of_honour(competition=competition),
        },
    )


def tie_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A tie: its entrants, score, games (each with its score sheet) or its fixture's tables."""
    tie = found(selectors.tie_detail, pk=pk)
    competition = tie.competition
    can_manage = can_manage_competition(request.user, competition)
    context: dict[str, Any] = {
        "league": competition.league,
        "competition": competition,
        "tie": tie,
        "games": list(tie.games.all()),
        "can_manage": can_manage,
        "form": forms.TieActionForm(tie=tie, offered=ties.offered_actions(tie))
        if can_manage
        else None,
    }
    if competition.tie_format == Competition.TieFormat.RACE:
        context |= _result_context(request, tie, can_manage)
    return render(request, "cups/tie.html", context)


@login_required
def tie_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change to the tie: walkover, postponement, settlement, reversal, its result's
    agreement, and each hand of its games (the league's secretaries)."""
    tie = found(selectors.tie_detail, pk=pk)
    require_manager(request, tie.competition.league)
    entries, hands = selectors.tie_audit(tie=tie)
    return render(
        request,
        "leagues/manage/audit.html",
        {
            "subject": f"{tie.competition.name}: {tie.home_name} v {tie.away_name}",
            "back": tie,
            "league": tie.competition.league,
            "entries": entries,
            "hands": hands,
            # Its changes name the sides as the tie's page does ("Winner: — → Old Hall").
            "sides": {"home": tie.home_name, "away": tie.away_name},
        },
    )


def _result_context(request: HttpRequest, tie: Tie, secretary: bool) -> dict[str, Any]:
    """Where a race tie's result stands, who acted and the steps this viewer may take. Who
    acted reads as on a league fixture's result page: to the people who agree it (the
    league's secretaries, ``secretary``, and whoever agrees it for a side) the person as the
    app names them and their role, "Roy Stead (captain of Black Bull)"; to anyone else the
    role alone; never a username."""
    user = user_or_none(request)
    result = selectors.tie_current_result(tie=tie)
    sides = tie_sides(user, tie)
    named = secretary or bool(sides)

    def who(account: Any) -> str:
        if named:
            return acted_words(account, tie_role(account, tie, named=True))
        return role_alone(tie_role(account, tie))

    submitted = result is not None and result.status == TieResult.Status.SUBMITTED
    decided_elsewhere = tie.status in (Tie.Status.WALKOVER, Tie.Status.BYE) or (
        tie.decided_by == ties.SETTLED
    )
    link = tie.scoring_link
    return {
        "result": result,
        # The tie's private scoring link, for the players of either pair and their captains
        # to score its games on a phone, as a fixture's captains score its tables (the
        # league's secretaries have it in their panel): while a game of it is to be played.
        "players_link": link
        if sides and not secretary and link is not None and link.is_live and not tie.winner
        else None,
        "actors": {
            "submitted": who(result.submitted_by),
            "confirmed": who(result.confirmed_by) if result.confirmed_by else "",
            "disputed": who(result.disputed_by) if result.disputed_by else "",
            "settled": who(result.settled_by) if result.settled_by else "",
        }
        if result is not None
        else {},
        "may_submit": result is None
        and not decided_elsewhere
        and bool(tie.home_id and tie.away_id)
        and tie.home_score != tie.away_score
        and max(tie.home_score, tie.away_score) >= tie.competition.games_to_win
        and confirmation.can_submit(tie=tie, by=user),
        "may_confirm": submitted and confirmation.can_confirm(result=result, by=user),
        "may_dispute": submitted and confirmation.can_dispute(result=result, by=user),
        "may_settle": result is not None
        and result.status == TieResult.Status.DISPUTED
        and confirmation.can_settle(result=result, by=user),
        "may_reopen": result is not None
        and result.is_confirmed
        and confirmation.can_reopen(tie=tie, by=user),
    }


@post_action(lambda pk: reverse("cups:tie", args=[pk]) + "#result")
def tie_result(request: HttpRequest, pk: int) -> HttpResponse:
    """A race tie's result: submit, agree (confirm), dispute, settle (uphold or reject) or
    reopen; one service call each. The services refuse whoever may not (a 403)."""
    tie = found(selectors.tie_detail, pk=pk)
    user = user_or_none(request)
    here = reverse("cups:tie", kwargs={"pk": tie.pk}) + "#result"
    if user is None:
        raise PermissionDenied("Log in to agree or dispute a tie's result.")
    action = request.POST.get("action", "")
    try:
        text = clean_text(request.POST.get("reason", "")[:2000], multiline=True)
    except ValidationError as exc:
        messages.error(request, f"The reason: {' '.join(exc.messages)} Nothing was changed.")
        return redirect(here)
    result = selectors.tie_current_result(tie=tie)
    if action not in ("submit", "confirm", "dispute", "uphold", "reject", "reopen"):
        messages.error(request, "That is not something this page does. Nothing was changed.")
        return redirect(here)
    if action != "submit" and result is None:
        messages.error(request, "There is no result to act on yet. Nothing was changed.")
        return redirect(here)
    # A double tap, or a second phone: what was asked is done already (the status is public).
    if (
        action in ("confirm", "dispute")
        and result is not None
        and result.status != TieResult.Status.SUBMITTED
        and not confirmation.already_done(result=result, by=user)
    ):
        messages.info(request, f"This result is {result.get_status_display().lower()}.")
        return redirect(here)
    try:
        if action == "submit":
            confirmation.tie_result_submit(tie=tie, by=user)
            done = "Result submitted: it counts once both sides have agreed (or a secretary)."
        elif action == "confirm":
            assert result is not None
            agreed = confirmation.tie_result_confirm(result=result, by=user)
            done = (
                "Result confirmed: it counts, and the winner goes through."
                if agreed.is_confirmed
                else "Your side's agreement is recorded: the other side (or a secretary) "
                "confirms it next."
            )
        elif action == "dispute":
            assert result is not None
            confirmation.tie_result_dispute(result=result, reason=text, by=user)
            done = "Result disputed: the secretary will settle it."
        elif action in ("uphold", "reject"):
            assert result is not None
            confirmation.tie_result_settle(
                result=result, uphold=action == "uphold", note=text, by=user
            )
            done = (
                "Dispute settled: the result counts, and the winner goes through."
                if action == "uphold"
                else "Result rejected: correct the games at the table, or settle the score."
            )
        else:
            confirmation.tie_result_reopen(tie=tie, reason=text, by=user)
            done = "Result reopened: it no longer counts."
    except agreement.AlreadyDone as exc:
        # Their part is done already (``agreement.already_done``): said, not refused.
        messages.info(request, " ".join(exc.messages))
    except ValidationError as exc:
        said = " ".join(exc.messages)
        messages.error(
            request, said if "Nothing was changed" in said else f"{said} Nothing was changed."
        )
    else:
        messages.success(request, done)
    return redirect(here)


# --- the secretary's pages -------------------------------------------------------------------


@login_required
def competition_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = found(league_selectors.league_get, slug=slug)
    require_manager(request, league)
    form = forms.CompetitionForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        try:
            competition = competitions.competition_create(
                league=league, **form.service_kwargs(), by=request.user
            )
        except ValidationError as exc:
            add_service_error(form, exc, "name")
        else:
            messages.success(request, f"{competition} is set up: enter its teams or pairs.")
            return redirect("cups:manage", pk=competition.pk)
    return render(request, "cups/manage/create.html", {"league": league, "form": form})


def _managed(request: HttpRequest, pk: int) -> Competition:
    competition = found(selectors.competition_get, pk=pk)
    if not can_manage_competition(request.user, competition):
        raise PermissionDenied(f"Only the secretaries of {competition.league} run its cups.")
    return competition


@login_required
def competition_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """Entrants (while entries are open), the draw, and each round's date or deadline."""
    competition = _managed(request, pk)
    is_teams = competition.entrant_kind == Competition.EntrantKind.TEAMS
    entrant_form_class: Any = forms.TeamEntrantForm if is_teams else forms.PlayersEntrantForm
    entrant_form = entrant_form_class(competition=competition)
    draw_form = forms.DrawForm(prefix="draw")
    groups_form = forms.GroupsForm(
        prefix="groups",
        initial={"groups": competition.groups, "qualifiers": competition.qualifiers},
    )
    refused_dates: forms.RoundDatesForm | None = None
    refused_round = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "enter":
                entrant_form = entrant_form_class(request.POST, competition=competition)
                if entrant_form.is_valid():
                    if is_teams:
                        entrant = competitions.entrant_add_team(
                            competition=competition,
                            team=entrant_form.cleaned_data["team"],
                            seed=entrant_form.cleaned_data["seed"],
                            by=request.user,
                        )
                    else:
                        entrant = competitions.entrant_add_players(
                            competition=competition,
                            players=entrant_form.players(),
                            seed=entrant_form.cleaned_data["seed"],
                            by=request.user,
                        )
                    messages.success(request, f"{entrant} entered.")
                    return redirect("cups:manage", pk=pk)
            elif action == "enter_all" and is_teams:
                entered = competitions.entrants_add_season_teams(
                    competition=competition, by=request.user
                )
                messages.success(request, f"{len(entered)} team{pluralize(len(entered))} entered.")
                return redirect("cups:manage", pk=pk)
            elif action == "groups":
                groups_form = forms.GroupsForm(request.POST, prefix="groups")
                if groups_form.is_valid():
                    competitions.competition_set_groups(
                        competition=competition, by=request.user, **groups_form.cleaned_data
                    )
                    messages.success(request, "The groups are changed.")
                    return redirect("cups:manage", pk=pk)
            elif action == "remove":
                entrant = get_object_or_404(
                    Entrant, pk=request.POST.get("entrant"), competition=competition
                )
                competitions.entrant_remove(entrant=entrant, by=request.user)
                messages.success(request, f"{entrant} withdrawn.")
                return redirect("cups:manage", pk=pk)
            elif action == "draw":
                draw_form = forms.DrawForm(request.POST, prefix="draw")
                if draw_form.is_valid():
                    draws.draw_make(
                        competition=competition,
                        seed=draw_form.cleaned_data["seed"],
                        byes=draw_form.cleaned_data["byes"],
                        by=request.user,
                    )
                    competition.refresh_from_db()
                    seed = competition.draw_seed
                    messages.success(
                        request,
                        "The draw is made" + (f" (seed {seed})." if seed is not None else "."),
                    )
                    return redirect(competition)
            elif action == "finish_groups":
                draws.groups_finish(competition=competition, by=request.user)
                messages.success(request, "The knock-out is drawn from the groups.")
                return redirect(competition)
            elif action == "dates":
                rnd = get_object_or_404(
                    Round, pk=request.POST.get("round"), competition=competition
                )
                dates = forms.RoundDatesForm(request.POST, round=rnd)
                # The round's form shows what was typed and why it was refused, one list.
                refused_dates, refused_round = dates, rnd.pk
                if dates.is_valid():
                    try:
                        rnd = ties.round_set_dates(round=rnd, by=request.user, **dates.cleaned_data)
                    except ValidationError as exc:
                        add_service_error(dates, exc)
                    else:
                        messages.success(request, f"{rnd.name}: {rnd.when or 'no date'}.")
                        return redirect("cups:manage", pk=pk)
            else:
                messages.error(request, "That is not something this page does.")
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
    competition.refresh_from_db()
    to_enter = selectors.teams_to_enter(competition=competition).count() if is_teams else 0
    # Each team tie left level, its play-off game's boxes: they go to its score card's page,
    # which takes them (``tie_playoff_enter``) and comes back here. None while its play-off
    # game is being played at the table (``Tie.playoff_from_card``): its words say so.
    ruleset = competition.season.get_ruleset()
    playoffs = [
        (
            tie,
            PlayoffForm(fixture=tie.fixture, ruleset=ruleset, auto_id=f"id_tie{tie.pk}_%s")
            if tie.playoff_from_card
            else None,
        )
        for tie in selectors.ties_waiting_for_playoff(competition=competition)
    ]
    return render(
        request,
        "cups/manage/competition.html",
        {
            "league": competition.league,
            "competition": competition,
            "entrants": list(competition.entrants.select_related("club", "group")),
            "entrant_form": entrant_form,
            "to_enter": to_enter,
            "draw_form": draw_form,
            "groups_form": groups_form,
            "playoffs": playoffs,
            "to_arrange": selectors.ties_to_arrange(
                league=competition.league, competition=competition
            ),
            "rounds": [
                (rnd, refused_dates if rnd.pk == refused_round else forms.RoundDatesForm(round=rnd))
                for rnd in competition.rounds.all()
            ],
        },
    )


@login_required
@post_action(lambda pk: reverse("cups:tie", args=[pk]))
def tie_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """A tie's walkover, postponement, settlement or reversal: one service call each, which
    refuses whoever does not run the cup (a 403)."""
    tie = get_object_or_404(Tie.objects.select_related("competition__league"), pk=pk)
    form = forms.TieActionForm(request.POST, tie=tie)
    if not form.is_valid():
        messages.error(request, f"{form.problems()} Nothing was changed.")
        return redirect(tie)
    data = form.cleaned_data
    reason = data["reason"] or ""
    try:
        if data["action"] == "walkover":
            ties.tie_walkover(tie=tie, to=data["to"], reason=reason, by=request.user)
            messages.success(request, "Walkover given: the winner goes through.")
        elif data["action"] == "postpone":
            ties.tie_postpone(tie=tie, reason=reason, by=request.user)
            messages.success(request, "Tie postponed.")
        elif data["action"] == "settle":
            ties.tie_settle(
                tie=tie, home=data["home"], away=data["away"], note=reason, by=request.user
            )
            messages.success(request, "Tie settled: the winner goes through.")
        else:
            ties.tie_reverse(tie=tie, reason=reason, by=request.user)
            messages.success(request, "Tie reversed: it is to be played again.")
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    return redirect(reverse("cups:tie", kwargs={"pk": tie.pk}))
