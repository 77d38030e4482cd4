"""The league's tables and the secretary's fixture page on the narrowest phone (320×640) and at
390×844: every column of a table reads whole, in the box or by scrolling it; the division's
players fit; the fixture page's choices are a finger's size, each box beside its words."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import captained_teams, phone_signed_in
from tests.leagues.test_pages import build_league
from tests.test_browser_pages import PHONE, layout_problems, sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALLEST = {"width": 320, "height": 640}

#: What a table's scrolling box cuts or overlaps, each box scrolled to its far end: a cell's
#: words or marks running past the cell (over the next column's), a cell past the box's reach.
CUT = """() => {
  const problems = [];
  const folded = (node) => node.parentElement.closest('details:not([open]) > :not(summary)');
  for (const box of document.querySelectorAll('.table-wrap')) {
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect().left + box.clientLeft + box.clientWidth;
    for (const cell of box.querySelectorAll('th, td')) {
      const head = cell.closest('thead');
      if (!cell.offsetWidth || (head && getComputedStyle(head).position === 'absolute')) continue;
      const own = cell.getBoundingClientRect();
      const name = `${cell.className || cell.tagName} "${cell.textContent.trim().slice(0, 20)}"`;
      if (own.right > edge + 0.5) problems.push(`${name} ends ${own.right - edge} px past the box`);
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (!text.textContent.trim() || folded(text)) continue;
        const words = document.createRange();
        words.selectNodeContents(text);
        for (const rect of words.getClientRects()) {
          if (rect.width && (rect.right > own.right + 0.5 || rect.left < own.left - 0.5)) {
            problems.push(`${name}: "${text.textContent.trim()}" runs out of its cell`);
          }
        }
      }
    }
    box.scrollLeft = 0;
  }
  return problems;
}"""

#: How far each table's box scrolls sideways (0: it fits).
OVER = """(selector) => [...document.querySelectorAll(selector)].map(
  (table) => table.parentElement.scrollWidth - table.parentElement.clientWidth)"""


def smallest_phone(phone: Page) -> Page:
    phone.set_viewport_size(SMALLEST)
    return phone


def test_every_column_of_the_standings_reads_whole_on_the_smallest_phone(
    phone: Page, live_server: Any
) -> None:
    """A total with an adjustment in it ("-2*") ran its mark over the last five results beside
    it, on the division's table and on the league's home; every column, the last five's
    included, reads whole in its box or scrolled to."""
    played = build_league("yorkshire")
    page = smallest_phone(phone)
    for url in (played.division.get_absolute_url(), played.league.get_absolute_url()):
        page.goto(live_server.url + url)
        assert page.locator(".standings abbr.adjusted").count() >= 1
        assert page.evaluate(CUT) == [], url


def test_a_fixtures_figures_show_both_teams_on_the_smallest_phone(
    phone: Page, live_server: Any
) -> None:
    """The demo's Woodbrook Jacks v Laventille Hang Jack: the away team's column of the
    figures stood past the box's edge at 320 px, to be scrolled to. The two teams' columns now
    fit beside the figures' names (a name of longer words still scrolls, nothing cut)."""
    played = build_league(
        "trinidad", ("Woodbrook Jacks", "Laventille Hang Jack", "Belmont Aces", "Morvant Stars")
    )
    page = smallest_phone(phone)
    page.goto(live_server.url + played.fixture.get_absolute_url())
    assert page.evaluate(OVER, ".result-figures") == [0]
    assert page.evaluate(CUT) == []


def test_the_divisions_players_fit_a_phone(phone: Page, live_server: Any) -> None:
    """The division's players showed every figure in the row, a table that scrolled sideways
    by 346 px at 390 in a Trinidad league: as on a team's page, a phone shows games played,
    won and % beside the name, the rest under a tapped name; it fits 390 px and 320 px."""
    played = build_league("trinidad")
    url = live_server.url + reverse("leagues:division_players", args=[played.division.pk])
    phone.goto(url)
    assert layout_problems(phone, "the division's players") == []
    assert phone.evaluate(OVER, ".players") == [0]
    smallest_phone(phone)
    assert phone.evaluate(OVER, ".players") == [0]
    assert phone.evaluate(CUT) == []
    phone.locator(".players tbody summary").first.tap()
    expect(phone.locator(".players tbody .row-dl").first).to_contain_text("Highs")


#: Each radio button of the page: its size, and how far its middle stands from its words'.
RADIOS = """() => [...document.querySelectorAll('main input[type=radio]')].map((radio) => {
  const box = radio.getBoundingClientRect();
  const label = radio.closest('label');
  const words = document.createRange();
  words.setStartAfter(radio);
  words.setEndAfter(label.lastChild);
  const text = words.getBoundingClientRect();
  const target = label.getBoundingClientRect();
  return {name: radio.name, width: box.width, height: box.height, target: target.height,
          off: Math.abs((box.top + box.bottom) / 2 - (text.top + text.bottom) / 2)};
})"""


