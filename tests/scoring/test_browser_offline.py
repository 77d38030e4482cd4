"""No signal in the back room: the scoring page offline, in headless Chromium at 390×844.

The service worker keeps the page; IndexedDB keeps each hand entered offline with its one-time
key and expected number; the phone sends them in order when the connection returns. What the
database holds is checked directly: every hand exactly once, with the server's awards equal to
what the phone showed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from scoring.models import Award, Game, Hand, HandRevision, RevisionAction
from scoring.services import game_link_reissue, game_link_revoke
from scoring.services.links import _scoring_link_close, _scoring_link_reopen
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.factories.scoring import GameFactory, play_plain_hands
from tests.scoring.test_browser import (
    GAME,
    HIGH,
    JACK,
    LOW,
    NOT_OUT,
    PATEL,
    SMITH,
    Scorer,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page's own keeping is over (its writes to the cache done, not only begun): a reload or a
# closed browser straight after finds the page.
KEPT = "() => document.documentElement.dataset.kept === 'yes'"


def open_for_offline(scorer: Scorer, game: Game) -> None:
    """Open the scoring link online, as scanning its QR code does, and wait until the phone has
    kept the page and the service worker runs it."""
    scorer.scan(game)
    scorer.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    scorer.page.wait_for_function(KEPT)


def keep(scorer: Scorer, number: int) -> None:
    """Tap who made game (it records the hand) with no connection: the hand is kept on the
    phone, not sent."""
    button = scorer.page.get_by_role("button", name="Record hand", exact=True)
    if scorer.pending_game:
        group = scorer.page.get_by_role("group", name=GAME, exact=True)
        button = group.get_by_role("button", name=scorer.pending_game, exact=True)
        scorer.pending_game = None
    scorer.tap(button)
    expect(scorer.page.get_by_test_id(f"unsent-{number}")).to_have_text("not sent yet")


def keep_a_hand_offline(scorer: Scorer, game: Game) -> None:
    """Open the game for offline use, lose the connection and keep hand 1 (4♥ turned, Smith &
    Jones high and game, Patel & Brown low) on the phone."""
    open_for_offline(scorer, game)
    scorer.page.context.set_offline(True)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    keep(scorer, 1)


def awards_shown(page: Page, count: int) -> list[list[str]]:
    """Each hand's awards as the sheet shows them, e.g. `A kick J♥ +3`."""
    return [
        page.locator(f"#hand-{number} .award").evaluate_all(
            "spans => spans.map(span => span.firstChild.textContent.trim())"
        )
        for number in range(1, count + 1)
    ]


def awards_computed(page: Page, count: int) -> list[list[str]]:
    """Each hand's awards as the phone's rules gave them: side, category, points, counted."""
    return [
        page.locator(f"#hand-{number} .award[data-award]").evaluate_all(
            "spans => spans.map(span => span.dataset.award)"
        )
        for number in range(1, count + 1)
    ]


def awards_stored(game: Game) -> list[list[str]]:
    return [
        [
            f"{a.side} {a.category} {a.points} {str(a.counted).lower()}"
            for a in Award.objects.filter(hand=hand).order_by("position")
        ]
        for hand in Hand.objects.filter(game=game).order_by("number")
    ]


def unsent(page: Page) -> Any:
    return page.get_by_test_id("unsent-count")


def kept_ops(page: Page) -> list[dict[str, Any]]:
    """What the phone keeps in IndexedDB (static/scoring/offline/store.mjs): each op's kind,
    number and state, oldest first (as it sends them)."""
    return page.evaluate(
        """() => new Promise((resolve, reject) => {
            const request = indexedDB.open("allfours-offline");
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              const all = request.result.transaction("ops").objectStore("ops").getAll();
              all.onsuccess = () => resolve(all.result.sort((a, b) => a.seq - b.seq).map(
                (op) => ({op: op.op, number: op.number, state: op.state})));
            };
          })"""
    )


@pytest.fixture
def offline_scorer(browser: Browser, live_server: Any) -> Iterator[Scorer]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield Scorer(page, live_server.url)
    context.close()


