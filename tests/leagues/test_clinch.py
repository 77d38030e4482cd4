"""Who can still win it (``leagues.clinch``): hand-built end-of-season cases, and a property test
against brute-force enumeration of every combination of remaining results."""

from __future__ import annotations

from itertools import permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues import clinch
from leagues.clinch import Contender, outlook

#: Trinidad-style league points: 2 for a win, 1 each for a draw.
WIN_DRAW_LOSS = [(2, 0), (1, 1), (0, 2)]
#: Yorkshire-style: ten match points shared out.
TEN = [(h, 10 - h) for h in range(11)]


def places(result: dict, team: str) -> tuple[int, int]:
    return result[team].best, result[team].worst


def test_a_lead_no_one_can_catch_is_champions() -> None:
    teams = [Contender("A", 10), Contender("B", 5), Contender("C", 4), Contender("D", 1)]
    # Two fixtures each left for B: at most 4 more points, 9 < 10.
    result = outlook(teams, [("B", "C"), ("D", "B")], WIN_DRAW_LOSS)
    assert result["A"].champions
    assert places(result, "A") == (1, 1)
    assert not result["B"].champions
    assert places(result, "B") == (2, 3)


def test_a_lead_that_a_win_would_draw_level_is_not_champions() -> None:
    """B can reach A's 10 points; the tie-breaks are open while B still plays."""
    teams = [Contender("A", 10, settled=(30,)), Contender("B", 8), Contender("C", 0)]
    result = outlook(teams, [("B", "C")], WIN_DRAW_LOSS)
    assert not result["A"].champions
    assert places(result, "A") == (1, 2)
    assert places(result, "B") == (1, 2)


def test_level_on_points_with_tie_breaks_already_fixed_is_decided() -> None:
    """Both finished and level on points: games won (fixed) already part them."""
    teams = [
        Contender("A", 10, settled=(30,)),
        Contender("B", 10, settled=(28,)),
        Contender("C", 3),
        Contender("D", 2),
    ]
    result = outlook(teams, [("C", "D")], WIN_DRAW_LOSS)
    assert result["A"].champions
    assert places(result, "B") == (2, 2)


def test_level_with_head_to_head_still_open_is_not_decided() -> None:
    """Games won level, and the next tie-break (head-to-head) depends on who ends level."""
    teams = [
        Contender("A", 10, settled=(30,)),
        Contender("B", 10, settled=(30,)),
        Contender("C", 0),
        Contender("D", 0),
    ]
    result = outlook(teams, [("C", "D")], WIN_DRAW_LOSS, complete=False)
    assert not result["A"].champions
    assert places(result, "A") == places(result, "B") == (1, 2)
    # With every tie-break covered and equal, they share first place.
    shared = outlook(teams, [("C", "D")], WIN_DRAW_LOSS, complete=True)
    assert places(shared, "A") == places(shared, "B") == (1, 1)


def test_a_rival_with_a_better_figure_still_to_play_keeps_the_tie_open() -> None:
    """B can end level with A on points; B's games won can still change, so A is not champion
    even though A's figure is higher now."""
    teams = [Contender("A", 12, settled=(40,)), Contender("B", 10), Contender("C", 0)]
    result = outlook(teams, [("B", "C")], WIN_DRAW_LOSS)
    assert not result["A"].champions
    assert places(result, "B") == (1, 2)


def test_relegation_and_promotion_are_marked_once_certain() -> None:
    teams = [
        Contender("A", 20),
        Contender("B", 18),
        Contender("C", 9),
        Contender("D", 8),
        Contender("E", 2),
        Contender("F", 1),
    ]
    remaining = [("A", "F"), ("B", "E"), ("C", "D")]
    result = outlook(teams, remaining, WIN_DRAW_LOSS, promoted=2, relegated=2)
    assert result["A"].promoted and result["B"].promoted
    assert not result["A"].champions  # B can draw level on 20
    assert result["E"].relegated and result["F"].relegated
    assert not result["C"].promoted and not result["D"].relegated
    assert places(result, "C") == (3, 4)


