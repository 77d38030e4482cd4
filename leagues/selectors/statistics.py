"""Player and pair figures from the stored hands of league games, never by replaying them
(and a score card's games and hang jacks where it names who sat at the table: a card has no
hands).

Each side's figures at each fixture table are stored from its finished games' hands and awards
when its fixture rolls up (``leagues.services.figures``, ``PairFigures``); here they are summed
for a scope in one grouped query (by pair and kind of fixture), with one for the players' names
and one telling namesakes apart (``leagues.selectors.people.name_people``), whatever the number
of games, then folded into players or pairs. Side A of a league game is the home pair, side B
the away pair.

Only finished games of the results that count (``leagues.selectors.counting``) are read: never a
void fixture, an unconfirmed result the league does not show, a game in progress, a cup or
friendly match, or an expunged team's.
"""

from __future__ import annotations

import weakref
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from leagues.models import (
    Division,
    FixtureTable,
    PairFigures,
    Player,
    Registration,
    Season,
    Team,
    TeamEntry,
)
from leagues.selectors.counting import LEAGUE_ONLY, counts_q
from leagues.selectors.people import name_people

SEATS = ("home_player_1", "home_player_2", "away_player_1", "away_player_2")
SIDE_SEATS = {"A": SEATS[:2], "B": SEATS[2:]}
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
    hand_games: int = 0
    """Of ``games_played``, those scored hand by hand (not from a score card, which gives the
    games and hang jacks alone): with none, the figures only hands give (``HAND_FIGURES``)
    are not known, not 0."""

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


#: The figures, each a column of ``PairFigures`` summed for the scope (``hand_games`` is the
#: games played summed where the table was scored hand by hand).
FIGURES = tuple(name for name in PlayFigures.__dataclass_fields__ if name != "hand_games")
#: The figures a score card does not give: known only from tables scored hand by hand.
HAND_FIGURES = ("highs", "lows", "jacks", "game_points", "kicks", "all_fours")


#: Stand-ins for the ids of a scope (a player, season, division or team) while its query is
#: built, found again among the built query's parameters and replaced by each page's own.
_MARKS = {"player": -7_385_101, "season": -7_385_102, "division": -7_385_103, "team": -7_385_104}

#: Each connection's built queries, by shape: (the parts of the scope given, the kinds).
_built: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[Any, tuple[str, list[Any]]]] = (
    weakref.WeakKeyDictionary()
)


def _figures_query(
    scope: dict[str, int], kinds: Collection[str]
) -> QuerySet[PairFigures, tuple[Any, ...]]:
    """The stored rows of the tables whose results count in the scope (the ids of a
    ``player``, ``season``, ``division`` or ``team`` given), summed by pair and kind of
    fixture: (player_1, player_2, kind, *FIGURES). With ``team``, only that team's sides; with
    ``player``, only the sides they sat on."""
    q = counts_q("fixture__", kinds=kinds)
    if "player" in scope:
        q &= Q(player_1=scope["player"]) | Q(player_2=scope["player"])
    if "season" in scope:
        q &= Q(fixture__division__season=scope["season"])
    if "division" in scope:
        q &= Q(fixture__division=scope["division"])
    if "team" in scope:
        q &= Q(side="A", fixture__home=scope["team"]) | Q(side="B", fixture__away=scope["team"])
    return (
        PairFigures.objects.filter(q)
        .values_list("player_1", "player_2", "fixture__kind")
        .annotate(
            **{f"sum_{name}": Sum(name) for name in FIGURES},
            sum_hand_games=Coalesce(
                Sum("games_played", filter=~Q(table__source=FixtureTable.Source.CARD)), 0
            ),
        )
        .order_by()
    )


def _figure_rows(scope: dict[str, int], kinds: Collection[str]) -> list[tuple[Any, ...]]:
    """``_figures_query``'s rows. Building its SQL costs the ORM some ten times what the
    database takes to run it (the counting rule's joins), and the SQL depends only on the
    query's shape: it is built once per connection and shape, with stand-ins for the ids
    (``_MARKS``), and run with the scope's own (as ``scoring.services.compiled`` does for a
    hand's read; a test compares the rows with the queryset's)."""
    connection = connections[DEFAULT_DB_ALIAS]
    shape = (tuple(sorted(scope)), tuple(sorted(kinds)))
    built = _built.setdefault(connection, {})
    if shape not in built:
        query = _figures_query({name: _MARKS[name] for name in scope}, shape[1])
        sql, params = query.query.get_compiler(connection=connection).as_sql()
        built[shape] = (sql, list(params))
    sql, params = built[shape]
    ids = {_MARKS[name]: pk for name, pk in scope.items()}
    with connection.cursor() as cursor:
        cursor.execute(sql, [ids.get(p, p) if type(p) is int else p for p in params])
        return list(cursor.fetchall())


