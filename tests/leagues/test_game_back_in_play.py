"""A table plays one game at a time. When game 1 is won the roll-up starts game 2; if the hand
that won game 1 is then undone, or corrected so that game 1 is no longer won, game 1 is back in
play: game 2 goes with it while no hand of it is recorded (it held nothing a scorer entered),
and is started again once game 1 is won again; once game 2 has a hand, the change to game 1 is
refused in words and nothing changes. A correction that leaves game 1 won changes nothing."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import AuditEntry, FixtureResult, TableGame
from scoring import services as scoring_services
from scoring.actors import Actor
from scoring.forms import fields_from_facts
from scoring.models import Game, GameStatus, Hand, HandRevision
from scoring.services import GameMovedOn
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import CATEGORIES, current_game, hand, record, start_fixture, win_game
from tests.leagues.test_leagues_results import trinidad_fixture

pytestmark = pytest.mark.django_db

REFUSED = (
    "Game 2 at this table has begun (1 hand): undo its hands first to change the hand that won "
    "game 1. Nothing was changed."
)


@pytest.fixture
def table():
    """A Trinidad fixture of one table, two games a table: game 1 won 14–4 by the home pair
    (its fifth hand won it), and game 2 started by the roll-up, no hand of it recorded."""
    fixture = trinidad_fixture(tables=1)
    (first,) = start_fixture(fixture)
    win_game(first.game, "A", 4)
    assert first.table.games.count() == 2
    return first.table


def scorer(table) -> Actor:
    """The table's scorer: no account, the table's scoring link."""
    return Actor.of(None, link=table.scoring_link)


def games_at(table) -> list[tuple[int, str]]:
    return list(table.games.order_by("number").values_list("number", "game__status"))


def undo_last(game: Game, actor: Actor) -> None:
    scoring_services.hand_undo(
        game=game, expected_number=game.hands.count(), entry_key=uuid.uuid4(), actor=actor
    )


def correct_last(game: Game, actor: Actor, facts: dict[str, Any]) -> None:
    """Correct the game's last hand with ``facts`` over its own."""
    last = game.hands.order_by("-number").first()
    scoring_services.hand_correct(
        game=game,
        number=last.number,
        facts={**last.facts, **facts},
        entry_key=uuid.uuid4(),
        expected_revision=last.revision,
        actor=actor,
    )


#: The last hand of game 1 given to the away pair: 12–8, no longer won.
TO_AWAY = {"high": "B", "low": "B", "jack": {"held_by": "B", "won_by": "B"}, "game": "B"}


@pytest.mark.parametrize("change", ["undo", "correct"])
def test_game_1_back_in_play_takes_away_the_game_2_nobody_began(table, change):
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    actor = scorer(table)
    if change == "undo":
        undo_last(game_1, actor)
    else:
        correct_last(game_1, actor, TO_AWAY)
    game_1.refresh_from_db()
    assert game_1.status == GameStatus.IN_PROGRESS
    assert games_at(table) == [(1, GameStatus.IN_PROGRESS)], "one game in play at the table"
    assert not Game.objects.filter(pk=game_2.pk).exists()
    assert not HandRevision.objects.filter(game_id=game_2.pk).exists()
    result = FixtureResult.objects.get(fixture=table.fixture)
    assert (result.home_games, result.away_games, result.is_final) == (0, 0, False)
    # The table's link goes to game 1, the game in play.
    client = Client()
    response = client.get(table.scoring_link.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == game_1.get_absolute_url()
    # The league's audit trail says it in words, and who did it.
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GAME_TAKEN_AWAY)
    done = "undone" if change == "undo" else "corrected"
    assert entry.subject == (
        "Table 1: game 2 taken away before a hand of it was recorded: game 1 is back in play "
        f"(hand {game_1.hands.count() + (change == 'undo')} {done})"
    )
    assert entry.fixture == table.fixture and entry.link == table.scoring_link
    assert entry.before == {"table": 1, "in_play": "game 2"}
    # And names the game taken away by its id, for its page (``game_taken_away``).
    assert entry.after == {
        "table": 1,
        "in_play": "game 1",
        "taken_away": {str(game_2.pk): 2},
    }


def test_game_1_won_again_starts_game_2_again(table):
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    undo_last(game_1, scorer(table))
    game_1.refresh_from_db()
    record(game_1, [hand(game_1, game_1.next_dealer, dict.fromkeys(CATEGORIES, "A"))])
    assert game_1.status == GameStatus.WON
    assert games_at(table) == [(1, GameStatus.WON), (2, GameStatus.IN_PROGRESS)]
    again = current_game(table)
    assert again.pk != game_2.pk and again.first_dealer == "B"
    assert again.scoring_link_id == table.scoring_link_id


