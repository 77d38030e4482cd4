"""Scoring links: only a phone holding a game's live link (or its creator, a superuser, or whoever
a registered check names) may change the game; everyone else reads it."""

import uuid

import pytest
from django.urls import reverse

from scoring import permissions, services
from scoring.models import Game, HandRevision, RevisionAction, ScoringLink
from scoring.services.links import _scoring_link_close, _scoring_link_create
from tests.factories.scoring import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def hand_data(game, **extra):
    data = {
        "entry_key": str(uuid.uuid4()),
        "expected_number": str(game.hands.count() + 1),
        "dealer": game.next_dealer,
        "outcome": "played",
        "turn_ups": "4H",
        "beg": "stand",
        "high": "A",
        "low": "B",
        "jack": "none",
        "game": "B",
    }
    return data | extra


def write_requests(game):
    """Every write a scorer can make to a game, as (method, url, data)."""
    undo = {"expected_number": str(game.hands.count()), "entry_key": str(uuid.uuid4())}
    correct = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 1})
    abandon = reverse("scoring:game_abandon", kwargs={"pk": game.pk})
    return [
        ("post", reverse("scoring:hand_record", kwargs={"pk": game.pk}), hand_data(game)),
        ("post", reverse("scoring:hand_undo", kwargs={"pk": game.pk}), undo),
        ("get", correct, None),
        ("post", correct, hand_data(game, expected_number="1")),
        ("get", abandon, None),
        ("post", abandon, {"reason": "closing time"}),
    ]


def assert_refused(client, game, *, text="only be scored from its table"):
    game = Game.objects.get(pk=game.pk)
    hands = game.hands.count()
    for method, url, data in write_requests(game):
        response = getattr(client, method)(url, data) if data else getattr(client, method)(url)
        assert response.status_code == 403, (method, url)
        assert text in response.content.decode()
    game.refresh_from_db()
    assert game.hands.count() == hands and game.in_progress


@pytest.fixture
def game():
    return GameFactory(hands=1, title="Friday at the Bull")


def test_a_stand_alone_game_gets_a_long_random_link_of_its_own(game):
    """The key is secrets.token_urlsafe(32): 43 characters; two games never share a link."""
    other = GameFactory()
    assert len(game.scoring_link.key) >= 43
    assert game.scoring_link_id != other.scoring_link_id
    assert game.scoring_link.label == "Friday at the Bull" and game.scoring_link.is_live


def test_without_the_link_every_write_is_refused_and_the_page_is_read_only(client, game):
    """An anonymous visitor sees the score but no form, no undo, no fix, and never the key."""
    assert_refused(client, game)
    body = client.get(game.get_absolute_url()).content.decode()
    assert 'data-testid="hand-form"' not in body and 'data-testid="undo"' not in body
    assert 'data-testid="correct-1"' not in body and game.scoring_link.key not in body
    assert 'data-testid="read-only-note"' in body


def test_a_logged_in_stranger_is_refused_too(client, game):
    client.force_login(UserFactory())
    assert_refused(client, game)


