"""Generating a division's list on a season already under way: a late division, or a list
made again after the teams changed. What is played, has a result or is on a night already past
stays as it is; new fixtures go only on league nights from the next one not yet past where the
league plays; no room left before the season's end is refused, changing nothing."""

import datetime
import html
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from leagues.models import AuditEntry, Fixture
from leagues.schedule import round_dates
from leagues.selectors.fixtures import generation_settings
from leagues.services.fixtures import fixture_walkover, fixtures_generate, fixtures_plan
from tests.factories.leagues import DivisionFactory, LeagueFactory, TeamEntryFactory

pytestmark = pytest.mark.django_db

TUESDAY = 1
START = datetime.date(2025, 9, 2)  # a Tuesday, the season's first league night
FRIDAY = datetime.date(2025, 9, 12)  # the Tuesdays 2 and 9 September are past
NEXT_NIGHT = datetime.date(2025, 9, 16)


@pytest.fixture
def league():
    return LeagueFactory(league_night=TUESDAY)


def division_of(count, league=None, **season):
    division = DivisionFactory(
        season__league=league or LeagueFactory(league_night=TUESDAY),
        season__starts_on=START,
        **season,
    )
    for i in range(count):
        TeamEntryFactory(division=division, team__name=f"Team {i}")
    return division


def under_way(league=None, **season):
    """Six teams, a single round robin made on 2 September: the first night's three matches
    given as walkovers (results in), the second night's passed with no result yet; a
    seventh team entered late."""
    division = division_of(6, league, **season)
    fixtures_generate(division=division, start=START, legs=1, today=START)
    for fixture in Fixture.objects.filter(division=division, date=START):
        fixture_walkover(fixture=fixture, to="home", reason="Away team short")
    TeamEntryFactory(division=division, team__name="Late Lions")
    return division


def listed(division):
    return {f.pk: (f.date, f.status, f.home_id, f.away_id) for f in division.fixtures.all()}


def past_of(fixtures):
    return {pk: fixture for pk, fixture in fixtures.items() if fixture[0] < FRIDAY}


def test_generating_again_keeps_the_past_and_plans_only_from_the_next_night():
    division = under_way()
    before = listed(division)
    past = {pk for pk, (day, *_) in before.items() if day < FRIDAY}

    plan = fixtures_plan(division=division, start=START, legs=1, today=FRIDAY)
    assert plan.plans_from == NEXT_NIGHT and plan.start_past
    assert len(plan.kept) == 3 and {f.date for f in plan.past} == {START + datetime.timedelta(7)}
    assert {m.fixture.pk for m in plan.moved} | {f.pk for f in plan.replaced} <= set(before) - past
    assert min(f.date for f in plan.created) >= NEXT_NIGHT
    assert min(m.date for m in plan.moved) >= NEXT_NIGHT

    report = fixtures_generate(division=division, start=START, legs=1, today=FRIDAY)
    assert report.past == 3 and report.kept == 3
    after = listed(division)
    assert {pk: after[pk] for pk in past} == {pk: before[pk] for pk in past}
    assert all(day >= NEXT_NIGHT for pk, (day, *_) in after.items() if pk not in past)
    fixtures = list(division.fixtures.all())
    meetings = Counter(frozenset((f.home_id, f.away_id)) for f in fixtures)
    assert len(meetings) == 21 and set(meetings.values()) == {1}  # 7 teams meet once each
    nights = Counter((f.date, team) for f in fixtures for team in (f.home_id, f.away_id))
    assert set(nights.values()) == {1}, "no team plays twice on one night"
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.FIXTURES_GENERATED).latest("pk")
    assert entry.after["plans_from"] == NEXT_NIGHT.isoformat() and entry.before["past"] == 3


def test_the_week_off_and_the_end_are_kept_from_the_next_night():
    division = under_way()
    before = past_of(listed(division))
    fixtures_generate(division=division, start=START, legs=1, rest_every=2, today=FRIDAY)
    assert past_of(listed(division)) == before
    new = sorted({f.date for f in division.fixtures.filter(date__gte=NEXT_NIGHT)})
    season = round_dates(start=START, league_night=TUESDAY, rounds=30, rest_every=2)
    assert new == [night for night in season if night >= NEXT_NIGHT][: len(new)]
    assert new[0] == datetime.date(2025, 9, 23), "the week off after two rounds is the 16th"

    division = under_way()
    before = past_of(listed(division))
    end = datetime.date(2025, 12, 16)
    fixtures_generate(division=division, start=START, legs=1, end_by=end, today=FRIDAY)
    assert past_of(listed(division)) == before
    new = sorted({f.date for f in division.fixtures.filter(date__gte=NEXT_NIGHT)})
    assert new[0] == NEXT_NIGHT and new[-1] == end, "spread again from the next night to the end"
    assert not division.fixtures.filter(date__gt=end).exists()


def test_a_late_division_is_planned_from_the_next_night_not_yet_past():
    division = division_of(4)
    today = datetime.date(2025, 10, 1)  # a Wednesday: Tuesday 30 September is past
    report = fixtures_generate(division=division, start=START, legs=2, today=today)
    dates = sorted({f.date for f in division.fixtures.all()})
    assert report.created == 12 and report.past == 0
    assert dates == [datetime.date(2025, 10, 7) + datetime.timedelta(weeks=w) for w in range(6)]


