"""Following a league night: the fixture page and the league night's page show each table's
game as it stands (score, hand, who deals) and say when they last changed; a poll of an
unchanged page is a 304 from one cache read, and a hand changes only its own fixture's tag."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture
from leagues.tables import fixture_score
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory, SeasonFactory
from tests.leagues.helpers import (
    current_game,
    entered_teams,
    hand,
    page_words,
    record,
    start_fixture,
    win_game,
)

pytestmark = pytest.mark.django_db

A_HAND = {"high": "A", "low": "B", "jack": "A", "game": "A"}


@pytest.fixture
def night():
    """Tonight: two fixtures of one division, the first under way (one hand at table 1)."""
    league = LeagueFactory(name="Spen Valley League")
    division = DivisionFactory(season__league=league, name="First Division")
    bull, hall, oak, crown = entered_teams(
        division, ["Black Bull", "Old Hall", "Royal Oak", "Crown"]
    )
    today = timezone.localdate()
    # Started already (at midnight), whatever the hour the tests run: no game begins before.
    began = datetime.time(0, 0)
    first = FixtureFactory(division=division, home=bull, away=hall, date=today, time=began)
    second = FixtureFactory(division=division, home=oak, away=crown, date=today, time=began)
    game = current_game(start_fixture(first)[0])
    record(game, [hand(game, "A", A_HAND)])
    other = current_game(start_fixture(second)[0])
    return league, division, first, second, game, other


def poll(client, url, tag=None):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(url, **headers)


def test_the_fixture_page_shows_each_table_as_it_stands_and_when_it_changed(client, night):
    league, _, fixture, _, game, _ = night
    page = client.get(fixture.get_absolute_url())
    words = page_words(page)
    dealer = game.sides.get(label=game.next_dealer).name
    assert f"after hand 1</span> · {dealer} to deal" in words
    assert "no hand yet" in words  # the other tables
    assert 'data-testid="last-change"' in words
    live_url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    assert f'data-live-url="{live_url}"' in words
    assert 'data-live-tag="&quot;' in words or 'data-live-tag="' in words


def test_an_unchanged_poll_is_a_304_from_one_cache_read(client, night, django_assert_num_queries):
    league, _, fixture, _, _, _ = night
    url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    first = poll(client, url)
    assert first.status_code == 200 and first["ETag"]
    assert "after hand 1" in page_words(first)
    with django_assert_num_queries(1):  # the database cache's read of the versions; no other
        again = poll(client, url, first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    # GZip makes a sent tag weak: the same tag, weak, is the same page.
    assert poll(client, url, "W/" + first["ETag"]).status_code == 304
    assert client.head(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_hand_changes_its_own_fixtures_tag_and_not_the_others(client, night):
    league, _, fixture, second, game, other = night
    url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    other_url = reverse("leagues:fixture_live", args=[league.pk, second.pk])
    tag, other_tag = poll(client, url)["ETag"], poll(client, other_url)["ETag"]

    record(game, [hand(game, game.next_dealer, A_HAND)])
    changed = poll(client, url, tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert "after hand 2" in page_words(changed)
    assert poll(client, other_url, other_tag).status_code == 304

    record(other, [hand(other, other.next_dealer or "A", A_HAND)])
    assert poll(client, other_url, other_tag).status_code == 200
    assert poll(client, url, changed["ETag"]).status_code == 304


def test_a_poll_for_a_fixture_of_another_league_is_refused(client, night):
    _, _, fixture, _, _, _ = night
    elsewhere = LeagueFactory(name="Port of Spain League")
    for url in (
        reverse("leagues:fixture_live", args=[elsewhere.pk, fixture.pk]),
        reverse("leagues:fixture_live", args=[elsewhere.pk, 999_999]),
        reverse("leagues:league_live_poll", args=[999_999]),
    ):
        response = client.get(url)
        assert response.status_code == 404, url
    assert (
        client.post(reverse("leagues:fixture_live", args=[elsewhere.pk, fixture.pk])).status_code
        == 405
    )


def test_the_league_night_page_shows_every_match_and_the_provisional_table(
    client, night, django_assert_num_queries
):
    league, division, fixture, second, game, _ = night
    home = page_words(client.get(league.get_absolute_url()))
    live_page = reverse("leagues:league_live", args=[league.slug])
    # "today's" before 17:00 where the league plays, "tonight's" from then (``day_word``).
    assert f'href="{live_page}"' in home and "'s matches live" in home

    response = client.get(live_page)
    words = page_words(response)
    assert response.status_code == 200
    # "Today's matches" before 17:00 where the league plays, "Tonight's" from then.
    assert re.search(r"(Today|Tonight)'s matches", words) and "2 matches in play" in words
    assert "not started" not in words
    assert "Black Bull" in words and "Royal Oak" in words
    score = "–".join(str(side.score) for side in game.sides.order_by("position"))
    assert f"Table 1, game 1: {score}" in words and "after hand 1" in words
    assert "The tables as they would stand" in words and "Provisional" in words
    assert division.name in words
    assert 'data-testid="last-change"' in words

    url = reverse("leagues:league_live_poll", args=[league.pk])
    first = poll(client, url)
    assert first.status_code == 200 and "'s matches" in page_words(first)
    # The league (its time zone says which date the night is), then the versions' cache read.
    with django_assert_num_queries(2):
        assert poll(client, url, first["ETag"]).status_code == 304
    record(game, [hand(game, game.next_dealer, A_HAND)])
    assert poll(client, url, first["ETag"]).status_code == 200


def test_a_night_without_fixtures_says_so_and_names_the_next(client):
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=2)
    next_week = timezone.localdate() + timezone.timedelta(days=7)
    FixtureFactory(division=division, home=home, away=away, date=next_week)
    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert "No league fixtures tonight." in words
    assert f"The next league night is {next_week:%A} {next_week.day} {next_week:%B}" in words
    # Nothing to follow: the page does not poll, and a poll is told to stop.
    assert "data-live-url" not in words and "live.js" not in words
    assert client.get(reverse("leagues:league_live_poll", args=[league.pk])).status_code == 286
    assert "'s matches live" not in page_words(client.get(league.get_absolute_url()))


def test_a_finished_fixture_page_does_not_poll(client, night):
    _, _, fixture, _, _, _ = night
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.VOID)
    assert "data-live-url" not in client.get(fixture.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    "zone, tonight", [("Pacific/Kiritimati", True), ("Pacific/Pago_Pago", False)]
)
def test_tonight_is_the_leagues_own_night(client, zone, tonight):
    """A league night is tonight where the league plays: a fixture dated today on Kiritimati
    (UTC+14) is tonight for a league there and never for one on Pago Pago (UTC-11), whose
    date is always a day or two behind, whatever the site's zone."""
    from leagues.zones import today_in

    league = LeagueFactory(time_zone=zone)
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=2)
    FixtureFactory(division=division, home=home, away=away, date=today_in("Pacific/Kiritimati"))
    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert ("No league fixtures tonight." not in words) is tonight
    poll = client.get(reverse("leagues:league_live_poll", args=[league.pk]))
    assert ("No league fixtures tonight." not in page_words(poll)) is tonight


