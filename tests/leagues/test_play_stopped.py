"""A match whose one table being played was abandoned, the others not started, is not said to
be "in play": its result page, its status and its heading say a table was abandoned and what
the secretary does next (``leagues.selectors.live.play_stopped``)."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from cups.services.draws import draw_make
from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture
from leagues.selectors.fixtures import fixture_rows, mark_begun, with_season_names
from leagues.selectors.live import PLAY_STOPPED
from leagues.services.seating import table_seat
from scoring.services.games import game_abandon
from tests.cups.helpers import cup_world, team_cup
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, current_game, hand, record, squad, start_fixture

pytestmark = pytest.mark.django_db

STOPPED = "Table 1 abandoned at 3–1; the other tables not started"


def _words(response) -> str:
    assert response.status_code == 200
    return _plain(response.content.decode())


def _plain(markup: str) -> str:
    text = re.sub(r"<[^>]+>", " ", html.unescape(markup))
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


def _stopped(*, tonight: bool):
    """A match of four tables, table 1's game abandoned at 3–1 and the others never seated,
    played tonight or on a night passed; with the accounts of its captains and secretary."""
    league = LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    when = league.today() if tonight else league.today() - datetime.timedelta(days=7)
    # Tonight's starts at midnight: it has started whatever the hour the tests run.
    fixture = FixtureFactory(
        division=division, home=home, away=away, date=when, time=datetime.time(0, 0)
    )
    season = division.season
    ours, theirs = squad(home, season), squad(away, season)
    _abandon(table_seat(fixture=fixture, board=1, home=ours[:2], away=theirs[:2], by=None))
    return fixture, users


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("tonight", [True, False])
def test_the_lists_say_a_stopped_match_is_stopped_not_in_play(client: Client, tonight) -> None:
    """The league's home, the division's fixtures and the team's page read no tables: they
    said "0–0 in play", "In play" of a match nobody was playing."""
    fixture, _users = _stopped(tonight=tonight)
    league = fixture.division.season.league
    fixtures = reverse("leagues:division_fixtures", args=[fixture.division.pk])
    for url in (
        reverse("leagues:league", args=[league.slug]),
        f"{fixtures}?team={fixture.home.pk}",
        f"{fixtures}?week={fixture.date.isoformat()}",
        reverse("leagues:team", args=[fixture.home.pk]),
    ):
        words = _words(client.get(url))
        assert "0–0, play stopped" in words, url
        assert "in play" not in words.lower(), url
    listed = _words(client.get(f"{fixtures}?team={fixture.home.pk}"))
    assert f"{PLAY_STOPPED} " in listed  # its status, as its page's figures say it


def test_the_league_night_and_the_desk_count_a_stopped_match_apart(client: Client) -> None:
    fixture, users = _stopped(tonight=True)
    league = fixture.division.season.league
    night = _words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert "1 match with play stopped" in night
    assert "0–0, play stopped" in night
    assert "match in play" not in night and "0–0 in play" not in night
    desk = _signed_in(users["secretary"]).get(reverse("leagues:manage_league", args=[league.slug]))
    tonight = _plain(desk.content.decode().split('data-testid="desk-tonight"')[1].split("</ul>")[0])
    assert f"{fixture.home.name} v {fixture.away.name}" in tonight
    assert "play stopped" in tonight and "in play" not in tonight


@pytest.mark.parametrize("tonight", [True, False])
def test_the_captains_list_says_where_play_stopped_as_the_fixture_page(tonight) -> None:
    fixture, users = _stopped(tonight=tonight)
    mine = _words(_signed_in(users["home"]).get(reverse("leagues:my_fixtures")))
    assert f"{STOPPED}." in mine
    assert "In play" not in mine


def test_a_cup_tie_stopped_at_an_abandoned_table_says_so_on_the_cups_page(client: Client) -> None:
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    fixture = cup.ties.get().fixture
    season = fixture.division.season
    ours, theirs = squad(fixture.home, season), squad(fixture.away, season)
    _abandon(table_seat(fixture=fixture, board=1, home=ours[:2], away=theirs[:2], by=None))
    words = _words(client.get(reverse("cups:competition", args=[cup.pk])))
    assert "Table 1 abandoned at 3–1" in words
    assert "In play" not in words


def test_a_list_reads_whether_play_stopped_in_the_one_query_it_reads_games_begun_by(
    django_assert_num_queries,
) -> None:
    """``mark_begun``'s one query, however many of the list's matches are in play."""
    first, _users = _stopped(tonight=False)
    division = first.division
    second = FixtureFactory(division=division, home=first.away, away=first.home, date=first.date)
    start_fixture(second)
    league = division.season.league
    listed = fixture_rows(
        with_season_names(Fixture.objects.filter(division=division).order_by("pk")),
        league=league,
    )
    with django_assert_num_queries(1):
        mark_begun(listed, league)
    assert [(f.begun, f.stopped) for f in listed] == [(True, True), (True, False)]
    with django_assert_num_queries(1):  # those with a result worked out only: both here
        mark_begun(listed, league, unscored=False)
    assert [f.stopped for f in listed] == [True, False]
