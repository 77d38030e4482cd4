"""How a league match is played and scored, as a plain value: :class:`MatchFormat`.

It covers both league styles: the number of tables, how many games each table plays (one; a
fixed number; or first to N), the match points for a table won, a game (bullseye) won and the
higher aggregate of points pegged across the tables, and the league points for a match won,
drawn and lost. A league stores it as JSON (``to_spec``) and reads it back with
``MatchFormat.from_spec``. A format that cannot be played raises :class:`FormatError`, whose
``messages`` name every option that is wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SINGLE = "single"
FIXED = "fixed"
FIRST_TO = "first_to"
GAMES_PER_TABLE_MODES = (SINGLE, FIXED, FIRST_TO)


class FormatError(ValueError):
    """A match format that cannot be played; ``messages`` lists what is wrong with it."""

    def __init__(self, messages: list[str] | str) -> None:
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


@dataclass(frozen=True)
class MatchFormat:
    """One league's match: tables, games per table, match points and league points."""

    tables: int = 4
    """Tables (boards) played at once in a fixture, pair against pair."""
    games_mode: str = SINGLE
    """"single": one game per table; "fixed": ``games`` games, all played; "first_to": a race
    to ``games`` games won."""
    games: int = 1
    """Games per table ("fixed") or games needed to win the table ("first_to")."""
    points_per_table: int = 2
    """Match points for each table won."""
    points_per_table_halved: int = 1
    """Match points to each side for a halved table (fixed games, games level)."""
    points_per_game: int = 0
    """Match points for each game (bullseye) won."""
    aggregate_bonus: int = 2
    """Match points for the higher aggregate of points pegged over all tables."""
    aggregate_bonus_shared: int = 1
    """Match points to each side when the aggregates are level."""
    league_points_win: int = 0
    """League points for a match won (more match points than the opponents)."""
    league_points_draw: int = 0
    league_points_loss: int = 0
    match_points_count: bool = True
    """Whether match points go into the league table as well as the league points."""
    walkover_match_points: int | None = None
    """Match points to the side awarded a walkover; None means the most a match can give."""
    meetings: int = 2
    """League fixtures between two teams in a season: 1 (once) or 2 (home and away), or more.
    A further meeting must be another kind (cup, play-off, friendly)."""

    def __post_init__(self) -> None:
        errors: list[str] = []
        for name in ("tables", "games", "meetings"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                errors.append(f"{name} must be a whole number of 1 or more (got {value!r})")
        for name in (
            "points_per_table",
            "points_per_table_halved",
            "points_per_game",
            "aggregate_bonus",
            "aggregate_bonus_shared",
            "league_points_win",
            "league_points_draw",
            "league_points_loss",
        ):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                errors.append(f"{name} must be a whole number of 0 or more (got {value!r})")
        if self.games_mode not in GAMES_PER_TABLE_MODES:
            errors.append(
                f"games_mode must be one of {', '.join(GAMES_PER_TABLE_MODES)} "
                f"(got {self.games_mode!r})"
            )
        if self.games_mode == SINGLE and self.games != 1:
            errors.append("games must be 1 when each table plays a single game")
        if not isinstance(self.match_points_count, bool):
            errors.append("match_points_count must be true or false")
        if self.walkover_match_points is not None and (
            type(self.walkover_match_points) is not int or self.walkover_match_points < 0
        ):
            errors.append("walkover_match_points must be a whole number of 0 or more, or null")
        if not errors and not (
            self.points_per_table or self.points_per_game or self.aggregate_bonus
        ):
            errors.append(
                "the format gives no match points (tables, games or aggregate), "
                "so no match could be won"
            )
        if errors:
            raise FormatError(errors)

    # --- reading and writing -------------------------------------------------------------

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None) -> MatchFormat:
        """The format stored as ``spec``; unknown keys are refused so typos do not pass."""
        spec = dict(spec or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(spec) - known)
        if unknown:
            raise FormatError(f"unknown match format option(s): {', '.join(unknown)}")
        return cls(**spec)

    def to_spec(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def with_options(self, **options: Any) -> MatchFormat:
        return dataclasses.replace(self, **options)

    # --- what the format implies ----------------------------------------------------------

    @property
    def games_to_win_table(self) -> int:
        """Games a side needs to take a table outright."""
        if self.games_mode == FIRST_TO:
            return self.games
        if self.games_mode == FIXED:
            return self.games // 2 + 1
        return 1

    @property
    def max_games_per_table(self) -> int:
        """The most games a table can play (both sides' together)."""
        if self.games_mode == FIRST_TO:
            return 2 * self.games - 1
        return self.games

    @property
    def max_games_won_at_table(self) -> int:
        """The most games one side can win at a table: every game of a fixed number, the
        games needed in a race (what a score card's "games won" may say)."""
        return self.games

    @property
    def max_match_points(self) -> int:
        """The most match points one side can take from a match: its best table every time
        (won outright, or halved where that pays more, with its games) and the bonus."""
        from .outlook import decided_tables
        from .tables import table_points

        best_table = max(table_points(self, *games)[0] for games in decided_tables(self))
        return self.tables * best_table + max(self.aggregate_bonus, self.aggregate_bonus_shared)

    @property
    def walkover_points(self) -> int:
        """Match points to the side given a walkover."""
        if self.walkover_match_points is None:
            return self.max_match_points
        return self.walkover_match_points

    def table_decided(self, home_games: int, away_games: int) -> bool:
        """Whether a table is over with these games won per side."""
        if self.games_mode == FIRST_TO:
            return max(home_games, away_games) >= self.games
        return home_games + away_games >= self.games

    def describe(self) -> str:
        """One sentence for the league page."""
        if self.games_mode == SINGLE:
            games = "one game"
        elif self.games_mode == FIXED:
            games = f"{self.games} games"
        else:
            games = f"first to {self.games} games"
        parts = [f"{self.tables} tables, {games} per table"]
        if self.points_per_table:
            parts.append(f"{self.points_per_table} for each table won")
        if self.points_per_game:
            parts.append(f"{self.points_per_game} for each game won")
        if self.aggregate_bonus:
            parts.append(f"{self.aggregate_bonus} for the higher aggregate (shared when level)")
        if self.league_points_win or self.league_points_draw or self.league_points_loss:
            parts.append(
                f"league points {self.league_points_win} for a win, "
                f"{self.league_points_draw} for a draw, {self.league_points_loss} for a defeat"
            )
        return "; ".join(parts) + "."
