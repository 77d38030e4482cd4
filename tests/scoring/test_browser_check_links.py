"""A refused hand's "Nothing was saved. Check: …" links on the scorer's phone (390×844): each
takes the scorer to its question below the sticky score bar, not under it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.factories.scoring import GameFactory
from tests.scoring.test_browser import PATEL, SMITH, Scorer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hidden_under_the_bar(page: Page, anchor: str) -> float:
    """How far the link's target starts above the score bar's bottom edge (0 if below it)."""
    return float(
        page.evaluate(
            """anchor => {
                const bar = document.querySelector('.scoreboard').getBoundingClientRect();
                const target = document.getElementById(anchor).getBoundingClientRect();
                return Math.max(0, bar.bottom - target.top);
            }""",
            anchor,
        )
    )


def test_each_check_link_shows_its_question_below_the_score_bar(
    phone: Page, live_server: Any
) -> None:
    """13–10 in Trinidad to 14, Patel & Brown begged and were given one, which would give them
    the target: refused. Tapping "Beg" in the summary showed the beg choices under the score
    bar; every link's question now starts below the bar, the summary's own start too."""
    scorer = Scorer(phone, live_server.url)
    game = GameFactory(start_scores={"A": 10, "B": 13})
    scorer.scan(game)
    scorer.enter(card="4H", beg="Beg → take one", high=SMITH, low=PATEL, jack="Not out", game=SMITH)
    response = scorer.record()
    assert response is not None and response.status == 422
    summary = phone.get_by_test_id("error-summary")
    expect(summary).to_contain_text("Nothing was saved")
    links = summary.get_by_role("link")
    names = links.all_inner_texts()
    assert "Beg" in names, names
    for name in names:
        link = summary.get_by_role("link", name=name, exact=True)
        anchor = link.get_attribute("href").lstrip("#")
        phone.evaluate("window.scrollTo(0, 0)")
        link.tap()
        phone.wait_for_function(f"location.hash === '#{anchor}'")
        phone.wait_for_timeout(100)
        assert hidden_under_the_bar(phone, anchor) == 0, name
    assert game.hands.count() == 0