def test_the_link_lets_its_holder_score_and_the_audit_names_the_link_and_address(client, game):
    """Opening the link stores the grant and lands on the game; hands go in with link and IP."""
    response = client.get(game.scoring_link.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    body = client.get(game.get_absolute_url()).content.decode()
    assert 'data-testid="hand-form"' in body and "<svg" in body  # the QR for a second phone
    assert game.scoring_link.key in body
    response = client.post(
        reverse("scoring:hand_record", kwargs={"pk": game.pk}),
        hand_data(game),
        REMOTE_ADDR="203.0.113.7",
    )
    assert response.status_code == 302
    revision = HandRevision.objects.get(game=game, hand_number=2)
    assert revision.link == game.scoring_link and revision.by is None
    assert revision.ip == "203.0.113.7"


def test_the_link_grants_its_own_games_only(client, game):
    other = GameFactory(hands=1)
    client.get(game.scoring_link.get_absolute_url())
    assert_refused(client, other)


def test_a_revoked_link_stops_working_at_once_and_a_reissued_one_takes_over(client, game):
    """Revoking refuses the phone that already holds it; re-issue moves the games to a new key."""
    old = game.scoring_link
    client.get(old.get_absolute_url())
    new = services.game_link_reissue(game=game)
    game.refresh_from_db()
    assert game.scoring_link == new and new.key != old.key
    old.refresh_from_db()
    assert old.revoked_at is not None
    assert_refused(client, game)
    response = client.get(old.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 403 and "no longer works" in page
    assert "replaced it with a new one" in page and "no new one given" not in page
    assert client.get(new.get_absolute_url()).status_code == 302
    assert client.post(reverse("scoring:hand_record", kwargs={"pk": game.pk}), hand_data(game))
    assert game.hands.count() == 2


def test_a_closed_link_refuses_even_the_creator_but_not_a_superuser(client, game):
    creator = UserFactory()
    mine = services.game_start(
        ruleset=game.rules, sides=[("Bull", []), ("Crown", [])], by=creator, title="Mine"
    )
    client.force_login(creator)
    record = reverse("scoring:hand_record", kwargs={"pk": mine.pk})
    assert client.post(record, hand_data(mine)).status_code == 302  # the creator may score
    _scoring_link_close(link=mine.scoring_link)  # its result confirmed
    mine.refresh_from_db()
    assert_refused(client, mine, text="has been confirmed")
    client.force_login(UserFactory(is_superuser=True))
    assert client.post(record, hand_data(mine)).status_code == 302
    assert mine.hands.count() == 2


def test_a_link_stopped_then_closed_tells_its_holder_the_result_is_confirmed(client, game):
    """A link stopped and then closed (a table's result entered from the score card, then the
    match confirmed): the game's refusal said the result was confirmed, but the link's own page
    (``ScoringLink.state``: revoked first) said it was stopped and to ask for it re-issued,
    though a new key would be closed too. One ranking now, the scorer's: confirmed."""
    from scoring.actors import Actor

    link = game.scoring_link
    client.get(link.get_absolute_url())
    services.game_link_revoke(game=game)
    _scoring_link_close(link=link)
    link.refresh_from_db()
    assert link.state == "closed"
    assert_refused(client, game, text="has been confirmed")
    assert permissions.why_refused(Actor(links=frozenset({link.pk})), game) == "closed"
    page = client.get(link.get_absolute_url()).content.decode()
    assert "The result has been confirmed" in page and "re-issue" not in page


def test_a_registered_check_lets_a_named_user_score(client, game):
    """Other apps (the leagues) register who else may score: e.g. the league's secretary."""
    secretary = UserFactory()
    permissions.register_scorer_check("test", lambda user, g: user.pk == secretary.pk)
    try:
        client.force_login(secretary)
        response = client.post(
            reverse("scoring:hand_record", kwargs={"pk": game.pk}), hand_data(game)
        )
        assert response.status_code == 302
    finally:
        permissions._scorer_checks.pop("test")


def test_starting_a_game_hands_the_starter_its_link(client):
    """The phone that starts an anonymous game may score it; a second phone needs the link."""
    response = client.post(
        reverse("scoring:game_new"),
        {
            "variant": "west_yorkshire",
            "target": "11",
            "side_a_player_1": "Ann",
            "side_a_player_2": "Cy",
            "side_b_player_1": "Bob",
            "side_b_player_2": "Di",
            "first_dealer": "A",
        },
        follow=True,
    )
    game = response.context["game"]
    assert 'data-testid="hand-form"' in response.content.decode()
    record = reverse("scoring:hand_record", kwargs={"pk": game.pk})
    facts = {"turn_ups": "", "beg": "", "dealer": "A"}
    assert client.post(record, hand_data(game, **facts)).status_code == 302
    from django.test import Client

    second = Client()
    assert_refused(second, game)
    second.get(game.scoring_link.get_absolute_url())
    game = Game.objects.get(pk=game.pk)
    facts["dealer"] = game.next_dealer
    assert second.post(record, hand_data(game, **facts)).status_code == 302
    assert game.hands.count() == 2


def test_a_table_link_with_no_game_yet_says_so():
    from django.test import Client

    link = _scoring_link_create(label="Bull v Crown, table 1")
    response = Client().get(link.get_absolute_url())
    assert response.status_code == 200 and "No game has started" in response.content.decode()


def test_a_table_link_opens_its_current_game():
    """A link shared by a table's games lands on the one in progress."""
    from django.test import Client

    link = _scoring_link_create(label="table 1")
    first = GameFactory(scoring_link=link, won=True)
    second = GameFactory(scoring_link=link)
    assert first.scoring_link == second.scoring_link == link
    response = Client().get(link.get_absolute_url())
    assert response["Location"] == second.get_absolute_url()


def test_an_unknown_key_is_not_found(client):
    assert client.get(reverse("scoring:link_open", kwargs={"key": "x" * 43})).status_code == 404


def test_the_audit_page_shows_addresses_only_to_the_site_operator(client, game):
    HandRevision.objects.filter(game=game).update(ip="198.51.100.9")
    url = reverse("scoring:game_audit", kwargs={"pk": game.pk})
    assert "198.51.100.9" not in client.get(url).content.decode()
    client.force_login(UserFactory(is_superuser=True))
    assert "198.51.100.9" in client.get(url).content.decode()


def test_undo_and_abandon_record_the_link(client, game):
    client.get(game.scoring_link.get_absolute_url())
    client.post(
        reverse("scoring:hand_undo", kwargs={"pk": game.pk}),
        {"expected_number": "1", "entry_key": str(uuid.uuid4())},
    )
    client.post(reverse("scoring:game_abandon", kwargs={"pk": game.pk}), {"reason": "late"})
    actions = dict(HandRevision.objects.filter(game=game).values_list("action", "link"))
    assert actions[RevisionAction.UNDO] == actions[RevisionAction.ABANDON] == game.scoring_link_id
    assert ScoringLink.objects.filter(pk=game.scoring_link_id).exists()
