"""How a league match is played and scored, as plain values (no database).

A :class:`MatchFormat` covers both league styles: the number of tables, how many games each
table plays (one; a fixed number; or first to N), the match points for a table won, a game
(bullseye) won and the higher aggregate of points pegged across the tables, and the league
points for a match won, drawn and lost. A league stores it as JSON (``to_spec``) and reads it
back with ``MatchFormat.from_spec``; ``STYLE_PRESETS`` hold the two styles' defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

SINGLE = "single"
FIXED = "fixed"
FIRST_TO = "first_to"
GAMES_PER_TABLE_MODES = (SINGLE, FIXED, FIRST_TO)


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
        for name in (
            "tables",
            "games",
            "meetings",
        ):
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
        if not errors and self.max_match_points == 0:
            errors.append(
                "the format gives no match points (tables, games or aggregate), "
                "so no match could be won"
            )
        if errors:
            raise ValidationError(errors)

    # --- reading and writing -------------------------------------------------------------

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None) -> MatchFormat:
        """The format stored as ``spec``; unknown keys are refused so typos do not pass."""
        spec = dict(spec or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(spec) - known)
        if unknown:
            raise ValidationError(f"unknown match format option(s): {', '.join(unknown)}")
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
        if self.games_mode == FIRST_TO:
            return 2 * self.games - 1
        return self.games

    @property
    def max_match_points(self) -> int:
        """The most match points one side can take from a match."""
        return (
            self.tables * self.points_per_table
            + self.tables * self.games_to_win_table * self.points_per_game
            + self.aggregate_bonus
        )

    @property
    def walkover_points(self) -> int:
        if self.walkover_match_points is None:
            return self.max_match_points
        return self.walkover_match_points

    def table_decided(self, home_games: int, away_games: int) -> bool:
        """Whether a table is over with these games won per side."""
        played = home_games + away_games
        if self.games_mode == FIRST_TO:
            return max(home_games, away_games) >= self.games
        return played >= self.games

    def league_points(self, outcome: str) -> int:
        """League points for a match outcome: "win", "draw" or "loss"."""
        return {
            "win": self.league_points_win,
            "draw": self.league_points_draw,
            "loss": self.league_points_loss,
        }[outcome]

    def points(self, outcome: str, match_points: int) -> int:
        """A side's points in the league table from one match: league points for its outcome
        ("win", "draw" or "loss"), plus its match points when they count."""
        return self.league_points(outcome) + (match_points if self.match_points_count else 0)

    def possible_points(self) -> frozenset[tuple[int, int]]:
        """Every (home, away) pair of table points a match can end with, a walkover included."""
        if self.games_mode == FIRST_TO:
            games = [(self.games, a) for a in range(self.games)]
            games += [(h, self.games) for h in range(self.games)]
        else:
            games = [(h, self.games - h) for h in range(self.games + 1)]
        table_points = set()  # (home, away) match points from one table
        for home, away in games:
            table = self.points_per_table if home != away else self.points_per_table_halved
            table_points.add(
                (
                    home * self.points_per_game + (table if home >= away else 0),
                    away * self.points_per_game + (table if away >= home else 0),
                )
            )
        sums = {(0, 0)}
        for _ in range(self.tables):
            sums = {(h + th, a + ta) for h, a in sums for th, ta in table_points}
        aggregate = {
            (self.aggregate_bonus, 0),
            (0, self.aggregate_bonus),
            (self.aggregate_bonus_shared, self.aggregate_bonus_shared),
        }
        pairs = set()
        for home, away in sums:
            for bonus_home, bonus_away in aggregate:
                h, a = home + bonus_home, away + bonus_away
                home_outcome = "win" if h > a else "loss" if h < a else "draw"
                away_outcome = "win" if a > h else "loss" if a < h else "draw"
                pairs.add((self.points(home_outcome, h), self.points(away_outcome, a)))
        walkover = self.walkover_points
        pairs.add((self.points("win", walkover), self.points("loss", 0)))
        pairs.add((self.points("loss", 0), self.points("win", walkover)))
        return frozenset(pairs)

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


#: Heckmondwike-style pub league: four tables, one game each, 2 a table, 2 for the aggregate.
YORKSHIRE_FORMAT = MatchFormat(
    tables=4,
    games_mode=SINGLE,
    games=1,
    points_per_table=2,
    points_per_table_halved=1,
    points_per_game=0,
    aggregate_bonus=2,
    aggregate_bonus_shared=1,
    league_points_win=0,
    league_points_draw=0,
    league_points_loss=0,
    match_points_count=True,
)

#: Trinidad-style: N tables each playing a fixed number of games to 14; bullseyes decide
#: the match, which earns league points.
TRINIDAD_FORMAT = MatchFormat(
    tables=6,
    games_mode=FIXED,
    games=2,
    points_per_table=0,
    points_per_table_halved=0,
    points_per_game=1,
    aggregate_bonus=0,
    aggregate_bonus_shared=0,
    league_points_win=2,
    league_points_draw=1,
    league_points_loss=0,
    match_points_count=False,
)


@dataclass(frozen=True)
class StylePreset:
    """What a new league of one style starts with; every part can be overridden."""

    ruleset: dict[str, Any]
    match_format: MatchFormat
    tiebreaks: tuple[str, ...]


STYLE_PRESETS: dict[str, StylePreset] = {
    "yorkshire": StylePreset(
        ruleset={"preset": "west_yorkshire", "target": 11},
        match_format=YORKSHIRE_FORMAT,
        tiebreaks=("points", "games_for", "head_to_head"),
    ),
    "trinidad": StylePreset(
        ruleset={"preset": "trinidad", "target": 14},
        match_format=TRINIDAD_FORMAT,
        tiebreaks=(
            "points",
            "games_for",
            "games_against",
            "hang_jacks_for",
            "hang_jacks_against",
        ),
    ),
}