@pytest.mark.parametrize("change", ["undo", "correct"])
def test_once_game_2_has_a_hand_the_change_to_game_1_is_refused_and_nothing_changes(table, change):
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    record(game_2, [hand(game_2, "B", dict.fromkeys(CATEGORIES, "B"))])
    revisions, hands = HandRevision.objects.count(), list(Hand.objects.values_list("pk", "facts"))
    with pytest.raises(GameMovedOn) as refused:
        if change == "undo":
            undo_last(game_1, scorer(table))
        else:
            correct_last(game_1, scorer(table), TO_AWAY)
    assert refused.value.message == REFUSED
    game_1.refresh_from_db()
    assert (game_1.status, game_1.winner) == (GameStatus.WON, "A")
    assert games_at(table) == [(1, GameStatus.WON), (2, GameStatus.IN_PROGRESS)]
    assert game_2.hands.count() == 1
    assert HandRevision.objects.count() == revisions
    assert list(Hand.objects.values_list("pk", "facts")) == hands
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.GAME_TAKEN_AWAY).exists()


def test_games_2_and_3_begun_are_named_with_the_one_to_undo_first():
    """First to two games: game 1 and game 2 won, game 3 begun. Changing the hand that won
    game 1 needs game 3's hands undone, then game 2's."""
    from leagues.match import FIRST_TO

    fixture = trinidad_fixture(tables=1, games_mode=FIRST_TO, games=2)
    (first,) = start_fixture(fixture)
    win_game(first.game, "A", 0)
    second = win_game(current_game(first.table), "B", 0)
    third = current_game(first.table)
    record(third, [hand(third, "A", dict.fromkeys(CATEGORIES, "A"))])
    with pytest.raises(GameMovedOn) as refused:
        undo_last(first.game, scorer(first.table))
    assert refused.value.message == (
        "Games 2 and 3 at this table have begun (game 2: 4 hands, game 3: 1 hand): undo their "
        "hands first, game 3's first, to change the hand that won game 1. Nothing was changed."
    )
    assert second.hands.count() == 4


@pytest.mark.parametrize("high", ["A", "B"], ids=["same-winner", "other-winner"])
def test_a_correction_that_leaves_game_1_won_leaves_game_2_alone(high):
    """Game 1 won 14–13: its last hand corrected so that the away pair takes high reaches
    their 14 first (the other winner); the home pair keeping it wins as before. (A guard: the
    code before the rule did this too.)"""
    fixture = trinidad_fixture(tables=1)
    (first,) = start_fixture(fixture)
    game_1 = win_game(first.game, "A", 13)
    game_2 = current_game(first.table)
    correct_last(game_1, scorer(first.table), {"high": high})
    game_1.refresh_from_db()
    assert (game_1.status, game_1.winner) == (GameStatus.WON, high)
    assert current_game(first.table).pk == game_2.pk
    assert games_at(first.table) == [(1, GameStatus.WON), (2, GameStatus.IN_PROGRESS)]
    assert not AuditEntry.objects.filter(action="game_taken_away").exists()


# --- the scorer's phone ------------------------------------------------------------------------


def phone(table) -> Client:
    """A phone that opened the table's scoring link."""
    client = Client()
    assert client.get(table.scoring_link.get_absolute_url()).status_code == 302
    return client


def undo_form(game: Game) -> dict[str, str]:
    return {"expected_number": str(game.hands.count()), "entry_key": str(uuid.uuid4())}


def test_the_phone_shows_the_refusal_in_place_and_nothing_changes(table):
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    record(game_2, [hand(game_2, "B", dict.fromkeys(CATEGORIES, "B"))])
    client = phone(table)
    url = reverse("scoring:hand_undo", kwargs={"pk": game_1.pk})
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(url, undo_form(game_1), **headers)
        assert response.status_code == 409
        assert REFUSED.replace("'", "&#x27;") in response.content.decode()
    # A correction on its own page (no JavaScript) comes back to the game with the words.
    last = game_1.hands.order_by("-number").first()
    fields = fields_from_facts(
        ruleset=game_1.rules,
        facts={**last.facts, **TO_AWAY},
        dealer=last.dealer,
        number=last.number,
        revision=last.revision,
    )
    posted = {key: str(value) for key, value in fields.items() if value not in (None, "")}
    posted["entry_key"] = str(uuid.uuid4())
    correct = reverse("scoring:hand_correct", kwargs={"pk": game_1.pk, "number": last.number})
    response = client.post(correct, posted, follow=True)
    assert response.redirect_chain[-1][0] == game_1.get_absolute_url()
    assert REFUSED.replace("'", "&#x27;") in response.content.decode()
    game_1.refresh_from_db()
    assert (game_1.status, game_1.hands.count()) == (GameStatus.WON, last.number)
    assert game_1.hands.get(number=last.number).revision == last.revision
    assert games_at(table) == [(1, GameStatus.WON), (2, GameStatus.IN_PROGRESS)]


