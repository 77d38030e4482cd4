"""A captain enters a night's result from the paper score card on a 390×844 phone, counting
every tap: from *My fixtures* to the submitted result in at most 40 taps and the typed figures.
And the captain seats a table on the night and holds up its QR code full-screen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import FixtureResult, FixtureTable, ResultSubmission, TeamEntry
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory, PlayerFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import entered_teams, phone_signed_in
from tests.test_browser_pages import sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_TAPS = 40
#: A Yorkshire night of four tables as the card has it: (home pegs, away pegs) a table.
CARD = ((11, 7), (9, 11), (11, 4), (11, 10))


class Thumb:
    """Taps on the phone, counted."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.taps += 1

    def type_into(self, target: Locator, figure: int) -> None:
        self.tap(target)
        target.press_sequentially(str(figure))


def _captains_night() -> tuple[Any, Any]:
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=8)
    captain = UserFactory()
    TeamEntry.objects.filter(team=home).update(
        captain=PlayerFactory(name="Black Bull captain", user=captain)
    )
    return FixtureFactory(division=division, home=home, away=away), captain


def test_a_captain_enters_the_score_card_in_at_most_40_taps(phone: Page, live_server: Any) -> None:
    fixture, captain = _captains_night()
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + "/leagues/my-fixtures/")
    thumb = Thumb(phone)
    thumb.tap(phone.get_by_test_id(f"my-card-{fixture.pk}"))
    for board, (home, away) in enumerate(CARD, start=1):
        thumb.type_into(phone.locator(f"#id_t{board}_g1_home"), home)
        thumb.type_into(phone.locator(f"#id_t{board}_g1_away"), away)
    thumb.tap(phone.get_by_test_id("card-save"))
    expect(phone.get_by_test_id("submission-status")).to_have_attribute("data-status", "submitted")
    assert thumb.taps <= MOST_TAPS, thumb.taps
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_match_points, result.away_match_points) == (8, 2)
    assert ResultSubmission.objects.get(fixture=fixture).submitted_by == captain
    # Nothing scrolls sideways: the card fits the phone.
    assert sideways(phone) <= 0


def test_a_refused_card_keeps_every_figure_and_names_the_table(
    phone: Page, live_server: Any
) -> None:
    fixture, captain = _captains_night()
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/score-card/")
    thumb = Thumb(phone)
    for board, (home, away) in enumerate(((11, 7), (9, 10), (11, 4), (11, 10)), start=1):
        thumb.type_into(phone.locator(f"#id_t{board}_g1_home"), home)
        thumb.type_into(phone.locator(f"#id_t{board}_g1_away"), away)
    thumb.tap(phone.get_by_test_id("card-save"))
    expect(phone.get_by_test_id("card-errors")).to_contain_text(
        "Table 2, game 1 (9–10): neither side reached the target of 11"
    )
    expect(phone.locator("#id_t4_g1_away")).to_have_value("10")
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_the_captain_seats_a_table_and_shows_its_qr_full_screen(
    phone: Page, live_server: Any
) -> None:
    fixture, captain = _captains_night()
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/night/")
    table = phone.get_by_test_id("night-table-1")
    for side, seat, index in (("home", 1, 1), ("home", 2, 2), ("away", 1, 1), ("away", 2, 2)):
        table.locator(f"#id_t1-{side}_{seat}").select_option(index=index)
    phone.get_by_test_id("night-seat-1").tap()
    phone.get_by_test_id("night-qr-1").tap()
    qr = phone.get_by_test_id("table-qr-code").locator("svg")
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 0.9 * 390 - 1, box
    link = FixtureTable.objects.get(fixture=fixture, board=1).scoring_link
    expect(phone.get_by_test_id("table-qr-link")).to_have_attribute(
        "href", live_server.url + link.get_absolute_url()
    )


def test_long_team_names_wrap_above_the_score_boxes_on_a_phone(
    phone: Page, live_server: Any
) -> None:
    """On a 390px phone "Shoulder of Mutton A" and "Shoulder of Mutton B" were both cut to
    "Shoulder of Mut…" above the boxes: the names wrap, whole, and nothing scrolls sideways."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Shoulder of Mutton A", "Shoulder of Mutton B"])
    fixture = FixtureFactory(division=division, home=home, away=away)
    secretary = UserFactory()
    league.secretaries.add(secretary)
    phone_signed_in(phone, live_server, secretary)
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/score-card/")
    labels = phone.get_by_test_id("card-table-1").locator(".card-figure > span")
    expect(labels).to_have_text(["Shoulder of Mutton A", "Shoulder of Mutton B"])
    for label in labels.all():
        # Shown whole: nothing of the name is hidden past the label's edge.
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth"), label.inner_text()
    assert sideways(phone) <= 0


def test_a_table_seated_days_ahead_shows_its_qr_but_scores_nothing_till_the_match(
    phone: Page, live_server: Any
) -> None:
    """A captain seated a fixture eleven days ahead, opened a table's link on another phone and
    scored it, and the result counted before the match was played. Seating and the QR code
    still come first; the pages say when scoring opens, and the link begins no game."""
    import datetime

    from leagues.models import Fixture, TableGame

    fixture, captain = _captains_night()
    league = fixture.division.season.league
    Fixture.objects.filter(pk=fixture.pk).update(
        date=league.today() + datetime.timedelta(days=11), time=datetime.time(20, 30)
    )
    fixture.refresh_from_db()
    words = f"{fixture.starts_words()}: its tables are scored once it has started."
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/night/")
    expect(phone.get_by_test_id("night-scoring-opens")).to_contain_text(words)
    table = phone.get_by_test_id("night-table-1")
    for side, seat, index in (("home", 1, 1), ("home", 2, 2), ("away", 1, 1), ("away", 2, 2)):
        table.locator(f"#id_t1-{side}_{seat}").select_option(index=index)
    phone.get_by_test_id("night-seat-1").tap()
    expect(phone.locator(".messages")).to_contain_text("to score it once the match has started")
    phone.get_by_test_id("night-qr-1").tap()
    expect(phone.get_by_test_id("qr-scoring-opens")).to_have_text(words)
    url = phone.get_by_test_id("table-qr-link").get_attribute("href")
    assert url is not None

    scorer = phone.context.browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = scorer.new_page()
        other.goto(url)
        expect(other.get_by_test_id("link-waits")).to_have_text(words)
        expect(other.get_by_test_id("hand-form")).to_have_count(0)
    finally:
        scorer.close()
    assert not TableGame.objects.filter(table__fixture=fixture).exists()


def test_a_letter_typed_for_a_digit_is_refused_by_name_not_dropped(
    phone: Page, live_server: Any
) -> None:
    """Typed on a keyboard, "1o" for 10 was sent as 1 by the number box (which drops a letter
    as it is typed), and the card was saved as 11–1: the box keeps what was typed and the card
    is refused, naming the box and quoting what was typed, the figure left in it."""
    fixture, captain = _captains_night()
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/score-card/")
    for board, (home, away) in enumerate(((11, "1o"), (9, 11), (11, 8), (6, 11)), start=1):
        phone.locator(f"#id_t{board}_g1_home").fill(str(home))
        phone.locator(f"#id_t{board}_g1_away").press_sequentially(str(away))
    expect(phone.locator("#id_t1_g1_away")).to_have_value("1o")
    phone.get_by_test_id("card-save").tap()
    expect(phone.get_by_test_id("card-errors")).to_contain_text(
        "Table 1, game 1: Old Hall: give a whole number, not “1o”."
    )
    expect(phone.locator("#id_t1_g1_away")).to_have_value("1o")
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()