def test_the_league_night_tells_matches_in_play_from_those_not_started(client):
    """A match whose pairs are not seated yet (or whose score card is still to come) is not
    "in play": the night says how many are under way and how many have not started."""
    league = LeagueFactory(name="Calder League")
    division = DivisionFactory(season__league=league)
    bull, hall, oak, crown, swan, star = entered_teams(
        division, ["Black Bull", "Old Hall", "Royal Oak", "Crown", "Swan", "Star"]
    )
    today = timezone.localdate()
    # Started at midnight (whatever the hour the tests run); the others start at 20:00.
    started = FixtureFactory(
        division=division, home=bull, away=hall, date=today, time=datetime.time(0, 0)
    )
    FixtureFactory(division=division, home=oak, away=crown, date=today)
    FixtureFactory(division=division, home=swan, away=star, date=today, kind=Fixture.Kind.CUP)
    game = current_game(start_fixture(started)[0])
    record(game, [hand(game, "A", A_HAND)])

    page = client.get(reverse("leagues:league_live", args=[league.slug]))
    words = page_words(page)
    assert "1 match in play" in words and "2 not started" in words
    # The fixture's page says the same of it (no game is won yet: it has no result yet).
    assert not hasattr(Fixture.objects.get(pk=started.pk), "result")
    assert " · In play</p>" in page_words(client.get(started.get_absolute_url()))

    # Every table decided, nothing submitted yet: the night counts it finished.
    for table in started.tables.all():
        game = current_game(table)
        if game.status == "in_progress":
            win_game(game, "A", 1)
    started.refresh_from_db()
    assert started.status == Fixture.Status.PLAYED and started.result.is_final
    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert "1 finished" in words and "2 not started" in words
    assert "match in play" not in words
    assert " · Played</p>" in page_words(client.get(started.get_absolute_url()))


