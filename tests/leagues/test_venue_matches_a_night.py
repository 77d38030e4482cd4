"""A venue's own number of matches a night (``Venue.matches_a_night``): a club with two rooms
hosts two matches on one night while the pubs with one room keep the season's one; blank, the
season's setting holds. Adding, re-arranging and generating fixtures, cup ties' nights and an
import's check all hold a venue to it; the secretary sets it on the venue's page.

And the dates a venue is closed (``Venue.closed``): one pub shut for a night, where the
season's "Nights with no league" moved every team. Set on the venue's page (checked, in the
audit trail), it is a clash adding or re-arranging a fixture there ("Red Lion, Dewsbury is
closed that night"), the nights a re-arrangement offers skip it, and the generator puts no
home match there that night (the home team plays away, or the match goes to another night,
its note giving each date once)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from leagues.models import AuditEntry, Fixture, Venue
from leagues.nights_off import NightsOff
from leagues.services.fixtures import (
    fixture_add,
    fixture_rearrange,
    fixtures_generate,
    fixtures_plan,
    free_nights,
    nights_free_for,
)
from leagues.services.structure import venue_update
from tests.factories.leagues import DivisionFactory, LeagueFactory, TeamEntryFactory, VenueFactory

pytestmark = pytest.mark.django_db

TUESDAY = 1
STARTS = datetime.date(2027, 9, 7)  # a Tuesday to come: the nights offered are from today on
NIGHT = STARTS + datetime.timedelta(weeks=1)
NEXT = NIGHT + datetime.timedelta(weeks=1)


@pytest.fixture
def division():
    return DivisionFactory(
        season__league=LeagueFactory(league_night=TUESDAY),
        season__starts_on=STARTS,
        name="Premier",
    )


@pytest.fixture
def league(division):
    return division.season.league


@pytest.fixture
def club(league):
    """A club with two rooms: two matches a night."""
    return VenueFactory(league=league, name="Working Men's Club", town="Batley", matches_a_night=2)


@pytest.fixture
def pub(league):
    """A pub with one room: the season's setting (one match a night)."""
    return VenueFactory(league=league, name="Red Lion", town="Dewsbury")


def entered(division, venue, *names):
    return [
        TeamEntryFactory(division=division, team__name=name, team__home_venue=venue).team
        for name in names
    ]


def test_the_two_room_club_hosts_two_matches_a_night_and_refuses_a_third(division, club, pub):
    homes = entered(division, club, "Club A", "Club B", "Club C")
    aways = entered(division, pub, "Lion A", "Lion B", "Lion C")
    first = fixture_add(division=division, home=homes[0], away=aways[0], date=NIGHT)
    second = fixture_add(division=division, home=homes[1], away=aways[1], date=NIGHT)
    assert first.venue == second.venue == club
    with pytest.raises(ValidationError) as refused:
        fixture_add(division=division, home=homes[2], away=aways[2], date=NIGHT)
    assert refused.value.messages == [
        "Working Men's Club, Batley already hosts 2 matches that night (Club A v Lion A; "
        "Club B v Lion B): it can host 2 a night."
    ]
    assert Fixture.objects.filter(date=NIGHT).count() == 2


def test_a_one_room_pub_is_still_refused_a_second_match(division, club, pub):
    """The club's number is its own: the pub keeps the season's one."""
    homes = entered(division, pub, "Lion A", "Lion B")
    aways = entered(division, club, "Club A", "Club B")
    fixture_add(division=division, home=homes[0], away=aways[0], date=NIGHT)
    with pytest.raises(ValidationError) as refused:
        fixture_add(division=division, home=homes[1], away=aways[1], date=NIGHT)
    assert refused.value.messages == [
        "Red Lion, Dewsbury already hosts Lion A v Club A that night: it can host 1 a night."
    ]


