"""A ruleset: every way the variants differ, as plain values.

Presets (``presets.py``) are values of this one dataclass; an override makes a new value
(``ruleset.with_options(target=11)``). The engine reads fields, never the preset's name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import parse_rank
from .errors import InvalidFacts
from .frozenmap import FrozenMap

TRUMPS = ("turn_up", "pitch")
LOW_RULES = ("held", "captured")
GAME_TIE_RULES = ("nobody", "non_dealer")
KICKS_ON = ("every", "trump_setting")

#: The options a league or competition may override (docs/rules.md section 6).
OPTIONS: tuple[str, ...] = (
    "target",
    "players",
    "game_point_value",
    "hang_jack_points",
    "low",
    "game_tie",
    "kick_values",
    "kicks_on",
    "gift_points",
    "gift_ends_hand",
    "no_gift_to_win",
    "renege_points",
    "under_trump_points",
    "misdeal_points",
    "early_look_points",
    "capture_values",
)


def _ruleset_error(message: str) -> InvalidFacts:
    return InvalidFacts(None, "ruleset", message)


def _whole(name: str, value: object, minimum: int) -> int:
    if type(value) is not int or value < minimum:
        raise _ruleset_error(f"{name} must be a whole number of {minimum} or more (got {value!r})")
    return value


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise _ruleset_error(f"{name} must be one of {', '.join(choices)} (got {value!r})")
    return value


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _ruleset_error(f"{name} must be true or false (got {value!r})")
    return value


def _rank_values(name: str, value: object) -> FrozenMap[str, int]:
    if not isinstance(value, Mapping):
        raise _ruleset_error(f'{name} must map card ranks to points, e.g. {{"J": 1}}')
    values: dict[str, int] = {}
    for raw_rank, points in value.items():
        rank = parse_rank(raw_rank)
        if rank is None:
            raise _ruleset_error(f"{name}: {raw_rank!r} is not a card rank")
        values[rank] = _whole(f"{name}[{rank!r}]", points, 0)
    return FrozenMap(values)


@dataclass(frozen=True)
class Ruleset:
    """How one variant of All Fours is scored. Construct presets; override with ``with_options``."""

    name: str
    """The preset this ruleset comes from, e.g. "trinidad" (overrides keep it)."""
    label: str
    """The preset's human name, e.g. "Trinidad"."""
    trumps: str
    """"turn_up": the dealer turns a card for trumps; "pitch": the first card led sets trumps."""
    target: int
    """Points that win the game (the race)."""
    players: int
    """Players per side: 1 (each player scores alone) or 2 (partnerships)."""
    player_options: Mapping[int, tuple[int, ...]]
    """Players per side allowed -> the numbers of sides allowed with it."""
    target_by_players: Mapping[int, int]
    """Target that goes with a number of players per side, where it differs (2 players: 9)."""
    kick_values: Mapping[str, int]
    """Rank of a turned-up card -> points to the dealer's side, e.g. {"A": 1, "6": 2, "J": 3}."""
    kicks_on: str
    """"every": every card turned scores; "trump_setting": only the first and a new-suit one."""
    begging: bool
    """Whether the player after the dealer may beg (stand / take one / run the pack)."""
    gift_points: int
    """Points each opposing side gets when the dealer answers a beg with "take one"."""
    gift_ends_hand: bool
    """Take one ends the hand: the gift is scored, then the same dealer deals again."""
    no_gift_to_win: bool
    """Take one is refused when the gift would give an opposing side the target."""
    hang_jack_points: int | None
    """Points for capturing the opponents' jack of trumps; None: the capturer always gets 1."""
    low: str
    """"held": low to the side dealt the lowest trump; "captured": to the side that won it."""
    game_tie: str
    """Equal card points: "nobody" scores game, or "non_dealer" (the first tied side after the
    dealer)."""
    game_point_value: int
    """Points for game (most card points in tricks)."""
    captures: bool
    """All Fives: hands record the scoring trumps captured instead of high, low, jack and game."""
    capture_values: Mapping[str, int]
    """All Fives: rank of a captured trump -> points to the capturing side."""
    renege_points: int
    """Points to each opposing side for a renege (the offender also cannot score game)."""
    under_trump_points: int
    """Points to each opposing side for an under-trump."""
    misdeal_points: int
    """Points to each opposing side for a misdeal (the deal passes)."""
    early_look_points: int
    """Pitch variants: points to each opposing side when the pitcher's partner looked early."""
    summary: str = field(default="", compare=False)
    """One line describing the variant, for people choosing a ruleset."""

    def __post_init__(self) -> None:
        # Freeze mappings so that presets cannot be changed by accident, and check every value so
        # that a bad override is refused where it is made.
        _choice("trumps", self.trumps, TRUMPS)
        _whole("target", self.target, 1)
        if not isinstance(self.player_options, Mapping) or not self.player_options:
            raise _ruleset_error("player_options must map players per side to side counts")
        object.__setattr__(
            self,
            "player_options",
            FrozenMap({k: tuple(v) for k, v in self.player_options.items()}),
        )
        object.__setattr__(self, "target_by_players", FrozenMap(self.target_by_players))
        if type(self.players) is not int or self.players not in self.player_options:
            allowed = ", ".join(str(p) for p in self.player_options)
            raise _ruleset_error(
                f"players (per side) must be one of {allowed} for {self.label} "
                f"(got {self.players!r})"
            )
        object.__setattr__(self, "kick_values", _rank_values("kick_values", self.kick_values))
        _choice("kicks_on", self.kicks_on, KICKS_ON)
        _flag("begging", self.begging)
        _whole("gift_points", self.gift_points, 0)
        _flag("gift_ends_hand", self.gift_ends_hand)
        _flag("no_gift_to_win", self.no_gift_to_win)
        if self.hang_jack_points is not None:
            _whole("hang_jack_points", self.hang_jack_points, 1)
        _choice("low", self.low, LOW_RULES)
        _choice("game_tie", self.game_tie, GAME_TIE_RULES)
        _whole("game_point_value", self.game_point_value, 1)
        _flag("captures", self.captures)
        object.__setattr__(
            self, "capture_values", _rank_values("capture_values", self.capture_values)
        )
        for name in ("renege_points", "under_trump_points", "misdeal_points", "early_look_points"):
            _whole(name, getattr(self, name), 0)

    @property
    def side_counts(self) -> tuple[int, ...]:
        """The numbers of sides this ruleset allows with its players per side."""
        return self.player_options[self.players]

    @property
    def largest_award(self) -> int:
        """The most points one award can give a side at once (a kick, the hang jack, game, a
        gift or a penalty): the game's winner finishes at most this much less one past the
        target, since the first side to reach it wins on that award (strict order)."""
        values: list[int] = [
            1,
            self.game_point_value,
            self.gift_points,
            self.hang_jack_points or 0,
            self.renege_points,
            self.under_trump_points,
            self.misdeal_points,
            self.early_look_points,
            *(self.kick_values.values() if self.trumps == "turn_up" else ()),
            *(self.capture_values.values() if self.captures else ()),
        ]
        return max(values)

    @property
    def highest_final_score(self) -> int:
        """The highest score a side can finish a game on."""
        return self.target - 1 + self.largest_award

    def final_score_problems(self, home: int, away: int) -> list[str]:
        """What is wrong with a finished game's final scores under these rules (empty when
        nothing): the winner reaches the target and the loser stops short of it (the first
        side to reach it wins, so both never finish at or past it), and no side finishes
        further past it than one award takes it."""
        problems = []
        if min(home, away) < 0:
            problems.append("a score cannot be negative")
        elif max(home, away) < self.target:
            problems.append(f"neither side reached the target of {self.target}")
        elif min(home, away) >= self.target:
            problems.append(
                f"both sides are at or past the target of {self.target}: the first to reach "
                "it wins, so the other stops short"
            )
        elif max(home, away) > self.highest_final_score:
            problems.append(
                f"{max(home, away)} is past what a game to {self.target} can finish on "
                f"(at most {self.highest_final_score})"
            )
        return problems

    def most_hang_jacks(self, finals: Sequence[int], *, games_won: int) -> int:
        """The most hang jacks a side can have taken in games it finished on ``finals`` pegs
        (0 where the variant has none): each one counted gave it ``hang_jack_points`` (a score
        only grows), and in each game it won one more may have come after the target was
        reached, taken but struck."""
        if self.hang_jack_points is None:
            return 0
        return sum(final // self.hang_jack_points for final in finals) + games_won

    def most_hang_jacks_in_games(self, *, won: int, lost: int) -> int:
        """The most hang jacks a side can have taken in ``won`` games it won and ``lost`` it
        lost when their scores are not known (a card of games won alone): each game held as
        many as its highest finish could (``highest_final_score`` in a game won, one short of
        the target in a game lost), as :meth:`most_hang_jacks` counts them."""
        finals = [self.highest_final_score] * won + [self.target - 1] * lost
        return self.most_hang_jacks(finals, games_won=won)

    def with_options(self, **options: Any) -> Ruleset:
        """A new ruleset with ``options`` overridden; refuses unknown options and bad values.

        Changing ``players`` without giving ``target`` moves the target with it where the variant
        ties one to the other (West Yorkshire: 2 players play to 9), unless it was overridden.
        """
        for key in options:
            if key not in OPTIONS:
                raise _ruleset_error(
                    f"unknown ruleset option {key!r} (options: {', '.join(OPTIONS)})"
                )
        if "players" in options and "target" not in options:
            players = options["players"]
            if self.target == self.target_by_players.get(self.players, self.target) and (
                isinstance(players, int) and players in self.target_by_players
            ):
                options = {**options, "target": self.target_by_players[players]}
        return dataclasses.replace(self, **options)

    def to_spec(self) -> dict[str, Any]:
        """``{"preset": name, **only the overridden options}``, JSON-serialisable."""
        from .presets import PRESETS

        base = PRESETS[self.name]
        if self.players != base.players:
            base = base.with_options(players=self.players)
        spec: dict[str, Any] = {"preset": self.name}
        if self.players != PRESETS[self.name].players:
            spec["players"] = self.players
        for key in OPTIONS:
            value = getattr(self, key)
            if key != "players" and value != getattr(base, key):
                spec[key] = value.to_dict() if isinstance(value, FrozenMap) else value
        return spec


def ruleset_from_spec(spec: str | Mapping[str, Any]) -> Ruleset:
    """The ruleset named by a preset name or ``{"preset": "trinidad", "target": 11, ...}``."""
    from .presets import PRESETS

    if isinstance(spec, str):
        name, options = spec, {}
    elif isinstance(spec, Mapping):
        if "preset" not in spec:
            raise _ruleset_error('the ruleset needs a "preset", e.g. {"preset": "trinidad"}')
        name = spec["preset"]
        options = {key: value for key, value in spec.items() if key != "preset"}
    else:
        raise _ruleset_error(
            'the ruleset must be a preset name or {"preset": ..., options} '
            f"(got {type(spec).__name__})"
        )
    if not isinstance(name, str) or name not in PRESETS:
        raise _ruleset_error(f"unknown ruleset {name!r} (presets: {', '.join(PRESETS)})")
    if not options:
        return PRESETS[name]
    return PRESETS[name].with_options(**options)