def test_a_match_from_the_score_card_gives_its_tables_not_no_game_started():
    """A first night typed from the cards read "9–3" above "Table 1: no game started." six
    times: each card table gives what the card gave."""
    from django.test import Client

    from leagues.formats import YORKSHIRE_FORMAT
    from leagues.services.cards import CardTable, fixture_card_enter
    from tests.factories.scoring import UserFactory

    league = LeagueFactory(name="Calder League", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    bull, hall = entered_teams(division, ["Black Bull", "Old Hall"])
    # Started at midnight: its card is taken whenever today the test runs.
    fixture = FixtureFactory(
        division=division,
        home=bull,
        away=hall,
        date=timezone.localdate(),
        time=datetime.time(0, 0),
    )
    scores = ((11, 7), (9, 11), (11, 4), (11, 10))
    card = [CardTable(board=b, games=(s,)) for b, s in enumerate(scores, start=1)]
    secretary = UserFactory()
    league.secretaries.add(secretary)
    fixture_card_enter(fixture=fixture, tables=card, by=secretary)
    page = Client().get(reverse("leagues:league_live", args=[league.slug])).content.decode()
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "no game started" not in words
    assert "Table 1: won by Black Bull · 11–7 from the score card" in words
    assert "Table 2: won by Old Hall · 9–11 from the score card" in words


def test_a_table_seated_on_the_night_then_typed_from_the_card_gives_the_cards_figures():
    """The pairs were seated (each table's game opened on a phone, no hand played), then the
    captain typed the paper card: the league night read "Table 1, game 1: 0–0 abandoned"
    under a match the card had settled. Each table gives what the card gave."""
    from django.test import Client

    from leagues.formats import YORKSHIRE_FORMAT
    from leagues.services.cards import CardTable, fixture_card_enter
    from tests.factories.scoring import UserFactory

    league = LeagueFactory(name="Calder League", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    bull, hall = entered_teams(division, ["Black Bull", "Old Hall"])
    fixture = FixtureFactory(
        division=division,
        home=bull,
        away=hall,
        date=timezone.localdate(),
        time=datetime.time(0, 0),
    )
    start_fixture(fixture)
    scores = ((11, 7), (9, 11), (11, 4), (11, 10))
    card = [CardTable(board=b, games=(s,)) for b, s in enumerate(scores, start=1)]
    secretary = UserFactory()
    league.secretaries.add(secretary)
    fixture_card_enter(fixture=fixture, tables=card, by=secretary)
    words = page_words(Client().get(reverse("leagues:league_live", args=[league.slug])))
    words = " ".join(re.sub(r"<[^>]+>", " ", words).split())
    assert "abandoned" not in words
    assert "Table 1: won by Black Bull · 11–7 from the score card" in words
    assert "Table 2: won by Old Hall · 9–11 from the score card" in words


def _fixture_on(day_offset, **kwargs):
    league = LeagueFactory(name="Calder League", time_zone="America/Port_of_Spain")
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    day = league.today() + datetime.timedelta(days=day_offset)
    return FixtureFactory(division=division, home=home, away=away, date=day, **kwargs)


LIVE_NOTE = "this page follows the tables by itself"


@pytest.mark.parametrize("day_offset", [-3, 5])
def test_a_fixture_page_off_its_night_and_not_in_play_does_not_follow_the_tables(
    client, day_offset
):
    fixture = _fixture_on(day_offset)
    words = page_words(client.get(fixture.get_absolute_url()))
    assert "data-live-url" not in words and LIVE_NOTE not in words
    assert "live.js" not in words
    if day_offset < 0:  # its night has passed: not upcoming, waiting for its result
        assert "Result not in yet" in words and "Scheduled" not in words
    else:
        assert "Scheduled" in words and "not in yet" not in words


def test_a_fixture_page_follows_the_tables_on_its_night_in_the_leagues_zone(client):
    fixture = _fixture_on(0)
    words = page_words(client.get(fixture.get_absolute_url()))
    assert "data-live-url" in words and LIVE_NOTE in words and "Scheduled" in words


def test_a_past_fixture_still_in_play_follows_the_tables(client):
    fixture = _fixture_on(-1)
    game = current_game(start_fixture(fixture)[0])
    record(game, [hand(game, "A", A_HAND)])
    words = page_words(client.get(fixture.get_absolute_url()))
    assert "data-live-url" in words and LIVE_NOTE in words and "In play" in words


def _after_midnight(monkeypatch, league):
    """The league's clock moved on to a minute past its next midnight."""
    import zoneinfo

    tomorrow = league.today() + datetime.timedelta(days=1)
    after = datetime.datetime.combine(
        tomorrow, datetime.time(0, 1), tzinfo=zoneinfo.ZoneInfo(league.time_zone)
    )
    monkeypatch.setattr("leagues.models.today_in", lambda zone: tomorrow)
    monkeypatch.setattr("django.utils.timezone.now", lambda: after)


def test_a_fixture_page_left_open_past_its_night_is_told_to_stop_following(client, monkeypatch):
    """A fixture page opened on its night and left open past midnight, nothing in play, was
    polled every ten seconds until reloaded: its tag never changed (304), and an answer in
    full said nothing of stopping. Past midnight the poll is answered in full with the page as
    it now reads, and status 286: the page stops following (htmx's "stop polling")."""
    fixture = _fixture_on(0)
    page = client.get(fixture.get_absolute_url())
    assert LIVE_NOTE in page_words(page)
    league = fixture.division.season.league
    url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    first = poll(client, url)
    assert first.status_code == 200
    assert poll(client, url, first["ETag"]).status_code == 304  # that night, nothing new

    _after_midnight(monkeypatch, league)
    late = poll(client, url, first["ETag"])
    assert late.status_code == 286
    assert "Result not in yet" in page_words(late)
    # A page opened now does not follow, and a poll without a tag is told to stop too.
    assert "data-live-url" not in client.get(fixture.get_absolute_url()).content.decode()
    assert poll(client, url).status_code == 286


def test_a_fixture_page_still_in_play_past_midnight_keeps_following(client, monkeypatch):
    fixture = _fixture_on(0)
    _at(monkeypatch, fixture.division.season.league, fixture.date, 20, 30)  # it has started
    game = current_game(start_fixture(fixture)[0])
    record(game, [hand(game, "A", A_HAND)])
    league = fixture.division.season.league
    url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    first = poll(client, url)
    _after_midnight(monkeypatch, league)
    late = poll(client, url, first["ETag"])
    assert late.status_code == 200 and "In play" in page_words(late)
    assert poll(client, url, late["ETag"]).status_code == 304


def test_a_fixture_finished_on_its_night_stops_its_page_following(client, monkeypatch):
    fixture = _fixture_on(0)
    _at(monkeypatch, fixture.division.season.league, fixture.date, 20, 30)  # it has started
    tables = start_fixture(fixture)
    league = fixture.division.season.league
    url = reverse("leagues:fixture_live", args=[league.pk, fixture.pk])
    first = poll(client, url)
    assert first.status_code == 200
    for table in tables:
        game = current_game(table)
        if game.status == "in_progress":
            win_game(game, "A", 1)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    done = poll(client, url, first["ETag"])
    assert done.status_code == 286 and " · Played</p>" in page_words(done)


def test_the_league_night_page_left_open_past_midnight_follows_while_a_match_is_in_play(
    client, night, monkeypatch
):
    """A league night runs past midnight: the page opened that evening and polled on after
    midnight, its matches still in play, shows them and keeps following (it said "no league
    fixtures tonight" and stopped, though every table was still playing)."""
    league = night[0]
    url = reverse("leagues:league_live_poll", args=[league.pk])
    first = poll(client, url)
    assert first.status_code == 200
    _after_midnight(monkeypatch, league)
    late = poll(client, url, first["ETag"])
    words = page_words(late)
    assert late.status_code == 200 and "Tonight's matches" in words
    assert "2 matches in play" in words and "No league fixtures tonight." not in words
    assert poll(client, url, late["ETag"]).status_code == 304


def test_the_league_night_page_left_open_past_midnight_is_told_to_stop_once_it_is_over(
    client, night, monkeypatch
):
    """Its poll is answered with status 286 once the night's last match is finished (in the
    small hours: "the league night of ... is over"), and the page stops following."""
    league, _, first_fixture, second_fixture, _, _ = night
    url = reverse("leagues:league_live_poll", args=[league.pk])
    _after_midnight(monkeypatch, league)
    tag = poll(client, url)["ETag"]
    _finish(first_fixture)
    assert poll(client, url, tag).status_code == 200  # the other still in play
    _finish(second_fixture)
    late = poll(client, url, tag)
    words = page_words(late)
    assert late.status_code == 286
    assert f"The league night of {_day_words(first_fixture.date)} is over" in words
    assert "no match is still in play" in words
    assert "No league fixtures tonight." not in words


def _finish(fixture):
    """Every table of the fixture played to the end."""
    for table in fixture.tables.all():
        game = current_game(table)
        if game.status == "in_progress":
            win_game(game, "A", 1)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED


def _day_words(day):
    return f"{day:%A} {day.day} {day:%B}"


def _at(monkeypatch, league, day, hour, minute):
    """The clock moved to ``hour``:``minute`` on ``day`` where the league plays."""
    import zoneinfo

    from tests.leagues.helpers import clock_at

    local = datetime.datetime.combine(
        day, datetime.time(hour, minute), tzinfo=zoneinfo.ZoneInfo(league.time_zone)
    )
    clock_at(monkeypatch, local.astimezone(datetime.UTC))


def _in_play_last_night(monkeypatch, hour=0, minute=30):
    """A match of the evening before in Port of Spain, a hand played, and the clock at
    ``hour``:``minute`` the morning after there."""
    fixture = _fixture_on(0)
    league = fixture.division.season.league
    _at(monkeypatch, league, fixture.date, 21, 0)  # the match has started
    game = current_game(start_fixture(fixture)[0])
    record(game, [hand(game, "A", A_HAND)])
    _at(monkeypatch, league, fixture.date + datetime.timedelta(days=1), hour, minute)
    return league, fixture


def test_at_half_past_midnight_last_nights_match_in_play_is_still_the_night(
    client, monkeypatch, django_assert_num_queries
):
    """At 00:30 where the league plays, a match of the evening before still in play: the
    league night's page shows that night and follows its tables, the league's page links to
    it, and an unchanged poll is still a 304 from the league's row and one cache read."""
    league, fixture = _in_play_last_night(monkeypatch)
    page = client.get(reverse("leagues:league_live", args=[league.slug]))
    words = page_words(page)
    assert "Tonight's matches" in words and "1 match in play" in words
    assert f'data-testid="live-score-{fixture.pk}"' in words
    assert f"{_day_words(fixture.date)} {fixture.date.year}" in words
    assert "data-live-url" in words and "live.js" in words
    assert 'data-testid="league-night-link"' in page_words(client.get(league.get_absolute_url()))
    url = reverse("leagues:league_live_poll", args=[league.pk])
    first = poll(client, url)
    assert first.status_code == 200 and "1 match in play" in page_words(first)
    with django_assert_num_queries(2):
        assert poll(client, url, first["ETag"]).status_code == 304

    # The last match finished: the night is over, and the page is told to stop.
    _finish(fixture)
    over = poll(client, url, first["ETag"])
    words = page_words(over)
    assert over.status_code == 286
    assert (
        f"The league night of {_day_words(fixture.date)} is over: no match is still in play."
        in words
    )


def test_at_half_past_midnight_with_every_match_finished_the_night_is_over(client, monkeypatch):
    """At 00:30 with every match of the evening before finished, the night is over: the page
    says so in those words (not "no league fixtures tonight"), and neither follows nor is
    polled on; the league's page no longer links to it."""
    league, fixture = _in_play_last_night(monkeypatch)
    _finish(fixture)
    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert (
        f"The league night of {_day_words(fixture.date)} is over: no match is still in play."
        in words
    )
    assert "No league fixtures tonight." not in words and "Tonight's matches" not in words
    assert "data-live-url" not in words and "live.js" not in words
    poll_response = client.get(reverse("leagues:league_live_poll", args=[league.pk]))
    assert poll_response.status_code == 286
    home = page_words(client.get(league.get_absolute_url()))
    assert 'data-testid="league-night-link"' not in home


def test_a_match_left_in_play_is_not_the_night_after_six_in_the_morning(client, monkeypatch):
    """A game left in progress when the pub shut does not keep the page on last night: from
    06:00 where the league plays the night is today's (here none)."""
    league, _ = _in_play_last_night(monkeypatch, hour=6, minute=0)
    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert "No league fixtures tonight." in words and "data-live-url" not in words
    assert client.get(reverse("leagues:league_live_poll", args=[league.pk])).status_code == 286


def test_the_league_night_names_who_won_a_tables_game(client, night):
    """A table's finished game read "Table 1, game 1: 3–11 won", without who won it: the table
    it decided says "won by Crown", as the fixture's page does, with its score."""
    league, _, _, _, _, other = night
    win_game(other, "B", 3)
    words = " ".join(
        re.sub(
            r"<[^>]+>",
            " ",
            client.get(reverse("leagues:league_live", args=[league.slug])).content.decode(),
        ).split()
    )
    assert "Table 1: won by Crown · 3–11" in words


def test_a_list_calls_a_match_in_play_with_a_table_finished_in_play(client, night):
    """Once a table of a match had finished (a result worked out, not final yet), the
    division's fixtures read "3–11 in play" under Result and "Scheduled" under Status, where
    the fixture's page says "In play": the list says "In play" too."""
    _, division, _, second, _, other = night
    win_game(other, "B", 3)
    second.refresh_from_db()
    assert second.status == Fixture.Status.SCHEDULED and not second.result.is_final
    response = client.get(reverse("leagues:division_fixtures_csv", args=[division.pk]))
    rows = {row["Home"]: row for row in csv.DictReader(io.StringIO(response.content.decode()))}
    assert rows["Royal Oak"]["Result"].endswith(" in play")
    assert rows["Royal Oak"]["Status"] == "In play"
    assert " · In play</p>" in page_words(client.get(second.get_absolute_url()))


def _listed_status(client, division, day) -> dict[str, str]:
    """The division's fixtures of the night ``day`` as its page lists them: the status by
    home team."""
    url = reverse("leagues:division_fixtures", args=[division.pk]) + f"?week={day.isoformat()}"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page_words(client.get(url)))
    found = {}
    for row in rows:
        cells = [
            re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)
        ]
        if cells:
            found[cells[0]] = cells[-1]
    return found


