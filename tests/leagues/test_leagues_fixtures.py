"""Fixture lists through the service: generation, re-generation around played fixtures,
postponement and re-arrangement. (The planner's own properties are in test_schedule.py.)"""

import datetime
import html
from collections import Counter
from itertools import combinations

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Q

from leagues.days import long_date
from leagues.models import AuditEntry, Fixture, FixtureTable
from leagues.services.fixtures import (
    fixture_add,
    fixture_postpone,
    fixture_rearrange,
    fixtures_generate,
    fixtures_plan,
)
from tests.factories.leagues import (
    DivisionFactory,
    LeagueFactory,
    TeamEntryFactory,
    VenueFactory,
)
from tests.leagues.helpers import entered_teams, start_fixture

pytestmark = pytest.mark.django_db

START = datetime.date(2025, 9, 1)  # a Monday
TUESDAY = 1


def division_of(count, **league):
    division = DivisionFactory(season__league=LeagueFactory(league_night=TUESDAY, **league))
    teams = [TeamEntryFactory(division=division, team__name=f"Team {i}").team for i in range(count)]
    return division, teams


def pairs(fixtures):
    return Counter(frozenset((f.home_id, f.away_id)) for f in fixtures)


def test_single_round_robin_one_round_a_week_on_the_league_night():
    division, teams = division_of(6)
    report = fixtures_generate(division=division, start=START)
    fixtures = list(division.fixtures.all())
    assert report.created == len(fixtures) == 15 and report.kept == 0
    assert set(pairs(fixtures).values()) == {1}
    assert len(pairs(fixtures)) == 15
    assert {f.date.weekday() for f in fixtures} == {TUESDAY}
    assert sorted({f.date for f in fixtures}) == [
        datetime.date(2025, 9, 2) + datetime.timedelta(weeks=w) for w in range(5)
    ]
    assert all(f.venue_id == f.home.home_venue_id for f in fixtures)
    assert all(f.time == division.season.league.start_time for f in fixtures)
    homes = Counter(f.home_id for f in fixtures)
    assert all(abs(homes[t.pk] - (5 - homes[t.pk])) <= 1 for t in teams)


def test_odd_number_of_teams_gives_byes():
    division, _ = division_of(5)
    report = fixtures_generate(division=division, start=START)
    assert report.created == 10 and report.byes == 5


def test_double_round_robin_balances_home_and_away():
    division, teams = division_of(6)
    fixtures_generate(division=division, start=START, legs=2)
    fixtures = list(division.fixtures.all())
    assert len(fixtures) == 30
    assert set(pairs(fixtures).values()) == {2}
    homes = Counter(f.home_id for f in fixtures)
    assert all(homes[t.pk] == 5 for t in teams)


def test_exclusion_dates_are_skipped():
    division, _ = division_of(4)
    christmas = datetime.date(2025, 9, 9)
    fixtures_generate(division=division, start=START, exclusions=[christmas])
    dates = sorted({f.date for f in division.fixtures.all()})
    assert christmas not in dates
    assert dates == [
        datetime.date(2025, 9, 2),
        datetime.date(2025, 9, 16),
        datetime.date(2025, 9, 23),
    ]


def test_teams_sharing_a_pub_are_never_both_at_home_on_one_night():
    division, _ = division_of(4)
    pub = VenueFactory(name="Black Bull")
    for name in ("Black Bull A", "Black Bull B"):
        TeamEntryFactory(division=division, team__name=name, team__home_venue=pub)
    fixtures_generate(division=division, start=START, legs=2)
    at_pub = Counter(f.date for f in division.fixtures.filter(venue=pub))
    assert at_pub and max(at_pub.values()) == 1


def two_divisions_sharing_a_pub(first_size=4, premier_size=4):
    league = LeagueFactory(league_night=TUESDAY)
    premier = DivisionFactory(season__league=league, name="Premier")
    first = DivisionFactory(season=premier.season, name="First", rank=2)
    pub = VenueFactory(name="Woolpack")
    for division, prefix, size in ((premier, "P", premier_size), (first, "F", first_size)):
        # The pub's team sorts first in both: the same number unless the pairing moves it.
        TeamEntryFactory(division=division, team__name=f"A Woolpack {prefix}", team__home_venue=pub)
        for i in range(size - 1):
            TeamEntryFactory(division=division, team__name=f"{prefix} team {i}")
    return premier, first, pub


