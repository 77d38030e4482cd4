"""One truth for every figure: the standings, the points chart, the player and pair statistics,
the league, team and player pages and every CSV count the same results.

One season holds each thing that must not count, or must count in its own way: a void fixture,
an unconfirmed result, a game in progress, a cup tie, a walkover, a deduction and a team that
withdrew with its results expunged.
"""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture, Withdrawal
from leagues.selectors.counting import counted_fixtures
from leagues.selectors.standings import division_standings
from leagues.selectors.statistics import pair_statistics, player_leaderboard, player_statistics
from leagues.services.adjustments import points_adjust
from leagues.services.confirmation import result_submit
from leagues.services.fixtures import fixture_add, fixture_void, fixture_walkover
from leagues.services.standings import refresh_league_tables
from leagues.services.withdrawal import team_reinstate, team_withdraw
from leagues.views.charts import progression_chart
from scoring.actors import Actor
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import (
    confirm,
    entered_teams,
    hand,
    page_words,
    record,
    squad,
    start_fixture,
)
from tests.leagues.helpers import win_game as win

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 9, 2)
NAMES = ("Alpha", "Bravo", "Charlie", "Delta", "Woolpack")


def play(fixture: Fixture, winner: str, loser_points: int = 3) -> Fixture:
    (table_game,) = start_fixture(fixture)
    win(table_game.game, winner, loser_points)
    fixture.refresh_from_db()
    return fixture


@pytest.fixture
def season():
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=1).to_spec())
    division = DivisionFactory(season__league=league, name="Premier")
    teams = dict(zip(NAMES, entered_teams(division, NAMES, players=2), strict=True))

    def fixture(home: str, away: str, week: int, **kwargs) -> Fixture:
        return FixtureFactory(
            division=division,
            home=teams[home],
            away=teams[away],
            date=DAY + datetime.timedelta(weeks=week),
            **kwargs,
        )

    counted = confirm(play(fixture("Alpha", "Bravo", 1), "A"))
    void = confirm(play(fixture("Charlie", "Delta", 1), "A"))
    fixture_void(fixture=void, reason="Played with an unregistered player")
    unconfirmed = play(fixture("Delta", "Alpha", 2), "A")
    in_progress = fixture("Bravo", "Charlie", 2)
    (table_game,) = start_fixture(in_progress)
    record(
        table_game.game,
        [
            hand(
                table_game.game,
                "A",
                dict.fromkeys(("high", "low"), "A") | {"jack": "B", "game": "B"},
            )
        ],
    )
    walkover = fixture("Charlie", "Alpha", 3)
    fixture_walkover(fixture=walkover, to="home", reason="Alpha could not raise a team")
    cup = confirm(play(fixture("Bravo", "Delta", 3, kind=Fixture.Kind.CUP), "B"))
    expunged = confirm(play(fixture("Woolpack", "Delta", 0), "A"))
    remaining = fixture("Alpha", "Woolpack", 4)
    entry = division.entries.get(team=teams["Alpha"])
    points_adjust(entry=entry, points=-2, reason="Fielded an unregistered player")
    woolpack = division.entries.get(team=teams["Woolpack"])
    points_adjust(entry=woolpack, points=-1, reason="Late result card")
    team_withdraw(entry=woolpack, withdrawal=Withdrawal.EXPUNGE, reason="The pub closed")
    return {
        "league": league,
        "division": division,
        "teams": teams,
        "counted": counted,
        "void": void,
        "unconfirmed": unconfirmed,
        "in_progress": in_progress,
        "walkover": walkover,
        "cup": cup,
        "expunged": expunged,
        "remaining": remaining,
    }


def rows_of(client, name: str, pk: int) -> list[dict[str, str]]:
    response = client.get(reverse(f"leagues:{name}", args=[pk]))
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_only_confirmed_league_results_and_walkovers_count(season):
    division = season["division"]
    counted = set(counted_fixtures(Fixture.objects.filter(division=division)))
    assert counted == {season["counted"], season["walkover"]}
    season["remaining"].refresh_from_db()
    assert season["remaining"].status == Fixture.Status.VOID, "an expunged team's rest are void"