def test_the_division_list_says_in_play_on_the_night_of_a_match_begun(client, night):
    """On its night, a match with a game begun at table 1 (one hand in, no table finished) was
    listed "Scheduled" by the division's fixtures, where its page said "In play": only a
    fixture whose night had passed was looked at for a game begun. The list says "In play",
    and a match not begun on the same night stays "Scheduled"."""
    _, division, first, second, _, _ = night
    idle = FixtureFactory(
        division=division, home=first.away, away=second.away, date=first.date, time=first.time
    )
    assert " · In play</p>" in page_words(client.get(first.get_absolute_url()))
    statuses = _listed_status(client, division, first.date)
    assert statuses["Black Bull"] == "In play"
    assert statuses["Royal Oak"] == "In play"  # its table 1's game is open, no hand yet
    assert statuses[idle.home.name] == "Scheduled"


def test_the_league_home_lists_a_match_in_play_with_its_score_as_the_lists_do(client, night):
    """Its "Next fixtures" listed a match with a table finished as "Royal Oak v Crown", where
    the division's fixtures and the team pages say "0–2 in play" (``fixture_score``)."""
    league, _, _, second, _, other = night
    win_game(other, "B", 3)
    second.refresh_from_db()
    score = fixture_score(second)
    assert score.endswith(" in play")
    home = page_words(client.get(league.get_absolute_url()))
    upcoming = home.split("Next fixtures", 1)[1]
    line = re.search(r'href="' + second.get_absolute_url() + r'">([^<]*)</a>', upcoming)
    assert line is not None and line.group(1) == score


