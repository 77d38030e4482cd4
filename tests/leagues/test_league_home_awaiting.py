"""A league's home lists, under "Awaiting results", its season's league fixtures whose night has
passed without a result that counts: no longer a next fixture, not yet a result, they were
listed nowhere. Each page is fetched before and after the change it should show, so that its
cached fragment (``leagues.fragments``) is proven never stale."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture, League
from leagues.services.confirmation import result_confirm, result_dispute, result_submit
from leagues.services.fixtures import fixture_postpone, fixture_void, fixture_walkover
from scoring.actors import Actor
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
)
from tests.leagues.helpers import (
    clock_at,
    entered_teams,
    page_words,
    small_hours_utc,
    start_fixture,
    win_game,
)
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)
AWAITING = "<h2>Awaiting results</h2>"
LATEST = "<h2>Latest results</h2>"
NEXT = "<h2>Next fixtures</h2>"


def home_page(client, league: League) -> str:
    response = client.get(reverse("leagues:league", args=[league.slug]))
    assert response.status_code == 200
    return page_words(response)


def listed(page: str, heading: str) -> list[str]:
    """The lines of the home's list under ``heading``, each up to its ``</li>``."""
    if heading not in page:
        return []
    part = page.split(heading, 1)[1].split("</ul>", 1)[0]
    lines = part.split('<li class="fixture-line">')[1:]
    return [line.split("</li>")[0].strip() for line in lines]


def awaiting(client, league: League) -> list[str]:
    return listed(home_page(client, league), AWAITING)


def test_a_league_fixture_whose_night_passed_with_no_result_is_awaited_latest_first(client):
    """Scheduled, its night gone, nothing entered: "Result awaited", linking to its page (where
    the captains enter the score card), latest first; not one with a result that counts, nor a
    postponed, void or walked-over one, nor tonight's or one to come, nor a cup tie."""
    division = DivisionFactory(name="Premier")
    league = division.season.league
    bull, hall, crown, oak = entered_teams(
        division, ["Black Bull", "Old Hall", "Crown", "Royal Oak"], players=0
    )
    today = league.today()

    def fixture(home, away, days: int) -> Fixture:
        return FixtureFactory(division=division, home=home, away=away, date=today + days * DAY)

    last_week = fixture(bull, hall, -7)
    fortnight = fixture(crown, oak, -14)
    counted = FixtureResultFactory(fixture=fixture(hall, bull, -7), home_win=True).fixture
    postponed = fixture_postpone(fixture=fixture(oak, crown, -7), reason="Pub flooded")
    void = fixture_void(fixture=fixture(bull, crown, -7), reason="Entered twice")
    conceded = fixture_walkover(fixture=fixture(crown, bull, -7), to="home", reason="No team")
    cup = fixture(oak, hall, -7)
    Fixture.objects.filter(pk=cup.pk).update(kind=Fixture.Kind.CUP)
    tonight = fixture(hall, oak, 0)
    coming = fixture(oak, bull, 7)

    page = home_page(client, league)
    lines = listed(page, AWAITING)
    assert len(lines) == 2
    day = today - 7 * DAY
    assert lines[0] == (
        f'<span class="when">{day:%a} {day.day} {day:%b}</span> '
        f'<span class="teams"><a href="{bull.get_absolute_url()}">Black Bull</a> '
        f'<a class="score" href="{last_week.get_absolute_url()}">v</a> '
        f'<a href="{hall.get_absolute_url()}">Old Hall</a></span> '
        '<span class="where muted">Premier · Result awaited</span>'
    )
    assert fortnight.get_absolute_url() in lines[1] and "· Result awaited</span>" in lines[1]
    for other in (counted, postponed, void, conceded, cup, tonight, coming):
        assert other.get_absolute_url() not in "".join(lines), other
    assert counted.get_absolute_url() in "".join(listed(page, LATEST))
    upcoming = "".join(listed(page, NEXT))
    assert tonight.get_absolute_url() in upcoming and coming.get_absolute_url() in upcoming


def test_at_most_eight_are_awaited_and_with_none_there_is_no_heading(client):
    """Eight at most, the latest, like the other lists; with none awaited, not even the
    heading."""
    division = DivisionFactory()
    league = division.season.league
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=0)
    today = league.today()
    nights = [
        FixtureFactory(division=division, home=home, away=away, date=today - days * DAY)
        for days in range(1, 11)
    ]
    lines = awaiting(client, league)
    assert len(lines) == 8
    assert all(night.get_absolute_url() in line for night, line in zip(nights, lines, strict=False))

    for night in nights:
        fixture_void(fixture=night, reason="The division was disbanded")
    page = home_page(client, league)
    assert "Awaiting results" not in page
    assert LATEST in page and NEXT in page