@pytest.mark.parametrize("legs", [1, 2])
def test_a_pub_shared_across_divisions_gets_paired_numbers_and_no_extra_night(legs):
    premier, first, pub = two_divisions_sharing_a_pub()
    fixtures_generate(division=premier, start=START, legs=legs)
    plan = fixtures_plan(division=first, start=START, legs=legs)
    assert plan.clashes == () and plan.notes == ()
    fixtures_generate(division=first, start=START, legs=legs)
    at_pub = Counter(f.date for f in Fixture.objects.filter(venue=pub))
    assert max(at_pub.values()) == 1
    for division in (premier, first):
        assert division.fixtures.dates("date", "day").count() == 3 * legs
        assert not division.fixtures.exclude(note="").exists()


def test_a_clash_no_pairing_avoids_is_named_before_saving_and_the_move_explained():
    premier, first, pub = two_divisions_sharing_a_pub(first_size=5, premier_size=6)
    fixtures_generate(division=premier, start=START, legs=2)
    plan = fixtures_plan(division=first, start=START, legs=2)
    assert len(plan.clashes) == 1
    assert plan.clashes[0].startswith(
        "A Woolpack F's home venue already hosts another division's matches on "
    )
    assert "no pairing number in a division of 5 is away on all of them" in plan.clashes[0]
    assert not first.fixtures.exists()  # the preview saved nothing
    report = fixtures_generate(division=first, start=START, legs=2)
    at_pub = Counter(f.date for f in Fixture.objects.filter(venue=pub))
    assert max(at_pub.values()) == 1
    moved = first.fixtures.exclude(note="")
    assert moved.exists()
    assert all("shares a home venue with A Woolpack P" in f.note for f in moved)
    assert report.notes and all("shares a home venue with" in note for note in report.notes)


def test_rounds_spread_to_the_season_end_or_with_a_week_off():
    division, _ = division_of(4)
    fixtures_generate(division=division, start=START, legs=2, rest_every=2)
    nights = list(division.fixtures.dates("date", "day"))
    assert [(b - a).days for a, b in zip(nights, nights[1:], strict=False)] == [7, 14, 7, 14, 7]
    end = datetime.date(2025, 12, 16)
    fixtures_generate(division=division, start=START, legs=2, end_by=end)
    nights = list(division.fixtures.dates("date", "day"))
    assert nights[0] == datetime.date(2025, 9, 2) and nights[-1] == end
    with pytest.raises(ValidationError, match="Too early an end: 6 rounds need 6"):
        fixtures_generate(division=division, start=START, legs=2, end_by=datetime.date(2025, 9, 30))
    assert list(division.fixtures.dates("date", "day")) == nights  # nothing changed


def test_regeneration_keeps_played_and_started_fixtures_and_replaces_the_rest():
    division = DivisionFactory(season__league=LeagueFactory(league_night=TUESDAY))
    entered_teams(division, [f"Team {i}" for i in range(6)])
    fixtures_generate(division=division, start=START)
    first_night = division.fixtures.order_by("date").first().date
    played = list(division.fixtures.filter(date=first_night))
    Fixture.objects.filter(pk__in=[f.pk for f in played[:2]]).update(status=Fixture.Status.PLAYED)
    start_fixture(played[2])  # a game under way: not to be touched either
    kept = {(f.pk, f.home_id, f.away_id, f.date) for f in played}

    report = fixtures_generate(division=division, start=datetime.date(2025, 10, 6))

    # The twelve scheduled fixtures move to later nights (keeping their history): none replaced.
    assert (report.kept, report.moved, report.removed, report.created) == (3, 12, 0, 0)
    fixtures = list(division.fixtures.all())
    assert kept <= {(f.pk, f.home_id, f.away_id, f.date) for f in fixtures}
    assert set(pairs(fixtures).values()) == {1} and len(fixtures) == 15
    later = [f for f in fixtures if f.pk not in {k[0] for k in kept}]
    assert min(f.date for f in later) == datetime.date(2025, 10, 7)


def test_postponement_leaves_the_rest_alone_and_rearrangement_finds_a_free_night():
    division, _ = division_of(4)
    fixtures_generate(division=division, start=START)
    before = {f.pk: f.date for f in division.fixtures.all()}
    fixture = division.fixtures.order_by("date", "pk").first()
    fixture_postpone(fixture=fixture, reason="Burst pipe at the pub")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.POSTPONED
    assert fixture.original_date == before[fixture.pk]
    assert {f.pk: f.date for f in division.fixtures.all()} == before

    fixture_rearrange(fixture=fixture, reason="Agreed by both captains")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    busy = {
        f.date
        for f in division.fixtures.exclude(pk=fixture.pk)
        if {f.home_id, f.away_id} & {fixture.home_id, fixture.away_id}
    }
    assert fixture.date not in busy and fixture.date > fixture.original_date
    assert fixture.date.weekday() == TUESDAY
    assert "Re-arranged from" in fixture.note
    others = {f.pk: f.date for f in division.fixtures.exclude(pk=fixture.pk)}
    assert others == {pk: d for pk, d in before.items() if pk != fixture.pk}


