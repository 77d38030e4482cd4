"""The secretary's pages for a league's structure: the league, seasons, divisions, venues,
teams and registered players. Every page asks ``leagues.permissions`` through
``require_manager`` before it shows a form; every write is a ``leagues.services`` call, which
asks it again (a POST-only action leaves it to the service)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse

from config.inputs import strict_id
from cups.models import PLAYOFF_AT_TABLE
from cups.selectors import ties_to_arrange, ties_to_see_to
from leagues import forms, nights_off
from leagues.days import short_date
from leagues.models import Division, Fixture, Invitation, Season, Team, TeamEntry
from leagues.permissions import can_create_league
from leagues.selectors import fixtures as selectors
from leagues.selectors.blank_cards import next_night_to_print
from leagues.selectors.live import (
    NO_RESULT_WORDS,
    match_progress,
    night_clock,
    night_fixtures,
    night_now,
)
from leagues.selectors.people import LeaguePeople, Listed, name_people, named_twice
from leagues.selectors.standings import season_standings
from leagues.services import league_requests, registrations, seasons, structure, withdrawal
from leagues.views.common import found, post_action, require_manager, season_asked
from scoring.forms.words import possessive


def _league(request: HttpRequest, slug: str) -> Any:
    league = found(selectors.league_get, slug=slug)
    require_manager(request, league)
    return league


def _manage_url(league: Any) -> str:
    return reverse("leagues:manage_league", kwargs={"slug": league.slug})


def _form_page(
    request: HttpRequest,
    *,
    league: Any,
    form: Any,
    save: Callable[[dict[str, Any]], Any],
    saved: Callable[[Any], str],
    next_url: Callable[[Any], str],
    title: str,
    submit: str = "Save",
) -> HttpResponse:
    """A secretary's one-form page: on a valid post ``save`` (one service call) runs and the
    browser goes on to ``next_url``; a refusal is shown by the name field and nothing is saved."""
    if request.method == "POST" and form.is_valid():
        try:
            obj = save(form.cleaned_data)
        except ValidationError as exc:
            forms.add_service_error(form, exc, "name")
        else:
            messages.success(request, saved(obj))
            return redirect(next_url(obj))
    return render(
        request,
        "leagues/manage/form.html",
        {"league": league, "form": form, "title": title, "submit": submit},
    )


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    """Start a league, its creator its first secretary; while sign-up is closed (and the
    account may not start one itself) the league is asked for, and waits for the operator."""
    at_once = can_create_league(request.user)
    form = forms.LeagueCreateForm(request.POST or None, asker=None if at_once else request.user)
    if request.method == "POST" and form.is_valid():
        try:
            if at_once:
                league = structure.league_create(**form.service_kwargs(), by=request.user)
            else:
                data = {k: v for k, v in request.POST.lists() if k != "csrfmiddlewaretoken"}
                asked = league_requests.league_request_create(
                    name=form.cleaned_data["name"], form_data=_single(data), by=request.user
                )
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            if not at_once:
                messages.success(
                    request,
                    f"{asked.name} waits for the site's operator to approve it: "
                    "you will hear by e-mail.",
                )
                return redirect("home")
            messages.success(request, f"{league} is set up. Add a season next.")
            return redirect(_manage_url(league))
    return render(request, "leagues/manage/league_form.html", {"form": form, "at_once": at_once})


def _single(data: dict[str, list[str]]) -> dict[str, Any]:
    """A form's data as JSON keeps it: one value as itself, several as a list."""
    return {k: v[0] if len(v) == 1 else v for k, v in data.items()}


