"""Seasons follow one another: each keeps its own rules, team names, tables and statistics."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.days import long_date
from leagues.nights_off import NightsOff
from leagues.selectors.accounts import captain_fixtures
from leagues.selectors.fixtures import league_current_season
from leagues.selectors.standings import division_standings
from leagues.services.seasons import next_season_placements, season_start_next
from leagues.services.structure import season_create, season_update, team_enter, team_update
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamEntryFactory,
    VenueFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import clock_at, page_words, small_hours_utc

pytestmark = pytest.mark.django_db


def test_a_renamed_team_keeps_its_old_name_in_past_seasons(client):
    league = LeagueFactory()
    past = DivisionFactory(
        season__league=league,
        season__starts_on=datetime.date(2024, 9, 3),
        season__ends_on=datetime.date(2025, 5, 27),
    )
    woolpack = TeamEntryFactory(division=past, team__name="Woolpack", name="Woolpack").team
    other = TeamEntryFactory(division=past, team__name="Crown", name="Crown").team
    FixtureResultFactory(
        fixture=FixtureFactory(
            division=past, home=woolpack, away=other, date=datetime.date(2025, 5, 20)
        )
    )
    current = season_create(league=league, name="2025–26", starts_on=datetime.date(2025, 9, 2))
    division = DivisionFactory(season=current)
    team_enter(team=woolpack, division=division)

    team_update(team=woolpack, name="The New Woolpack", home_venue=woolpack.home_venue)

    past_names = [row.entry.display_name for row in division_standings(division=past).rows]
    assert "Woolpack" in past_names and "The New Woolpack" not in past_names
    now = [row.entry.display_name for row in division_standings(division=division).rows]
    assert now == ["The New Woolpack"]
    response = client.get(reverse("leagues:division_fixtures_csv", args=[past.pk]))
    (row,) = csv.DictReader(io.StringIO(response.content.decode()))
    assert row["Home"] == "Woolpack"
    page = client.get(reverse("leagues:division", args=[past.pk])).content.decode()
    assert "Woolpack" in page and "The New Woolpack" not in page


def test_a_renamed_teams_page_says_the_name_it_played_a_past_season_under(client):
    """The team page's line "Played 2024–25 as Woolpack" read an ``entry`` its page was never
    given, and never showed: a past season's fixtures, listed as Woolpack's, stood under the
    heading "The New Woolpack" unexplained. The season's part of the page says it, and says
    nothing for a season played under the team's own name."""
    league = LeagueFactory()
    past = DivisionFactory(
        season__league=league,
        season__name="2024–25",
        season__starts_on=datetime.date(2024, 9, 3),
        season__ends_on=datetime.date(2025, 5, 27),
    )
    woolpack = TeamEntryFactory(division=past, team__name="Woolpack", name="Woolpack").team
    current = season_create(league=league, name="2025–26", starts_on=datetime.date(2025, 9, 2))
    team_enter(team=woolpack, division=DivisionFactory(season=current))
    team_update(team=woolpack, name="The New Woolpack", home_venue=woolpack.home_venue)

    url = reverse("leagues:team", args=[woolpack.pk])
    then = page_words(client.get(url, {"season": past.season_id}))
    assert "Played 2024–25 as Woolpack." in then
    now = page_words(client.get(url, {"season": current.pk}))
    assert "The New Woolpack" in now and "Played 2025–26 as" not in now


# --- the season's calendar --------------------------------------------------------------------

import pytest as _pytest  # noqa: E402
from django.core.exceptions import ValidationError  # noqa: E402

from leagues.models import AuditEntry, Fixture, Player, Registration, TeamEntry  # noqa: E402
from leagues.services.fixtures import (  # noqa: E402
    fixture_postpone,
    fixture_rearrange,
    fixtures_generate,
    fixtures_plan,
)
from tests.leagues.helpers import entered_teams  # noqa: E402

TUESDAY = datetime.date(2025, 9, 2)


def calendar_division(names=("Alma", "Bull", "Crown", "Dog"), **season):
    league = LeagueFactory(league_night=1)
    division = DivisionFactory(
        season__league=league,
        season__starts_on=TUESDAY,
        **{f"season__{k}": v for k, v in season.items()},
    )
    entered_teams(division, list(names), players=2)
    return division


