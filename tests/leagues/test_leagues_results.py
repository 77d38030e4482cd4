"""Rolling a fixture's result up from the games at its tables, recorded through the scoring
services exactly as a scorer would (side A the home pair, side B the away pair)."""

import pytest
from django.core.exceptions import ValidationError

from leagues.formats import TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.match import FIRST_TO
from leagues.models import Fixture, FixtureResult, FixtureTable
from leagues.services.fixtures import fixture_void, fixture_walkover
from leagues.services.results import fixture_tables_set, table_restart
from scoring import services as scoring_services
from scoring.models import GameStatus
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
)
from tests.leagues.helpers import (
    CATEGORIES,
    current_game,
    entered_teams,
    hand,
    record,
    squad,
    start_fixture,
    win_game,
)

pytestmark = pytest.mark.django_db


def make_fixture(**league):
    league = LeagueFactory(**league)
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    return FixtureFactory(division=division, home=home, away=away)


@pytest.fixture
def yorkshire_fixture():
    return make_fixture()


def trinidad_fixture(**format_options):
    match_format = TRINIDAD_FORMAT.with_options(**{"tables": 2, **format_options})
    return make_fixture(trinidad=True, match_format=match_format.to_spec())


def test_yorkshire_tables_and_aggregate_bonus(yorkshire_fixture):
    """Three tables to one and the higher aggregate: 3×2 + 2 = 8 to 2, fixture played."""
    games = start_fixture(yorkshire_fixture)
    win_game(games[0].game, "A", 5)
    win_game(games[1].game, "A", 9)
    win_game(games[2].game, "A", 0)
    result = FixtureResult.objects.get(fixture=yorkshire_fixture)
    assert not result.is_final
    assert result.outcome == ""
    win_game(games[3].game, "B", 3)
    result.refresh_from_db()
    yorkshire_fixture.refresh_from_db()
    assert result.is_final
    assert (result.home_tables, result.away_tables) == (3, 1)
    assert (result.home_games, result.away_games) == (3, 1)
    assert (result.home_pegs, result.away_pegs) == (11 * 3 + 3, 5 + 9 + 0 + 11)
    assert (result.home_match_points, result.away_match_points) == (8, 2)
    assert (result.home_points, result.away_points) == (8, 2)
    assert result.outcome == "home"
    assert yorkshire_fixture.status == Fixture.Status.PLAYED


def test_yorkshire_aggregate_bonus_goes_to_the_side_that_pegged_more(yorkshire_fixture):
    """Two tables each, but the away side pegged more over the four: 4 to 6, an away win."""
    games = start_fixture(yorkshire_fixture)
    win_game(games[0].game, "A", 10)
    win_game(games[1].game, "A", 10)
    win_game(games[2].game, "B", 0)
    win_game(games[3].game, "B", 0)
    result = FixtureResult.objects.get(fixture=yorkshire_fixture)
    assert (result.home_pegs, result.away_pegs) == (22, 42)
    assert (result.home_match_points, result.away_match_points) == (4, 6)
    assert result.outcome == "away"


def test_yorkshire_level_aggregate_shares_the_bonus(yorkshire_fixture):
    """Two tables each and level aggregates: the bonus is shared, 5–5, a draw."""
    games = start_fixture(yorkshire_fixture)
    win_game(games[0].game, "A", 5)
    win_game(games[1].game, "A", 5)
    win_game(games[2].game, "B", 5)
    win_game(games[3].game, "B", 5)
    result = FixtureResult.objects.get(fixture=yorkshire_fixture)
    assert result.home_pegs == result.away_pegs == 32
    assert (result.home_match_points, result.away_match_points) == (5, 5)
    assert (result.home_points, result.away_points) == (5, 5)
    assert result.outcome == "draw"


def test_yorkshire_one_game_a_table_starts_no_second_game(yorkshire_fixture):
    games = start_fixture(yorkshire_fixture)
    win_game(games[0].game, "A", 3)
    table = games[0].table
    assert table.games.count() == 1
    table.refresh_from_db()
    assert table.outcome == FixtureTable.TableOutcome.HOME
    assert (table.home_pegs, table.away_pegs) == (11, 3)


