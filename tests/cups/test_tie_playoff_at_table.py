"""A level cup tie whose play-off game is being played at the table, scored on a phone: its
result page, its fixture's page, its score card, the desk and the cup's manage page say so
(``Tie.playoff_words``), and none offers the card's play-off boxes, which would be refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from leagues.services.cards import fixture_card_enter
from scoring.services import game_abandon
from tests.cups.test_tie_playoff_card import LEVEL, _captains, _tie
from tests.leagues.helpers import hand, record, win_game

pytestmark = pytest.mark.django_db

AT_TABLE = (
    "The tie is level 3–3: the play-off game is being played at the table, scored on a phone, "
    "and whoever wins it goes through."
)
TO_COME = "the play-off game's score is still to come"


def _read(client, url):
    return client.get(url).content.decode().replace("&#x27;", "'")


def _level_tie_with_its_play_off_begun():
    """A counted level tie, its play-off game readied for a phone and its first hand scored."""
    world, cup, tie = _tie()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    game = tie.games.get(is_playoff=True).game
    pages = {
        "result": reverse("leagues:fixture_result", args=[tie.fixture.pk]),
        "fixture": tie.fixture.get_absolute_url(),
        "card": reverse("leagues:score_card", args=[tie.fixture.pk]),
        "desk": reverse("leagues:manage_league", args=[world.league.slug]),
        "cup": reverse("cups:manage", args=[cup.pk]),
    }
    # Read before the first hand (the fixture's page is kept in the cache till it changes).
    client = Client()
    client.force_login(world.users["secretary"])
    assert TO_COME in _read(client, pages["fixture"])
    record(game, [hand(game, "A", dict.fromkeys(("high", "low", "jack", "game"), "A"))])
    return world, Tie.objects.get(pk=tie.pk), game, pages


def test_the_pages_say_the_play_off_game_is_being_played_at_the_table_and_offer_no_boxes():
    world, tie, game, pages = _level_tie_with_its_play_off_begun()
    assert tie.playoff_to_come and tie.playoff_words == AT_TABLE
    for who in ("secretary", "home_captain", "away_captain"):
        client = Client()
        client.force_login(world.users[who])
        for name in ("result", "fixture", "card"):
            page = _read(client, pages[name])
            assert AT_TABLE in page, (who, name)
            assert TO_COME not in page, (who, name)
            assert 'data-testid="give-playoff"' not in page
            assert 'data-testid="playoff-link"' not in page
            assert 'name="playoff_home"' not in page, (who, name)
    client = Client()
    client.force_login(world.users["secretary"])
    desk = _read(client, pages["desk"])
    assert f'data-testid="playoff-at-table-{tie.fixture.pk}"' in desk
    assert "Cup tie level: the play-off game is being played at the table" in desk
    assert f'data-testid="playoff-card-{tie.fixture.pk}"' not in desk
    cup = _read(client, pages["cup"])
    assert f'data-testid="playoff-tie-{tie.pk}"' in cup and AT_TABLE in cup
    assert f'data-testid="playoff-form-{tie.pk}"' not in cup
    # The public reads it too.
    assert AT_TABLE in _read(Client(), pages["fixture"])


def test_the_card_says_why_it_takes_no_play_off_score_and_refuses_one_posted_changing_nothing():
    world, tie, game, pages = _level_tie_with_its_play_off_begun()
    client = Client()
    client.force_login(_captains(world, tie)["home"])
    response = client.post(pages["card"], {"playoff_home": "11", "playoff_away": "4"})
    page = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 200
    assert "Nothing was saved." in page
    assert "Its hands stand, so the score card gives no score for it" in page
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    game.refresh_from_db()
    assert game.status == "in_progress" and game.hands.count() == 1


def test_the_play_off_game_won_at_the_table_decides_the_tie_and_the_pages_say_who_goes_through():
    world, tie, game, pages = _level_tie_with_its_play_off_begun()
    win_game(game, "B", 4)
    tie.refresh_from_db()
    assert tie.winner == "away" and not tie.playoff_words
    client = Client()
    page = _read(client, pages["fixture"])
    assert f"{tie.through_words}." in page and "play-off game is being played" not in page
    # With the play-off game's score, as a card-given one is shown: it said who went through
    # and nothing of the game.
    fixture = tie.fixture
    score = f"Play-off game: {fixture.home.name} {game.sides.get(label='A').score}–"
    assert score + f"{game.sides.get(label='B').score} {fixture.away.name}." in page


def test_the_play_off_game_abandoned_at_the_table_is_given_from_the_card_again():
    """Abandoned on the phone, it is no longer being played: the pages say its score is to
    come and the card's boxes are offered again, and what they give decides the tie."""
    world, tie, game, pages = _level_tie_with_its_play_off_begun()
    game_abandon(game=game, reason="The pub closed.")
    tie = Tie.objects.get(pk=tie.pk)
    assert tie.playoff_to_come and TO_COME in tie.playoff_words
    assert tie.games.filter(is_playoff=True, game__status="in_progress").count() == 1
    client = Client()
    client.force_login(world.users["secretary"])
    assert TO_COME in _read(client, pages["fixture"])
    assert 'name="playoff_home"' in _read(client, pages["card"])
    client.post(pages["card"], {"playoff_home": "11", "playoff_away": "4"})
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"


def test_a_card_after_a_reopen_is_told_the_play_off_game_won_at_the_table_decides_the_tie():
    """The play-off game won on a phone, then the result reopened: the card entered again with
    a play-off score was refused with "A phone has scored hands of the play-off game: its hands
    stand ... (a secretary abandons that game first ...)", as if it were still being played.
    The card says the game was won at the table and decides the tie, offers no play-off boxes,
    and refuses a score posted for it; without one, the won game decides the tie again."""
    from leagues.services import confirmation
    from tests.cups.test_tie_playoff_card import _card

    world, tie, game, pages = _level_tie_with_its_play_off_begun()
    win_game(game, "B", 4)
    secretary = world.users["secretary"]
    confirmation.result_reopen(fixture=tie.fixture, reason="table 2 was 11-9", by=secretary)
    tie = Tie.objects.get(pk=tie.pk)
    assert tie.winner == "" and tie.playoff_won_at_table
    won = "The play-off game has been won at the table, scored on a phone"
    client = Client()
    client.force_login(secretary)
    page = _read(client, pages["card"])
    assert f"{won}: if the tables leave the match level, its result decides the tie" in page
    assert 'data-testid="card-playoff-won"' in page
    assert 'name="playoff_home"' not in page
    response = client.post(pages["card"], _card(LEVEL, playoff_home=11, playoff_away=3))
    page = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 200 and "Nothing was saved." in page
    assert (
        f"{won}: its result decides the tie, and the card's play-off boxes are not needed."
    ) in page
    assert "A phone has scored hands" not in page and "abandons that game" not in page
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    client.post(pages["card"], _card(LEVEL, signed="on"))
    tie.refresh_from_db()
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
