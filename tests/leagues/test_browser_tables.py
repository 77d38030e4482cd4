"""The secretary's Tables page on a phone (390×844), before the match: a pair a captain seated
at table 2 on the night page is offered at table 2, so seating table 1 beside it keeps each
pair at its own table, as the captains' night page then shows."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import FixtureTable
from leagues.services.seating import table_seat
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, phone_signed_in, squad
from tests.test_browser_pages import layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_seating_table_1_on_the_tables_page_keeps_table_2s_pair_at_table_2(
    phone: Page, live_server: Any
) -> None:
    """The Tables page filled its pickers in table order: table 2's pair (the only one seated)
    was offered at table 1, and table 2's pickers were empty."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=4)
    fixture = FixtureFactory(
        division=division,
        home=home,
        away=away,
        date=timezone.localdate() + datetime.timedelta(days=7),
    )
    ours, theirs = squad(home, division.season), squad(away, division.season)
    table_seat(fixture=fixture, board=2, home=ours[2:], away=theirs[2:], by=users["home"])
    phone_signed_in(phone, live_server, users["secretary"])

    phone.goto(live_server.url + reverse("leagues:manage_fixture_tables", args=[fixture.pk]))
    for side, pair in (("home", ours[2:]), ("away", theirs[2:])):
        for seat, player in enumerate(pair, start=1):
            expect(phone.locator(f"select[name=board_2_{side}_{seat}]")).to_have_value(
                str(player.pk)
            )
    for side, pair in (("home", ours[:2]), ("away", theirs[:2])):
        for seat, player in enumerate(pair, start=1):
            phone.locator(f"select[name=board_1_{side}_{seat}]").select_option(str(player.pk))
    assert layout_problems(phone, "the Tables page") == []
    with phone.expect_navigation():
        phone.get_by_role("button", name="Save the seating").tap()
    expect(phone.locator(".messages")).to_contain_text("Tables saved")

    phone.goto(live_server.url + reverse("leagues:fixture_night", args=[fixture.pk]))
    for board, pairs in ((1, (ours[:2], theirs[:2])), (2, (ours[2:], theirs[2:]))):
        words = " & ".join(map(str, pairs[0])) + " v " + " & ".join(map(str, pairs[1]))
        expect(phone.get_by_test_id(f"night-pairs-{board}")).to_have_text(words)
        table = FixtureTable.objects.get(fixture=fixture, board=board)
        assert (table.home_pair, table.away_pair) == (list(pairs[0]), list(pairs[1]))