def test_a_result_played_waits_for_its_submission_then_its_confirmation(client):
    """In a league that counts only agreed results: played to the end, it is awaited until it is
    agreed (a captain has put it forward: "Result submitted, awaiting confirmation"), and then
    it is a latest result."""
    world = build(played=True)
    league, fixture, users = world.league, world.fixture, world.users
    assert not league.show_provisional and fixture.status == Fixture.Status.PLAYED
    url = fixture.get_absolute_url()

    [line] = awaiting(client, league)
    assert url in line and line.endswith("· Result awaited</span>")

    submission = result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    [line] = awaiting(client, league)
    assert url in line and line.endswith("· Result submitted, awaiting confirmation</span>")

    result_confirm(submission=submission, by=users["away_captain"])
    page = home_page(client, league)
    assert AWAITING not in page
    assert url in "".join(listed(page, LATEST))


def test_a_disputed_result_awaited_reads_as_on_my_fixtures(client):
    """The home said "Result submitted, awaiting confirmation" of a disputed result (its own
    words for a result put forward, beside the lists' and the fixture page's): it says where
    the result stands as My fixtures and the result page do (``counting.result_words``), "Result
    disputed", as its fixture's page does."""
    from django.test import Client

    world = build(played=True)
    league, fixture, users = world.league, world.fixture, world.users
    submission = result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    result_dispute(submission=submission, reason="Table 1 was 11-9", by=users["away_captain"])
    [line] = awaiting(client, league)
    assert line.endswith("· Result disputed</span>")
    captain = Client()
    captain.force_login(users["home_captain"])
    mine = page_words(captain.get(reverse("leagues:my_fixtures")))
    assert "Result disputed: " in mine
    assert "· Result disputed" in page_words(client.get(fixture.get_absolute_url()))


def test_where_a_result_counts_once_played_it_is_no_longer_awaited_once_entered(client):
    """A league showing provisional results counts one as soon as it is played to the end: its
    last game won at the table, it leaves the awaited for the latest results."""
    world = build(played=False)
    League.objects.filter(pk=world.league.pk).update(show_provisional=True)
    league = League.objects.get(pk=world.league.pk)
    fixture = world.fixture
    [line] = awaiting(client, league)
    assert fixture.get_absolute_url() in line and "· Result awaited</span>" in line

    win_game(world.table.games.get().game, "A", 3)
    page = home_page(client, league)
    assert AWAITING not in page
    assert fixture.get_absolute_url() in "".join(listed(page, LATEST))


def test_a_match_still_in_play_after_its_night_says_its_score_so_far(client):
    """One table decided and the other still playing when its night has passed (after
    midnight): its score so far, as the next fixtures say it, and its result awaited."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=4)
    fixture = FixtureFactory(division=division, home=home, away=away, date=league.today() - DAY)
    first = start_fixture(fixture)[0]
    win_game(first.game, "A", 3)
    [line] = awaiting(client, league)
    assert f'href="{fixture.get_absolute_url()}">2–0 in play</a>' in line
    assert line.endswith("· Result awaited</span>")


def test_a_match_is_awaited_once_its_night_has_passed_where_the_league_plays(client, monkeypatch):
    """At 22:00 in Port of Spain (02:00 in London, the next day there) tonight's match is still
    tonight's: among the next fixtures, not awaited; last night's is awaited. The next day, where
    the league plays, tonight's is awaited too, though the page's fragment was stored the day
    before."""
    instant = small_hours_utc()
    clock_at(monkeypatch, instant)
    league = LeagueFactory(time_zone="America/Port_of_Spain")
    tonight = league.today()
    assert tonight == instant.date() - DAY
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Couva Kings", "Penal Jacks"], players=0)
    last_night = FixtureFactory(division=division, home=home, away=away, date=tonight - DAY)
    tonights = FixtureFactory(division=division, home=away, away=home, date=tonight)

    page = home_page(client, league)
    lines = listed(page, AWAITING)
    assert len(lines) == 1 and last_night.get_absolute_url() in lines[0]
    assert tonights.get_absolute_url() in "".join(listed(page, NEXT))

    clock_at(monkeypatch, instant + DAY + datetime.timedelta(hours=12))
    lines = awaiting(client, league)
    assert len(lines) == 2
    assert tonights.get_absolute_url() in lines[0] and last_night.get_absolute_url() in lines[1]
