"""The match engine (``leagues.match``): hand-worked fixtures of both league styles, the cup
deciders, the score card's checks, and property tests against a brute-force statement of each
format (every way a match can go, added up the long way)."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.formats import STYLE_PRESETS
from leagues.match import (
    AWAY,
    FIRST_TO,
    FIXED,
    HOME,
    PEGS,
    SINGLE,
    CardError,
    FormatError,
    Game,
    MatchFormat,
    TableCard,
    card_layout,
    card_problems,
    decide_drawn_match,
    decider_words,
    games_to_win,
    group_order,
    group_points,
    match_problems,
    match_result,
    possible_points,
    race_final_score,
    race_winner,
    table_outcome,
    walkover_result,
)

YORKSHIRE = STYLE_PRESETS["yorkshire"].match_format
TRINIDAD = STYLE_PRESETS["trinidad"].match_format
FIRST_TO_TWO = MatchFormat(tables=2, games_mode=FIRST_TO, games=2, points_per_game=1)


def cards(*tables: list[tuple[int, int]]) -> list[TableCard]:
    return [TableCard.of_games(games) for games in tables]


# --- hand-worked matches ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "expected"),
    [
        # Three tables to one and the higher aggregate (41–37): 6 + 2 against 2.
        ([[(11, 7)], [(11, 9)], [(11, 10)], [(8, 11)]], ("home", 3, 1, 41, 37, 8, 2)),
        # Two tables each; the away side pegged more (38–42): 4 against 4 + 2.
        ([[(11, 7)], [(11, 10)], [(5, 11)], [(11, 14)]], ("away", 2, 2, 38, 42, 4, 6)),
        # Two tables each and the aggregates level (40–40): the bonus shared, a draw.
        ([[(11, 9)], [(11, 10)], [(9, 11)], [(9, 10, "away")]], ("draw", 2, 2, 40, 40, 5, 5)),
        # Four tables to none but fewer pegs: 8 against 2.
        ([[(11, 10)], [(11, 10)], [(11, 10)], [(11, 10)]], ("home", 4, 0, 44, 40, 10, 0)),
    ],
)
def test_yorkshire_matches(tables, expected) -> None:
    result = match_result(cards(*tables), YORKSHIRE)
    assert result.is_final
    figures = (
        result.outcome,
        result.home_tables,
        result.away_tables,
        result.home_pegs,
        result.away_pegs,
        result.home_match_points,
        result.away_match_points,
    )
    assert figures == expected
    # Yorkshire counts match points in the table and gives no league points of its own.
    assert (result.home_points, result.away_points) == expected[-2:]


def test_a_match_in_progress_has_no_bonus_outcome_or_points() -> None:
    result = match_result(cards([(11, 7)], [(11, 9)], [(3, 11)], []), YORKSHIRE)
    assert not result.is_final
    assert (result.home_match_points, result.away_match_points) == (4, 2)
    assert (result.home_bonus, result.away_bonus, result.outcome) == (0, 0, "")
    assert (result.home_points, result.away_points) == (0, 0)
    assert [t.outcome for t in result.tables] == ["home", "home", "away", ""]
    # Three tables of four started is not final either.
    assert not match_result(cards([(11, 7)], [(11, 9)], [(3, 11)]), YORKSHIRE).is_final


def test_trinidad_bullseyes_decide_and_league_points_follow() -> None:
    fmt = TRINIDAD.with_options(tables=3)
    # Each table plays two games; a table of one game each is halved (no table points here).
    result = match_result(
        [
            TableCard(bullseyes=(2, 0), hang_jacks=(1, 0)),
            TableCard(bullseyes=(1, 1), hang_jacks=(0, 2)),
            TableCard(bullseyes=(0, 2)),
        ],
        fmt,
    )
    assert result.is_final and result.outcome == "draw"
    assert (result.home_games, result.away_games, result.tables_halved) == (3, 3, 1)
    assert (result.home_hang_jacks, result.away_hang_jacks) == (1, 2)
    assert (result.home_points, result.away_points) == (1, 1)  # a draw: one league point each
    won = match_result([TableCard(bullseyes=(2, 0))] * 2 + [TableCard(bullseyes=(1, 1))], fmt)
    assert (won.outcome, won.home_points, won.away_points) == ("home", 2, 0)


def test_a_race_at_each_table_and_halved_points_in_fixed_games() -> None:
    result = match_result(cards([(14, 3), (2, 14), (14, 9)], [(0, 14), (1, 14)]), FIRST_TO_TWO)
    assert [t.outcome for t in result.tables] == ["home", "away"]
    # One a game, two a table, the aggregate (31 v 54) to the away side.
    assert (result.home_match_points, result.away_match_points) == (2 + 2, 3 + 2 + 2)
    fixed = MatchFormat(
        tables=1, games_mode=FIXED, games=2, aggregate_bonus=0, aggregate_bonus_shared=0
    )
    halved = match_result(cards([(11, 3), (3, 11)]), fixed)
    assert halved.tables[0].outcome == "halved"
    assert (halved.home_match_points, halved.away_match_points) == (1, 1)


def test_walkovers_give_the_format_s_walkover_points() -> None:
    result = walkover_result(YORKSHIRE, AWAY)
    assert (result.is_walkover, result.outcome, result.away_tables) == (True, "away", 4)
    assert (result.home_match_points, result.away_match_points) == (0, 10)
    fixed = YORKSHIRE.with_options(walkover_match_points=6)
    assert walkover_result(fixed, HOME).home_points == 6


def test_a_game_level_on_pegs_needs_its_winner() -> None:
    with pytest.raises(CardError, match="needs its winner"):
        table_outcome(TableCard.of_games([(10, 10)]), YORKSHIRE)
    assert table_outcome(TableCard.of_games([(10, 10, "away")]), YORKSHIRE).outcome == "away"


# --- the score card's checks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "card", "problem"),
    [
        (YORKSHIRE, TableCard.of_games([(11, 4), (11, 3)]), "game 2 was played after"),
        (YORKSHIRE, TableCard.of_games([(9, 7)]), "short of 11"),
        (YORKSHIRE, TableCard.of_games([(-1, 11)]), "negative"),
        (YORKSHIRE, TableCard.of_games([(11, 11)]), "needs its winner"),
        (TRINIDAD, TableCard(bullseyes=(2, 1)), "a table plays 2 games, not 3"),
        (YORKSHIRE, TableCard(bullseyes=(1, 1)), "a table plays 1 game, not 2"),
        (FIRST_TO_TWO, TableCard(bullseyes=(2, 2)), "cannot end 2–2"),
        (FIRST_TO_TWO, TableCard(bullseyes=(3, 0)), "cannot end 3–0"),
        (
            TRINIDAD,
            TableCard(games=(Game(14, 3),), bullseyes=(1, 0)),
            "the games or the bullseyes",
        ),
    ],
)
def test_card_problems_name_what_is_wrong(fmt, card, problem) -> None:
    assert any(problem in message for message in card_problems(card, fmt, target=11))


def test_a_good_card_has_no_problems_and_the_match_counts_its_tables() -> None:
    good = TableCard.of_games([(11, 4)], hang_jacks=(1, 0))
    assert card_problems(good, YORKSHIRE, target=11) == []
    assert match_problems([good] * 4, YORKSHIRE, target=11) == []
    problems = match_problems([good, TableCard.of_games([(4, 9)])], YORKSHIRE, target=11)
    assert problems == [
        "the match is played on 4 tables, not 2",
        "table 2: game 1: the winners pegged 9, short of 11",
    ]


def test_a_format_that_cannot_be_played_is_refused_with_every_reason() -> None:
    with pytest.raises(FormatError) as refused:
        MatchFormat(tables=0, points_per_game=-1)
    assert len(refused.value.messages) == 2
    with pytest.raises(FormatError, match="unknown match format option"):
        MatchFormat.from_spec({"tabels": 4})


# --- cups ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decider", "pegs", "jacks", "playoff", "expected"),
    [
        ("pegs", (50, 48), (0, 3), None, ("home", "aggregate pegs 50–48", False)),
        ("pegs", (48, 48), (0, 3), None, ("away", "hang jacks 0–3", False)),
        ("pegs", (48, 48), (1, 1), None, ("", "a play-off game to come", True)),
        ("pegs", (48, 48), (1, 1), "away", ("away", "a play-off game", False)),
        ("hang_jacks", (50, 48), (2, 1), None, ("home", "hang jacks 2–1", False)),
        ("hang_jacks", (50, 48), (1, 1), None, ("", "a play-off game to come", True)),
        ("playoff", (50, 48), (2, 1), None, ("", "a play-off game to come", True)),
        ("playoff", (50, 48), (2, 1), "home", ("home", "a play-off game", False)),
    ],
)
def test_cup_deciders(decider, pegs, jacks, playoff, expected) -> None:
    decision = decide_drawn_match(decider, pegs=pegs, hang_jacks=jacks, playoff_winner=playoff)
    assert (decision.winner, decision.how, decision.playoff_needed) == expected


def test_a_score_card_has_the_boxes_and_totals_its_format_scores() -> None:
    """``card_layout``: a table's game lines, a box for its games won where it plays more than
    one, its hang jacks where the variant scores them; the aggregate is added up where it gives
    a bonus or decides a level cup tie, league points only where the match gives them, the
    play-off game's boxes only on a knock-out tie's card."""
    yorkshire = card_layout(YORKSHIRE, hang_jacks=False)
    assert (yorkshire.games, yorkshire.games_won, yorkshire.hang_jacks) == (1, False, False)
    assert yorkshire.totals == ("tables", "pegs", "bonus", "match_points")
    assert yorkshire.table_points and not yorkshire.playoff
    trinidad = card_layout(TRINIDAD, hang_jacks=True)
    assert (trinidad.games, trinidad.games_won, trinidad.hang_jacks) == (2, True, True)
    assert trinidad.totals == ("games", "hang_jacks", "match_points", "points")
    tie = card_layout(TRINIDAD, hang_jacks=True, league_points=False, decider=PEGS)
    assert tie.totals == ("games", "pegs", "hang_jacks", "match_points") and tie.playoff
    race = TRINIDAD.with_options(games_mode=FIRST_TO, games=3)
    assert card_layout(race, hang_jacks=False).games == 5
    bonus_only = MatchFormat(points_per_table=0, points_per_table_halved=0, aggregate_bonus=2)
    assert not card_layout(bonus_only, hang_jacks=False).table_points


def test_race_ties_and_group_tables() -> None:
    assert race_winner(2, 1, 2) == "home"
    assert race_winner(1, 3, 3) == "away"
    assert race_winner(1, 1, 2) == ""
    assert [games_to_win(n) for n in (1, 3, 5, 7)] == [1, 2, 3, 4]
    assert race_final_score(3, 1, 3) and race_final_score(0, 2, 2)
    assert not any(race_final_score(*s, 2) for s in [(2, 2), (3, 0), (1, 1), (-1, 2)])
    assert group_points(won=2, drawn=1) == 5
    rows = [("Bell", 4, 10, 6), ("Anchor", 4, 10, 6), ("Crown", 4, 12, 7), ("Dog", 5, 0, 9)]
    ordered = sorted(rows, key=lambda r: group_order(r[1], r[2], r[3], r[0]))
    assert [r[0] for r in ordered] == ["Dog", "Crown", "Anchor", "Bell"]


# --- property tests against a brute-force statement of each format ---------------------------


def brute_force(tables: list[list[tuple[int, int, str]]], fmt: MatchFormat) -> dict[str, object]:
    """A match added up the long way, straight from the format's words."""
    home_mp = away_mp = home_pegs = away_pegs = 0
    decided_tables = 0
    for games in tables:
        home_won = sum(1 for g in games if g[2] == "home")
        away_won = len(games) - home_won
        home_pegs += sum(g[0] for g in games)
        away_pegs += sum(g[1] for g in games)
        home_mp += home_won * fmt.points_per_game
        away_mp += away_won * fmt.points_per_game
        if fmt.games_mode == FIRST_TO:
            decided = home_won == fmt.games or away_won == fmt.games
        else:
            decided = len(games) == fmt.games
        if not decided:
            continue
        decided_tables += 1
        if home_won > away_won:
            home_mp += fmt.points_per_table
        elif away_won > home_won:
            away_mp += fmt.points_per_table
        else:
            home_mp += fmt.points_per_table_halved
            away_mp += fmt.points_per_table_halved
    final = decided_tables == fmt.tables
    outcome = ""
    home_points = away_points = 0
    if final:
        if home_pegs > away_pegs:
            home_mp += fmt.aggregate_bonus
        elif away_pegs > home_pegs:
            away_mp += fmt.aggregate_bonus
        else:
            home_mp += fmt.aggregate_bonus_shared
            away_mp += fmt.aggregate_bonus_shared
        counted = fmt.match_points_count
        if home_mp > away_mp:
            outcome = "home"
            home_points = fmt.league_points_win + (home_mp if counted else 0)
            away_points = fmt.league_points_loss + (away_mp if counted else 0)
        elif away_mp > home_mp:
            outcome = "away"
            home_points = fmt.league_points_loss + (home_mp if counted else 0)
            away_points = fmt.league_points_win + (away_mp if counted else 0)
        else:
            outcome = "draw"
            home_points = fmt.league_points_draw + (home_mp if counted else 0)
            away_points = fmt.league_points_draw + (away_mp if counted else 0)
    return {
        "is_final": final,
        "outcome": outcome,
        "home_match_points": home_mp,
        "away_match_points": away_mp,
        "home_pegs": home_pegs,
        "away_pegs": away_pegs,
        "home_points": home_points,
        "away_points": away_points,
    }


