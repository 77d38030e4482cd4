"""A fixture's tables and what they add up to: pure match arithmetic, no database.

A table is given as a :class:`TableCard`, filled the same way from games scored hand by hand
and from a paper score card: the games played at it in order (each game's final pegs per side
and, when the pegs alone do not say it, its winner), or only the games (bullseyes) each side won
when the card gives no game scores, and the hang jacks each side made. :func:`table_outcome`
turns one card into a :class:`TableOutcome` (decided or not, who took it, the table's match
points); :func:`match_result` turns a fixture's cards into its :class:`MatchResult` (tables won
and halved, games, pegs, hang jacks, the aggregate bonus, match points, the outcome and each
side's league points). :func:`walkover_result` is the result of a match given without play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .format import FIRST_TO, MatchFormat

Side = Literal["home", "away"]
HOME: Side = "home"
AWAY: Side = "away"
#: A table's outcome: a side took it, it was halved (fixed games, games level), or "" (not yet).
TableVerdict = Literal["home", "away", "halved", ""]
HALVED: TableVerdict = "halved"
#: A match's outcome: a side won it, it was drawn, or "" (not every table decided yet).
MatchVerdict = Literal["home", "away", "draw", ""]
DRAW: MatchVerdict = "draw"


class CardError(ValueError):
    """A table's card that the format cannot have produced; ``messages`` says what is wrong."""

    def __init__(self, messages: list[str] | str) -> None:
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


@dataclass(frozen=True)
class Game:
    """One finished game at a table: each side's final pegs, and who won it.

    ``winner`` may be left out when the pegs say it (the side with more); a game scored hand by
    hand passes the winner its rules decided."""

    home: int
    away: int
    winner: Side | None = None

    @property
    def won_by(self) -> Side:
        if self.winner is not None:
            return self.winner
        if self.home == self.away:
            raise CardError(f"a game of {self.home}–{self.away} needs its winner named")
        return HOME if self.home > self.away else AWAY


@dataclass(frozen=True)
class TableCard:
    """One table as played.

    Either ``games`` (each finished game in order, ``Game(home_pegs, away_pegs)``), or, for a
    card that records only counts, ``bullseyes`` (games won per side) and ``pegs`` (points
    pegged per side, when the card has them). ``hang_jacks`` per side in both.
    """

    games: tuple[Game, ...] = ()
    bullseyes: tuple[int, int] | None = None
    pegs: tuple[int, int] | None = None
    hang_jacks: tuple[int, int] = (0, 0)

    @classmethod
    def of_games(
        cls,
        games: Iterable[tuple[int, int] | tuple[int, int, Side] | Game],
        *,
        hang_jacks: tuple[int, int] = (0, 0),
    ) -> TableCard:
        """A card from its games: ``[(11, 7), (4, 11)]`` or ``(pegs_home, pegs_away, winner)``."""
        return cls(
            games=tuple(g if isinstance(g, Game) else Game(*g) for g in games),
            hang_jacks=hang_jacks,
        )

    @property
    def games_won(self) -> tuple[int, int]:
        """Games (bullseyes) won per side."""
        if self.bullseyes is not None:
            return self.bullseyes
        home = sum(1 for g in self.games if g.won_by == HOME)
        return home, len(self.games) - home

    @property
    def pegged(self) -> tuple[int, int]:
        """Points pegged per side over the table's games."""
        if self.pegs is not None or not self.games:
            return self.pegs or (0, 0)
        return sum(g.home for g in self.games), sum(g.away for g in self.games)


@dataclass(frozen=True)
class TableOutcome:
    """What one table gave: its figures, who took it ("" while undecided), its match points."""

    home_games: int
    away_games: int
    home_pegs: int
    away_pegs: int
    home_hang_jacks: int
    away_hang_jacks: int
    outcome: TableVerdict
    home_match_points: int
    away_match_points: int


