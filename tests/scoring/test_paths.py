"""A game's addresses worked out once per process are the addresses `reverse` gives."""

import pytest
from django.urls import clear_script_prefix, reverse, set_script_prefix

from scoring.paths import game_path

ONE_NUMBER = ("game", "hand_record", "hand_undo", "game_audit", "game_replay", "game_abandon")


@pytest.mark.parametrize("prefix", ["/", "/league/"])
@pytest.mark.parametrize("pk", [1, 7, 123456789])
def test_a_games_paths_are_what_reverse_gives(prefix, pk):
    set_script_prefix(prefix)
    try:
        for name in ONE_NUMBER:
            assert game_path(f"scoring:{name}", pk) == reverse(f"scoring:{name}", args=[pk])
        for number in (1, 10, 60):
            assert game_path("scoring:hand_correct", pk, number) == reverse(
                "scoring:hand_correct", args=[pk, number]
            )
    finally:
        clear_script_prefix()