points = st.integers(min_value=0, max_value=3)
formats = st.builds(
    lambda tables, mode, games, *rest: MatchFormat(
        tables=tables,
        games_mode=mode,
        games=1 if mode == SINGLE else games,
        points_per_table=rest[0],
        points_per_table_halved=rest[1],
        points_per_game=rest[2],
        aggregate_bonus=rest[3] + 1,
        aggregate_bonus_shared=rest[4],
        league_points_win=rest[5],
        league_points_draw=rest[6],
        league_points_loss=0,
        match_points_count=rest[7],
    ),
    st.integers(min_value=1, max_value=4),
    st.sampled_from([SINGLE, FIXED, FIRST_TO]),
    st.integers(min_value=1, max_value=3),
    points,
    points,
    points,
    points,
    points,
    points,
    points,
    st.booleans(),
)


@st.composite
def matches(draw: st.DrawFn) -> tuple[MatchFormat, list[list[tuple[int, int, str]]]]:
    """A format and a match played under it: each table's games, as far as they got."""
    fmt = draw(formats)
    tables = []
    for _ in range(draw(st.integers(min_value=0, max_value=fmt.tables))):
        games: list[tuple[int, int, str]] = []
        home = away = 0
        length = draw(st.integers(min_value=0, max_value=fmt.max_games_per_table))
        while len(games) < length and not fmt.table_decided(home, away):
            winner = draw(st.sampled_from(["home", "away"]))
            loser_pegs = draw(st.integers(min_value=0, max_value=10))
            winner_pegs = draw(st.integers(min_value=11, max_value=14))
            if winner == "home":
                games.append((winner_pegs, loser_pegs, "home"))
                home += 1
            else:
                games.append((loser_pegs, winner_pegs, "away"))
                away += 1
        tables.append(games)
    return fmt, tables


