"""The demo's cups (``seed_demo``): a pairs knock-out, best of 7, for the Trinidad league and a
team knock-out cup in the league's own match format for the Yorkshire league, each part played
through the same services the phones use.

Round one is played on a night of its own last week; each later round is to be played by a
deadline. The team cup's round one is played out, so its next round's ties are booked as a
secretary books them, each on the first league night by the deadline on which both teams are
free and the pub has room: its deadline is two weeks after the league's last night, so every
tie finds one."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max

from cups.models import Competition, Tie, TieResult
from cups.services.competitions import (
    competition_create,
    entrant_add_players,
    entrants_add_season_teams,
)
from cups.services.confirmation import tie_result_confirm
from cups.services.draws import draw_make
from cups.services.ties import round_set_dates, tie_walkover
from leagues.models import Fixture, League, Player, Season
from leagues.schedule import league_nights
from leagues.services.results import fixture_start
from scoring.models import GameStatus

DRAW_SEED = 1874
WEEK = datetime.timedelta(days=7)


def seed_cup(*, builder: Any, league: League, season: Season, today: datetime.date) -> None:
    """The league's demo cup; ``builder`` is the demo's builder (it plays games and confirms)."""
    secretary = builder._secretary(league)
    if league.style == League.Style.TRINIDAD:
        _pairs_knockout(builder, league, season, today, secretary)
    else:
        _team_cup(builder, league, season, today, secretary)


def _date_rounds(
    cup: Competition,
    today: datetime.date,
    secretary: Any,
    *,
    first_deadline: datetime.date,
    apart: datetime.timedelta = WEEK,
) -> None:
    """Round one on a night of its own a week ago; the next by ``first_deadline``, each later
    one ``apart`` after the one before."""
    for rnd in cup.rounds.order_by("number"):
        if rnd.number == 1:
            _round_one_night(rnd, max(today - WEEK, cup.season.starts_on), today, secretary)
        else:
            deadline = first_deadline + apart * (rnd.number - 2)
            round_set_dates(round=rnd, date=None, deadline=deadline, by=secretary)


def _after_the_league(season: Season, today: datetime.date) -> datetime.date:
    """The first league night from ``today`` after the season's last league match: every team is
    free that night and from then on."""
    matches = Fixture.objects.filter(division__season=season, kind=Fixture.Kind.LEAGUE)
    last = matches.exclude(status=Fixture.Status.VOID).aggregate(last=Max("date"))["last"]
    start = today if last is None else max(today, last + datetime.timedelta(days=1))
    return next(league_nights(start, season.night, season.excluded_dates))


def _round_one_night(rnd: Any, near: datetime.date, today: datetime.date, secretary: Any) -> None:
    """Round one on the night nearest ``near``, by today (its ties are played in the demo), on
    which every tie fits the season's calendar (a secretary is refused a night a tie's team
    already plays: a league night, as the demo's week before today may be)."""
    season_start = rnd.competition.season.starts_on
    days = [near + datetime.timedelta(days=d) for n in range(14) for d in ((-n, n) if n else (0,))]
    for day in (d for d in days if season_start <= d <= max(today, season_start)):
        try:
            round_set_dates(round=rnd, date=day, deadline=None, by=secretary)
        except ValidationError:
            continue
        return
    round_set_dates(round=rnd, date=None, deadline=near, by=secretary)


def _pairs_knockout(
    builder: Any, league: League, season: Season, today: datetime.date, secretary: Any
) -> None:
    cup = competition_create(
        league=league,
        season=season,
        name="Pairs Knock-out",
        entrant_kind=Competition.EntrantKind.PAIRS,
        best_of=7,
        by=secretary,
    )
    # Sixteen pairs: three from each of the first four teams, two from the others.
    teams = list(league.teams.order_by("name"))
    entered = 0
    for index, team in enumerate(teams):
        squad = list(
            Player.objects.filter(registrations__team=team, registrations__season=season).order_by(
                "pk"
            )
        )
        for k in range(min(3 if index < 4 else 2, len(squad) // 2)):
            if entered < 16:
                entrant_add_players(competition=cup, players=squad[2 * k : 2 * k + 2], by=secretary)
                entered += 1
    if entered < 2:
        return
    draw_make(competition=cup, seed=DRAW_SEED, by=secretary)
    # A race tie has no night booked: its round's deadline says when it is to be played by.
    _date_rounds(cup, today, secretary, first_deadline=today)
    to_play = list(
        cup.ties.filter(round__number=1, status=Tie.Status.SCHEDULED).order_by("position")
    )
    # Three ties played out (two confirmed by the secretary, one waiting for both pairs to
    # agree), one part played (two games), one walked over; the rest to come.
    for index, tie in enumerate(to_play[:3]):
        _play_race(builder, tie, games=7)
        result = TieResult.objects.filter(tie=tie, status=TieResult.Status.SUBMITTED).first()
        if result is not None and index < 2:
            tie_result_confirm(result=result, by=secretary)
    for tie in to_play[3:4]:
        _play_race(builder, tie, games=2)
    for tie in to_play[4:5]:
        tie_walkover(
            tie=tie,
            to=Tie.Side.HOME,
            reason="The away pair could not make the night.",
            by=secretary,
        )


def _play_race(builder: Any, tie: Tie, *, games: int) -> None:
    for _ in range(games):
        tie.refresh_from_db()
        if tie.results.exists():
            return
        current = tie.games.select_related("game").order_by("-number").first()
        if current is None or current.game.status != GameStatus.IN_PROGRESS:
            return
        builder._play_game(current.game)


def _team_cup(
    builder: Any, league: League, season: Season, today: datetime.date, secretary: Any
) -> None:
    cup = competition_create(league=league, season=season, name="League Cup", by=secretary)
    # Every team playing the season, as the secretary's "Enter all" does (a withdrawn one not).
    if len(entrants_add_season_teams(competition=cup, by=secretary)) < 2:
        return
    draw_make(competition=cup, seed=DRAW_SEED, by=secretary)
    # Round one played out a week ago; the quarter-finals (or whatever round comes next) by
    # two weeks after the league's last night, its ties booked on nights their teams are free as
    # their winners go through; the rounds after two weeks apart.
    first_deadline = _after_the_league(season, today) + WEEK
    _date_rounds(cup, today, secretary, first_deadline=first_deadline, apart=2 * WEEK)
    to_play = cup.ties.filter(round__number=1, status=Tie.Status.SCHEDULED).order_by("position")
    for tie in to_play:
        fixture = tie.fixture
        assert fixture is not None
        pairs = list(
            zip(
                builder._pairs(fixture.home, season),
                builder._pairs(fixture.away, season),
                strict=True,
            )
        )
        for table_game in fixture_start(fixture=fixture, pairs=pairs):
            builder._play_table(table_game.table)
        fixture.refresh_from_db()
        if fixture.status == Fixture.Status.PLAYED:
            builder._confirm(fixture)
