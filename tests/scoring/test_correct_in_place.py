"""Correcting a hand through the Django client: in place with htmx (the form as a fragment, a
light reply that does not grow with the hand number, refusals by the fact), and as plain form
posts without JavaScript."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from backports import zstd
from django.urls import reverse

from scoring.forms import fields_from_facts
from scoring.models import Game, GameStatus, Hand, HandRevision, RevisionAction
from tests.factories.scoring import GameFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
#: What Chrome on a phone accepts: it is answered in Zstandard.
CHROME = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}


def correct_url(game: Game, number: int) -> str:
    return reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": number})


def correction(hand: Hand, **changes: Any) -> dict[str, str]:
    """The correction form as a phone posts it: the hand's facts as fields, with `changes`."""
    initial = fields_from_facts(
        ruleset=hand.game.rules,
        facts=hand.facts,
        dealer=hand.dealer,
        number=hand.number,
        revision=hand.revision,
    )
    posted = {key: str(value) for key, value in initial.items() if value not in (None, "")}
    return posted | {name: str(value) for name, value in changes.items()}


def other(label: str) -> str:
    return "B" if label == "A" else "A"


def flip_high(hand: Hand) -> dict[str, str]:
    """Hand `hand` with high to the other side: every later running total moves by one."""
    return correction(hand, high=other(hand.facts["high"]))


def scores(game: Game) -> dict[str, int]:
    return {side.label: side.score for side in game.sides.order_by("position")}


@pytest.fixture
def long_game(client) -> Game:
    game = GameFactory(hands=60, overrides={"target": 500})
    client.get(game.scoring_link.get_absolute_url())
    return game


@pytest.fixture
def short_game(client) -> Game:
    game = GameFactory(hands=6, overrides={"target": 500})
    client.get(game.scoring_link.get_absolute_url())
    return game


@pytest.mark.parametrize("number", [1, 60], ids=["hand 1", "hand 60"])
def test_the_reply_to_a_correction_is_light_and_does_not_grow(client, long_game, number):
    """Correcting hand 1 or hand 60 of a 60-hand game: the corrected row, the later rows'
    totals as numbers only, the scoreboard with the notice and a fresh hand form; at most 6 KB
    compressed either way."""
    hand = long_game.hands.get(number=number)
    before = scores(long_game)
    response = client.post(correct_url(long_game, number), flip_high(hand), **HTMX, **CHROME)

    assert response.status_code == 200
    assert response["Content-Encoding"] == "zstd"
    assert len(response.content) <= 6000, len(response.content)
    body = zstd.decompress(response.content).decode()
    assert body.count('<tr id="hand-') == 1 and f'<tr id="hand-{number}"' in body
    update = re.search(r'<template id="sheet-update" data-replace ([^>]*)>', body)
    assert update is not None
    totals = re.search(r'data-totals="([^"]*)"', update.group(1))
    assert totals is not None
    later = [row for row in totals.group(1).split(";") if row]
    assert len(later) == 60 - number
    assert f'data-totals-from="{number + 1}"' in update.group(1)
    assert 'id="scoreboard"' in body and 'id="entry"' in body and body.count("hx-swap-oob") == 2
    assert f"Hand {number} corrected; the game was re-scored." in body
    assert 'id="score-chart"' not in body and 'id="scoring-link' not in body
    assert 'id="game"' not in body

    after = scores(long_game)
    high = hand.facts["high"]
    assert after[high] == before[high] - 1 and after[other(high)] == before[other(high)] + 1
    assert re.search(rf'data-testid="score-value-A">{after["A"]}<', body)
    if number == 1:
        # The last row's totals are the scores now.
        assert later[-1] == f"{after['A']},{after['B']}"
        assert long_game.hands.get(number=60).scores == after
    # The fresh form is for the next hand, as before the correction.
    assert re.search(r'name="expected_number" value="61"', body)