def test_the_last_night_of_a_season_past_midnight_is_followed_when_the_next_season_starts_that_day(
    client, monkeypatch, django_assert_num_queries
):
    """At 00:30 on the first day of the next season (made ahead, starting that day), a match of
    the old season's last night still in play: the night is still that night, its match shown
    and followed, the league's page linking to it (the night followed only the season in play
    today, the new one, which has no fixture that night)."""
    league, fixture = _in_play_last_night(monkeypatch)
    SeasonFactory(league=league, name="Next", starts_on=fixture.date + datetime.timedelta(days=1))
    page = client.get(reverse("leagues:league_live", args=[league.slug]))
    words = page_words(page)
    assert "1 match in play" in words and f'data-testid="live-score-{fixture.pk}"' in words
    assert "data-live-url" in words
    assert 'data-testid="league-night-link"' in page_words(client.get(league.get_absolute_url()))
    url = reverse("leagues:league_live_poll", args=[league.pk])
    # Answered in full from the fragment the page stored: the league, the versions, which
    # night it is (one query, of every season), the fragment.
    with django_assert_num_queries(4):
        first = poll(client, url)
    assert first.status_code == 200 and "1 match in play" in page_words(first)


def _seated_ahead(monkeypatch):
    """A match at 20:00 tonight, its table 1 seated at noon (no game yet): (the clock at noon,
    its zone and day, the division, the fixture, the table)."""
    from zoneinfo import ZoneInfo

    from leagues.services.seating import table_seat
    from tests.leagues.helpers import clock_at, squad

    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    zone = ZoneInfo(league.time_zone)
    day = timezone.now().astimezone(zone).date()
    clock_at(monkeypatch, datetime.datetime.combine(day, datetime.time(12, 0), tzinfo=zone))
    fixture = FixtureFactory(
        division=division, home=home, away=away, date=day, time=datetime.time(20, 0)
    )
    season = division.season
    table = table_seat(
        fixture=fixture,
        board=1,
        home=squad(home, season)[:2],
        away=squad(away, season)[:2],
        by=None,
    )
    assert table.games.count() == 0  # the match has not started: no game yet
    later = datetime.datetime.combine(day, datetime.time(20, 30), tzinfo=zone)
    return later, day, division, fixture, table


