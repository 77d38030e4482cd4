"""The public leagues pages on a phone (390×844): every link a thumb needs is a 44 px target."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from leagues.models import Withdrawal
from leagues.services.withdrawal import team_withdraw
from tests.leagues.test_pages import build_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def small_targets(page: Page, selector: str) -> list[str]:
    """Shown links matching `selector` that are less than 44 px wide or tall."""
    found = [link for link in page.locator(selector).all() if link.is_visible()]
    assert found, f"nothing matches {selector}"
    small = []
    for link in found:
        box = link.bounding_box()
        if box is None or box["width"] < 44 or box["height"] < 44:
            small.append(f"{link.inner_text()!r} {box}")
    return small


def test_standings_sort_links_are_44px_targets(phone: Page, live_server: Any) -> None:
    """One-letter columns (P, W, D, L) sort from a 44 px link, not an 11 px one."""
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.division.get_absolute_url())
    assert small_targets(phone, ".standings thead th a") == []


#: Each sorted header of the standings: (its words, the gap before its sort mark, the gap from
#: the mark to the next header's words), in px. The mark is the link's ::after: its place is
#: the end of the link's words, then the gap between flex items, its margin and its padding.
SORT_MARK_GAPS = """() => [...document.querySelectorAll('.standings thead th')].flatMap((th) => {
  const link = th.querySelector('a');
  const mark = link && getComputedStyle(link, '::after');
  if (!mark || mark.content === 'none') return [];
  const px = (value) => parseFloat(value) || 0;
  const words = document.createRange();
  words.selectNodeContents(link);
  const before = px(getComputedStyle(link).columnGap) + px(mark.marginLeft) + px(mark.paddingLeft);
  const markWidth = px(mark.width) + px(mark.paddingRight);
  const markEnd = words.getBoundingClientRect().right + before + markWidth;
  const next = th.nextElementSibling;
  const following = document.createRange();
  following.selectNodeContents(next.querySelector('a') || next);
  return [[link.textContent, before, following.getBoundingClientRect().left - markEnd]];
})"""


def test_standings_sort_marks_stand_apart_from_the_headers(phone: Page, live_server: Any) -> None:
    """The sort mark stands apart: "Pos ▲ Team", never "Pos▲Team"."""
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.division.get_absolute_url())
    gaps = phone.evaluate(SORT_MARK_GAPS)
    assert [words for words, _, _ in gaps] == ["Pos"]
    assert all(before >= 3 and after >= 6 for _, before, after in gaps), gaps


def test_league_home_result_links_are_44px_targets(phone: Page, live_server: Any) -> None:
    """The latest results' team names and scores are 44 px targets (they were 26 px tall)."""
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.league.get_absolute_url())
    assert small_targets(phone, ".fixture-line .teams a") == []


def test_fixture_heading_team_links_are_44px_targets(phone: Page, live_server: Any) -> None:
    played = build_league("yorkshire")
    phone.goto(live_server.url + played.fixture.get_absolute_url())
    assert small_targets(phone, ".match-head a") == []


#: How many of a standings row's "(withdrawn)" marks show, by team.
WITHDRAWN_SHOWN = """() => Object.fromEntries(
  [...document.querySelectorAll('.standings tbody tr')].map((row) => [
    row.querySelector('td:nth-child(2)').textContent.trim().split(' ')[0],
    [...row.querySelectorAll('.withdrawn')].filter((mark) => mark.checkVisibility()).length,
  ]))"""


def test_a_teams_marks_show_once_by_its_name(phone: Page, live_server: Any) -> None:
    """On a phone the name is the tapped summary, with its marks; on a wide screen the link,
    with its marks: either way a withdrawn team reads "(withdrawn)" once, not twice."""
    played = build_league("yorkshire", names=("Bull", "Hall", "Mutton", "Crown"))
    crown = played.division.entries.get(team=played.teams[-1])
    team_withdraw(entry=crown, withdrawal=Withdrawal.STAND, reason="The pub closed")
    phone.goto(live_server.url + played.division.get_absolute_url())
    assert phone.evaluate(WITHDRAWN_SHOWN)["Crown"] == 1
    phone.set_viewport_size({"width": 1280, "height": 900})
    phone.reload()
    assert phone.evaluate(WITHDRAWN_SHOWN)["Crown"] == 1