def sweep_with_hang_jacks(game, side):
    """Two hands of high, low, hang jack (3) and game, then high and low: 6, 12, 14."""
    other = "B" if side == "A" else "A"
    everything = dict.fromkeys(CATEGORIES, side)
    return record(
        game,
        [
            hand(game, "A", everything, hang_jack=True),
            hand(game, "B", everything, hang_jack=True),
            hand(game, "A", {**everything, "jack": other, "game": other}),
        ],
    )


def test_trinidad_bullseyes_hang_jacks_and_the_next_game_at_a_table():
    """Two games a table: the second starts when the first ends; bullseyes decide the match."""
    fixture = trinidad_fixture()
    first = start_fixture(fixture)
    game = sweep_with_hang_jacks(first[0].game, "A")
    assert game.status == GameStatus.WON and game.winner == "A"
    table = first[0].table
    assert table.games.count() == 2, "the table's second game started by itself"
    second = current_game(table)
    assert second.status == GameStatus.IN_PROGRESS
    assert second.first_dealer == "B", "the away pair deals first in the second game"
    win_game(second, "A", 4)
    table.refresh_from_db()
    assert table.outcome == FixtureTable.TableOutcome.HOME
    assert table.games.count() == 2, "a decided table starts no third game"

    # Table 2: one game each, a halved table.
    win_game(first[1].game, "B", 7)
    win_game(current_game(first[1].table), "A", 2)
    result = FixtureResult.objects.get(fixture=fixture)
    fixture.refresh_from_db()
    assert result.is_final and fixture.status == Fixture.Status.PLAYED
    assert (result.home_tables, result.away_tables, result.tables_halved) == (1, 0, 1)
    assert (result.home_games, result.away_games) == (3, 1), "bullseyes"
    assert (result.home_hang_jacks, result.away_hang_jacks) == (2, 0)
    assert (result.home_match_points, result.away_match_points) == (3, 1)
    assert (result.home_points, result.away_points) == (2, 0), "league points for a win"
    assert result.outcome == "home"


def test_first_to_two_games_plays_a_decider():
    fixture = trinidad_fixture(tables=1, games_mode=FIRST_TO, games=2)
    (first,) = start_fixture(fixture)
    table = first.table
    win_game(first.game, "A", 0)
    win_game(current_game(table), "B", 0)
    assert table.games.count() == 3
    win_game(current_game(table), "B", 13)
    table.refresh_from_db()
    assert (table.home_games, table.away_games, table.outcome) == (1, 2, "away")
    result = FixtureResult.objects.get(fixture=fixture)
    assert result.outcome == "away" and result.is_final
    assert (result.home_pegs, result.away_pegs) == (14 + 0 + 13, 0 + 14 + 14)


def test_undoing_the_winning_hand_reopens_the_table_and_the_fixture(yorkshire_fixture):
    games = start_fixture(yorkshire_fixture)
    for table_game, winner in zip(games, "AABB", strict=True):
        win_game(table_game.game, winner, 4)
    yorkshire_fixture.refresh_from_db()
    assert yorkshire_fixture.status == Fixture.Status.PLAYED
    game = games[0].game
    scoring_services.hand_undo(game=game, expected_number=game.hands.count())
    yorkshire_fixture.refresh_from_db()
    result = FixtureResult.objects.get(fixture=yorkshire_fixture)
    assert yorkshire_fixture.status == Fixture.Status.SCHEDULED
    assert not result.is_final and result.outcome == ""
    assert result.home_tables == 1


def test_walkover_awards_the_formats_walkover_score(yorkshire_fixture):
    fixture_walkover(fixture=yorkshire_fixture, to="away", reason="Old Hall could not raise a side")
    result = FixtureResult.objects.get(fixture=yorkshire_fixture)
    assert result.is_walkover and result.is_final and result.outcome == "away"
    assert (result.home_match_points, result.away_match_points) == (
        0,
        YORKSHIRE_FORMAT.max_match_points,
    )
    assert (result.home_tables, result.away_tables) == (0, 4)
    assert (result.home_points, result.away_points) == (0, 10)


