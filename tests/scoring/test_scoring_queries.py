"""The hot pages run a fixed number of queries whatever the number of hands."""

import uuid

import pytest
from django.db import connection
from django.urls import reverse

from scoring.services.compiled import _prepares
from tests.factories.scoring import GameFactory, plain_hand
from tests.leagues.helpers import current_game, start_fixture
from tests.leagues.test_leagues_results import make_fixture

pytestmark = pytest.mark.django_db

#: Game, sides, hands with their awards: four queries however long the game.
GAME_PAGE_QUERIES = 4
#: A scorer's phone also reads its session once (the scoring link it opened).
SESSION_QUERIES = 1
#: Recording a hand, answered with only what changed: the session; the game's ruleset and sides,
#: which the view reads the posted form against (fixed once a game starts, so read before the
#: lock: the service is given the hand's facts, not a callback into the form); the game with its
#: link, sides, hand count and what the leagues and cups apps attach to it (so they ask nothing
#: of a game that is not theirs), read once under its row lock; the new hand, its awards, the
#: sides' scores, the game's state and the audit entry, on PostgreSQL sent together in one round
#: trip (``compiled.sent_together``; the awards take the hand's id from the database there).
RECORD_QUERIES = 4 if connection.vendor == "postgresql" else 8
#: Undoing the last hand: the session; the locked read; the last two hands; the hand collected,
#: its awards and it deleted; the sides' scores, the game's state and the audit entry.
UNDO_QUERIES = 9
#: Correcting a hand with hands after it, answered with only what changed: the session; the
#: game's ruleset and sides the form is read against (as for a hand recorded); the game with its
#: link, sides, hand count and what other apps attach to it, read once under its row lock; the
#: hand before it (its totals start the re-scoring) and the hands from it on; their awards (a
#: later hand is rewritten only where the engine's answer differs); the corrected hand; the later
#: hands' running totals, one statement however many; its awards deleted and written again; the
#: sides' scores, the game's state and the audit entry.
CORRECT_QUERIES = 12
#: Correcting the last hand: no later running totals to move.
CORRECT_LAST_QUERIES = CORRECT_QUERIES - 1
#: The service's transaction: BEGIN and COMMIT are logged as statements too, and on PostgreSQL
#: the game's row lock, a statement of its own before the locked read (services/state.py
#: lock_for_entry says why): sent apart from the read, each prepared by psycopg, so that the
#: database plans the read once a connection, not on every hand (services/compiled.py
#: CompiledRead); with DATABASE_PREPARED=0 the two go as one text, one query. On SQLite the
#: BEGIN takes the write lock.
TRANSACTION = 2 + (1 if connection.vendor == "postgresql" and _prepares(connection) else 0)
#: A hand at a league fixture's table (a game in progress, no result changed) adds the table it
#: is played at and the league's live, the fixture's live and the players' page versions
#: (``leagues/fragments.py``), written once inside the hand's transaction: in the database
#: cache a count (for culling), a savepoint, a look-up, the write and the release, for each of
#: the three (with Redis, one round trip for all three).
FIXTURE_TABLE_QUERIES = 1 + 3 * 5


@pytest.fixture(params=[1, 59], ids=["hand 1", "hand 60"])
def game(request):
    game = GameFactory(hands=request.param - 1, overrides={"target": 500})
    assert game.hands.count() == request.param - 1
    return game


def _hand_data(game, number):
    facts = plain_hand("trinidad", game.next_dealer, number)
    return {
        "entry_key": str(uuid.uuid4()),
        "expected_number": str(number),
        "outcome": "played",
        "beg": "stand",
        "dealer": facts["dealer"],
        "turn_ups": " ".join(facts["turn_ups"]),
        "high": facts["high"],
        "low": facts["low"],
        "jack": "none",
        "game": facts["game"],
    }