def test_a_venue_of_one_room_is_held_to_it_when_the_season_allows_two(division, club, pub):
    division.season.venue_capacity = 2
    division.season.save(update_fields=["venue_capacity"])
    pub.matches_a_night = 1
    pub.save(update_fields=["matches_a_night"])
    homes = entered(division, pub, "Lion A", "Lion B")
    aways = entered(division, club, "Club A", "Club B")
    fixture_add(division=division, home=homes[0], away=aways[0], date=NIGHT)
    with pytest.raises(ValidationError, match="Red Lion, Dewsbury already hosts Lion A v Club A"):
        fixture_add(division=division, home=homes[1], away=aways[1], date=NIGHT)


def test_a_rearrangement_and_a_free_night_see_the_club_room_for_a_second_match(division, club, pub):
    homes = entered(division, club, "Club A", "Club B")
    aways = entered(division, pub, "Lion A", "Lion B")
    fixture_add(division=division, home=homes[0], away=aways[0], date=NIGHT)
    moving = fixture_add(division=division, home=homes[1], away=aways[1], date=NEXT)
    season = division.season
    # The first league night from the club's busy one: the club still has a room free on it.
    assert nights_free_for(
        season=season, home=homes[1].pk, away=aways[1].pk, venue=club.pk, start=NIGHT
    ) == [NIGHT]
    fixture_rearrange(fixture=moving, date=NIGHT)
    moving.refresh_from_db()
    assert moving.date == NIGHT and moving.venue == club
    # The pub (one room) hosting Club A v Lion A's night is full with one.
    fixture_add(division=division, home=aways[0], away=homes[1], date=NEXT)
    assert nights_free_for(
        season=season, home=aways[1].pk, away=homes[0].pk, venue=pub.pk, start=NEXT
    ) == [NEXT + datetime.timedelta(weeks=1)]


def test_the_generator_plans_two_home_matches_a_night_at_the_two_room_club(division, club):
    """Four teams of one club: six home matches on three nights, two a night. With the club
    held to one a night the list is refused, naming the club and its number."""
    entered(division, club, "Club A", "Club B", "Club C", "Club D")
    fixtures_generate(division=division, start=STARTS)
    nights = {}
    for fixture in division.fixtures.all():
        nights[fixture.date] = nights.get(fixture.date, 0) + 1
    assert sorted(nights.values()) == [2, 2, 2]
    club.matches_a_night = 1
    club.save(update_fields=["matches_a_night"])
    with pytest.raises(ValidationError) as refused:
        fixtures_plan(division=division, start=STARTS)
    assert (
        "it can host 1 a night. Raise the venue's “Matches it can host a night” (on its page)"
        in (refused.value.messages[0])
    )
    assert refused.value.messages[0].startswith("Working Men's Club, Batley is the home of 4")


def test_the_generator_keeps_a_one_room_pub_to_one_match_beside_the_club(division, club, pub):
    entered(division, club, "Club A", "Club B")
    entered(division, pub, "Lion A", "Lion B")
    fixtures_generate(division=division, start=STARTS)
    at_pub = {}
    at_club = {}
    for fixture in division.fixtures.all():
        where = at_pub if fixture.venue_id == pub.pk else at_club
        where[fixture.date] = where.get(fixture.date, 0) + 1
    assert max(at_pub.values()) == 1
    assert max(at_club.values()) <= 2


def test_the_database_refuses_a_venue_of_no_room(league):
    venue = VenueFactory(league=league)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Venue.objects.filter(pk=venue.pk).update(matches_a_night=0)


# --- the venue's page --------------------------------------------------------------------------


