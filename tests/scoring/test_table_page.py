"""The table page beats paper: taps counted for each kind of hand at 390×844, in a Trinidad and a
West Yorkshire game, and every control of a plain hand on screen at hands 1, 20 and 60 (games
built through the services, not by tapping)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import GAME, HIGH, JACK, LOW, PATEL, PHONE, SMITH, Scorer, hangs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scorer(phone: Page, live_server: Any) -> Scorer:
    return Scorer(phone, live_server.url)


def _facts(game: Game) -> dict[str, Any]:
    return game.hands.order_by("-number").first().facts  # type: ignore[union-attr]


def test_trinidad_hands_by_their_taps(scorer: Scorer) -> None:
    """Plain 6 taps (rank, suit, high, low, jack, game); hang jack 6; take one and a run 8;
    a penalty 8: each recorded with the facts tapped."""
    game = GameFactory(overrides={"target": 61})
    scorer.scan(game)
    expect(scorer.page.get_by_test_id("kick-hint")).to_be_hidden()

    plain = scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=SMITH, game=PATEL)
    assert plain <= 6, plain

    scorer.taps = 0
    scorer.card("JS")  # the kick shows before the hand is saved
    expect(scorer.page.get_by_test_id("kick-hint")).to_have_text(
        f"J♠ turned: {PATEL} (dealing) +3 kick"
    )
    scorer.enter(high=SMITH, low=SMITH, jack="Not out", game=SMITH)
    scorer.record()
    expect(scorer.page.get_by_text("Hand 2 recorded.")).to_be_visible()
    assert scorer.taps <= 6

    hang = scorer.play(3, card="5C", high=SMITH, low=SMITH, jack=hangs(SMITH, PATEL), game=SMITH)
    assert hang <= 6, hang
    assert _facts(game)["jack"] == {"held_by": "B", "won_by": "A"}

    take_one = scorer.play(
        4, card="3D", beg="Beg → take one", high=PATEL, low=PATEL, jack=PATEL, game=PATEL
    )
    assert take_one <= 8, take_one
    assert _facts(game)["beg"] == "take_one"

    scorer.taps = 0
    scorer.card("7H")
    scorer.card("9S")  # a second card: the beg becomes "run the pack" by itself
    scorer.enter(high=SMITH, low=PATEL, jack=SMITH, game=PATEL)
    scorer.record()
    expect(scorer.page.get_by_text("Hand 5 recorded.")).to_be_visible()
    assert scorer.taps <= 8
    assert _facts(game)["beg"] == "run" and _facts(game)["turn_ups"] == ["7H", "9S"]

    scorer.taps = 0
    scorer.card("8C")
    scorer.enter(high=SMITH, low=PATEL, jack=SMITH)
    scorer.tap(scorer.page.get_by_test_id("penalties-toggle"))
    scorer.tap(scorer.page.get_by_role("button", name=f"Renege — {PATEL}", exact=True))
    expect(scorer.page.get_by_test_id("called-penalties")).to_contain_text(
        f"{PATEL} renege → {SMITH} +1"
    )
    scorer.pending_game = PATEL
    scorer.record()
    expect(scorer.page.get_by_text("Hand 6 recorded.")).to_be_visible()
    assert scorer.taps <= 8, scorer.taps
    assert _facts(game)["penalties"] == [{"kind": "renege", "side": "B"}]
    row = scorer.sheet_row(6)
    expect(row).to_contain_text(f"{PATEL} renege → {SMITH} +1")
    # A renege forfeits the offender's game: struck through on the sheet.
    expect(row.locator(".award.not-counted")).to_contain_text("game")
    assert all(w >= 44 and h >= 44 for _, w, h in scorer.targets), "tap targets under 44 px"


def test_west_yorkshire_hands_by_their_taps(scorer: Scorer) -> None:
    """Pitch: a plain hand is 4 taps (high, low, jack, game); a penalty 6; an early look is a
    penalty this variant has, a kick is not."""
    game = GameFactory(west_yorkshire=True, overrides={"target": 61})
    scorer.scan(game)
    expect(scorer.page.get_by_test_id("card-picker")).to_have_count(0)
    plain = scorer.play(1, high=SMITH, low=PATEL, jack=SMITH, game=PATEL)
    assert plain <= 5, plain
    wins = scorer.play(2, high=PATEL, low=PATEL, jack=f"{PATEL} wins {SMITH}' jack", game=SMITH)
    assert wins <= 5, wins

    scorer.taps = 0
    scorer.enter(high=SMITH, low=SMITH, jack=SMITH)
    scorer.tap(scorer.page.get_by_test_id("penalties-toggle"))
    scorer.tap(scorer.page.get_by_role("button", name=f"Early look — {PATEL}", exact=True))
    scorer.pending_game = SMITH
    scorer.record()
    expect(scorer.page.get_by_text("Hand 3 recorded.")).to_be_visible()
    assert scorer.taps <= 6, scorer.taps
    expect(scorer.sheet_row(3)).to_contain_text(f"{PATEL} early look → {SMITH} +4")
    scorer.page.get_by_test_id("penalties-toggle").tap()
    expect(scorer.page.get_by_role("button", name=f"Under-trump — {SMITH}")).to_have_count(1)
    expect(scorer.page.get_by_role("button", name=re.compile("Renege holding"))).to_have_count(2)


def _plain_controls(page: Page, *, turn_up: bool) -> list[Any]:
    controls = [page.get_by_test_id("scoreboard")]
    if turn_up:
        controls += [page.get_by_test_id(f"rank-{rank}") for rank in ("A", "8", "2")]
        controls += [page.get_by_test_id(f"suit-{suit}") for suit in "SHDC"]
        controls.append(page.get_by_test_id("turn-ups"))
    for legend in (HIGH, LOW, JACK):
        group = page.get_by_role("group", name=legend, exact=True)
        controls += [radio.locator("xpath=..") for radio in group.get_by_role("radio").all()]
    controls += page.get_by_role("group", name=GAME, exact=True).get_by_role("button").all()
    controls.append(page.get_by_role("button", name="Record hand", exact=True))
    return controls


@pytest.mark.parametrize("variant", ["trinidad", "west_yorkshire"])
def test_every_control_of_a_plain_hand_is_on_screen_at_hands_1_20_and_60(
    scorer: Scorer, variant: str
) -> None:
    for hands in (0, 19, 59):
        game = GameFactory(variant=variant, hands=hands, overrides={"target": 500})
        scorer.scan(game)
        expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text(f"Hand {hands + 1}")
        controls = _plain_controls(scorer.page, turn_up=variant == "trinidad")
        assert len(controls) >= 12
        for control in controls:
            box = control.bounding_box()
            assert box is not None, control
            inside = box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            inside = inside and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
            assert inside, (hands + 1, str(control), box)
