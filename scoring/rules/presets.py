"""The ten presets of docs/rules.md section 6, in that table's order."""

from __future__ import annotations

from dataclasses import replace

from .ruleset import Ruleset

_FIVES = {"10": 10, "5": 5, "A": 4, "K": 3, "Q": 2, "J": 1}

TRINIDAD = Ruleset(
    name="trinidad",
    label="Trinidad",
    summary="Partnerships to 14; kicks A 1, 6 2, J 3 on every card turned; hang jack 3.",
    trumps="turn_up",
    target=14,
    players=2,
    player_options={2: (2,), 1: (2,)},
    target_by_players={},
    kick_values={"A": 1, "6": 2, "J": 3},
    kicks_on="every",
    begging=True,
    gift_points=1,
    gift_ends_hand=False,
    no_gift_to_win=True,
    hang_jack_points=3,
    low="held",
    game_tie="nobody",
    game_point_value=1,
    captures=False,
    capture_values=_FIVES,
    renege_points=1,
    under_trump_points=1,
    misdeal_points=1,
    early_look_points=4,
)

TOBAGO = replace(
    TRINIDAD,
    name="tobago",
    label="Tobago",
    summary="As Trinidad, but the two turned up scores 2 instead of the six.",
    kick_values={"A": 1, "2": 2, "J": 3},
)

WEST_YORKSHIRE = Ruleset(
    name="west_yorkshire",
    label="West Yorkshire",
    summary="Pub league partnerships to 11; trumps by the pitch; no kicks, no begging.",
    trumps="pitch",
    target=11,
    players=2,
    player_options={2: (2, 3), 1: (2,)},
    target_by_players={2: 11, 1: 9},
    kick_values={},
    kicks_on="every",
    begging=False,
    gift_points=1,
    gift_ends_hand=False,
    no_gift_to_win=True,
    hang_jack_points=None,
    low="held",
    game_tie="nobody",
    game_point_value=1,
    captures=False,
    capture_values=_FIVES,
    renege_points=1,
    under_trump_points=1,
    misdeal_points=1,
    early_look_points=4,
)

LANCASHIRE = replace(
    WEST_YORKSHIRE,
    name="lancashire",
    label="Lancashire",
    summary="As West Yorkshire, but low goes to the side that captured it.",
    low="captured",
)

SEVEN_UP = Ruleset(
    name="seven_up",
    label="Seven Up",
    summary="Two or three players to 7; the turned jack scores 1; ties for game to the non-dealer.",
    trumps="turn_up",
    target=7,
    players=1,
    player_options={1: (2, 3)},
    target_by_players={},
    kick_values={"J": 1},
    kicks_on="trump_setting",
    begging=True,
    gift_points=1,
    gift_ends_hand=False,
    no_gift_to_win=True,
    hang_jack_points=None,
    low="held",
    game_tie="non_dealer",
    game_point_value=1,
    captures=False,
    capture_values=_FIVES,
    renege_points=1,
    under_trump_points=1,
    misdeal_points=1,
    early_look_points=4,
)

GERMAN_TWO_PLAYER = replace(
    SEVEN_UP,
    name="german_two_player",
    label="German two-player",
    summary="Two players to 7; every jack turned scores 1; ties for game to Vorhand.",
    player_options={1: (2,)},
    kicks_on="every",
)

ORIGINAL = replace(
    SEVEN_UP,
    name="original",
    label="Original (Cotton 1674)",
    summary="Two players to 11; take one gives a point and the same dealer deals again.",
    target=11,
    player_options={1: (2,)},
    gift_ends_hand=True,
)

RUNNING = replace(
    SEVEN_UP,
    name="running",
    label="Running All Fours",
    summary="Two or three players to 31; turned A 4, K 3, Q 2, J 1.",
    target=31,
    kick_values={"A": 4, "K": 3, "Q": 2, "J": 1},
)

ALL_FIVES = replace(
    SEVEN_UP,
    name="all_fives",
    label="All Fives",
    summary="Two or three players to 61; trumps score as captured: 10, 5, A 4, K 3, Q 2, J 1.",
    target=61,
    captures=True,
)

BLIND = replace(
    WEST_YORKSHIRE,
    name="blind",
    label="Blind All Fours",
    summary="Two or more players to 7; trumps by the first card led; pairs when even.",
    target=7,
    players=1,
    player_options={1: (2, 3, 5, 7), 2: (2, 3, 4)},
    target_by_players={},
)

PRESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset
    for ruleset in (
        TRINIDAD,
        TOBAGO,
        WEST_YORKSHIRE,
        LANCASHIRE,
        SEVEN_UP,
        GERMAN_TWO_PLAYER,
        ORIGINAL,
        RUNNING,
        ALL_FIVES,
        BLIND,
    )
}
