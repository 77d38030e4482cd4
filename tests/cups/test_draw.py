"""The knock-out draw: exact small cases, every refusal, and properties for 2 to 300 entrants."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cups.draw import (
    DrawError,
    Slot,
    bracket_size,
    crossed_qualifiers,
    random_draw,
    round_name,
    seed_ladder,
    seeded_draw,
    snake_groups,
)

PROPERTIES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def field(n: int, clubs: int = 0) -> list[Slot]:
    return [Slot(key=i, club=(i % clubs if clubs else None), name=f"E{i}") for i in range(1, n + 1)]


def test_ladder_puts_top_seeds_apart():
    assert seed_ladder(2) == (1, 2)
    assert seed_ladder(4) == (1, 4, 2, 3)
    assert seed_ladder(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    with pytest.raises(DrawError, match="power of two"):
        seed_ladder(6)


def test_six_entrants_give_the_top_two_seeds_byes():
    draw = seeded_draw(field(6))
    assert draw.size == 8 and draw.rounds == 3
    assert [(t.home, t.away) for t in draw.ties] == [(1, None), (4, 5), (2, None), (3, 6)]
    assert draw.byes == (1, 2)


def test_odd_bracket_without_byes_is_refused_with_the_sizes_that_would_work():
    with pytest.raises(DrawError, match="6 entrants do not fill a bracket without byes") as e:
        seeded_draw(field(6), byes=False)
    assert "4 or 8" in str(e.value)
    assert len(seeded_draw(field(8), byes=False).ties) == 4


def test_bad_fields_are_refused():
    with pytest.raises(DrawError, match="at least 2 entrants"):
        seeded_draw(field(1))
    with pytest.raises(DrawError, match="E1 is entered twice"):
        seeded_draw([Slot(1, name="E1"), Slot(1, name="E1")])
    with pytest.raises(DrawError, match="seed"):
        random_draw(field(4), seed=-1)


def test_round_names():
    assert [round_name(r, 4) for r in range(1, 5)] == [
        "Round 1",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]


def test_same_pub_kept_apart_by_taking_the_next_ranked_opponent():
    # Seeds 1 and 4 share a pub; 1 v 4 would be round one's first tie in a field of 4... it is
    # 1 v 4 and 2 v 3, so 4 swaps with 3.
    slots = [Slot(1, "red"), Slot(2, "blue"), Slot(3, "green"), Slot(4, "red")]
    draw = seeded_draw(slots, protect=True)
    assert [(t.home, t.away) for t in draw.ties] == [(1, 3), (2, 4)]
    assert draw.notes == ("2 round-one ties took the next-ranked opponent to keep clubs apart.",)
    plain = seeded_draw(slots)
    assert [(t.home, t.away) for t in plain.ties] == [(1, 4), (2, 3)]


def test_an_unavoidable_clash_is_named():
    slots = [Slot(i, "same", f"E{i}") for i in range(1, 5)]
    draw = seeded_draw(slots, protect=True)
    assert len(draw.ties) == 2
    assert any("could not be kept apart" in n for n in draw.notes)


def test_same_seed_same_draw_and_another_seed_another():
    one = random_draw(field(20), seed=12345)
    assert one == random_draw(field(20), seed=12345)
    assert one.seed == 12345
    assert any(random_draw(field(20), seed=s).ties != one.ties for s in range(1, 5))


@pytest.mark.parametrize(
    ("entrants", "groups", "message"),
    [
        (3, 2, "3 entrants cannot fill 2 groups of at least 2; use at most 1 group."),
        (7, 4, "7 entrants cannot fill 4 groups of at least 2; use at most 3 groups."),
    ],
)
def test_too_many_groups_are_refused_in_words(entrants, groups, message):
    with pytest.raises(DrawError) as refused:
        snake_groups(field(entrants), groups=groups)
    assert str(refused.value) == message


def test_snake_groups():
    assert snake_groups(field(8), groups=2) == ((1, 4, 5, 8), (2, 3, 6, 7))
    assert snake_groups(field(7), groups=3) == ((1, 6, 7), (2, 5), (3, 4))
    with pytest.raises(DrawError, match="use at most 3 groups"):
        snake_groups(field(7), groups=4)


def test_groups_cross_into_the_bracket():
    standings = [["A1", "A2"], ["B1", "B2"], ["C1", "C2"], ["D1", "D2"]]
    slots = crossed_qualifiers(standings, qualifiers=2)
    draw = seeded_draw(slots, protect=True)
    assert {(t.home, t.away) for t in draw.ties} == {
        ("A1", "B2"),
        ("D1", "C2"),
        ("B1", "A2"),
        ("C1", "D2"),
    }
    assert draw.notes == ()
    two = seeded_draw(crossed_qualifiers(standings[:2], qualifiers=2), protect=True)
    assert [(t.home, t.away) for t in two.ties] == [("A1", "B2"), ("B1", "A2")]
    with pytest.raises(DrawError, match="Group A has 2 entrants; 3 cannot go through"):
        crossed_qualifiers(standings, qualifiers=3)


@PROPERTIES
@given(
    n=st.integers(min_value=2, max_value=300),
    seed=st.integers(min_value=0, max_value=2**63),
    protect=st.booleans(),
    clubs=st.integers(min_value=0, max_value=40),
)
def test_every_draw_places_each_entrant_once_and_byes_go_to_the_top_seeds(n, seed, protect, clubs):
    slots = field(n, clubs)
    for draw in (
        seeded_draw(slots, protect=protect),
        random_draw(slots, seed=seed, protect=protect),
    ):
        size = bracket_size(n)
        assert size >= n > size // 2
        assert len(draw.ties) == size // 2
        placed = [k for t in draw.ties for k in (t.home, t.away) if k is not None]
        assert Counter(placed) == Counter(s.key for s in slots)
        # Byes only in round one (no tie is bye v bye, so round two is full), only to the top
        # seeds: exactly size - n byes, to seeds 1..size-n.
        assert sorted(t.home_seed for t in draw.ties if t.is_bye) == list(range(1, size - n + 1))
        for t in draw.ties:
            assert t.away_seed is None or t.home_seed < t.away_seed
        if protect and clubs >= 2:
            # With protection, a clash remains only when it could not be avoided, and is named.
            clashes = [
                t
                for t in draw.ties
                if t.away is not None and slots[t.home - 1].club == slots[t.away - 1].club
            ]
            assert len(clashes) == sum("could not be kept apart" in m for m in draw.notes)
            lowers = Counter(slots[t.away - 1].club for t in draw.ties if t.away is not None)
            uppers = Counter(slots[t.home - 1].club for t in draw.ties if t.away is not None)
            ties = sum(lowers.values())
            if all(lowers[c] + uppers[c] <= ties for c in set(lowers) | set(uppers)):
                assert clashes == []
    assert random_draw(slots, seed=seed, protect=protect) == random_draw(
        slots, seed=seed, protect=protect
    )


@PROPERTIES
@given(n=st.integers(min_value=2, max_value=300))
def test_seeds_one_and_two_meet_only_in_the_final(n):
    draw = seeded_draw(field(n))
    half = len(draw.ties) // 2 or 1
    top = {k for t in draw.ties[:half] for k in (t.home, t.away)}
    if n > 2:
        assert 1 in top and 2 not in top


@PROPERTIES
@given(groups=st.integers(min_value=1, max_value=16), per=st.integers(min_value=2, max_value=6))
def test_group_qualifiers_never_meet_their_own_group_in_round_one(groups, per):
    standings = [[f"{g}-{p}" for p in range(per)] for g in range(groups)]
    for q in range(1, per + 1):
        if groups * q < 2:
            continue
        draw = seeded_draw(crossed_qualifiers(standings, qualifiers=q), protect=True)
        if q <= 2 and groups >= 2:
            for t in draw.ties:
                if t.away is not None:
                    assert t.home.split("-")[0] != t.away.split("-")[0]
        winners = {f"{g}-0" for g in range(groups)}
        byes = set(draw.byes)
        assert byes <= winners or winners <= byes