@login_required
def league_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The secretary's desk: every season, division, team and venue with what to do next."""
    league = _league(request, slug)
    seasons_ = list(selectors.league_seasons(league=league))
    teams = list(league.teams.select_related("home_venue").order_by("name"))
    # A team withdrawn from the season in play (not one made ahead of its start) is marked so
    # in the list (its page says more).
    in_play = selectors.seasons_now(seasons_, today=league.today()).current
    withdrawn = (
        {
            entry.team_id: entry
            for entry in TeamEntry.objects.filter(season=in_play, withdrawn_on__isnull=False)
        }
        if in_play is not None
        else {}
    )
    for team in teams:
        team.withdrawn_entry = withdrawn.get(team.pk)
    waiting = selectors.results_to_see_to(league=league)
    listed = {fixture.pk for fixture in waiting}
    # The league night now (tonight's, or last night's still in play after midnight): its
    # matches first, each with its night page (the pairs seated, the QR codes), its tables
    # and its score card.
    night = night_now(league=league, clock=night_clock(league))
    tonight = night_fixtures(league=league, date=night.date) if night.date else []
    for fixture in tonight:
        fixture.progress = match_progress(fixture)
    return render(
        request,
        "leagues/manage/league.html",
        {
            "league": league,
            "seasons": seasons_,
            "latest": seasons_[0] if seasons_ else None,
            "in_play": in_play,
            "teams": teams,
            "match_format": league.get_match_format().describe(),
            "night": night.date,
            "tonight": tonight,
            # The next league night's blank score cards, to print before it.
            "to_print": next_night_to_print(league=league),
            "results_waiting": waiting,
            # A match held up by an abandoned table is listed once, with what to do for it.
            "results_missing": [
                fixture
                for fixture in selectors.results_missing(league=league)
                if fixture.pk not in listed
            ],
            # The pairs' and singles' cup ties as its fixtures: waiting for the sides, or
            # their night passed with no result in (a team tie is a fixture, listed above).
            "ties": ties_to_see_to(league=league),
            # The team cup ties with no night: their round's night did not suit them, or put off.
            "ties_to_arrange": ties_to_arrange(league=league),
            "on_nights_off": selectors.fixtures_on_nights_off(seasons=seasons_),
            "no_result_words": NO_RESULT_WORDS,  # as each of their pages says
            # A level cup tie's play-off game being played: as the tie's pages say it.
            "playoff_at_table": PLAYOFF_AT_TABLE,
        },
    )


@login_required
def league_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's name, night, target, match format and tie-break order on one page."""
    league = _league(request, slug)
    form = forms.LeagueEditForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        try:
            league = structure.league_update(
                league=league, **form.service_kwargs(), by=request.user
            )
        except ValidationError as exc:
            # By the field it names, else at the top of the form (not by one field it is not
            # about).
            forms.add_service_error(form, exc)
        else:
            messages.success(
                request,
                f"Saved. {league.tiebreak_rule_text()} The rules are the defaults for new "
                "seasons; a season already under way keeps its own.",
            )
            return redirect(_manage_url(league))
    return render(
        request,
        "leagues/manage/league_settings.html",
        {
            "league": league,
            "form": form,
            "rule_text": league.tiebreak_rule_text(),
            "played": structure.league_has_played(league=league),
        },
    )


@login_required
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    return _form_page(
        request,
        league=league,
        form=forms.SeasonForm(request.POST or None, league=league),
        save=lambda data: structure.season_create(league=league, **data, by=request.user),
        saved=lambda season: f"Season {season.name} added. Add its divisions.",
        next_url=lambda season: _manage_url(league),
        title="New season",
        submit="Add the season",
    )


@login_required
def division_create(request: HttpRequest, slug: str, season: int) -> HttpResponse:
    league = _league(request, slug)
    season_obj = get_object_or_404(league.seasons, pk=season)
    # The next rank down is free; a season's first division is its top, with none going up.
    below = 1 + max(season_obj.divisions.values_list("rank", flat=True), default=0)
    return _form_page(
        request,
        league=league,
        form=forms.DivisionForm(
            request.POST or None, initial={"rank": below, "promoted": 0 if below == 1 else 2}
        ),
        save=lambda data: structure.division_create(season=season_obj, **data, by=request.user),
        saved=lambda division: f"{division} added. Enter teams from the team pages.",
        next_url=lambda division: _manage_url(league),
        title=f"New division for {season_obj.name}",
        submit="Add the division",
    )