def test_the_secretary_sets_a_venue_number_on_its_page(client, signed_in, league, pub):
    url = reverse("leagues:manage_venue_edit", args=[league.slug, pub.pk])
    page = client.get(url).content.decode()
    assert "Matches it can host a night" in page
    data = {"name": "Red Lion", "town": "Dewsbury", "address": ""}
    response = client.post(url, {**data, "matches_a_night": "2"})
    assert response.status_code == 302
    pub.refresh_from_db()
    assert pub.matches_a_night == 2
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.VENUE_UPDATED).get()
    assert (entry.before["matches_a_night"], entry.after["matches_a_night"]) == (None, 2)
    listed = client.get(reverse("leagues:manage_venues", args=[league.slug])).content.decode()
    assert "2 matches a night" in listed
    # Blank: the season's setting again.
    assert client.post(url, {**data, "matches_a_night": ""}).status_code == 302
    pub.refresh_from_db()
    assert pub.matches_a_night is None


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("0", "at least 1"),
        ("-1", "at least 1"),
        ("two", "a whole number such as 2"),
        ("1.5", "a whole number such as 2"),
        ("21", "at most 20"),
    ],
)
def test_the_venue_page_refuses_a_bad_number_naming_the_field(
    client, signed_in, league, pub, typed, said
):
    url = reverse("leagues:manage_venue_edit", args=[league.slug, pub.pk])
    response = client.post(
        url,
        {"name": "Red Lion Inn", "town": "Dewsbury", "address": "", "matches_a_night": typed},
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["matches_a_night"]
    assert errors["matches_a_night"][0].startswith("Matches it can host a night: ")
    assert said in errors["matches_a_night"][0]
    pub.refresh_from_db()
    assert (pub.name, pub.matches_a_night) == ("Red Lion", None)
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.VENUE_UPDATED).exists()


def test_the_service_refuses_a_number_below_one(league, pub, signed_in):
    with pytest.raises(ValidationError) as refused:
        venue_update(venue=pub, name="Red Lion", matches_a_night=0, league=league, by=signed_in)
    assert refused.value.message_dict == {
        "matches_a_night": [
            "Matches it can host a night: at least 1, not 0 (blank for the season's setting)."
        ]
    }
    pub.refresh_from_db()
    assert pub.matches_a_night is None


# --- a number below what the fixture list already has there --------------------------------------


def two_a_night_at(division, venue, nights):
    """Two home matches at ``venue`` on each of ``nights`` (its teams "Home A" and "Home B")."""
    homes = entered(division, venue, "Home A", "Home B")
    aways = entered(division, VenueFactory(league=division.season.league), "Away A", "Away B")
    for night in nights:
        for home, away in zip(homes, aways, strict=True):
            fixture_add(division=division, home=home, away=away, date=night)
    return homes, aways


def refused(client, url, data):
    """The form's errors on a page that refused ``data`` (shown again, not saved)."""
    response = client.post(url, data)
    assert response.status_code == 200
    return response.context["form"].errors


def test_the_venue_page_refuses_a_number_below_the_matches_it_already_hosts_naming_them(
    client, signed_in, division, league, club
):
    """Rum Shop Corner hosting two matches on two nights, set to 1: it was saved with no word
    and the list held two nights over its number. It is refused, each night named with its
    matches and how to go on, and nothing changes."""
    two_a_night_at(division, club, [NIGHT, NEXT])
    url = reverse("leagues:manage_venue_edit", args=[league.slug, club.pk])
    data = {"name": club.name, "town": club.town, "address": ""}
    assert refused(client, url, {**data, "matches_a_night": "1"}) == {
        "matches_a_night": [
            "Working Men's Club, Batley already has 2 matches on Tue 14 Sep 2027 (Home A v Away A; "
            "Home B v Away B) and 2 matches on Tue 21 Sep 2027 (Home A v Away A; Home B v Away "
            "B): it can host 1 a night. Re-arrange a match off each of those nights first (on "
            "the fixture's page), or set Matches it can host a night to 2 or more."
        ]
    }
    # Blank is the season's 1: refused so too.
    assert list(refused(client, url, {**data, "matches_a_night": ""})) == ["matches_a_night"]
    club.refresh_from_db()
    assert club.matches_a_night == 2
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.VENUE_UPDATED).exists()
    # One of the nights put right: the other is still named.
    Fixture.objects.filter(date=NIGHT, home__name="Home B").delete()
    [said] = refused(client, url, {**data, "matches_a_night": "1"})["matches_a_night"]
    assert "Tue 14 Sep" not in said
    assert "2 matches on Tue 21 Sep 2027 (Home A v Away A; Home B v Away B)" in said