@dataclass(frozen=True)
class MatchResult:
    """What a fixture's tables add up to. Field names follow the stored ``FixtureResult``.

    ``is_final``: every table decided (or a walkover); only then are the aggregate bonus, the
    outcome and the league points known (0 and "" before)."""

    tables: tuple[TableOutcome, ...]
    is_final: bool
    is_walkover: bool
    outcome: MatchVerdict
    home_tables: int
    away_tables: int
    tables_halved: int
    home_games: int
    away_games: int
    home_pegs: int
    away_pegs: int
    home_hang_jacks: int
    away_hang_jacks: int
    home_bonus: int
    away_bonus: int
    home_match_points: int
    away_match_points: int
    home_points: int
    away_points: int

    def figures(self) -> dict[str, object]:
        """The figures a stored result keeps (everything but the tables)."""
        return {
            name: getattr(self, name)
            for name in self.__dataclass_fields__
            if name not in ("tables", "home_bonus", "away_bonus")
        }


# --- the arithmetic, one step at a time --------------------------------------------------------


def table_verdict(fmt: MatchFormat, home_games: int, away_games: int) -> TableVerdict:
    """Who took a table with these games won: "" while it is still being played."""
    if not fmt.table_decided(home_games, away_games):
        return ""
    if home_games > away_games:
        return HOME
    if away_games > home_games:
        return AWAY
    return HALVED


def table_points(fmt: MatchFormat, home_games: int, away_games: int) -> tuple[int, int]:
    """Match points (home, away) a table gives: per game won, and for the table once decided
    (to the side that took it, or the halved share to each)."""
    home = home_games * fmt.points_per_game
    away = away_games * fmt.points_per_game
    verdict = table_verdict(fmt, home_games, away_games)
    if verdict == HOME:
        home += fmt.points_per_table
    elif verdict == AWAY:
        away += fmt.points_per_table
    elif verdict == HALVED:
        home += fmt.points_per_table_halved
        away += fmt.points_per_table_halved
    return home, away


def aggregate_bonus(fmt: MatchFormat, home_pegs: int, away_pegs: int) -> tuple[int, int]:
    """The bonus (home, away) for the higher aggregate of pegs, shared when level."""
    if home_pegs > away_pegs:
        return fmt.aggregate_bonus, 0
    if away_pegs > home_pegs:
        return 0, fmt.aggregate_bonus
    return fmt.aggregate_bonus_shared, fmt.aggregate_bonus_shared


def match_verdict(home_match_points: int, away_match_points: int) -> MatchVerdict:
    """Who won a finished match: more match points wins, level is a draw."""
    if home_match_points > away_match_points:
        return HOME
    if away_match_points > home_match_points:
        return AWAY
    return DRAW


def league_points(fmt: MatchFormat, verdict: MatchVerdict, side: Side, match_points: int) -> int:
    """A side's points in the league table from a finished match: league points for its
    outcome, plus its match points when the format counts them."""
    if verdict == DRAW:
        points = fmt.league_points_draw
    elif verdict == side:
        points = fmt.league_points_win
    else:
        points = fmt.league_points_loss
    return points + (match_points if fmt.match_points_count else 0)


# --- cards to outcomes ------------------------------------------------------------------------


def card_problems(card: TableCard, fmt: MatchFormat, *, target: int | None = None) -> list[str]:
    """What is wrong with a table's card under the format (empty when nothing): more games
    than the table plays, a game after the table was decided, a game won short of the target,
    negative figures. The score card's checks ask this."""
    problems: list[str] = []
    figures = [*card.hang_jacks, *(card.bullseyes or ()), *(card.pegs or ())]
    figures += [n for g in card.games for n in (g.home, g.away)]
    if any(n < 0 for n in figures):
        problems.append("figures cannot be negative")
    if card.games and card.bullseyes is not None:
        problems.append("give the games or the bullseyes won, not both")
    home = away = 0
    for number, game in enumerate(card.games, start=1):
        if table_verdict(fmt, home, away):
            problems.append(f"game {number} was played after the table was decided")
            break
        try:
            won_by = game.won_by
        except CardError as exc:
            problems.extend(exc.messages)
            continue
        if target is not None:
            winner_pegs = game.home if won_by == HOME else game.away
            if winner_pegs < target:
                problems.append(
                    f"game {number}: the winners pegged {winner_pegs}, short of {target}"
                )
        home, away = (home + 1, away) if won_by == HOME else (home, away + 1)
    if card.bullseyes is not None:
        home, away = card.bullseyes
        if fmt.games_mode == FIRST_TO and (
            max(home, away) > fmt.games or min(home, away) >= fmt.games
        ):
            problems.append(f"a race to {fmt.games} games cannot end {home}–{away}")
        elif fmt.games_mode != FIRST_TO and home + away > fmt.games:
            games = "game" if fmt.games == 1 else "games"
            problems.append(f"a table plays {fmt.games} {games}, not {home + away}")
    return problems


