"""A cup tie's status reads the same on every page that shows it: its page, its card on the
bracket, its fixture's page and result page, the division's list and the captains' My
fixtures; and a cup tie's pages speak of the tie, not of the league table."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.draws import draw_make
from leagues.formats import STYLE_PRESETS
from leagues.models import Fixture
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.cups.helpers import cup_world, pairs_cup, play_race, team_cup
from tests.leagues.helpers import page_words, start_fixture, win_game

pytestmark = pytest.mark.django_db


def drawn_team_tie(world):
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get(round__number=1)
    return cup, tie, tie.fixture


def captain_of(world, fixture, side: str):
    """The account of the captain of the fixture's ``side`` team (``cup_world``'s)."""
    captains = {
        world.teams[0].pk: world.users["home_captain"],
        world.teams[1].pk: world.users["away_captain"],
    }
    return captains[fixture.home_id if side == "home" else fixture.away_id]


def status_on_pages(world, cup, tie, fixture, viewer=None) -> dict[str, str]:
    """What each page says of the tie's status."""
    client = Client()
    if viewer is not None:
        client.force_login(viewer)
    pages = {
        "tie": page_words(client.get(tie.get_absolute_url())),
        "bracket": page_words(client.get(cup.get_absolute_url())),
        "fixture": page_words(client.get(fixture.get_absolute_url())),
        "result": page_words(client.get(reverse("leagues:fixture_result", args=[fixture.pk]))),
        # A team's page lists its cup ties (a division's list, its league fixtures).
        "list": page_words(client.get(reverse("leagues:team", args=[fixture.home_id]))),
    }
    if viewer is not None:
        pages["mine"] = page_words(client.get(reverse("leagues:my_fixtures")))
    return pages


def test_a_team_tie_whose_night_passed_unplayed_reads_as_its_fixture_does_everywhere():
    """Swan v Wellington, its night past and no game scored: the fixture's pages said "Played,
    no result yet", the tie's page and card "To play", the fixture lists "Cup: Scheduled";
    the result page said "No games have been played" under "Played, no result yet"."""
    world = cup_world(2)
    cup, tie, fixture = drawn_team_tie(world)
    Fixture.objects.filter(pk=fixture.pk).update(
        date=world.league.today() - datetime.timedelta(days=7)
    )
    fixture.refresh_from_db()
    pages = status_on_pages(world, cup, tie, fixture, viewer=world.users["home_captain"])
    for name, words in pages.items():
        assert "Result not in yet" in words, name
        assert "To play" not in words and "Cup: Scheduled" not in words, name
    # A captain's own list names the cup, not "cup fixture".
    assert cup.name in pages["mine"] and "cup fixture" not in pages["mine"]
    assert "No games have been played" not in pages["result"]
    assert "its result comes from the score card" in pages["result"]


def test_a_team_tie_to_play_reads_the_same_on_its_pages():
    world = cup_world(2)
    cup, tie, fixture = drawn_team_tie(world)
    Fixture.objects.filter(pk=fixture.pk).update(
        date=world.league.today() + datetime.timedelta(days=7)
    )
    fixture.refresh_from_db()
    pages = status_on_pages(world, cup, tie, fixture)
    for name in ("tie", "bracket", "fixture"):
        assert "not in yet" not in pages[name] and "In play" not in pages[name], name
    words = {
        name: re.search(r"Scheduled|To play", pages[name]).group(0)
        for name in ("tie", "bracket", "fixture", "list")
    }
    assert len(set(words.values())) == 1, words
    # A list names the tie by its cup, not "Cup" (a league may run two).
    assert f"{cup.name}: Scheduled" in pages["list"]


def test_a_tie_still_to_play_reads_as_a_league_fixture_to_play_on_every_cup_page():
    """A team tie to play read "Scheduled" (its fixture's word) and a pairs tie "To play": one
    word for a tie not yet played, the league's for its fixtures still to play."""
    world = cup_world(2)
    cup, tie, fixture = drawn_team_tie(world)
    Fixture.objects.filter(pk=fixture.pk).update(
        date=world.league.today() + datetime.timedelta(days=7)
    )
    pairs = pairs_cup(world, best_of=3)
    draw_make(competition=pairs, seed=1, by=world.users["secretary"])
    pairs_tie = pairs.ties.filter(round__number=1).first()
    unplayed = Fixture.Status.SCHEDULED.label
    client = Client()
    for competition, one in ((cup, tie), (pairs, pairs_tie)):
        for url in (one.get_absolute_url(), competition.get_absolute_url()):
            page = page_words(client.get(url))
            assert unplayed in page, url
            assert "To play" not in page, url
    assert Tie.Status.SCHEDULED.label == unplayed


