"""Player and pair figures from the stored hands of league games, never by replaying them.

Three grouped queries (finished games by seat, counted awards by seat, side and category, and
all-fours hands by seat), one for the players' names and one telling namesakes apart
(``leagues.selectors.people.name_people``), whatever the number of games: every
row is keyed by the four seats of its table, then folded into players or pairs here. Side A of
a league game is the home pair, side B the away pair.

Only finished games of the results that count (``leagues.selectors.counting``) are read: never a
void fixture, an unconfirmed result the league does not show, a game in progress, a cup or
friendly match, or an expunged team's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from leagues.models import Division, Player, Season, TableGame, Team
from leagues.selectors.counting import LEAGUE_ONLY, counts_q
from leagues.selectors.people import name_people
from scoring.models import Award, GameStatus, Hand

SEATS = ("home_player_1", "home_player_2", "away_player_1", "away_player_2")
SIDE_SEATS = {"A": SEATS[:2], "B": SEATS[2:]}
SIDE_TEAM = {"A": "fixture__home", "B": "fixture__away"}
OTHER = {"A": "B", "B": "A"}

#: Award category -> the figure it adds to for the side that took it.
CATEGORY_FIGURE = {
    "high": "highs",
    "low": "lows",
    "jack": "jacks",
    "hang_jack": "hang_jacks_taken",
    "game": "game_points",
    "kick": "kicks",
}


@dataclass
class PlayFigures:
    games_played: int = 0
    games_won: int = 0
    highs: int = 0
    lows: int = 0
    jacks: int = 0
    hang_jacks_taken: int = 0
    """Opponents' jacks captured (Trinidad: 3 points each)."""
    hang_jacks_given: int = 0
    """Own jacks the opponents captured."""
    game_points: int = 0
    """Hands in which the side scored the point for game (most card points)."""
    kicks: int = 0
    """Kicks scored by the side (turn-ups, to the dealer's side)."""
    all_fours: int = 0
    """Hands in which the side took high, low, jack and game."""

    @property
    def games_lost(self) -> int:
        return self.games_played - self.games_won

    @property
    def win_percentage(self) -> float | None:
        if not self.games_played:
            return None
        return round(100 * self.games_won / self.games_played, 1)


@dataclass
class PlayerStatistics(PlayFigures):
    player: Player | None = None


@dataclass
class PairStatistics(PlayFigures):
    players: tuple[Player, ...] = field(default_factory=tuple)

    @property
    def name(self) -> str:
        return " & ".join(player.label for player in self.players)


def _scope(
    prefix: str,
    *,
    player: Player | None,
    season: Season | None,
    division: Division | None,
    team: Team | None,
) -> Q:
    q = Q()
    if player is not None:
        seated = Q()
        for seat in SEATS:
            seated |= Q(**{f"{prefix}{seat}": player})
        q &= seated
    if season is not None:
        q &= Q(**{f"{prefix}fixture__division__season": season})
    if division is not None:
        q &= Q(**{f"{prefix}fixture__division": division})
    if team is not None:
        q &= Q(**{f"{prefix}fixture__home": team}) | Q(**{f"{prefix}fixture__away": team})
    return q


def _group_fields(prefix: str) -> list[str]:
    return [f"{prefix}{seat}" for seat in SEATS] + [
        f"{prefix}{SIDE_TEAM['A']}",
        f"{prefix}{SIDE_TEAM['B']}",
    ]


def _seat_rows(
    *,
    player: Player | None = None,
    season: Season | None = None,
    division: Division | None = None,
    team: Team | None = None,
    kinds: Collection[str] = LEAGUE_ONLY,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(games, awards, all-fours hands), each grouped by the table's seats."""
    table = "table__"
    via_game = "game__league_game__table__"
    scope = {"player": player, "season": season, "division": division, "team": team}
    games = list(
        TableGame.objects.filter(
            _scope(table, **scope),
            counts_q(f"{table}fixture__", kinds=kinds),
            game__status=GameStatus.WON,
        )
        .values(*_group_fields(table), "game__winner")
        .annotate(n=Count("id"))
        .order_by()
    )
    awards = list(
        Award.objects.filter(
            _scope(via_game, **scope),
            counts_q(f"{via_game}fixture__", kinds=kinds),
            game__status=GameStatus.WON,
            counted=True,
            category__in=list(CATEGORY_FIGURE),
        )
        .values(*_group_fields(via_game), "side", "category")
        .annotate(n=Count("id"))
        .order_by()
    )
    all_fours = list(
        Hand.objects.filter(
            _scope(via_game, **scope),
            counts_q(f"{via_game}fixture__", kinds=kinds),
            game__status=GameStatus.WON,
        )
        .exclude(all_fours="")
        .values(*_group_fields(via_game), "all_fours")
        .annotate(n=Count("id"))
        .order_by()
    )
    return games, awards, all_fours


def _side_players(row: dict[str, Any], prefix: str, side: str) -> tuple[int, ...]:
    return tuple(
        sorted(row[f"{prefix}{seat}"] for seat in SIDE_SEATS[side] if row[f"{prefix}{seat}"])
    )


def _fold(
    rows: tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]],
    *,
    team: Team | None,
) -> dict[tuple[int, ...], PlayFigures]:
    """Figures per pair (sorted player ids) over every side of every row."""
    games, awards, all_fours = rows
    figures: dict[tuple[int, ...], PlayFigures] = {}

    def sides(row: dict[str, Any], prefix: str) -> Iterable[tuple[str, PlayFigures]]:
        for side in ("A", "B"):
            if team is not None and row[f"{prefix}{SIDE_TEAM[side]}"] != team.pk:
                continue
            pair = _side_players(row, prefix, side)
            if pair:
                yield side, figures.setdefault(pair, PlayFigures())

    for row in games:
        for side, figure in sides(row, "table__"):
            figure.games_played += row["n"]
            if row["game__winner"] == side:
                figure.games_won += row["n"]
    prefix = "game__league_game__table__"
    for row in awards:
        for side, figure in sides(row, prefix):
            if row["side"] == side:
                name = CATEGORY_FIGURE[row["category"]]
                setattr(figure, name, getattr(figure, name) + row["n"])
            elif row["category"] == "hang_jack" and row["side"] == OTHER[side]:
                figure.hang_jacks_given += row["n"]
    for row in all_fours:
        for side, figure in sides(row, prefix):
            if row["all_fours"] == side:
                figure.all_fours += row["n"]
    return figures