def test_an_undo_kept_offline_is_refused_with_the_words_and_the_game(table):
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    record(game_2, [hand(game_2, "B", dict.fromkeys(CATEGORIES, "B"))])
    response = phone(table).post(
        reverse("scoring:sync", kwargs={"pk": game_1.pk}),
        data=json.dumps({"op": "undo", "entry_key": str(uuid.uuid4()), "number": 5}),
        content_type="application/json",
    )
    assert response.status_code == 409
    answer = response.json()
    assert answer["message"] == REFUSED
    assert (answer["game"]["status"], len(answer["game"]["hands"])) == ("won", 5)


def test_a_phone_still_on_game_2_is_told_it_is_no_longer_kept_and_where_play_goes_on(table):
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    client = phone(table)  # the link led this phone to game 2
    undo_last(game_1, scorer(table))
    page = client.get(game_2.get_absolute_url())
    assert page.status_code == 410
    words = page.content.decode()
    assert 'data-testid="game-gone"' in words and "hand-form" not in words
    assert f'href="{table.scoring_link.get_absolute_url()}"' in words
    # A hand tapped on its page, and one kept offline, are refused so: nothing is recorded.
    tapped = client.post(
        reverse("scoring:hand_record", kwargs={"pk": game_2.pk}),
        {"entry_key": str(uuid.uuid4()), "expected_number": "1", "dealer": "B"},
        HTTP_HX_REQUEST="true",
    )
    assert tapped.status_code == 410 and "Nothing was saved." in tapped.content.decode()
    kept = client.post(
        reverse("scoring:sync", kwargs={"pk": game_2.pk}),
        data=json.dumps(
            {
                "op": "record",
                "entry_key": str(uuid.uuid4()),
                "number": 1,
                "facts": hand(game_1, "B", dict.fromkeys(CATEGORIES, "B")),
            }
        ),
        content_type="application/json",
    )
    assert kept.status_code == 410
    assert kept.json()["message"].startswith("This game is no longer kept")
    assert list(TableGame.objects.filter(table=table).values_list("game_id", flat=True)) == [
        game_1.pk
    ]


def test_a_game_id_that_never_was_a_game_is_not_found_and_one_taken_away_is_no_longer_kept(
    table, django_assert_num_queries
):
    """Any game id that was not a game got the "no longer kept" page (410), as if a game of it
    had been taken away: a game id that never was a game is a plain "not found" (404) on its
    page and to a hand posted (with htmx or not), while a game taken away keeps its 410, told
    apart by the audit entry that took it away (one query)."""
    game_1, game_2 = (tg.game for tg in table.games.order_by("number"))
    client = phone(table)
    undo_last(game_1, scorer(table))
    never = Game.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000
    for pk, status in ((game_2.pk, 410), (never, 404)):
        page = client.get(reverse("scoring:game", kwargs={"pk": pk}))
        assert page.status_code == status, pk
        assert ('data-testid="game-gone"' in page.content.decode()) == (status == 410)
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            tapped = client.post(
                reverse("scoring:hand_record", kwargs={"pk": pk}),
                {"entry_key": str(uuid.uuid4()), "expected_number": "1", "dealer": "B"},
                **headers,
            )
            assert tapped.status_code == status, (pk, headers)
            assert ("Nothing was saved." in tapped.content.decode()) == (status == 410)
    from leagues.selectors.audit import game_taken_away

    for pk, gone in ((game_2.pk, True), (never, False), (game_1.pk, False)):
        with django_assert_num_queries(1):
            assert game_taken_away(pk=pk) is gone
    assert not Hand.objects.filter(game_id__in=[game_2.pk, never]).exists()


def test_the_fixture_audit_trail_shows_the_game_taken_away(table):
    game_1 = table.games.get(number=1).game
    undo_last(game_1, scorer(table))
    secretary = UserFactory()
    table.fixture.division.season.league.secretaries.add(secretary)
    client = Client()
    client.force_login(secretary)
    page = client.get(reverse("leagues:manage_fixture_audit", kwargs={"pk": table.fixture.pk}))
    words = " ".join(page.content.decode().split())
    assert 'data-testid="audit-game_taken_away"' in words
    assert "Table 1: game 2 taken away before a hand of it was recorded" in words
    assert '<span class="change-field">In play:</span> game 2 → game 1' in words
    assert "Taken away" not in words, "the game's id is for its page, not said"