def test_yorkshire_last_night_of_a_ten_team_division_is_exact() -> None:
    """Five fixtures of eleven possible results each: the search finds the true extremes."""
    names = "ABCDEFGHIJ"
    points = [71, 60, 58, 55, 41, 40, 33, 30, 22, 10]
    teams = [Contender(n, p) for n, p in zip(names, points, strict=True)]
    remaining = [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"), ("I", "J")]
    result = outlook(teams, remaining, TEN, promoted=2, relegated=2)
    # B can reach 70 at most: A is champion.
    assert places(result, "A") == (1, 1) and result["A"].champions
    # B losing 0-10 stays on 60; C drawn level on 60 (tie open) while D takes 63.
    assert places(result, "B") == places(result, "C") == places(result, "D") == (2, 4)
    # E losing 0-10 (41): F 50 and G 43 pass it, H cannot as well.
    assert places(result, "E") == (5, 7)
    # J can reach 20, short of I's 22 at least: relegated. I can pass H (30) with 32.
    assert result["J"].relegated and places(result, "J") == (10, 10)
    assert not result["I"].relegated and places(result, "I") == (8, 9)


def test_nothing_left_gives_the_table_as_it_stands() -> None:
    teams = [
        Contender("A", 7, settled=(-1,)),
        Contender("B", 7, settled=(-2,)),
        Contender("C", 3, settled=(-3,)),
    ]
    result = outlook(teams, [], WIN_DRAW_LOSS, relegated=1)
    assert [places(result, t) for t in "ABC"] == [(1, 1), (2, 2), (3, 3)]
    assert result["A"].champions and result["C"].relegated and not result["B"].champions


def test_a_fixture_naming_an_unknown_team_is_refused() -> None:
    try:
        outlook([Contender("A", 0)], [("A", "Z")], WIN_DRAW_LOSS)
    except ValueError as error:
        assert "Z" in str(error)
    else:
        raise AssertionError("accepted a fixture against a team not in the division")


def test_past_the_search_budget_the_bounds_are_still_sound(monkeypatch) -> None:
    monkeypatch.setattr(clinch, "EXACT_LIMIT", 0)
    teams = [Contender("A", 20), Contender("B", 10), Contender("C", 9), Contender("D", 8)]
    result = outlook(teams, [("B", "C"), ("C", "D"), ("D", "B")], WIN_DRAW_LOSS)
    assert result["A"].champions  # 20 is beyond B's and C's 14
    assert places(result, "D") == (2, 4)


# --- brute force ------------------------------------------------------------------------


def brute_force(
    teams: list[Contender], remaining: list[tuple[str, str]], outcomes: list, complete: bool
) -> dict[str, tuple[int, int]]:
    """Every combination of results, and every order the open ties could be broken in."""
    span = {t.team: (len(teams), 1) for t in teams}
    by_name = {t.team: t for t in teams}
    for results in product(outcomes, repeat=len(remaining)):
        points = {t.team: t.points for t in teams}
        for (home, away), (h, a) in zip(remaining, results, strict=True):
            points[home] += h
            points[away] += a
        for order in permutations(points):
            # An order is possible if it puts more points first, and respects every
            # decided tie-break between two teams level on points.
            rank = {name: i for i, name in enumerate(order)}
            if any(
                points[x] < points[y]
                for x, y in zip(order, order[1:], strict=False)  # noqa: B905
            ):
                continue
            if not respects_ties(order, points, by_name, rank, complete):
                continue
            for name in order:
                shared = sum(
                    1
                    for other in order[: rank[name]]
                    if points[other] == points[name]
                    and fixed_equal(by_name[other], by_name[name], complete)
                )
                place = rank[name] + 1 - shared
                low, high = span[name]
                span[name] = (min(low, place), max(high, place))
    return span


def fixed_equal(a: Contender, b: Contender, complete: bool) -> bool:
    return complete and a.settled is not None and a.settled == b.settled


def respects_ties(order, points, by_name, rank, complete) -> bool:
    for x in order:
        for y in order:
            a, b = by_name[x], by_name[y]
            if points[x] != points[y] or a.settled is None or b.settled is None:
                continue
            if a.settled > b.settled and rank[x] > rank[y]:
                return False
    return True


@st.composite
def divisions(draw):
    size = draw(st.integers(2, 5))
    names = "ABCDE"[:size]
    pairs = [(h, a) for h in names for a in names if h != a]
    remaining = draw(st.lists(st.sampled_from(pairs), max_size=3))
    busy = {t for pair in remaining for t in pair}
    teams = []
    for name in names:
        points = draw(st.integers(0, 8))
        settled = None
        if name not in busy and draw(st.booleans()):
            settled = (draw(st.integers(0, 2)),)
        teams.append(Contender(name, points, settled))
    outcomes = draw(st.sampled_from([WIN_DRAW_LOSS, [(3, 0), (1, 1), (0, 3)], [(2, 0), (0, 2)]]))
    return teams, remaining, outcomes, draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(divisions())
def test_matches_brute_force_on_small_divisions(division) -> None:
    teams, remaining, outcomes, complete = division
    expected = brute_force(teams, remaining, outcomes, complete)
    got = outlook(teams, remaining, outcomes, complete=complete)
    assert {name: (o.best, o.worst) for name, o in got.items()} == expected


@settings(max_examples=150, deadline=None)
@given(divisions())
def test_the_fallback_bounds_never_claim_more_than_brute_force(division) -> None:
    teams, remaining, outcomes, complete = division
    expected = brute_force(teams, remaining, outcomes, complete)
    bounds = clinch._bounds(teams, remaining, outcomes, complete)
    for name, (best, worst) in expected.items():
        assert bounds[name][0] <= best and bounds[name][1] >= worst


# --- a team outside the race ------------------------------------------------------------


def test_a_withdrawn_teams_fixture_still_gives_its_opponent_points() -> None:
    """W withdrew (it is outside the race, placed below the others whatever its points), but
    its fixture left with B still gives B points (a walkover on its date, or a result still to
    be confirmed): A's lead of one is not yet safe."""
    teams = [Contender("A", 10, settled=(30,)), Contender("B", 9), Contender("C", 0)]
    result = outlook(teams, [("B", "W")], WIN_DRAW_LOSS, outside={"W"})
    assert set(result) == {"A", "B", "C"}, "no place for the team outside the race"
    assert not result["A"].champions and places(result, "A") == (1, 2)
    assert places(result, "B") == (1, 2)
    bounds = clinch._bounds(teams, [("B", "W")], WIN_DRAW_LOSS, True, outside={"W"})
    assert bounds["A"] == (1, 2)


@st.composite
def divisions_with_outside(draw):
    teams, remaining, outcomes, complete = draw(divisions())
    names = [t.team for t in teams]
    against_w = draw(st.lists(st.sampled_from(names), max_size=2))
    for name in against_w:
        remaining.append((name, "W") if draw(st.booleans()) else ("W", name))
    busy = {t for pair in remaining for t in pair}
    teams = [Contender(t.team, t.points, None if t.team in busy else t.settled) for t in teams]
    return teams, remaining, outcomes, complete


def brute_force_outside(teams, remaining, outcomes, complete):
    """``brute_force`` with W's results given to its opponents only: W takes no place."""
    stand_in = [Contender("W", -1000)]  # below everyone, whatever it gains
    span = brute_force([*teams, *stand_in], remaining, outcomes, complete)
    span.pop("W")
    return span


@settings(max_examples=150, deadline=None)
@given(divisions_with_outside())
def test_matches_brute_force_with_a_team_outside_the_race(division) -> None:
    teams, remaining, outcomes, complete = division
    expected = brute_force_outside(teams, remaining, outcomes, complete)
    got = outlook(teams, remaining, outcomes, complete=complete, outside={"W"})
    spans = {name: (o.best, o.worst) for name, o in got.items()}
    if len(remaining) <= len(teams):  # searched, so exact (more: the bounds, below)
        assert spans == expected
    for name, (best, worst) in expected.items():
        assert spans[name][0] <= best and spans[name][1] >= worst
    bounds = clinch._bounds(teams, remaining, outcomes, complete, outside={"W"})
    for name, (best, worst) in expected.items():
        assert bounds[name][0] <= best and bounds[name][1] >= worst