def test_a_lower_number_is_saved_where_no_night_to_come_is_over_it(
    division, league, club, signed_in
):
    """Two matches at the club on a night already past (and a night to come with one) hold
    nothing back: the number is for the nights to come."""
    homes, aways = two_a_night_at(division, club, [NIGHT])
    Fixture.objects.filter(date=NIGHT).update(date=datetime.date(2026, 1, 6))
    fixture_add(division=division, home=homes[0], away=aways[1], date=NEXT)
    venue_update(venue=club, name=club.name, town=club.town, matches_a_night=1, league=league)
    club.refresh_from_db()
    assert club.matches_a_night == 1


def test_the_season_setting_lowered_below_a_pubs_nights_is_refused_naming_them(
    client, signed_in, division, league, pub, club
):
    """The season's setting is 2 and the pubs without a number of their own follow it: lowering
    it to 1 with the Red Lion hosting two on a night is refused, naming the night; the club's
    two (its own number, 2) are not."""
    division.season.venue_capacity = 2
    division.season.save(update_fields=["venue_capacity"])
    two_a_night_at(division, pub, [NIGHT])
    club_teams = entered(division, club, "Club A", "Club B")
    aways = entered(division, VenueFactory(league=league), "Other A", "Other B")
    for home, away in zip(club_teams, aways, strict=True):
        fixture_add(division=division, home=home, away=away, date=NEXT)
    season = division.season
    url = reverse("leagues:manage_season_edit", args=[league.slug, season.pk])
    data = {"name": season.name, "starts_on": season.starts_on.isoformat(), "venue_capacity": "1"}
    assert refused(client, url, data) == {
        "venue_capacity": [
            "Red Lion, Dewsbury already has 2 matches on Tue 14 Sep 2027 (Home A v Away A; Home "
            "B v Away B): it can host 1 a night. Re-arrange a match off each of those nights "
            "first (on the fixture's page), give the venue a number of its own (Matches it can "
            "host a night, on its page), or set Matches a venue can host a night to 2 or more."
        ]
    }
    season.refresh_from_db()
    assert season.venue_capacity == 2
    # The Red Lion given its own 2: the season's 1 is saved, and the club's two stand.
    pub.matches_a_night = 2
    pub.save(update_fields=["matches_a_night"])
    assert client.post(url, data).status_code == 302
    season.refresh_from_db()
    assert season.venue_capacity == 1


# --- the dates a venue is closed ---------------------------------------------------------------


def closed(venue, *ranges):
    venue_update(
        venue=venue,
        name=venue.name,
        town=venue.town,
        closed=list(ranges),
        league=venue.league,
    )
    venue.refresh_from_db()


