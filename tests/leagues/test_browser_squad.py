"""A team's squad on a phone (390×844): the list is in two columns, and each player stays whole
in one of them, "(captain)" beside the captain's name on the secretary's team page; a pasted
list's refusal names the line as the box then shows it, and the name."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Player, TeamEntry
from leagues.services.registrations import player_register
from tests.factories.leagues import (
    DivisionFactory,
    LeagueFactory,
    PlayerFactory,
    TeamEntryFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import captained_teams, phone_signed_in
from tests.test_browser_pages import sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Where each part of each squad line (a name, "(captain)") sits: left of the list's middle or
#: right of it, that is in the first column or the second.
COLUMNS = """() => [...document.querySelectorAll('.squad li')].map(li => {
    const list = li.closest('.squad').getBoundingClientRect();
    const middle = list.left + list.width / 2;
    return [li.textContent.trim(), [...li.children].map(
        part => part.getBoundingClientRect().left < middle ? 1 : 2)];
})"""


def test_the_captain_stays_beside_their_name_in_the_squads_two_columns(
    phone: Page, live_server: Any
) -> None:
    """The squad's two columns broke a line between them: the captain's name ended the first
    column and its "(captain)" began the second, above another player's name."""
    division = DivisionFactory()
    entry = TeamEntryFactory(division=division, team__name="Wheatsheaf")
    names = [
        "Frank Ackroyd",
        "Linda Featherstonehaugh",
        "Ted Hartley",
        "Winnie Blackburn",
        "Zachary Oldroyd-Whitworth",
    ]
    players = [PlayerFactory(name=name) for name in names]
    for player in players:
        player_register(player=player, team=entry.team, season=division.season)
    secretary = UserFactory()
    division.season.league.secretaries.add(secretary)
    phone_signed_in(phone, live_server, secretary)
    page = (
        live_server.url
        + reverse("leagues:manage_team", args=[division.season.league.slug, entry.team.pk])
        + f"?season={division.season.pk}"
    )

    # Wherever the columns break, the captain's line stays whole.
    for captain in players:
        TeamEntry.objects.filter(pk=entry.pk).update(captain=captain)
        phone.goto(page)
        lines = phone.evaluate(COLUMNS)
        assert [text for text, _ in lines] == [
            f"{name} (captain)" if name == captain.name else name for name in names
        ]
        split = [text for text, columns in lines if len(set(columns)) > 1]
        assert split == [], "a squad line broken between the two columns"
        assert {columns[0] for _, columns in lines} == {1, 2}, "the squad is in two columns"


def test_a_new_teams_page_opens_on_its_squad_on_a_phone(phone: Page, live_server: Any) -> None:
    """A team just added, "Register its players next": on a phone its page opened on the
    division, an empty captain's list and the withdrawal's red button, the squad's "Register a
    squad" some 1,700 px down. It opens on the squad, its button on the first screen, then the
    captain's list (saying the squad comes first), the withdrawal last; and it fits the phone."""
    division = DivisionFactory()
    entry = TeamEntryFactory(division=division, team__name="Commercial")
    secretary = UserFactory()
    division.season.league.secretaries.add(secretary)
    phone_signed_in(phone, live_server, secretary)
    phone.goto(
        live_server.url
        + reverse("leagues:manage_team", args=[division.season.league.slug, entry.team.pk])
        + f"?season={division.season.pk}"
    )
    squad = phone.get_by_role("link", name="Register a squad", exact=True)
    captain = phone.locator("#id_captain")
    withdraw = phone.get_by_role("button", name="Withdraw Commercial from")
    tops = [part.bounding_box()["y"] for part in (squad, captain, withdraw)]  # type: ignore[index]
    assert tops == sorted(tops)
    assert tops[0] + squad.bounding_box()["height"] <= 844  # type: ignore[index]
    assert phone.get_by_text(
        "Register the squad first: the captain is one of its players"
    ).is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_pasted_line_too_long_is_refused_by_its_line_and_name(
    phone: Page, live_server: Any
) -> None:
    """The refusal named neither the line nor all of the name: a secretary pastes names with
    blank lines between them and a line of several names, and is told which line (as the box
    shows the names again, one a line) and what is on it, on the phone's screen."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, _away, users = captained_teams(division, players=2)
    phone_signed_in(phone, live_server, users["secretary"])
    players = Player.objects.count()
    url = reverse("leagues:manage_squad", args=[league.slug, home.pk])
    phone.goto(f"{live_server.url}{url}?season={division.season_id}")
    several = "Fred Wolstenholme, Arthur Hirst, Edna Sykes, Linda Dyson, Walter Ackroyd, " * 2
    several = several.rstrip(", ")
    box = phone.locator("textarea[name=names]")
    box.fill(f"Mary Firth\n\n\nJoe Senior\n\n{several}\nSam Firth")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Register them").tap()
    refusal = phone.locator(".errorlist").first
    expect(refusal).to_have_text(
        f"Line 3: “{several}” is {len(several)} characters long: a player's name has at most "
        "120. Is it more than one name? Put each on its own line."
    )
    assert box.input_value() == f"Mary Firth\nJoe Senior\n{several}\nSam Firth"
    assert sideways(phone) <= 0
    assert Player.objects.count() == players