def test_the_game_page_runs_a_fixed_number_of_queries(client, game, django_assert_max_num_queries):
    with django_assert_max_num_queries(GAME_PAGE_QUERIES):
        response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    client.get(game.scoring_link.get_absolute_url())
    with django_assert_max_num_queries(GAME_PAGE_QUERIES + SESSION_QUERIES):
        response = client.get(game.get_absolute_url())
    assert 'data-testid="hand-form"' in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_recording_and_undoing_a_hand_run_exactly_their_queries(client, django_assert_num_queries):
    """As in production (no test transaction around the request, so no savepoints): recording
    hand 1 and hand 60 each runs exactly RECORD_QUERIES, undoing one UNDO_QUERIES."""
    for hands in (0, 59):
        game = GameFactory(hands=hands, overrides={"target": 500})
        client.get(game.scoring_link.get_absolute_url())
        number = hands + 1
        url = reverse("scoring:hand_record", kwargs={"pk": game.pk})
        with django_assert_num_queries(RECORD_QUERIES + TRANSACTION):
            response = client.post(url, _hand_data(game, number), HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content.decode()[:2000]
        assert f'id="hand-{number}"' in response.content.decode()
        assert game.hands.count() == number
        # The reply drawn by the page (scoring.js asks for it as data): the same queries.
        game.refresh_from_db()
        with django_assert_num_queries(RECORD_QUERIES + TRANSACTION):
            response = client.post(
                url, _hand_data(game, number + 1), HTTP_HX_REQUEST="true", HTTP_X_LIGHT_REPLY="json"
            )
        assert response.json()["hand"] == number + 1
        number += 1
        undo = {"expected_number": str(number), "entry_key": str(uuid.uuid4())}
        with django_assert_num_queries(UNDO_QUERIES + TRANSACTION):
            response = client.post(
                reverse("scoring:hand_undo", kwargs={"pk": game.pk}), undo, HTTP_HX_REQUEST="true"
            )
        assert response.status_code == 200
        assert game.hands.count() == hands + 1


@pytest.mark.django_db(transaction=True)
def test_a_hand_at_a_fixture_table_runs_exactly_its_queries(client, django_assert_num_queries):
    """As in production, a hand in a game in progress at a league fixture's table: its page
    versions are written once (the database cache commits them with the hand), and no result is
    recounted."""
    fixture = make_fixture()
    game = current_game(start_fixture(fixture)[0])
    game.refresh_from_db()
    client.get(game.scoring_link.get_absolute_url())
    url = reverse("scoring:hand_record", kwargs={"pk": game.pk})
    with django_assert_num_queries(RECORD_QUERIES + FIXTURE_TABLE_QUERIES + TRANSACTION):
        response = client.post(url, _hand_data(game, 1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:2000]
    assert game.hands.count() == 1


@pytest.mark.django_db(transaction=True)
def test_correcting_a_hand_runs_exactly_its_queries(client, django_assert_num_queries):
    """As in production: correcting hand 1 of a 60-hand game runs exactly CORRECT_QUERIES
    (the same for a 10-hand game: the later totals are one statement), the last hand
    CORRECT_LAST_QUERIES."""
    for hands in (10, 60):
        game = GameFactory(hands=hands, overrides={"target": 500})
        client.get(game.scoring_link.get_absolute_url())
        for number, queries in ((1, CORRECT_QUERIES), (hands, CORRECT_LAST_QUERIES)):
            hand = game.hands.get(number=number)
            data = _hand_data(game, number) | {
                "dealer": hand.facts["dealer"],
                "high": "B" if hand.facts["high"] == "A" else "A",
                "expected_revision": "0",
            }
            url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": number})
            with django_assert_num_queries(queries + TRANSACTION):
                response = client.post(url, data, HTTP_HX_REQUEST="true")
            assert response.status_code == 200, response.content.decode()[:2000]
            assert f"Hand {number} corrected" in response.content.decode()
            assert game.hands.get(number=number).revision == 1


def test_the_correction_page_runs_a_fixed_number_of_queries(
    client, game, django_assert_max_num_queries
):
    client.get(game.scoring_link.get_absolute_url())
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 1})
    if game.hands.exists():
        with django_assert_max_num_queries(GAME_PAGE_QUERIES + SESSION_QUERIES):
            assert client.get(url).status_code == 200


def test_the_audit_page_runs_a_fixed_number_of_queries(client, game, django_assert_num_queries):
    """The game with its sides, its revisions with who made them, and the zone its moments are
    shown in: each app whose games belong to a league (a fixture's table, a cup tie) asks once
    whether this one is its own (``scoring.zones``)."""
    with django_assert_num_queries(5):
        assert client.get(reverse("scoring:game_audit", kwargs={"pk": game.pk})).status_code == 200


def test_the_games_list_counts_hands_for_the_games_shown_only(client, django_assert_num_queries):
    """Games, then their sides each with its game's count of hands: two queries, and the count
    is right for each game."""
    short = GameFactory(hands=1, overrides={"target": 61})
    long = GameFactory(hands=5, overrides={"target": 61})
    with django_assert_num_queries(2):
        response = client.get(reverse("scoring:game_list"))
    rows = {
        row.record.pk: row.get_cell_value("hand_count") for row in response.context["table"].rows
    }
    assert rows[short.pk] == 1 and rows[long.pk] == 5