def test_generation_keeps_to_the_stored_calendar():
    christmas = datetime.date(2025, 9, 16)
    division = calendar_division(exclusions=[christmas.isoformat()])
    fixtures_generate(division=division, legs=1)
    dates = sorted({f.date for f in Fixture.objects.filter(division=division)})
    assert christmas not in dates and all(d.weekday() == 1 for d in dates)
    assert dates[0] == TUESDAY


def test_generation_past_the_end_date_is_refused_and_says_how_far():
    division = calendar_division(ends_on=datetime.date(2025, 9, 20))
    with _pytest.raises(ValidationError, match="after the season ends"):
        fixtures_generate(division=division, legs=2)
    assert not Fixture.objects.filter(division=division).exists()


def test_impossible_venue_sharing_is_refused_naming_the_venue():
    division = calendar_division(names=())
    venue = VenueFactory(name="The Crown")
    for i in range(8):
        TeamEntryFactory(division=division, team__name=f"Crown {i}", team__home_venue=venue)
    with _pytest.raises(ValidationError, match="The Crown.* is the home of 8 teams"):
        fixtures_plan(division=division, legs=2)


def test_regeneration_previews_keeps_the_postponement_and_changes_nothing_until_confirmed():
    division = calendar_division()
    fixtures_generate(division=division, legs=1)
    first = Fixture.objects.filter(division=division).order_by("date", "pk").first()
    fixture_postpone(fixture=first, reason="Burst pipe")
    before = sorted(Fixture.objects.filter(division=division).values_list("pk", "date", "status"))
    exclusion = datetime.date(2025, 9, 9)
    plan = fixtures_plan(division=division, legs=1, exclusions=[exclusion])
    assert plan.postponed == (first,)
    assert plan.moved and not plan.created
    assert (
        sorted(Fixture.objects.filter(division=division).values_list("pk", "date", "status"))
        == before
    ), "a preview changes nothing"
    with _pytest.raises(ValidationError, match="changed since the preview"):
        fixtures_generate(division=division, legs=1, exclusions=[exclusion], token="stale")
    fixtures_generate(division=division, legs=1, exclusions=[exclusion], token=plan.token)
    first.refresh_from_db()
    assert first.status == Fixture.Status.POSTPONED and first.reason == "Burst pipe"
    assert not Fixture.objects.filter(division=division, date=exclusion).exists()
    division.season.refresh_from_db()
    assert division.season.nights_off == [NightsOff(exclusion, exclusion)], "the calendar is stored"


def test_rearranging_outside_the_calendar_needs_an_override_with_a_reason():
    division = calendar_division(exclusions=["2099-12-29"], ends_on=datetime.date(2100, 6, 1))
    Season = type(division.season)
    Season.objects.filter(pk=division.season_id).update(starts_on=datetime.date(2099, 12, 1))
    fixture = FixtureFactory(
        division=division,
        home=division.entries.all()[0].team,
        away=division.entries.all()[1].team,
        date=datetime.date(2099, 12, 22),
    )
    with _pytest.raises(ValidationError, match="no league"):
        fixture_rearrange(fixture=fixture, date=datetime.date(2099, 12, 29))
    with _pytest.raises(ValidationError, match="before the season starts"):
        fixture_rearrange(fixture=fixture, date=datetime.date(2099, 11, 24))
    with _pytest.raises(ValidationError, match="give the reason"):
        fixture_rearrange(fixture=fixture, date=datetime.date(2099, 12, 29), outside_calendar=True)
    moved = fixture_rearrange(fixture=fixture)
    assert moved.date == datetime.date(2100, 1, 5), "the excluded night is skipped"
    fixture_rearrange(
        fixture=moved,
        date=datetime.date(2099, 12, 29),
        outside_calendar=True,
        reason="Both captains asked for it",
    )
    entry = AuditEntry.objects.filter(action="fixture_rearranged").first()
    assert entry.after["outside_calendar"].endswith("is a night with no league")


# --- the next season -------------------------------------------------------------------------


