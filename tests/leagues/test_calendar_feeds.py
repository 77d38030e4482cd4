"""The iCalendar feeds of a league, a division and a team, read back as a calendar would."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.http import parse_http_date
from icalendar import Calendar

from leagues.services import confirmation
from leagues.services.fixtures import fixture_postpone, fixture_rearrange, fixture_void
from scoring.actors import Actor
from tests.factories.leagues import FixtureFactory, TeamEntryFactory, VenueFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


def feed(url: str) -> dict[str, dict]:
    """The feed at ``url`` parsed back: its events by UID, each with the properties we read."""
    response = Client().get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert calendar["VERSION"] == "2.0"
    assert calendar["PRODID"]
    events = {}
    for event in calendar.walk("VEVENT"):
        events[str(event["UID"])] = {
            "summary": str(event["SUMMARY"]),
            "start": event.decoded("DTSTART"),
            "end": event.decoded("DTEND"),
            "sequence": int(event.get("SEQUENCE", 0)),
            "location": str(event.get("LOCATION", "")),
            "status": str(event.get("STATUS", "")),
            "description": str(event.get("DESCRIPTION", "")),
            "url": str(event.get("URL", "")),
        }
    return events


@pytest.fixture
def world():
    """Black Bull v Old Hall played (not yet confirmed); Old Hall v Royal Oak to come."""
    world = build(played=True)
    old_hall = world.fixture.away
    royal_oak = world.fixture.division.entries.get(team__name="Royal Oak").team
    world.later = FixtureFactory(
        division=world.fixture.division,
        home=old_hall,
        away=royal_oak,
        date=datetime.date(2025, 9, 16),
        time=datetime.time(20, 30),
    )
    return world


def division_url(world) -> str:
    return reverse("leagues:division_calendar", kwargs={"pk": world.fixture.division_id})


def uid_of(fixture) -> str:
    return f"fixture-{fixture.pk}@allfours"


def test_the_division_feed_has_one_event_a_fixture_at_the_venue_and_local_time(world):
    events = feed(division_url(world))
    assert set(events) == {uid_of(world.fixture), uid_of(world.later)}
    later = events[uid_of(world.later)]
    assert later["summary"] == "Old Hall v Royal Oak"
    assert later["start"].isoformat() == "2025-09-16T20:30:00+01:00"
    assert later["end"] - later["start"] == datetime.timedelta(hours=3)
    assert later["location"].startswith(world.later.venue.name)
    assert later["status"] == "CONFIRMED"
    assert later["url"].endswith(world.later.get_absolute_url())


def test_a_result_is_described_only_once_it_counts(world):
    uid = uid_of(world.fixture)
    before = feed(division_url(world))[uid]
    assert "Result" not in before["description"]
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    after = feed(division_url(world))[uid]
    assert "Result: Black Bull 4–0 Old Hall." in after["description"]
    assert after["summary"] == "Black Bull 4–0 Old Hall"
    assert after["sequence"] > before["sequence"]


def test_postponing_and_rearranging_keep_the_uid_and_raise_the_sequence(world):
    uid = uid_of(world.later)
    first = feed(division_url(world))[uid]
    fixture_postpone(fixture=world.later, reason="Pub flooded", by=world.users["secretary"])
    postponed = feed(division_url(world))[uid]
    assert postponed["status"] == "TENTATIVE"
    assert postponed["summary"] == "Postponed: Old Hall v Royal Oak"
    assert "Pub flooded" in postponed["description"]
    assert postponed["sequence"] > first["sequence"]
    fixture_rearrange(
        fixture=world.later,
        date=datetime.date(2025, 10, 7),
        outside_calendar=True,
        reason="Agreed",
        by=world.users["secretary"],
    )
    moved = feed(division_url(world))[uid]
    assert moved["start"].date() == datetime.date(2025, 10, 7)
    assert moved["status"] == "CONFIRMED"
    assert moved["sequence"] > postponed["sequence"]
    # Reading the feed again changes nothing: the sequence is stored data, not the clock.
    assert feed(division_url(world))[uid]["sequence"] == moved["sequence"]


def test_a_void_fixture_is_cancelled(world):
    fixture_void(fixture=world.later, reason="Royal Oak folded", by=world.users["secretary"])
    event = feed(division_url(world))[uid_of(world.later)]
    assert event["status"] == "CANCELLED"
    assert "Royal Oak folded" in event["description"]


def test_the_team_feed_has_only_its_fixtures_and_the_league_feed_all(world):
    royal_oak = world.later.away
    team_events = feed(reverse("leagues:team_calendar", kwargs={"pk": royal_oak.pk}))
    assert set(team_events) == {uid_of(world.later)}
    other = FixtureFactory(venue=VenueFactory(address="1 Market St\nBatley"))
    league_events = feed(reverse("leagues:league_calendar", kwargs={"slug": world.league.slug}))
    assert set(league_events) == {uid_of(world.fixture), uid_of(world.later)}
    elsewhere = feed(
        reverse("leagues:league_calendar", kwargs={"slug": other.division.season.league.slug})
    )
    assert "1 Market St Batley" in elsewhere[uid_of(other)]["location"]


def test_unknown_league_division_or_team_is_a_404():
    client = Client()
    assert client.get("/leagues/no-such-league/calendar.ics").status_code == 404
    assert client.get("/leagues/division/999999/calendar.ics").status_code == 404
    assert client.get("/leagues/team/999999/calendar.ics").status_code == 404


def test_division_team_and_league_pages_offer_subscription_address_and_download(world):
    """Beside the download, a webcal:// subscription and the https address to add by URL,
    each naming the host the page was asked of."""
    client = Client()
    for page, feed_name, kwargs in (
        ("leagues:division", "leagues:division_calendar", {"pk": world.fixture.division_id}),
        ("leagues:team", "leagues:team_calendar", {"pk": world.later.away_id}),
        ("leagues:league", "leagues:league_calendar", {"slug": world.league.slug}),
    ):
        path = reverse(feed_name, kwargs=kwargs)
        html = client.get(reverse(page, kwargs=kwargs), secure=True).content.decode()
        assert f'href="webcal://testserver{path}"' in html
        assert (
            f'<input id="calendar-address" type="url" readonly value="https://testserver{path}"'
            in html
        )
        assert f'href="{path}" type="text/calendar" download' in html
        assert "Add to calendar" in html and "Or subscribe by URL" in html
        assert "leagues/copy.js" in html
        assert client.get(path).status_code == 200


def test_an_unchanged_feed_is_a_304_and_a_changed_one_is_sent(world):
    client = Client()
    url = division_url(world)
    first = client.get(url)
    tag, modified = first["ETag"], first["Last-Modified"]
    assert tag.startswith('"') and modified
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{tag}").status_code == 304
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    fixture_postpone(fixture=world.later, reason="Pub flooded", by=world.users["secretary"])
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert b"Pub flooded" in changed.content
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 200
    assert parse_http_date(changed["Last-Modified"]) > parse_http_date(modified)


def test_head_answers_as_get_without_a_body_and_nothing_else_is_allowed(world):
    client = Client()
    url = reverse("leagues:team_calendar", kwargs={"pk": world.later.away_id})
    got, head = client.get(url), client.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Type"] == "text/calendar; charset=utf-8"
    assert head["ETag"] == got["ETag"]
    assert client.head(url, HTTP_IF_NONE_MATCH=got["ETag"]).status_code == 304
    assert client.post(url).status_code == 405


def test_the_feed_costs_a_fixed_number_of_queries(
    world, django_assert_num_queries, cache_outside_the_database
):
    """Counted with the cache outside the database, as Redis is in production (the ETag's
    date is kept there)."""
    for _ in range(3):
        TeamEntryFactory(division=world.fixture.division)
        FixtureFactory(division=world.fixture.division)
    client = Client()
    with django_assert_num_queries(2):
        client.get(division_url(world))


# --- each league's time zone, read by a second, independent iCalendar library ---------------


@pytest.fixture
def port_of_spain():
    """A Thursday 19:30 fixture of a league in Port of Spain (UTC-4, no summer time), and a
    Yorkshire one in British Summer Time, on a site whose zone is Europe/London."""
    from tests.factories.leagues import DivisionFactory

    division = DivisionFactory(season__league__time_zone="America/Port_of_Spain")
    trinidad = FixtureFactory(
        division=division, date=datetime.date(2025, 7, 10), time=datetime.time(19, 30)
    )
    yorkshire = FixtureFactory(date=datetime.date(2025, 7, 8), time=datetime.time(20, 0))
    return trinidad, yorkshire


def test_a_port_of_spain_fixture_at_1930_is_2330_utc_in_two_calendar_libraries(port_of_spain):
    import vobject

    trinidad, _ = port_of_spain
    url = reverse("leagues:division_calendar", kwargs={"pk": trinidad.division_id})
    body = Client().get(url).content
    assert b"DTSTART;TZID=America/Port_of_Spain:20250710T193000" in body
    (zone,) = Calendar.from_ical(body).walk("VTIMEZONE")
    assert str(zone["TZID"]) == "America/Port_of_Spain"

    # vobject reads the VTIMEZONE the feed carries (not Python's zone database) to place it.
    parsed = vobject.readOne(body.decode())
    (event,) = parsed.vevent_list
    start = event.dtstart.value
    assert start.tzinfo is not None
    utc = start.astimezone(datetime.UTC)
    assert (utc.date(), utc.time()) == (datetime.date(2025, 7, 10), datetime.time(23, 30))
    assert event.dtend.value.astimezone(datetime.UTC).time() == datetime.time(2, 30)


def test_each_league_feed_is_in_its_own_zone(port_of_spain):
    import vobject

    _, yorkshire = port_of_spain
    url = reverse("leagues:division_calendar", kwargs={"pk": yorkshire.division_id})
    (event,) = vobject.readOne(Client().get(url).content.decode()).vevent_list
    start = event.dtstart.value.astimezone(datetime.UTC)
    assert start.time() == datetime.time(19, 0)  # 20:00 British Summer Time


def test_a_cup_tie_is_named_with_its_cup_and_round_and_its_score_once_it_stands():
    """A played cup tie read "Flying Horse v Brown Cow" (no score, where a league fixture has
    one), described as "Premier Division (2026–27). League Cup, Round 1": the division it is
    filed under first. Its title has its score once confirmed and its cup and round; its
    description says the cup and round first. It is in its teams' and the league's feeds, not
    the division's (the division's own fixtures, as its fixtures page lists them)."""
    from cups.services.draws import draw_make
    from leagues.models import Fixture
    from leagues.tables import fixture_score
    from tests.cups.helpers import cup_world, team_cup
    from tests.leagues.helpers import start_fixture, win_game

    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    fixture = cup.ties.get().fixture
    uid = uid_of(fixture)
    team_url = reverse("leagues:team_calendar", kwargs={"pk": fixture.home_id})
    match = f"{fixture.home.name} v {fixture.away.name}"
    before = feed(team_url)[uid]
    assert before["summary"] == f"{match} (League Cup, Final)"
    assert before["description"].splitlines()[:2] == [
        f"League Cup, Final ({world.league.name}).",
        f"http://testserver{fixture.get_absolute_url()}",
    ]
    win_game(start_fixture(fixture)[0].game, "A", 3)
    captains = {world.teams[0].pk: "home_captain", world.teams[1].pk: "away_captain"}
    submission = confirmation.result_submit(
        fixture=fixture, actor=Actor.of(world.users[captains[fixture.home_id]])
    )
    assert feed(team_url)[uid]["summary"] == f"{match} (League Cup, Final)", "not yet agreed"
    confirmation.result_confirm(submission=submission, by=world.users[captains[fixture.away_id]])
    score = fixture_score(Fixture.objects.get(pk=fixture.pk), marked=False)
    assert score[0].isdigit()
    after = feed(team_url)[uid]
    played = f"{fixture.home.name} {score} {fixture.away.name}"
    assert after["summary"] == f"{played} (League Cup, Final)"
    assert after["description"].splitlines()[:2] == [
        f"League Cup, Final ({world.league.name}).",
        f"Result: {played}.",
    ]
    assert uid in feed(reverse("leagues:league_calendar", kwargs={"slug": world.league.slug}))
    division = reverse("leagues:division_calendar", kwargs={"pk": fixture.division_id})
    assert uid not in feed(division)