def test_a_disputed_team_tie_reads_played_and_disputed_on_every_page():
    """A captain enters the card, the other disputes it: the tie's page said "10–0 in match
    points · In play", the fixture's "Played" and "Provisional: not yet confirmed"."""
    world = cup_world(2)
    cup, tie, fixture = drawn_team_tie(world)
    Fixture.objects.filter(pk=fixture.pk).update(time=datetime.time(0, 0))
    fixture.refresh_from_db()
    away, home = captain_of(world, fixture, "away"), captain_of(world, fixture, "home")
    submission = fixture_card_enter(
        fixture=fixture, tables=[CardTable(board=1, games=((6, 11),))], by=away
    )
    fixture.refresh_from_db()
    pages = status_on_pages(world, cup, tie, fixture, viewer=home)
    for name, words in pages.items():
        assert "Result submitted, awaiting confirmation" in words or name in ("list", "mine"), name
        assert "In play" not in words, name
    assert "Provisional" not in pages["fixture"]
    confirmation.result_dispute(submission=submission, reason="Table 1 was 11-6", by=home)
    pages = status_on_pages(world, cup, tie, fixture, viewer=home)
    for name in ("tie", "bracket", "fixture", "result"):
        assert "Result disputed" in pages[name], name
        assert (
            "In play" not in pages[name]
            and "Result submitted, awaiting confirmation" not in pages[name]
        ), name
    assert "Disputed: a secretary settles it" in pages["fixture"]
    assert "Provisional" not in pages["fixture"]
    # Cup words, not the league's.
    assert "league points" not in pages["result"]
    assert "does not count in the table" not in pages["result"]
    assert "Until it is confirmed, the tie is not decided." in pages["result"]


def test_a_reopened_team_tie_reads_result_not_yet_submitted_on_every_page_not_played():
    """A secretary reopens a cup tie's counted result: the tie is undecided again, and every
    page says its result is not yet submitted. Its page and its card on the bracket read
    "Played" (its fixture's status), as a decided tie reads."""
    world = cup_world(2)
    cup, tie, fixture = drawn_team_tie(world)
    Fixture.objects.filter(pk=fixture.pk).update(time=datetime.time(0, 0))
    fixture.refresh_from_db()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=fixture, tables=[CardTable(board=1, games=((11, 6),))], signed=True, by=secretary
    )
    tie.refresh_from_db()
    assert tie.status == Tie.Status.PLAYED
    assert 'data-testid="tie-status">Played<' in page_words(Client().get(tie.get_absolute_url()))
    confirmation.result_reopen(fixture=fixture, reason="Table 1 was 11-9", by=secretary)
    tie.refresh_from_db()
    assert tie.status == Tie.Status.SCHEDULED and tie.winner == ""
    pages = status_on_pages(world, cup, tie, fixture, viewer=captain_of(world, fixture, "home"))
    assert 'data-testid="tie-status">Result not yet submitted<' in pages["tie"]
    for name in ("tie", "bracket", "fixture", "result"):
        assert "Result not yet submitted" in pages[name], name
    # My fixtures offers the captain its card to correct and enter again (its figures came
    # from the card: not a Submit of them as they stand).
    assert f'data-testid="my-card-again-{fixture.pk}"' in pages["mine"]
    assert f'data-testid="my-submit-{fixture.pk}"' not in pages["mine"]
    # Submitted again, it reads as any result waiting for the other side.
    fixture_card_enter(fixture=fixture, tables=[CardTable(board=1, games=((11, 9),))], by=secretary)
    pages = status_on_pages(world, cup, tie, fixture)
    for name in ("tie", "bracket", "fixture", "result"):
        assert "Result submitted, awaiting confirmation" in pages[name], name
        assert "not yet submitted" not in pages[name], name


def test_a_team_tie_played_at_the_tables_and_not_submitted_reads_so_on_every_page():
    """Every table finished on the phones and nobody has submitted the result: the tie is not
    decided until its result counts, so it does not read "Played"."""
    world = cup_world(2, players=4)
    world.league.match_format = (
        STYLE_PRESETS["yorkshire"].match_format.with_options(tables=2).to_spec()
    )
    world.league.save(update_fields=["match_format"])
    cup, tie, fixture = drawn_team_tie(world)
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 3)
    fixture.refresh_from_db()
    tie.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and tie.status == Tie.Status.SCHEDULED
    pages = status_on_pages(world, cup, tie, fixture)
    assert 'data-testid="tie-status">Result not yet submitted<' in pages["tie"]
    for name in ("bracket", "fixture", "result"):
        assert "Result not yet submitted" in pages[name], name