def finished_season():
    """Two divisions of four, every team played once (stored results): the top division's
    order Alma, Bull, Crown, Dog; the second's Elm, Fox, Gate, Hart."""
    league = LeagueFactory()
    season = SeasonFactory(
        league=league, starts_on=datetime.date(2025, 1, 7), ends_on=datetime.date(2025, 5, 27)
    )
    top = DivisionFactory(season=season, name="Premier", rank=1, promoted=1, relegated=1)
    second = DivisionFactory(season=season, name="First", rank=2, promoted=1, relegated=1)
    teams = {}
    for division, names in ((top, "Alma Bull Crown Dog"), (second, "Elm Fox Gate Hart")):
        for name in names.split():
            team = TeamEntryFactory(division=division, team__name=name, name=name).team
            teams[name] = team
        ordered = [teams[n] for n in names.split()]
        for i, home in enumerate(ordered):
            for away in ordered[i + 1 :]:
                fixture = FixtureFactory(
                    division=division, home=home, away=away, date=datetime.date(2025, 3, 4)
                )
                FixtureResultFactory(fixture=fixture, home_win=True)
    captain = PlayerFactory(name="Captain Alma")
    Registration.objects.create(player=captain, team=teams["Alma"], season=season)
    TeamEntry.objects.filter(team=teams["Alma"], season=season).update(captain=captain)
    return season, teams


def test_next_season_from_one_not_settled_is_refused_and_says_why(client, django_user_model):
    season, teams = finished_season()
    FixtureFactory(
        division=season.divisions.get(name="First"), home=teams["Hart"], away=teams["Elm"]
    )
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    season.league.secretaries.add(user)
    client.force_login(user)
    url = reverse("leagues:manage_season_next", args=[season.league.slug, season.pk])
    page = client.get(url).content.decode()
    assert (
        f"{season.name} is not settled: 1 league fixture still to count (1 in First). 1 to "
        "play: play it, re-arrange it, award a walkover or void it." in page
    )
    assert "final table," not in page and "promoted" not in page and 'name="team_' not in page
    before = season.league.seasons.count()
    response = client.post(url, {"name": "Next", "starts_on": "2025-09-02"})
    assert response.status_code == 200 and season.league.seasons.count() == before
    with _pytest.raises(ValidationError, match="is not settled"):
        next_season_placements(season=season)


def test_next_season_from_one_with_no_result_is_refused(client, django_user_model):
    league = LeagueFactory()
    season = SeasonFactory(league=league, starts_on=datetime.date(2025, 1, 7))
    division = DivisionFactory(season=season, name="Premier")
    for name in ("Alma", "Bull", "Crown"):
        TeamEntryFactory(division=division, team__name=name)
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    league.secretaries.add(user)
    client.force_login(user)
    url = reverse("leagues:manage_season_next", args=[league.slug, season.pk])
    page = client.get(url).content.decode()
    assert f"{season.name} has no result in Premier: there is no final table" in page
    assert "final table," not in page and 'name="team_' not in page


def test_start_next_season_applies_promotion_and_relegation_and_carries_everything(
    client, django_user_model
):
    season, teams = finished_season()
    placements = {
        p.team.name: (p.to_rank, p.movement) for p in next_season_placements(season=season)
    }
    assert placements["Dog"] == (2, "down") and placements["Elm"] == (1, "up")
    assert placements["Alma"] == (1, "stays") and placements["Hart"] == (2, "stays")

    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    season.league.secretaries.add(user)
    client.force_login(user)
    url = reverse("leagues:manage_season_next", args=[season.league.slug, season.pk])
    page = client.get(url).content.decode()
    assert "4th in Premier: relegated" in page and "1st in First: promoted" in page
    assert "final table" in page and "is not over" not in page
    data = {"name": "2025–26", "starts_on": "2025-09-02", "ends_on": "", "carry_squads": "on"}
    for name, team in teams.items():
        data[f"team_{team.pk}"] = str(placements[name][0])
    data[f"team_{teams['Hart'].pk}"] = ""  # the secretary leaves Hart out
    data[f"team_{teams['Gate'].pk}"] = "1"  # and overrides: Gate goes up too
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    new = season.league.seasons.get(name="2025–26")
    entries = {
        e.team.name: e
        for e in TeamEntry.objects.filter(season=new).select_related("team", "division")
    }
    assert {n: e.division.name for n, e in entries.items()} == {
        "Alma": "Premier",
        "Bull": "Premier",
        "Crown": "Premier",
        "Elm": "Premier",
        "Gate": "Premier",
        "Dog": "First",
        "Fox": "First",
    }
    assert entries["Alma"].captain.name == "Captain Alma"
    assert Registration.objects.filter(season=new, team=teams["Alma"]).count() == 1
    assert AuditEntry.objects.filter(action="season_started_next").exists()
    # The old season is untouched.
    assert TeamEntry.objects.filter(season=season).count() == 8