def test_standings_chart_statistics_and_csvs_agree_on_every_figure(client, season):
    division = season["division"]
    standings = division_standings(division=division)
    table = {row.team.name: row for row in standings.rows}
    # Alpha: won the counted fixture (2 for the table, 2 for the aggregate), lost a walkover
    # (nothing), deducted 2. Charlie: the walkover's 4. Bravo lost the counted fixture.
    assert {name: (row.played, row.points) for name, row in table.items()} == {
        "Alpha": (2, 2),
        "Bravo": (1, 0),
        "Charlie": (1, 4),
        "Delta": (0, 0),
        "Woolpack": (0, -1),
    }
    assert standings.rows[-1].team.name == "Woolpack" and standings.rows[-1].withdrawn

    chart = progression_chart(
        rows=standings.rows,
        nights=standings.nights,
        adjustments=standings.adjustments,
        zone=standings.league.time_zone,
    )
    assert chart is not None
    assert {line.team: line.total for line in chart.lines} == {
        name: row.points for name, row in table.items()
    }

    standings_csv = rows_of(client, "division_standings_csv", division.pk)
    assert {
        row["Team"].removesuffix(" (withdrawn)"): (int(row["Played"]), int(row["Points"]))
        for row in standings_csv
    } == {name: (row.played, row.points) for name, row in table.items()}
    assert "Woolpack (withdrawn)" in {row["Team"] for row in standings_csv}

    # Only the counted fixture's game is in the statistics: one game for each of its players.
    board = player_leaderboard(division=division)
    alpha, bravo = (squad(season["teams"][name], division.season) for name in ("Alpha", "Bravo"))
    assert {row.player for row in board} == set(alpha + bravo)
    assert {(row.games_played, row.games_won) for row in board if row.player in alpha} == {(1, 1)}
    assert {(row.games_played, row.games_won) for row in board if row.player in bravo} == {(1, 0)}
    players_csv = rows_of(client, "division_players_csv", division.pk)
    assert {(row["Player"], int(row["Games played"])) for row in players_csv} == {
        (row.player.name, row.games_played) for row in board
    }
    # Each player's team that season, as the pages name it (the CSV had no Team column).
    assert {row["Player"]: row["Team"] for row in players_csv} == {
        player.name: name
        for name in ("Alpha", "Bravo")
        for player in squad(season["teams"][name], division.season)
    }
    pairs = pair_statistics(division=division)
    assert sorted(p.games_played for p in pairs) == [1, 1]
    for name in ("Charlie", "Delta", "Woolpack"):
        for player in squad(season["teams"][name], division.season):
            assert player_statistics(player=player).games_played == 0, player

    # Standings games for/against agree with the statistics' games won.
    assert table["Alpha"].games_for == sum(r.games_won for r in board if r.player in alpha) // 2


def test_the_standings_note_and_the_race_count_the_same_fixtures(client, season):
    """Of the league fixtures, not void: the counted (Alpha v Bravo, the walkover) and those
    left to count (the unconfirmed, the one in progress). Neither the cup tie, the void fixture
    nor the expunged team's played one is in either figure."""
    standings = division_standings(division=season["division"])
    assert standings.counted == 2
    teams = {team.pk: name for name, team in season["teams"].items()}
    assert sorted((teams[home], teams[away]) for home, away in standings.remaining) == [
        ("Bravo", "Charlie"),
        ("Delta", "Alpha"),
    ]
    page = client.get(reverse("leagues:division", args=[season["division"].pk])).content.decode()
    assert "Provisional: 2 of 4 league fixtures counted so far." in page
    assert "2 fixtures left to count." in page


def test_lists_and_csvs_mark_what_does_not_count(client, season):
    division = season["division"]
    fixtures = {
        (row["Home"], row["Away"]): row
        for row in rows_of(client, "division_fixtures_csv", division.pk)
    }
    # Played to the end, and no captain has submitted it: it waits for a submission.
    assert fixtures["Delta", "Alpha"]["Status"] == "Played (not yet submitted)"
    assert fixtures["Delta", "Alpha"]["Result"].endswith(" not yet submitted")
    assert fixtures["Charlie", "Delta"]["Status"] == "Void"
    # Its night past, a game begun and none finished: in play, as its page says.
    assert (fixtures["Bravo", "Charlie"]["Result"], fixtures["Bravo", "Charlie"]["Status"]) == (
        "v",
        "In play",
    )
    # The cup tie is the cup's, not the division's list: its teams' own lists mark it.
    assert ("Bravo", "Delta") not in fixtures
    team_page = client.get(reverse("leagues:team", args=[season["teams"]["Delta"].pk]))
    assert season["cup"].get_absolute_url() in team_page.content.decode()
    assert "Cup: Played" in page_words(team_page)
    assert fixtures["Woolpack", "Delta"]["Status"] == "Played (expunged)"
    assert fixtures["Charlie", "Alpha"]["Status"] == "Walkover to Charlie"
    assert fixtures["Alpha", "Bravo"]["Status"] == "Played"
    unconfirmed = season["unconfirmed"]
    page = client.get(unconfirmed.get_absolute_url()).content.decode()
    assert "not yet submitted" in page and "awaiting confirmation" not in page

    # Once a side has submitted it, it waits for the other side's confirmation.
    link = unconfirmed.tables.get().scoring_link
    result_submit(fixture=unconfirmed, actor=Actor.of(None, link=link))
    fixtures = {
        (row["Home"], row["Away"]): row
        for row in rows_of(client, "division_fixtures_csv", division.pk)
    }
    assert fixtures["Delta", "Alpha"]["Status"] == "Played (awaiting confirmation)"
    assert fixtures["Delta", "Alpha"]["Result"].endswith(" awaiting confirmation")
    page = client.get(unconfirmed.get_absolute_url()).content.decode()
    assert "awaiting confirmation" in page and "not yet submitted" not in page

    season["league"].show_provisional = True
    season["league"].save()
    refresh_league_tables(league=season["league"])  # as league_update does
    fixtures = {
        (row["Home"], row["Away"]): row
        for row in rows_of(client, "division_fixtures_csv", division.pk)
    }
    assert fixtures["Delta", "Alpha"]["Status"] == "Played (provisional)"
    table = {row.team.name: row for row in division_standings(division=division).rows}
    assert (table["Delta"].played, table["Delta"].provisional) == (1, 1)

    page = client.get(reverse("leagues:league", args=[season["league"].slug])).content.decode()
    assert season["counted"].get_absolute_url() in page
    assert season["void"].get_absolute_url() not in page
    assert season["cup"].get_absolute_url() not in page