def _add(total: PlayFigures, part: PlayFigures) -> None:
    for name in PlayFigures.__dataclass_fields__:
        setattr(total, name, getattr(total, name) + getattr(part, name))


def add_figures(total: PlayFigures, part: PlayFigures) -> PlayFigures:
    """``total`` with ``part`` added (e.g. a player's cup games played outside fixtures)."""
    _add(total, part)
    return total


def _by_player(
    pairs: dict[tuple[int, ...], PlayFigures],
) -> dict[int, PlayFigures]:
    players: dict[int, PlayFigures] = {}
    for pair, figures in pairs.items():
        for player_id in pair:
            _add(players.setdefault(player_id, PlayFigures()), figures)
    return players


def _as(cls: type, figures: PlayFigures, **extra: Any) -> Any:
    values = {name: getattr(figures, name) for name in PlayFigures.__dataclass_fields__}
    return cls(**values, **extra)


def player_statistics(
    *, player: Player, season: Season | None = None, kinds: Collection[str] = LEAGUE_ONLY
) -> PlayerStatistics:
    """One player's figures over every league game they played (or one season's); ``kinds``
    takes in cup ties played as fixtures too (``Fixture.Kind``)."""
    pairs = _fold(_seat_rows(player=player, season=season, kinds=kinds), team=None)
    return _player_figures(pairs, player)


def _player_figures(pairs: dict[tuple[int, ...], PlayFigures], player: Player) -> PlayerStatistics:
    # Only the sides the player sat on: pairs without them are their opponents.
    mine = {pair: figures for pair, figures in pairs.items() if player.pk in pair}
    figures = _by_player(mine).get(player.pk, PlayFigures())
    return _as(PlayerStatistics, figures, player=player)


def player_with_pairs(
    *, player: Player, kinds: Collection[str] = LEAGUE_ONLY
) -> tuple[PlayerStatistics, list[PairStatistics]]:
    """A player's page: their figures over ``kinds`` (``player_statistics``) and the pairs they
    sat in for league games (``pair_statistics``). The same seats serve both when ``kinds`` are
    the league's own: three queries for the figures and one for the partners' names."""
    league = _fold(_seat_rows(player=player), team=None)
    if set(kinds) == set(LEAGUE_ONLY):
        figures = league
    else:
        figures = _fold(_seat_rows(player=player, kinds=kinds), team=None)
    return _player_figures(figures, player), _pair_rows(league, player=player)


def player_leaderboard(
    *,
    season: Season | None = None,
    division: Division | None = None,
    team: Team | None = None,
) -> list[PlayerStatistics]:
    """Every player's figures in the scope, most games won first."""
    by_player = _by_player(
        _fold(_seat_rows(season=season, division=division, team=team), team=team)
    )
    players = Player.objects.in_bulk(list(by_player))
    name_people(players.values())
    rows = [_as(PlayerStatistics, figures, player=players[pk]) for pk, figures in by_player.items()]
    return sorted(rows, key=lambda r: (-r.games_won, r.games_played, r.player.name))


def pair_statistics(
    *,
    season: Season | None = None,
    division: Division | None = None,
    team: Team | None = None,
    player: Player | None = None,
) -> list[PairStatistics]:
    """Figures for every pair that sat together in the scope, most games won first.

    With ``player``: the pairs that player was part of.
    """
    pairs = _fold(_seat_rows(season=season, division=division, team=team, player=player), team=team)
    return _pair_rows(pairs, player=player)


def _pair_rows(
    pairs: dict[tuple[int, ...], PlayFigures], *, player: Player | None
) -> list[PairStatistics]:
    if player is not None:
        pairs = {pair: figures for pair, figures in pairs.items() if player.pk in pair}
    players = Player.objects.in_bulk({pk for pair in pairs for pk in pair})
    name_people(players.values())
    rows = [
        _as(PairStatistics, figures, players=tuple(players[pk] for pk in pair))
        for pair, figures in pairs.items()
    ]
    return sorted(rows, key=lambda r: (-r.games_won, r.games_played, r.name))
