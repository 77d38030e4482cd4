"""A team withdrawn with its results standing: each remaining fixture is a walkover on its own
date, so the table never shows a game not yet due.

"Today" is the league's (``leagues.zones.today_in``): the fixtures are dated around the real
today, and a later morning is reached by patching ``today_in`` where the settle step reads it.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import json
import zoneinfo

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import AuditEntry, Fixture, Withdrawal
from leagues.selectors.standings import divisions_standings, worked_out_standings
from leagues.services.fixtures import fixture_void, fixture_walkover
from leagues.services.withdrawal import settle_due_walkovers, team_reinstate, team_withdraw
from leagues.tables import fixture_score, status_text
from leagues.zones import today_in
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import confirm, entered_teams, page_words, start_fixture
from tests.leagues.helpers import win_game as win

pytestmark = pytest.mark.django_db

NAMES = ("Red Lion", "Black Bull", "Crown", "Dog")
WEEK = datetime.timedelta(weeks=1)


def _table(standings):
    return [(row.team.name, row.played, row.points, row.form) for row in standings.rows]


def stored(division):
    return _table(divisions_standings(divisions=[division])[0])


def worked_out(division):
    return _table(worked_out_standings(divisions=[division])[0])


def played(division) -> dict[str, int]:
    (standings,) = divisions_standings(divisions=[division])
    return {row.team.name: row.played for row in standings.rows}


@pytest.fixture
def season():
    """Red Lion has played two nights (a fortnight and a week ago), has a fixture tonight and
    two ahead (next week, the week after), where its league plays (London)."""
    league = LeagueFactory(
        match_format=YORKSHIRE_FORMAT.with_options(tables=1).to_spec(), time_zone="Europe/London"
    )
    secretary = UserFactory()
    league.secretaries.add(secretary)
    division = DivisionFactory(season__league=league, name="Premier")
    teams = dict(zip(NAMES, entered_teams(division, NAMES, players=2), strict=True))
    today = today_in(league.time_zone)

    def fixture(home: str, away: str, weeks: int) -> Fixture:
        return FixtureFactory(
            division=division, home=teams[home], away=teams[away], date=today + weeks * WEEK
        )

    for home, away, weeks in (("Red Lion", "Black Bull", -2), ("Crown", "Red Lion", -1)):
        (table_game,) = start_fixture(fixture(home, away, weeks))
        win(table_game.game, "A", 3)
        confirm(Fixture.objects.get(home=teams[home], away=teams[away]))
    return {
        "league": league,
        "division": division,
        "secretary": secretary,
        "today": today,
        "tonight": fixture("Red Lion", "Dog", 0),
        "next_week": fixture("Black Bull", "Red Lion", 1),
        "in_a_fortnight": fixture("Red Lion", "Crown", 2),
    }


def withdraw(season, how=Withdrawal.STAND):
    entry = season["division"].entries.get(team__name="Red Lion")
    return team_withdraw(entry=entry, withdrawal=how, reason="Pub shut", by=season["secretary"])


def on_the_morning_of(monkeypatch, day: datetime.date) -> None:
    monkeypatch.setattr("leagues.services.withdrawal.today_in", lambda zone: day)


def test_walkovers_ahead_of_their_night_wait_for_their_date(season):
    division = season["division"]
    withdraw(season)
    tonight, next_week, later = (
        Fixture.objects.get(pk=season[name].pk)
        for name in ("tonight", "next_week", "in_a_fortnight")
    )
    assert {f.status for f in (tonight, next_week, later)} == {Fixture.Status.WALKOVER}
    assert (tonight.walkover_pending, next_week.walkover_pending, later.walkover_pending) == (
        False,
        True,
        True,
    ), "tonight's counts at once; the others on their own dates"
    # Red Lion: the two nights it played and tonight's walkover; no game not yet due.
    assert played(division) == {"Red Lion": 3, "Black Bull": 1, "Crown": 1, "Dog": 1}
    assert stored(division) == worked_out(division)
    day = next_week.date
    assert status_text(next_week) == (
        f"Walkover to Black Bull on {day:%a} {day.day} {day:%b} (Red Lion withdrew)"
    )
    assert fixture_score(next_week) == "v"
    assert status_text(tonight) == "Walkover to Dog"


def test_the_walkover_counts_the_morning_after_its_date_once_however_often_settled(
    season, monkeypatch
):
    division = season["division"]
    withdraw(season)
    assert settle_due_walkovers() == 0, "nothing is due before next week"
    on_the_morning_of(monkeypatch, season["today"] + WEEK)
    assert settle_due_walkovers() == 1
    assert settle_due_walkovers() == 0, "settling again changes nothing"
    next_week = Fixture.objects.get(pk=season["next_week"].pk)
    assert not next_week.walkover_pending and next_week.status == Fixture.Status.WALKOVER
    assert played(division) == {"Red Lion": 4, "Black Bull": 2, "Crown": 1, "Dog": 1}
    assert stored(division) == worked_out(division)
    entry = next_week.audit_entries.get(action="walkover_counted")
    assert entry.by is None and "the walkover to Black Bull counts" in entry.subject
    assert entry.before["walkover_pending"] is True and entry.after["walkover_pending"] is False
    assert Fixture.objects.get(pk=season["in_a_fortnight"].pk).walkover_pending


def test_a_league_counts_by_its_own_date(monkeypatch):
    """Kiritimati (UTC+14) is a day ahead of Pago Pago (UTC−11) at every hour: a fixture dated
    Kiritimati's today is tonight in a Kiritimati league and tomorrow in a Pago Pago one."""
    day = today_in("Pacific/Kiritimati")
    pending = {}
    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):
        league = LeagueFactory(time_zone=zone)
        division = DivisionFactory(season__league=league)
        home, away = entered_teams(division, ["Home", "Away"], players=2)
        fixture = FixtureFactory(division=division, home=home, away=away, date=day)
        team_withdraw(
            entry=division.entries.get(team=away), withdrawal=Withdrawal.STAND, reason="Gone"
        )
        fixture.refresh_from_db()
        pending[zone] = fixture.walkover_pending
    assert pending == {"Pacific/Kiritimati": False, "Pacific/Pago_Pago": True}


