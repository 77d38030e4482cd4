"""Presets and ruleset options: values, overrides, specs, and refusals of bad rulesets."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest

from scoring.rules import OPTIONS, PRESETS, InvalidFacts, Ruleset, ruleset_from_spec


def test_presets_are_the_ten_of_the_rules_table_in_order() -> None:
    assert list(PRESETS) == [
        "trinidad",
        "tobago",
        "west_yorkshire",
        "lancashire",
        "seven_up",
        "german_two_player",
        "original",
        "running",
        "all_fives",
        "blind",
    ]
    for name, ruleset in PRESETS.items():
        assert ruleset.name == name
        assert ruleset.label


# preset, trumps, target, players per side, kicks, kicks_on, begging, hang jack, low, game tie
PRESET_TABLE = [
    ("trinidad", "turn_up", 14, 2, {"A": 1, "6": 2, "J": 3}, "every", True, 3, "held", "nobody"),
    ("tobago", "turn_up", 14, 2, {"A": 1, "2": 2, "J": 3}, "every", True, 3, "held", "nobody"),
    ("west_yorkshire", "pitch", 11, 2, {}, "every", False, None, "held", "nobody"),
    ("lancashire", "pitch", 11, 2, {}, "every", False, None, "captured", "nobody"),
    ("seven_up", "turn_up", 7, 1, {"J": 1}, "trump_setting", True, None, "held", "non_dealer"),
    ("german_two_player", "turn_up", 7, 1, {"J": 1}, "every", True, None, "held", "non_dealer"),
    ("original", "turn_up", 11, 1, {"J": 1}, "trump_setting", True, None, "held", "non_dealer"),
    (
        "running",
        "turn_up",
        31,
        1,
        {"A": 4, "K": 3, "Q": 2, "J": 1},
        "trump_setting",
        True,
        None,
        "held",
        "non_dealer",
    ),
    ("all_fives", "turn_up", 61, 1, {"J": 1}, "trump_setting", True, None, "held", "non_dealer"),
    ("blind", "pitch", 7, 1, {}, "every", False, None, "held", "nobody"),
]


@pytest.mark.parametrize(
    ("name", "trumps", "target", "players", "kicks", "kicks_on", "begging", "hang", "low", "tie"),
    PRESET_TABLE,
    ids=[row[0] for row in PRESET_TABLE],
)
def test_preset_values(
    name: str,
    trumps: str,
    target: int,
    players: int,
    kicks: dict[str, int],
    kicks_on: str,
    begging: bool,
    hang: int | None,
    low: str,
    tie: str,
) -> None:
    """Each preset carries the values of docs/rules.md section 6."""
    ruleset = PRESETS[name]
    assert ruleset.trumps == trumps
    assert ruleset.target == target
    assert ruleset.players == players
    assert ruleset.kick_values == kicks
    assert ruleset.begging is begging
    assert ruleset.hang_jack_points == hang
    assert ruleset.low == low
    assert ruleset.game_tie == tie
    assert ruleset.no_gift_to_win is True
    assert ruleset.game_point_value == 1
    if begging:
        assert ruleset.kicks_on == kicks_on
    assert ruleset.gift_ends_hand is (name == "original")
    assert ruleset.captures is (name == "all_fives")


def test_all_fives_capture_values_default_king_three() -> None:
    assert PRESETS["all_fives"].capture_values == {
        "10": 10,
        "5": 5,
        "A": 4,
        "K": 3,
        "Q": 2,
        "J": 1,
    }


@pytest.mark.parametrize("name", list(PRESETS), ids=list(PRESETS))
def test_preset_spec_round_trip(name: str) -> None:
    ruleset = PRESETS[name]
    assert ruleset.to_spec() == {"preset": name}
    assert ruleset_from_spec(name) is ruleset
    assert ruleset_from_spec({"preset": name}) == ruleset


# option, a new value, the value as read back
OVERRIDES: list[tuple[str, Any, Any]] = [
    ("target", 11, 11),
    ("players", 1, 1),
    ("game_point_value", 2, 2),
    ("hang_jack_points", 6, 6),
    ("hang_jack_points", None, None),
    ("low", "captured", "captured"),
    ("game_tie", "non_dealer", "non_dealer"),
    ("kick_values", {"J": 1, "T": 2}, {"J": 1, "10": 2}),
    ("kicks_on", "trump_setting", "trump_setting"),
    ("gift_points", 2, 2),
    ("gift_ends_hand", True, True),
    ("no_gift_to_win", False, False),
    ("renege_points", 2, 2),
    ("under_trump_points", 0, 0),
    ("misdeal_points", 3, 3),
    ("early_look_points", 2, 2),
    ("capture_values", {"10": 10, "5": 5, "A": 4, "K": 2, "Q": 2, "J": 1}, None),
]


@pytest.mark.parametrize(
    ("option", "value", "read_back"),
    OVERRIDES,
    ids=[f"{row[0]}={row[1]!r}" for row in OVERRIDES],
)
def test_every_option_overrides_and_round_trips(option: str, value: Any, read_back: Any) -> None:
    """An override makes a new value; its spec names only the overridden option."""
    base = PRESETS["trinidad"]
    ruleset = ruleset_from_spec({"preset": "trinidad", option: value})
    expected = value if read_back is None else read_back
    assert getattr(ruleset, option) == expected
    assert getattr(base, option) != expected
    assert ruleset.name == "trinidad" and ruleset.label == "Trinidad"
    spec = ruleset.to_spec()
    assert set(spec) == {"preset", option}
    assert ruleset_from_spec(json.loads(json.dumps(spec))) == ruleset
    assert ruleset.with_options(**{option: value}) == ruleset
    assert dataclasses.replace(base, **{option: value}) == ruleset


def test_every_option_is_in_the_override_table() -> None:
    assert {row[0] for row in OVERRIDES} == set(OPTIONS)


def test_rulesets_are_frozen_hashable_values() -> None:
    ruleset = PRESETS["trinidad"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.target = 11  # type: ignore[misc]
    with pytest.raises(TypeError):
        ruleset.kick_values["J"] = 4  # type: ignore[index]
    assert hash(ruleset) == hash(ruleset_from_spec("trinidad"))
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset
    assert copy.deepcopy(ruleset) == ruleset
    assert ruleset.with_options(target=11) != ruleset
    assert isinstance(ruleset, Ruleset)


def test_west_yorkshire_two_players_play_to_nine() -> None:
    """Changing players moves a target that the variant ties to it, unless it is given."""
    two = ruleset_from_spec({"preset": "west_yorkshire", "players": 1})
    assert two.target == 9
    assert two.to_spec() == {"preset": "west_yorkshire", "players": 1}
    assert two.with_options(players=2).target == 11
    explicit = ruleset_from_spec({"preset": "west_yorkshire", "players": 1, "target": 11})
    assert explicit.target == 11
    assert explicit.to_spec() == {"preset": "west_yorkshire", "players": 1, "target": 11}
    assert ruleset_from_spec(explicit.to_spec()) == explicit
    custom = PRESETS["west_yorkshire"].with_options(target=15).with_options(players=1)
    assert custom.target == 15


BAD_SPECS: list[tuple[str, Any, str]] = [
    ("unknown preset", "bridge", "unknown ruleset 'bridge'"),
    ("unknown preset in mapping", {"preset": "euchre"}, "unknown ruleset 'euchre'"),
    ("no preset", {"target": 11}, 'needs a "preset"'),
    ("not a spec", 7, "preset name"),
    ("unknown option", {"preset": "trinidad", "trumps": "pitch"}, "unknown ruleset option"),
    ("target zero", {"preset": "trinidad", "target": 0}, "target must be a whole number"),
    ("target text", {"preset": "trinidad", "target": "14"}, "target must be a whole number"),
    ("target bool", {"preset": "trinidad", "target": True}, "target must be a whole number"),
    ("players three", {"preset": "trinidad", "players": 3}, "players (per side) must be one of"),
    (
        "german partnerships",
        {"preset": "german_two_player", "players": 2},
        "players (per side) must be one of 1",
    ),
    ("low", {"preset": "trinidad", "low": "lowest"}, "low must be one of held, captured"),
    ("game tie", {"preset": "trinidad", "game_tie": "dealer"}, "game_tie must be one of"),
    ("kicks_on", {"preset": "trinidad", "kicks_on": "some"}, "kicks_on must be one of"),
    ("kick rank", {"preset": "trinidad", "kick_values": {"X": 1}}, "'X' is not a card rank"),
    ("kick points", {"preset": "trinidad", "kick_values": {"J": -1}}, "kick_values['J']"),
    ("kick list", {"preset": "trinidad", "kick_values": ["J"]}, "kick_values must map"),
    ("hang jack zero", {"preset": "trinidad", "hang_jack_points": 0}, "hang_jack_points"),
    ("gift flag", {"preset": "trinidad", "gift_ends_hand": "yes"}, "must be true or false"),
    ("game point", {"preset": "trinidad", "game_point_value": 0}, "game_point_value"),
    ("penalty", {"preset": "trinidad", "renege_points": -1}, "renege_points"),
    ("capture", {"preset": "all_fives", "capture_values": {"K": 2.5}}, "capture_values['K']"),
]


@pytest.mark.parametrize(
    ("spec", "fragment"), [row[1:] for row in BAD_SPECS], ids=[row[0] for row in BAD_SPECS]
)
def test_bad_rulesets_are_refused(spec: Any, fragment: str) -> None:
    with pytest.raises(InvalidFacts) as caught:
        ruleset_from_spec(spec)
    assert caught.value.hand is None
    assert caught.value.fact == "ruleset"
    assert fragment in caught.value.message
    assert str(caught.value) == caught.value.message
