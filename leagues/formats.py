"""The two league styles' starting points: ``STYLE_PRESETS`` (ruleset, match format and
tie-breaks a new league of each style starts with). The match format itself, and all of a
match's arithmetic, is the match engine's (``leagues.match``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from leagues.match import FIRST_TO, FIXED, SINGLE, MatchFormat

__all__ = ["FIRST_TO", "FIXED", "SINGLE", "STYLE_PRESETS", "MatchFormat", "StylePreset"]


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
    time_zone: str
    """Where such a league usually plays (``leagues.zones``): the secretary may choose another."""


STYLE_PRESETS: dict[str, StylePreset] = {
    "yorkshire": StylePreset(
        ruleset={"preset": "west_yorkshire", "target": 11},
        match_format=YORKSHIRE_FORMAT,
        tiebreaks=("points", "games_for", "head_to_head"),
        time_zone="Europe/London",
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
        time_zone="America/Port_of_Spain",
    ),
}