def test_reinstating_puts_back_counted_and_pending_walkovers_audited(season, monkeypatch):
    division = season["division"]
    before = stored(division)
    withdraw(season)
    on_the_morning_of(monkeypatch, season["today"] + WEEK)
    settle_due_walkovers()
    team_reinstate(entry=division.entries.get(team__name="Red Lion"), by=season["secretary"])
    for name in ("tonight", "next_week", "in_a_fortnight"):
        fixture = Fixture.objects.get(pk=season[name].pk)
        assert (fixture.status, fixture.walkover_to, fixture.walkover_pending) == (
            Fixture.Status.SCHEDULED,
            "",
            False,
        )
        assert fixture.audit_entries.latest("pk").action == "fixture_reinstated"
    assert stored(division) == before == worked_out(division)
    assert settle_due_walkovers() == 0, "nothing is left to settle"


def test_a_pending_walkover_voided_is_no_longer_pending(season):
    withdraw(season)
    fixture = fixture_void(fixture=season["next_week"], reason="Abandoned", by=season["secretary"])
    fixture.refresh_from_db()
    assert (fixture.status, fixture.walkover_pending) == (Fixture.Status.VOID, False)


def test_expunged_remaining_fixtures_are_void_at_once(season):
    withdraw(season, Withdrawal.EXPUNGE)
    statuses = {
        Fixture.objects.get(pk=season[name].pk).status
        for name in ("tonight", "next_week", "in_a_fortnight")
    }
    assert statuses == {Fixture.Status.VOID}
    assert not Fixture.objects.filter(walkover_pending=True).exists()