def test_rearrangement_refuses_a_night_when_a_team_or_the_pub_is_busy():
    division, _ = division_of(4)
    fixtures_generate(division=division, start=START)
    fixture = division.fixtures.order_by("date", "pk").first()
    mine = [fixture.home_id, fixture.away_id]
    clash = (
        division.fixtures.filter(date__gt=fixture.date)
        .filter(Q(home__in=mine) | Q(away__in=mine))
        .first()
    )
    with pytest.raises(ValidationError, match="already on that night"):
        fixture_rearrange(fixture=fixture, date=clash.date)
    # The same night, moved to the pub where the other two teams are playing.
    other = division.fixtures.filter(date=fixture.date).exclude(pk=fixture.pk).get()
    with pytest.raises(ValidationError, match="already hosts"):
        fixture_rearrange(fixture=fixture, date=fixture.date, venue=other.venue)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.original_date is None


def test_a_walkover_leaves_its_night_free_but_still_counts_as_a_meeting():
    division, _ = division_of(4)
    fixtures_generate(division=division, start=START)
    fixture = division.fixtures.order_by("date", "pk").first()
    walkover = division.fixtures.filter(date__gt=fixture.date).first()
    # Every team plays every night: that night's fixtures are both walkovers.
    division.fixtures.filter(date=walkover.date).update(
        status=Fixture.Status.WALKOVER, walkover_to=Fixture.Side.HOME, reason="They withdrew"
    )
    fixture_rearrange(fixture=fixture, date=walkover.date, outside_calendar=True, reason="Agreed")
    fixture.refresh_from_db()
    assert fixture.date == walkover.date
    # The walkover is their first league meeting: a second is added, a third refused.
    teams = {"home": walkover.away, "away": walkover.home, "kind": Fixture.Kind.LEAGUE}
    fixture_add(division=division, date=datetime.date(2025, 12, 9), **teams)
    with pytest.raises(ValidationError, match="already have 2 league fixtures"):
        fixture_add(division=division, date=datetime.date(2025, 12, 16), **teams)


def test_an_added_fixture_is_checked_the_same_way():
    division, teams = division_of(4)
    fixtures_generate(division=division, start=START)
    busy = division.fixtures.order_by("date").first()
    with pytest.raises(ValidationError, match="already on that night"):
        fixture_add(division=division, home=busy.home, away=busy.away, date=busy.date)
    extra = fixture_add(
        division=division, home=busy.home, away=busy.away, date=datetime.date(2025, 12, 9)
    )
    assert extra.round is None and extra.venue == busy.home.home_venue


def test_only_unplayed_fixtures_are_postponed_or_rearranged():
    division, _ = division_of(4)
    fixtures_generate(division=division, start=START)
    fixture = division.fixtures.first()
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)
    fixture.refresh_from_db()
    with pytest.raises(ValidationError):
        fixture_postpone(fixture=fixture, reason="Too late")
    with pytest.raises(ValidationError):
        fixture_rearrange(fixture=fixture, date=datetime.date(2025, 12, 2))


def test_a_match_whose_tables_have_begun_is_neither_rearranged_nor_postponed():
    division = DivisionFactory(season__league=LeagueFactory(league_night=TUESDAY))
    entered_teams(division, [f"Team {i}" for i in range(4)])
    fixtures_generate(division=division, start=START)
    begun, carded = division.fixtures.order_by("date", "pk")[:2]
    start_fixture(begun)
    FixtureTable.objects.create(fixture=carded, board=2, source=FixtureTable.Source.CARD)
    boards = division.season.league.get_match_format().tables
    tables = "tables " + ", ".join(str(b) for b in range(1, boards)) + f" and {boards}"
    with pytest.raises(
        ValidationError,
        match=rf"Play has begun at this match's tables \({tables}\): it cannot be moved\. "
        ".*void it and add the replay",
    ):
        fixture_rearrange(
            fixture=begun, date=datetime.date(2025, 12, 9), outside_calendar=True, reason="Agreed"
        )
    with pytest.raises(ValidationError, match="cannot be moved"):
        fixture_rearrange(fixture=begun)
    with pytest.raises(ValidationError, match=r"\(table 2\): it cannot be postponed"):
        fixture_postpone(fixture=carded, reason="Burst pipe")
    assert {(f.date, f.status) for f in Fixture.objects.filter(pk__in=[begun.pk, carded.pk])} == {
        (begun.date, Fixture.Status.SCHEDULED),
        (carded.date, Fixture.Status.SCHEDULED),
    }