@settings(max_examples=300, deadline=None)
@given(matches())
def test_the_engine_agrees_with_the_brute_force_statement(match) -> None:
    fmt, tables = match
    played = [TableCard.of_games(games) for games in tables]
    result = match_result(played, fmt)
    assert {name: getattr(result, name) for name in brute_force(tables, fmt)} == brute_force(
        tables, fmt
    )
    assert all(card_problems(card, fmt, target=11) == [] for card in played)
    # The same match from the sides' other seats is the mirror image.
    mirrored = match_result(
        [
            TableCard.of_games([(a, h, "away" if w == "home" else "home") for h, a, w in g])
            for g in tables
        ],
        fmt,
    )
    assert (mirrored.home_match_points, mirrored.away_match_points) == (
        result.away_match_points,
        result.home_match_points,
    )
    # A card of counts gives the table what its games gave.
    counted = match_result([TableCard(bullseyes=c.games_won, pegs=c.pegged) for c in played], fmt)
    assert counted.figures() == result.figures()
    if result.is_final:
        assert (result.home_points, result.away_points) in possible_points(fmt)
        assert max(result.home_match_points, result.away_match_points) <= fmt.max_match_points


def every_table(fmt: MatchFormat) -> list[list[tuple[int, int, str]]]:
    """Every sequence of game winners that decides a table (pegs 11 to the winner, 5 to the
    loser)."""
    done = []
    for length in range(1, fmt.max_games_per_table + 1):
        for winners in product(["home", "away"], repeat=length):
            home = away = 0
            ok = True
            for winner in winners:
                if fmt.table_decided(home, away):
                    ok = False
                home, away = (home + 1, away) if winner == "home" else (home, away + 1)
            if ok and fmt.table_decided(home, away):
                done.append([(11, 5, w) if w == "home" else (5, 11, w) for w in winners])
    return done