def test_the_pages_agree_before_and_after_the_date(season, client, monkeypatch):
    """The standings (a cached fragment), the fixture list, the team page, the CSV, the API
    and the calendar say the same, before the date and the morning after (the settle step
    clears the cached pages)."""
    division, league = season["division"], season["league"]
    withdraw(season)
    bull = division.entries.get(team__name="Black Bull").team
    standings_url = reverse("leagues:division", args=[division.pk])
    day = season["next_week"].date
    fixtures_url = f"{reverse('leagues:division_fixtures', args=[division.pk])}?week={day}"
    csv_url = reverse("leagues:division_standings_csv", args=[division.pk])
    api_url = f"/api/leagues/{league.slug}/fixtures"
    words = f"Walkover to Black Bull on {day:%a} {day.day} {day:%b} (Red Lion withdrew)"

    def bull_played_in_csv() -> str:
        rows = csv.DictReader(io.StringIO(client.get(csv_url).content.decode()))
        return next(row["Played"] for row in rows if row["Team"] == "Black Bull")

    def api_fixture() -> dict:
        found = json.loads(client.get(api_url).content)["items"]
        return next(item for item in found if item["id"] == season["next_week"].pk)

    team_url = reverse("leagues:team", args=[bull.pk])
    assert client.get(standings_url).status_code == 200  # the fragments are cached now
    assert words in client.get(fixtures_url).content.decode()
    assert words in client.get(team_url).content.decode()
    assert "<dt>Played</dt><dd>1</dd>" in client.get(team_url).content.decode()
    fixture_page = client.get(reverse("leagues:fixture", args=[season["next_week"].pk]))
    assert f"{words}: it counts from that date" in fixture_page.content.decode()
    assert "Result figures" not in fixture_page.content.decode()
    assert bull_played_in_csv() == "1"
    assert api_fixture()["walkover_pending"] is True and api_fixture()["result"] is None
    calendar = client.get(reverse("leagues:division_calendar", args=[division.pk]))
    assert words.replace(",", "\\,") in calendar.content.decode().replace("\r\n ", "")

    on_the_morning_of(monkeypatch, season["today"] + WEEK)
    settle_due_walkovers()
    assert played(division) == {"Red Lion": 4, "Black Bull": 2, "Crown": 1, "Dog": 1}
    assert client.get(standings_url).status_code == 200
    assert "<dt>Played</dt><dd>2</dd>" in client.get(team_url).content.decode()
    assert bull_played_in_csv() == "2"
    assert api_fixture()["walkover_pending"] is False and api_fixture()["result"]["walkover"]
    listed = client.get(fixtures_url).content.decode()
    assert words not in listed and "Walkover to Black Bull" in listed
    assert AuditEntry.objects.filter(action="walkover_counted").count() == 1


def test_the_settle_command_says_how_many_it_counted(season, monkeypatch):
    withdraw(season)
    out = io.StringIO()
    call_command("settle_walkovers", stdout=out)
    on_the_morning_of(monkeypatch, season["today"] + 2 * WEEK)
    call_command("settle_walkovers", stdout=out)
    assert out.getvalue().splitlines() == ["Settled 0 walkovers.", "Settled 2 walkovers."]


