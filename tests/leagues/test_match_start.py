"""No game is begun or scored at a fixture's table before the match has started (its date and
time where the league plays), the rule its score card keeps. A walker seated a fixture of
8 December on 27 November, opened a table's link, scored every table, submitted the result and
had it confirmed and counted, days before the match. Captains may still seat the pairs and show
the QR codes ahead; the pages say when scoring opens, and a table seated early begins its first
game when its scorer opens the link once the match has started."""

from __future__ import annotations

import datetime
import zoneinfo
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from leagues.days import long_date
from leagues.formats import TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.models import FixtureTable, TableGame
from leagues.services.results import fixture_start, table_restart
from leagues.services.seating import table_seat
from scoring.models import Game
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, clock_at, page_words, squad

pytestmark = pytest.mark.django_db

TRINIDAD = zoneinfo.ZoneInfo("America/Port_of_Spain")


def _night(*, style: str = "yorkshire", date: datetime.date, time: datetime.time):
    if style == "yorkshire":
        league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    else:
        league = LeagueFactory(
            style="trinidad",
            time_zone="America/Port_of_Spain",
            ruleset={"preset": "trinidad", "target": 14},
            match_format=TRINIDAD_FORMAT.with_options(tables=2).to_spec(),
        )
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=4)
    fixture = FixtureFactory(division=division, home=home, away=away, date=date, time=time)
    season = division.season
    return fixture, users, squad(home, season), squad(away, season)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_table_seated_days_ahead_begins_no_game_and_its_link_says_when(monkeypatch) -> None:
    """Seated on 27 November for 8 December at 20:30: the pairs are seated and the link opens,
    but no game begins, so nothing can be scored; the link says when the tables are scored."""
    clock_at(monkeypatch, datetime.datetime(2026, 11, 27, 19, 0, tzinfo=datetime.UTC))
    match_day = datetime.date(2026, 12, 8)
    fixture, users, home, away = _night(date=match_day, time=datetime.time(20, 30))
    table = table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    assert table.scoring_link.is_live and table.games.count() == 0
    words = (
        f"This match is on {long_date(match_day)} at 20:30 London time: its tables are scored "
        "once it has started."
    )
    assert long_date(match_day) == "Tue 8 Dec 2026"

    response = Client().get(table.scoring_link.get_absolute_url())
    assert response.status_code == 200
    assert words in unescape(response.content.decode())
    assert not Game.objects.exists()

    # Nor does a secretary's restart begin it: that is for a table whose game was abandoned.
    with pytest.raises(ValidationError, match="Table 1 has no abandoned game to start again"):
        table_restart(table=table, by=users["secretary"])
    assert not TableGame.objects.exists()


def test_a_secretary_cannot_start_the_games_before_the_match_and_nothing_is_seated(
    monkeypatch,
) -> None:
    clock_at(monkeypatch, datetime.datetime(2026, 11, 27, 19, 0, tzinfo=datetime.UTC))
    fixture, users, home, away = _night(date=datetime.date(2026, 12, 8), time=datetime.time(20, 30))
    pairs = [(home[:2], away[:2]), (home[2:4], away[2:4])]
    with pytest.raises(ValidationError, match="its tables are scored once it has started"):
        fixture_start(fixture=fixture, pairs=pairs, by=users["secretary"])
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not Game.objects.exists()

    page = _client(users["secretary"]).get(
        reverse("leagues:manage_fixture_tables", kwargs={"pk": fixture.pk})
    )
    content = page_words(unescape(page.content.decode()))
    assert "This match is on Tue 8 Dec 2026 at 20:30 London time: its tables are scored" in content
    assert "Seat the pairs and start the games" not in content


def test_a_trinidad_table_waits_for_tonights_start_in_port_of_spain_then_begins(
    monkeypatch,
) -> None:
    """19:00 in Port of Spain (23:00 UTC) for an 8 pm match: seated, the table has no game, its
    link and the captain's pages say it starts at 20:00 tonight, and the fixture is not "In
    play". At 20:05 the scorer opens the link and the table's first game begins."""
    today = datetime.date(2026, 12, 8)
    clock_at(monkeypatch, datetime.datetime(2026, 12, 8, 19, 0, tzinfo=TRINIDAD))
    fixture, users, home, away = _night(style="trinidad", date=today, time=datetime.time(20, 0))
    table = table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    assert table.games.count() == 0
    words = (
        "This match starts at 20:00 Port of Spain time tonight: its tables are scored once it "
        "has started."
    )

    scorer = Client()
    link = table.scoring_link.get_absolute_url()
    assert words in unescape(scorer.get(link).content.decode())
    captain = _client(users["home"])
    night = unescape(
        captain.get(reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})).content.decode()
    )
    assert words in night
    qr = captain.get(reverse("leagues:table_qr", kwargs={"pk": fixture.pk, "board": 1}))
    assert words in unescape(qr.content.decode())
    fixture_page = Client().get(fixture.get_absolute_url()).content.decode()
    assert "In play" not in fixture_page
    assert not Game.objects.exists()

    clock_at(monkeypatch, datetime.datetime(2026, 12, 8, 20, 5, tzinfo=TRINIDAD))
    response = scorer.get(link)
    (table_game,) = TableGame.objects.filter(table=table)
    assert response.status_code == 302
    assert response["Location"] == table_game.game.get_absolute_url()
    assert [s.players for s in table_game.game.sides.order_by("label")] == [
        [p.name for p in home[:2]],
        [p.name for p in away[:2]],
    ]
    assert scorer.get(link)["Location"] == table_game.game.get_absolute_url()  # once
    assert TableGame.objects.filter(table=table).count() == 1
    assert words not in unescape(
        captain.get(reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})).content.decode()
    )

    # Seated once the match has started, a table begins at once, as before.
    second = table_seat(fixture=fixture, board=2, home=home[2:4], away=away[2:4], by=users["home"])
    assert second.games.count() == 1


def test_a_table_seated_before_its_match_was_postponed_begins_no_game_on_the_old_night(
    monkeypatch,
) -> None:
    """Seated ahead, then postponed: once the night it was set for came, its scorer's link
    began the table's first game, as if the match were played then. It begins none until the
    match is re-arranged, and says so."""
    from leagues.services.fixtures import fixture_postpone

    clock_at(monkeypatch, datetime.datetime(2026, 11, 27, 19, 0, tzinfo=datetime.UTC))
    match_day = datetime.date(2026, 12, 8)
    fixture, users, home, away = _night(date=match_day, time=datetime.time(20, 30))
    table = table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    fixture_postpone(fixture=fixture, reason="The pub is shut", by=users["secretary"])
    clock_at(monkeypatch, datetime.datetime(2026, 12, 8, 21, 0, tzinfo=datetime.UTC))
    response = Client().get(table.scoring_link.get_absolute_url())
    assert response.status_code == 200
    assert (
        "Postponed: no new date yet (it was set for Tue 8 Dec 2026 at 20:30 London time): its "
        "tables are scored once it is re-arranged." in unescape(response.content.decode())
    )
    assert not Game.objects.exists()
