"""A table whose game was abandoned, started again by a secretary from the fixture's Tables
page: a new game on the table's own link, written to the fixture's audit trail."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import AuditEntry, TableGame
from leagues.services.results import fixture_tables_set, table_restart
from scoring.models import GameStatus
from scoring.services.games import game_abandon
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import (
    captained_teams,
    hand,
    page_words,
    record,
    squad,
    start_fixture,
    win_game,
)

pytestmark = pytest.mark.django_db

#: The night page of a four-table match, every table seated and begun, to its home captain:
#: its tables, their latest games and their hands read once for them all, not once a table
#: (it was 20, a query a table for its hands).
NIGHT_PAGE_QUERIES = 17
#: The score card of that match to its home captain: which tables have a hand in, read once
#: for them all (it was 23, a query for each table won on the phones).
SCORE_CARD_QUERIES = 21
#: The secretary's Tables page of a match begun, a table's game abandoned, however many tables:
#: the session and account, the fixture (with whether it has tables and adjustments: it has no
#: adjustment, not looked for), its tables, their games and the games' sides, the secretary
#: check, the abandoned tables, both squads, the namesakes, the tables' links for the cards and
#: their players' namesakes.
TABLES_PAGE_QUERIES = 13


def _abandoned_at_table_4(low: str = "B"):
    """A Yorkshire match whose tables 1–3 are won and table 4's game abandoned at 2–2 (3–1 to
    the home pair with ``low`` "A")."""
    league = LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    fixture = FixtureFactory(division=division, home=home, away=away)
    started = start_fixture(fixture)
    for table_game in started[:3]:
        win_game(table_game.game, "A", 5)
    game = started[3].game
    record(game, [hand(game, "A", {"high": "A", "low": low, "jack": "A", "game": "B"})])
    game_abandon(game=game, reason="The pub's power went off.")
    return fixture, started[3].table, users


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_secretary_starts_an_abandoned_table_again_from_the_tables_page() -> None:
    """The Tables page offered no restart for a table whose game was abandoned, though the
    service for it exists: the match stayed stuck. Now it asks whether to start the table again,
    and doing so begins its next game on the table's own link, written to the audit trail."""
    fixture, table, users = _abandoned_at_table_4()
    secretary = _client(users["secretary"])
    tables_url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])
    restart_url = reverse("leagues:manage_table_restart", args=[fixture.pk, 4])

    page = page_words(secretary.get(tables_url))
    assert 'data-testid="restart-4"' in page
    assert "Table 4: game abandoned at 2–2" in page and "Start table 4 again?" in page
    assert f'action="{restart_url}"' in page and "Start table 4 again</button>" in page
    assert 'data-testid="restart-1"' not in page  # a table won stands

    # Following the address is no restart: the page it is on.
    assert secretary.get(restart_url)["Location"] == tables_url
    assert TableGame.objects.filter(table=table).count() == 1

    response = secretary.post(restart_url, follow=True)
    assert "Table 4 started again: game 2 begins at 0–0" in page_words(response)
    again = TableGame.objects.get(table=table, number=2)
    assert again.game.status == GameStatus.IN_PROGRESS
    assert again.game.scoring_link_id == table.scoring_link_id
    entry = AuditEntry.objects.get(fixture=fixture, action=AuditEntry.Action.TABLE_RESTARTED)
    assert entry.subject == "Table 4 started again: game 2 (game 1 abandoned at 2–2)"
    assert entry.by == users["secretary"]
    assert 'data-testid="restart-4"' not in page_words(secretary.get(tables_url))
    result = page_words(secretary.get(reverse("leagues:fixture_result", args=[fixture.pk])))
    assert "Table 4: still being played" in result
    audit = page_words(secretary.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])))
    assert 'data-testid="audit-table_restarted"' in audit

    # Posted twice (a second tab): the game begun stands, nothing more is started.
    response = secretary.post(restart_url, follow=True)
    assert "Table 4 has no abandoned game to start again." in page_words(response)
    assert TableGame.objects.filter(table=table).count() == 2