def test_a_team_withdrawn_late_on_a_league_night_withdrew_on_that_nights_date(monkeypatch):
    """Withdrawn at 21:30 on a Port of Spain Friday (01:30 on Saturday in London, the site's
    zone), the team was recorded as withdrawn on the Saturday: the league's own date is the
    Friday. A season that ended on the Friday is still open to it that evening."""
    friday = datetime.date(2026, 11, 6)
    late = datetime.datetime(2026, 11, 7, 1, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr("django.utils.timezone.now", lambda: late)
    monkeypatch.setattr(
        "leagues.services.withdrawal.today_in",
        lambda zone: late.astimezone(zoneinfo.ZoneInfo(zone)).date(),
    )
    league = LeagueFactory(time_zone="America/Port_of_Spain")
    division = DivisionFactory(season__league=league, season__ends_on=friday)
    home, away = entered_teams(division, ["Home", "Away"], players=2)
    entry = division.entries.get(team=away)
    team_withdraw(entry=entry, withdrawal=Withdrawal.STAND, reason="Gone")
    entry.refresh_from_db()
    assert entry.withdrawn_on == friday


def test_the_next_season_waits_for_the_walkovers_and_says_what_settles_each_kind(season, client):
    """Starting the next season is refused while fixtures are still to count, and the page
    says which kinds: a withdrawn team's walkovers waiting for their dates need nothing (each
    counts on its own date), unlike a fixture to play, postponed, or not yet confirmed."""
    from leagues.days import long_date
    from leagues.selectors.standings import season_standings
    from leagues.services.fixtures import fixture_postpone
    from leagues.services.seasons import placements_refusal

    division, secretary = season["division"], season["secretary"]
    withdraw(season)
    url = reverse("leagues:manage_season_next", args=[season["league"].slug, division.season_id])
    client.force_login(secretary)
    page = html.unescape(client.get(url).content.decode())
    last = long_date(season["today"] + 2 * WEEK)
    assert (
        f"2 league fixtures still to count (2 in Premier). 2 walkovers from Red Lion's "
        "withdrawal, waiting for their dates: each counts on its own date by itself (the last "
        f"on {last}). Promotion and relegation come from the final tables: start the next "
        "season once every fixture counts." in page
    )
    assert "award a walkover" not in page and "waiting for confirmation" not in page

    teams = {entry.team.name: entry.team for entry in division.entries.select_related("team")}
    today = season["today"]
    for home, away, weeks in (("Crown", "Dog", 1), ("Dog", "Black Bull", 1)):
        FixtureFactory(
            division=division, home=teams[home], away=teams[away], date=today + weeks * WEEK
        )
    fixture_postpone(
        fixture=Fixture.objects.get(home=teams["Dog"], away=teams["Black Bull"]),
        reason="Burst pipe",
        by=secretary,
    )
    unconfirmed = FixtureFactory(
        division=division, home=teams["Dog"], away=teams["Crown"], date=today - WEEK
    )
    (table_game,) = start_fixture(unconfirmed)
    win(table_game.game, "A", 3)
    refusal = placements_refusal(division.season, season_standings(season=division.season))
    assert (
        "5 league fixtures still to count (5 in Premier). 1 to play and 1 postponed: play "
        "them, re-arrange them, award a walkover or void them. 1 played, its result not yet "
        "confirmed: confirm it on its result page. 2 walkovers from Red Lion's withdrawal"
    ) in refusal


def test_a_walkover_the_secretary_gives_ahead_of_its_night_waits_for_its_date_too(
    season, client, monkeypatch
):
    """A walkover given for a night still to come (the opponents conceded) counts on that
    night, as a withdrawn team's does: pending until then, said so, settled by the same step;
    one given for tonight counts at once."""
    division, secretary = season["division"], season["secretary"]
    ahead = fixture_walkover(
        fixture=season["next_week"], to="home", reason="Red Lion cannot raise a side", by=secretary
    )
    tonight = fixture_walkover(
        fixture=season["tonight"], to="away", reason="Red Lion cannot raise a side", by=secretary
    )
    ahead.refresh_from_db()
    tonight.refresh_from_db()
    assert (ahead.walkover_pending, tonight.walkover_pending) == (True, False)
    assert played(division) == {"Red Lion": 3, "Black Bull": 1, "Crown": 1, "Dog": 1}
    assert stored(division) == worked_out(division)
    day = ahead.date
    words = f"Walkover to Black Bull on {day:%a} {day.day} {day:%b} (Red Lion conceded)"
    assert status_text(ahead) == words and fixture_score(ahead) == "v"
    week = f"{reverse('leagues:division_fixtures', args=[division.pk])}?week={day}"
    assert words in client.get(week).content.decode()
    result_page = client.get(reverse("leagues:fixture_result", args=[ahead.pk])).content.decode()
    assert f"{words}: it counts from that date" in result_page
    entry = ahead.audit_entries.get(action="walkover")
    assert entry.after["walkover_pending"] is True and "counts on" in entry.subject

    on_the_morning_of(monkeypatch, day)
    assert settle_due_walkovers() == 1
    assert played(division) == {"Red Lion": 4, "Black Bull": 2, "Crown": 1, "Dog": 1}
    assert stored(division) == worked_out(division)


def test_a_cup_tie_given_as_a_walkover_ahead_of_its_night_goes_through_at_once(season):
    """A cup's winner must be known for the next round's draw: a walkover in a cup tie is not
    held back to its date (only league fixtures wait)."""
    fixture = season["next_week"]
    Fixture.objects.filter(pk=fixture.pk).update(kind=Fixture.Kind.CUP)
    fixture.refresh_from_db()
    fixture_walkover(fixture=fixture, to="home", reason="Conceded", by=season["secretary"])
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.WALKOVER and not fixture.walkover_pending


def test_the_table_and_the_race_count_the_same_fixtures_left(season, client):
    """The division's page says how many fixtures it has counted of how many, and how many are
    left to count: a withdrawn team's walkovers waiting for their dates are left in both, and
    the race knows its opponents still gain their points."""
    division = season["division"]
    withdraw(season)
    page = page_words(client.get(reverse("leagues:division", args=[division.pk])).content.decode())
    assert "Provisional: 3 of 5 league fixtures counted so far." in page
    assert "2 fixtures left to count." in page
    assert "Every fixture is settled" not in page and "finished top" not in page


def test_the_secretary_is_told_when_a_walkover_given_ahead_counts(season, client):
    client.force_login(season["secretary"])
    fixture = season["next_week"]
    url = reverse("leagues:manage_fixture", args=[fixture.pk])
    form = client.get(url).content.decode()
    assert "given for a night still to come, it counts on that night" in form
    response = client.post(
        url,
        {"action": "walkover", "walkover-to": "home", "walkover-reason": "Red Lion conceded"},
        follow=True,
    )
    day = fixture.date
    said = f"Walkover given (it counts on {day:%a} {day.day} {day:%b}): Black Bull v Red Lion."
    assert said in response.content.decode()


def test_the_next_season_names_a_conceded_walkover_waiting_for_its_date_as_such(season):
    """A walkover the secretary gave ahead of its night waits for its date as a withdrawn
    team's does, but nobody withdrew: the refusal says it was conceded."""
    from leagues.days import long_date
    from leagues.services.seasons import still_to_count

    fixture_walkover(
        fixture=season["next_week"], to="home", reason="Short of players", by=season["secretary"]
    )
    kinds = still_to_count(season["division"].season)
    day = long_date(season["next_week"].date)
    assert (
        f"1 walkover given ahead of its night (Red Lion conceded), waiting for its date: it "
        f"counts on {day} by itself."
    ) in kinds
    assert not any("withdrawal" in kind for kind in kinds)


def test_a_withdrawn_team_renamed_still_reads_as_withdrawn_everywhere_and_is_reinstated(
    season, client
):
    """Whether a walkover came from a withdrawal is stored with the fixture, not read back
    from its reason's words: renamed after it withdrew ("Red Lion withdrew: Pub shut" stays
    the reason), the team's pending walkovers still say it withdrew on every page, the season's
    refusal still counts them as its withdrawal's, the secretary's page still sends the undo to
    the team's reinstatement, and reinstating puts them back."""
    from leagues.services.fixtures import fixture_undo
    from leagues.services.seasons import still_to_count
    from leagues.services.structure import team_update

    division, secretary = season["division"], season["secretary"]
    withdraw(season)
    lion = division.entries.get(team__name="Red Lion").team
    team_update(team=lion, name="Lion Inn", home_venue=lion.home_venue, by=secretary)
    next_week = Fixture.objects.get(pk=season["next_week"].pk)
    assert next_week.reason == "Red Lion withdrew: Pub shut"
    day = next_week.date
    words = f"Walkover to Black Bull on {day:%a} {day.day} {day:%b} (Lion Inn withdrew)"
    assert status_text(next_week) == words
    week = f"{reverse('leagues:division_fixtures', args=[division.pk])}?week={day}"
    assert words in html.unescape(client.get(week).content.decode())
    bull = division.entries.get(team__name="Black Bull").team
    assert words in html.unescape(
        client.get(reverse("leagues:team", args=[bull.pk])).content.decode()
    )
    page = client.get(reverse("leagues:fixture", args=[next_week.pk])).content.decode()
    assert f"{words}: it counts from that date" in html.unescape(page)
    calendar = client.get(reverse("leagues:division_calendar", args=[division.pk]))
    assert words in calendar.content.decode().replace("\r\n ", "")
    assert any(
        kind.startswith("2 walkovers from Lion Inn's withdrawal")
        for kind in still_to_count(division.season)
    )

    client.force_login(secretary)
    manage = reverse("leagues:manage_fixture", args=[next_week.pk])
    page = html.unescape(client.get(manage).content.decode())
    assert 'value="undo"' not in page
    assert "It was settled by Lion Inn's withdrawal: reinstate the team" in page
    with pytest.raises(ValidationError, match="Lion Inn's withdrawal: reinstate the team"):
        fixture_undo(fixture=next_week, reason="Wrong team", by=secretary)

    team_reinstate(entry=division.entries.get(team=lion), by=secretary)
    for name in ("tonight", "next_week", "in_a_fortnight"):
        fixture = Fixture.objects.get(pk=season[name].pk)
        assert (fixture.status, fixture.walkover_to, fixture.reason) == (
            Fixture.Status.SCHEDULED,
            "",
            "",
        )


def test_an_expunged_teams_voids_are_put_back_by_reinstating_it_not_undone(season, client):
    """The voids of a team withdrawn with its results expunged are its withdrawal's too: the
    secretary's page offers no undo and names the team, renamed or not; a void the secretary
    gives another fixture is undone as ever."""
    from leagues.services.fixtures import fixture_undo
    from leagues.services.structure import team_update

    division, secretary = season["division"], season["secretary"]
    withdraw(season, Withdrawal.EXPUNGE)
    lion = division.entries.get(team__name="Red Lion").team
    team_update(team=lion, name="Lion Inn", home_venue=lion.home_venue, by=secretary)
    voided = Fixture.objects.get(pk=season["next_week"].pk)
    assert voided.status == Fixture.Status.VOID
    client.force_login(secretary)
    page = html.unescape(
        client.get(reverse("leagues:manage_fixture", args=[voided.pk])).content.decode()
    )
    assert 'value="undo"' not in page
    assert "It was settled by Lion Inn's withdrawal: reinstate the team" in page
    with pytest.raises(ValidationError, match="reinstate the team to undo it"):
        fixture_undo(fixture=voided, reason="Wrong team", by=secretary)
    teams = {entry.team.name: entry.team for entry in division.entries.select_related("team")}
    other = FixtureFactory(
        division=division, home=teams["Crown"], away=teams["Dog"], date=season["today"] + WEEK
    )
    fixture_void(fixture=other, reason="Both short", by=secretary)
    fixture_undo(fixture=other, reason="Played after all", by=secretary)
    assert Fixture.objects.get(pk=other.pk).status == Fixture.Status.SCHEDULED


def test_a_withdrawals_walkover_the_secretary_voided_is_theirs_once_the_team_is_reinstated(
    season,
):
    """Reinstating the team leaves a walkover the secretary has voided since as it is; the
    void is then the secretary's own, undone as any other."""
    from leagues.services.fixtures import fixture_undo

    secretary = season["secretary"]
    withdraw(season)
    fixture_void(fixture=season["next_week"], reason="Abandoned", by=secretary)
    team_reinstate(entry=season["division"].entries.get(team__name="Red Lion"), by=secretary)
    voided = Fixture.objects.get(pk=season["next_week"].pk)
    assert (voided.status, voided.withdrew, voided.withdrawn_team) == (
        Fixture.Status.VOID,
        "",
        None,
    )
    fixture_undo(fixture=voided, reason="Played after all", by=secretary)
    assert Fixture.objects.get(pk=voided.pk).status == Fixture.Status.SCHEDULED
