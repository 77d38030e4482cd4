"""A kick that wins the game before a card is played (docs/rules.md section 3) is recorded as it
happened: the hand form asks no high, low, jack or game, the sheet shows the kick and the
winner and no invented play facts, and play facts tapped anyway are shown as not counted."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from scoring.forms.facts import facts_from_fields
from scoring.models import GameStatus
from scoring.rules import PRESETS
from tests.factories.scoring import GameFactory, record_hands
from tests.scoring.test_scoring_views import hand_post, open_link, record_url

pytestmark = pytest.mark.django_db


def _row(page: str, number: int) -> str:
    row = re.search(rf'<tr id="hand-{number}".*?</tr>', page, re.S)
    assert row is not None
    return row.group(0)


def banner_text(page: str) -> str:
    """The winner banner's words, as read."""
    banner = re.search(r'data-testid="winner-banner">(.*?)</section>', page, re.S)
    assert banner is not None
    return re.sub(r"\s+", " ", html.unescape(banner.group(1)))


def test_a_turned_jack_that_reaches_the_target_records_with_no_play_facts(client):
    """12–5, the dealer's side turns up J♠ (kick 3): Record hand with nothing else tapped."""
    game = GameFactory(start_scores={"A": 12, "B": 5})
    open_link(client, game)
    response = client.post(record_url(game), hand_post(game, dealer="A", turn_ups="JS"))
    assert response.status_code == 302, response.content.decode()[:3000]
    hand = game.hands.get()
    assert hand.facts == {"dealer": "A", "turn_ups": ["JS"], "beg": "stand"}
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_category) == (GameStatus.WON, "A", "kick")
    assert {side.label: side.score for side in game.sides.all()} == {"A": 15, "B": 5}
    page = client.get(game.get_absolute_url()).content.decode()
    row = _row(page, 1)
    assert "Smith &amp; Jones kick J♠ +3" in row
    assert "tied" not in row and "nobody" not in row
    assert not re.search(r"\b(high|low|jack|game) \+", row.replace("kick J♠", ""))
    assert "on hand 1 on the kick" in banner_text(page)
    assert "before a card was played" in banner_text(page)


def test_play_facts_tapped_anyway_are_shown_not_counted(client):
    """A scorer who taps high (and who made game) after the kick won: accepted, not counted."""
    game = GameFactory(start_scores={"A": 12, "B": 5})
    open_link(client, game)
    response = client.post(
        record_url(game), hand_post(game, dealer="A", turn_ups="JS", high="B", game="B")
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    awards = [(a.side, a.category, a.counted) for a in game.hands.get().awards.all()]
    assert awards == [("A", "kick", True), ("B", "high", False), ("B", "game", False)]
    row = _row(client.get(game.get_absolute_url()).content.decode(), 1)
    assert re.search(r"Patel &amp; Brown high \+1<span[^>]*> \(not counted\)", row)


def test_a_kick_short_of_the_target_still_asks_the_play(client):
    game = GameFactory(start_scores={"A": 10, "B": 5})
    open_link(client, game)
    response = client.post(record_url(game), hand_post(game, dealer="A", turn_ups="JS"))
    assert response.status_code == 422
    body = response.content.decode()
    for question in ("high", "low", "jack", "game"):
        assert re.search(rf'id="errors-{question}"', body), question
    assert game.hands.count() == 0


def test_the_kick_counts_for_the_dealer_only():
    """The form asks the engine with the dealer tapped: the other side's kick wins nothing."""
    ruleset = PRESETS["trinidad"]
    data = {"dealer": "B", "turn_ups": "JS", "beg": "stand", "outcome": "played"}
    facts, errors = facts_from_fields(
        data, ruleset=ruleset, labels=["A", "B"], scores={"A": 13, "B": 0}
    )
    assert {field for field, _ in errors} == {"high", "low", "jack", "game"}
    facts, errors = facts_from_fields(
        data, ruleset=ruleset, labels=["A", "B"], scores={"A": 0, "B": 11}
    )
    assert errors == [] and facts == {"dealer": "B", "turn_ups": ["JS"], "beg": "stand"}


def _fix_hand_2_to_a_turned_jack(client, start: dict[str, int], a_takes_hand_2: bool):
    """Two hands recorded (B takes hand 1's high, low and game; hand 2's go to A or B), then
    hand 2 corrected to A dealing and turning up J♠ with nothing else tapped."""
    game = GameFactory(start_scores=start)
    taker = "A" if a_takes_hand_2 else "B"
    record_hands(
        game,
        [{"dealer": "A", "turn_ups": ["4H"], "high": "B", "low": "B", "jack": None, "game": "B"},
         {"dealer": "B", "turn_ups": ["4S"], "high": taker, "low": taker, "jack": None,
          "game": taker}],
    )  # fmt: skip
    open_link(client, game)
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 2})
    data = hand_post(game, 2, dealer="A", turn_ups="JS") | {"expected_revision": "0"}
    return game, client.post(url, data)


def test_a_kick_win_can_be_corrected_without_play_facts(client):
    """Fix a hand into one won at the deal (11 + 3): the correction asks no play facts either."""
    game, response = _fix_hand_2_to_a_turned_jack(client, {"A": 11, "B": 5}, False)
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand) == (GameStatus.WON, "A", 2)
    assert game.hands.get(number=2).facts == {"dealer": "A", "turn_ups": ["JS"], "beg": "stand"}


def test_a_correction_asks_from_the_score_before_its_hand(client):
    """10–5, then A took hand 2's high, low and game (13–8): hand 2 fixed to A turning up J♠
    gives 13, not the target, so the play is asked (the score now, 13, would have said 16)."""
    game, response = _fix_hand_2_to_a_turned_jack(client, {"A": 10, "B": 5}, True)
    assert response.status_code == 422
    assert re.search(r'id="errors-high"', response.content.decode())
    assert game.hands.get(number=2).revision == 0
