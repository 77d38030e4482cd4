"""A played result imported from the league's spreadsheet counts its games won, as the match
engine says them from the match points: a Trinidad league's 7–5 is bullseyes 7–5 on every page,
the standings CSV and the calendar feed (it counted 0–0 in bullseyes, and the bullseye
tie-break put teams in the wrong order); a Yorkshire 8–2 (4–0 or 3–1 in games) asks for its
games won, which the "games won" tie-break counts."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from leagues import match
from leagues.formats import TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.models import Fixture, League, Team
from leagues.services.cards import CardTable, fixture_card_enter
from leagues.services.fixtures_import import scores_help
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory, SeasonFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import captained_teams, page_words
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db

TRINIDAD_PEOPLE = """division,team,venue,player
Championship,Arima Stars,Arima Social Club,Nadia Charles
Championship,Malabar Kings,Malabar Community Centre,Ronald Singh
Championship,Couva Jacks,Couva Sports Club,Curtis Joseph
"""

#: Each team wins once and loses once (2 league points each): the bullseyes order them,
#: Malabar Kings 5 + 8 = 13 for, Arima Stars 7 + 5 = 12, Couva Jacks 7 + 4 = 11.
TRINIDAD_FIXTURES = """date,time,division,home,away,venue,home_score,away_score
Tue 2 Sep 2025,7.30pm,Championship,Arima Stars,Malabar Kings,,7,5
Tue 9 Sep 2025,7.30pm,Championship,Couva Jacks,Arima Stars,,7,5
Tue 16 Sep 2025,7.30pm,Championship,Malabar Kings,Couva Jacks,,8,4
"""


def secretary_of(league: League) -> Client:
    client = Client()
    user = UserFactory()
    league.secretaries.add(user)
    client.force_login(user)
    return client


def upload(client: Client, league: League, people: str, fixtures: str):
    files = []
    for text, name in ((people, "squads.csv"), (fixtures, "fixtures.csv")):
        handle = io.BytesIO(text.encode())
        handle.name = name
        files.append(handle)
    season = league.seasons.get()
    data = {"season": str(season.pk), "people": files[0], "fixtures": files[1]}
    return client.post(reverse("leagues:manage_import", args=[league.slug]), data)


def import_and_confirm(client: Client, league: League, people: str, fixtures: str) -> None:
    preview = upload(client, league, people, fixtures)
    assert preview.status_code == 200, [str(p) for p in preview.context["plan"].problems]
    data = dict(preview.context["carried"]) | {"action": "confirm"}
    assert (
        client.post(reverse("leagues:manage_import", args=[league.slug]), data).status_code == 302
    )


def standings_csv(division: int) -> list[dict[str, str]]:
    """The division's standings CSV, a row a team, in the table's order."""
    url = reverse("leagues:division_standings_csv", args=[division])
    return list(csv.DictReader(io.StringIO(Client().get(url).content.decode())))


def test_a_trinidad_result_imported_counts_its_bullseyes_everywhere():
    """Imported 7–5 read "Arima Stars 0–0 Malabar Kings" on the league's home, the fixture
    page and the feed, and the standings CSV gave 0 bullseyes for and against."""
    league = LeagueFactory(trinidad=True, match_format=TRINIDAD_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    client = secretary_of(league)
    preview = upload(client, league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)
    assert preview.context["plan"].create["results"][0].endswith(": 7–5 (bullseyes 7–5)")
    import_and_confirm(client, league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)

    played = Fixture.objects.get(home__name="Arima Stars")
    result = played.result
    assert (result.home_games, result.away_games) == (7, 5)
    assert (result.home_match_points, result.away_match_points) == (7, 5)
    assert (result.home_points, result.away_points) == (2, 0)

    home = Client().get(reverse("leagues:league", args=[league.slug])).content.decode()
    assert "7–5" in home and "0–0" not in home
    page = Client().get(reverse("leagues:fixture", args=[played.pk])).content.decode()
    assert "0–0" not in page
    assert '<th scope="row">Bullseyes</th><td class="num">7</td><td class="num">5</td>' in page
    feed = Client().get(reverse("leagues:league_calendar", args=[league.slug])).content.decode()
    assert "Arima Stars 7–5 Malabar Kings" in feed.replace("\r\n ", "")

    division = played.division
    rows = standings_csv(division.pk)
    by_team = {row["Team"]: row for row in rows}
    arima = by_team["Arima Stars"]
    assert (arima["Bullseyes for"], arima["Bullseyes against"]) == ("12", "12")
    # Level on points: the bullseyes order them.
    assert [row["Team"] for row in rows] == ["Malabar Kings", "Arima Stars", "Couva Jacks"]


def test_an_imported_results_pegs_and_hang_jacks_read_as_not_recorded_not_0():
    """The file gives a played match's match points (and games) alone: its points scored and
    hang jacks were stored 0–0 and shown as "0 0" on the fixture's page and "0–0" on its
    result page, as if nobody had scored. They read as not in the imported records, as do
    the tables won where the games do not say them (a Trinidad 7–5: the result page said
    "Tables 0–0"), and the fixture's page no longer says its pairs are "not seated yet"; the
    standings add nothing for them (docs/imported-results.md)."""
    league = LeagueFactory(trinidad=True, match_format=TRINIDAD_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    import_and_confirm(secretary_of(league), league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)
    played = Fixture.objects.get(home__name="Arima Stars")
    assert (played.result.home_pegs, played.result.home_hang_jacks) == (0, 0)
    not_recorded = '<td colspan="2" data-testid="no-{}">— (not in the imported records)</td>'
    page = page_words(Client().get(reverse("leagues:fixture", args=[played.pk])))
    assert f'<th scope="row">Points scored</th>{not_recorded.format("pegs")}' in page
    assert f'<th scope="row">Hang jacks</th>{not_recorded.format("hang-jacks")}' in page
    assert "Imported from the league's records: its tables were not recorded." in page
    assert "The pairs are not seated yet" not in page
    result = page_words(Client().get(reverse("leagues:fixture_result", args=[played.pk])))
    gap = "— (not in the imported records)"
    assert (
        f"Tables {gap} · bullseyes 7–5 · points scored {gap} · hang jacks {gap} · league points "
        "2–0" in result
    )
    # The API says it too: null, where it said 0 as if nobody had scored.
    given = Client().get(f"/api/fixtures/{played.pk}").json()["result"]
    assert {name: given[name] for name in given if given[name] is None} == dict.fromkeys(
        (
            "home_tables",
            "away_tables",
            "tables_halved",
            "home_pegs",
            "away_pegs",
            "home_hang_jacks",
            "away_hang_jacks",
        )
    )
    assert (given["home_games"], given["home_match_points"], given["home_points"]) == (7, 7, 2)


def test_results_imported_before_say_what_was_not_recorded_once_migrated(migrate_to):
    """The migration that stores what of a result was recorded (0058): an imported result
    (no tables) is marked imported, its pegs not recorded; a played one is neither."""
    from leagues.models import FixtureResult

    league = LeagueFactory(trinidad=True, match_format=TRINIDAD_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    import_and_confirm(secretary_of(league), league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)
    played = build(played=True).fixture
    division = DivisionFactory(season=league.seasons.get())
    home, away, users = captained_teams(division, players=8)
    bullseyes = FixtureFactory(division=division, home=home, away=away)
    card = [CardTable(board=b, bullseyes=(1, 1)) for b in range(1, 7)]
    fixture_card_enter(fixture=bullseyes, tables=card, by=users["away"])
    FixtureResult.objects.update(imported=False, pegs_recorded=True)  # as stored before

    migrate_to([("leagues", "0057_venue_matches_a_night")])
    migrate_to([("leagues", "0058_results_say_what_was_recorded")])

    stored = {
        fixture: (imported, pegs)
        for fixture, imported, pegs in FixtureResult.objects.values_list(
            "fixture_id", "imported", "pegs_recorded"
        )
    }
    assert stored.pop(played.pk) == (False, True)
    assert stored.pop(bullseyes.pk) == (False, False)
    assert list(stored.values()) == [(True, False)] * 3


YORKSHIRE_PEOPLE = """division,team,venue,player
Premier,Black Bull,Black Bull Inn,Linda Dyson
Premier,Old Hall,Old Hall Club,Edna Sykes
"""


def test_a_yorkshire_result_whose_match_points_leave_the_games_open_asks_for_them():
    """8–2 in a Yorkshire league is 4 tables to 0 (the away side's aggregate) or 3–1 (the
    home side's): imported as 0–0 in games, the "games won" tie-break counted nothing. The
    row is refused at home_games, naming both; with the games it is taken; 7–3 says 3–1."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    client = secretary_of(league)
    open_games = (
        "date,division,home,away,home_score,away_score\n"
        "2025-09-02,Premier,Black Bull,Old Hall,8,2\n"
    )
    refused = upload(client, league, YORKSHIRE_PEOPLE, open_games)
    assert refused.status_code == 422
    assert [str(p) for p in refused.context["plan"].problems] == [
        "fixtures.csv, row 2, column home_games: 8–2 could be 4–0 or 3–1 in games won: the "
        "match points do not say which. Give the games each side won in the home_games and "
        "away_games columns: the standings count them."
    ]
    assert not Team.objects.exists()

    wrong = (
        "date,division,home,away,home_score,away_score,home_games,away_games\n"
        "2025-09-02,Premier,Black Bull,Old Hall,8,2,2,2\n"
    )
    problems = [
        str(p) for p in upload(client, league, YORKSHIRE_PEOPLE, wrong).context["plan"].problems
    ]
    assert len(problems) == 1 and "8–2 cannot come with 2–2 in games won" in problems[0]
    assert "column home_games (G)" in problems[0]

    given = (
        "date,division,home,away,home_score,away_score,home_games,away_games\n"
        "2025-09-02,Premier,Black Bull,Old Hall,8,2,3,1\n"
        "2025-09-09,Premier,Old Hall,Black Bull,7,3,,\n"
    )
    import_and_confirm(client, league, YORKSHIRE_PEOPLE, given)
    first = Fixture.objects.get(date="2025-09-02").result
    assert (first.home_games, first.away_games, first.home_tables, first.away_tables) == (
        3,
        1,
        3,
        1,
    )
    second = Fixture.objects.get(date="2025-09-09").result
    assert (second.home_games, second.away_games) == (3, 1)
    assert (second.home_match_points, second.away_match_points) == (7, 3)


def test_the_import_page_says_what_the_two_figures_are():
    trinidad = scores_help(TRINIDAD_FORMAT, "trinidad")
    assert "They say the bullseyes each side won: 7–5 is bullseyes 7–5." in trinidad
    yorkshire = scores_help(YORKSHIRE_FORMAT, "yorkshire")
    assert "(8–2 could be 4–0 or 3–1), give them in home_games and away_games" in yorkshire
    league = LeagueFactory(trinidad=True)
    SeasonFactory(league=league)
    page = secretary_of(league).get(reverse("leagues:manage_import", args=[league.slug]))
    assert "7–5 is bullseyes 7–5" in page.content.decode()


def test_the_engine_says_the_games_a_score_leaves_open():
    assert match.games_for_points(TRINIDAD_FORMAT, 7, 5) == [(7, 5)]
    assert match.games_for_points(YORKSHIRE_FORMAT, 8, 2) == [(4, 0), (3, 1)]
    assert match.games_for_points(YORKSHIRE_FORMAT, 7, 3) == [(3, 1)]
    assert match.games_for_points(YORKSHIRE_FORMAT, 8, 3) == []
    assert match.points_result(TRINIDAD_FORMAT, 7, 5).home_games == 7
    with pytest.raises(match.CardError, match="4–0 or 3–1"):
        match.points_result(YORKSHIRE_FORMAT, 8, 2)
    result = match.points_result(YORKSHIRE_FORMAT, 8, 2, games=(4, 0))
    assert (result.home_tables, result.away_tables, result.home_games) == (4, 0, 4)
    # What the engine always said of a match's possible scores stays so.
    assert (8, 2) in match.possible_match_points(YORKSHIRE_FORMAT)


def test_results_imported_before_count_their_games_once_migrated(migrate_to):
    """The migration that puts right the results imported 0–0 in games (0055): a Trinidad 7–5
    takes bullseyes 7–5 and its division's table is worked out again; a Yorkshire 8–2, whose
    games the match points leave open, stays as it was."""
    from django.core.management import call_command

    from leagues.models import DivisionTable, FixtureResult

    league = LeagueFactory(trinidad=True, match_format=TRINIDAD_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    import_and_confirm(secretary_of(league), league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)
    yorkshire = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    SeasonFactory(league=yorkshire, name="2025–26")
    given = (
        "date,division,home,away,home_score,away_score,home_games,away_games\n"
        "2025-09-02,Premier,Black Bull,Old Hall,8,2,3,1\n"
    )
    import_and_confirm(secretary_of(yorkshire), yorkshire, YORKSHIRE_PEOPLE, given)
    # As the import stored them before.
    FixtureResult.objects.update(home_games=0, away_games=0, home_tables=0, away_tables=0)

    migrate_to([("leagues", "0054_division_unique_rank")])
    migrate_to([("leagues", "0055_imported_results_count_their_games")])

    # Today's model has columns added after 0055: read only the ones it had.
    then = FixtureResult.objects.only("fixture", "home_games", "away_games")
    arima = then.get(fixture__home__name="Arima Stars")
    assert (arima.home_games, arima.away_games) == (7, 5)
    bull = then.get(fixture__home__name="Black Bull")
    assert (bull.home_games, bull.away_games) == (0, 0)
    division = arima.fixture.division
    assert not DivisionTable.objects.filter(pk=division.pk).exists()
    assert DivisionTable.objects.filter(pk=bull.fixture.division_id).exists()

    migrate_to()  # the pages read today's models: every later migration applied
    call_command("rebuild_standings", "--missing", stdout=io.StringIO())
    rows = standings_csv(division.pk)
    assert [row["Team"] for row in rows] == ["Malabar Kings", "Arima Stars", "Couva Jacks"]
    assert rows[1]["Bullseyes for"] == "12"


@pytest.mark.django_db(transaction=True)  # flushed midway: outside the test's transaction
def test_an_export_written_before_results_said_what_was_recorded_restores_them_so():
    """A league's file written before 0058 has no ``imported`` on its results: loaded, its
    imported results are marked so, as the migration marked them (the pages read "Imported
    from the league's records", not "The pairs are not seated yet"; the API gives null)."""
    from django.core.management import call_command

    from leagues.services.league_export import league_export, league_restore

    league = LeagueFactory(trinidad=True, match_format=TRINIDAD_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    import_and_confirm(secretary_of(league), league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)
    document = json.loads(league_export(league=league))
    for record in document["records"]:
        if record["model"] == "leagues.fixtureresult":
            del record["fields"]["imported"], record["fields"]["pegs_recorded"]
    call_command("flush", interactive=False, verbosity=0)

    league_restore(data=json.dumps(document).encode())
    played = Fixture.objects.get(home__name="Arima Stars")
    assert (played.result.imported, played.result.pegs_recorded) == (True, False)
    page = page_words(Client().get(reverse("leagues:fixture", args=[played.pk])))
    assert "Imported from the league's records: its tables were not recorded." in page
    assert Client().get(f"/api/fixtures/{played.pk}").json()["result"]["home_pegs"] is None


def test_an_imported_result_voided_by_mistake_comes_back_when_the_void_is_undone():
    """Voiding an imported result and undoing the void lost the result for good: the fixture
    went back to "scheduled" with nothing (the result has no tables to be added up again).
    Voided, it counts no more and its page shows no figures; the void undone, it stands
    again."""
    from leagues.services.fixtures import fixture_undo, fixture_void

    league = LeagueFactory(trinidad=True, match_format=TRINIDAD_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    import_and_confirm(secretary_of(league), league, TRINIDAD_PEOPLE, TRINIDAD_FIXTURES)
    played = Fixture.objects.get(home__name="Arima Stars")
    secretary = league.secretaries.get()
    figures = (played.result.home_games, played.result.away_games)

    def arima_played() -> str:
        rows = standings_csv(played.division_id)
        return next(row["Played"] for row in rows if row["Team"] == "Arima Stars")

    counted = arima_played()

    fixture_void(fixture=played, reason="Entered by mistake", by=secretary)
    played.refresh_from_db()
    assert played.status == Fixture.Status.VOID
    assert Client().get(f"/api/fixtures/{played.pk}").json()["result"] is None
    assert int(arima_played()) == int(counted) - 1
    # Its figures are kept for the void's undoing, not shown as a score of a void fixture.
    page = Client().get(reverse("leagues:fixture", args=[played.pk])).content.decode()
    assert '<th scope="row">League points</th>' not in page and "the fixture is void" in page

    fixture_undo(fixture=played, reason="Voided the wrong match", by=secretary)
    played = Fixture.objects.select_related("result").get(pk=played.pk)
    assert played.status == Fixture.Status.PLAYED
    assert (played.result.home_games, played.result.away_games) == figures
    assert played.result.imported
    api = Client().get(f"/api/fixtures/{played.pk}").json()["result"]
    assert (api["home_games"], api["away_games"]) == figures
    assert arima_played() == counted
