"""Nights with no league: named ranges, every year, carried into the next season; refusals."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from leagues.models import Fixture, Season
from leagues.nights_off import NightsOff, NightsOffError, carried, check, dates_off, parse
from leagues.services.fixtures import fixtures_generate
from leagues.services.seasons import season_start_next
from leagues.services.structure import season_create, season_update
from tests.factories.leagues import DivisionFactory, LeagueFactory
from tests.leagues.helpers import entered_teams

D = datetime.date
XMAS = NightsOff(D(2025, 12, 23), D(2026, 1, 1), "Christmas and New Year", every_year=True)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2025-12-23 to 2026-01-01 Christmas and New Year, every year", XMAS),
        ("23/12/2025 – 01/01/2026 Christmas and New Year (every year)", XMAS),
        ("2025-12-23-2026-01-01: Christmas and New Year every year", XMAS),
        ("2026-04-03 Good Friday", NightsOff(D(2026, 4, 3), D(2026, 4, 3), "Good Friday")),
        ("2026-04-03", NightsOff(D(2026, 4, 3), D(2026, 4, 3))),
        # As the import reads a date: a month by its name, a weekday before it.
        ("23 Dec 2025 to 1 Jan 2026 Christmas and New Year, every year", XMAS),
        ("Tue 23 Dec 2025 – Thu 1 Jan 2026: Christmas and New Year every year", XMAS),
        ("3 April 2026 Good Friday", NightsOff(D(2026, 4, 3), D(2026, 4, 3), "Good Friday")),
        (
            "Fri 11 Dec 2026 Private function",
            NightsOff(D(2026, 12, 11), D(2026, 12, 11), "Private function"),
        ),
        ("2026-4-3", NightsOff(D(2026, 4, 3), D(2026, 4, 3))),
    ],
)
def test_a_line_reads_as_a_named_range(line, expected):
    assert parse(line) == [expected]
    assert parse(expected.line()) == [expected]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("soon", "line 1: “soon” does not start with a date"),
        ("2025-12-23\n2025-12-32 Christmas", "line 2: “2025-12-32” is not a date"),
        ("2026-01-01 to 2025-12-23 Xmas", "line 1: “2026-01-01 to 2025-12-23” ends before it"),
        # The weekday is checked against the date, as the import checks it.
        ("Thu 11 Dec 2026 Private function", "line 1: “Thu 11 Dec 2026”: 11 December 2026 is"),
        ("11 Dex 2026 Private function", "line 1: “11 Dex 2026” is not a date: write it as 7 Jan"),
    ],
)
def test_a_bad_line_is_refused_naming_it(text, message):
    with pytest.raises(NightsOffError, match=message):
        parse(text)


@pytest.mark.parametrize(
    ("ranges", "message"),
    [
        (
            [XMAS, NightsOff(D(2025, 12, 26), D(2025, 12, 26), "Boxing Day")],
            r"Christmas and New Year \(Tue 23 Dec 2025 to Thu 1 Jan 2026\) and Boxing Day "
            r"\(Fri 26 Dec 2025\) overlap",
        ),
        (
            [NightsOff(D(2026, 5, 20), D(2026, 6, 2), "Whit")],
            r"Whit \(Wed 20 May 2026 to Tue 2 Jun 2026\) runs across the season's end "
            r"\(Sun 31 May 2026\)",
        ),
        ([NightsOff(D(2026, 7, 1), D(2026, 7, 1))], "is after the season ends"),
        ([NightsOff(D(2025, 8, 25), D(2025, 9, 3))], "runs across the season's start"),
    ],
)
def test_overlaps_and_ranges_outside_the_season_are_refused(ranges, message):
    with pytest.raises(NightsOffError, match=message):
        check(ranges, starts_on=D(2025, 9, 1), ends_on=D(2026, 5, 31))


def test_every_year_ranges_move_to_the_next_season_and_the_rest_stay_behind():
    fair = NightsOff(D(2025, 10, 7), D(2025, 10, 7), "Feast week")
    moved = carried([XMAS, fair], old_start=D(2025, 9, 2), new_start=D(2026, 9, 1), new_end=None)
    assert moved == [
        NightsOff(D(2026, 12, 23), D(2027, 1, 1), "Christmas and New Year", every_year=True)
    ]
    # a range that no longer fits inside the new season is left out
    assert (
        carried([XMAS], old_start=D(2025, 9, 2), new_start=D(2026, 9, 1), new_end=D(2026, 12, 24))
        == []
    )
    assert dates_off([XMAS]) == {D(2025, 12, 23) + datetime.timedelta(days=i) for i in range(10)}


@pytest.mark.django_db
def test_the_generator_keeps_to_the_ranges_and_the_next_season_starts_with_them():
    league = LeagueFactory(league_night=1)
    season = season_create(
        league=league,
        name="2025–26",
        starts_on=D(2025, 12, 2),
        exclusions=[XMAS, NightsOff(D(2026, 1, 13), D(2026, 1, 13), "Cup night")],
    )
    division = DivisionFactory(season=season)
    entered_teams(division, ["Alma", "Bull", "Crown", "Dog"], players=2)
    fixtures_generate(division=division, legs=2)
    nights = sorted(set(Fixture.objects.filter(division=division).values_list("date", flat=True)))
    assert nights == [D(2025, 12, 2), D(2025, 12, 9), D(2025, 12, 16), D(2026, 1, 6)] + [
        D(2026, 1, 20),
        D(2026, 1, 27),
    ]
    assert "(Christmas and New Year)" in season.calendar_problem(D(2025, 12, 30))
    new = season_start_next(season=season, name="2026–27", starts_on=D(2026, 9, 1), placements={})
    assert new.nights_off == [
        NightsOff(D(2026, 12, 23), D(2027, 1, 1), "Christmas and New Year", every_year=True)
    ]


@pytest.mark.django_db
def test_bad_ranges_are_refused_by_the_services_and_change_nothing():
    league = LeagueFactory()
    with pytest.raises(ValidationError, match="runs across the season's end"):
        season_create(
            league=league,
            name="Short",
            starts_on=D(2025, 9, 2),
            ends_on=D(2025, 12, 24),
            exclusions=[XMAS],
        )
    assert not Season.objects.filter(league=league).exists()
    season = season_create(league=league, name="2025–26", starts_on=D(2025, 9, 2))
    with pytest.raises(ValidationError, match="overlap"):
        season_update(
            season=season,
            name="2025–26",
            starts_on=D(2025, 9, 2),
            exclusions=[XMAS, NightsOff(D(2025, 12, 31), D(2025, 12, 31))],
        )
    season.refresh_from_db()
    assert season.exclusions == []


@pytest.mark.django_db
def test_the_season_form_takes_named_ranges_and_shows_them_back(client, django_user_model):
    league = LeagueFactory()
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    league.secretaries.add(user)
    client.force_login(user)
    season = season_create(league=league, name="2025–26", starts_on=D(2025, 9, 2))
    division = DivisionFactory(season=season)
    entered_teams(division, ["Alma", "Bull", "Crown", "Dog"], players=2)
    url = reverse("leagues:manage_fixtures_generate", args=[division.pk])
    data = {"start": "2025-09-02", "league_night": "1", "legs": "1"}
    overlapping = "2025-12-23 to 2026-01-01 Christmas\n2025-12-31 New Year's Eve"
    page = client.post(url, {**data, "exclusions": overlapping}).content.decode()
    assert "overlap: give each night off once" in page
    assert not Fixture.objects.exists()
    page = client.post(url, {**data, "exclusions": XMAS.line()}).content.decode()
    assert "no league on Christmas and New Year (Tue 23 Dec 2025 to Thu 1 Jan 2026)" in page
    client.post(url, {**data, "exclusions": XMAS.line(), "confirm": "1"})
    season.refresh_from_db()
    assert season.nights_off == [XMAS]
    form = client.get(url).content.decode()
    assert "2025-12-23 to 2026-01-01 Christmas and New Year, every year" in form


def test_a_night_outside_the_calendar_is_named_as_every_other_date_is():
    """The reason printed on the fixture and in the captains' e-mail read "(08 Jan 2027)"
    beside "Thu 26 Nov 2026": the league's dates are "Fri 8 Jan 2027", unpadded."""
    season = Season(
        starts_on=datetime.date(2027, 1, 8), ends_on=datetime.date(2027, 6, 4), exclusions=[]
    )
    assert season.calendar_problem(datetime.date(2027, 1, 1)) == (
        "Fri 1 Jan 2027 is before the season starts (Fri 8 Jan 2027)"
    )
    assert season.calendar_problem(datetime.date(2027, 7, 2)) == (
        "Fri 2 Jul 2027 is after the season ends (Fri 4 Jun 2027)"
    )