def test_walkover_with_a_set_score_and_league_points():
    fixture = trinidad_fixture(walkover_match_points=4)
    fixture_walkover(fixture=fixture, to="home", reason="Away team conceded")
    result = fixture.result
    assert (result.home_match_points, result.away_match_points) == (4, 0)
    assert (result.home_points, result.away_points) == (2, 0)


def test_void_fixture_has_no_result(yorkshire_fixture):
    games = start_fixture(yorkshire_fixture)
    for table_game in games:
        win_game(table_game.game, "A", 0)
    assert FixtureResult.objects.filter(fixture=yorkshire_fixture).exists()
    fixture_void(fixture=yorkshire_fixture, reason="Played with an unregistered player")
    yorkshire_fixture.refresh_from_db()
    assert yorkshire_fixture.status == Fixture.Status.VOID
    assert not FixtureResult.objects.filter(fixture=yorkshire_fixture).exists()


def test_a_void_fixture_cannot_be_voided_again(yorkshire_fixture):
    """Voiding twice is refused: one void, one audit entry, the first reason kept."""
    fixture_void(fixture=yorkshire_fixture, reason="Team withdrew")
    with pytest.raises(ValidationError, match="already void"):
        fixture_void(fixture=yorkshire_fixture, reason="Again")
    yorkshire_fixture.refresh_from_db()
    assert yorkshire_fixture.reason == "Team withdrew"
    assert yorkshire_fixture.audit_entries.filter(action="void").count() == 1


def test_tables_refuse_unregistered_players_and_the_wrong_number_of_tables(yorkshire_fixture):
    season = yorkshire_fixture.division.season
    home = squad(yorkshire_fixture.home, season)
    away = squad(yorkshire_fixture.away, season)
    pairs = [(home[2 * i : 2 * i + 2], away[2 * i : 2 * i + 2]) for i in range(4)]
    with pytest.raises(ValidationError, match="4 tables"):
        fixture_tables_set(fixture=yorkshire_fixture, pairs=pairs[:3])
    stranger = PlayerFactory(name="Ringer")
    with pytest.raises(ValidationError, match="Ringer is not registered"):
        fixture_tables_set(
            fixture=yorkshire_fixture, pairs=[([stranger, home[1]], away[:2])] + pairs[1:]
        )
    with pytest.raises(ValidationError, match="Table 2: .* already seated at table 1"):
        fixture_tables_set(fixture=yorkshire_fixture, pairs=[pairs[0], pairs[0]] + pairs[2:])
    tables = fixture_tables_set(fixture=yorkshire_fixture, pairs=pairs)
    assert [t.board for t in tables] == [1, 2, 3, 4]


def test_a_table_starts_one_game_at_a_time(yorkshire_fixture):
    (first, *_) = start_fixture(yorkshire_fixture)
    with pytest.raises(ValidationError, match="Table 1 has no abandoned game to start again"):
        table_restart(table=first.table)  # its game still in progress
    win_game(first.game, "A", 0)
    with pytest.raises(ValidationError, match="Table 1 has no abandoned game to start again"):
        table_restart(table=first.table)  # decided


def test_a_trinidad_result_page_mid_match_counts_what_the_fixture_page_counts(client):
    """Mid-match, a Trinidad result page said "Play is still going on: 0–0 in tables so far."
    while the fixture's page showed bullseyes 1–0 and match points 1–0: a table plays several
    games, so none is decided yet. It says what the match counts so far, as the fixture's page
    does; a Yorkshire page still counts tables."""
    from django.urls import reverse

    from tests.leagues.helpers import page_words

    fixture = trinidad_fixture()
    first = start_fixture(fixture)
    win_game(first[0].game, "A", 4)
    url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    words = page_words(client.get(url))
    assert "Play is still going on: bullseyes 1–0, match points 1–0 so far." in words
    assert "in tables" not in words

    yorkshire = make_fixture(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    tables = start_fixture(yorkshire)
    win_game(tables[0].game, "A", 4)
    url = reverse("leagues:fixture_result", kwargs={"pk": yorkshire.pk})
    assert "Play is still going on: 1–0 in tables so far." in page_words(client.get(url))