def test_the_fixture_pages_choices_are_a_fingers_size_beside_their_words(
    phone: Page, live_server: Any
) -> None:
    """The re-arrange's free nights and the walkover's "Awarded to" were 13 px radio buttons,
    each above and left of its words: now each is at least 24 px, its middle level with its
    words', in a label a thumb's height, as the secretary's other choices are."""
    played = build_league("yorkshire")
    secretary = UserFactory()
    played.league.secretaries.add(secretary)
    fixture = Fixture.objects.filter(division=played.division, status="scheduled").first()
    assert fixture is not None
    phone_signed_in(phone, live_server, secretary)
    for size in (PHONE, SMALLEST):
        phone.set_viewport_size(size)
        phone.goto(live_server.url + reverse("leagues:manage_fixture", args=[fixture.pk]))
        radios = phone.evaluate(RADIOS)
        assert {radio["name"] for radio in radios} == {"rearrange-night", "walkover-to"}
        for radio in radios:
            assert radio["width"] >= 24 and radio["height"] >= 24, radio
            assert radio["target"] >= 44, radio
            assert radio["off"] <= 2, radio


#: Each select of the night page's tables: how far it runs past its table's card (0 or less:
#: inside it).
SELECTS_PAST_CARD = """() => [...document.querySelectorAll('.night-table select')].map(
  (select) => select.getBoundingClientRect().right
    - select.closest('.night-table').getBoundingClientRect().right)"""


@pytest.mark.parametrize("width", [320, 390])
def test_a_long_name_wraps_and_its_selects_stay_inside_the_card(
    phone: Page, live_server: Any, width: int
) -> None:
    """ "Bartholomew Featherstonehaugh-Worthington" in a squad made the captains' night page
    438 px wide at 390 and at 320 (its table's selects ran past the card); a name of 120
    letters with no space, typed before such a name was refused, made the night page 1149 px
    wide and the team's 1482. The selects stay inside the card, the names wrap; and the box
    for a player not in the squad refuses a word that long, saying why."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=4)
    fixture = FixtureFactory(division=division, home=home, away=away)
    long_named = PlayerFactory(name="Bartholomew Featherstonehaugh-Worthington")
    one_word = PlayerFactory(name="B" * 120)
    RegistrationFactory(player=long_named, team=home, season=division.season)
    RegistrationFactory(player=one_word, team=away, season=division.season)
    phone_signed_in(phone, live_server, users["secretary"])
    phone.set_viewport_size({"width": width, "height": 844})
    night = live_server.url + reverse("leagues:fixture_night", args=[fixture.pk])
    shown = (home, away, long_named, one_word)
    for url in (night, *(live_server.url + page.get_absolute_url() for page in shown)):
        phone.goto(url)
        assert sideways(phone) <= 0, url
    phone.goto(night)
    assert max(phone.evaluate(SELECTS_PAST_CARD)) <= 0
    phone.locator("#add-home").fill("C" * 120)
    with phone.expect_navigation():
        phone.get_by_test_id("night-add-home").tap()
    refusal = phone.get_by_test_id("night-add").get_by_role("alert")
    expect(refusal).to_contain_text("is one word of 120 characters: a name's words are 30")
    assert not home.registrations.filter(player__name="C" * 120).exists()
    assert sideways(phone) <= 0


def test_the_standings_of_teams_with_five_results_fit_a_360_px_phone(
    phone: Page, live_server: Any
) -> None:
    """The README's promise: position, team, played, points and the last five fit 360 px. Once
    a team had five results (late in a season) the table was 342 px in a 331 px box: the last
    result was cut off, to be scrolled to inside the table."""
    from leagues.services.cards import CardTable, fixture_card_enter
    from leagues.services.confirmation import result_confirm
    from leagues.services.fixtures import fixtures_generate
    from tests.leagues.helpers import entered_teams
    from tests.leagues.test_pages import START

    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league, name="Premier")
    # Long words: the team column is as narrow as its longest word.
    entered_teams(division, ["Woolpack", "Shoulder of Mutton", "Black Bull", "Golden Fleece"])
    fixtures_generate(division=division, start=START, legs=2)
    # One secretary types each card, the other confirms it.
    typist, secretary = UserFactory(), UserFactory()
    league.secretaries.add(typist, secretary)
    fixtures = list(Fixture.objects.filter(division=division).order_by("date", "pk"))
    for number, fixture in enumerate(fixtures[:10]):
        scores = ((11, 7), (9, 11), (11, 4), (11, 10)) if number % 3 else ((7, 11),) * 4
        tables = [CardTable(board=b, games=(s,)) for b, s in enumerate(scores, start=1)]
        result_confirm(
            submission=fixture_card_enter(fixture=fixture, tables=tables, by=typist),
            by=secretary,
        )
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.goto(live_server.url + division.get_absolute_url())
    assert phone.locator(".standings tbody tr").first.locator(".mark").count() == 5
    assert phone.evaluate(OVER, ".standings") == [0]
    assert phone.evaluate(CUT) == []
