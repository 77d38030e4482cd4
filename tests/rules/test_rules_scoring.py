"""Scoring in strict order, one table row per rule of docs/rules.md sections 3, 5 and 6."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from rules_helpers import awards, play

from scoring.rules import Category, InvalidFacts


@dataclass
class Case:
    id: str
    spec: Any
    hands: list[dict[str, Any]]
    awards: list[list[str]]
    scores: dict[str, int]
    winner: str | None = None
    decided_by: tuple[int, str] | None = None
    sides: tuple[str, ...] = ("A", "B")
    start: dict[str, int] | None = None
    next_dealer: str | None = None
    trumps: list[str | None] = field(default_factory=list)


def stand(
    dealer: str, card: str, high: Any, low: Any, jack: Any, game: Any, **more: Any
) -> dict[str, Any]:
    return {
        "dealer": dealer,
        "turn_ups": [card],
        "high": high,
        "low": low,
        "jack": jack,
        "game": game,
        **more,
    }


def pitch(dealer: str, high: Any, low: Any, jack: Any, game: Any, **more: Any) -> dict[str, Any]:
    return {"dealer": dealer, "high": high, "low": low, "jack": jack, "game": game, **more}


def jack(held_by: str | None, won_by: str) -> dict[str, Any]:
    return {"held_by": held_by, "won_by": won_by}


CASES = [
    Case(
        "seed 000 worked example: 13-13, A takes high, B the rest: A wins 14-13",
        "trinidad",
        [stand("A", "4H", "A", "B", jack("B", "B"), {"A": 10, "B": 30})],
        [["A high 1", "B low 1 x", "B jack 1 x", "B game 1 10-30 x"]],
        {"A": 14, "B": 13},
        winner="A",
        decided_by=(1, "high"),
        start={"A": 13, "B": 13},
        next_dealer="B",
        trumps=["H"],
    ),
    Case(
        "only one trump in play: high and low to the same side",
        "trinidad",
        [stand("A", "4H", "B", "B", None, {"A": 20, "B": 10})],
        [["B high 1", "B low 1", "A game 1 20-10"]],
        {"A": 1, "B": 2},
    ),
    Case(
        "no trump in play: high, low and jack null",
        "trinidad",
        [stand("B", "4H", None, None, None, "B")],
        [["B game 1"]],
        {"A": 0, "B": 1},
        next_dealer="A",
    ),
    Case(
        "jack not in play scores nothing",
        "seven_up",
        [stand("A", "4H", "A", "B", None, {"A": 20, "B": 10})],
        [["A high 1", "B low 1", "A game 1 20-10"]],
        {"A": 2, "B": 1},
    ),
    Case(
        "hang jack 3 to the side that captured the opponents' jack",
        "trinidad",
        [stand("A", "4H", "A", "A", jack("A", "B"), "A")],
        [["A high 1", "A low 1", "B hang_jack 3", "A game 1"]],
        {"A": 3, "B": 3},
    ),
    Case(
        "jack won by the side dealt it scores 1",
        "trinidad",
        [stand("A", "4H", "A", "A", jack("B", "B"), "A")],
        [["A high 1", "A low 1", "B jack 1", "A game 1"]],
        {"A": 3, "B": 1},
    ),
    Case(
        "hang jack overridden to 6",
        {"preset": "trinidad", "hang_jack_points": 6},
        [stand("A", "4H", "A", "A", jack("A", "B"), "A")],
        [["A high 1", "A low 1", "B hang_jack 6", "A game 1"]],
        {"A": 3, "B": 6},
    ),
    Case(
        "no hang jack: the capturer scores jack 1",
        {"preset": "trinidad", "hang_jack_points": None},
        [stand("A", "4H", "A", "A", jack("A", "B"), "A")],
        [["A high 1", "A low 1", "B jack 1", "A game 1"]],
        {"A": 3, "B": 1},
    ),
    Case(
        "no hang jack and held_by left out",
        "seven_up",
        [stand("A", "4H", "A", "A", {"won_by": "B"}, "A")],
        [["A high 1", "A low 1", "B jack 1", "A game 1"]],
        {"A": 3, "B": 1},
    ),
    Case(
        "game tie, nobody: no game point",
        "trinidad",
        [stand("A", "4H", "A", "B", None, {"A": 20, "B": 20})],
        [["A high 1", "B low 1"]],
        {"A": 1, "B": 1},
    ),
    Case(
        "game tie recorded as tie, nobody",
        "trinidad",
        [stand("A", "4H", "A", "B", None, "tie")],
        [["A high 1", "B low 1"]],
        {"A": 1, "B": 1},
    ),
    Case(
        "game tie, non_dealer: the non-dealer scores",
        "seven_up",
        [stand("A", "4H", "A", "A", None, {"A": 20, "B": 20})],
        [["A high 1", "A low 1", "B game 1 20-20"]],
        {"A": 2, "B": 1},
    ),
    Case(
        "game tie recorded as tie, non_dealer",
        "german_two_player",
        [stand("B", "4H", "B", "B", None, "tie")],
        [["B high 1", "B low 1", "A game 1 tie"]],
        {"A": 1, "B": 2},
    ),
    Case(
        "three sides, all tied: the first after the dealer",
        "seven_up",
        [stand("B", "4H", "A", "A", None, {"A": 20, "B": 20, "C": 20})],
        [["A high 1", "A low 1", "C game 1 20-20-20"]],
        {"A": 2, "B": 0, "C": 1},
        sides=("A", "B", "C"),
        next_dealer="C",
    ),
    Case(
        "three sides, dealer's neighbour not tied: the first tied side after the dealer",
        "seven_up",
        [stand("A", "4H", "A", "A", None, {"A": 30, "B": 10, "C": 30})],
        [["A high 1", "A low 1", "C game 1 30-10-30"]],
        {"A": 2, "B": 0, "C": 1},
        sides=("A", "B", "C"),
    ),
    Case(
        "three sides, the dealer tied with one other: the other scores",
        "running",
        [stand("C", "4H", "A", "A", None, {"A": 5, "B": 30, "C": 30})],
        [["A high 1", "A low 1", "B game 1 5-30-30"]],
        {"A": 2, "B": 1, "C": 0},
        sides=("A", "B", "C"),
        next_dealer="A",
    ),
    Case(
        "game_tie overridden to non_dealer in Trinidad",
        {"preset": "trinidad", "game_tie": "non_dealer"},
        [stand("A", "4H", "A", "A", None, "tie")],
        [["A high 1", "A low 1", "B game 1 tie"]],
        {"A": 2, "B": 1},
    ),
    Case(
        "game point worth 2",
        {"preset": "trinidad", "game_point_value": 2},
        [stand("A", "4H", "A", "A", None, {"A": 30, "B": 10})],
        [["A high 1", "A low 1", "A game 2 30-10"]],
        {"A": 4, "B": 0},
    ),
    Case(
        "kicks: Trinidad A 1, 6 2, J 3; a 2 scores nothing",
        "trinidad",
        [
            stand("A", "AH", "A", "A", None, "A"),
            stand("B", "6S", "A", "A", None, "A"),
            stand("A", "2D", "A", "A", None, "A"),
        ],
        [
            ["A kick 1 AH", "A high 1", "A low 1", "A game 1"],
            ["B kick 2 6S", "A high 1", "A low 1", "A game 1"],
            ["A high 1", "A low 1", "A game 1"],
        ],
        {"A": 10, "B": 2},
        trumps=["H", "S", "D"],
    ),
    Case(
        "Tobago's 2 scores 2 and its 6 nothing",
        "tobago",
        [stand("A", "2S", None, None, None, "B"), stand("B", "6S", None, None, None, "B")],
        [["A kick 2 2S", "B game 1"], ["B game 1"]],
        {"A": 2, "B": 2},
    ),
    Case(
        "running: A 4, K 3, Q 2, J 1",
        "running",
        [
            stand("A", "AH", None, None, None, "A"),
            stand("B", "KH", None, None, None, "A"),
            stand("A", "QH", None, None, None, "A"),
            stand("B", "JH", None, None, None, "A"),
        ],
        [
            ["A kick 4 AH", "A game 1"],
            ["B kick 3 KH", "A game 1"],
            ["A kick 2 QH", "A game 1"],
            ["B kick 1 JH", "A game 1"],
        ],
        {"A": 10, "B": 4},
    ),
    Case(
        "kicks on every card turned while running (Trinidad)",
        "trinidad",
        [
            {
                "dealer": "A",
                "turn_ups": ["JH", "6H", "AD"],
                "beg": "run",
                "high": "B",
                "low": "B",
                "jack": None,
                "game": "B",
            }
        ],
        [["A kick 3 JH", "A kick 2 6H", "A kick 1 AD", "B high 1", "B low 1", "B game 1"]],
        {"A": 6, "B": 3},
        trumps=["D"],
    ),
    Case(
        "trump_setting: the begged suit's repeat does not score (running)",
        "running",
        [
            {
                "dealer": "A",
                "turn_ups": ["AH", "KH", "QD"],
                "beg": "run",
                "high": "B",
                "low": "B",
                "jack": None,
                "game": "B",
            }
        ],
        [["A kick 4 AH", "A kick 2 QD", "B high 1", "B low 1", "B game 1"]],
        {"A": 6, "B": 3},
    ),
    Case(
        "kicks_on every overridden in running: the repeat scores too",
        {"preset": "running", "kicks_on": "every"},
        [
            {
                "dealer": "A",
                "turn_ups": ["AH", "KH", "QD"],
                "beg": "run",
                "high": "B",
                "low": "B",
                "jack": None,
                "game": "B",
            }
        ],
        [["A kick 4 AH", "A kick 3 KH", "A kick 2 QD", "B high 1", "B low 1", "B game 1"]],
        {"A": 9, "B": 3},
    ),
    Case(
        "German: every jack turned scores",
        "german_two_player",
        [
            {
                "dealer": "A",
                "turn_ups": ["JH", "JD"],
                "beg": "run",
                "high": "B",
                "low": "B",
                "jack": None,
                "game": "B",
            }
        ],
        [["A kick 1 JH", "A kick 1 JD", "B high 1", "B low 1", "B game 1"]],
        {"A": 2, "B": 3},
    ),
    Case(
        "kick_values overridden (T accepted for 10)",
        {"preset": "seven_up", "kick_values": {"T": 2}},
        [stand("A", "TH", None, None, None, "B"), stand("B", "JH", None, None, None, "B")],
        [["A kick 2 10H", "B game 1"], ["B game 1"]],
        {"A": 2, "B": 2},
    ),
    Case(
        "a win on a kick before a card is played",
        "trinidad",
        [stand("A", "JH", "B", "B", None, "B")],
        [["A kick 3 JH", "B high 1 x", "B low 1 x", "B game 1 x"]],
        {"A": 14, "B": 12},
        winner="A",
        decided_by=(1, "kick"),
        start={"A": 11, "B": 12},
    ),
    Case(
        "a win on the gift where no_gift_to_win is off",
        {"preset": "trinidad", "no_gift_to_win": False},
        [{**stand("A", "4H", "A", "A", None, "A"), "beg": "take_one"}],
        [["B gift 1", "A high 1 x", "A low 1 x", "A game 1 x"]],
        {"A": 12, "B": 14},
        winner="B",
        decided_by=(1, "gift"),
        start={"A": 12, "B": 13},
    ),
    Case(
        "take one gives each opposing side a point; the gift precedes penalties",
        "trinidad",
        [
            {
                **stand("A", "4H", "A", "A", None, "A"),
                "beg": "take_one",
                "penalties": [{"kind": "under_trump", "side": "A"}],
            }
        ],
        [["B gift 1", "B penalty 1 under_trump", "A high 1", "A low 1", "A game 1"]],
        {"A": 3, "B": 2},
    ),
    Case(
        "three-handed take one: both opponents get the gift",
        "seven_up",
        [{**stand("A", "4H", "A", "A", None, "A"), "beg": "take_one"}],
        [["B gift 1", "C gift 1", "A high 1", "A low 1", "A game 1"]],
        {"A": 3, "B": 1, "C": 1},
        sides=("A", "B", "C"),
    ),
    Case(
        "gift_points overridden to 2",
        {"preset": "seven_up", "gift_points": 2},
        [{**stand("B", "4H", "A", "A", None, "A"), "beg": "take_one"}],
        [["A gift 2", "A high 1", "A low 1", "A game 1"]],
        {"A": 5, "B": 0},
    ),
    Case(
        "three-handed gift in play order: the first opponent to the target wins",
        "seven_up",
        [{**stand("A", "4H", "A", "A", None, "A"), "beg": "take_one"}],
        [["B gift 1", "C gift 1", "A high 1", "A low 1", "A game 1"]],
        {"A": 3, "B": 6, "C": 1},
        sides=("A", "B", "C"),
        start={"A": 0, "B": 5, "C": 0},
    ),
    Case(
        "original: take one ends the hand; the same dealer deals again",
        "original",
        [{"dealer": "A", "turn_ups": ["JH"], "beg": "take_one"}],
        [["A kick 1 JH", "B gift 1"]],
        {"A": 1, "B": 1},
        next_dealer="A",
        trumps=[None],
    ),
    Case(
        "gift_ends_hand overridden on in Trinidad",
        {"preset": "trinidad", "gift_ends_hand": True},
        [{"dealer": "B", "turn_ups": ["4H"], "beg": "take_one"}],
        [["A gift 1"]],
        {"A": 1, "B": 0},
        next_dealer="B",
    ),
    Case(
        "pack exhausted after three turn-ups with four players: kicks kept, same dealer",
        "trinidad",
        [
            {
                "dealer": "A",
                "turn_ups": ["JH", "6H", "2H"],
                "beg": "run",
                "outcome": "pack_exhausted",
            }
        ],
        [["A kick 3 JH", "A kick 2 6H"]],
        {"A": 5, "B": 0},
        next_dealer="A",
        trumps=[None],
    ),
    Case(
        "pack exhausted with two players: six turn-ups",
        {"preset": "trinidad", "players": 1},
        [
            {
                "dealer": "B",
                "turn_ups": ["2S", "3S", "4S", "5S", "7S", "8S"],
                "beg": "run",
                "outcome": "pack_exhausted",
            }
        ],
        [[]],
        {"A": 0, "B": 0},
        next_dealer="B",
    ),
    Case(
        "trump_setting pack exhausted: only the first card turned scores",
        "seven_up",
        [
            {
                "dealer": "A",
                "turn_ups": ["JH", "2H", "3H", "4H", "5H", "6H"],
                "beg": "run",
                "outcome": "pack_exhausted",
            }
        ],
        [["A kick 1 JH"]],
        {"A": 1, "B": 0},
        next_dealer="A",
    ),
    Case(
        "bunch: a redeal that keeps the kick, same dealer",
        "trinidad",
        [{"dealer": "B", "turn_ups": ["4H", "JS"], "beg": "run", "outcome": "bunch"}],
        [["B kick 3 JS"]],
        {"A": 0, "B": 3},
        next_dealer="B",
        trumps=[None],
    ),
    Case(
        "misdeal passes the deal and gives the opponents the penalty",
        "trinidad",
        [{"dealer": "A", "outcome": "misdeal"}],
        [["B penalty 1 misdeal"]],
        {"A": 0, "B": 1},
        next_dealer="B",
        trumps=[None],
    ),
    Case(
        "misdeal named explicitly, with a custom penalty after it",
        {"preset": "seven_up", "misdeal_points": 2},
        [
            {
                "dealer": "C",
                "outcome": "misdeal",
                "penalties": [
                    {"kind": "misdeal", "side": "C"},
                    {"kind": "points", "to": "C", "points": 1, "note": "dealt out of turn"},
                ],
            }
        ],
        [["A penalty 2 misdeal", "B penalty 2 misdeal", "C penalty 1 points: dealt out of turn"]],
        {"A": 2, "B": 2, "C": 1},
        sides=("A", "B", "C"),
        next_dealer="A",
    ),
    Case(
        "renege: the opponents get 1 and the offender forfeits game",
        "trinidad",
        [
            stand(
                "A",
                "4H",
                "A",
                "A",
                None,
                {"A": 10, "B": 30},
                penalties=[{"kind": "renege", "side": "B"}],
            )
        ],
        [["A penalty 1 renege", "A high 1", "A low 1", "B game 1 10-30, forfeited: renege x"]],
        {"A": 3, "B": 0},
    ),
    Case(
        "renege: the opponents still score game when they had most card points",
        {"preset": "trinidad", "renege_points": 2},
        [stand("A", "4H", "B", "B", None, "A", penalties=[{"kind": "renege", "side": "B"}])],
        [["A penalty 2 renege", "B high 1", "B low 1", "A game 1"]],
        {"A": 3, "B": 2},
    ),
    Case(
        "renege_top_trump: the offenders lose at once",
        "trinidad",
        [
            stand(
                "A",
                "AH",
                "B",
                "B",
                None,
                "B",
                penalties=[{"kind": "renege_top_trump", "side": "A"}],
            )
        ],
        [["A kick 1 AH", "B penalty 11 renege_top_trump", "B high 1 x", "B low 1 x", "B game 1 x"]],
        {"A": 6, "B": 14},
        winner="B",
        decided_by=(1, "penalty"),
        start={"A": 5, "B": 3},
    ),
    Case(
        "under_trump overridden to 2, penalties in the order called",
        {"preset": "trinidad", "under_trump_points": 2},
        [
            stand(
                "A",
                "4H",
                None,
                None,
                None,
                "tie",
                penalties=[
                    {"kind": "under_trump", "side": "B"},
                    {"kind": "renege", "side": "A"},
                ],
            )
        ],
        [["A penalty 2 under_trump", "B penalty 1 renege"]],
        {"A": 2, "B": 1},
    ),
    Case(
        "West Yorkshire: pitch, jack 1 to the capturer, early_look 4 to each opponent",
        "west_yorkshire",
        [
            pitch(
                "A", "A", "B", jack("A", "B"), "A", penalties=[{"kind": "early_look", "side": "A"}]
            )
        ],
        [["B penalty 4 early_look", "A high 1", "B low 1", "B jack 1", "A game 1"]],
        {"A": 2, "B": 6},
        trumps=[None],
    ),
    Case(
        "early_look_points overridden to 2",
        {"preset": "lancashire", "early_look_points": 2},
        [pitch("A", "A", "A", None, "A", penalties=[{"kind": "early_look", "side": "B"}])],
        [["A penalty 2 early_look", "A high 1", "A low 1", "A game 1"]],
        {"A": 5, "B": 0},
    ),
    Case(
        "Lancashire (low captured): the side recorded for low is credited",
        "lancashire",
        [pitch("B", "A", "B", None, {"A": 40, "B": 20})],
        [["A high 1", "B low 1", "A game 1 40-20"]],
        {"A": 2, "B": 1},
    ),
    Case(
        "low captured overridden in Trinidad",
        {"preset": "trinidad", "low": "captured"},
        [stand("A", "4H", "A", "B", None, "A")],
        [["A high 1", "B low 1", "A game 1"]],
        {"A": 2, "B": 1},
    ),
    Case(
        "West Yorkshire, six players in three pairs",
        "west_yorkshire",
        [pitch("C", "A", "B", jack("C", "C"), {"A": 20, "B": 20, "C": 30})],
        [["A high 1", "B low 1", "C jack 1", "C game 1 20-20-30"]],
        {"A": 1, "B": 1, "C": 2},
        sides=("A", "B", "C"),
        next_dealer="A",
    ),
    Case(
        "West Yorkshire, two players play to 9",
        {"preset": "west_yorkshire", "players": 1},
        [pitch("A", "A", "A", jack(None, "A"), "A")],
        [["A high 1", "A low 1", "A jack 1", "A game 1 x"]],
        {"A": 9, "B": 0},
        winner="A",
        decided_by=(1, "jack"),
        start={"A": 6, "B": 0},
    ),
    Case(
        "blind, five single players",
        "blind",
        [pitch("E", "C", "D", jack(None, "A"), "B")],
        [["C high 1", "D low 1", "A jack 1", "B game 1"]],
        {"A": 1, "B": 1, "C": 1, "D": 1, "E": 0},
        sides=("A", "B", "C", "D", "E"),
        next_dealer="A",
    ),
    Case(
        "All Fives: captures in trick order, a win mid-hand",
        "all_fives",
        [
            {
                "dealer": "A",
                "turn_ups": ["3H"],
                "captures": [
                    {"card": "5H", "side": "B"},
                    {"card": "TH", "side": "A"},
                    {"card": "AH", "side": "B"},
                ],
            }
        ],
        [["B capture 5 5H", "A capture 10 10H", "B capture 4 AH x"]],
        {"A": 61, "B": 55},
        winner="A",
        decided_by=(1, "capture"),
        start={"A": 51, "B": 50},
        trumps=["H"],
    ),
    Case(
        "All Fives three-handed, kick on the jack, king 2 by override",
        {
            "preset": "all_fives",
            "capture_values": {"10": 10, "5": 5, "A": 4, "K": 2, "Q": 2, "J": 1},
        },
        [
            {
                "dealer": "B",
                "turn_ups": ["JS"],
                "captures": [{"card": "KS", "side": "C"}, {"card": "QS", "side": "A"}],
            }
        ],
        [["B kick 1 JS", "C capture 2 KS", "A capture 2 QS"]],
        {"A": 2, "B": 1, "C": 2},
        sides=("A", "B", "C"),
    ),
    Case(
        "target overridden to 11",
        {"preset": "trinidad", "target": 11},
        [stand("A", "4H", "A", "A", None, "A")],
        [["A high 1", "A low 1 x", "A game 1 x"]],
        {"A": 11, "B": 0},
        winner="A",
        decided_by=(1, "high"),
        start={"A": 10, "B": 0},
    ),
    Case(
        "two-player Trinidad (one player per side)",
        {"preset": "trinidad", "players": 1},
        [
            {
                "dealer": "A",
                "turn_ups": ["4H", "5H", "6H", "7H", "8H", "9D"],
                "beg": "run",
                "high": "A",
                "low": "B",
                "jack": None,
                "game": "A",
            }
        ],
        [["A kick 2 6H", "A high 1", "B low 1", "A game 1"]],
        {"A": 4, "B": 1},
    ),
]


def won_first(
    id: str,
    hand: dict[str, Any],
    shown: list[str],
    start: tuple[int, int],
    end: tuple[int, int],
    spec: Any = "trinidad",
    category: str = "kick",
) -> Case:
    """A one-hand game won in hand 1 by `category`, from `start` to `end` (sides A, B)."""
    winner = "A" if end[0] > end[1] else "B"
    return Case(
        id,
        spec,
        [hand],
        [shown],
        dict(zip("AB", end, strict=True)),
        winner=winner,
        decided_by=(1, category),
        start=dict(zip("AB", start, strict=True)),
    )


#: A kick (or a gift) can win a game before a card is played (docs/rules.md section 3): the hand
#: needs no high, low, jack or game, and any given anyway are listed as not counted.
A_JS = {"dealer": "A", "turn_ups": ["JS"]}
KICK_WINS = [
    won_first("a turned jack wins at the deal: no play facts", A_JS, ["A kick 3 JS"], (12, 3),
              (15, 3)),
    won_first("a kick win with the play facts null (not recorded)",
              {"dealer": "B", "turn_ups": ["AH"], "high": None, "low": None, "jack": None,
               "game": None}, ["B kick 1 AH"], (5, 13), (5, 14)),
    won_first("play facts given anyway after a kick won are shown, not counted",
              stand("A", "JS", "B", "B", None, {"A": 20, "B": 40}),
              ["A kick 3 JS", "B high 1 x", "B low 1 x", "B game 1 20-40 x"], (11, 12), (14, 12)),
    won_first("only high tapped after a kick won: accepted without low or game",
              {**A_JS, "high": "B"}, ["A kick 3 JS", "B high 1 x"], (11, 12), (14, 12)),
    won_first("the jack alone after a kick won (high not recorded)",
              {"dealer": "A", "turn_ups": ["6S"], "jack": jack("B", "A")},
              ["A kick 2 6S", "A hang_jack 3 x"], (12, 0), (14, 0)),
    won_first("kicks while running the pack win at the second card",
              {"dealer": "A", "turn_ups": ["AS", "6S", "4D"], "beg": "run"},
              ["A kick 1 AS", "A kick 2 6S"], (11, 0), (14, 0)),
    won_first("a gift that reaches the target (no_gift_to_win off) wins at the beg",
              {"dealer": "A", "turn_ups": ["4H"], "beg": "take_one"}, ["B gift 1"], (2, 6), (2, 7),
              {"preset": "seven_up", "no_gift_to_win": False}, "gift"),
    won_first("a pitch game has no kick: play facts as usual near the target",
              pitch("A", "A", "A", None, "B"), ["A high 1", "A low 1 x", "B game 1 x"], (10, 0),
              (11, 0), "west_yorkshire", "high"),
]  # fmt: skip
CASES += KICK_WINS


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_scoring(case: Case) -> None:
    result = play(case.spec, case.hands, case.sides, case.start)
    assert awards(result) == case.awards
    assert result.scores == case.scores
    assert list(result.scores) == list(case.sides)
    assert result.winner == case.winner
    if case.decided_by is None:
        assert result.decided_by is None
    else:
        assert result.decided_by is not None
        assert (result.decided_by.hand, result.decided_by.category) == case.decided_by
    if case.next_dealer is not None:
        assert result.next_dealer == case.next_dealer
    if case.trumps:
        assert [hand.trump for hand in result.hands] == case.trumps
    assert result.hands[-1].scores == case.scores


def test_next_dealer_follows_play_order() -> None:
    hand = {"dealer": "A", "turn_ups": ["4H"], "high": None, "low": None, "game": "tie"}
    assert play("seven_up", [], ("A", "B", "C")).next_dealer is None
    assert play("seven_up", [hand], ("A", "B", "C")).next_dealer == "B"
    assert play("seven_up", [{**hand, "dealer": "C"}], ("A", "B", "C")).next_dealer == "A"


#: B takes high, low, the jack (A's: a hang jack in Trinidad) and game: all fours.
ALL_FOURS_TO_B = {
    "dealer": "A",
    "turn_ups": ["4H"],
    "high": "B",
    "low": "B",
    "jack": {"held_by": "A", "won_by": "B"},
    "game": "B",
}


def test_all_fours_statistic_counts_even_uncounted_awards() -> None:
    hand = ALL_FOURS_TO_B
    result = play("trinidad", [hand], scores={"A": 0, "B": 12})
    assert result.hands[0].all_fours == "B"
    assert result.winner == "B"
    assert result.decided_by is not None and result.decided_by.category == Category.LOW
    no_jack = play("trinidad", [{**hand, "jack": None}])
    assert no_jack.hands[0].all_fours is None


def test_a_side_whose_renege_forfeited_game_took_no_all_fours() -> None:
    """A renege: the offending side cannot score game this hand (section 5), so its high, low
    and jack with the most card points are not all fours; the other side's renege takes
    nothing from it."""
    hand = {**ALL_FOURS_TO_B, "game": {"A": 10, "B": 30}}
    reneged = play("trinidad", [{**hand, "penalties": [{"kind": "renege", "side": "B"}]}])
    assert [str(a.category) for a in reneged.hands[0].awards][-1] == "game"
    assert reneged.hands[0].awards[-1].counted is False
    assert reneged.hands[0].all_fours is None
    other = play("trinidad", [{**hand, "penalties": [{"kind": "renege", "side": "A"}]}])
    assert other.hands[0].all_fours == "B"


def test_running_totals_carry_across_hands_and_to_json_matches_section_7() -> None:
    hands = [
        {"dealer": "A", "turn_ups": ["JH"], "high": "B", "low": "A", "game": {"A": 19, "B": 27}},
        {"dealer": "B", "outcome": "misdeal"},
    ]
    result = play("trinidad", hands)
    assert [hand.scores for hand in result.hands] == [{"A": 4, "B": 2}, {"A": 5, "B": 2}]
    assert result.to_json() == {
        "hands": [
            {
                "number": 1,
                "trump": "H",
                "awards": [
                    {"side": "A", "category": "kick", "points": 3, "detail": "JH", "counted": True},
                    {"side": "B", "category": "high", "points": 1, "detail": None, "counted": True},
                    {"side": "A", "category": "low", "points": 1, "detail": None, "counted": True},
                    {
                        "side": "B",
                        "category": "game",
                        "points": 1,
                        "detail": "19-27",
                        "counted": True,
                    },
                ],
                "scores": {"A": 4, "B": 2},
            },
            {
                "number": 2,
                "trump": None,
                "awards": [
                    {
                        "side": "A",
                        "category": "penalty",
                        "points": 1,
                        "detail": "misdeal",
                        "counted": True,
                    }
                ],
                "scores": {"A": 5, "B": 2},
            },
        ],
        "scores": {"A": 5, "B": 2},
        "winner": None,
        "decided_by": None,
    }


def test_invalid_facts_str_and_attributes() -> None:
    with pytest.raises(InvalidFacts) as caught:
        play("trinidad", [{"dealer": "A", "outcome": "misdeal"}, {"dealer": "Q"}])
    exc = caught.value
    assert (exc.hand, exc.fact) == (2, "dealer")
    assert str(exc) == f"hand 2: {exc.message}"
    assert isinstance(exc, ValueError)