def test_reinstating_the_team_puts_its_results_and_fixtures_back(season):
    division = season["division"]
    woolpack = division.entries.get(team=season["teams"]["Woolpack"])
    team_reinstate(entry=woolpack)
    season["remaining"].refresh_from_db()
    assert season["remaining"].status == Fixture.Status.SCHEDULED
    table = {row.team.name: row for row in division_standings(division=division).rows}
    assert (table["Woolpack"].played, table["Woolpack"].points) == (1, 4 - 1)
    assert not table["Woolpack"].withdrawn


def test_a_pair_meets_in_the_league_only_as_often_as_the_format_allows(season):
    division = season["division"]
    teams = season["teams"]
    fixture_add(division=division, home=teams["Bravo"], away=teams["Alpha"], date=DAY)
    with pytest.raises(Exception, match="choose its kind"):
        fixture_add(
            division=division,
            home=teams["Alpha"],
            away=teams["Bravo"],
            date=DAY + datetime.timedelta(weeks=8),
        )
    playoff = fixture_add(
        division=division,
        home=teams["Alpha"],
        away=teams["Bravo"],
        date=DAY + datetime.timedelta(weeks=8),
        kind=Fixture.Kind.PLAYOFF,
    )
    assert playoff.kind == Fixture.Kind.PLAYOFF


def test_a_disputed_result_is_marked_disputed_wherever_its_standing_shows(client):
    """The lists (a division's fixtures, its CSV, a team's page) and the secretary's Tables
    page said a disputed result was "awaiting confirmation" (the stored result knew only that
    a side had submitted it): it reads "disputed" there, as the league home, the fixture's page
    and its result page say it ("Result disputed"), from its stored standing
    (``FixtureResult.disputed``); settled, the mark goes."""
    from django.test import Client

    from leagues.models import FixtureResult
    from leagues.services.confirmation import result_dispute, result_settle
    from tests.leagues.test_access import build

    world = build(played=True)
    fixture, users = world.fixture, world.users
    submission = result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    # The fixture's page says where it stands as the others do (it read "Played, waiting to be
    # confirmed", "Played, disputed": words of its own).
    page = page_words(client.get(fixture.get_absolute_url()))
    assert "· Result submitted, awaiting confirmation" in page and "Played, wait" not in page
    result_dispute(submission=submission, reason="Table 1 was 11-9", by=users["away_captain"])
    assert FixtureResult.objects.get(fixture=fixture).disputed
    division = fixture.division
    (row,) = rows_of(client, "division_fixtures_csv", division.pk)
    assert (row["Status"], row["Result"][-9:]) == ("Played (disputed)", " disputed")
    for url in (
        reverse("leagues:division_fixtures", args=[division.pk]),
        fixture.home.get_absolute_url(),
    ):
        words = page_words(client.get(url))
        assert "disputed" in words and "awaiting confirmation" not in words, url
    assert "· Result disputed" in page_words(client.get(fixture.get_absolute_url()))
    secretary = Client()
    secretary.force_login(users["secretary"])
    tables = page_words(secretary.get(reverse("leagues:manage_fixture_tables", args=[fixture.pk])))
    assert "The result from the tables&#x27; phones is disputed." in tables
    # Where the league counts results before they are agreed, a disputed one counts too: it
    # read "provisional" alone, the dispute not said.
    world.league.show_provisional = True
    world.league.save(update_fields=["show_provisional"])
    (row,) = rows_of(client, "division_fixtures_csv", division.pk)
    assert row["Status"] == "Played (provisional, disputed)"

    result_settle(submission=submission, uphold=True, note="Sheets checked", by=users["secretary"])
    assert not FixtureResult.objects.get(fixture=fixture).disputed
    (row,) = rows_of(client, "division_fixtures_csv", division.pk)
    assert row["Status"] == "Played"