@settings(max_examples=60, deadline=None)
@given(formats.filter(lambda f: f.tables <= 3 and f.max_games_per_table <= 3))
def test_possible_points_are_exactly_the_results_a_match_can_end_with(fmt) -> None:
    """Brute force: every way each table can be decided, with the aggregate falling either way
    or level, and a walkover to either side."""
    seen = set()
    for tables in product(every_table(fmt), repeat=fmt.tables):
        # The engine knows no target: the aggregate may fall either way, or level.
        for pegs in ((1, 0), (0, 0), (0, 1)):
            games = [[(0, 0, g[2]) for g in t] for t in tables]
            games[0][0] = (*pegs, games[0][0][2])
            expected = brute_force(games, fmt)
            seen.add((expected["home_points"], expected["away_points"]))
    for side in (HOME, AWAY):
        walkover = walkover_result(fmt, side)
        seen.add((walkover.home_points, walkover.away_points))
    assert possible_points(fmt) == frozenset(seen)


@pytest.mark.parametrize(
    ("decider", "aggregate", "hang_jacks", "words"),
    [
        ("pegs", "pegs", True, "Aggregate pegs, then hang jacks, then a play-off game"),
        ("pegs", "pegs", False, "Aggregate pegs, then a play-off game"),
        (
            "pegs",
            "points scored",
            True,
            "Aggregate points scored, then hang jacks, then a play-off game",
        ),
        ("hang_jacks", "pegs", True, "Hang jacks, then a play-off game"),
        ("hang_jacks", "pegs", False, "A play-off game"),
        ("playoff", "pegs", True, "A play-off game"),
    ],
)
def test_a_deciders_words_name_only_what_the_leagues_games_have(
    decider: str, aggregate: str, hang_jacks: bool, words: str
) -> None:
    """A Yorkshire cup page said a drawn match goes to "aggregate pegs, then hang jacks":
    Yorkshire games have no hang jacks (always level, they decide nothing), so they are not
    named; a Trinidad league's figure is its points scored."""
    assert decider_words(decider, aggregate=aggregate, hang_jacks=hang_jacks) == words  # type: ignore[arg-type]
