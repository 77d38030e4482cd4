"""Migration 0008, run over hands stored before it: a hand stored as the all fours of a side
whose renege forfeited the game point is one no longer, and the pairs' figures of its fixture
are stored again (``rebuild_standings --missing``) without it."""

from leagues.models import PairFigures
from leagues.services.standings import rebuild_tables
from scoring.models import Hand
from tests.leagues.test_access import build

BEFORE = [("scoring", "0007_scoring_link_replaces")]
AFTER = [("scoring", "0008_no_all_fours_for_a_renege")]


def _all_fours(fixture: int, side: str) -> int:
    return PairFigures.objects.get(fixture=fixture, side=side).all_fours


def test_a_hand_stored_as_all_fours_its_renege_forfeited_is_one_no_longer(migrate_to):
    migrate_to(BEFORE)
    world = build(played=True)  # the home pair (A) won, taking all four in its last hands
    fixture = world.fixture.pk
    taken = Hand.objects.filter(game__league_game__table__fixture=fixture, all_fours="A")
    before = _all_fours(fixture, "A")
    assert before >= 2
    # As the engine stored it before: A reneged in one of them, and kept its all fours.
    reneged = taken.first()
    reneged.facts = {**reneged.facts, "penalties": [{"kind": "renege", "side": "A"}]}
    reneged.save(update_fields=["facts"])
    # B's renege takes nothing from A's all fours.
    other = taken.last()
    other.facts = {**other.facts, "penalties": [{"kind": "renege", "side": "B"}]}
    other.save(update_fields=["facts"])

    migrate_to(AFTER)
    assert Hand.objects.get(pk=reneged.pk).all_fours == ""
    assert Hand.objects.get(pk=other.pk).all_fours == "A"
    assert not PairFigures.objects.filter(fixture=fixture).exists()
    rebuild_tables(missing=True)
    assert _all_fours(fixture, "A") == before - 1