def _season_saved(season: Season) -> str:
    """Said once a season is saved: and its fixtures left on a night it no longer plays."""
    stranded = selectors.fixtures_on_nights_off(seasons=[season])
    if not stranded:
        return f"Season {season.name} saved."
    nights = sorted({fixture.date for fixture in stranded})
    return (
        f"Season {season.name} saved. {len(stranded)} fixture{pluralize(len(stranded))} "
        f"{'is' if len(stranded) == 1 else 'are'} still on a night with no league now "
        f"({', '.join(short_date(night) for night in nights)}): re-arrange "
        f"{'it' if len(stranded) == 1 else 'them'}, from the list on the desk."
    )


@login_required
def season_edit(request: HttpRequest, slug: str, season: int) -> HttpResponse:
    league = _league(request, slug)
    season_obj = get_object_or_404(league.seasons, pk=season)
    form = forms.SeasonForm(
        request.POST or None,
        league=league,
        initial={
            "name": season_obj.name,
            "starts_on": season_obj.starts_on,
            "ends_on": season_obj.ends_on,
            "league_night": season_obj.league_night,
            "exclusions": nights_off.text(season_obj.nights_off),
            "venue_capacity": season_obj.venue_capacity,
        },
    )
    return _form_page(
        request,
        league=league,
        form=form,
        save=lambda data: structure.season_update(season=season_obj, **data, by=request.user),
        saved=_season_saved,
        next_url=lambda season: _manage_url(league),
        title=f"Season {season_obj.name}",
    )


