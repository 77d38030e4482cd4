"""The score card with no signal at Submit, on a 390×844 phone: the figures stay in the boxes
and on the phone, the captain is told that nothing was sent and to tap Submit again; the card
opened again has them back, until the server has taken the card; and a card is taken once,
whatever the taps and lost replies."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from leagues.models import FixtureResult, ResultSubmission, TeamEntry
from leagues.services.cards import CardTable, fixture_card_enter
from tests.factories.leagues import PlayerFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import phone_signed_in, squad
from tests.leagues.test_browser_score_card import CARD, _captains_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Where a card is kept on the phone: for the account that typed it, and the fixture.
KEY = "allfours:score-card:{}:{}"


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


def _kept(phone: Page, fixture: Any, captain: Any = None) -> bool:
    """Whether the phone keeps a card of ``fixture`` for ``captain`` (its home captain)."""
    captain = captain or fixture.home.entries.get().captain.user
    return phone.evaluate(f"localStorage.getItem({KEY.format(captain.pk, fixture.pk)!r}) !== null")


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


def _away_captain(fixture: Any) -> Any:
    """The other team's captain, who may enter the same card."""
    captain = UserFactory()
    TeamEntry.objects.filter(team=fixture.away).update(
        captain=PlayerFactory(name="Old Hall captain", user=captain)
    )
    return captain


def _card_as_served(phone: Page, live_server: Any, fixture: Any) -> None:
    """The card opened, its boxes empty as the server gave them, nothing said of a kept card."""
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/score-card/")
    for board in range(1, len(CARD) + 1):
        expect(phone.locator(f"#id_t{board}_g1_home")).to_have_value("")
        expect(phone.locator(f"#id_t{board}_g1_away")).to_have_value("")
    expect(phone.get_by_test_id("card-keep-note")).to_have_count(0)


def test_log_out_drops_the_card_kept_and_the_next_captain_on_the_phone_starts_afresh(
    phone: Page, live_server: Any
) -> None:
    """A phone shared at the pub: the home captain types the card, loses the signal at Submit
    and logs out; the away captain signs in on the same phone and opens the card: the home
    captain's figures are neither put back for them to see nor sent with their card."""
    fixture, captain = _no_signal_at_submit(phone, live_server, opened="my fixtures")
    phone.context.set_offline(False)
    assert _kept(phone, fixture, captain)
    phone.get_by_role("button", name="Log out").tap()
    expect(phone.get_by_role("link", name="Log in")).to_be_visible()
    assert (
        phone.evaluate(
            "Object.keys(localStorage).filter((key) => key.startsWith('allfours:score-card:'))"
        )
        == []
    )
    other = _away_captain(fixture)
    phone_signed_in(phone, live_server, other)
    _card_as_served(phone, live_server, fixture)
    # The home captain signs in again: their card was dropped at Log out, not kept for them.
    phone.context.clear_cookies()
    phone_signed_in(phone, live_server, captain)
    _card_as_served(phone, live_server, fixture)


def test_a_card_kept_is_put_back_for_its_own_account_alone(phone: Page, live_server: Any) -> None:
    """Without Log out (the session ran out, the cookies were cleared), the next person signed
    in on the phone is not given the card kept; its captain signed in again is."""
    fixture, captain = _no_signal_at_submit(phone, live_server)
    phone.context.set_offline(False)
    phone.context.clear_cookies()
    other = _away_captain(fixture)
    phone_signed_in(phone, live_server, other)
    _card_as_served(phone, live_server, fixture)
    assert not _kept(phone, fixture, other)
    phone.context.clear_cookies()
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + f"/leagues/fixture/{fixture.pk}/score-card/")
    _figures_in(phone, fixture)
    expect(phone.get_by_test_id("card-keep-note")).to_contain_text("are back in the boxes")


def test_a_card_kept_before_cards_were_kept_by_account_is_dropped_not_put_back(
    phone: Page, live_server: Any
) -> None:
    """A card kept under the fixture alone (whose, nobody can tell) is not put back for
    whoever opens the card: it goes at the first page a signed-in account opens."""
    fixture, captain = _captains_night()
    phone_signed_in(phone, live_server, captain)
    phone.goto(live_server.url + "/leagues/my-fixtures/")
    unowned = f"allfours:score-card:{fixture.pk}"
    phone.evaluate(f"localStorage.setItem({unowned!r}, '{{}}')")
    phone.reload()
    phone.wait_for_load_state("load")
    assert phone.evaluate(f"localStorage.getItem({unowned!r})") is None
