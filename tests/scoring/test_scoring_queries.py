"""The hot pages run a fixed number of queries whatever the number of hands."""

import uuid

import pytest
from django.urls import reverse

from tests.factories.scoring import GameFactory, plain_hand

pytestmark = pytest.mark.django_db

#: Game, sides, hands with their awards: four queries however long the game.
GAME_PAGE_QUERIES = 4
#: Recording a hand with htmx: read the game (4); in one savepoint lock it, check the key, read
#: hands and sides, insert the hand, replace its awards, update hands, sides and game, write the
#: audit (12, plus 2 for the savepoint); room for 2 queries of game_changed receivers (the
#: leagues app's roll-up); then the fresh fragment (4).
ENTRY_QUERIES = 4 + 14 + 2 + 4
#: A scorer's phone also reads its session once (the scoring link it opened).
SESSION_QUERIES = 1


@pytest.fixture(params=[1, 20], ids=["1 hand", "20 hands"])
def game(request):
    game = GameFactory(hands=request.param, overrides={"target": 61})
    assert game.hands.count() == request.param
    return game


def test_the_game_page_runs_a_fixed_number_of_queries(client, game, django_assert_max_num_queries):
    with django_assert_max_num_queries(GAME_PAGE_QUERIES):
        response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    client.get(game.scoring_link.get_absolute_url())
    with django_assert_max_num_queries(GAME_PAGE_QUERIES + SESSION_QUERIES):
        response = client.get(game.get_absolute_url())
    assert 'data-testid="hand-form"' in response.content.decode()


def test_the_entry_page_runs_a_fixed_number_of_queries(client, game, django_assert_max_num_queries):
    """The hand form's page and recording a hand (with htmx: the updated fragment) stay flat."""
    client.get(game.scoring_link.get_absolute_url())
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 1})
    with django_assert_max_num_queries(GAME_PAGE_QUERIES + SESSION_QUERIES):
        assert client.get(url).status_code == 200
    number = game.hands.count() + 1
    data = (
        {
            "entry_key": str(uuid.uuid4()),
            "expected_number": str(number),
            "outcome": "played",
            "beg": "stand",
        }
        | {
            key: (" ".join(value) if key == "turn_ups" else value)
            for key, value in plain_hand("trinidad", game.next_dealer, number).items()
            if key != "jack"
        }
        | {"jack": "none"}
    )
    with django_assert_max_num_queries(ENTRY_QUERIES + SESSION_QUERIES):
        response = client.post(
            reverse("scoring:hand_record", kwargs={"pk": game.pk}), data, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200, response.content.decode()[:2000]
    assert game.hands.count() == number


def test_the_audit_page_runs_a_fixed_number_of_queries(client, game, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        assert client.get(reverse("scoring:game_audit", kwargs={"pk": game.pk})).status_code == 200
