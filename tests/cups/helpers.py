"""Small cup worlds for tests: a one-table league with teams and registered players."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from cups.models import Competition, Tie
from cups.services.competitions import (
    competition_create,
    entrant_add_players,
    entrant_add_team,
)
from cups.services.confirmation import tie_result_confirm
from cups.services.draws import draw_make
from leagues.formats import STYLE_PRESETS
from leagues.models import League, Season, Team, TeamEntry
from tests.factories.leagues import DivisionFactory, LeagueFactory, PlayerFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import entered_teams, squad, win_game


@dataclass
class CupWorld:
    league: League
    season: Season
    teams: list[Team]
    users: dict[str, Any] = field(default_factory=dict)


def cup_world(teams: int = 4, *, players: int = 2, venues_shared: bool = False) -> CupWorld:
    league = LeagueFactory(
        match_format=STYLE_PRESETS["yorkshire"].match_format.with_options(tables=1).to_spec(),
        # A tie drawn for today starts at the league's time: at midnight, it has started
        # whatever the hour the tests run (at 20:00 it had not before 8 pm).
        start_time=datetime.time(0, 0),
    )
    # An undated round's tie goes on the first league night from today on which it fits: the
    # league plays on today's weekday, so a tie drawn now is played tonight.
    league.league_night = league.today().weekday()
    league.save(update_fields=["league_night"])
    division = DivisionFactory(season__league=league)
    made = entered_teams(division, [f"Team {chr(65 + i)}" for i in range(teams)], players=players)
    users = {"secretary": UserFactory(), "other_secretary": UserFactory()}
    league.secretaries.add(users["secretary"])
    LeagueFactory().secretaries.add(users["other_secretary"])
    for role, team in (("home_captain", made[0]), ("away_captain", made[1])):
        users[role] = UserFactory()
        captain = PlayerFactory(name=f"{team} captain", user=users[role])
        TeamEntry.objects.filter(team=team).update(captain=captain)
    users["stranger"] = UserFactory()
    users["superuser"] = UserFactory(is_superuser=True)
    return CupWorld(league=league, season=division.season, teams=made, users=users)


def team_cup(world: CupWorld, **options: Any) -> Competition:
    cup = competition_create(
        league=world.league,
        season=world.season,
        name=options.pop("name", "League Cup"),
        by=world.users["secretary"],
        **options,
    )
    for team in world.teams:
        entrant_add_team(competition=cup, team=team, by=world.users["secretary"])
    return cup


def drawn_cup_of(names: tuple[str, ...], *, name: str, **options: Any) -> Competition:
    """A one-table league whose teams are called ``names``, its secretary's team cup of them
    all (``options``: its format, groups), drawn with seed 7: the browser tests' long names."""
    league = LeagueFactory(
        match_format=STYLE_PRESETS["yorkshire"].match_format.with_options(tables=1).to_spec()
    )
    division = DivisionFactory(season__league=league)
    teams = entered_teams(division, list(names), players=2)
    secretary = UserFactory()
    league.secretaries.add(secretary)
    cup = competition_create(
        league=league, season=division.season, name=name, by=secretary, **options
    )
    for team in teams:
        entrant_add_team(competition=cup, team=team, by=secretary)
    draw_make(competition=cup, seed=7, by=secretary)
    return cup


def pairs_cup(world: CupWorld, *, best_of: int = 7, **options: Any) -> Competition:
    cup = competition_create(
        league=world.league,
        season=world.season,
        name=options.pop("name", "Pairs Knock-out"),
        entrant_kind=Competition.EntrantKind.PAIRS,
        best_of=best_of,
        by=world.users["secretary"],
        **options,
    )
    for team in world.teams:
        entrant_add_players(
            competition=cup, players=squad(team, world.season)[:2], by=world.users["secretary"]
        )
    return cup


def current(tie: Tie):
    tie.refresh_from_db()
    return tie.games.order_by("-number").first().game


def play_race(tie: Tie, winners: str, *, agree: bool = True) -> Tie:
    """Play the tie's games in order: "AABAB…" (A home, B away) as each game's winner; once
    one side has enough, the league's secretary confirms the result (unless ``agree`` is
    false: then it waits for both sides)."""
    for w in winners:
        win_game(current(tie), w, 2)
    result = tie.results.filter(status="submitted").first()
    if agree and result is not None:
        secretary = tie.competition.league.secretaries.order_by("pk").first()
        tie_result_confirm(result=result, by=secretary)
    tie.refresh_from_db()
    return tie


def pair_player(tie: Tie, side: str) -> Any:
    """The account of the first player of the tie's ``side`` pair (made if they have none)."""
    entrant = tie.home if side == "home" else tie.away
    player = entrant.player_1
    if player.user is None:
        player.user = UserFactory(username=f"{side}-player-{player.pk}")
        player.save(update_fields=["user"])
    return player.user


def pair_captain(world: CupWorld, tie: Tie, side: str) -> Any:
    """The account of the captain of the ``side`` pair's team this season (made if needed)."""
    entrant = tie.home if side == "home" else tie.away
    entry = TeamEntry.objects.get(team=entrant.team, season=world.season)
    if entry.captain is None or entry.captain.user is None:
        user = UserFactory(username=f"{side}-captain-{entry.pk}")
        entry.captain = PlayerFactory(name=f"{entrant.team} captain", user=user)
        entry.save(update_fields=["captain"])
        return user
    return entry.captain.user


def teammate(world: CupWorld, tie: Tie) -> Any:
    """The account of a player of the home pair's team who is not in the pair (or either)."""
    entrant = tie.home
    players = {p.pk for p in (*tie.home.players, *tie.away.players)}
    other = next(p for p in squad(entrant.team, world.season) if p.pk not in players)
    if other.user is None:
        other.user = UserFactory(username=f"teammate-{other.pk}")
        other.save(update_fields=["user"])
    return other.user