def test_fix_opens_the_correction_form_in_place(client, short_game):
    """With htmx the correction form comes as a fragment for the game page (it posts back in
    place); without it, as a page of its own whose form is a plain post."""
    fragment = client.get(correct_url(short_game, 2), **HTMX)
    body = fragment.content.decode()
    assert fragment.status_code == 200
    assert "<html" not in body and 'id="correct-form"' in body
    assert 'hx-target="#correction"' in body and 'hx-swap="innerHTML"' in body
    assert "Correct hand 2" in body and "data-cancel-correction" in body
    assert 'name="expected_revision" value="0"' in body

    page = client.get(correct_url(short_game, 2)).content.decode()
    assert "<html" in page and 'id="correct-form"' in page and "hx-post" not in page

    game_page = client.get(short_game.get_absolute_url()).content.decode()
    assert '<div id="correction" class="correction"></div>' in game_page


def test_the_correction_form_says_tapping_game_saves_the_correction(client, short_game):
    """Tapping who made game posts the correction at once (the reason goes only if typed
    first): the hint says so, not "records the hand" as on the hand form."""
    body = client.get(correct_url(short_game, 2), **HTMX).content.decode()
    assert "Tapping who made game saves the correction: give the reason above first." in body
    assert "records the hand" not in body
    game_page = client.get(short_game.get_absolute_url()).content.decode()
    assert "Tapping who made game records the hand." in game_page


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["in place", "without JavaScript"])
def test_the_reason_box_comes_before_the_game_buttons_that_save(client, short_game, headers):
    """The reason is typed before the tap that saves: its box is the correction form's first
    question, above the turn-up and the game buttons, and says when to fill it; in place and on
    the page of its own alike."""
    body = client.get(correct_url(short_game, 2), **headers).content.decode()
    form = body[body.index('id="correct-form"') :]
    reason = form.index('data-testid="reason"')
    assert reason < form.index('data-testid="card-picker"')
    assert reason < form.index('data-testid="fieldset-game"')
    assert reason < form.index('data-testid="game-A"')
    help_text = "Type it before you tap who made game: that tap saves the correction."
    assert 'aria-describedby="reason-help"' in form
    assert f'<p class="help muted" id="reason-help">{help_text}</p>' in form
    assert form.index(help_text) < form.index('data-testid="game-A"')


def test_a_reason_typed_above_goes_with_the_game_tap_without_javascript(client, short_game):
    """Without JavaScript the game button posts the whole form: the reason typed at the top is
    kept with the correction; a reason the form refuses is said beside its box, nothing saved."""
    hand = short_game.hands.get(number=2)
    refused = client.post(correct_url(short_game, 2), flip_high(hand) | {"reason": "a\x00b"})
    assert refused.status_code == 422
    assert 'data-testid="error-reason"' in refused.content.decode()
    assert short_game.hands.get(number=2).revision == 0

    response = client.post(correct_url(short_game, 2), flip_high(hand) | {"reason": "misread"})
    assert response.status_code == 302
    revision = HandRevision.objects.get(game=short_game, action=RevisionAction.CORRECT)
    assert revision.reason == "misread"


def test_a_refused_correction_shows_its_errors_in_place_and_saves_nothing(client, short_game):
    """A jack turned up and said to be dealt to a side is refused by the fact (422): the form
    comes back, in place, with the error by the jack; nothing is saved."""
    hand = short_game.hands.get(number=3)
    before = scores(short_game)
    response = client.post(
        correct_url(short_game, 3), correction(hand, dealer="A", turn_ups="JS", jack="A-A"), **HTMX
    )

    assert response.status_code == 422
    body = response.content.decode()
    assert "<html" not in body and 'id="correct-form"' in body and 'hx-target="#correction"' in body
    assert re.search(r'id="errors-jack".*J♠ was turned up', body, re.S)
    assert "Nothing was saved" in body
    assert short_game.hands.get(number=3).revision == 0
    assert scores(short_game) == before
    assert not HandRevision.objects.filter(action=RevisionAction.CORRECT).exists()