def test_only_the_latest_season_starts_a_next_one(client, django_user_model):
    """Once 2025–26 follows 2024–25, the desk offers "start the next season" on 2025–26 only;
    the old season's page sends the secretary back with why, and the service refuses too."""
    season, teams = finished_season()
    following = season_create(
        league=season.league, name="2025–26", starts_on=datetime.date(2025, 9, 2)
    )
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    season.league.secretaries.add(user)
    client.force_login(user)
    desk = client.get(reverse("leagues:manage_league", args=[season.league.slug]))
    old_next = reverse("leagues:manage_season_next", args=[season.league.slug, season.pk])
    new_next = reverse("leagues:manage_season_next", args=[season.league.slug, following.pk])
    assert new_next in desk.content.decode() and old_next not in desk.content.decode()
    response = client.get(old_next, follow=True)
    assert f"2025–26 already follows {season.name}" in response.content.decode()
    with pytest.raises(ValidationError, match="already follows"):
        season_start_next(
            season=season,
            name="2025–26 again",
            starts_on=datetime.date(2025, 10, 7),
            placements={},
        )
    assert season.league.seasons.count() == 2


def test_a_next_season_starting_inside_the_one_it_follows_is_refused_naming_the_day(
    client, django_user_model
):
    """A season runs to its end, or to its last fixture when that is later (or it has no
    end): the next one starts after that day, or the league's page would switch to it while
    the old one is still being played."""
    season, teams = finished_season()  # ends Tue 27 May 2025
    placements = {team.pk: 1 for team in teams.values()}
    ends = re.escape(f"after {season.name} ends (Tue 27 May 2025)")
    with pytest.raises(ValidationError, match=ends) as refused:
        season_start_next(
            season=season, name="Too soon", starts_on=datetime.date(2025, 3, 4), placements={}
        )
    assert "starts_on" in refused.value.message_dict
    # A fixture re-arranged past the end: the season runs to it.
    late = Fixture.objects.filter(division__season=season).first()
    Fixture.objects.filter(pk=late.pk).update(date=datetime.date(2025, 6, 10))
    with pytest.raises(ValidationError, match=r"last fixture, on Tue 10 Jun 2025"):
        season_start_next(
            season=season, name="Too soon", starts_on=datetime.date(2025, 6, 10), placements={}
        )
    # The page offers a start a week after that day, and says why it refuses one before.
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    season.league.secretaries.add(user)
    client.force_login(user)
    url = reverse("leagues:manage_season_next", args=[season.league.slug, season.pk])
    page = client.get(url).content.decode()
    assert 'value="2025-06-17"' in page
    data = {"name": "Next", "starts_on": "2025-06-03", "carry_squads": "on"}
    data.update({f"team_{pk}": "1" for pk in placements})
    response = client.post(url, data)
    assert response.status_code == 200
    assert "last fixture, on Tue 10 Jun 2025" in response.content.decode()
    assert season.league.seasons.count() == 1
    # A season with no end runs to its last fixture.
    type(season).objects.filter(pk=season.pk).update(ends_on=None)
    season.refresh_from_db()
    with pytest.raises(ValidationError, match=r"last fixture, on Tue 10 Jun 2025"):
        season_start_next(
            season=season, name="Too soon", starts_on=datetime.date(2025, 6, 3), placements={}
        )
    assert list(season.league.seasons.values_list("name", flat=True)) == [season.name]
    new = season_start_next(
        season=season, name="2025–26", starts_on=datetime.date(2025, 6, 11), placements=placements
    )
    assert new.starts_on == datetime.date(2025, 6, 11)


