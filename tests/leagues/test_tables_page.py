"""The secretary's Tables page and the match's other pages with some of its tables seated
(the captains seat them table by table on the night page), and once the match is decided."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.formats import YORKSHIRE_FORMAT
from leagues.fragments import invalidate_league
from leagues.models import Fixture, FixtureResult, FixtureTable
from leagues.selectors.counting import result_mark
from leagues.services.seating import table_seat
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import current_game, entered_teams, hand, page_words, record, squad

pytestmark = pytest.mark.django_db

A_HAND = {"high": "A", "low": "B", "jack": "A", "game": "A"}


def _match(*, tables: int, players: int, **when: Any) -> tuple[Fixture, Any, list, list]:
    """Black Bull v Old Hall on ``tables`` tables (``when``: its date and time), each team
    with ``players`` registered: (the fixture, a secretary, each side's squad)."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=tables).to_spec())
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=players)
    secretary = UserFactory()
    league.secretaries.add(secretary)
    fixture = FixtureFactory(division=division, home=home, away=away, **when)
    season = division.season
    return fixture, secretary, squad(home, season), squad(away, season)


@pytest.fixture
def one_seated():
    """A match of four tables, table 1 seated by a captain and a hand in; tables 2-4 not."""
    # Tonight, started already (at midnight), whatever the hour the tests run.
    fixture, secretary, home_squad, away_squad = _match(
        tables=4, players=8, date=timezone.localdate(), time=datetime.time(0, 0)
    )
    table = table_seat(fixture=fixture, board=1, home=home_squad[:2], away=away_squad[:2], by=None)
    game = current_game(table)
    record(game, [hand(game, "A", A_HAND)])
    client = Client()
    client.force_login(secretary)
    return fixture, client, home_squad, away_squad


def _tables_url(fixture) -> str:
    return reverse("leagues:manage_fixture_tables", args=[fixture.pk])


def test_the_tables_page_lists_every_table_and_seats_those_not_seated_yet(one_seated):
    """With table 1 of four seated it said "Games have started: the tables are set.", listed
    table 1 only and offered no way to seat tables 2-4: it names each table not seated yet and
    seats one with the seating service (its game opens at once, the match having started)."""
    fixture, client, home, away = one_seated
    words = page_words(client.get(_tables_url(fixture)))
    assert "the tables are set" not in words
    assert "tables 2, 3 and 4 are not seated yet" in words
    for board in (2, 3, 4):
        assert f"Table {board}: not seated yet" in words
        assert f'data-testid="tables-seat-{board}"' in words
    assert 'data-testid="unseated-table-1"' not in words
    assert f"{home[0].label} (table 1)" in words  # as the night page's pickers offer them
    posted = {
        "board": "3",
        "t3-home_1": home[4].pk,
        "t3-home_2": home[5].pk,
        "t3-away_1": away[4].pk,
        "t3-away_2": away[5].pk,
    }
    response = client.post(_tables_url(fixture), posted, follow=True)
    table = FixtureTable.objects.get(fixture=fixture, board=3)
    assert table.home_pair == home[4:6] and table.away_pair == away[4:6]
    assert table.games.count() == 1  # its first game is open: its scorer can start
    words = page_words(response)
    assert "Table 3 seated" in words
    assert 'data-testid="seated-table-3"' in words and "Table 3: not seated yet" not in words
    assert "tables 2 and 4 are not seated yet" in words


def test_a_refused_seating_on_the_tables_page_says_why_and_changes_nothing(one_seated):
    """A player already at table 1 seated at table 2: the service's refusal, on the page."""
    fixture, client, home, away = one_seated
    posted = {"board": "2", "t2-home_1": home[0].pk, "t2-away_1": away[4].pk}
    response = client.post(_tables_url(fixture), posted)
    assert response.status_code == 200
    assert "already seated at table 1" in page_words(response)
    assert not FixtureTable.objects.filter(fixture=fixture, board=2).exists()