def test_an_incomplete_correction_form_is_refused_in_place(client, short_game):
    hand = short_game.hands.get(number=3)
    data = flip_high(hand)
    del data["expected_revision"]
    response = client.post(correct_url(short_game, 3), data, **HTMX)
    assert response.status_code == 422
    assert "This form is incomplete: reload the page" in response.content.decode()
    assert short_game.hands.get(number=3).revision == 0


def test_a_correction_that_changes_who_won_answers_with_the_whole_game(client):
    """Taking the winning points away reopens the game: the banner goes, the hand form comes
    back, so the answer is the whole `#game` (the light reply covers a correction that leaves
    the status and the winner as they were)."""
    game = GameFactory(west_yorkshire=True, won=True)
    client.get(game.scoring_link.get_absolute_url())
    hand = game.hands.get(number=game.decided_hand)
    data = correction(hand, high="B", low="B", jack="B-B", game="B")
    response = client.post(correct_url(game, hand.number), data, **HTMX)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#game" and response["HX-Reswap"] == "outerHTML"
    body = response.content.decode()
    assert 'id="game"' in body and 'id="hand-form"' in body and "winner-banner" not in body
    assert f"Hand {hand.number} corrected" in body
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS


def test_a_correction_of_a_won_game_that_keeps_its_winner_answers_light(client):
    """The winner and status stay: the corrected row and the deciding row, the scoreboard and the
    banner with the new score; no hand form (the game is over)."""
    game = GameFactory(west_yorkshire=True, won=True)
    client.get(game.scoring_link.get_absolute_url())
    decided = game.decided_hand
    first = game.hands.get(number=1)
    response = client.post(correct_url(game, 1), flip_high(first), **HTMX)

    assert response.status_code == 200
    assert "HX-Retarget" not in response
    body = response.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.WON and game.decided_hand == decided
    assert '<tr id="hand-1"' in body and f'<tr id="hand-{decided}"' in body
    assert 'id="banner" hx-swap-oob="true"' in body and "won" in body
    assert 'id="hand-form"' not in body


def test_without_javascript_a_correction_is_a_plain_post_and_its_message_is_shown_once(client):
    """No JavaScript: post, redirect, the game page says "Hand 2 corrected" once; after the next
    hand is recorded the page says only that."""
    game = GameFactory(hands=3)
    client.get(game.scoring_link.get_absolute_url())
    response = client.post(correct_url(game, 2), flip_high(game.hands.get(number=2)))
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    page = client.get(game.get_absolute_url()).content.decode()
    assert page.count("Hand 2 corrected; the game was re-scored.") == 1
    assert game.hands.get(number=2).revision == 1

    fresh = fields_from_facts(ruleset=game.rules, facts=None, dealer=game.next_dealer, number=4)
    hand = {key: str(value) for key, value in fresh.items()}
    hand |= {"turn_ups": "5H", "high": "A", "low": "B", "jack": "none", "game": "B"}
    game.refresh_from_db()
    hand["dealer"] = game.next_dealer
    assert (
        client.post(reverse("scoring:hand_record", kwargs={"pk": game.pk}), hand).status_code == 302
    )
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Hand 4 recorded." in page and "Hand 2 corrected" not in page


def test_a_correction_with_htmx_leaves_no_message_behind(client, short_game):
    """The light reply carries its notice; nothing is queued for a later page to repeat."""
    client.post(correct_url(short_game, 5), flip_high(short_game.hands.get(number=5)), **HTMX)
    page = client.get(short_game.get_absolute_url()).content.decode()
    assert "corrected" not in page


def test_a_stale_correction_answers_with_the_game_as_it_is(client, short_game):
    """Another phone corrected the hand first: 409 with the whole game and why, nothing saved."""
    hand = short_game.hands.get(number=4)
    data = flip_high(hand)
    assert client.post(correct_url(short_game, 4), data, **HTMX).status_code == 200
    stale = client.post(correct_url(short_game, 4), data | {"entry_key": str(uuid.uuid4())}, **HTMX)
    assert stale.status_code == 409
    assert stale["HX-Retarget"] == "#game"
    assert "changed on another phone" in stale.content.decode()
    assert short_game.hands.get(number=4).revision == 1
