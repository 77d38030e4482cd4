"""How a tie's decision reads after the winner's name, on the bracket and the tie's page."""

import pytest

from cups.models import Tie
from cups.services.ties import SETTLED


@pytest.mark.parametrize(
    ("decided_by", "winner", "words"),
    [
        ("", "home", ""),
        ("walkover", "away", ""),
        (SETTLED, "home", "settled by the secretary"),
        (SETTLED, "", "settled by the secretary"),
        ("pegs", "home", "on pegs"),
        ("pegs", "", "pegs"),
    ],
)
def test_a_ties_decision_in_words(decided_by, winner, words):
    tie = Tie(decided_by=decided_by, winner=winner)
    assert tie.decided_words == words
    assert "on settled" not in tie.decided_words