def test_the_tables_page_of_a_result_confirmed_from_the_score_card_offers_no_seating(client):
    """A match confirmed from the score card offered 16 empty pickers and "Seat the pairs and
    start the games", refusing only once they were all filled: it says what decided it."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=4).to_spec())
    secretary = UserFactory()
    league.secretaries.add(secretary)
    fixture = FixtureFactory(division=DivisionFactory(season__league=league))
    for board in range(1, 5):
        FixtureTable.objects.create(fixture=fixture, board=board, source=FixtureTable.Source.CARD)
    FixtureResultFactory(fixture=fixture, home_win=True)
    client.force_login(secretary)
    response = client.get(_tables_url(fixture))
    words = page_words(response)
    assert "The result from the score card is confirmed." in words
    assert "<select" not in words and "Seat the pairs and start the games" not in words
    assert client.post(_tables_url(fixture), {"start": "1"}).status_code == 200


@pytest.mark.parametrize(
    ("submitted", "state"), [(True, "awaiting confirmation"), (False, "not yet submitted")]
)
def test_the_tables_page_words_a_result_not_confirmed_as_the_lists_mark_it(
    client, submitted, state
):
    """The Tables page worded a result's state itself ("submitted, waiting to be confirmed",
    "in") where the lists mark it "awaiting confirmation" or "not yet submitted": it says it
    in the lists' words (``result_state``)."""
    fixture, secretary, _, _ = _match(tables=1, players=2)
    FixtureTable.objects.create(fixture=fixture, board=1, source=FixtureTable.Source.CARD)
    result = FixtureResultFactory(fixture=fixture, home_win=True, confirmed=False)
    FixtureResult.objects.filter(pk=result.pk).update(submitted=submitted)
    fixture.result.refresh_from_db()
    assert result_mark(fixture) == state
    client.force_login(secretary)
    words = page_words(client.get(_tables_url(fixture)))
    assert f"The result from the score card is {state}." in words


def test_the_fixture_card_with_no_table_seated_links_to_the_night_page(client):
    """ "The tables are not set yet: seat the pairs first." linked only the Tables page: it
    links the night page too, where the captains seat the tables one by one."""
    league = LeagueFactory()
    secretary = UserFactory()
    league.secretaries.add(secretary)
    fixture = FixtureFactory(division=DivisionFactory(season__league=league))
    client.force_login(secretary)
    words = page_words(client.get(reverse("leagues:manage_fixture_card", args=[fixture.pk])))
    assert "The tables are not set yet" in words
    assert f'href="{reverse("leagues:fixture_night", args=[fixture.pk])}"' in words
    assert f'href="{_tables_url(fixture)}"' in words


def test_every_page_of_the_match_names_the_tables_not_seated_yet(client, one_seated):
    """With table 1 of four seated, the fixture's page, its result page ("Play is still going
    on") and the league night's page showed table 1 alone: nobody could tell three tables
    were still to play. Each names tables 2-4 "not seated yet", linking the night page."""
    fixture, _, _, _ = one_seated
    night = reverse("leagues:fixture_night", args=[fixture.pk])
    league = fixture.division.season.league
    pages = {
        "fixture": fixture.get_absolute_url(),
        "result": reverse("leagues:fixture_result", args=[fixture.pk]),
        "league night": reverse("leagues:league_live", args=[league.slug]),
    }
    for page, url in pages.items():
        words = page_words(client.get(url))
        assert "Table 1" in words, page
        for board in (2, 3, 4):
            assert f"Table {board}: not seated yet" in words, (page, board)
        assert "Table 1: not seated yet" not in words, page
        assert f'href="{night}"' in words, page
    # Before any table is seated a page says the pairs are not seated yet (not four tables
    # "not seated yet"); a match decided names none either.
    other = FixtureFactory(division=fixture.division, date=fixture.date, time=fixture.time)
    words = page_words(client.get(other.get_absolute_url()))
    assert "The pairs are not seated yet." in words and "not seated yet ·" not in words
    assert "not seated yet</h3>" not in words
    fixture.status = fixture.Status.VOID
    fixture.save(update_fields=["status"])
    invalidate_league(fixture.division.season.league_id)
    assert "not seated yet</h3>" not in page_words(client.get(fixture.get_absolute_url()))


def _chosen(body: str, name: str) -> str:
    """The value of the option shown chosen in the picker ``name`` ("" for none)."""
    picker = body.split(f'name="{name}"')[1].split("</select>")[0]
    found = re.search(r'<option value="(\d*)"[^>]*selected', picker)
    return found.group(1) if found else ""


def test_the_tables_pickers_before_the_match_offer_each_seated_pair_at_its_own_table(client):
    """With table 2 of two seated by a captain before the match, the Tables page's seating
    offered table 2's pair in table 1's pickers (filled in table order, not by board) and
    table 2's empty; and, opened, it showed every picker empty and "This field is required"
    (the form bound to a GET's empty POST). Each seated pair is at its own table."""
    week = timezone.localdate() + datetime.timedelta(days=7)
    fixture, secretary, ours, theirs = _match(tables=2, players=4, date=week)
    table_seat(fixture=fixture, board=2, home=ours[2:], away=theirs[2:], by=None)
    client.force_login(secretary)
    body = client.get(_tables_url(fixture)).content.decode()
    assert "This field is required" not in body and "aria-invalid" not in body
    for side, pair in (("home", ours[2:]), ("away", theirs[2:])):
        for seat, player in enumerate(pair, start=1):
            assert _chosen(body, f"board_2_{side}_{seat}") == str(player.pk)
            assert _chosen(body, f"board_1_{side}_{seat}") == ""
