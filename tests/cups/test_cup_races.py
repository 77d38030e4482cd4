"""Two cup decisions at the same moment: the second waits for the first's row lock and then sees
everything the first wrote, never the tie as it was when it began waiting."""

from __future__ import annotations

from cups.models import Tie
from cups.services.draws import draw_make
from cups.services.ties import tie_walkover
from tests.cups.helpers import cup_world, pairs_cup
from tests.races import (
    both_finish,
    holding_the_locks,
    meanwhile,
    race,
)

pytestmark = race


def test_both_semi_finals_decided_at_once_put_both_winners_in_the_final_and_start_it():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=5, by=world.users["secretary"])
    semi_1, semi_2 = cup.ties.filter(round__number=1).order_by("position")
    secretary = world.users["secretary"]

    release, first = holding_the_locks(
        lambda: tie_walkover(tie=semi_1, to="home", reason="Conceded", by=secretary)
    )
    second, outcome = meanwhile(
        lambda: tie_walkover(tie=semi_2, to="away", reason="Conceded", by=secretary)
    )
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    final = cup.ties.get(round__number=2)
    assert (final.home_id, final.away_id) == (semi_1.home_id, semi_2.away_id)
    assert final.status == Tie.Status.SCHEDULED
    assert final.games.count() == 1