@login_required
def season_start_next(request: HttpRequest, slug: str, season: int) -> HttpResponse:
    """Start the next season from this one: every team placed from the final standings with
    promotion and relegation, for the secretary to review (and change) before saving."""
    league = _league(request, slug)
    old = get_object_or_404(league.seasons.select_related("league"), pk=season)
    following = seasons.season_after(old)
    if following is not None:
        messages.info(request, seasons.season_after_message(old, following))
        return redirect(_manage_url(league))
    standings = season_standings(season=old)
    refusal = seasons.placements_refusal(old, standings)
    if refusal:
        return render(
            request,
            "leagues/manage/season_next.html",
            {"league": league, "season": old, "refusal": refusal},
        )
    placements = seasons.next_season_placements(season=old, standings=standings)
    divisions = list(old.divisions.order_by("rank", "name"))
    start = (
        old.ends_on + datetime.timedelta(days=7)
        if old.ends_on
        else old.starts_on + datetime.timedelta(weeks=52)  # its league night, a year on
    )
    # Never inside the old season: a week after its last fixture when that is later.
    last = selectors.season_last_day(old)
    if last is not None and start <= last:
        start = last + datetime.timedelta(days=7)
    form = forms.NextSeasonForm(
        request.POST or None,
        league=league,
        placements=placements,
        divisions=divisions,
        initial={"starts_on": start},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            new = seasons.season_start_next(
                season=old,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                placements=form.placement_values(),
                carry_squads=data["carry_squads"],
                by=request.user,
            )
        except ValidationError as exc:
            forms.add_service_error(form, exc, "name")
        else:
            messages.success(
                request,
                f"{new.name} started: {new.entries.count()} teams entered. Check the squads, "
                "then set the calendar and generate the fixtures.",
            )
            return redirect(_manage_url(league))
    return render(
        request,
        "leagues/manage/season_next.html",
        {
            "league": league,
            "season": old,
            "form": form,
        },
    )


@login_required
def season_rules(request: HttpRequest, slug: str, season: int) -> HttpResponse:
    """A season's target, match format and tie-breaks, until its first fixture is played."""
    league = _league(request, slug)
    season_obj = get_object_or_404(league.seasons.select_related("league"), pk=season)
    form = forms.SeasonRulesForm(request.POST or None, season=season_obj)
    if request.method == "POST" and form.is_valid():
        try:
            structure.season_rules_update(
                season=season_obj, **form.service_kwargs(), by=request.user
            )
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            messages.success(request, f"Rules of {season_obj.name} saved.")
            return redirect(_manage_url(league))
    return render(
        request,
        "leagues/manage/form.html",
        {
            "league": league,
            "form": form,
            "title": f"Rules of {season_obj.name}",
            "submit": "Save the season's rules",
            "intro": season_obj.tiebreak_rule_text()
            + (
                " A fixture has been played: these rules are fixed for this season."
                if structure.season_has_played(season=season_obj)
                else " Editable until the season's first fixture is played."
            ),
        },
    )


@login_required
def division_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _league(request, slug)
    division = get_object_or_404(
        Division.objects.select_related("season"), pk=pk, season__league=league
    )
    form = forms.DivisionForm(
        request.POST or None,
        initial={
            "name": division.name,
            "rank": division.rank,
            "promoted": division.promoted,
            "relegated": division.relegated,
        },
    )
    return _form_page(
        request,
        league=league,
        form=form,
        save=lambda data: structure.division_update(division=division, **data, by=request.user),
        saved=lambda saved_division: f"{saved_division} saved.",
        next_url=lambda saved_division: _manage_url(league),
        title=f"{division.name}, {division.season.name}",
    )


@login_required
def venue_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's venues (its teams' homes, where it has played, and any not used yet)."""
    league = _league(request, slug)
    return render(
        request,
        "leagues/manage/venues.html",
        {"league": league, "venues": list(selectors.league_venues(league=league))},
    )


@login_required
def venue_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _league(request, slug)
    venue = get_object_or_404(selectors.league_venues(league=league), pk=pk)
    form = forms.VenueForm(
        request.POST or None,
        initial={
            "name": venue.name,
            "town": venue.town,
            "address": venue.address,
            "matches_a_night": venue.matches_a_night,
            "closed": nights_off.text(venue.closed_ranges),
        },
    )
    return _form_page(
        request,
        league=league,
        form=form,
        save=lambda data: structure.venue_update(
            venue=venue, **data, league=league, by=request.user
        ),
        saved=lambda saved_venue: f"{saved_venue} saved.",
        next_url=lambda saved_venue: reverse("leagues:manage_venues", kwargs={"slug": league.slug}),
        title=venue.name,
    )


@login_required
def venue_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    return _form_page(
        request,
        league=league,
        form=forms.VenueForm(request.POST or None),
        save=lambda data: structure.venue_create(**data, league=league, by=request.user),
        saved=lambda venue: f"{venue} added.",
        # The venues, the new one among them, with New venue for the next: a league's pubs are
        # entered one after another.
        next_url=lambda venue: reverse("leagues:manage_venues", kwargs={"slug": league.slug}),
        title="New venue",
        submit="Add the venue",
    )


@login_required
def team_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A new team with its home venue, entered in a division if one is chosen."""
    league = _league(request, slug)
    form = forms.TeamForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            team = structure.team_create(
                league=league,
                name=data["name"],
                short_name=data["short_name"],
                home_venue=data["home_venue"],
                division=data["division"],
                by=request.user,
            )
        except ValidationError as exc:
            forms.add_service_error(form, exc, "name")
        else:
            messages.success(request, f"{team} added. Register its players next.")
            return redirect("leagues:manage_team", slug=league.slug, pk=team.pk)
    return render(
        request,
        "leagues/manage/form.html",
        {"league": league, "form": form, "title": "New team", "submit": "Add the team"},
    )


@login_required
def team_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's name, short name and home venue."""
    league = _league(request, slug)
    team = get_object_or_404(Team.objects.select_related("home_venue"), pk=pk, league=league)
    form = forms.TeamEditForm(
        request.POST or None,
        league=league,
        initial={
            "name": team.name,
            "short_name": team.short_name,
            "home_venue": team.home_venue_id,
        },
    )
    return _form_page(
        request,
        league=league,
        form=form,
        save=lambda data: structure.team_update(team=team, **data, by=request.user),
        saved=lambda saved_team: f"{saved_team} saved.",
        next_url=lambda saved_team: reverse(
            "leagues:manage_team", kwargs={"slug": league.slug, "pk": team.pk}
        ),
        title=f"Edit {team.name}",
    )


