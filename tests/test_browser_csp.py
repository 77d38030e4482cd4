"""No Content-Security-Policy violation where a scorer and a league's followers go, in headless
Chromium at 390×844: the game page, a hand recorded, a correction saved, an undo, the games
list; a league's home, standings, fixtures (a league night's and a team's), a team's page, a
fixture's page and the players' figures.

The pages' policy allows only the site's own scripts and stylesheets (config/settings.py): no
inline ``<style>`` (htmx would add one for its request indicator were it not told not to, in
base.html), no ``style=""`` attribute, no inline script. A violation is caught three ways: the
browser's console message, an uncaught page error, and the document's
``securitypolicyviolation`` event, which names the directive and the source whatever words a
browser's console message uses. Each step is checked on its own, so a failure names it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
)
from tests.factories.scoring import GameFactory
from tests.leagues.helpers import entered_teams
from tests.scoring.test_browser import HIGH, NOT_OUT, PATEL, SMITH, Scorer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Run in every document before its own scripts: keeps what the policy refused.
LISTEN = """window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(
  `${e.violatedDirective} refused ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`
  + ` ${e.sample}`), true);"""


class Violations:
    """What a page's policy refused, or its scripts failed at, since the last look."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[str] = []
        page.add_init_script(script=LISTEN)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.seen.append(f"uncaught: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        text = message.text
        if message.type == "error" or "Content Security Policy" in text:
            self.seen.append(f"console {message.type}: {text}")

    def check(self, where: str) -> None:
        self.page.wait_for_timeout(100)  # a violation's event is queued after the swap
        refused = self.page.evaluate(
            "() => { const v = window.__csp; window.__csp = []; return v; }"
        )
        found, self.seen = [*self.seen, *refused], []
        assert found == [], f"{where}: {found}"


def test_the_scorer_meets_no_csp_violation(phone: Page, live_server: Any) -> None:
    """A hand recorded, corrected and undone in place, as a scorer does at the table."""
    game = GameFactory(hands=2, overrides={"target": 61})  # a score sheet and a chart
    scorer = Scorer(phone, live_server.url)
    violations = Violations(phone)

    scorer.scan(game)
    violations.check("the game page")

    scorer.play(3, card="4H", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    violations.check("a hand recorded")

    phone.get_by_test_id("fix-last").tap()
    scorer.settled()
    expect(phone.get_by_test_id("correct-form")).to_be_visible()
    violations.check("a correction opened")
    scorer.choose(HIGH, PATEL)
    scorer.record(button="Save correction")
    expect(phone.get_by_text("Hand 3 corrected")).to_be_visible()
    violations.check("a correction saved")

    scorer.undo(3)
    expect(scorer.sheet_row(3)).to_have_count(0)
    violations.check("an undo")

    scorer.play(3, card="5C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    violations.check("the next hand")

    scorer.open(reverse("scoring:game_list"))
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    violations.check("the games list")


def test_a_leagues_pages_meet_no_csp_violation(phone: Page, live_server: Any) -> None:
    league = LeagueFactory(name="Spen Valley League")
    division = DivisionFactory(season__league=league)
    anchor, crown, drop_inn = entered_teams(division, ["Anchor", "Crown", "Drop Inn"], players=2)
    night = datetime.date(2025, 9, 9)
    played = FixtureFactory(division=division, home=anchor, away=crown, date=night)
    FixtureResultFactory(fixture=played, home_win=True, home_pegs=40, away_pegs=30)
    FixtureFactory(
        division=division, home=drop_inn, away=anchor, date=night + datetime.timedelta(days=7)
    )
    violations = Violations(phone)
    fixtures = reverse("leagues:division_fixtures", args=[division.pk])
    for where, path in (
        ("the leagues", reverse("leagues:league_list")),
        ("the league's home", league.get_absolute_url()),
        ("the standings", division.get_absolute_url()),
        ("a league night's fixtures", f"{fixtures}?week={night.isoformat()}"),
        ("a team's fixtures", f"{fixtures}?team={anchor.pk}"),
        ("the players", reverse("leagues:division_players", args=[division.pk])),
        ("a team's page", anchor.get_absolute_url()),
        ("a fixture's page", played.get_absolute_url()),
    ):
        response = phone.goto(live_server.url + path)
        assert response is not None and response.status == 200, (where, path)
        violations.check(where)
