"""Rolling a fixture's result up from the games at its tables."""

import pytest

from leagues.models import Fixture, FixtureResult
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import entered_teams, start_fixture, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def yorkshire_fixture():
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    return FixtureFactory(division=division, home=home, away=away)


def test_yorkshire_tables_and_aggregate_bonus(yorkshire_fixture):
    """Three tables to one and the higher aggregate: 3×2 + 2 = 8 to 2, fixture played."""
    games = start_fixture(yorkshire_fixture)
    win_game(games[0].game, "A", 5)
    win_game(games[1].game, "A", 9)
    win_game(games[2].game, "A", 0)
    result = FixtureResult.objects.get(fixture=yorkshire_fixture)
    assert not result.is_final
    win_game(games[3].game, "B", 3)
    result.refresh_from_db()
    yorkshire_fixture.refresh_from_db()
    assert result.is_final
    assert (result.home_tables, result.away_tables) == (3, 1)
    assert (result.home_pegs, result.away_pegs) == (11 * 3 + 3, 5 + 9 + 0 + 11)
    assert (result.home_match_points, result.away_match_points) == (8, 2)
    assert (result.home_points, result.away_points) == (8, 2)
    assert result.outcome == "home"
    assert yorkshire_fixture.status == Fixture.Status.PLAYED