def _pairs(
    *,
    player: Player | None = None,
    season: Season | None = None,
    division: Division | None = None,
    team: Team | None = None,
    kinds: Collection[str] = LEAGUE_ONLY,
) -> dict[str, dict[tuple[int, ...], PlayFigures]]:
    """Figures per pair (sorted player ids) in the scope, kind by kind of fixture, in one
    query (``_figure_rows``)."""
    given = {"player": player, "season": season, "division": division, "team": team}
    scope = {name: part.pk for name, part in given.items() if part is not None}
    by_kind: dict[str, dict[tuple[int, ...], PlayFigures]] = {kind: {} for kind in kinds}
    for player_1, player_2, kind, *sums in _figure_rows(scope, kinds):
        pair = (player_1,) if player_2 is None else (player_1, player_2)
        figures = PlayFigures(*sums)
        _add(by_kind[kind].setdefault(pair, PlayFigures()), figures)
    return by_kind


def _together(
    by_kind: dict[str, dict[tuple[int, ...], PlayFigures]],
) -> dict[tuple[int, ...], PlayFigures]:
    """The pairs' figures over every kind."""
    pairs: dict[tuple[int, ...], PlayFigures] = {}
    for figures in by_kind.values():
        for pair, part in figures.items():
            _add(pairs.setdefault(pair, PlayFigures()), part)
    return pairs


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
    return _player_figures(_together(_pairs(player=player, season=season, kinds=kinds)), player)


def _player_figures(pairs: dict[tuple[int, ...], PlayFigures], player: Player) -> PlayerStatistics:
    # Only the sides the player sat on: pairs without them are their opponents.
    mine = {pair: figures for pair, figures in pairs.items() if player.pk in pair}
    figures = _by_player(mine).get(player.pk, PlayFigures())
    return _as(PlayerStatistics, figures, player=player)


def player_with_pairs(
    *,
    player: Player,
    kinds: Collection[str] = LEAGUE_ONLY,
    known: Iterable[Player] = (),
    more: dict[tuple[int, ...], PlayFigures] | None = None,
) -> tuple[PlayerStatistics, list[PairStatistics]]:
    """A player's page: their figures over ``kinds`` (``player_statistics``) and the pairs they
    sat in for those games (``pair_statistics``), with ``more`` added in (figures by pair from
    games played outside fixtures: a cup's race ties, ``cups.selectors.player_race_record``):
    one query for both, and two for the partners (none when ``known`` has them all:
    ``_players``). The figures only hands give are None where the player's every game was
    entered from the score card (``_known``), as the division's players say them."""
    pairs = _together(_pairs(player=player, kinds=kinds))
    for pair, figures in (more or {}).items():
        _add(pairs.setdefault(pair, PlayFigures()), figures)
    return _known(_player_figures(pairs, player)), _pair_rows(pairs, player=player, known=known)


def player_leaderboard(
    *,
    season: Season | None = None,
    division: Division | None = None,
    team: Team | None = None,
    known: Iterable[Player] = (),
) -> list[PlayerStatistics]:
    """Every player's figures in the scope, most games won first; the players read and named
    in two queries, none when ``known`` has them all (``_players``)."""
    by_player = _by_player(_together(_pairs(season=season, division=division, team=team)))
    players = _players(by_player, known)
    rows = [
        _known(_as(PlayerStatistics, figures, player=players[pk]))
        for pk, figures in by_player.items()
    ]
    return sorted(rows, key=lambda r: (-r.games_won, r.games_played, r.player.name))


def _known(row: PlayerStatistics) -> PlayerStatistics:
    """``row`` with the figures only hands give (``HAND_FIGURES``) None where the player's
    every game was entered from the score card: not known, where they read 0 as if none was
    won (the player's page says "—" for them too)."""
    if row.games_played and not row.hand_games:
        for name in HAND_FIGURES:
            setattr(row, name, None)
    return row


def players_teams(*, season: Season) -> dict[int, str]:
    """Each player's team in ``season`` (a player is registered to one a season) by player id,
    named as the season's pages name it: its entry's name that season, else its own. Two
    queries."""
    entered = dict(
        TeamEntry.objects.filter(division__season=season)
        .exclude(name="")
        .values_list("team", "name")
    )
    return {
        player: entered.get(team, name)
        for player, team, name in Registration.objects.filter(season=season).values_list(
            "player", "team", "team__name"
        )
    }


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
    pairs = _together(_pairs(season=season, division=division, team=team, player=player))
    return _pair_rows(pairs, player=player)


def _players(ids: Collection[int], known: Iterable[Player]) -> dict[int, Player]:
    """The players of ``ids`` by id: those in ``known`` (read and named with ``name_people``
    already: a squad, the players seated at a player's tables) as they are, the others read and
    named (two queries, none when ``known`` has them all)."""
    players = {player.pk: player for player in known if player.pk in ids}
    missing = [pk for pk in ids if pk not in players]
    if missing:
        found = Player.objects.in_bulk(missing)
        name_people(found.values())
        players.update(found)
    return players


def _pair_rows(
    pairs: dict[tuple[int, ...], PlayFigures],
    *,
    player: Player | None,
    known: Iterable[Player] = (),
) -> list[PairStatistics]:
    if player is not None:
        pairs = {pair: figures for pair, figures in pairs.items() if player.pk in pair}
    players = _players({pk for pair in pairs for pk in pair}, known)
    rows = [
        _as(PairStatistics, figures, players=tuple(players[pk] for pk in pair))
        for pair, figures in pairs.items()
    ]
    return sorted(rows, key=lambda r: (-r.games_won, r.games_played, r.name))