def match_problems(
    cards: Sequence[TableCard], fmt: MatchFormat, *, target: int | None = None
) -> list[str]:
    """What is wrong with a fixture's typed cards (empty when nothing): the number of tables,
    and each table's :func:`card_problems`, named by board."""
    problems = []
    if len(cards) != fmt.tables:
        problems.append(f"the match is played on {fmt.tables} tables, not {len(cards)}")
    for board, card in enumerate(cards, start=1):
        problems += [f"table {board}: {m}" for m in card_problems(card, fmt, target=target)]
    return problems


def table_outcome(card: TableCard, fmt: MatchFormat) -> TableOutcome:
    """One table's outcome. The games are taken as given (a table scored hand by hand is what
    its hands made it, a correction included): check a typed card with :func:`card_problems`
    first. Raises :class:`CardError` only for a game whose winner cannot be told."""
    home_games, away_games = card.games_won
    home_pegs, away_pegs = card.pegged
    home_points, away_points = table_points(fmt, home_games, away_games)
    return TableOutcome(
        home_games=home_games,
        away_games=away_games,
        home_pegs=home_pegs,
        away_pegs=away_pegs,
        home_hang_jacks=card.hang_jacks[0],
        away_hang_jacks=card.hang_jacks[1],
        outcome=table_verdict(fmt, home_games, away_games),
        home_match_points=home_points,
        away_match_points=away_points,
    )


def match_result(cards: Sequence[TableCard], fmt: MatchFormat) -> MatchResult:
    """A fixture's result from its tables' cards (those started so far; a match is final once
    the format's every table is decided). Raises :class:`CardError` naming the table when a
    game's winner cannot be told."""
    outcomes = []
    for board, card in enumerate(cards, start=1):
        try:
            outcomes.append(table_outcome(card, fmt))
        except CardError as exc:
            raise CardError([f"table {board}: {m}" for m in exc.messages]) from exc
    final = len(outcomes) == fmt.tables and all(t.outcome for t in outcomes)
    home_pegs = sum(t.home_pegs for t in outcomes)
    away_pegs = sum(t.away_pegs for t in outcomes)
    home_bonus, away_bonus = aggregate_bonus(fmt, home_pegs, away_pegs) if final else (0, 0)
    home_mp = sum(t.home_match_points for t in outcomes) + home_bonus
    away_mp = sum(t.away_match_points for t in outcomes) + away_bonus
    verdict = match_verdict(home_mp, away_mp) if final else ""
    return MatchResult(
        tables=tuple(outcomes),
        is_final=final,
        is_walkover=False,
        outcome=verdict,
        home_tables=sum(1 for t in outcomes if t.outcome == HOME),
        away_tables=sum(1 for t in outcomes if t.outcome == AWAY),
        tables_halved=sum(1 for t in outcomes if t.outcome == HALVED),
        home_games=sum(t.home_games for t in outcomes),
        away_games=sum(t.away_games for t in outcomes),
        home_pegs=home_pegs,
        away_pegs=away_pegs,
        home_hang_jacks=sum(t.home_hang_jacks for t in outcomes),
        away_hang_jacks=sum(t.away_hang_jacks for t in outcomes),
        home_bonus=home_bonus,
        away_bonus=away_bonus,
        home_match_points=home_mp,
        away_match_points=away_mp,
        home_points=league_points(fmt, verdict, HOME, home_mp) if verdict else 0,
        away_points=league_points(fmt, verdict, AWAY, away_mp) if verdict else 0,
    )