@login_required
@post_action(lambda slug, pk: reverse("leagues:manage_team", args=[slug, pk]))
def team_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw the team from a season (or, with ``reinstate``, undo it); the service refuses
    whoever does not run the league (a 403)."""
    league = found(selectors.league_get, slug=slug)
    team = get_object_or_404(Team, pk=pk, league=league)
    entry = get_object_or_404(
        TeamEntry.objects.select_related("season__league", "division", "team"),
        team=team,
        season__pk=request.POST.get("season") or 0,
    )
    back = f"{reverse('leagues:manage_team', args=[league.slug, team.pk])}?season={entry.season_id}"
    try:
        if request.POST.get("reinstate"):
            withdrawal.team_reinstate(entry=entry, by=request.user)
            messages.success(request, f"{team} reinstated in {entry.division.name}.")
        else:
            form = forms.WithdrawForm(request.POST, league=league)
            if not form.is_valid():
                messages.error(request, "Choose how its fixtures are settled and give the reason.")
                return redirect(back)
            withdrawal.team_withdraw(
                entry=entry,
                withdrawal=form.cleaned_data["withdrawal"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
            messages.success(request, f"{team} withdrawn from {entry.division.name}.")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect(back)


@login_required
def team_squad(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Register a squad at once: the league's players ticked, names typed, or a CSV of names;
    for the season asked for, else the team page's (``season_asked``: the league's current)."""
    league = _league(request, slug)
    team = get_object_or_404(Team, pk=pk, league=league)
    _, season = season_asked(request, league)
    if season is None:
        # The team's page says to add a season first.
        return redirect("leagues:manage_team", slug=league.slug, pk=team.pk)
    form = forms.SquadForm(
        request.POST or None, request.FILES or None, league=league, season=season
    )
    questions: list[dict[str, Any]] = []
    twice: list[dict[str, str]] = []
    if request.method == "POST" and form.is_valid():
        # Each name is someone the league has, someone new, or asks which (nothing is
        # registered until every name is answered).
        people = LeaguePeople(league=league, season=season)
        known, new, listed = [], [], []
        for index, name in enumerate(form.cleaned_data["all_names"]):
            found = people.match(name, team)
            answer = request.POST.get(f"person-{index}", "")
            if found.asks:
                chosen = next((p for p in found.candidates if str(p.pk) == answer), None)
                if chosen is None and answer != "new":
                    questions.append(
                        {
                            "field": f"person-{index}",
                            "name": name,
                            "choices": [(str(p.pk), people.label(p)) for p in found.candidates]
                            + [("new", f"Someone new: a second {name}")],
                        }
                    )
                    continue
                found.player = chosen
            if found.player is not None:
                people.take(found.player)
                known.append(found.player)
                listed.append(Listed(index + 1, name, known=people.label(found.player)))
            else:
                new.append(name)
                listed.append(Listed(index + 1, name))
        # A name on two lines is two people: said, and registered only once the secretary
        # says they are (each such name ticked).
        sure = request.POST.getlist("twice")
        twice = [
            {"key": key, "words": words}
            for key, words in named_twice(
                listed, lines="lines", makes="registering them makes"
            ).items()
            if key not in sure
        ]
        if questions or twice:
            # Asked on the same page, the names (the CSV's too) kept in the box.
            form.show_names()
        else:
            try:
                done = registrations.squad_register(
                    team=team,
                    season=season,
                    players=list(form.cleaned_data["players"]) + known,
                    names=new,
                    by=request.user,
                )
            except ValidationError as exc:
                forms.add_service_error(form, exc)
            else:
                messages.success(
                    request, f"{len(done)} players registered for {team} ({season.name})."
                )
                return redirect(
                    f"{reverse('leagues:manage_team', args=[league.slug, team.pk])}"
                    f"?season={season.pk}"
                )
    return render(
        request,
        "leagues/manage/squad.html",
        {
            "league": league,
            "team": team,
            "season": season,
            "form": form,
            "questions": questions,
            "twice": twice,
        },
    )