def test_five_hands_offline_survive_a_reload_and_are_stored_once(
    offline_scorer: Scorer,
) -> None:
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)

    # A turned jack: the preview shows the dealer's kick before anything else is tapped.
    scorer.card("JH")
    expect(page.get_by_test_id("hand-preview")).to_contain_text(f"{SMITH} kick J♥ +3")
    expect(page.get_by_test_id("hand-preview")).to_contain_text(f"{SMITH} 3, {PATEL} 0")
    scorer.enter(high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    keep(scorer, 1)
    # Take one: Smith & Jones (dealing now is Patel & Brown's turn) get the gift.
    scorer.enter(card="9C", beg="Beg → take one", high=PATEL, low=PATEL, jack=NOT_OUT, game="Tie")
    keep(scorer, 2)
    # Running the pack: a second card turned makes it a run.
    scorer.enter(card="4S", high=SMITH, low=SMITH, jack=NOT_OUT, game=PATEL)
    scorer.card("KD")
    keep(scorer, 3)
    scorer.enter(
        card="5C", high=PATEL, low=SMITH, jack=f"{SMITH} hangs (+3) {PATEL}'s jack", game=PATEL
    )
    keep(scorer, 4)
    scorer.enter(card="8H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    keep(scorer, 5)
    expect(unsent(page)).to_have_text("5 hands not sent yet.")
    expect(page.get_by_test_id("offline-winner")).to_contain_text(f"{SMITH} reached 14 on hand 5")
    shown = awards_shown(page, 5)
    computed = awards_computed(page, 5)
    scores = (scorer.score("A").inner_text(), scorer.score("B").inner_text())
    assert Hand.objects.filter(game=game).count() == 0

    page.reload()
    expect(unsent(page)).to_have_text("5 hands not sent yet.")
    assert awards_shown(page, 5) == shown
    assert (scorer.score("A").inner_text(), scorer.score("B").inner_text()) == scores

    page.context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("unsent-1")).to_have_count(0)  # the server's sheet again
    assert Hand.objects.filter(game=game).count() == 5
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 5
    assert awards_stored(game) == computed
    game.refresh_from_db()
    assert [str(s.score) for s in game.sides.order_by("position")] == list(scores)
    assert awards_shown(page, 5) == shown


def test_a_hand_refused_offline_says_why_in_the_pages_words_beside_the_record_button(
    offline_scorer: Scorer,
) -> None:
    """The phone's rules refuse a turned jack in play: the preview says so as it is tapped, and
    the refusal, with the card still picked, shows by the record button, far below the card
    picker with "Dealer, beg, redeal" and the card points open; nothing is kept."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.enter(card="JH", high=SMITH, low=SMITH, jack=SMITH, dealer=SMITH, counts=(50, 30))
    words = "J♥ was turned up, so the jack of trumps was not in play: tap “Not out”."
    expect(page.get_by_test_id("hand-preview")).to_have_text(words)

    scorer.tap(page.get_by_role("button", name="Record hand", exact=True))
    expect(page.get_by_test_id("card-picker")).not_to_be_in_viewport()
    error = page.get_by_test_id("offline-error")
    expect(error).to_contain_text(f"Nothing was kept. {words}")
    expect(error).to_be_in_viewport()
    expect(page.get_by_test_id("offline-error-cards")).to_have_text(
        "Turned up so far: J♥ (⌫ takes the last card back)."
    )
    expect(unsent(page)).to_have_count(0)


def test_a_hand_whose_answer_is_lost_is_sent_again_and_stored_once(
    offline_scorer: Scorer,
) -> None:
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)

    def reach_server_then_drop(route: Any) -> None:
        route.fetch()  # the server records the hand ...
        route.abort("connectionreset")  # ... and the answer never reaches the phone

    page.route(f"**{game.get_absolute_url()}hands/", reach_server_then_drop)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT)
    page.get_by_role("group", name=GAME, exact=True).get_by_role("button", name=SMITH).tap()
    # Kept with the same one-time key, sent again at once: the server finds the hand it stored.
    expect(unsent(page)).to_have_count(0)
    expect(scorer.score("A")).to_have_text("2")
    assert Hand.objects.filter(game=game).count() == 1
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 1


def test_a_hand_kept_while_another_phone_moved_the_game_on_waits_beside_theirs(
    offline_scorer: Scorer,
) -> None:
    game = GameFactory(trinidad=True, hands=2)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    keep(scorer, 3)

    # The other phone at the table records hand 3 meanwhile.
    play_plain_hands(game, 1)

    page.context.set_offline(False)
    conflict = page.get_by_test_id("offline-conflict")
    expect(conflict.get_by_test_id("kept-3")).to_contain_text("turned 4♥")
    expect(unsent(page)).to_have_text("1 hand kept on this phone: the game moved on.")
    assert Hand.objects.filter(game=game).count() == 3  # nothing overwritten
    # Every page of the game says so.
    page.goto(scorer.base_url + reverse("scoring:game_audit", kwargs={"pk": game.pk}))
    expect(unsent(page)).to_have_text("1 hand kept on this phone: the game moved on.")
    page.go_back()

    # Added after theirs, it becomes hand 4, with no entering it again.
    page.get_by_test_id("add-after-3").tap()
    expect(page.get_by_test_id("hand-row-4")).to_be_visible()
    expect(conflict).to_have_count(0)
    expect(unsent(page)).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 4
    assert Hand.objects.get(game=game, number=4).facts["turn_ups"] == ["4H"]


def test_a_hand_kept_while_the_link_was_revoked_stays_says_why_and_goes_with_a_new_link(
    offline_scorer: Scorer,
) -> None:
    """The table's link is revoked while the phone keeps a hand offline: back online, the server
    refuses the phone (403, "revoked"). The hand stays kept (not set aside, not dropped), the
    banner says why and what to do, and the phone stops sending it on the clock; the link
    re-issued, the banner says so; opening the new link on the same phone sends it."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    keep_a_hand_offline(scorer, game)

    game_link_revoke(game=game)
    sends: list[str] = []
    page.on("request", lambda r: sends.append(r.url) if r.url.endswith("/sync/") else None)
    page.context.set_offline(False)
    revoked = (
        "1 hand not sent yet. This game's scoring link has been revoked, with no new one yet. "
        "Ask the league secretary (or whoever started the game) to re-issue it and open the new "
        "link on this phone: the kept hands are sent then."
    )
    expect(unsent(page)).to_have_text(revoked)
    expect(unsent(page)).to_have_attribute("data-refused", "revoked")
    expect(page.get_by_test_id("unsent-1")).to_have_text("not sent yet")
    expect(page.get_by_test_id("offline-conflict")).to_have_count(0)
    assert kept_ops(page) == [{"op": "record", "number": 1, "state": "unsent"}]
    assert Hand.objects.filter(game=game).count() == 0
    # Refused: not sent again every few seconds (the one refused send may have left before
    # the listener saw it on a loaded machine: what matters is that none follows).
    refused = len(sends)
    page.wait_for_timeout(6_000)
    assert len(sends) == refused <= 1, sends

    # Opened again while the link is still revoked: the same words, the hand still kept.
    page.reload()
    expect(unsent(page)).to_have_text(revoked)
    assert kept_ops(page) == [{"op": "record", "number": 1, "state": "unsent"}]

    # The table's link re-issued: opened again, the page says to open the new link.
    game_link_reissue(game=game)
    page.reload()
    expect(unsent(page)).to_have_text(
        "1 hand not sent yet. This game's scoring link has been replaced by a new one. Ask for "
        "the new fixture card or link and open it on this phone (scan its QR code): the kept "
        "hands are sent then."
    )
    expect(unsent(page)).to_have_attribute("data-refused", "reissued")

    # Its new QR code scanned on this phone: the hand goes.
    game.refresh_from_db()
    scorer.scan(game)
    wait_until(page, lambda: kept_ops(page) == [])  # the banner is absent before the store is read
    expect(unsent(page)).to_have_count(0)
    expect(page.get_by_test_id("unsent-1")).to_have_count(0)
    assert kept_ops(page) == []
    assert Hand.objects.filter(game=game).count() == 1
    assert Hand.objects.get(game=game, number=1).facts["turn_ups"] == ["4H"]


def test_a_hand_kept_for_a_game_taken_away_meanwhile_says_so_and_is_not_sent_again(
    offline_scorer: Scorer,
) -> None:
    """The game is taken away while the phone keeps a hand of it offline (a table's next game,
    no hand of it recorded on the server, when the game before it came back into play): back
    online, the server says so (410). The hand stays kept beside the words, and is not sent
    again every few seconds to an address that no longer answers."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    keep_a_hand_offline(scorer, game)

    Game.objects.filter(pk=game.pk).delete()
    sends: list[str] = []
    page.on("request", lambda r: sends.append(r.url) if r.url.endswith("/sync/") else None)
    page.context.set_offline(False)
    expect(unsent(page)).to_have_text(
        "1 hand not sent yet. This game is no longer kept: it was taken away before any hand of "
        "it was recorded (the game before it came back into play, or its tie changed), so the "
        "hands kept on this phone for it were not counted. Open the scoring link again (scan "
        "its QR code) and enter them in the game in play."
    )
    expect(unsent(page)).to_have_attribute("data-refused", "gone")
    assert kept_ops(page) == [{"op": "record", "number": 1, "state": "unsent"}]
    refused = len(sends)
    page.wait_for_timeout(6_000)
    assert len(sends) == refused <= 1, sends
    assert not Hand.objects.exists()


def test_hands_kept_while_the_result_was_confirmed_say_so_here_and_in_the_games_list(
    offline_scorer: Scorer,
) -> None:
    """The fixture's result confirmed (the table's link closed) while the phone keeps hands
    offline: the phone does not give the re-issued link's advice but says the result is
    confirmed, the kept hands were not counted and who can correct it; the list of games kept
    on the phone says the same. The result sent back for play (the link opened again): they
    go."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    keep_a_hand_offline(scorer, game)
    scorer.enter(card="9C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    keep(scorer, 2)

    _scoring_link_close(link=game.scoring_link)
    page.context.set_offline(False)
    closed = (
        "The result this game belongs to has been confirmed, so the hands kept on this phone "
        "were not counted. Tell your captain or the league secretary: the secretary can correct "
        "the result."
    )
    expect(unsent(page)).to_have_text(f"2 hands not sent yet. {closed}")
    expect(unsent(page)).to_have_attribute("data-refused", "closed")
    assert kept_ops(page) == [
        {"op": "record", "number": 1, "state": "unsent"},
        {"op": "record", "number": 2, "state": "unsent"},
    ]

    # The games kept on the phone, opened with no connection: the same reason beside the game.
    page.context.set_offline(True)
    page.goto(scorer.base_url + "/games/")
    kept_games = page.get_by_test_id("kept-games")
    expect(kept_games.get_by_test_id("kept-unsent")).to_have_text("2 hands not sent yet")
    expect(kept_games.get_by_test_id("kept-refused")).to_have_text(closed)

    # A secretary sends the result back for play to continue: the game opened again, they go.
    _scoring_link_reopen(link=game.scoring_link)
    page.context.set_offline(False)
    kept_games.get_by_role("link").click()
    page.wait_for_url(scorer.base_url + game.get_absolute_url())
    wait_until(page, lambda: kept_ops(page) == [])  # the banner is absent before the store is read
    expect(unsent(page)).to_have_count(0)
    assert kept_ops(page) == []
    assert Hand.objects.filter(game=game).count() == 2


def test_a_refusal_that_is_not_the_servers_keeps_the_hands_and_says_to_reload(
    offline_scorer: Scorer,
) -> None:
    """A 403 that is not the app's JSON (a proxy's page, a failed CSRF check): the hands stay
    kept, the phone stops sending on the clock and says sending was refused and to reload or
    log in again; the connection back again while the answer was on its way sends nothing
    more; reloaded, with the server answering, they go."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    keep_a_hand_offline(scorer, game)

    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    sync_url = f"{scorer.base_url}{reverse('scoring:sync', kwargs={'pk': game.pk})}"
    page.context.route(sync_url, hold)
    page.context.set_offline(False)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    # The connection back again (and the clock ticking) while the phone waits for the answer.
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(5_500)
    held[0].fulfill(
        status=403,
        headers={"Content-Type": "text/html; charset=utf-8"},
        body="<!doctype html><title>403 Forbidden</title><h1>CSRF verification failed.</h1>",
    )
    expect(unsent(page)).to_have_text(
        "1 hand not sent yet. Sending was refused, and the server did not say why (this page "
        "may be out of date, or this phone signed out). Reload the page, or log in again, and "
        "the kept hands are sent."
    )
    expect(unsent(page)).to_have_attribute("data-refused", "refused")
    assert kept_ops(page) == [{"op": "record", "number": 1, "state": "unsent"}]
    # Refused: not sent again every few seconds.
    page.wait_for_timeout(6_000)
    assert len(held) == 1, [route.request.url for route in held]
    assert Hand.objects.filter(game=game).count() == 0

    page.context.unroute(sync_url, hold)
    page.reload()
    # What the phone keeps, not the banner (not drawn yet straight after the reload).
    for _ in range(100):
        if not kept_ops(page):
            break
        page.wait_for_timeout(100)
    assert kept_ops(page) == []
    expect(unsent(page)).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_phone_closed_with_unsent_hands_sends_them_when_opened_again(
    browser: Browser, tmp_path: Path, live_server: Any
) -> None:
    game = GameFactory(trinidad=True)
    profile = tmp_path / "phone"

    def launch() -> BrowserContext:
        context = browser.browser_type.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
        )
        context.set_default_timeout(10_000)
        return context

    context = launch()
    scorer = Scorer(context.pages[0], live_server.url)
    keep_a_hand_offline(scorer, game)
    context.close()  # the browser is closed, with the hand on the phone

    context = launch()
    context.set_offline(True)
    page = context.pages[0]
    # The installed app opens on its start URL: with no connection it lists the games kept on
    # the phone, and each leads to its game.
    page.goto(live_server.url + "/games/")
    kept_games = page.get_by_test_id("kept-games")
    expect(kept_games.get_by_role("listitem")).to_have_count(1)
    expect(kept_games).to_contain_text("1 hand not sent yet")
    kept_games.get_by_role("link").click()
    page.wait_for_url(live_server.url + game.get_absolute_url())
    expect(unsent(page)).to_have_text("1 hand not sent yet.")
    expect(page.get_by_test_id("unsent-1")).to_be_visible()
    context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    context.close()
    assert Hand.objects.filter(game=game).count() == 1


def test_the_games_kept_on_the_phone_name_a_game_with_no_title_by_its_sides(
    offline_scorer: Scorer,
) -> None:
    """A game started with no title typed was listed offline as "Game 323 · 1 hand not sent
    yet", where the online list gives its sides beside it: the list of games kept on the phone
    names its sides too, from the game as the phone keeps it ("Smith & Jones v Patel & Brown")."""
    game = GameFactory(trinidad=True, title="")
    scorer, page = offline_scorer, offline_scorer.page
    keep_a_hand_offline(scorer, game)
    page.goto(scorer.base_url + "/games/")
    kept_games = page.get_by_test_id("kept-games")
    expect(kept_games.get_by_role("link")).to_have_text(str(game))
    expect(kept_games.get_by_test_id("kept-sides")).to_have_text("Smith & Jones v Patel & Brown")
    expect(kept_games.get_by_test_id("kept-unsent")).to_have_text("1 hand not sent yet")
    # A title that names the sides already is not followed by them again.
    page.context.set_offline(False)
    titled = GameFactory(trinidad=True, title="Smith & Jones v Patel & Brown, table 2")
    open_for_offline(scorer, titled)
    page.context.set_offline(True)
    page.goto(scorer.base_url + "/games/")
    expect(kept_games.get_by_role("link")).to_have_count(2)
    expect(kept_games.get_by_role("link").first).to_have_text(titled.title)
    expect(kept_games.get_by_test_id("kept-sides")).to_have_count(1)


def test_a_503_from_the_server_shows_the_kept_page_as_without_a_connection(
    offline_scorer: Scorer,
) -> None:
    """The server up but its database not: it answers 503 (Retry-After). The service worker shows
    the game's page as kept, with its score, and the start URL lists the games kept on the
    phone, instead of the server's "unavailable" page."""
    game = GameFactory(trinidad=True, hands=2)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    scores = (scorer.score("A").inner_text(), scorer.score("B").inner_text())
    answered: list[str] = []

    def unavailable(route: Any) -> None:
        answered.append(route.request.url)
        route.fulfill(
            status=503,
            headers={"Retry-After": "60", "Content-Type": "text/html; charset=utf-8"},
            body="<!doctype html><title>Unavailable</title><h1>The database is away</h1>",
        )

    # The context's routes see the service worker's own requests too (Chromium).
    page.context.route(f"{scorer.base_url}{game.get_absolute_url()}", unavailable)
    page.context.route(f"{scorer.base_url}/games/", unavailable)
    page.reload()
    assert answered, "the service worker did not ask the server"
    expect(page.get_by_text("The database is away")).to_have_count(0)
    expect(scorer.score("A")).to_have_text(scores[0])
    expect(scorer.score("B")).to_have_text(scores[1])

    answered.clear()
    page.goto(scorer.base_url + "/games/")
    assert answered
    expect(page.get_by_role("heading", level=1)).to_have_text("Games on this phone")
    kept_games = page.get_by_test_id("kept-games")
    expect(kept_games.get_by_role("link")).to_have_count(1)
    kept_games.get_by_role("link").click()
    page.wait_for_url(scorer.base_url + game.get_absolute_url())
    expect(scorer.score("A")).to_have_text(scores[0])


def test_a_double_tap_on_game_with_no_connection_keeps_the_hand_once(
    offline_scorer: Scorer,
) -> None:
    """Two taps on who made game before the first is kept (a double tap): one hand kept, as
    online htmx sends one; not the same hand twice, the second a phantom next hand that could
    even win the game on the phone."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    button = page.get_by_role("group", name=GAME, exact=True).get_by_role(
        "button", name=SMITH, exact=True
    )
    scorer.pending_game = None
    button.evaluate("button => { button.click(); button.click(); }")
    expect(page.get_by_test_id("unsent-1")).to_have_text("not sent yet")
    expect(unsent(page)).to_have_text("1 hand not sent yet.")
    expect(page.locator("#hand-2")).to_have_count(0)
    assert kept_ops(page) == [{"op": "record", "number": 1, "state": "unsent"}]
    page.context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_kept_hand_the_server_cannot_place_is_kept_beside_its_words_not_sent_again(
    offline_scorer: Scorer,
) -> None:
    """A kept hand refused at its number with no hand of the server's there (here hand 2 kept
    while the server has none: its hand 1 lost from the phone's store): the phone sends it
    once, keeps it beside the server's words and offers to add it after the sheet's last hand;
    it does not send it again and again."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    keep(scorer, 1)
    scorer.enter(card="5S", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
    keep(scorer, 2)
    page.evaluate(
        """() => new Promise((resolve, reject) => {
            const request = indexedDB.open("allfours-offline");
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              const ops = request.result.transaction("ops", "readwrite").objectStore("ops");
              const all = ops.getAll();
              all.onsuccess = () => {
                const first = all.result.find((op) => op.number === 1);
                ops.delete(first.key);
                ops.transaction.oncomplete = () => resolve();
              };
            };
          })"""
    )
    sends: list[str] = []
    page.on(
        "request", lambda request: sends.append(request.url) if "/sync/" in request.url else None
    )
    page.context.set_offline(False)
    kept = page.get_by_test_id("offline-conflict")
    expect(kept).to_contain_text("Hand 2, kept on this phone: the game moved on")
    expect(kept.get_by_test_id("conflict-message")).to_contain_text("the game has moved on")
    page.wait_for_timeout(1500)  # the phone's clock sends what waits every few seconds
    assert len(sends) == 1
    assert Hand.objects.filter(game=game).count() == 0
    scorer.tap(kept.get_by_test_id("add-after-2"))
    expect(unsent(page)).to_have_count(0)
    hands = list(Hand.objects.filter(game=game))
    assert [(hand.number, hand.facts["high"]) for hand in hands] == [(1, "B")]


#: Hold the phone's kept state of its games (IndexedDB "games") until `window.releaseGames`:
#: sending the kept hands reads it, and waits there meanwhile; what the phone asks of its store
#: after that waits its turn.
HOLD_GAMES = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("allfours-offline");
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const games = request.result.transaction("games", "readwrite").objectStore("games");
    const hold = () => {
      if (!window.releaseGames) games.get(0).onsuccess = hold;
    };
    hold();
    resolve();
  };
})"""


def test_a_kept_hand_undone_as_the_connection_comes_back_is_not_sent(
    offline_scorer: Scorer,
) -> None:
    """Hand 1 kept with no connection; the connection back, the phone begins sending it and
    the scorer taps its Undo while the phone reads the game's state before sending: the phone
    said "Hand 1 undone." and sent it all the same (the kept hands read before that, and the
    undo waiting for the read), and the server recorded it. It is not sent: the next hand
    tapped is hand 1, recorded as tapped."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    keep_a_hand_offline(scorer, game)
    page.evaluate(HOLD_GAMES)
    page.context.set_offline(False)
    # Tapped in the page at once, so that the undo has asked the store before the hold ends.
    page.get_by_test_id("undo-unsent").evaluate("button => button.click()")
    page.evaluate("() => { window.releaseGames = true; }")
    expect(page.get_by_test_id("game-notice")).to_have_text("Hand 1 undone.")
    expect(page.locator("#hand-1")).to_have_count(0)
    scorer.play(1, card="5S", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
    hands = list(Hand.objects.filter(game=game))
    assert [(hand.number, hand.facts["high"]) for hand in hands] == [(1, "B")]


def test_a_double_tap_on_yes_undo_with_no_connection_undoes_one_hand(
    offline_scorer: Scorer,
) -> None:
    """Undo of a sent hand with no connection, Yes tapped twice before the first is kept: one
    undo waits to be sent, not two (the second took back the hand before it as well)."""
    game = GameFactory(trinidad=True, hands=2)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    scorer.tap(page.get_by_test_id("undo"))
    page.get_by_test_id("undo-confirm").evaluate("button => { button.click(); button.click(); }")
    expect(page.locator("#hand-2")).to_have_count(0)
    expect(page.locator("#hand-1")).to_have_count(1)
    expect(unsent(page)).to_have_text("1 change not sent yet.")
    assert kept_ops(page) == [{"op": "undo", "number": 2, "state": "unsent"}]
    page.context.set_offline(False)
    expect(unsent(page)).to_have_count(0)
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1]