@pytest.mark.parametrize("tables", [2, 4])
def test_the_tables_page_reads_a_match_of_any_number_of_tables_in_the_same_queries(
    tables, django_assert_num_queries
) -> None:
    league = LeagueFactory(
        style="yorkshire", match_format=YORKSHIRE_FORMAT.with_options(tables=tables).to_spec()
    )
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    fixture = FixtureFactory(division=division, home=home, away=away)
    game_abandon(game=start_fixture(fixture)[-1].game, reason="Closing time.")
    secretary = _client(users["secretary"])
    url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])
    with django_assert_num_queries(TABLES_PAGE_QUERIES):
        page = page_words(secretary.get(url))
    assert f'data-testid="seated-table-{tables}"' in page
    assert f'data-testid="restart-{tables}"' in page and 'data-testid="restart-1"' not in page


def test_a_captain_cannot_start_a_table_again_and_nothing_changes() -> None:
    fixture, table, users = _abandoned_at_table_4()
    captain = _client(users["home"])
    assert 'data-testid="restart-4"' not in page_words(
        captain.get(reverse("leagues:fixture_night", args=[fixture.pk]))
    )
    response = captain.post(reverse("leagues:manage_table_restart", args=[fixture.pk, 4]))
    assert response.status_code == 403
    assert TableGame.objects.filter(table=table).count() == 1
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_RESTARTED).exists()


def test_a_table_still_playing_or_won_is_not_started_again() -> None:
    fixture, table, users = _abandoned_at_table_4()
    secretary = _client(users["secretary"])
    response = secretary.post(
        reverse("leagues:manage_table_restart", args=[fixture.pk, 1]), follow=True
    )
    assert "Table 1 has no abandoned game to start again." in page_words(response)
    assert TableGame.objects.filter(table__fixture=fixture).count() == 4
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_RESTARTED).exists()


def test_a_restart_by_the_service_is_audited_with_the_score_it_stopped_at() -> None:
    """``table_restart`` wrote no league audit entry: a restart left no trace of who did it
    or what the abandoned game stood at."""
    fixture, table, users = _abandoned_at_table_4()
    started = table_restart(table=table, by=users["secretary"])
    assert started.number == 2
    entry = AuditEntry.objects.get(fixture=fixture, action=AuditEntry.Action.TABLE_RESTARTED)
    assert entry.subject == "Table 4 started again: game 2 (game 1 abandoned at 2–2)"
    assert entry.before == {"table": 4, "in_play": "game 1 abandoned at 2–2"}
    assert entry.after == {"table": 4, "in_play": "game 2"}
    assert entry.by == users["secretary"]


def test_the_restart_audit_and_the_pages_give_the_same_stopped_score_home_first() -> None:
    """The restart's audit entry worded the abandoned game's score from its sides, the pages
    from the table as ``with_abandoned_game`` reads it: one wording now (``stopped_at``), home
    first, so a game stopped with the home pair ahead reads the same in both."""
    fixture, table, users = _abandoned_at_table_4(low="A")
    secretary = _client(users["secretary"])
    tables_url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])
    assert "Table 4: game abandoned at 3–1" in page_words(secretary.get(tables_url))
    table_restart(table=table, by=users["secretary"])
    entry = AuditEntry.objects.get(fixture=fixture, action=AuditEntry.Action.TABLE_RESTARTED)
    assert entry.subject == "Table 4 started again: game 2 (game 1 abandoned at 3–1)"


def test_the_service_starts_again_only_a_table_whose_game_was_abandoned() -> None:
    """Only the Tables page asked whether a table's game was abandoned: ``table_restart``
    itself began a game at any table with none in play, a table seated and waiting for its
    scorer too (its first game, audited as a restart). The service refuses, nothing
    changed."""
    league = LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    fixture = FixtureFactory(division=division, home=home, away=away)
    season = division.season
    pairs = [(squad(home, season)[i : i + 2], squad(away, season)[i : i + 2]) for i in (0, 2, 4, 6)]
    (table, *_) = fixture_tables_set(fixture=fixture, pairs=pairs, by=users["secretary"])
    with pytest.raises(ValidationError, match="Table 1 has no abandoned game to start again"):
        table_restart(table=table, by=users["secretary"])
    assert not TableGame.objects.filter(table__fixture=fixture).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_RESTARTED).exists()


def test_the_scorers_phone_says_what_follows_a_league_tables_abandoned_game():
    """The phone said only "Game abandoned at 2–2." at a league table: its scorer and captains
    did not learn that the secretary starts it again or the card gives it."""
    from tests.factories.scoring import GameFactory

    _, table, _ = _abandoned_at_table_4()
    game = table.games.get(number=1).game
    client = Client()
    client.get(game.scoring_link.get_absolute_url())
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'data-testid="abandoned-banner"' in page
    assert "the league secretary can start the table again" in page
    assert "Score on another phone" not in page  # no more hands, on any phone
    alone = GameFactory()
    game_abandon(game=alone, reason="Closing time.")
    page = Client().get(alone.get_absolute_url()).content.decode()
    assert 'data-testid="abandoned-banner"' in page
    assert 'data-testid="abandoned-table-next"' not in page