def test_the_league_shows_the_season_in_play_until_the_next_one_starts_where_it_plays(
    client, monkeypatch
):
    """A season made ahead of its start took the league's home at once (the latest start): the
    public saw its empty table, and no link to tonight's matches, while the old season was still
    being played. The season in play stays the league's current one until the next starts, on
    its start date where the league plays (at 22:00 in Port of Spain the site's date is the
    start already); meanwhile the home says when the next starts and links its divisions. The
    league night and a captain's fixtures follow the season in play too."""
    instant = small_hours_utc()
    clock_at(monkeypatch, instant)
    league = LeagueFactory(time_zone="America/Port_of_Spain")
    today = league.today()
    assert today == instant.date() - datetime.timedelta(days=1)
    playing = DivisionFactory(
        season__league=league, season__starts_on=today - datetime.timedelta(weeks=10)
    )
    bull = TeamEntryFactory(division=playing, team__name="Black Bull", name="Black Bull").team
    crown = TeamEntryFactory(division=playing, team__name="Crown", name="Crown").team
    last_week = today - datetime.timedelta(weeks=1)
    played = FixtureFactory(division=playing, home=bull, away=crown, date=last_week)
    FixtureResultFactory(fixture=played, home_win=True)
    tonight = FixtureFactory(division=playing, home=crown, away=bull, date=today)
    user = UserFactory()
    captain = PlayerFactory(user=user)
    TeamEntry.objects.filter(team=bull).update(captain=captain)
    # Made by the secretary weeks ahead of its start, its teams entered.
    following = season_create(league=league, name="Next one", starts_on=instant.date())
    premier = DivisionFactory(season=following, name="Top Flight")
    TeamEntry.objects.create(team=bull, season=following, division=premier, captain=captain)

    assert league_current_season(league=league) == playing.season
    page = page_words(client.get(league.get_absolute_url()))
    assert f'<span class="muted">{playing.season.name}</span>' in page
    assert "8–2" in page and "No results yet" not in page, "the season in play, its results"
    assert 'data-testid="league-night-link"' in page, "tonight's matches are followed"
    starts = f"Next season: Next one starts {long_date(following.starts_on)}"
    assert starts in page and premier.get_absolute_url() in page
    assert "Earlier seasons" not in page
    assert [row.fixture.pk for row in captain_fixtures(user=user)] == [played.pk, tonight.pk]
    team = page_words(client.get(bull.get_absolute_url()))
    assert f'{playing.season.name}: <a href="{playing.get_absolute_url()}">' in team
    assert tonight.get_absolute_url() in team

    # Its first day where the league plays: the new season is the league's.
    clock_at(monkeypatch, instant + datetime.timedelta(days=1))
    assert league.today() == following.starts_on
    assert league_current_season(league=league) == following
    page = page_words(client.get(league.get_absolute_url()))
    assert '<span class="muted">Next one</span>' in page and "Next season" not in page
    assert "Earlier seasons</h2>" in page and playing.get_absolute_url() in page
    assert captain_fixtures(user=user) == []
    team = page_words(client.get(bull.get_absolute_url()))
    assert f'Next one: <a href="{premier.get_absolute_url()}">' in team