def test_the_secretary_closes_a_venue_on_a_date_on_its_page(client, signed_in, league, pub):
    url = reverse("leagues:manage_venue_edit", args=[league.slug, pub.pk])
    assert "Closed on" in client.get(url).content.decode()
    data = {"name": "Red Lion", "town": "Dewsbury", "address": "", "matches_a_night": ""}
    response = client.post(url, {**data, "closed": "2027-09-14 Refurbishment"})
    assert response.status_code == 302
    pub.refresh_from_db()
    assert pub.closed_ranges == [NightsOff(NIGHT, NIGHT, "Refurbishment")]
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.VENUE_UPDATED).get()
    assert (entry.before["closed"], entry.after["closed"]) == (
        [],
        ["Refurbishment (Tue 14 Sep 2027)"],
    )
    listed = client.get(reverse("leagues:manage_venues", args=[league.slug])).content.decode()
    assert "closed Refurbishment (Tue 14 Sep 2027)" in listed
    assert "2027-09-14 Refurbishment" in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("14th Sept", "Closed on, line 1: “14th Sept” does not start with a date"),
        (
            "2027-09-14 Refurbishment\n31/02/2027 Darts final",
            "Closed on, line 2: “31/02/2027” is not a date: write it as 7 Jan 2027, Thu 7 Jan "
            "2027, 7/1/2027 or 2027-01-07.",
        ),
        (
            "2027-09-14\n\n2027-09-21 to 2027-09-14",
            "Closed on, line 3: “2027-09-21 to 2027-09-14” ends before it starts.",
        ),
        (
            "2027-09-14 to 2027-09-21\n2027-09-21 Darts final",
            "Closed on: Tue 14 Sep 2027 to Tue 21 Sep 2027 and Darts final (Tue 21 Sep 2027) "
            "overlap",
        ),
        ("2027-12-25 Christmas, every year", "is marked every year"),
    ],
)
def test_the_venue_page_refuses_closed_dates_it_cannot_read_naming_them(
    client, signed_in, league, pub, typed, said
):
    url = reverse("leagues:manage_venue_edit", args=[league.slug, pub.pk])
    data = {"name": "Red Lion Inn", "town": "Dewsbury", "address": "", "closed": typed}
    response = client.post(url, data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["closed"]
    assert said in errors["closed"][0]
    pub.refresh_from_db()
    assert (pub.name, pub.closed) == ("Red Lion", [])
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.VENUE_UPDATED).exists()


def test_closing_a_night_the_venue_already_hosts_a_match_on_is_refused_naming_it(division, pub):
    home, away = entered(division, pub, "Lion A", "Lion B")
    fixture_add(division=division, home=home, away=away, date=NIGHT)
    with pytest.raises(ValidationError) as refused:
        closed(pub, NightsOff(NIGHT, NEXT, "Refurbishment"))
    assert refused.value.message_dict == {
        "closed": [
            "Red Lion, Dewsbury already hosts Lion A v Lion B on Tue 14 Sep 2027: re-arrange it "
            "first (on the fixture's page), or leave that night open."
        ]
    }
    pub.refresh_from_db()
    assert pub.closed == []


def test_adding_or_moving_a_fixture_to_a_night_its_venue_is_closed_is_refused(division, pub):
    home, away = entered(division, pub, "Lion A", "Lion B")
    closed(pub, NightsOff(NIGHT, NIGHT, "Refurbishment"))
    with pytest.raises(ValidationError) as refused:
        fixture_add(division=division, home=home, away=away, date=NIGHT)
    assert refused.value.messages == ["Red Lion, Dewsbury is closed that night (Refurbishment)."]
    assert not Fixture.objects.exists()
    fixture = fixture_add(division=division, home=home, away=away, date=NEXT)
    with pytest.raises(ValidationError) as refused:
        fixture_rearrange(fixture=fixture, date=NIGHT, reason="Darts")
    assert refused.value.messages == ["Red Lion, Dewsbury is closed that night (Refurbishment)."]
    fixture.refresh_from_db()
    assert fixture.date == NEXT
    # At another pub that night it fits, and the nights offered for the pub skip it.
    elsewhere = VenueFactory(league=division.season.league, name="Swan")
    fixture_rearrange(fixture=fixture, date=NIGHT, venue=elsewhere, reason="Red Lion shut")
    fixture.refresh_from_db()
    assert (fixture.date, fixture.venue) == (NIGHT, elsewhere)
    offered = free_nights(fixture=fixture, venue=pub.pk, count=2)
    assert NIGHT not in offered and NIGHT + datetime.timedelta(weeks=2) in offered


