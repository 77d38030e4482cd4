"""A correction from a phone whose sheet is behind the game: the other phone at the table recorded
hands since this one loaded, so the light reply (the corrected row, the later rows' totals)
would leave those hands off its sheet: the whole game is the answer."""

from __future__ import annotations

import pytest

from tests.scoring.test_correct_in_place import HTMX, correct_url, flip_high, short_game

pytestmark = pytest.mark.django_db

__all__ = ["short_game"]  # the fixture, as test_correct_in_place.py makes it


def test_a_correction_from_a_sheet_behind_the_game_answers_with_the_whole_game(client, short_game):
    """The phone's sheet stops at hand 4 (scoring.js says so in `sheet_hands`) while the game
    has 6: the light reply would move the totals of rows it has and leave hands 5 and 6 out,
    so the answer is the whole game. A sheet with every hand still gets the light reply."""
    data = flip_high(short_game.hands.get(number=2))
    behind = client.post(correct_url(short_game, 2), data | {"sheet_hands": "4"}, **HTMX)
    assert behind.status_code == 200
    assert behind["HX-Retarget"] == "#game"
    assert 'id="hand-6"' in behind.content.decode()

    data = flip_high(short_game.hands.get(number=2))
    level = client.post(correct_url(short_game, 2), data | {"sheet_hands": "6"}, **HTMX)
    assert level.status_code == 200
    assert "HX-Retarget" not in level