def test_a_table_seated_ahead_whose_scorer_begins_it_turns_the_list_to_in_play(client, monkeypatch):
    """A table seated before the match starts begins its game when its scorer opens the link
    after the start: only the pages that follow games were told, so the division's list,
    cached since the seating, went on saying "Scheduled" all night. Beginning a table's game
    is a change of the league's lists: they say "In play"."""
    from leagues.services.results import table_link_opened
    from tests.leagues.helpers import clock_at

    later, day, division, _, table = _seated_ahead(monkeypatch)
    assert _listed_status(client, division, day)["Black Bull"] == "Scheduled"
    clock_at(monkeypatch, later)
    assert table_link_opened(link=table.scoring_link) == ""
    assert table.games.count() == 1
    assert _listed_status(client, division, day)["Black Bull"] == "In play"


def test_a_table_begun_by_opening_its_link_is_on_the_fixtures_audit_trail(client, monkeypatch):
    """Every other start of a table's game (its seating, its restart) is on the fixture's
    audit trail; the one its scorer began by opening the table's link was not, and bumped the
    league's version itself. It is written there, by the scorer's account and the link, once:
    the link opened again begins nothing more."""
    from leagues.models import AuditEntry
    from scoring.models import HandRevision, RevisionAction
    from tests.factories.scoring import UserFactory
    from tests.leagues.helpers import clock_at

    later, _, _, fixture, table = _seated_ahead(monkeypatch)
    scorer = UserFactory()
    client.force_login(scorer)
    opened = reverse("scoring:link_open", args=[table.scoring_link.key])
    client.get(opened)  # before the start: it waits, nothing written
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_STARTED).exists()
    clock_at(monkeypatch, later)
    assert client.get(opened).status_code == 302
    client.get(opened)
    entry = AuditEntry.objects.get(fixture=fixture, action=AuditEntry.Action.TABLE_STARTED)
    assert entry.subject == "Table 1 started: game 1, on its scoring link"
    assert (entry.by, entry.link) == (scorer, table.scoring_link)
    assert table.games.count() == 1
    # The game's own trail names where it was begun from, as the fixture's does.
    start = HandRevision.objects.get(game=table.games.get().game, action=RevisionAction.START)
    assert entry.ip == start.ip == "127.0.0.1"
    secretary = UserFactory()
    fixture.division.season.league.secretaries.add(secretary)
    client.force_login(secretary)
    audit = page_words(client.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])))
    assert 'data-testid="audit-table_started"' in audit