def test_the_generator_puts_no_home_match_at_a_closed_venue_that_night(division, pub):
    """Four teams, one at the Red Lion, closed on two nights of the list: the Red Lion's team
    plays away (or not at all) on them, every meeting still listed."""
    lion = entered(division, pub, "Lion")[0]
    others = entered(division, VenueFactory(league=division.season.league), "Swan A")
    others += [entered(division, VenueFactory(league=division.season.league), "Bull")[0]]
    others += [entered(division, VenueFactory(league=division.season.league), "Oak")[0]]
    shut = [STARTS, NIGHT, NEXT]
    closed(pub, NightsOff(STARTS, STARTS), NightsOff(NIGHT, NEXT, "Refurbishment"))
    fixtures_generate(division=division, start=STARTS, legs=2)
    listed = list(division.fixtures.all())
    assert len(listed) == 12
    at_home = [f.date for f in listed if f.home_id == lion.pk]
    assert len(at_home) == 3
    assert not set(at_home) & set(shut)
    assert all(f.venue_id != pub.pk for f in listed if f.date in shut)
    assert {f.home_id for f in listed} == {lion.pk, *(t.pk for t in others)}


def test_the_generator_notes_a_match_moved_off_a_closed_night_giving_each_date_once(division, pub):
    """Two teams, the Red Lion closed on both of the list's first nights: its home match,
    planned on the first, goes to the next night it is open, its note saying the night it has
    and why not the one it was planned on, each date said once."""
    lion = entered(division, pub, "Lion")[0]
    entered(division, VenueFactory(league=division.season.league, name="Swan"), "Swan")
    closed(pub, NightsOff(STARTS, NIGHT, "Refurbishment"))
    plan = fixtures_plan(division=division, start=STARTS, legs=2)
    at_home = [f for f in plan.created if f.home == lion.pk]
    assert [f.date for f in at_home] == [NEXT]
    assert at_home[0].note == (
        "Lion v Swan on Tue 21 Sep 2027: on Tue 7 Sep 2027, Red Lion, Dewsbury is closed "
        "that night (Refurbishment)"
    )


def test_the_hosting_check_counts_the_nights_a_venue_is_open_naming_how_many_it_is_short(
    division, pub
):
    """Six league nights to the season's end, four teams playing each other twice: the Red
    Lion's team has three home matches, but the Red Lion is closed on four of the six nights.
    The check before any planning says so, naming the venue and the nights it is short (the
    planner found it only once it had placed the rest); closed on two, the list is made."""
    season = division.season
    season.ends_on = STARTS + datetime.timedelta(weeks=5)
    season.save(update_fields=["ends_on"])
    entered(division, pub, "Lion")
    for name in ("Swan", "Bull", "Oak"):
        entered(division, VenueFactory(league=season.league, name=name), name)
    closed(pub, NightsOff(NIGHT, STARTS + datetime.timedelta(weeks=4), "Refurbishment"))
    with pytest.raises(ValidationError) as refused:
        fixtures_plan(division=division, start=STARTS, legs=2)
    assert refused.value.messages == [
        "Red Lion, Dewsbury is the home of Lion, 3 home matches to play, but it is closed on 4 "
        "of the 6 league nights from Tue 7 Sep 2027 to the season's end (Tue 12 Oct 2027): "
        "Refurbishment (Tue 14 Sep 2027 to Tue 5 Oct 2027). Open on 2, hosting 1 a night, it "
        "is 1 night short. Open it on more of them (its page's “Closed on”), raise the venue's "
        "“Matches it can host a night” (on its page) or the season's “Matches a venue can host "
        "a night” (on the season's page), move the season's end, or give Lion another home."
    ]
    assert not Fixture.objects.exists()
    closed(pub, NightsOff(NIGHT, NEXT, "Refurbishment"))
    fixtures_generate(division=division, start=STARTS, legs=2)
    at_home = [f.date for f in division.fixtures.filter(home__name="Lion")]
    assert len(at_home) == 3 and not {NIGHT, NEXT} & set(at_home)