def test_the_night_page_says_a_won_table_is_finished_not_playing(
    django_assert_max_num_queries,
) -> None:
    """The night page said "Playing" of every table with a hand in, a table won on the phone
    too: its captains could not tell the finished tables from those still at play. It reads
    which tables have hands in one query for them all (it asked once a table)."""
    fixture, table, users = _abandoned_at_table_4()
    captain = _client(users["home"])
    url = reverse("leagues:fixture_night", args=[fixture.pk])
    with django_assert_max_num_queries(NIGHT_PAGE_QUERIES):
        night = page_words(captain.get(url))
    assert 'data-testid="night-started-1"' not in night
    assert 'data-testid="night-finished-1"' in night
    assert f"Table 1: finished, won by {fixture.home.name} · 11–5." in night
    assert 'data-testid="night-abandoned-4"' in night
    table_restart(table=table, by=users["secretary"])
    night = page_words(captain.get(url))
    assert 'data-testid="night-started-4"' in night  # playing again, its pairs set
    assert 'data-testid="night-finished-4"' not in night
    assert 'data-testid="night-abandoned-4"' not in night


def test_the_secretarys_desk_lists_a_match_held_up_by_an_abandoned_table() -> None:
    """The desk listed nothing for a match held up by a table whose game was abandoned (nor
    said why among the results missing): the secretary had no way to learn of it. Now it is
    listed once, with the score the game stopped at and both ways on."""
    fixture, table, users = _abandoned_at_table_4()
    secretary = _client(users["secretary"])
    desk_url = reverse("leagues:manage_league", args=[fixture.division.season.league.slug])
    desk = page_words(secretary.get(desk_url))
    assert f'data-testid="held-up-{fixture.pk}">table 4\'s game abandoned at 2–2:</strong>' in desk
    tables_url = reverse("leagues:manage_fixture_tables", args=[fixture.pk])
    assert f'<a href="{tables_url}" data-testid="restart-link-{fixture.pk}">start it again</a>' in (
        desk
    )
    card_url = reverse("leagues:score_card", args=[fixture.pk])
    assert f'href="{card_url}?from=desk" data-testid="held-up-card-{fixture.pk}"' in desk
    assert f'data-testid="missing-{fixture.pk}"' not in desk  # listed once, not twice

    table_restart(table=table, by=users["secretary"])
    desk = page_words(secretary.get(desk_url))
    assert f'data-testid="held-up-{fixture.pk}"' not in desk
    assert f'data-testid="missing-{fixture.pk}"' in desk  # its night passed, not finished


def test_results_to_see_to_reads_the_abandoned_tables_in_one_query(
    django_assert_num_queries,
) -> None:
    """Every table of every held-up match in one query, beside the finished matches' one."""
    from leagues.selectors.fixtures import results_to_see_to

    fixture, table, users = _abandoned_at_table_4()
    other = FixtureFactory(division=fixture.division, home=fixture.away, away=fixture.home)
    for table_game in start_fixture(other)[:2]:
        game_abandon(game=table_game.game, reason="Closing time.")
    # and one for the cup ties level, their play-off game to come
    with django_assert_num_queries(3):
        listed = results_to_see_to(league=fixture.division.season.league)
    assert [f.pk for f in listed] == [fixture.pk, other.pk]
    assert [(t.board, t.abandoned_at) for t in listed[0].abandoned_tables] == [(4, "2–2")]
    assert [(t.board, t.abandoned_at) for t in listed[1].abandoned_tables] == [
        (1, "0–0"),
        (2, "0–0"),
    ]
    assert listed[0].open_status is None


def test_the_score_card_reads_its_tables_hands_once(django_assert_max_num_queries) -> None:
    """The score card asked once a table whether a hand was in; it asks once for them all."""
    fixture, table, users = _abandoned_at_table_4()
    captain = _client(users["home"])
    with django_assert_max_num_queries(SCORE_CARD_QUERIES):
        card = captain.get(reverse("leagues:score_card", args=[fixture.pk])).content.decode()
    assert 'data-testid="card-table-4"' in card and 'data-testid="card-table-1"' not in card
