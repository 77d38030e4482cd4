"""A pairs tie is played one game at a time through its scoring link, as a league table is:
game 1 won starts game 2; the hand that won game 1 undone (or corrected so that it no longer
wins) takes game 2 away while no hand of it is recorded, said in the tie's audit trail, and
game 1 won again starts it again; once game 2 has a hand the change is refused in words."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from cups.services.draws import draw_make
from leagues.models import AuditEntry
from scoring import services as scoring_services
from scoring.actors import Actor
from scoring.models import Game, GameStatus
from scoring.services import GameMovedOn
from tests.cups.helpers import cup_world, current, pairs_cup
from tests.leagues.helpers import CATEGORIES, hand, record, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tie():
    """A best of three pairs tie: game 1 won by the home pair, game 2 started, no hand yet."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get()
    win_game(current(tie), "A", 2)
    assert tie.games.count() == 2
    return tie


def games_of(tie) -> list[tuple[int, str]]:
    return list(tie.games.order_by("number").values_list("number", "game__status"))


def undo_last(game: Game, tie) -> None:
    scoring_services.hand_undo(
        game=game,
        expected_number=game.hands.count(),
        entry_key=uuid.uuid4(),
        actor=Actor.of(None, link=tie.scoring_link),
    )


def test_game_1_back_in_play_takes_away_game_2_and_winning_it_again_starts_game_2_again(tie):
    game_1, game_2 = (tg.game for tg in tie.games.order_by("number"))
    undo_last(game_1, tie)
    assert games_of(tie) == [(1, GameStatus.IN_PROGRESS)]
    assert not Game.objects.filter(pk=game_2.pk).exists()
    tie.refresh_from_db()
    assert (tie.home_score, tie.away_score, tie.status) == (0, 0, "scheduled")
    response = Client().get(tie.scoring_link.get_absolute_url())
    assert response["Location"] == game_1.get_absolute_url()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GAME_TAKEN_AWAY)
    assert entry.subject == (
        f"{tie}: game 2 taken away before a hand of it was recorded: game 1 is back in play "
        f"(hand {game_1.hands.count() + 1} undone)"
    )
    # It names the game taken away by its id: its page says it is no longer kept.
    taken_away = {"taken_away": {str(game_2.pk): 2}}
    assert entry.after == {"tie": tie.pk, "in_play": "game 1"} | taken_away
    assert entry.link == tie.scoring_link
    assert Client().get(game_2.get_absolute_url()).status_code == 410
    # The tie's audit trail (its page for the secretary) lists it.
    secretary = tie.competition.league.secretaries.get()
    client = Client()
    client.force_login(secretary)
    page = client.get(reverse("cups:tie_audit", kwargs={"pk": tie.pk})).content.decode()
    assert 'data-testid="audit-game_taken_away"' in page

    game_1.refresh_from_db()
    record(game_1, [hand(game_1, game_1.next_dealer, dict.fromkeys(CATEGORIES, "A"))])
    assert games_of(tie) == [(1, GameStatus.WON), (2, GameStatus.IN_PROGRESS)]
    assert current(tie).pk != game_2.pk


def test_once_game_2_has_a_hand_the_undo_of_game_1_is_refused_and_nothing_changes(tie):
    game_1, game_2 = (tg.game for tg in tie.games.order_by("number"))
    record(game_2, [hand(game_2, "B", dict.fromkeys(CATEGORIES, "B"))])
    hands = game_1.hands.count()
    with pytest.raises(GameMovedOn) as refused:
        undo_last(game_1, tie)
    assert refused.value.message == (
        "Game 2 of this tie has begun (1 hand): undo its hands first to change the hand that "
        "won game 1. Nothing was changed."
    )
    assert games_of(tie) == [(1, GameStatus.WON), (2, GameStatus.IN_PROGRESS)]
    assert (game_1.hands.count(), game_2.hands.count()) == (hands, 1)
    tie.refresh_from_db()
    assert (tie.home_score, tie.away_score) == (1, 0)
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.GAME_TAKEN_AWAY).exists()


def test_a_walkover_before_play_takes_game_1_away_and_its_page_says_it_is_no_longer_kept():
    """A walkover given before a hand of the tie's game 1 was recorded drops the game readied
    for its scorers: the tie's audit names it taken away, so a phone still on its page is told
    it is no longer kept (410), not that it was never found."""
    from cups.services.ties import tie_walkover

    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = cup.ties.get()
    game_1 = current(tie)
    tie_walkover(tie=tie, to="home", reason="The away pair withdrew", by=world.users["secretary"])
    assert not Game.objects.filter(pk=game_1.pk).exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GAME_TAKEN_AWAY)
    assert entry.subject == (
        f"{tie}: game 1 taken away before a hand of it was recorded: a walkover was given"
    )
    assert entry.after == {"tie": tie.pk, "in_play": "", "taken_away": {str(game_1.pk): 1}}
    page = Client().get(game_1.get_absolute_url())
    assert page.status_code == 410 and 'data-testid="game-gone"' in page.content.decode()