def test_every_pair_meets_once_in_the_generated_list():
    division, teams = division_of(7)
    fixtures_generate(division=division, start=START)
    met = pairs(division.fixtures.all())
    assert set(met) == {frozenset((a.pk, b.pk)) for a, b in combinations(teams, 2)}


def test_a_rearrangement_names_what_moved_the_times_when_only_the_time_did():
    """A time-only re-arrangement read "Re-arranged from Sun 29 Nov 2026 to Sun 29 Nov 2026"
    on the fixture's page, in the captains' e-mail and in the audit trail."""
    division, _ = division_of(4)
    fixtures_generate(division=division, start=START)
    fixture = division.fixtures.order_by("date", "pk").first()
    night, was = fixture.date, fixture.time
    past = {"outside_calendar": True, "reason": "Darts match first"}  # the nights have gone
    fixture_rearrange(fixture=fixture, date=night, time=datetime.time(20, 30), **past)
    fixture.refresh_from_db()
    line = f"Re-arranged from {was:%H:%M} to 20:30 on {long_date(night)}: Darts match first"
    assert fixture.note.splitlines()[-1] == line
    audit = AuditEntry.objects.get(action="fixture_rearranged", fixture=fixture)
    assert audit.subject.startswith(f"{fixture.home} v {fixture.away}: {line} (outside the")
    later = night + datetime.timedelta(weeks=20)
    fixture_rearrange(fixture=fixture, date=later, time=datetime.time(19, 45), **past)
    fixture.refresh_from_db()
    assert fixture.note.splitlines()[-1] == (
        f"Re-arranged from {long_date(night)} at 20:30 to {long_date(later)} at 19:45: "
        "Darts match first"
    )
    other = VenueFactory(name="Woolpack", town="Batley", league=division.season.league)
    was_venue = str(fixture.venue)
    fixture_rearrange(fixture=fixture, date=later, venue=other, **past)
    fixture.refresh_from_db()
    assert fixture.note.splitlines()[-1] == (
        f"Re-arranged from {was_venue} to Woolpack, Batley on {long_date(later)}: Darts match first"
    )


def test_an_added_fixture_outside_the_season_asks_why_as_a_rearrangement_does(client):
    """ "Add a fixture" took 9 Feb 2025 for a season starting 2 Sep 2025 (a year typed wrong:
    "Added: Brown Cow v Royal Oak, Sun 9 Feb 2025") without the reason re-arranging asks."""
    from django.urls import reverse

    from tests.factories.scoring import UserFactory

    division, teams = division_of(4)
    secretary = UserFactory()
    division.season.league.secretaries.add(secretary)
    client.force_login(secretary)
    url = reverse("leagues:manage_fixture_add", args=[division.pk])
    form = {"kind": "league", "home": teams[0].pk, "away": teams[1].pk, "date": "2025-02-09"}
    page = client.post(url, form).content.decode()
    assert (
        "Sun 9 Feb 2025 is before the season starts (Tue 2 Sep 2025). To arrange it there "
        "anyway, tick “outside the calendar” and give the reason."
    ) in html.unescape(page)
    assert not Fixture.objects.exists()
    with pytest.raises(ValidationError, match="give the reason"):
        fixture_add(
            division=division,
            home=teams[0],
            away=teams[1],
            date=datetime.date(2025, 2, 9),
            outside_calendar=True,
            by=secretary,
        )
    client.post(url, form | {"outside_calendar": "on", "reason": "Carried over from 2024–25"})
    added = Fixture.objects.get()
    assert added.date == datetime.date(2025, 2, 9)
    audit = AuditEntry.objects.get(action="fixture_added")
    assert audit.subject.endswith(
        "(outside the calendar: Sun 9 Feb 2025 is before the season starts (Tue 2 Sep 2025)): "
        "Carried over from 2024–25"
    )
    assert audit.after["outside_calendar_reason"] == "Carried over from 2024–25"


