"""A league table's game page names its match for every viewer, and says what became of the
table's result: confirmed (only a secretary changes it now), or settled from the score card."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import timezone

from cups.services.draws import draw_make
from leagues.models import FixtureTable
from tests.cups.helpers import cup_world, pairs_cup, play_race
from tests.factories.scoring import GameFactory
from tests.leagues.helpers import start_fixture
from tests.leagues.test_leagues_results import make_fixture, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_game():
    """Table 2's game of a Yorkshire fixture, won 11–4 by the home pair."""
    fixture = make_fixture()
    games = start_fixture(fixture)
    second = games[1]
    win_game(second.game, "A", 4)
    return second


def _page(client: Client, table_game) -> str:
    response = client.get(table_game.game.get_absolute_url())
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _scorer(table_game) -> Client:
    """A phone that opened the table's scoring link."""
    phone = Client()
    phone.get(table_game.table.scoring_link.get_absolute_url())
    return phone


def test_every_viewer_of_a_table_game_is_linked_to_its_fixture(client: Client, table_game):
    fixture = table_game.table.fixture
    link = (
        f'<a href="{fixture.get_absolute_url()}" data-testid="game-match-link">'
        f"{fixture.home} v {fixture.away}, table 2</a>"
    )
    assert link in _page(client, table_game)
    assert link in _page(_scorer(table_game), table_game)


def test_a_table_games_page_names_its_match_once(client: Client, table_game):
    """The game's title, "Black Bull A v Fleece B, table 2, game 1", stood over its match's
    link, "Black Bull A v Fleece B, table 2": the match said twice. The link names the match
    and the line under it which game it is."""
    fixture = table_game.table.fixture
    page = _page(client, table_game)
    body = page[page.index('data-testid="game"') :]
    assert body.count(f"{fixture.home} v {fixture.away}") == 1
    assert '<p class="game-title">Game 1 <span class="muted">· ' in body
    assert str(table_game.game) in page[: page.index("</title>")]  # the tab's title keeps it


def test_a_confirmed_result_is_said_and_the_match_still_linked(client: Client, table_game):
    phone = _scorer(table_game)
    link = table_game.table.scoring_link
    link.closed_at = timezone.now()  # as confirming the fixture's result closes it
    link.save(update_fields=["closed_at"])
    page = _page(phone, table_game)
    assert "The match's result is confirmed: only the league's secretary can change it now." in page
    assert table_game.table.fixture.get_absolute_url() in page
    assert 'data-testid="result-confirmed"' in _page(client, table_game)


def test_a_live_tables_game_says_nothing_of_a_confirmed_result(table_game):
    assert 'data-testid="result-confirmed"' not in _page(_scorer(table_game), table_game)


def test_a_table_settled_from_the_score_card_says_so_on_its_game(client: Client, table_game):
    FixtureTable.objects.filter(pk=table_game.table_id).update(
        source=FixtureTable.Source.CARD, card={"games": [[11, 8]]}
    )
    page = _page(client, table_game)
    assert (
        "This table's result was settled from the score card: 11–8. "
        "The hands below are as scored on the night."
    ) in page


def test_a_table_scored_on_the_phones_has_no_score_card_note(client: Client, table_game):
    assert 'data-testid="game-match-note"' not in _page(client, table_game)


def test_a_stand_alone_game_names_no_match(client: Client):
    game = GameFactory()
    assert 'data-testid="game-match"' not in client.get(game.get_absolute_url()).content.decode()


def test_a_cup_ties_game_is_linked_to_its_tie(client: Client):
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = play_race(cup.ties.get(round__number=1), "AB", agree=False)
    second = tie.games.get(number=2)
    page = html.unescape(client.get(second.game.get_absolute_url()).content.decode())
    assert (
        f'<a href="{tie.get_absolute_url()}" data-testid="game-match-link">{cup.name}: {tie}</a>'
    ) in page
    body = page[page.index('data-testid="game"') :]
    assert body.count(str(tie)) == 1 and '<p class="game-title">Game 2 <span' in body