def test_the_next_season_of_one_begun_on_29_february_without_an_end_is_offered(
    client, django_user_model
):
    """A season with no end was offered the same day a year on, which 29 February has not:
    the page failed. It offers its league night 52 weeks on."""
    season, _ = finished_season()
    Fixture.objects.filter(division__season=season).update(date=datetime.date(2024, 3, 5))
    type(season).objects.filter(pk=season.pk).update(
        starts_on=datetime.date(2024, 2, 29), ends_on=None
    )
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    season.league.secretaries.add(user)
    client.force_login(user)
    url = reverse("leagues:manage_season_next", args=[season.league.slug, season.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert 'value="2025-02-27"' in response.content.decode()


def test_a_next_season_that_fails_half_way_leaves_nothing_behind(monkeypatch):
    """Starting the next season is one transaction: a failure after the season row is written
    (here, its first division) leaves no season."""
    season, teams = finished_season()

    def refuse(**kwargs):
        raise ValidationError("no divisions today")

    monkeypatch.setattr("leagues.services.seasons.division_create", refuse)
    with pytest.raises(ValidationError, match="no divisions today"):
        season_start_next(
            season=season,
            name="2025–26",
            starts_on=datetime.date(2025, 9, 2),
            placements={team.pk: 1 for team in teams.values()},
        )
    assert list(season.league.seasons.values_list("name", flat=True)) == [season.name]


# --- withdrawal and squads through the pages -------------------------------------------------


def test_secretary_withdraws_a_team_and_reinstates_it(client, django_user_model):
    division = calendar_division()
    fixtures_generate(division=division, legs=1)
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    division.season.league.secretaries.add(user)
    client.force_login(user)
    team = division.entries.get(team__name="Dog").team
    url = reverse("leagues:manage_team_withdraw", args=[division.season.league.slug, team.pk])
    client.post(
        url,
        {
            "season": division.season_id,
            "withdraw-withdrawal": "stand",
            "withdraw-reason": "Pub shut",
        },
    )
    mine = Fixture.objects.filter(division=division).filter(home=team) | Fixture.objects.filter(
        division=division, away=team
    )
    assert {f.status for f in mine} == {Fixture.Status.WALKOVER}
    assert all((f.walkover_to == "home") == (f.away_id == team.pk) for f in mine), (
        "each walkover goes to the opponent"
    )
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    assert "(withdrawn)" in page
    # Each fixture settled has its own audit entry: its audit page tells it, and its calendar
    # event's SEQUENCE (the count of its entries) moves on, so calendars update it.
    first = mine.order_by("date", "pk").first()
    audit = reverse("leagues:manage_fixture_audit", args=[first.pk])
    assert "Pub shut" in client.get(audit).content.decode()
    assert {f.pk: [e.action for e in f.audit_entries.order_by("pk")] for f in mine.all()} == {
        f.pk: ["fixture_settled_by_withdrawal"] for f in mine.all()
    }
    client.post(url, {"season": division.season_id, "reinstate": "1"})
    assert {f.status for f in mine.all()} == {Fixture.Status.SCHEDULED}
    assert {f.pk: [e.action for e in f.audit_entries.order_by("pk")] for f in mine.all()} == {
        f.pk: ["fixture_settled_by_withdrawal", "fixture_reinstated"] for f in mine.all()
    }
    assert "Dog reinstated" in client.get(audit).content.decode()


def test_a_squad_registered_at_once_from_the_leagues_players_names_and_a_csv(
    client, django_user_model
):
    division = calendar_division(names=("Alma", "Bull"))
    league = division.season.league
    outsider = PlayerFactory(name="Someone Elsewhere")
    RegistrationFactory(player=outsider)  # registered in another league
    ours = PlayerFactory(name="Old Stager")
    Registration.objects.create(
        player=ours, team=division.entries.first().team, season=SeasonFactory(league=league)
    )
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    league.secretaries.add(user)
    client.force_login(user)
    team = division.entries.get(team__name="Bull").team
    url = (
        reverse("leagues:manage_squad", args=[league.slug, team.pk])
        + f"?season={division.season_id}"
    )
    page = client.get(url).content.decode()
    assert "Old Stager" in page and "Someone Elsewhere" not in page
    upload = SimpleUploadedFile("squad.csv", b"name\nCsv One\nCsv Two\n", content_type="text/csv")
    response = client.post(
        url,
        {
            "season": division.season_id,
            "players": [ours.pk],
            "names": "Typed One\n",
            "csv_file": upload,
        },
    )
    assert response.status_code == 302
    names = set(
        Registration.objects.filter(team=team, season=division.season).values_list(
            "player__name", flat=True
        )
    )
    assert {"Old Stager", "Typed One", "Csv One", "Csv Two"} <= names

    players, registrations = Player.objects.count(), Registration.objects.count()
    too_long = "Fred " + "Wolstenholme " * 8 + "Sutcliffe Holden"  # 125 characters
    # Pasted with blank lines, which the box shown again leaves out: the refusal names the
    # line the name is on there, and the name (it named neither).
    pasted = f"New One\n\n  \nArthur Hirst\n\n{too_long}\nEdna Sykes, Linda Dyson"
    response = client.post(url, {"season": division.season_id, "names": pasted})
    assert response.status_code == 200
    assert response.context["form"].errors["names"] == [
        f"Line 3: “{too_long}” is 125 characters long: a player's name has at most 120."
    ]
    assert response.context["form"]["names"].value() == "\n".join(
        ["New One", "Arthur Hirst", too_long, "Edna Sykes, Linda Dyson"]
    )
    assert (Player.objects.count(), Registration.objects.count()) == (players, registrations)
    # A line of names pasted without their line breaks, and a file's name: each by its line.
    several = ", ".join(["Fred Wolstenholme Sutcliffe"] * 5)
    upload = SimpleUploadedFile("squad.csv", f"name\nCsv One\n{'B' * 31}\n".encode())
    response = client.post(
        url, {"season": division.season_id, "names": f"{several}\n\nNew One", "csv_file": upload}
    )
    errors = response.context["form"].errors
    assert errors["names"] == [
        f"Line 1: “{several}” is {len(several)} characters long: a player's name has at most "
        "120. Is it more than one name? Put each on its own line."
    ]
    assert errors["csv_file"] == [
        f"Line 4: “{'B' * 31}” is one word of 31 characters: a name's words are 30 characters "
        "at most. Put in the spaces between its words."
    ]
    assert response.context["form"]["names"].value() == "\n".join(
        [several, "New One", "Csv One", "B" * 31]
    )
    assert (Player.objects.count(), Registration.objects.count()) == (players, registrations)


def test_regenerating_home_and_away_after_a_withdrawal_and_a_postponement():
    """The demo's case: a list made once, a team withdrawn (walkovers), a fixture postponed,
    then the list generated again home and away: kept, moved and new fixtures never share a
    team's round, and the postponement stays."""
    from leagues.services.withdrawal import team_withdraw

    division = calendar_division(names=("Alma", "Bull", "Crown", "Dog", "Elm", "Fox"))
    fixtures_generate(division=division, legs=1)
    first = Fixture.objects.filter(division=division).order_by("date", "pk")
    Fixture.objects.filter(pk__in=[f.pk for f in first[:3]]).update(status="played")
    team_withdraw(entry=division.entries.get(team__name="Fox"), reason="Pub closed")
    later = Fixture.objects.filter(division=division, status="scheduled").order_by("date").first()
    fixture_postpone(fixture=later, reason="Burst pipe")
    plan = fixtures_plan(division=division, legs=2, exclusions=[datetime.date(2025, 12, 23)])
    fixtures_generate(
        division=division, legs=2, exclusions=[datetime.date(2025, 12, 23)], token=plan.token
    )
    later.refresh_from_db()
    assert later.status == Fixture.Status.POSTPONED
    rounds = list(
        Fixture.objects.filter(division=division, round__isnull=False).values_list(
            "round", "home", "away"
        )
    )
    assert len({(r, h) for r, h, _ in rounds}) == len(rounds)


def test_the_form_and_the_plan_count_the_same_fixtures_kept():
    """The form said "12 fixtures already played … are kept" and its preview "7 … kept": the
    preview left out the withdrawn team's decided fixtures, which are kept as they are too.
    Both count them from one place (``kept_by_generation``), and generating keeps them."""
    from leagues.selectors.fixtures import division_kept_count
    from leagues.services.withdrawal import team_withdraw

    division = calendar_division(names=("Alma", "Bull", "Crown", "Dog", "Elm", "Fox"))
    fixtures_generate(division=division, legs=1)
    first = Fixture.objects.filter(division=division).order_by("date", "pk")
    Fixture.objects.filter(pk__in=[f.pk for f in first[:3]]).update(status="played")
    team_withdraw(entry=division.entries.get(team__name="Fox"), reason="Pub closed")
    fox = Fixture.objects.filter(division=division, home__name="Fox") | Fixture.objects.filter(
        division=division, away__name="Fox"
    )
    decided = set(fox.exclude(status="scheduled").values_list("pk", flat=True))
    assert decided, "the withdrawal gave walkovers"
    plan = fixtures_plan(division=division, legs=2)
    assert len(plan.kept) == division_kept_count(division=division)
    assert decided <= {f.pk for f in plan.kept}
    fixtures_generate(division=division, legs=2, token=plan.token)
    assert decided <= set(Fixture.objects.values_list("pk", flat=True))


def _season_with_fixtures_to(last: datetime.date):
    """A season begun 2 Sep 2025 with no end, its last fixture on ``last``."""
    division = DivisionFactory(
        season__starts_on=datetime.date(2025, 9, 2), season__ends_on=None, season__name="2025–26"
    )
    FixtureFactory(division=division, date=last)
    return division.season


def test_a_new_season_may_not_start_while_another_still_has_fixtures(client, django_user_model):
    """The plain "New season" form, not only "Start the next season": a season begun inside
    another would take the league's pages before the other's last fixtures are played."""
    old = _season_with_fixtures_to(datetime.date(2026, 3, 31))
    league = old.league
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    league.secretaries.add(user)
    client.force_login(user)

    response = client.post(
        reverse("leagues:manage_season_create", args=[league.slug]),
        {"name": "Spring 2026", "starts_on": "2026-03-03", "venue_capacity": 1},
    )

    assert response.status_code == 200
    page = page_words(response)
    assert (
        "2025–26 runs then: it started Tue 2 Sep 2025 and has fixtures to Tue 31 Mar 2026. "
        "Start this season after it." in page
    )
    assert league.seasons.count() == 1
    with pytest.raises(ValidationError):
        season_create(league=league, name="Spring 2026", starts_on=datetime.date(2026, 3, 3))
    # After its last fixture, it may.
    after = season_create(league=league, name="Spring 2026", starts_on=datetime.date(2026, 4, 7))
    assert after.starts_on == datetime.date(2026, 4, 7)


def test_an_earlier_season_entered_afterwards_must_end_before_the_next_starts():
    """A secretary typing last year's season for the record: it ends before this one starts."""
    current = _season_with_fixtures_to(datetime.date(2026, 3, 31))
    league = current.league
    with pytest.raises(ValidationError) as refused:
        season_create(league=league, name="2024–25", starts_on=datetime.date(2024, 9, 3))
    assert refused.value.message_dict["starts_on"] == [
        "2025–26 starts Tue 2 Sep 2025: give this season an end before then, or start it "
        "after that season."
    ]
    kept = season_create(
        league=league,
        name="2024–25",
        starts_on=datetime.date(2024, 9, 3),
        ends_on=datetime.date(2025, 5, 27),
    )
    assert kept.pk is not None


def test_a_season_re_dated_into_another_is_refused_and_unchanged():
    current = _season_with_fixtures_to(datetime.date(2026, 3, 31))
    league = current.league
    later = season_create(league=league, name="Spring 2026", starts_on=datetime.date(2026, 4, 7))
    with pytest.raises(ValidationError):
        season_update(season=later, name="Spring 2026", starts_on=datetime.date(2026, 3, 24))
    later.refresh_from_db()
    assert later.starts_on == datetime.date(2026, 4, 7)
    # Its own dates never clash with itself.
    season_update(season=later, name="Spring 2026", starts_on=datetime.date(2026, 4, 14))
    later.refresh_from_db()
    assert later.starts_on == datetime.date(2026, 4, 14)


def test_a_season_is_not_re_dated_past_the_fixtures_it_has_played(client):
    """Moving a season's start past its played fixtures was saved, and the league's home then
    showed last season as current ("Next season: ... starts Tue 1 Dec 2026"); so was an end
    before them. Refused, naming them, and nothing changes."""
    secretary = UserFactory()
    division = DivisionFactory(season__starts_on=datetime.date(2026, 11, 3))
    season, league = division.season, division.season.league
    league.secretaries.add(secretary)
    played = FixtureFactory(
        division=division, date=datetime.date(2026, 11, 10), status=Fixture.Status.PLAYED
    )
    FixtureFactory(division=division, date=datetime.date(2026, 11, 17), played=True)
    to_play = FixtureFactory(division=division, date=datetime.date(2026, 11, 24))
    FixtureFactory(division=division, date=datetime.date(2026, 11, 12), status=Fixture.Status.VOID)
    client.force_login(secretary)
    url = reverse("leagues:manage_season_edit", args=[league.slug, season.pk])
    form = {"name": season.name, "starts_on": "2026-12-01", "venue_capacity": "1"}
    words = page_words(client.post(url, form))
    assert (
        f"{season.name} has 2 fixtures played (the first {played.home} v {played.away} on "
        "Tue 10 Nov 2026) and 1 fixture still to play "
        f"({to_play.home} v {to_play.away} on Tue 24 Nov 2026) before Tue 1 Dec 2026: start "
        "the season on or before Tue 10 Nov 2026."
    ) in words
    season.refresh_from_db()
    assert season.starts_on == datetime.date(2026, 11, 3)
    assert not AuditEntry.objects.filter(action="season_updated").exists()
    with pytest.raises(ValidationError) as refused:
        season_update(
            season=season,
            name=season.name,
            starts_on=season.starts_on,
            ends_on=datetime.date(2026, 11, 20),
        )
    assert refused.value.message_dict["ends_on"] == [
        f"{season.name} has 1 fixture still to play ({to_play.home} v {to_play.away} on Tue 24 "
        "Nov 2026) after Fri 20 Nov 2026: re-arrange it first, or end the season on or after "
        "Tue 24 Nov 2026."
    ]
    # Up to its first fixture, and to its last, the season may be re-dated.
    season_update(
        season=season,
        name=season.name,
        starts_on=datetime.date(2026, 11, 10),
        ends_on=datetime.date(2026, 11, 24),
    )
    season.refresh_from_db()
    assert (season.starts_on, season.ends_on) == (
        datetime.date(2026, 11, 10),
        datetime.date(2026, 11, 24),
    )
