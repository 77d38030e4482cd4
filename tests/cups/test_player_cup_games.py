"""A player's cup games: the race ties of a pairs cup whose results count (as the league's do),
read with their games and figures by pair (``cups.selectors.player_race_record``), and the
player's page listing them, and the cup's fixtures, under the Cup and League and cup tabs."""

from __future__ import annotations

import re
from html import unescape

import pytest

from cups.models import Competition, Tie
from cups.selectors import player_race_figures, player_race_record
from cups.services.confirmation import tie_result_confirm
from cups.services.draws import draw_make
from cups.services.ties import tie_settle, tie_walkover
from leagues.fragments import invalidate_league
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.cups.helpers import cup_world, pairs_cup, play_race, team_cup
from tests.leagues.helpers import squad

pytestmark = pytest.mark.django_db

CACHE_WRITE = 6
"""Storing the page's fragment in the database cache (``tests/leagues/test_pages_queries``)."""


def ties(cup: Competition, number: int) -> list[Tie]:
    return list(cup.ties.filter(round__number=number).order_by("position"))


def pairs_final(*, agree: bool) -> tuple[object, Tie]:
    """A pairs cup of two pairs, best of 3: its final played 2–1 (A, B, A), agreed or not."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    return world, play_race(ties(cup, 1)[0], "ABA", agree=agree)


def scores(tie: Tie) -> list[str]:
    return [
        "–".join(str(s.score) for s in tg.game.sides.order_by("position"))
        for tg in tie.games.order_by("number")
    ]


def words(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", unescape(response.content.decode())))


def games_section(response) -> str:
    body = words(response)
    return body[body.index(" Games ") :]


# --- the selector ------------------------------------------------------------------------------


def test_a_race_tie_counts_once_its_result_counts_as_a_league_fixtures_does():
    """Played to the end but waiting for both sides' agreement, a tie counts nowhere (the
    figures counted its games before); in a league showing provisional results it counts,
    marked provisional; agreed, it counts."""
    world, tie = pairs_final(agree=False)
    home = tie.home.player_1
    assert (tie.home_score, tie.away_score, tie.winner) == (2, 1, "")
    record = player_race_record(player=home)
    assert record.ties == [] and record.pairs == {}
    assert player_race_figures(player=home).games_played == 0
    world.league.show_provisional = True
    world.league.save(update_fields=["show_provisional"])
    [played] = player_race_record(player=home).ties
    assert played.provisional and played.tie == tie
    world.league.show_provisional = False
    world.league.save(update_fields=["show_provisional"])
    tie_result_confirm(result=tie.results.get(), by=world.users["secretary"])
    [played] = player_race_record(player=home).ties
    assert not played.provisional


def test_a_players_race_ties_with_their_games_and_figures_by_pair_in_five_queries(
    django_assert_num_queries,
):
    world, tie = pairs_final(agree=True)
    home, partner = tie.home.player_1, tie.home.player_2
    with django_assert_num_queries(5):
        record = player_race_record(player=home)
        [played] = record.ties
        assert [tg.number for tg in played.games] == [1, 2, 3]
        assert all(len(tg.game.sides.all()) == 2 for tg in played.games)
        assert played.tie.round.name == "Final" and played.tie.competition.name
    assert (played.side, played.players, played.partners) == ("A", (home, partner), (partner,))
    assert played.opponents == tie.away.name
    assert played.date == world.league.today()
    pair = tuple(sorted((home.pk, partner.pk)))
    assert list(record.pairs) == [pair]
    assert (record.pairs[pair].games_played, record.pairs[pair].games_won) == (3, 2)
    figures = player_race_figures(player=home)
    assert (figures.games_played, figures.games_won) == (3, 2)
    assert figures.highs + figures.lows + figures.game_points > 0
    # The other pair: side B, one game won.
    away = player_race_record(player=tie.away.player_2)
    [theirs] = away.ties
    assert (theirs.side, theirs.opponents) == ("B", tie.home.name)
    assert [(f.games_played, f.games_won) for f in away.pairs.values()] == [(3, 1)]


def test_a_tie_in_play_counts_nothing_a_settled_one_is_listed_a_walkover_is_not(
    django_assert_num_queries,
):
    world = cup_world(4)
    sec = world.users["secretary"]
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=sec)
    first, second = ties(cup, 1)
    # A game won, the next in play: not finished, so nothing of it counts yet.
    in_play = play_race(first, "A")
    assert player_race_figures(player=in_play.home.player_1).games_played == 0
    with django_assert_num_queries(1):
        assert player_race_record(player=in_play.home.player_1).ties == []
    # Settled by the secretary (the rest played away from the app): it counts, with the game
    # won here; settled before a game was won, it has none to list.
    tie_settle(tie=first, home=2, away=1, note="Played at the club", by=sec)
    [settled] = player_race_record(player=first.home.player_1).ties
    assert [tg.number for tg in settled.games] == [1]
    assert player_race_figures(player=first.home.player_1).games_played == 1
    tie_settle(tie=second, home=0, away=2, note="Played at the club", by=sec)
    [settled] = player_race_record(player=second.away.player_1).ties
    assert settled.games == [] and settled.tie.decided_by == "settled by the secretary"
    # A walkover is no game of either pair's.
    plate = pairs_cup(world, best_of=3, name="Plate")
    draw_make(competition=plate, seed=1, by=sec)
    given = ties(plate, 1)[0]
    tie_walkover(tie=given, to="home", reason="The away pair withdrew", by=sec)
    assert [p.tie for p in player_race_record(player=given.home.player_1).ties] != [given]
    assert given not in [p.tie for p in player_race_record(player=given.away.player_1).ties]


# --- the player's page -------------------------------------------------------------------------


def test_the_cup_tab_lists_a_pairs_tie_with_its_games_and_partner(
    client, django_assert_num_queries
):
    """The Cup tab's Partners and Games follow its figures: the pair's tie linked, with its
    round, opponents, date and each game's score and result; the league tab has none of it."""
    world, tie = pairs_final(agree=True)
    home, partner = tie.home.player_1, tie.home.player_2
    url = home.get_absolute_url()
    client.get(url)  # the cache's versions exist from here on
    invalidate_league(world.league.pk)
    # As the league's tab reads (``tests/leagues/test_pages_queries``: 5, the player without
    # tables), with the race ties' five (ties, games, scores, awards, all-fours hands) instead
    # of none.
    with django_assert_num_queries(10 + CACHE_WRITE):
        cup = client.get(f"{url}?figures=cup")
    with django_assert_num_queries(3):
        cached = client.get(f"{url}?figures=cup")
    assert cached.context["fragment"] == cup.context["fragment"]
    assert cup.status_code == 200
    page = cup.content.decode()
    assert f'href="{tie.get_absolute_url()}"' in page
    games = games_section(cup)
    heading = f"Pairs Knock-out, Final: {tie.home.name} v {tie.away.name}"
    when = f"{world.league.today():%-d %b %Y}"
    assert f"{heading} {when}, against {tie.away.name}, with {partner.name}" in games
    first, second, third = scores(tie)
    assert f"Game 1 : {first} won Game 2 : {second} lost Game 3 : {third} won" in games
    assert "<dt>Games played</dt><dd>3</dd>" in page
    partners = words(cup).split(" Partners ")[1].split(" Games ")[0]
    assert f"{home.name} & {partner.name} 3 2" in partners or (
        f"{partner.name} & {home.name} 3 2" in partners
    )
    league = client.get(url)
    assert tie.get_absolute_url() not in league.content.decode()
    assert "Partners" not in words(league) and "No league results yet." in words(league)
    both = client.get(f"{url}?figures=all")
    assert heading in games_section(both) and "<dt>Games played</dt><dd>3</dd>" in (
        both.content.decode()
    )


