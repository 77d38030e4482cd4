"""The score card with no signal at Submit, on a 390×844 phone: the figures stay in the boxes
and on the phone, the captain is told that nothing was sent and to tap Submit again; the card
opened again has them back, until the server has taken the card; and a card is taken once,
whatever the taps and lost replies."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from leagues.models import FixtureResult, ResultSubmission
from leagues.services.cards import CardTable, fixture_card_enter
from tests.leagues.helpers import phone_signed_in, squad
from tests.leagues.test_browser_score_card import CARD, _captains_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEY = "allfours:score-card:{}"


def _fill(phone: Page, fixture: Any) -> None:
    """The four tables' pegs, and table 1's home pair."""
    for board, (home, away) in enumerate(CARD, start=1):
        phone.locator(f"#id_t{board}_g1_home").fill(str(home))
        phone.locator(f"#id_t{board}_g1_away").fill(str(away))
    phone.get_by_test_id("card-table-1").locator("summary").tap()
    ours = squad(fixture.home, fixture.division.season)
    phone.locator("#id_t1_home_1").select_option(str(ours[0].pk))
    phone.locator("#id_t1_home_2").select_option(str(ours[1].pk))


def _figures_in(phone: Page, fixture: Any) -> None:
    for board, (home, away) in enumerate(CARD, start=1):
        expect(phone.locator(f"#id_t{board}_g1_home")).to_have_value(str(home))
        expect(phone.locator(f"#id_t{board}_g1_away")).to_have_value(str(away))
    ours = squad(fixture.home, fixture.division.season)
    expect(phone.locator("#id_t1_home_2")).to_have_value(str(ours[1].pk))


def _kept(phone: Page, fixture: Any) -> bool:
    return phone.evaluate(f"localStorage.getItem({KEY.format(fixture.pk)!r}) !== null")


def _typed(phone: Page, live_server: Any, *, opened: str = "card") -> Any:
    """A captain's card typed in: (the fixture, its captain). ``opened``: from the card's
    address, or from *My fixtures*."""
    fixture, captain = _captains_night()
    phone_signed_in(phone, live_server, captain)
    if opened == "my fixtures":
        phone.goto(live_server.url + "/leagues/my-fixtures/")
        phone.get_by_test_id(f"my-card-{fixture.pk}").tap()
    else:
        phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/score-card/")
    _fill(phone, fixture)
    return fixture, captain


def _no_signal_at_submit(phone: Page, live_server: Any, *, opened: str = "card") -> Any:
    """The card typed in (``_typed``), and Submit tapped with no signal."""
    fixture, captain = _typed(phone, live_server, opened=opened)
    phone.context.set_offline(True)
    phone.get_by_test_id("card-save").tap()
    expect(phone.get_by_test_id("card-keep-note")).to_contain_text("Nothing was sent")
    return fixture, captain


def _submitted(phone: Page) -> None:
    expect(phone.get_by_test_id("submission-status")).to_have_attribute("data-status", "submitted")


def test_no_signal_at_submit_keeps_the_card_and_says_to_submit_again(
    phone: Page, live_server: Any
) -> None:
    fixture, _captain = _no_signal_at_submit(phone, live_server)
    note = phone.get_by_test_id("card-keep-note")
    expect(note).to_contain_text("No signal: the card did not reach the server.")
    expect(note).to_contain_text("Tap “Submit the result” again once there is signal.")
    expect(note).to_be_in_viewport()
    _figures_in(phone, fixture)
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()
    phone.context.set_offline(False)
    phone.get_by_test_id("card-save").tap()
    _submitted(phone)
    expect(phone.locator(".messages")).to_contain_text("Result from the score card submitted")
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_match_points, result.away_match_points) == (8, 2)
    assert not _kept(phone, fixture)  # taken: nothing left on the phone to put back


def test_the_card_opened_again_after_no_signal_has_the_figures_back(
    phone: Page, live_server: Any
) -> None:
    """The tester's steps: no signal at Submit, back to My fixtures, the card opened again."""
    fixture, _captain = _no_signal_at_submit(phone, live_server, opened="my fixtures")
    phone.context.set_offline(False)
    phone.goto(live_server.url + "/leagues/my-fixtures/")
    phone.get_by_test_id(f"my-card-{fixture.pk}").tap()
    _figures_in(phone, fixture)
    expect(phone.get_by_test_id("card-keep-note")).to_contain_text(
        "The figures typed on this phone are back in the boxes: the card is not sent yet."
    )
    expect(phone.locator("#id_t1_home_2")).to_be_visible()  # its pairs opened to show them
    phone.get_by_test_id("card-save").tap()
    _submitted(phone)
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1


def test_the_card_kept_is_never_put_back_over_a_card_the_server_has_taken(
    phone: Page, live_server: Any
) -> None:
    fixture, captain = _no_signal_at_submit(phone, live_server)
    phone.context.set_offline(False)
    assert _kept(phone, fixture)
    # Meanwhile the card reached the server another way (the same captain on another phone).
    fixture_card_enter(
        fixture=fixture,
        tables=[CardTable(board=b, games=((h, a),)) for b, (h, a) in enumerate(CARD, start=1)],
        by=captain,
    )
    phone.reload()
    expect(phone.get_by_test_id("card-closed")).to_contain_text("You submitted this result")
    assert not _kept(phone, fixture)


def test_a_double_tap_and_a_retry_after_a_lost_reply_submit_the_card_once(
    phone: Page, live_server: Any
) -> None:
    fixture, _captain = _typed(phone, live_server)
    # The server takes the card, and its reply never reaches the phone.
    lost: list[str] = []

    def lose_the_reply(route: Any) -> None:
        route.fetch()
        lost.append(route.request.url)
        route.abort("internetdisconnected")

    phone.route("**/score-card/", lambda route: lose_the_reply(route), times=1)
    save = phone.get_by_test_id("card-save")
    save.dblclick()
    expect(phone.get_by_test_id("card-keep-note")).to_contain_text("Nothing was sent")
    assert len(lost) == 1  # the second tap sent nothing
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1
    save.tap()  # again: the server says the card is in, and takes nothing more
    expect(phone.get_by_test_id("card-closed")).to_contain_text("You submitted this result")
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1
    assert not _kept(phone, fixture)