def _night_text(client, league) -> str:
    """The league night's page as a reader sees it: its words, without the markup."""
    page = client.get(reverse("leagues:league_live", args=[league.slug])).content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def test_the_league_night_gives_each_two_game_tables_result_not_its_last_game(
    client, django_assert_num_queries
):
    """A Trinidad match of four tables, two games each, finished 4–4 (the tables 1–1, 2–0,
    1–1, 0–2): the league night read "Table 1, game 2: 0–14 won by St James Bullseyes" and
    the like, each table's last game alone, as if St James had taken three tables of four. Each
    table gives its result as the fixture's page does (who took it, or halved, and its figures
    as the engine stored them), and a table still playing its game in play and its finished
    games' figures."""
    from leagues.formats import TRINIDAD_FORMAT

    league = LeagueFactory(
        trinidad=True,
        name="Belmont League",
        match_format=TRINIDAD_FORMAT.with_options(tables=4).to_spec(),
    )
    division = DivisionFactory(season__league=league)
    kings, james = entered_teams(division, ["Belmont Kings", "St James Bullseyes"])
    fixture = FixtureFactory(
        division=division, home=kings, away=james, date=league.today(), time=datetime.time(0, 0)
    )
    tables = [table_game.table for table_game in start_fixture(fixture)]
    # Table 1's first game won by the home side; its second under way.
    win_game(current_game(tables[0]), "A", 9)
    game = current_game(tables[0])
    record(game, [hand(game, game.next_dealer, A_HAND)])
    words = _night_text(client, league)
    assert "Table 1, game 2: 3–1 after hand 1 · Belmont Kings to deal" in words
    assert "Table 1: so far 14–9 (bullseyes 1–0)" in words

    win_game(game, "B", 4)  # table 1: 1–1
    for table, winners in zip(tables[1:], ("AA", "BA", "BB"), strict=True):
        for winner in winners:
            win_game(current_game(table), winner, 5)
    fixture.refresh_from_db()
    assert (fixture.result.home_games, fixture.result.away_games) == (4, 4)
    words = _night_text(client, league)
    assert "game 2: 0–14" not in words and "game 2: 5–14" not in words
    assert "Table 1: halved · " in words and "(bullseyes 1–1)" in words
    assert "Table 2: won by Belmont Kings · 28–10 (bullseyes 2–0)" in words
    assert "Table 3: halved · 19–19 (bullseyes 1–1)" in words
    assert "Table 4: won by St James Bullseyes · 10–28 (bullseyes 0–2)" in words