def test_a_player_without_cup_games_says_so_in_six_queries(client, django_assert_num_queries):
    world, tie = pairs_final(agree=False)  # waiting for agreement: not counted
    url = tie.home.player_1.get_absolute_url()
    client.get(url)  # the cache's versions exist from here on
    invalidate_league(world.league.pk)
    # The league tab's five, and the race ties' read (none: nothing else of theirs is read).
    with django_assert_num_queries(6 + CACHE_WRITE):
        page = client.get(f"{url}?figures=cup")
    assert "No cup results yet." in words(page)
    assert "<dt>Games played</dt><dd>0</dd>" in page.content.decode()
    assert "Partners" not in words(page)


def test_a_cup_fixture_from_the_score_card_is_listed_under_the_cup_tab_in_cup_words(client):
    """A team cup's tie played as a fixture and entered from the card: listed under the cup
    (and league and cup) tab, not the league's; its note says its result counts in the cup,
    not in the league table."""
    world = cup_world(2)
    sec = world.users["secretary"]
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=sec)
    fixture = ties(cup, 1)[0].fixture
    home = squad(fixture.home, world.season)[:2]
    away = squad(fixture.away, world.season)[:2]
    card = [CardTable(board=1, home=home, away=away, games=((11, 7),))]
    submission = fixture_card_enter(fixture=fixture, tables=card, by=sec)
    confirmation.result_confirm(submission=submission, by=world.users["superuser"])
    url = home[0].get_absolute_url()
    listed = f"{fixture.home.name} v {fixture.away.name}"
    page = client.get(f"{url}?figures=cup")
    note = words(page).split("entered from the score card")[1].split(" Games ")[0]
    assert "Their results count in the cup as any other." in note
    assert "league table" not in note
    assert listed in games_section(page) and f"with {home[1].name}" in games_section(page)
    both = words(client.get(f"{url}?figures=all"))
    assert "Their results count in the league table or the cup as any other." in both
    league = client.get(url)
    assert "No league results yet." in words(league)
    assert 'data-testid="card-tables-note"' not in league.content.decode()
