"""Re-issuing and revoking a game's scoring link from the game page, and the start of a game in
its audit trail."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Game, HandRevision, RevisionAction
from tests.factories.scoring import GameFactory, UserFactory
from tests.scoring.test_scoring_links import assert_refused, hand_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def creator():
    return UserFactory()


@pytest.fixture
def game(creator):
    return GameFactory(hands=1, by=creator, title="Friday at the Bull")


def link_url(game: Game) -> str:
    return reverse("scoring:game_link", kwargs={"pk": game.pk})


def scorer(game: Game) -> Client:
    """A phone that opened the game's link."""
    phone = Client()
    assert phone.get(game.scoring_link.get_absolute_url()).status_code == 302
    return phone


def record(client: Client, game: Game) -> Any:
    game = Game.objects.get(pk=game.pk)
    return client.post(reverse("scoring:hand_record", kwargs={"pk": game.pk}), hand_data(game))


def test_the_creator_sees_the_buttons_and_a_scorer_or_visitor_does_not(client, creator, game):
    body = scorer(game).get(game.get_absolute_url()).content.decode()
    assert 'data-testid="link-manage"' not in body
    assert 'data-testid="link-manage"' not in client.get(game.get_absolute_url()).content.decode()
    client.force_login(creator)
    body = client.get(game.get_absolute_url()).content.decode()
    assert 'data-testid="link-reissue"' in body and 'data-testid="link-revoke"' in body


def test_reissue_gives_a_new_key_and_the_old_one_is_refused_at_once(client, creator, game):
    """The phone that held the old key can no longer score; the new key works; it is audited."""
    phone = scorer(game)
    old = game.scoring_link
    client.force_login(creator)
    response = client.post(link_url(game), {"action": "reissue"}, REMOTE_ADDR="203.0.113.5")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.scoring_link != old and game.scoring_link.is_live
    old.refresh_from_db()
    assert old.revoked_at is not None
    assert_refused(phone, game)
    assert Client().get(old.get_absolute_url()).status_code == 403
    assert record(scorer(game), game).status_code == 302
    revision = HandRevision.objects.get(game=game, action=RevisionAction.REISSUE)
    assert (revision.by, revision.ip, revision.hand_number) == (creator, "203.0.113.5", None)
    assert revision.before == {"link": old.pk, "state": "live"}
    assert revision.after == {"link": game.scoring_link_id, "state": "live"}
    assert old.key not in str(revision.before) + str(revision.after)


def test_revoke_refuses_the_key_until_the_link_is_reissued(client, creator, game):
    phone = scorer(game)
    client.force_login(creator)
    assert client.post(link_url(game), {"action": "revoke"}).status_code == 302
    game.refresh_from_db()
    assert game.scoring_link.state == "revoked"
    # Told the link was stopped, not to scan the QR code that no longer works.
    assert_refused(phone, game, text="scoring link has been stopped. To score it again, ask")
    response = Client().get(game.scoring_link.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 403 and "no longer works" in page
    # Stopped, not replaced: the page does not send the scorer looking for a new link.
    assert "It has been stopped, and no new one given yet." in page
    assert "replaced it with a new one" not in page
    assert HandRevision.objects.filter(game=game, action=RevisionAction.REVOKE).count() == 1
    body = client.get(game.get_absolute_url()).content.decode()
    assert 'data-testid="link-revoke"' not in body and "revoked" in body
    client.post(link_url(game), {"action": "reissue"})
    game.refresh_from_db()
    assert game.scoring_link.is_live and record(scorer(game), game).status_code == 302


@pytest.mark.parametrize("who", ["anonymous", "stranger", "link_holder"])
def test_others_are_refused_and_nothing_changes(who, game):
    client = scorer(game) if who == "link_holder" else Client()
    if who == "stranger":
        client.force_login(UserFactory())
    before = game.scoring_link
    for action in ("reissue", "revoke"):
        response = client.post(link_url(game), {"action": action})
        assert response.status_code == 403
        assert "re-issue or revoke" in response.content.decode()
    game.refresh_from_db()
    assert game.scoring_link == before and before.is_live
    assert not HandRevision.objects.filter(
        game=game, action__in=[RevisionAction.REISSUE, RevisionAction.REVOKE]
    ).exists()


def test_a_superuser_manages_any_games_link(client, game):
    client.force_login(UserFactory(is_superuser=True))
    old = game.scoring_link
    assert client.post(link_url(game), {"action": "reissue"}).status_code == 302
    game.refresh_from_db()
    assert game.scoring_link != old


def test_the_link_buttons_take_posts_only(client, creator, game):
    client.force_login(creator)
    assert client.get(link_url(game)).status_code == 405


def test_starting_a_game_is_the_first_entry_of_its_audit(client):
    """Who started it, from where, with which sides: shown on the game's audit page."""
    user = UserFactory()
    client.force_login(user)
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
        REMOTE_ADDR="198.51.100.4",
        follow=True,
    )
    game = response.context["game"]
    start = HandRevision.objects.get(game=game, action=RevisionAction.START)
    assert (start.by, start.ip, start.hand_number) == (user, "198.51.100.4", None)
    assert [side["players"] for side in start.after["sides"]] == [["Ann", "Cy"], ["Bob", "Di"]]
    body = client.get(reverse("scoring:game_audit", kwargs={"pk": game.pk})).content.decode()
    assert 'data-testid="audit-start-game"' in body


def test_a_game_started_by_a_service_is_audited_too():
    game = services.game_start(
        ruleset=GameFactory().rules, sides=[("Bull", []), ("Crown", [])], title="Quiet"
    )
    start = HandRevision.objects.get(game=game)
    assert start.action == RevisionAction.START and start.by is None
    assert start.scores_after == {"A": 0, "B": 0}