def test_a_cup_tie_played_a_week_late_is_on_the_night_it_is_played(client):
    """A cup tie dated last week, never re-arranged, scored tonight: its page said "In play"
    and followed its tables, but the league night did not list it (only the fixtures dated
    tonight), and with none dated tonight said "No league fixtures tonight". A match in play
    tonight is on tonight's page whatever its date, saying the night it was set for; one of
    last week not in play tonight is not."""
    league = LeagueFactory(name="Calder League")
    division = DivisionFactory(season__league=league)
    bull, hall, oak, crown = entered_teams(
        division, ["Black Bull", "Old Hall", "Royal Oak", "Crown"]
    )
    last_week = league.today() - datetime.timedelta(days=7)
    late = FixtureFactory(
        division=division, home=bull, away=hall, date=last_week, kind=Fixture.Kind.CUP
    )
    # Decided long ago, its games written tonight (a correction, an import, the demo's seeding).
    decided = FixtureFactory(division=division, home=oak, away=crown, date=last_week)
    start_fixture(decided)
    _finish(decided)
    game = current_game(start_fixture(late)[0])
    record(game, [hand(game, "A", A_HAND)])
    assert " · In play</p>" in page_words(client.get(late.get_absolute_url()))

    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert "No league fixtures tonight." not in words and "1 match in play" in words
    assert f'data-testid="live-score-{late.pk}"' in words
    assert f'data-testid="live-score-{decided.pk}"' not in words
    assert f"set for {_day_words(last_week)}, played on this night" in words
    assert "data-live-url" in words
    assert 'data-testid="league-night-link"' in page_words(client.get(league.get_absolute_url()))
    url = reverse("leagues:league_live_poll", args=[league.pk])
    first = poll(client, url)
    assert first.status_code == 200 and f'data-testid="live-score-{late.pk}"' in page_words(first)
    # Decided, it is a result of last week's (its page and the lists give it): nothing is left
    # to follow tonight, and the poll is told so.
    _finish(late)
    assert poll(client, url, first["ETag"]).status_code == 286


def test_a_match_dated_more_than_four_weeks_before_is_not_of_tonight(client):
    """A match still to be decided, dated more than ``PLAYED_LATE_WITHIN`` (28 days) before,
    scored tonight is the secretary's to re-arrange: tonight's page does not list it (the
    nights' reads stay on the nights' dates); one dated 27 days before is listed."""
    from leagues.selectors.live import PLAYED_LATE_WITHIN

    league = LeagueFactory(name="Calder League")
    division = DivisionFactory(season__league=league)
    bull, hall, oak, crown = entered_teams(
        division, ["Black Bull", "Old Hall", "Royal Oak", "Crown"]
    )
    today = league.today()
    long_ago = FixtureFactory(
        division=division,
        home=bull,
        away=hall,
        date=today - PLAYED_LATE_WITHIN - datetime.timedelta(days=1),
    )
    within = FixtureFactory(
        division=division, home=oak, away=crown, date=today - datetime.timedelta(days=27)
    )
    for fixture in (long_ago, within):
        game = current_game(start_fixture(fixture)[0])
        record(game, [hand(game, "A", A_HAND)])
    words = page_words(client.get(reverse("leagues:league_live", args=[league.slug])))
    assert f'data-testid="live-score-{within.pk}"' in words
    assert f'data-testid="live-score-{long_ago.pk}"' not in words
    assert "1 match in play" in words