def test_no_night_left_before_the_seasons_end_is_refused_and_changes_nothing():
    division = under_way(season__ends_on=datetime.date(2025, 9, 30))
    before = listed(division)
    entries = AuditEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        fixtures_generate(division=division, start=START, legs=1, today=datetime.date(2025, 10, 1))
    assert refused.value.messages == [
        "The season ends on Tue 30 Sep 2025, and the next league night not yet past is "
        "Tue 7 Oct 2025: there is no night left for the 6 fixtures still to play. "
        "Move the season's end, or add them one by one with Add a fixture."
    ]
    with pytest.raises(ValidationError) as refused:
        fixtures_generate(division=division, start=START, legs=1, today=FRIDAY)
    words = refused.value.messages[0]
    assert "after the season ends (Tue 30 Sep 2025)" in words
    assert "from Tue 16 Sep 2025, the next league night not yet past, to the end" in words
    assert "Start earlier" not in words
    # The settings that give a pub room for more matches, as their pages name them.
    assert words.endswith(
        "Remove nights with no league, raise the venue's “Matches it can host a night” (on its "
        "page) or the season's “Matches a venue can host a night” (on the season's page), or "
        "move the season's end."
    ), words
    assert listed(division) == before and AuditEntry.objects.count() == entries


@pytest.fixture
def clock(monkeypatch, lists_made_today):
    """Sets the site's clock (UTC) to the moment given."""

    def set_to(moment: datetime.datetime) -> None:
        monkeypatch.setattr("django.utils.timezone.now", lambda: moment)

    return set_to


@pytest.mark.parametrize(
    ("zone", "today", "first"),
    [
        # 02:00 on Tuesday 10 November in London is 22:00 on Monday 9 in Port of Spain: the
        # Monday league night is still today there, and past in London.
        ("America/Port_of_Spain", datetime.date(2026, 11, 9), datetime.date(2026, 11, 9)),
        ("Europe/London", datetime.date(2026, 11, 10), datetime.date(2026, 11, 16)),
    ],
)
def test_the_next_night_is_the_leagues_own_today(clock, zone, today, first):
    clock(datetime.datetime(2026, 11, 10, 2, 0, tzinfo=datetime.UTC))
    division = DivisionFactory(
        season__league=LeagueFactory(league_night=0, time_zone=zone),
        season__starts_on=datetime.date(2026, 10, 5),
    )
    for i in range(4):
        TeamEntryFactory(division=division, team__name=f"Team {i}")
    plan = fixtures_plan(division=division, legs=1)
    assert plan.today == today
    assert plan.plans_from == first
    assert min(f.date for f in plan.created) == first


def test_the_preview_says_from_which_night_it_plans_and_what_it_keeps(
    client, signed_in, league, clock
):
    clock(datetime.datetime(2025, 9, 12, 12, 0, tzinfo=datetime.UTC))
    division = under_way(league)
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    data = {"start": START.isoformat(), "league_night": str(TUESDAY), "legs": "1"}
    before = listed(division)

    preview = client.post(url, data)
    words = html.unescape(preview.content.decode())
    assert (
        "New fixtures go on league nights from Tue 16 Sep 2025, the next one not yet past "
        "(today is Fri 12 Sep 2025, London time): no new fixture goes on a night already past."
    ) in words
    assert (
        "3 fixtures on nights already past, their result still awaited, kept as they are." in words
    )
    assert listed(division) == before

    token = preview.context["plan"].token
    done = client.post(url, {**data, "confirm": "1", "token": token})
    assert done.status_code == 200 and "Fixtures generated" in done.content.decode()
    after = listed(division)
    assert all(after[pk] == before[pk] for pk, (day, *_) in before.items() if day < FRIDAY)
    assert all(
        day >= NEXT_NIGHT for pk, (day, *_) in after.items() if pk not in before or day > FRIDAY
    )


def test_the_page_refuses_a_list_with_no_room_left_and_changes_nothing(
    client, signed_in, league, clock
):
    clock(datetime.datetime(2025, 10, 1, 12, 0, tzinfo=datetime.UTC))
    division = under_way(league, season__ends_on=datetime.date(2025, 9, 30))
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    before = listed(division)
    data = {"start": START.isoformat(), "league_night": str(TUESDAY), "legs": "1"}
    for posted in (data, {**data, "confirm": "1"}):
        response = client.post(url, posted)
        words = html.unescape(response.content.decode())
        assert "there is no night left for the 6 fixtures still to play" in words
        assert "plan" not in response.context
    assert listed(division) == before


def test_generating_again_with_nothing_changed_keeps_the_list():
    """The whole list's pairing and nights stay the same mid-season: only what must move does."""
    division = division_of(6)
    fixtures_generate(division=division, start=START, legs=1, rest_every=2, today=START)
    for fixture in Fixture.objects.filter(division=division, date=START):
        fixture_walkover(fixture=fixture, to="home", reason="Away team short")
    plan = fixtures_plan(division=division, start=START, legs=1, rest_every=2, today=FRIDAY)
    assert (len(plan.kept), len(plan.past), len(plan.unchanged), plan.changes) == (3, 3, 9, 0)


def test_a_late_divisions_list_made_again_a_week_on_keeps_its_pairing():
    """A late division's list starts on the night it was planned from, and generating it
    again from the settings the form brings back moves nothing."""
    division = division_of(5)
    made_on = datetime.date(2025, 10, 1)
    fixtures_generate(division=division, start=START, legs=2, today=made_on)
    settings = generation_settings(division=division)
    assert settings["start"] == datetime.date(2025, 10, 7)
    for fixture in Fixture.objects.filter(division=division, date=settings["start"]):
        fixture_walkover(fixture=fixture, to="home", reason="Away team short")
    later = datetime.date(2025, 10, 15)
    plan = fixtures_plan(division=division, start=settings["start"], legs=2, today=later)
    assert (
        plan.changes == 0 and len(plan.kept) == 2 and plan.plans_from == datetime.date(2025, 10, 21)
    )