def test_a_league_fixture_for_a_withdrawn_team_is_refused_added_or_imported():
    """ "Added: Black Bull B v Brown Cow": a league fixture for a team that had withdrawn."""
    from leagues.services.fixtures_import import FixturesImport
    from leagues.services.league_import import import_plan, read_files
    from leagues.services.withdrawal import team_withdraw

    division, teams = division_of(4)
    entry = division.entries.get(team=teams[0])
    team_withdraw(entry=entry, reason="The pub has closed", on=datetime.date(2025, 11, 4))
    refusal = (
        f"{teams[0]} withdrew from the season on Tue 4 Nov 2025: it plays no more league "
        "fixtures (reinstate it first, on its page)."
    )
    with pytest.raises(ValidationError) as refused:
        fixture_add(
            division=division, home=teams[0], away=teams[1], date=datetime.date(2025, 12, 9)
        )
    assert refused.value.messages == [refusal]
    # A friendly is not a league fixture.
    fixture_add(
        division=division,
        home=teams[0],
        away=teams[1],
        date=datetime.date(2025, 12, 9),
        kind=Fixture.Kind.FRIENDLY,
    )
    people, fixtures = read_files(
        people=f"team,player\n{teams[2]},Linda Dyson\n".encode(),
        people_name="squads.csv",
        fixtures=(
            f"date,division,home,away\n16/12/2025,{division.name},{teams[2]},{teams[0]}\n"
        ).encode(),
        fixtures_name="fixtures.csv",
    )
    plan = import_plan(
        league=division.season.league,
        season=division.season,
        season_name="",
        sheet=people,
        fixtures=FixturesImport(fixtures),
    )
    assert [str(problem) for problem in plan.problems] == [
        f"fixtures.csv, row 2, column away (D): {refusal}"
    ]


def a_friendly_on_a_bye_night():
    """A division of five generated once (one bye a night), and a friendly booked for a team
    on the night of its bye, against a team of another division (its night: free)."""
    division, teams = division_of(5)
    fixtures_generate(division=division, start=START)
    nights = sorted(division.fixtures.dates("date", "day"))
    night = nights[2]
    playing = {t for f in division.fixtures.filter(date=night) for t in (f.home_id, f.away_id)}
    resting = next(t for t in teams if t.pk not in playing)
    other = TeamEntryFactory(
        division=DivisionFactory(season=division.season, name="First", rank=2),
        team__name="Old Hall",
    )
    friendly = fixture_add(
        division=other.division,
        home=other.team,
        away=TeamEntryFactory(division=other.division, team__name="Brown Cow").team,
        date=night,
        kind=Fixture.Kind.FRIENDLY,
    )
    # The friendly is Old Hall's: the division's team on its bye night plays in it.
    Fixture.objects.filter(pk=friendly.pk).update(away=resting)
    return division, resting, night, nights


def nights_of_two_fixtures(season):
    """(team, night) for every team on two fixtures of the season on one night."""
    on = Counter(
        (team, f.date)
        for f in Fixture.objects.filter(division__season=season)
        for team in (f.home_id, f.away_id)
    )
    return [key for key, count in on.items() if count > 1]


def test_generating_again_round_a_night_off_never_puts_a_team_on_a_friendlys_night():
    """A night off moves every round a week on; the fixture that lands on a team's friendly
    goes to the next night both teams are free, and its note says why, as adding it would."""
    division, resting, night, nights = a_friendly_on_a_bye_night()
    assert nights_of_two_fixtures(division.season) == []
    plan = fixtures_plan(division=division, start=START, exclusions=[nights[1]])
    landing = [
        m
        for m in plan.moved
        if m.date == night and resting.pk in (m.fixture.home_id, m.fixture.away_id)
    ]
    assert landing == []
    fixtures_generate(division=division, start=START, exclusions=[nights[1]])
    assert nights_of_two_fixtures(division.season) == []
    moved = division.fixtures.filter(note__contains="friendly").get()
    assert resting.pk in (moved.home_id, moved.away_id) and moved.date > night
    assert f"{resting} is already on that night (Old Hall v {resting}, friendly)" in moved.note
    assert moved.note.startswith(f"{moved.home} v {moved.away} on {long_date(moved.date)}: ")
    assert f": on {long_date(night)}, {resting} is already on that night" in moved.note


def test_a_fixture_with_no_free_night_left_in_the_season_is_named_not_booked():
    division, resting, night, nights = a_friendly_on_a_bye_night()
    season = division.season
    season.ends_on = nights[-1] + datetime.timedelta(weeks=1)  # room for the night off only
    season.save()
    before = {(f.pk, f.date) for f in division.fixtures.all()}
    with pytest.raises(ValidationError) as refused:
        fixtures_generate(division=division, start=START, exclusions=[nights[1]])
    said = " ".join(refused.value.messages)
    assert said.startswith("No free league night for ")
    assert f"{resting} is already on that night (Old Hall v {resting}, friendly)" in said
    assert f"up to the season's end ({long_date(season.ends_on)})" in said
    assert {(f.pk, f.date) for f in division.fixtures.all()} == before