@login_required
def team_manage(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's season: its division and captain (kept off the public pages) and its squad."""
    league = _league(request, slug)
    team = get_object_or_404(Team.objects.select_related("home_venue"), pk=pk, league=league)
    seasons, season = season_asked(request, league)
    entry = team.entries.filter(season=season).select_related("division", "captain__user").first()
    squad = list(selectors.team_squad(team=team, season=season)) if season else []
    form = None
    if season is not None:
        initial = (
            {
                "division": entry.division_id,
                "captain": entry.captain_id,
                "captain_contact": entry.captain_contact,
            }
            if entry
            else {}
        )
        form = forms.TeamEntryForm(
            request.POST or None,
            team=team,
            season=season,
            initial=initial,
            # No squad yet: the captain's list is empty, and says where the squad is registered.
            squad_url=""
            if squad
            else f"{reverse('leagues:manage_squad', args=[league.slug, team.pk])}"
            f"?season={season.pk}",
        )
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                entry, removed = structure.entry_save(
                    team=team,
                    season=season,
                    division=data["division"],
                    captain=data["captain"],
                    contact=data["captain_contact"],
                    by=request.user,
                )
            except ValidationError as exc:
                # Nothing was saved: show the form as it was before the attempt.
                entry = team.entries.filter(season=season).select_related("division").first()
                forms.add_service_error(form, exc, "captain")
            else:
                note = f" {removed} unplayed fixtures removed." if removed else ""
                messages.success(
                    request, f"{possessive(str(team))} {season.name} season saved.{note}"
                )
                return redirect(
                    f"{reverse('leagues:manage_team', args=[league.slug, team.pk])}"
                    f"?season={season.pk}"
                )
    name_people([*(r.player for r in squad), entry.captain if entry else None])
    # A captain with no account may have been invited: the newest invitation says where it
    # stands ("has no account yet" read as if none had gone).
    captain = entry.captain if entry else None
    sent = (
        list(team.invitations.filter(role=Invitation.Role.CAPTAIN, player=captain))
        if captain is not None and captain.user_id is None
        else []
    )
    invitation = next((i for i in sent if i.is_open), sent[0] if sent else None)
    return render(
        request,
        "leagues/manage/team.html",
        {
            "league": league,
            "team": team,
            "seasons": seasons,
            "season": season,
            "entry": entry,
            "form": form,
            "squad": squad,
            "invitation": invitation,
            "here": f"{reverse('leagues:manage_team', args=[league.slug, team.pk])}"
            f"?season={season.pk}"
            if season
            else "",
            "withdraw_form": forms.WithdrawForm(league=league),
        },
    )


@login_required
def player_register(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a new or existing player to a team for a season; one team a season."""
    league = _league(request, slug)
    initial = {}
    team = strict_id(request.GET.get("team"))
    if team is not None:
        initial["team"] = team
    # Come from seating a fixture's tables: the page leads back there.
    wanted = strict_id(request.GET.get("fixture"))
    seating = (
        Fixture.objects.filter(pk=wanted, division__season__league=league)
        .select_related("home", "away")
        .first()
        if wanted is not None
        else None
    )
    form = forms.PlayerRegisterForm(request.POST or None, league=league, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            registration = registrations.player_register(
                player=data["player"],
                name=data["name"],
                team=data["team"],
                season=data["season"],
                by=request.user,
            )
        except ValidationError as exc:
            forms.add_service_error(form, exc, "player" if data["player"] else "name")
        else:
            messages.success(
                request,
                f"{registration.player} is registered to {registration.team} "
                f"for {registration.season.name}.",
            )
            back = f"&fixture={seating.pk}" if seating else ""
            return redirect(
                f"{reverse('leagues:manage_register', args=[league.slug])}"
                f"?team={registration.team_id}{back}"
            )
    return render(
        request,
        "leagues/manage/form.html",
        {
            "league": league,
            "form": form,
            "title": "Register a player",
            "submit": "Register",
            "seating": seating,
        },
    )
