"""A match whose one table being played was abandoned, the others not started, is not said to
be "in play": its result page, its status and its heading say a table was abandoned and what
the secretary does next (``leagues.selectors.live.play_stopped``)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from cups.services.draws import draw_make
from leagues.formats import YORKSHIRE_FORMAT
from leagues.services.seating import table_seat
from scoring.services.games import game_abandon
from tests.cups.helpers import cup_world, team_cup
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, current_game, hand, record, squad, start_fixture

pytestmark = pytest.mark.django_db

STOPPED = "Table 1 abandoned at 3–1; the other tables not started"


def _words(response) -> str:
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", html.unescape(response.content.decode()))
    return re.sub(r"\s+", " ", text)


def _match(*, seat_all: bool = False):
    """A Yorkshire match of four tables, table 1's game abandoned at 3–1: the others never
    seated, or (``seat_all``) seated and being played."""
    league = LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, _users = captained_teams(division, players=8)
    fixture = FixtureFactory(division=division, home=home, away=away)
    if seat_all:
        _abandon(start_fixture(fixture)[0].table)
    else:
        season = division.season
        ours, theirs = squad(home, season), squad(away, season)
        _abandon(table_seat(fixture=fixture, board=1, home=ours[:2], away=theirs[:2], by=None))
    return fixture


def _abandon(table) -> None:
    """The table's game abandoned at 3–1."""
    game = current_game(table)
    record(game, [hand(game, "A", {"high": "A", "low": "B", "jack": "A", "game": "A"})])
    game_abandon(game=game, reason="The pub's power went off.")


def test_a_match_stopped_at_an_abandoned_table_says_so_not_in_play(client: Client) -> None:
    fixture = _match()
    result = _words(client.get(reverse("leagues:fixture_result", args=[fixture.pk])))
    assert "Play is still going on" not in result
    assert (
        f"{STOPPED}. The league secretary can start the abandoned table again, or the match's "
        "result is entered from the score card."
    ) in result
    page = _words(client.get(fixture.get_absolute_url()))
    assert STOPPED in page
    assert "In play" not in page
    assert "in play" not in page


def test_a_match_with_other_tables_being_played_is_still_in_play(client: Client) -> None:
    fixture = _match(seat_all=True)
    result = _words(client.get(reverse("leagues:fixture_result", args=[fixture.pk])))
    assert "Play is still going on" in result
    assert "abandoned at" not in _words(client.get(fixture.get_absolute_url())).split("Table 1")[0]


def test_a_cup_tie_stopped_at_an_abandoned_table_says_so_on_its_page(client: Client) -> None:
    """A team tie of one table, its game abandoned: its page said "In play"."""
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get()
    fixture = tie.fixture
    season = fixture.division.season
    ours, theirs = squad(fixture.home, season), squad(fixture.away, season)
    _abandon(table_seat(fixture=fixture, board=1, home=ours[:2], away=theirs[:2], by=None))
    words = _words(client.get(tie.get_absolute_url()))
    assert "Table 1 abandoned at 3–1" in words
    assert "In play" not in words