def walkover_result(fmt: MatchFormat, to: Side) -> MatchResult:
    """A match given to ``to`` without play: every table and the games to win them, and the
    format's walkover match points."""
    tables, games, points = fmt.tables, fmt.tables * fmt.games_to_win_table, fmt.walkover_points
    home = to == HOME
    return MatchResult(
        tables=(),
        is_final=True,
        is_walkover=True,
        outcome=to,
        home_tables=tables if home else 0,
        away_tables=0 if home else tables,
        tables_halved=0,
        home_games=games if home else 0,
        away_games=0 if home else games,
        home_pegs=0,
        away_pegs=0,
        home_hang_jacks=0,
        away_hang_jacks=0,
        home_bonus=0,
        away_bonus=0,
        home_match_points=points if home else 0,
        away_match_points=0 if home else points,
        home_points=league_points(fmt, to, HOME, points if home else 0),
        away_points=league_points(fmt, to, AWAY, 0 if home else points),
    )


def points_result(
    fmt: MatchFormat,
    home_match_points: int,
    away_match_points: int,
    *,
    games: tuple[int, int] | None = None,
) -> MatchResult:
    """A finished match known only by its match points (a result from the league's own records,
    before the app): the outcome and the league points follow from them as from a played match,
    and so do the games (bullseyes) won, which the standings count (a Trinidad league's 7–5 is
    7–5 in bullseyes), and the tables won and halved where the match points say them.
    ``games``: the games won, where the match points leave them open (a Yorkshire 8–2 is 4–0 or
    3–1: :func:`leagues.match.outlook.games_for_points`).
    ``CardError`` when no match of the format can end with them
    (:func:`leagues.match.outlook.possible_match_points`), when the games cannot come with
    them, or when they are open and ``games`` is not given."""
    from .outlook import ends_with

    score = f"{home_match_points}–{away_match_points}"
    ends = ends_with(fmt, home_match_points, away_match_points)
    if not ends:
        raise CardError(
            f"{score} is not a score a match can end with. The format: {fmt.describe()}"
        )
    if games is not None:
        ends = [end for end in ends if (end.home_games, end.away_games) == games]
        if not ends:
            raise CardError(
                f"{score} cannot come with {games[0]}–{games[1]} in games won. "
                f"The format: {fmt.describe()}"
            )
    won = sorted({(end.home_games, end.away_games) for end in ends}, reverse=True)
    if len(won) > 1:
        raise CardError(
            f"{score} could be {_either(won)} in games won: the match points do not say which."
        )
    tables = {(end.home_tables, end.away_tables, end.tables_halved) for end in ends}
    home_tables, away_tables, halved = tables.pop() if len(tables) == 1 else (0, 0, 0)
    verdict = match_verdict(home_match_points, away_match_points)
    return MatchResult(
        tables=(),
        is_final=True,
        is_walkover=False,
        outcome=verdict,
        home_tables=home_tables,
        away_tables=away_tables,
        tables_halved=halved,
        home_games=won[0][0],
        away_games=won[0][1],
        home_pegs=0,
        away_pegs=0,
        home_hang_jacks=0,
        away_hang_jacks=0,
        home_bonus=0,
        away_bonus=0,
        home_match_points=home_match_points,
        away_match_points=away_match_points,
        home_points=league_points(fmt, verdict, HOME, home_match_points),
        away_points=league_points(fmt, verdict, AWAY, away_match_points),
    )


def _either(games: Sequence[tuple[int, int]]) -> str:
    """``4–0 or 3–1``; ``4–0, 3–1 or 2–2``."""
    words = [f"{home}–{away}" for home, away in games]
    return f"{', '.join(words[:-1])} or {words[-1]}"
