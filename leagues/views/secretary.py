"""The secretary's pages for a league's structure: the league, seasons, divisions, venues,
teams and registered players. Every view asks ``leagues.permissions`` through
``require_manager``; every write is a ``leagues.services`` call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from leagues import forms
from leagues.models import Division, Team
from leagues.permissions import can_create_league
from leagues.selectors import fixtures as selectors
from leagues.services import registrations, structure
from leagues.views.common import found, require_manager, user_or_none


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
    if not can_create_league(request.user):
        raise PermissionDenied("Ask the site's operator to start a league for you.")
    form = forms.LeagueCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = structure.league_create(**form.service_kwargs(), by=request.user)
        except ValidationError as exc:
            forms.add_service_error(form, exc)
        else:
            messages.success(request, f"{league} is set up. Add a season next.")
            return redirect(_manage_url(league))
    return render(request, "leagues/manage/league_form.html", {"form": form})


@login_required
def league_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The secretary's desk: every season, division, team and venue with what to do next."""
    league = _league(request, slug)
    return render(
        request,
        "leagues/manage/league.html",
        {
            "league": league,
            "seasons": list(selectors.league_seasons(league=league)),
            "teams": list(league.teams.select_related("home_venue").order_by("name")),
            "match_format": league.get_match_format().describe(),
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
            forms.add_service_error(form, exc, "tables")
        else:
            messages.success(request, f"Saved. {league.tiebreak_rule_text()}")
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
        form=forms.SeasonForm(request.POST or None),
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
    return _form_page(
        request,
        league=league,
        form=forms.DivisionForm(request.POST or None),
        save=lambda data: structure.division_create(season=season_obj, **data, by=request.user),
        saved=lambda division: f"{division} added. Enter teams from the team pages.",
        next_url=lambda division: _manage_url(league),
        title=f"New division for {season_obj.name}",
        submit="Add the division",
    )


@login_required
def season_edit(request: HttpRequest, slug: str, season: int) -> HttpResponse:
    league = _league(request, slug)
    season_obj = get_object_or_404(league.seasons, pk=season)
    form = forms.SeasonForm(
        request.POST or None,
        initial={
            "name": season_obj.name,
            "starts_on": season_obj.starts_on,
            "ends_on": season_obj.ends_on,
        },
    )
    return _form_page(
        request,
        league=league,
        form=form,
        save=lambda data: structure.season_update(season=season_obj, **data, by=request.user),
        saved=lambda season: f"Season {season.name} saved.",
        next_url=lambda season: _manage_url(league),
        title=f"Season {season_obj.name}",
    )


@login_required
def division_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _league(request, slug)
    division = get_object_or_404(
        Division.objects.select_related("season"), pk=pk, season__league=league
    )
    form = forms.DivisionForm(
        request.POST or None, initial={"name": division.name, "rank": division.rank}
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
        initial={"name": venue.name, "town": venue.town, "address": venue.address},
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
        next_url=lambda venue: _manage_url(league),
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
            with transaction.atomic():
                team = structure.team_create(
                    league=league,
                    name=data["name"],
                    short_name=data["short_name"],
                    home_venue=data["home_venue"],
                    by=request.user,
                )
                if data["division"] is not None:
                    structure.team_enter(team=team, division=data["division"], by=request.user)
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
def team_manage(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's season: its division and captain (kept off the public pages) and its squad."""
    league = _league(request, slug)
    team = get_object_or_404(Team.objects.select_related("home_venue"), pk=pk, league=league)
    seasons = list(league.seasons.order_by("-starts_on"))
    wanted = request.GET.get("season") or request.POST.get("season") or ""
    season = next((s for s in seasons if str(s.pk) == wanted), seasons[0] if seasons else None)
    entry = team.entries.filter(season=season).select_related("division", "captain__user").first()
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
        form = forms.TeamEntryForm(request.POST or None, team=team, season=season, initial=initial)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    removed = 0
                    if entry is None:
                        entry = structure.team_enter(
                            team=team, division=data["division"], by=request.user
                        )
                    else:
                        removed = structure.entry_move(
                            entry=entry, division=data["division"], by=request.user
                        )
                    structure.entry_set_captain(
                        entry=entry, captain=data["captain"], by=request.user
                    )
                    structure.entry_set_contact(
                        entry=entry, contact=data["captain_contact"], by=request.user
                    )
            except ValidationError as exc:
                # Nothing was saved: show the form as it was before the attempt.
                entry = team.entries.filter(season=season).select_related("division").first()
                forms.add_service_error(form, exc, "captain")
            else:
                note = f" {removed} unplayed fixtures removed." if removed else ""
                messages.success(request, f"{team}'s {season.name} season saved.{note}")
                return redirect(
                    f"{reverse('leagues:manage_team', args=[league.slug, team.pk])}"
                    f"?season={season.pk}"
                )
    squad = list(selectors.team_squad(team=team, season=season)) if season else []
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
        },
    )


@login_required
def player_register(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a new or existing player to a team for a season; one team a season."""
    league = _league(request, slug)
    initial = {}
    if request.GET.get("team", "").isdigit():
        initial["team"] = int(request.GET["team"])
    form = forms.PlayerRegisterForm(request.POST or None, league=league, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            # A new player is only kept if the registration goes through.
            with transaction.atomic():
                player = data["player"] or structure.player_create(
                    name=data["name"], by=user_or_none(request)
                )
                registration = registrations.player_register(
                    player=player, team=data["team"], season=data["season"], by=request.user
                )
        except ValidationError as exc:
            forms.add_service_error(form, exc, "player" if data["player"] else "name")
        else:
            messages.success(
                request,
                f"{registration.player} is registered to {registration.team} "
                f"for {registration.season.name}.",
            )
            return redirect(
                f"{reverse('leagues:manage_register', args=[league.slug])}"
                f"?team={registration.team_id}"
            )
    return render(
        request,
        "leagues/manage/form.html",
        {
            "league": league,
            "form": form,
            "title": "Register a player",
            "submit": "Register",
        },
    )
