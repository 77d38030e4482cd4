"""Player and pair figures come from the awards and hands stored when games were scored."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.formats import TRINIDAD_FORMAT
from leagues.fragments import invalidate_league
from leagues.models import Fixture, PairFigures, TableGame
from leagues.selectors.counting import LEAGUE_ONLY
from leagues.selectors.statistics import (
    FIGURES,
    _figure_rows,
    _figures_query,
    pair_statistics,
    player_leaderboard,
    player_statistics,
)
from scoring.services import hand_undo
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
)
from tests.leagues.helpers import (
    CATEGORIES,
    confirm,
    current_game,
    entered_teams,
    hand,
    record,
    squad,
    start_fixture,
)
from tests.leagues.test_pages_queries import BEGUN, QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """One Trinidad table, two games: the home pair wins the first with two hang jacks, the
    away pair the second after a kick, with three all-fours hands."""
    league = LeagueFactory(
        trinidad=True, match_format=TRINIDAD_FORMAT.with_options(tables=1).to_spec()
    )
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Belmont Kings", "Woodbrook Jacks"], players=2)
    fixture = FixtureFactory(division=division, home=home, away=away)
    (first,) = start_fixture(fixture)
    game = first.game
    everything = dict.fromkeys(CATEGORIES, "A")
    record(
        game,
        [
            hand(game, "A", everything, hang_jack=True),  # A 6 (hang jack 3)
            hand(game, "B", everything, hang_jack=True),  # A 12
            hand(game, "A", {**everything, "jack": "B", "game": "B"}),  # A wins on low
        ],
    )
    second = current_game(first.table)
    away_sweep = dict.fromkeys(CATEGORIES, "B")
    record(
        second,
        [
            {
                "dealer": "B",
                "turn_ups": ["6H"],  # kicks 2 to the dealer's side
                "beg": "stand",
                "high": "A",
                "low": "A",
                "jack": None,
                "game": "A",
            },
            hand(second, "A", away_sweep),  # B 6
            hand(second, "B", away_sweep),  # B 10
            hand(second, "A", away_sweep),  # B 14 on game
        ],
    )
    confirm(fixture)
    season = division.season
    return {
        "season": season,
        "division": division,
        "home": squad(home, season),
        "away": squad(away, season),
    }


def test_player_figures_from_stored_hands(played, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):  # the stored figures, summed
        home = player_statistics(player=played["home"][0])
    assert (home.games_played, home.games_won, home.games_lost) == (2, 1, 1)
    assert (home.highs, home.lows, home.jacks) == (4, 4, 0)
    assert (home.hang_jacks_taken, home.hang_jacks_given) == (2, 0)
    assert (home.game_points, home.kicks, home.all_fours) == (3, 0, 2)
    assert home.win_percentage == 50.0

    away = player_statistics(player=played["away"][1], season=played["season"])
    assert (away.games_played, away.games_won) == (2, 1)
    assert (away.highs, away.lows, away.jacks, away.game_points) == (3, 3, 3, 3)
    assert (away.hang_jacks_taken, away.hang_jacks_given) == (0, 2)
    assert (away.kicks, away.all_fours) == (1, 3)


def test_pairs_and_leaderboard(played, django_assert_max_num_queries):
    # One for the stored figures, one for the players and one telling namesakes apart.
    with django_assert_max_num_queries(3):
        pairs = pair_statistics(division=played["division"])
    # Level on games won and played: by name.
    assert [(set(p.players), p.games_won, p.all_fours) for p in pairs] == [
        (set(played["home"]), 1, 2),
        (set(played["away"]), 1, 3),
    ]
    assert pairs[0].name == "Belmont Kings player 1 & Belmont Kings player 2"
    home_team = played["home"][0].registrations.get().team
    (only,) = pair_statistics(team=home_team)
    assert set(only.players) == set(played["home"]) and only.hang_jacks_taken == 2
    board = player_leaderboard(season=played["season"])
    assert len(board) == 4 and {row.games_played for row in board} == {2}


def test_a_player_who_has_not_played_has_empty_figures():
    figures = player_statistics(player=PlayerFactory())
    assert figures.games_played == 0 and figures.win_percentage is None


def stored_rows() -> list[tuple]:
    return sorted(
        PairFigures.objects.values_list("table", "side", "player_1", "player_2", *FIGURES)
    )


def test_the_stored_figures_follow_the_games_and_a_rebuild_stores_them_again(played):
    """Each side's figures at a table are stored as its games change: a hand taken back from a
    finished game takes that game out of them at once, and ``rebuild_standings`` (with
    ``--missing``: where none are stored) stores the very same rows from the hands."""
    rows = stored_rows()
    assert [(row[1], row[4], row[5]) for row in rows] == [("A", 2, 1), ("B", 2, 1)]
    call_command("rebuild_standings", stdout=io.StringIO())
    assert stored_rows() == rows
    PairFigures.objects.all().delete()
    call_command("rebuild_standings", "--missing", stdout=io.StringIO())
    assert stored_rows() == rows

    second = TableGame.objects.filter(table__fixture__division=played["division"]).get(number=2)
    hand_undo(game=second.game, expected_number=second.game.hands.count())
    home, away = stored_rows()
    assert (home[4], home[5], home[6]) == (1, 1, 3), "the first game alone, its highs"
    assert (away[4], away[5], away[6]) == (1, 0, 0)
    call_command("rebuild_standings", stdout=io.StringIO())
    assert stored_rows() == [home, away]


def test_pages_with_games_name_the_players_they_already_have(
    client, played, django_assert_num_queries
):
    """With games played, a fresh team page runs the queries it runs without (its players with
    figures are its squad, named with it), and a player page two more: the games at their
    tables and the games' scores. The players seated there are named with the player (the
    page's title) in one query, and the partners, among them, are not read again."""
    home = played["home"][0]
    team = home.registrations.get().team
    league = played["season"].league_id
    for name, url, extra in (
        # Every fixture of the team's is played: no fixture past without a result to look at.
        ("team", reverse("leagues:team", args=[team.pk]), -BEGUN),
        ("player", reverse("leagues:player", args=[home.pk]), 2),
    ):
        client.get(url)  # the cache's versions exist from here on, as on the site
        invalidate_league(league)
        with django_assert_num_queries(QUERIES[name][0] + extra):
            page = client.get(url).content.decode()
    partners = page.split("<h2>Partners</h2>")[1].split("</table>")[0]
    assert "Belmont Kings player 1 &amp; Belmont Kings player 2" in partners


def test_the_figures_built_once_are_the_querysets_rows(played):
    """The statistics' query is built once per connection and shape and run with each scope's
    ids: its rows are the queryset's, whatever the scope, and a second scope of one shape gets
    its own rows, not the first's."""
    home, away = played["home"][0], played["away"][0]
    team = home.registrations.get().team
    scopes = [
        {"player": home.pk},
        {"player": away.pk},
        {"season": played["season"].pk, "team": team.pk},
        {"division": played["division"].pk},
        {"season": played["season"].pk},
        {"player": PlayerFactory().pk},
    ]
    for kinds in (LEAGUE_ONLY, [Fixture.Kind.LEAGUE, Fixture.Kind.CUP]):
        for scope in scopes:
            expected = sorted(_figures_query(scope, kinds))
            assert sorted(_figure_rows(scope, kinds)) == expected, scope
    assert sorted(_figure_rows(scopes[0], LEAGUE_ONLY)) != sorted(
        _figure_rows(scopes[1], LEAGUE_ONLY)
    )
