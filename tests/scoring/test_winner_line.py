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
        "won 11–10 on hand 1 on a penalty: Black Bull A's renege gave Woolpack the "
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


def test_a_game_won_on_the_gift_says_so_as_a_player_would(client):
    """Seven Up with no_gift_to_win off, Bob on 6: Ann deals, Bob begs and Ann says "take one".
    The banner read "Bob won 7–0 on hand 1 with gift: Bob's gift took them to 7"; a player
    says the game was won on the gift, and the sheet says Bob "took one"."""
    game = GameFactory(seven_up=True, overrides={"no_gift_to_win": False}, start_scores={"B": 6})
    record_hands(game, [{"dealer": "A", "turn_ups": ["4H"], "beg": "take_one"}])
    banner = banner_text(client.get(game.get_absolute_url()).content.decode())
    assert (
        "Bob won 7–0 on hand 1 on the gift: Bob took one, the point that took them to 7 "
        "before a card was played."
    ) in banner
    assert "gift:" in banner and "with gift" not in banner and "Bob's gift" not in banner


def test_three_handed_the_gift_given_and_the_one_too_late_are_said_as_on_the_sheet(client):
    """Three players, Ann deals: Bob begs and takes one, and Cy is given one too, in play
    order. Cy on 6 wins on the gift Ann gave; Bob on 6 wins on the one he took, before the
    one given to Cy could count (it read "before Cy's gift could count")."""
    names = {"side_names": ("Ann", "Bob", "Cy"), "players": (("Ann",), ("Bob",), ("Cy",))}
    take_one = [{"dealer": "A", "turn_ups": ["4H"], "beg": "take_one"}]
    no_gift_to_win = {"no_gift_to_win": False}
    cy = GameFactory(seven_up=True, overrides=no_gift_to_win, start_scores={"C": 6}, **names)
    record_hands(cy, take_one)
    assert (
        "Cy won 7–0–1 on hand 1 on the gift: Ann gave Cy one, the point that took them to 7 "
        "before a card was played."
    ) in banner_text(client.get(cy.get_absolute_url()).content.decode())

    bob = GameFactory(
        seven_up=True, overrides=no_gift_to_win, start_scores={"B": 6, "C": 6}, **names
    )
    record_hands(bob, take_one)
    banner = banner_text(client.get(bob.get_absolute_url()).content.decode())
    assert (
        "Bob won 7–0–6 on hand 1 on the gift: Bob took one, the point that took them to 7 "
        "before a card was played, before the one given to Cy could count (strict order: "
    ) in banner
    assert "Cy's gift" not in banner


def test_a_kick_that_wins_before_the_beg_names_the_one_too_late_as_taken(client):
    """Trinidad at 13: Smith & Jones deal and turn up the jack (3), and the hand was recorded
    as a take one: the point Patel & Brown took came too late ("before Patel & Brown's gift
    could count")."""
    game = GameFactory(start_scores={"A": 13})
    record_hands(game, [{"dealer": "A", "turn_ups": ["JH"], "beg": "take_one"}])
    banner = banner_text(client.get(game.get_absolute_url()).content.decode())
    assert (
        "Smith & Jones won 16–0 on hand 1 on the kick: Smith & Jones' kick J♥ took them to 16 "
        "before a card was played, before the one Patel & Brown took could count"
    ) in banner
    assert "gift could count" not in banner
