"""The winner line of a won game: who did what that took the winner to the target. A penalty
that decides is the offending side's doing, and a game point a renege forfeited is not among
the awards that came too late (it never could have counted)."""

from __future__ import annotations

import pytest

from tests.factories.scoring import GameFactory, record_hands
from tests.scoring.test_kick_win import banner_text

pytestmark = pytest.mark.django_db


def test_a_renege_that_decides_names_the_side_that_reneged(client):
    """West Yorkshire at 10–10: Black Bull A renege holding high, low, jack and game."""
    game = GameFactory(
        west_yorkshire=True,
        side_names=("Woolpack", "Black Bull A"),
        start_scores={"A": 10, "B": 10},
    )
    record_hands(
        game,
        [{"dealer": "A", "high": "B", "low": "B", "jack": {"won_by": "B"}, "game": "B",
          "penalties": [{"kind": "renege", "side": "B"}]}],
    )  # fmt: skip
    page = client.get(game.get_absolute_url()).content.decode()
    banner = banner_text(page)
    assert (
        "won 11–10 on hand 1 with penalty: Black Bull A's renege gave Woolpack the "
        "point that took them to 11, before Black Bull A's high, low and jack could count"
    ) in banner
    assert "forfeited" not in banner
    assert "Woolpack's penalty" not in banner


def test_a_renege_holding_a_top_trump_names_the_side_that_reneged(client):
    game = GameFactory(side_names=("Maraval", "St James"), start_scores={"A": 11, "B": 5})
    record_hands(
        game,
        [{"dealer": "A", "turn_ups": ["4H"], "high": "B", "low": "A", "jack": None,
          "game": "B", "penalties": [{"kind": "renege_top_trump", "side": "B"}]}],
    )  # fmt: skip
    banner = banner_text(client.get(game.get_absolute_url()).content.decode())
    assert (
        "St James' renege holding a top trump gave Maraval the 3 points that took them to 14"
    ) in banner
    assert "Maraval's penalty" not in banner


def test_a_high_that_decides_still_reads_as_the_winners(client):
    game = GameFactory(start_scores={"A": 13, "B": 13})
    record_hands(
        game,
        [{"dealer": "A", "turn_ups": ["4H"], "high": "A", "low": "B", "jack": None,
          "game": "B"}],
    )  # fmt: skip
    banner = banner_text(client.get(game.get_absolute_url()).content.decode())
    assert "Smith & Jones' high took them to 14, before Patel & Brown's low and game" in (banner)