def test_a_hand_kept_offline_replaces_the_last_recorded_notice(offline_scorer: Scorer) -> None:
    """The score bar said "Hand 1 recorded." above "1 hand not sent yet." once hand 2 was kept
    with no connection: it says what the phone did last."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    scorer.record()
    notice = page.get_by_test_id("game-notice")
    expect(notice).to_have_text("Hand 1 recorded.")
    page.wait_for_function(KEPT)
    page.context.set_offline(True)
    scorer.enter(card="5S", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
    keep(scorer, 2)
    expect(notice).to_have_text("Hand 2 kept on this phone: sent when the connection is back.")


@pytest.mark.parametrize(
    ("undone", "said"),
    [
        ("sent", "Hand 1 undone on this phone: sent when the connection is back."),
        ("kept", "Hand 2 undone."),
        ("online", "Hand 1 undone. Its facts are kept in the audit trail."),
    ],
    ids=["a sent hand with no connection", "a hand kept on the phone", "online"],
)
def test_an_undo_says_what_it_did_in_place_of_the_last_notice(
    offline_scorer: Scorer, undone: str, said: str
) -> None:
    """An undo with no connection left the score bar saying "Hand 1 recorded." (or "Hand 2
    kept on this phone: …") over a sheet that no longer had the hand: it says what the undo
    did, as the server's answer to an undo online does. The only hand kept on the phone, undone,
    stayed on the sheet and in the score: it goes."""
    game = GameFactory(trinidad=True)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    notice = page.get_by_test_id("game-notice")
    page.wait_for_function(KEPT)
    if undone != "online":
        page.context.set_offline(True)
    if undone == "kept":
        scorer.enter(card="5S", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
        keep(scorer, 2)
    last = 2 if undone == "kept" else 1
    if undone == "online":
        scorer.undo(last)
    else:
        scorer.tap(page.get_by_test_id("undo"))
        scorer.tap(page.get_by_test_id("undo-confirm"))
    expect(page.locator(f"#hand-{last}")).to_have_count(0)
    scorer.expect_scores(*((2, 1) if undone == "kept" else (0, 0)))
    expect(notice).to_have_text(said)
    expect(page.get_by_text("recorded.")).to_have_count(0)
    expect(page.get_by_text("kept on this phone")).to_have_count(0)


#: What the score bar says of each action made with no connection on a game of two sent hands.
SAID_OFFLINE = {
    "hand": "Hand 3 kept on this phone: sent when the connection is back.",
    "undo": "Hand 2 undone on this phone: sent when the connection is back.",
    "fix": "The correction of hand 2 kept on this phone: sent when the connection is back.",
}


@pytest.mark.parametrize("action", list(SAID_OFFLINE))
def test_an_action_with_no_connection_is_said_on_a_page_that_said_nothing_yet(
    offline_scorer: Scorer, action: str
) -> None:
    """On a game page freshly opened (no notice in the score bar yet), a hand, an undo or a Fix
    made with no connection said nothing: the score bar's line only replaced a notice already
    shown. It says what the phone did, whatever was shown before."""
    game = GameFactory(trinidad=True, hands=2)
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    notice = page.get_by_test_id("game-notice")
    expect(notice).to_have_count(0)
    page.context.set_offline(True)
    if action == "hand":
        scorer.enter(card="5S", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
        keep(scorer, 3)
    elif action == "undo":
        scorer.tap(page.get_by_test_id("undo"))
        scorer.tap(page.get_by_test_id("undo-confirm"))
        expect(page.locator("#hand-2")).to_have_count(0)
    else:
        scorer.tap(page.get_by_test_id("fix-last"))
        expect(page.get_by_test_id("offline-correcting")).to_contain_text("Correcting hand 2")
        scorer.tap(page.get_by_role("button", name="Record hand", exact=True))
    said = SAID_OFFLINE[action]
    expect(notice).to_have_text(said)
    expect(page.locator("#scoreboard").get_by_role("status").filter(has_text=said)).to_be_visible()


#: The hand form's answers as the scorer sees them: each checked choice, the cards turned and
#: the penalties called.
FORM_ANSWERS = """() => {
  const form = document.getElementById("hand-form");
  return {
    checked: [...form.querySelectorAll("input:checked")].map((el) => `${el.name}=${el.value}`),
    cards: form.querySelector("input[name=turn_ups]")?.value || "",
    penalties: form.querySelector("[data-penalties]")?.value || "",
    number: form.querySelector("input[name=expected_number]").value,
  };
}"""


def fresh_answers(game: Game, number: int) -> dict[str, Any]:
    """`FORM_ANSWERS` of a fresh form for hand `number`: nothing tapped but its dealer."""
    game.refresh_from_db()
    return {
        "checked": [f"dealer={game.next_dealer}", "beg=stand", "outcome=played"],
        "cards": "",
        "penalties": "",
        "number": str(number),
    }


def test_the_next_hands_form_is_fresh_after_the_servers_game_was_shown_again(
    offline_scorer: Scorer,
) -> None:
    """A hand sent once the connection came back shows the server's game again, with its own
    hand form; taps on that form, then Fix and Cancel, then the hand recorded: the next hand's
    form has nothing tapped but its dealer (it came with the last hand's taps and a renege)."""
    game = GameFactory(trinidad=True, overrides={"target": 200})
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    scorer.play(2, card="5C", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
    page.context.set_offline(True)
    scorer.enter(card="6D", high=SMITH, low=SMITH, jack=NOT_OUT, game=PATEL)
    keep(scorer, 3)
    page.context.set_offline(False)
    # Sent, and the server's game shown in place of the phone's (the server's rows have no
    # data-state: the phone's drawing of them, just before, has).
    expect(page.locator("#hand-3:not([data-state])")).to_have_count(1)
    assert game.hands.count() == 3

    scorer.enter(card="9S", high=PATEL, low=PATEL, jack=NOT_OUT)
    scorer.tap(page.get_by_test_id("correct-1"))
    cancel = page.locator("[data-cancel-correction]")
    expect(cancel).to_be_visible()
    scorer.tap(cancel)
    scorer.pending_game = PATEL
    scorer.record()
    expect(page.get_by_text("Hand 4 recorded.")).to_be_visible()
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 5)


@pytest.mark.parametrize("kept", [0, 1], ids=["first hand", "a hand after one kept"])
def test_a_second_tap_with_no_connection_does_nothing_on_the_next_hands_form(
    offline_scorer: Scorer, kept: int
) -> None:
    """With no connection, a double tap on a game button keeps the hand, and the second tap
    lands on the same form cleared for the next hand (where a line added above may have moved
    a choice under the finger): it does nothing, no "Nothing was kept", no choice made, the
    hand kept once."""
    game = GameFactory(trinidad=True, overrides={"target": 200})
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    page.context.set_offline(True)
    if kept:
        scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
        keep(scorer, 1)
    number = kept + 1
    scorer.enter(card="5C", high=PATEL, low=PATEL, jack=NOT_OUT)
    button = page.get_by_role("group", name=GAME, exact=True).get_by_role(
        "button", name=PATEL, exact=True
    )
    box = button.bounding_box()
    assert box is not None
    where = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.touchscreen.tap(*where)
    expect(page.get_by_test_id(f"unsent-{number}")).to_have_text("not sent yet")
    page.touchscreen.tap(*where)  # the second tap, where the finger was: whatever is there now
    page.wait_for_timeout(200)
    expect(page.get_by_test_id("offline-error")).to_have_count(0)
    answers = page.evaluate(FORM_ANSWERS)
    assert [a for a in answers["checked"] if not a.startswith("dealer=")] == [
        "beg=stand",
        "outcome=played",
    ]
    assert (answers["cards"], answers["penalties"]) == ("", "")
    assert len(kept_ops(page)) == number


def hold_the_servers_page(scorer: Scorer, game: Game) -> list[Route]:
    """Hold the next answer of the game's page (the server's game, asked for once the kept
    hands are sent) until the test lets it go: `held[0].continue_()`. Every other request goes."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method == "GET" and not held:
            held.append(route)
        else:
            route.continue_()

    # The context's routes see the service worker's own requests too (Chromium).
    scorer.page.context.route(f"{scorer.base_url}{game.get_absolute_url()}", hold)
    return held


def begin_the_next_hand_as_the_kept_one_goes(scorer: Scorer) -> tuple[Game, list[Route]]:
    """Keep hand 1 with no connection; the connection back, it goes, and the phone asks for the
    server's game, whose answer is held (`hold_the_servers_page`); meanwhile the scorer begins
    hand 2: 5♣ turned, high to Patel & Brown."""
    game = GameFactory(trinidad=True, overrides={"target": 200})
    keep_a_hand_offline(scorer, game)
    held = hold_the_servers_page(scorer, game)
    scorer.page.context.set_offline(False)
    for _ in range(200):
        if held:
            break
        scorer.page.wait_for_timeout(50)
    assert held, "the phone did not ask for the server's game"
    assert game.hands.count() == 1
    scorer.card("5C")
    scorer.choose(HIGH, PATEL)
    return game, held


def expect_the_hand_begun(page: Page) -> dict[str, Any]:
    """The hand form still has the scorer's taps of hand 2 (5♣, high and low to Patel & Brown)."""
    answers: dict[str, Any] = page.evaluate(FORM_ANSWERS)
    assert answers["cards"] == "5C"
    assert {"high=B", "low=B"} <= set(answers["checked"])
    return answers


#: How many times the page has had an answer to its own request of `url` (resource timing).
FETCHED = """(url) => performance.getEntriesByType("resource").filter(
  (entry) => entry.name === url && entry.initiatorType === "fetch").length"""


def let_the_servers_page_go(scorer: Scorer, game: Game, held: list[Route]) -> None:
    """Let the held answer of the game's page go, and wait until the page has it."""
    url = scorer.base_url + game.get_absolute_url()
    before = scorer.page.evaluate(FETCHED, url)
    held[0].continue_()
    scorer.page.wait_for_function(f"(url) => ({FETCHED})(url) > {before}", arg=url)


def test_taps_on_the_next_hand_while_the_kept_hands_go_stay_and_record_it(
    offline_scorer: Scorer,
) -> None:
    """The connection back, the kept hand goes and the phone shows the server's game again; the
    scorer has begun the next hand meanwhile (the card turned, high and low tapped while the
    server's page was on its way): the taps stay on the server's page, and the hand records as
    tapped, online, as hand 2 (the server's page replaced the form, taps and all: the scorer's
    jack and game taps recorded a hand with no card, high or low, refused)."""
    scorer, page = offline_scorer, offline_scorer.page
    game, held = begin_the_next_hand_as_the_kept_one_goes(scorer)
    scorer.choose(LOW, PATEL)
    let_the_servers_page_go(scorer, game, held)
    # The server's game is shown (its rows have no data-state: the phone's drawing has).
    expect(page.locator("#hand-1:not([data-state])")).to_have_count(1)
    assert expect_the_hand_begun(page)["number"] == "2"
    expect(page.get_by_test_id("hand-preview")).to_contain_text(f"{PATEL} high +1")

    scorer.choose(JACK, NOT_OUT)
    scorer.pending_game = PATEL
    scorer.record()
    expect(page.get_by_text("Hand 2 recorded.")).to_be_visible()
    expect(unsent(page)).to_have_count(0)
    facts = Hand.objects.get(game=game, number=2).facts
    assert (facts["turn_ups"], facts["high"], facts["low"], facts["game"]) == (
        ["5C"],
        "B",
        "B",
        "B",
    )
    assert game.hands.count() == 2
    # The next hand's form is the server's fresh one: nothing of hand 2's taps on it.
    assert page.evaluate(FORM_ANSWERS) == fresh_answers(game, 3)


def test_taps_on_the_next_hand_stay_when_the_other_phone_recorded_it_meanwhile(
    offline_scorer: Scorer,
) -> None:
    """As above, but the other phone records hand 2 while the server's page is on its way: the
    server's page (its next hand is 3) is held back, the scorer's taps stay and the phone's view
    with them; the hand finished, it is kept and sent as hand 2, and waits beside the other
    phone's hand 2 (nothing recorded as hand 3 behind the scorer's back); added after theirs, it
    is hand 3, and the page is the server's."""
    scorer, page = offline_scorer, offline_scorer.page
    game, held = begin_the_next_hand_as_the_kept_one_goes(scorer)
    play_plain_hands(game, 1)  # the other phone at the table records hand 2
    let_the_servers_page_go(scorer, game, held)
    scorer.choose(LOW, PATEL)
    expect_the_hand_begun(page)
    expect(page.locator("#hand-2")).to_have_count(0)

    scorer.choose(JACK, NOT_OUT)
    scorer.tap(
        page.get_by_role("group", name=GAME, exact=True).get_by_role(
            "button", name=PATEL, exact=True
        )
    )
    conflict = page.get_by_test_id("offline-conflict")
    expect(conflict.get_by_test_id("kept-2")).to_contain_text("turned 5♣")
    assert game.hands.count() == 2  # nothing overwritten
    page.get_by_test_id("add-after-2").tap()
    expect(page.locator("#hand-3:not([data-state])")).to_have_count(1)
    expect(conflict).to_have_count(0)
    expect(unsent(page)).to_have_count(0)
    assert game.hands.count() == 3
    assert Hand.objects.get(game=game, number=3).facts["turn_ups"] == ["5C"]


def test_a_game_won_on_the_phone_offers_no_next_hand_but_a_fix(offline_scorer: Scorer) -> None:
    """Without a connection, a hand that wins the game left "Hand 3 · deals: Reds" and the whole
    hand form in view, and a hand tapped on it was refused ("no hand can follow"): as on the
    server's page of a won game, there is no next hand's form; Fix on the winning hand still
    opens the form to correct it."""
    game = GameFactory(trinidad=True, overrides={"target": 4})
    scorer, page = offline_scorer, offline_scorer.page
    open_for_offline(scorer, game)
    scorer.play(1, card="4H", high=SMITH, low=SMITH, jack=NOT_OUT, game=PATEL)
    page.wait_for_function(KEPT)
    page.context.set_offline(True)
    scorer.enter(card="5C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    keep(scorer, 2)
    expect(page.get_by_test_id("offline-winner")).to_contain_text(f"{PATEL} reached 4 on hand 2")
    expect(page.locator("#hand-form")).to_be_hidden()
    expect(page.get_by_test_id("next-dealer")).to_be_hidden()
    scorer.tap(page.get_by_test_id("fix-last"))
    expect(page.get_by_test_id("offline-correcting")).to_contain_text("Correcting hand 2")
    expect(page.locator("#hand-form")).to_be_visible()