def test_a_league_fixture_played_and_not_submitted_still_reads_played():
    """A league fixture's figures count as they stand (provisionally) once played: it reads
    "Played" as before; only a cup tie waits for its result to count."""
    from leagues.selectors.live import status_words
    from tests.factories.leagues import FixtureFactory

    world = cup_world(2)
    cup, tie, fixture = drawn_team_tie(world)
    league_fixture = FixtureFactory(
        division=fixture.division, home=fixture.home, away=fixture.away, time=datetime.time(0, 0)
    )
    fixture_card_enter(
        fixture=league_fixture,
        tables=[CardTable(board=1, games=((11, 6),))],
        signed=True,
        by=world.users["secretary"],
    )
    confirmation.result_reopen(fixture=league_fixture, reason="wrong", by=world.users["secretary"])
    league_fixture.refresh_from_db()
    assert status_words(league_fixture, world.league.today()) == "Played"


def test_a_cup_fixture_in_play_speaks_of_the_tie_not_of_league_points():
    world = cup_world(2, players=4)
    world.league.match_format = (
        STYLE_PRESETS["yorkshire"].match_format.with_options(tables=2).to_spec()
    )
    world.league.save(update_fields=["match_format"])
    cup, tie, fixture = drawn_team_tie(world)
    table_games = start_fixture(fixture)
    win_game(table_games[0].game, "A", 3)
    page = page_words(Client().get(fixture.get_absolute_url()))
    assert "In play: the figures so far" in page
    assert "league points" not in page.lower()
    assert "the tie is decided once every table has finished" in page


def test_a_race_tie_waiting_for_agreement_reads_the_same_on_its_page_card_and_my_fixtures():
    """The tie's page said "played, waiting for both sides' agreement", its card "Played, to
    agree" and My fixtures "Played"."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get(round__number=1)
    play_race(tie, "AA", agree=False)
    tie = Tie.objects.get(pk=tie.pk)
    page = page_words(Client().get(tie.get_absolute_url()))
    assert 'data-testid="tie-status">Result submitted, awaiting confirmation<' in page
    assert "Result submitted, awaiting confirmation" in page_words(
        Client().get(cup.get_absolute_url())
    )


# --- a pairs tie's games before play ---------------------------------------------------------


def test_a_walkover_leaves_no_game_of_the_tie_in_progress_and_a_reversal_readies_it_again():
    """A walkover given to a pairs tie left its game 1 (readied for the scorer at the draw) "in
    progress" for ever: on the tie's page ("Game 1 0–0 in progress") and the games page."""
    from cups.services.ties import tie_reverse, tie_walkover
    from scoring.models import Game, GameStatus

    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    tie = cup.ties.filter(round__number=1).first()
    link = tie.scoring_link
    assert tie.games.count() == 1  # readied for its scorer
    tie = tie_walkover(tie=tie, to="home", reason="No show", by=world.users["secretary"])
    assert not tie.games.exists() and tie.scoring_link is None
    link.refresh_from_db()
    assert not link.is_live
    title = f"{cup.name}: {tie.home.name} v {tie.away.name}"
    assert not Game.objects.filter(title__startswith=title, status=GameStatus.IN_PROGRESS).exists()
    page = page_words(Client().get(tie.get_absolute_url()))
    assert "in progress" not in page and "Game 1" not in page
    assert "Walkover to" in page
    # Reversed, it is to play again: a new game 1 through a new link.
    tie = tie_reverse(tie=tie, reason="Given in error", by=world.users["secretary"])
    assert tie.status == Tie.Status.SCHEDULED and tie.games.count() == 1
    assert tie.scoring_link is not None and tie.scoring_link.is_live


def test_a_game_with_no_hand_reads_not_started_on_the_tie_and_the_games_page():
    """A pairs tie to play has its game 1 ready for the scorer: "not started" until a hand is
    recorded, not "in progress" (the start page's "Games in play" leads to the games page)."""
    from tests.leagues.helpers import hand, record

    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get(round__number=1)
    game = tie.games.get().game
    client = Client()
    page = page_words(client.get(tie.get_absolute_url()))
    assert '0–0</strong> <span class="muted">not started</span>' in page
    assert "in progress" not in page
    games = page_words(client.get(reverse("scoring:game_list")))
    row = games[games.index(f'href="{game.get_absolute_url()}"') :]
    row = row[: row.index("</tr>")]
    assert "Not started" in row and "In progress" not in row
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    page = page_words(client.get(tie.get_absolute_url()))
    assert "in progress" in page and "not started" not in page
    games = page_words(client.get(reverse("scoring:game_list")))
    row = games[games.index(f'href="{game.get_absolute_url()}"') :]
    assert "In progress" in row[: row.index("</tr>")]
