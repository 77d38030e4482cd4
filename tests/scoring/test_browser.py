"""The scorer's phone: hand entry in headless Chromium at 390×844, with and without JavaScript.

Every tap a test makes on the game page goes through `Scorer.tap`, so a test can count the taps a
hand takes. Facts are checked in the database (what was stored) and on the page (what the scorer
sees). Whole games are played through the UI from the start page to the winner banner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, Response, expect

from scoring.models import Game, GameStatus, Hand, HandRevision, ScoringLink
from scoring.sheet import won_with
from tests.factories.leagues import take_away
from tests.factories.scoring import GameFactory, UserFactory, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SMITH, PATEL = "Smith & Jones", "Patel & Brown"  # GameFactory's sides A and B

HIGH, LOW, JACK, GAME = "High", "Low (held by)", "Jack of trumps", "Game (most card points)"
NOT_OUT = "Not out"


# --- the scorer's phone ----------------------------------------------------------------------


class Scorer:
    """One phone on a game page. `tap` is the only way a test touches the hand form."""

    def __init__(self, page: Page, base_url: str, *, js: bool = True) -> None:
        self.page = page
        self.base_url = base_url
        self.js = js
        self.taps = 0
        self.targets: list[tuple[Locator, float, float]] = []
        self.pending_game: str | None = None

    def open(self, path: str) -> None:
        """Open a page (not a tap) and start counting taps from zero."""
        self.page.goto(self.base_url + path)
        self.taps = 0
        if not self.js:
            assert self.page.evaluate("typeof window.htmx") == "undefined"

    def scan(self, game: Game) -> None:
        """Open the game's scoring link, as scanning its QR code does: it lands on the game."""
        self.open(game.scoring_link.get_absolute_url())
        assert self.page.url == self.base_url + game.get_absolute_url(), self.page.url

    def tap(self, locator: Locator, *, submits: bool = False) -> None:
        """Tap once. Without JavaScript a submit button loads a new page: wait for it."""
        self.taps += 1
        self.measure(locator)
        if submits and not self.js:
            with self.page.expect_navigation():
                locator.tap()
        else:
            locator.tap()

    # one tap each

    def card(self, code: str) -> None:
        """Pick a card in two taps, rank then suit, e.g. `"4H"` or `"10S"`."""
        rank, suit = code[:-1], code[-1]
        # Without JavaScript each tap is a form post: the server holds the rank, then adds the card.
        self.tap(self.page.get_by_role("button", name=f"Rank {rank}", exact=True), submits=True)
        self.tap(
            self.page.get_by_role("button", name=SUITS[suit].capitalize(), exact=True),
            submits=True,
        )

    def choose(self, legend: str, choice: str) -> None:
        """Tap one of a fact's big buttons, e.g. `choose("High", "Smith & Jones")`. The dealer,
        the beg and the outcome are folded away: the first of them opens them (one tap)."""
        if legend in ("Dealer", "Beg", "Outcome") and not self.page.locator("#more").evaluate(
            "d => d.open"
        ):
            self.tap(self.page.get_by_test_id("more-toggle"))
        group = self.page.get_by_role("group", name=legend, exact=True)
        self.tap(group.get_by_role("radio", name=choice, exact=True))

    def record(self, button: str = "Record hand") -> Response | None:
        """Tap the submit button and wait until the page shows the server's answer. A hand whose
        game side was chosen is recorded by tapping that side's game button."""
        locator = self.page.get_by_role("button", name=button, exact=True)
        if button == "Record hand" and self.pending_game:
            group = self.page.get_by_role("group", name=GAME, exact=True)
            locator = group.get_by_role("button", name=self.pending_game, exact=True)
            self.pending_game = None
        self.taps += 1
        self.measure(locator)
        if not self.js:
            with self.page.expect_navigation() as navigation:
                locator.tap()
            return navigation.value
        with self.page.expect_response(lambda r: r.request.method == "POST") as response:
            locator.tap()
        self.settled()
        return response.value

    def measure(self, locator: Locator) -> None:
        """Note the size of what the finger hits: a radio's whole label is its target."""
        box = locator.evaluate(
            "el => { const r = (el.closest('label') || el).getBoundingClientRect();"
            " return [r.width, r.height]; }"
        )
        self.targets.append((locator, *box))

    def settled(self) -> None:
        """Wait until htmx has swapped its answer in."""
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )

    # a hand, as the scorer enters it

    def enter(
        self,
        *,
        high: str,
        low: str,
        jack: str,
        game: str | None = None,
        card: str | None = None,
        beg: str | None = None,
        dealer: str | None = None,
        counts: tuple[int, ...] | None = None,
    ) -> None:
        """Tap a hand's facts: the card first (without JavaScript it reloads the form)."""
        if card:
            self.card(card)
        if dealer:
            self.choose("Dealer", dealer)
        if beg:
            self.choose("Beg", beg)
        self.choose(HIGH, high)
        self.choose(LOW, low)
        self.choose(JACK, jack)
        if game:
            self.pending_game = game  # the game button records the hand: `record` taps it
        if counts:
            self.tap(self.page.get_by_text("Card points instead"))
            boxes = self.page.locator("[data-game-count]").all()
            for box, points in zip(boxes, counts, strict=True):
                box.fill(str(points))  # typed, not tapped

    def play(self, number: int, **facts: Any) -> int:
        """Enter and record hand `number`; return the taps it took from a freshly shown form."""
        self.taps = 0
        self.enter(**facts)
        self.record()
        expect(self.page.get_by_text(f"Hand {number} recorded.")).to_be_visible()
        return self.taps

    def undo(self, number: int) -> Response | None:
        """Undo asks first: open the question, then confirm."""
        self.tap(self.page.get_by_test_id("undo"))
        return self.record(button=f"Yes, undo hand {number}")

    # what the scorer sees

    def score(self, label: str) -> Locator:
        return self.page.get_by_test_id(f"score-value-{label}")

    def expect_scores(self, a: int, b: int) -> None:
        expect(self.score("A")).to_have_text(str(a))
        expect(self.score("B")).to_have_text(str(b))

    def sheet_row(self, number: int) -> Locator:
        return self.page.get_by_role("table").locator(f"#hand-{number}")


def wait_until(page: Page, condition: Callable[[], bool]) -> None:
    """Give something the page cannot wait for itself (the requests it made, as the test
    listens to them) up to 10 s, as long as the suite's ``expect`` waits (tests/conftest.py:
    on CI's two cores a phone's first send took longer than 5 s), asking every 50 ms; the
    test's assertions say what was seen."""
    for _ in range(200):
        if condition():
            return
        page.wait_for_timeout(50)


def hangs(winner: str, loser: str, points: int = 3) -> str:
    """The jack button for a hang jack: `winner` captured `loser`'s jack."""
    return f"{winner} hangs (+{points}) {loser}'s jack"


def wins_jack(winner: str, loser: str) -> str:
    """The jack button where hang jack does not apply (West Yorkshire)."""
    return f"{winner} wins {loser}'s jack"


def facts_of(game: Game) -> list[dict[str, Any]]:
    return [hand.facts for hand in Hand.objects.filter(game=game).order_by("number")]


def hand_count(game: Game) -> int:
    return Hand.objects.filter(game=game).count()


def phone_context(browser: Browser, *, js: bool = True) -> Any:
    return browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=js
    )


def log_in(page: Page, base_url: str, username: str) -> Any:
    """Put a logged-in session cookie on the phone, so the audit trail names the scorer."""
    user = UserFactory(username=username)
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base_url,
            }
        ]
    )
    return user


@pytest.fixture
def scorer(phone: Page, live_server: Any) -> Scorer:
    return Scorer(phone, live_server.url)


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def any_scorer(
    request: pytest.FixtureRequest, browser: Browser, live_server: Any
) -> Iterator[Scorer]:
    """A phone with JavaScript, and one without: every page must work as plain form posts."""
    context = phone_context(browser, js=request.param)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield Scorer(page, live_server.url, js=request.param)
    context.close()


@pytest.fixture
def nojs_scorer(browser: Browser, live_server: Any) -> Iterator[Scorer]:
    context = phone_context(browser, js=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield Scorer(page, live_server.url, js=False)
    context.close()


def start_game(scorer: Scorer, *, variant: str, side_a: str, side_b: str) -> Game:
    """Start a game from the games list and the start form, as a scorer does."""
    page = scorer.page
    scorer.open("/games/")
    with page.expect_navigation():
        page.get_by_role("link", name="Start a game").tap()
    page.get_by_label("Variant").select_option(variant)
    page.get_by_role("group", name="Side A").get_by_label("Name").fill(side_a)
    page.get_by_role("group", name="Side B").get_by_label("Name").fill(side_b)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").tap()
    match = re.search(r"/games/(\d+)/$", page.url)
    assert match, page.url
    scorer.taps = 0
    return Game.objects.get(pk=int(match.group(1)))


def expect_won(scorer: Scorer, *, winner: str, score: str, hand: int, point: str) -> None:
    """The banner names the winner, the hand and the deciding point (its category: "on the
    kick", "with jack"); the form is gone."""
    banner = scorer.page.get_by_test_id("winner-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(f"{winner} won {score} on hand {hand} {won_with(point)}")
    expect(scorer.page.get_by_role("button", name="Record hand")).to_have_count(0)
    row = scorer.sheet_row(hand)
    expect(row).to_have_class(re.compile(r"\bdecided\b"))
    expect(row.locator(".award.deciding")).to_have_count(1)


def expect_chart(scorer: Scorer, *, hands: int, a: int, b: int, target: int) -> None:
    """The SVG score progression: one line per side, a point per hand, and the target line."""
    chart = scorer.page.get_by_role("img", name=re.compile("Score after each hand"))
    expect(chart).to_be_visible()
    assert chart.evaluate("el => el.tagName.toLowerCase()") == "svg"
    expect(chart).to_have_accessible_name(re.compile(rf": {a};.*: {b}; target {target}\."))
    for label in ("A", "B"):
        points = chart.get_by_test_id(f"chart-line-{label}").get_attribute("points") or ""
        assert len(points.split()) == hands + 1, points
    expect(chart.get_by_test_id("chart-target")).to_have_count(1)


# --- a plain hand ----------------------------------------------------------------------------


def test_plain_hand_takes_at_most_six_taps(scorer: Scorer) -> None:
    """Stand; high, low, jack and game each to a side: the card, four facts and Record hand."""
    game = GameFactory()
    scorer.scan(game)

    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=SMITH, game=PATEL)
    # Scrolled down to the last fact, the running score is still in view.
    expect(scorer.page.get_by_test_id("scoreboard")).to_be_in_viewport()
    scorer.record()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()

    taps = scorer.taps
    assert taps <= 6, f"a plain hand took {taps} taps"
    small = [(str(loc), w, h) for loc, w, h in scorer.targets if w < 44 or h < 44]
    assert small == [], "tap targets under 44 px"
    assert facts_of(game) == [
        {
            "dealer": "A",
            "turn_ups": ["4H"],
            "beg": "stand",
            "high": "A",
            "low": "B",
            "jack": {"held_by": "A", "won_by": "A"},
            "game": "B",
        }
    ]
    scorer.expect_scores(2, 2)
    expect(scorer.sheet_row(1)).to_contain_text(f"{SMITH} high +1")
    expect(scorer.sheet_row(1)).to_contain_text(f"{PATEL} game +1")
    # The next hand is ready: the other side deals.
    expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text(f"Hand 2 · deals: {PATEL}")
    expect(scorer.page.locator("input[name=dealer][value=B]")).to_be_checked()


#: The game as the phone keeps it for offline use: the hands of the IndexedDB snapshot and of
#: the copy of the page the service worker keeps (its state and its sheet's rows).
KEPT_STATE = """async (pk) => {
  const db = await new Promise((ok, no) => {
    const request = indexedDB.open("allfours-offline");
    request.onsuccess = () => ok(request.result);
    request.onerror = () => no(request.error);
  });
  const snapshot = await new Promise((ok) => {
    const get = db.transaction("games").objectStore("games").get(pk);
    get.onsuccess = () => ok(get.result || null);
  });
  const page = await (await caches.open("allfours-pages")).match(location.pathname);
  if (!snapshot || !page) return null;
  const html = new DOMParser().parseFromString(await page.text(), "text/html");
  const state = JSON.parse(html.getElementById("offline-state").textContent);
  return {
    hands: snapshot.hands.map((hand) => hand.number),
    version: snapshot.version,
    page_hands: state.hands.map((hand) => hand.number),
    page_version: state.version,
    rows: html.querySelectorAll("#sheet-rows tr[id^=hand-]").length,
  };
}"""


def test_hand_is_recorded_in_place_with_javascript(scorer: Scorer) -> None:
    """With JavaScript the game updates in place: no page load, the same document, same URL,
    and no script error, CSP violation or failed load (the browser's own /favicon.ico included)
    as hands are recorded and undone."""
    game = GameFactory()
    errors: list[str] = []
    scorer.page.on("pageerror", lambda exc: errors.append(str(exc)))
    scorer.page.on(
        "console",
        # A failed load is checked by URL below.
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None
        ),
    )
    scorer.page.on(
        "response",
        lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    scorer.scan(game)
    url = scorer.page.url
    navigations: list[str] = []
    scorer.page.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame.parent_frame is None else None,
    )
    scorer.page.evaluate("window.__sameDocument = 'still here'")
    requests: list[str] = []
    scorer.page.on("request", lambda r: requests.append(f"{r.method} {r.url}"))
    # A phone new to the game keeps its page for offline use once it has loaded: wait for that.
    wait_until(scorer.page, lambda: f"GET {url}" in requests)
    requests.clear()

    scorer.play(1, card="4H", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    scorer.play(2, card="5C", high=PATEL, low=PATEL, jack=NOT_OUT, game=PATEL)
    scorer.undo(2)
    expect(scorer.sheet_row(2)).to_have_count(0)

    # Each hand (and the undo) is one request and no other: the phone keeps what the answer
    # changed for offline use, in IndexedDB and in the page the service worker keeps, from the
    # answer itself.
    scorer.page.wait_for_timeout(300)  # time for any further fetch to be asked for
    assert [r.split()[0] for r in requests] == ["POST"] * 3, requests
    seen: list[dict] = []
    wait_until(
        scorer.page,
        lambda: (
            bool(seen.append(scorer.page.evaluate(KEPT_STATE, game.pk)) or seen[-1])
            and seen[-1]["page_hands"] == [1]
        ),
    )
    # The snapshot and the kept page both say what the page shows: one hand, its row.
    kept = seen[-1]
    assert kept["hands"] == kept["page_hands"] == [1] and kept["rows"] == 1, kept
    assert kept["version"] == kept["page_version"], kept

    assert scorer.page.evaluate("window.__sameDocument") == "still here"
    assert navigations == []
    assert errors == [], "script errors or CSP violations on the game page"
    assert scorer.page.url == url
    scorer.expect_scores(3, 0)
    assert hand_count(game) == 1


#: What a reply changes of the game page, each part as HTML with what differs per request (the
#: CSRF token, the one-time keys) and the spacing between tags taken out.
DRAWN_PARTS = """() => {
  const plain = (node) => node ? node.outerHTML
    .replace(/name="(csrfmiddlewaretoken|entry_key)" value="[^"]*"/g, 'name="$1" value=""')
    .replace(/\\s+/g, " ").replace(/> </g, "><").trim() : null;
  const form = document.getElementById("hand-form").cloneNode(true);
  form.querySelector("#hand-preview")?.remove();
  return {
    rows: [...document.querySelectorAll("#sheet-rows tr")].map(plain),
    scores: [...document.querySelectorAll("#scoreboard .score")].map(plain),
    dealer: plain(document.getElementById("next-dealer")),
    bar: plain(document.querySelector("#scoreboard .bar-actions")),
    form: plain(form),
    chart: plain(document.querySelector("svg.progression")),
  };
}"""


def test_a_reply_drawn_by_the_page_shows_what_the_server_s_page_shows(scorer: Scorer) -> None:
    """Once the score bar has its Undo, a hand's reply comes as data and the page draws it: the
    sheet's rows, the scores, who deals next, the bar's Undo and Fix, the next hand's form and
    the chart (every point to the tenth, 113.25 rounded as the server rounds it) are what the
    game page opened afresh shows, and the drawn Fix and form work."""
    game = GameFactory(overrides={"target": 16})
    kinds: list[str] = []
    scorer.page.on(
        "response",
        lambda r: (
            kinds.append(r.headers.get("content-type", "").split(";")[0])
            if r.request.method == "POST"
            else None
        ),
    )
    scorer.scan(game)
    scorer.play(1, card="4H", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    scorer.play(2, card="5C", high=PATEL, low=SMITH, jack=NOT_OUT, game=PATEL)
    scorer.play(3, card="KD", high=PATEL, low=PATEL, jack=PATEL, game=SMITH)
    scorer.play(4, card="9S", high=SMITH, low=PATEL, jack=NOT_OUT, game=PATEL)
    scorer.expect_scores(6, 7)  # Smith & Jones's 6 of 16 is at y = 12 + 162 × 10/16 = 113.25
    # The first hand's reply brings the score bar's Undo; the others are drawn from data.
    assert kinds == ["text/html", "application/json", "application/json", "application/json"]
    drawn = scorer.page.evaluate(DRAWN_PARTS)
    assert len(drawn["rows"]) == 5  # the start row and four hands
    scorer.page.reload()
    assert scorer.page.evaluate(DRAWN_PARTS) == drawn

    # A fifth hand on the page opened afresh is drawn too, then the drawn Fix opens hand 5.
    scorer.play(5, card="2D", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
    assert kinds[-1] == "application/json"
    game.refresh_from_db()
    scorer.expect_scores(*(side.score for side in game.sides.order_by("label")))
    scorer.tap(scorer.page.get_by_test_id("fix-last"))
    expect(scorer.page.get_by_role("heading", name=re.compile("Correct hand 5"))).to_be_visible()
    assert game.hands.count() == 5


@pytest.mark.parametrize(
    "start, low, answer",
    [
        ({"A": 0, "B": 0}, SMITH, "drawn"),
        ({"A": 10, "B": 0}, SMITH, "won"),
        ({"A": 0, "B": 0}, None, "refused"),
    ],
    ids=["drawn-reply", "winning-hand", "refused-hand"],
)
def test_fix_tapped_while_the_hand_is_on_its_way_opens_that_hand(
    scorer: Scorer, start: dict[str, int], low: str | None, answer: str
) -> None:
    """On a slow connection the scorer taps a game button, sees the slip and taps Fix on the
    score bar before the answer is in: the correction that opens is the hand just recorded,
    once its answer is in, never the hand before it (the bar's Fix still pointed there). So
    for a reply the page draws and for the winning hand's (the server's page); a hand refused
    opens no correction (its form says what to put right)."""
    game = GameFactory(hands=1, start_scores=start)
    held: list[Any] = []

    def hold(route: Any) -> None:
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    scorer.scan(game)
    page = scorer.page
    page.route(f"**{game.get_absolute_url()}hands/", hold)
    scorer.card("4H")
    scorer.choose(HIGH, SMITH)
    if low:
        scorer.choose(LOW, low)
    scorer.choose(JACK, NOT_OUT)
    game_buttons = page.get_by_role("group", name=GAME, exact=True)
    scorer.tap(game_buttons.get_by_role("button", name=SMITH, exact=True))
    wait_until(page, lambda: bool(held))
    assert held, "the hand was not sent"

    scorer.tap(page.get_by_test_id("fix-last"))
    page.wait_for_timeout(500)  # time for the previous hand's correction to open, were it to
    expect(page.get_by_test_id("correcting")).to_have_count(0)

    held[0].continue_()
    if answer == "refused":
        expect(page.get_by_test_id("error-low")).to_be_visible()
        page.wait_for_timeout(500)
        expect(page.get_by_test_id("correcting")).to_have_count(0)
        assert hand_count(game) == 1
        return
    expect(page.get_by_text("Hand 2 recorded.")).to_be_visible()
    heading = page.get_by_role("heading", name=re.compile(r"Correct hand \d"))
    expect(heading).to_have_text("Correct hand 2")
    assert hand_count(game) == 2
    game.refresh_from_db()
    assert game.status == (GameStatus.WON if answer == "won" else GameStatus.IN_PROGRESS)


def test_hand_is_recorded_with_plain_form_posts_without_javascript(nojs_scorer: Scorer) -> None:
    """Without JavaScript the card picker and Record hand are plain posts; still six taps."""
    scorer = nojs_scorer
    game = GameFactory()
    scorer.scan(game)
    scorer.page.evaluate("window.__sameDocument = 1")

    taps = scorer.play(1, card="4H", high=SMITH, low=PATEL, jack=SMITH, game=PATEL)

    assert taps <= 6, f"a plain hand took {taps} taps without JavaScript"
    # Each post loaded a new page, ending on the game page after the redirect.
    assert scorer.page.evaluate("window.__sameDocument") is None
    assert re.search(rf"/games/{game.pk}/(#game)?$", scorer.page.url), scorer.page.url
    assert facts_of(game)[0]["turn_ups"] == ["4H"]
    assert facts_of(game)[0]["game"] == "B"
    scorer.expect_scores(2, 2)


# --- whole games -----------------------------------------------------------------------------

PORT, SANDO = "Port of Spain", "San Fernando"


def test_whole_trinidad_game_to_the_winner(scorer: Scorer) -> None:
    """A Trinidad game to 14 from the start page: kick, hang jack, take one, and the bullseye
    won on the jack of hand 6 before the other side's game could count."""
    game = start_game(scorer, variant="trinidad", side_a=PORT, side_b=SANDO)
    assert game.variant == "trinidad"
    expect(scorer.page.get_by_text("No hands yet.")).to_be_visible()

    taps = [
        scorer.play(1, card="4H", high=PORT, low=SANDO, jack=PORT, game=SANDO),
        scorer.play(2, card="6S", high=SANDO, low=SANDO, jack=NOT_OUT, game=PORT),
        scorer.play(3, card="KD", high=PORT, low=PORT, jack=hangs(PORT, SANDO), game=PORT),
        scorer.play(
            4, card="3C", beg="Beg → take one", high=SANDO, low=SANDO, jack=SANDO, game="Tie"
        ),
        scorer.play(5, card="9H", high=PORT, low=SANDO, jack=PORT, game=SANDO),
    ]
    scorer.expect_scores(12, 11)
    expect(scorer.sheet_row(2)).to_contain_text(f"{SANDO} kick 6♠ +2")
    expect(scorer.sheet_row(3)).to_contain_text(f"{PORT} hang jack +3")
    expect(scorer.sheet_row(4)).to_contain_text(f"{PORT} took one +1")
    taps.append(scorer.play(6, card="2C", high=PORT, low=SANDO, jack=PORT, game=SANDO))

    plain = [taps[0], taps[4], taps[5]]
    assert max(plain) <= 6, taps
    scorer.expect_scores(14, 12)
    expect_won(scorer, winner=PORT, score="14–12", hand=6, point="jack")
    expect(scorer.page.get_by_test_id("winner-banner")).to_contain_text(
        f"before {SANDO}'s game could count"
    )
    expect(scorer.sheet_row(6).locator(".award.not-counted")).to_contain_text(f"{SANDO} game +1")
    expect_chart(scorer, hands=6, a=14, b=12, target=14)

    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand, game.decided_category) == (
        GameStatus.WON,
        "A",
        6,
        "jack",
    )
    facts = facts_of(game)
    assert [hand["dealer"] for hand in facts] == ["A", "B", "A", "B", "A", "B"]
    assert facts[1]["turn_ups"] == ["6S"]
    assert facts[2]["jack"] == {"held_by": "B", "won_by": "A"}
    assert facts[3]["beg"] == "take_one"
    assert facts[3]["game"] == "tie"
    assert facts[1]["jack"] is None


def test_whole_west_yorkshire_game_to_the_winner(any_scorer: Scorer) -> None:
    """West Yorkshire to 11, with and without JavaScript: pitch, so no card and no beg; a plain
    hand is five taps; one game point from typed card totals; won on the jack of hand 5."""
    scorer, page = any_scorer, any_scorer.page
    heck, batley = "Heckmondwike", "Batley"
    game = start_game(scorer, variant="west_yorkshire", side_a=heck, side_b=batley)
    expect(page.get_by_test_id("card-picker")).to_have_count(0)
    expect(page.get_by_role("group", name="Beg")).to_have_count(0)

    taps = [
        scorer.play(1, high=heck, low=heck, jack=heck, game=heck),
        scorer.play(2, high=batley, low=batley, jack=wins_jack(batley, heck), game=heck),
        scorer.play(3, high=heck, low=batley, jack=NOT_OUT, counts=(45, 35)),
        scorer.play(4, high=batley, low=heck, jack=batley, game=batley),
        scorer.play(5, high=heck, low=heck, jack=heck, game=batley),
    ]
    assert max(taps[0], taps[3], taps[4]) <= 6, taps
    scorer.expect_scores(11, 7)
    expect_won(scorer, winner=heck, score="11–7", hand=5, point="jack")
    expect_chart(scorer, hands=5, a=11, b=7, target=11)

    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand) == (GameStatus.WON, "A", 5)
    facts = facts_of(game)
    assert all("turn_ups" not in hand and "beg" not in hand for hand in facts)
    assert facts[1]["jack"] == {"held_by": "A", "won_by": "B"}
    assert facts[2]["game"] == {"A": 45, "B": 35}
    assert facts[2]["jack"] is None


def test_start_page_leads_to_scoring_a_game(scorer: Scorer) -> None:
    """The start page promises scoring on a phone: it must link to the games or a new game."""
    scorer.open("/")
    links = scorer.page.locator("a[href$='/games/'], a[href$='/games/new/']")
    expect(links.first).to_be_visible()


# --- a refused hand --------------------------------------------------------------------------


def test_invalid_hand_shows_the_error_next_to_the_fact_and_saves_nothing(
    any_scorer: Scorer,
) -> None:
    """A turned-up jack cannot also be in play: the refusal sits by the jack; nothing is saved,
    and the taps already made are kept so only the wrong fact needs changing."""
    scorer = any_scorer
    game = GameFactory()
    scorer.scan(game)

    scorer.enter(card="JH", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
    response = scorer.record()

    assert response is not None and response.status == 422
    jack = scorer.page.get_by_role("group", name=JACK, exact=True)
    expect(jack.get_by_test_id("error-jack")).to_contain_text("J♥ was turned up")
    expect(scorer.page.get_by_test_id("error-high")).to_have_count(0)
    assert hand_count(game) == 0
    scorer.expect_scores(0, 0)
    expect(
        scorer.page.get_by_role("group", name=HIGH, exact=True).get_by_role("radio", name=SMITH)
    ).to_be_checked()
    expect(scorer.page.get_by_label("Cards turned up")).to_have_value("JH")

    # Fix the one fact and record: the kick of the turned jack scores for the dealer.
    scorer.choose(JACK, NOT_OUT)
    scorer.record()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()
    assert facts_of(game)[0]["jack"] is None
    scorer.expect_scores(6, 0)


def test_two_cards_typed_mean_the_pack_was_run_as_when_picked(scorer: Scorer) -> None:
    """A second card turned up means the pack was run: typed ("JH 6H") as when picked with the
    card picker, the beg moves from Stand to "run the pack" (and back to Stand with one card
    left), and a hand of two typed cards is recorded as run, not refused."""
    game = GameFactory()
    scorer.scan(game)
    form = scorer.page.locator("#hand-form")
    run, stand = (
        form.locator("input[name=beg][value=run]"),
        form.locator("input[name=beg][value=stand]"),
    )
    typed = scorer.page.get_by_label("Cards turned up")

    scorer.card("JH")
    scorer.card("6H")
    expect(run).to_be_checked()
    scorer.tap(scorer.page.get_by_test_id("drop-card"))
    expect(stand).to_be_checked()
    scorer.tap(scorer.page.get_by_test_id("drop-card"))
    expect(typed).to_have_value("")

    typed.press_sequentially("JH 6H")
    expect(run).to_be_checked()
    typed.press("Backspace")
    typed.press("Backspace")
    typed.press("Backspace")
    expect(stand).to_be_checked()
    typed.fill("")
    typed.press_sequentially("4H 9S")
    scorer.enter(high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    scorer.record()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()
    hand = facts_of(game)[0]
    assert (hand["turn_ups"], hand["beg"]) == (["4H", "9S"], "run")


def test_a_run_chosen_before_the_cards_stays_a_run(scorer: Scorer) -> None:
    """At the table the beg comes before the cards: "Beg → run the pack" tapped first, then the
    first card, turned the beg back to Stand and the hand was recorded as a stand (kicks on the
    cards not yet entered lost). The scorer's run stays chosen; with one card it is refused by
    name; with the second card it is recorded as run."""
    game = GameFactory()
    scorer.scan(game)
    run = scorer.page.locator("#hand-form input[name=beg][value=run]")
    scorer.choose("Beg", "Beg → run the pack")
    scorer.card("8S")
    expect(run).to_be_checked()
    scorer.enter(high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    scorer.record()
    expect(scorer.page.locator("#hand-form")).to_contain_text("turns up at least two cards")
    assert facts_of(game) == []
    expect(run).to_be_checked()
    scorer.card("9H")
    scorer.enter(high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    scorer.record()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()
    hand = facts_of(game)[0]
    assert (hand["turn_ups"], hand["beg"]) == (["8S", "9H"], "run")


def test_a_fresh_pitch_form_says_nothing_of_the_hand_till_something_is_tapped(
    scorer: Scorer,
) -> None:
    """A West Yorkshire game's fresh form (its dealer suggested, no card to turn) read "Before
    game, this hand gives no points." before anything was tapped, and beside High tapped alone:
    it says nothing until high and low are both in, then what the hand gives."""
    game = GameFactory(west_yorkshire=True)
    scorer.scan(game)
    preview = scorer.page.get_by_test_id("hand-preview")
    expect(preview).to_have_text("")
    # High alone: it counts with low, so nothing yet (it said "no points" beside it).
    scorer.choose(HIGH, SMITH)
    expect(preview).to_have_text("")
    scorer.choose(LOW, PATEL)
    expect(preview).to_contain_text(
        f"Before game, this hand gives: {SMITH} high +1, {PATEL} low +1."
    )


def test_the_preview_says_a_take_one_as_the_score_sheet_does(scorer: Scorer) -> None:
    """While the scorer taps, a beg answered with take one read "Patel & Brown gift +1" where
    the sheet, once recorded, says what the table says: the side that begged took one."""
    game = GameFactory(trinidad=True)
    scorer.scan(game)
    scorer.card("3C")
    scorer.choose("Beg", "Beg → take one")
    preview = scorer.page.get_by_test_id("hand-preview")
    expect(preview).to_contain_text(f"Before game, this hand gives: {PATEL} took one +1.")
    expect(preview).not_to_contain_text("gift")


def test_missing_fact_is_asked_for_next_to_it(scorer: Scorer) -> None:
    """Forgetting a fact (here low) names it where the scorer taps it; nothing is saved."""
    game = GameFactory()
    scorer.scan(game)
    scorer.card("4H")
    scorer.choose(HIGH, SMITH)
    scorer.choose(JACK, SMITH)
    scorer.pending_game = SMITH
    scorer.record()

    low = scorer.page.get_by_role("group", name=LOW, exact=True)
    expect(low.get_by_test_id("error-low")).to_be_visible()
    assert hand_count(game) == 0


# --- undo, correct, audit --------------------------------------------------------------------


def test_undo_the_last_hand_and_see_it_in_the_audit_trail(any_scorer: Scorer) -> None:
    """Undo takes back only the last hand (in place with JavaScript, a plain post without); the
    audit trail keeps who, when and the facts that were undone."""
    scorer = any_scorer
    game = GameFactory()
    user = log_in(scorer.page, scorer.base_url, "marcia")
    scorer.scan(game)
    scorer.play(1, card="4H", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
    scorer.play(2, card="5D", high=PATEL, low=SMITH, jack=PATEL, game=PATEL)
    scorer.expect_scores(5, 3)
    scorer.page.evaluate("window.__sameDocument = 1")

    scorer.undo(2)

    expect(scorer.page.get_by_text("Hand 2 undone")).to_be_visible()
    same_document = scorer.page.evaluate("window.__sameDocument") == 1
    assert same_document is scorer.js
    scorer.expect_scores(4, 0)
    expect(scorer.sheet_row(2)).to_have_count(0)
    expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text("Hand 2")
    expect(scorer.page.get_by_test_id("undo")).to_contain_text("Undo hand 1")
    assert hand_count(game) == 1

    with scorer.page.expect_navigation():
        scorer.page.get_by_role("link", name="Audit trail").tap()
    entry = scorer.page.get_by_test_id("audit-undo-2")
    expect(entry).to_be_visible()
    # The public audit page names the role, never the account (only secretaries see that).
    expect(entry).to_contain_text("scorer")
    expect(entry).not_to_contain_text(user.username)
    expect(entry).to_contain_text("5–3 → 4–0")
    expect(entry.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d\d-\d\dT"))
    # What the undo took back, in the page's words (never the stored JSON).
    expect(entry.get_by_test_id("audit-changes")).to_contain_text("Cards turned up: 5♦ → —")
    revision = HandRevision.objects.get(game=game, action="undo")
    assert revision.hand_number == 2 and revision.by == user
    assert revision.before["turn_ups"] == ["5D"]


def test_no_keep_it_closes_undos_question_and_keeps_the_hand(any_scorer: Scorer) -> None:
    """Undo's question offered only "Yes": "No, keep it" closes it (in place with JavaScript,
    the game afresh without), the hand kept and Undo ready to ask again."""
    scorer = any_scorer
    game = GameFactory(hands=3)
    scorer.scan(game)
    scorer.page.evaluate("window.__sameDocument = 1")
    scorer.page.get_by_test_id("undo").tap()
    keep = scorer.page.get_by_role("link", name="No, keep it", exact=True)
    expect(keep).to_be_visible()
    if scorer.js:
        keep.tap()
    else:
        with scorer.page.expect_navigation():
            keep.tap()
    expect(keep).to_be_hidden()
    assert scorer.page.locator("#undo").evaluate("d => d.open") is False
    assert (scorer.page.evaluate("window.__sameDocument") == 1) is scorer.js
    assert scorer.page.url == scorer.base_url + game.get_absolute_url()
    assert hand_count(game) == 3
    scorer.page.get_by_test_id("undo").tap()
    expect(scorer.page.get_by_role("button", name="Yes, undo hand 3", exact=True)).to_be_visible()


def test_double_tap_on_undo_takes_back_one_hand(any_scorer: Scorer) -> None:
    """Undo carries its own one-time key: a double tap takes back the last hand, not two."""
    scorer = any_scorer
    game = GameFactory(hands=3)
    scorer.scan(game)
    scorer.page.get_by_test_id("undo").tap()
    undo = scorer.page.get_by_role("button", name="Yes, undo hand 3", exact=True)
    if scorer.js:
        undo.evaluate("b => { b.form.requestSubmit(b); b.form.requestSubmit(b); }")
    else:
        undo.dblclick()
    expect(scorer.page.get_by_text("Hand 3 undone")).to_be_visible()
    if scorer.js:
        scorer.settled()

    assert hand_count(game) == 2
    assert HandRevision.objects.filter(game=game, action="undo").count() == 1
    expect(scorer.page.get_by_test_id("undo")).to_contain_text("Undo hand 2")


def test_correct_a_hand_rescores_the_game_and_is_audited(any_scorer: Scorer) -> None:
    """Fix hand 1 after hand 2: the game is re-scored from the facts; the audit trail shows who,
    when, why, and the facts before and after. With JavaScript the form opens in place and the
    reply changes the scores and the totals without loading the page; without it, the form is a
    page of its own."""
    scorer = any_scorer
    game = GameFactory()
    user = log_in(scorer.page, scorer.base_url, "desmond")
    scorer.scan(game)
    scorer.play(1, card="4H", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
    scorer.play(2, card="5D", high=PATEL, low=SMITH, jack=PATEL, game=PATEL)
    scorer.expect_scores(5, 3)
    scorer.page.evaluate("window.__sameDocument = 1")

    fix = scorer.page.get_by_role("link", name="Fix hand 1")
    if scorer.js:
        fix.tap()
    else:
        with scorer.page.expect_navigation():
            fix.tap()
    expect(scorer.page.get_by_role("heading", name=re.compile("Correct hand 1"))).to_be_visible()
    # The form holds hand 1's facts; change who made game.
    game_group = scorer.page.get_by_test_id("correct-form").get_by_role(
        "group", name=GAME, exact=True
    )
    expect(game_group.get_by_role("button", name=SMITH)).to_have_attribute("aria-pressed", "true")
    scorer.page.get_by_label("Why the correction (optional)").fill("game was Patel's, 44-36")
    scorer.pending_game = PATEL
    scorer.record()  # the game button saves

    expect(scorer.page.get_by_text("Hand 1 corrected; the game was re-scored.")).to_be_visible()
    scorer.expect_scores(4, 4)
    expect(scorer.sheet_row(1)).to_contain_text(f"{PATEL} game +1")
    expect(scorer.sheet_row(1).locator("td.total")).to_have_text(["3", "1"])
    expect(scorer.sheet_row(2).locator("td.total")).to_have_text(["4", "4"])
    assert (scorer.page.evaluate("window.__sameDocument") == 1) is scorer.js
    # The hand form is back for hand 3, the correction form gone.
    expect(scorer.page.get_by_test_id("correct-form")).to_have_count(0)
    expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text("Hand 3")
    assert facts_of(game)[0]["game"] == "B"
    assert hand_count(game) == 2

    scorer.page.get_by_role("link", name="Audit trail").tap()
    entry = scorer.page.get_by_test_id("audit-correct-1")
    expect(entry).to_contain_text("scorer")
    expect(entry).not_to_contain_text(user.username)
    expect(entry).to_contain_text("Reason: game was Patel's, 44-36")
    expect(entry).to_contain_text("5–3 → 4–4")
    expect(entry.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d\d-\d\dT"))
    expect(entry.get_by_test_id("audit-changes")).to_contain_text(
        "Game: Smith & Jones → Patel & Brown"
    )


def test_a_correction_in_place_changes_the_totals_and_cancel_needs_no_request(
    scorer: Scorer,
) -> None:
    """At 390×844 with JavaScript: Cancel puts the hand form back (with what was tapped) without
    asking the server; a correction of hand 2 of 6 moves every later total and the chart without
    loading the page; its message goes with the next hand. No script error or CSP violation on
    the way."""
    game = GameFactory(hands=6, overrides={"target": 61})
    errors: list[str] = []
    scorer.page.on("pageerror", lambda exc: errors.append(str(exc)))
    scorer.page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    scorer.scan(game)
    scorer.page.evaluate("window.__sameDocument = 1")
    totals = scorer.page.locator("#hand-6 td.total")
    before = [int(t) for t in totals.all_inner_texts()]
    chart = scorer.page.get_by_test_id("chart-line-A")
    line = chart.get_attribute("points")

    scorer.choose(HIGH, SMITH)  # a tap on the next hand, kept through Cancel
    with scorer.page.expect_response(lambda r: "/correct/" in r.url):
        scorer.page.get_by_role("link", name="Fix hand 2").tap()
    scorer.settled()
    expect(scorer.page.get_by_test_id("correct-form")).to_be_in_viewport()
    expect(scorer.page.get_by_test_id("hand-form")).to_have_count(0)
    # htmx asks with XMLHttpRequest, a page load is a document (the offline module's own
    # fetches, keeping the page for use without a connection, are neither).
    requests: list[str] = []
    scorer.page.on(
        "request",
        lambda request: (
            requests.append(request.url) if request.resource_type in ("xhr", "document") else None
        ),
    )
    scorer.page.get_by_test_id("cancel-correction").tap()
    expect(scorer.page.get_by_test_id("correct-form")).to_have_count(0)
    expect(scorer.page.get_by_test_id("hand-form")).to_be_visible()
    high = scorer.page.get_by_role("group", name=HIGH, exact=True)
    expect(high.get_by_role("radio", name=SMITH, exact=True)).to_be_checked()
    assert requests == []
    assert scorer.page.evaluate("window.__sameDocument") == 1

    scorer.page.get_by_role("link", name="Fix hand 2").tap()
    scorer.settled()
    hand = Hand.objects.get(game=game, number=2)
    moved = PATEL if hand.facts["high"] == "A" else SMITH
    scorer.choose(HIGH, moved)
    response = scorer.record(button="Save correction")
    assert response is not None and response.status == 200

    expect(scorer.page.get_by_text("Hand 2 corrected")).to_be_visible()
    step = 1 if moved == PATEL else -1
    expect(totals).to_have_text([str(before[0] - step), str(before[1] + step)])
    expect(scorer.page.locator("#hand-3 td.total").first).not_to_have_text("")
    assert chart.get_attribute("points") != line
    assert scorer.page.evaluate("window.__sameDocument") == 1
    scorer.expect_scores(before[0] - step, before[1] + step)

    scorer.play(7, card="4H", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
    expect(scorer.page.get_by_text("Hand 2 corrected")).to_have_count(0)
    assert errors == [], "script errors or CSP violations while correcting in place"


# --- double submit and two phones ------------------------------------------------------------


def _form_data(page: Page) -> dict[str, str]:
    """The hand form's fields as the browser would post them (CSRF token and one-time key)."""
    return page.locator("#hand-form").evaluate(
        "form => Object.fromEntries(new FormData(form).entries())"
    )


def test_double_tap_on_record_hand_records_one_hand(any_scorer: Scorer) -> None:
    """Two taps on Record hand in quick succession record the hand once and show it once."""
    scorer = any_scorer
    game = GameFactory()
    scorer.scan(game)
    scorer.enter(card="4H", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)

    group = scorer.page.get_by_role("group", name=GAME, exact=True)
    record = group.get_by_role("button", name=SMITH, exact=True)
    if scorer.js:
        # Both taps land before the first answer can come back.
        record.evaluate("b => { b.click(); b.click(); }")
    else:
        record.dblclick()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()
    if scorer.js:
        scorer.settled()

    assert hand_count(game) == 1
    scorer.expect_scores(4, 0)
    expect(scorer.page.get_by_role("table").locator("tbody tr[id^=hand-]")).to_have_count(1)


@pytest.mark.parametrize("number", [1, 2], ids=["the reply rendered", "the reply drawn"])
def test_a_second_tap_landing_on_the_next_hands_form_is_not_sent(
    scorer: Scorer, number: int
) -> None:
    """A double tap on a game button slow enough for the first tap's answer to come between:
    the second lands on the next hand's form, just shown with nothing tapped. It is not sent:
    "Hand N recorded." stays, no "Nothing was saved", one request. A tap on that form a moment
    later is sent, and says what is missing."""
    game = GameFactory()
    posts: list[str] = []
    scorer.page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    scorer.scan(game)
    if number == 2:
        scorer.play(1, card="4H", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    scorer.enter(card="5C", high=PATEL, low=PATEL, jack=NOT_OUT)
    button = scorer.page.get_by_role("group", name=GAME, exact=True).get_by_role(
        "button", name=PATEL, exact=True
    )
    button.tap()
    expect(scorer.page.get_by_text(f"Hand {number} recorded.")).to_be_visible()
    button.tap()  # the same place on the next hand's form, at once
    scorer.page.wait_for_timeout(300)
    expect(scorer.page.get_by_text(f"Hand {number} recorded.")).to_be_visible()
    expect(scorer.page.get_by_test_id("error-summary")).to_have_count(0)
    assert len(posts) == number and hand_count(game) == number

    scorer.page.wait_for_timeout(700)
    with scorer.page.expect_response(lambda r: r.request.method == "POST"):
        button.tap()
    expect(scorer.page.get_by_test_id("error-summary")).to_contain_text("Nothing was saved")
    assert hand_count(game) == number


def test_resubmitted_hand_form_records_once_and_shows_the_same_result(scorer: Scorer) -> None:
    """A form sent again with its one-time key (a retry after a dropped connection) finds the
    hand it already recorded: one hand, and the same result shown."""
    game = GameFactory()
    scorer.scan(game)
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=SMITH, game=SMITH)
    sent = _form_data(scorer.page) | {"game": "A"}  # what the game button adds
    scorer.record()
    expect(scorer.page.get_by_text("Hand 1 recorded.")).to_be_visible()

    again = scorer.page.request.post(
        scorer.base_url + f"/games/{game.pk}/hands/", form=sent, max_redirects=5
    )

    assert again.ok, again.status
    body = again.text()
    assert "Hand 1 recorded." in body
    assert re.search(r'data-testid="score-value-A">3<', body)
    assert re.search(r'data-testid="score-value-B">1<', body)
    assert hand_count(game) == 1
    assert HandRevision.objects.filter(game=game, action="record").count() == 1
    scorer.page.reload()
    scorer.expect_scores(3, 1)
    expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text("Hand 2")


def test_second_phone_with_a_stale_form_is_refused_and_shown_the_game(
    browser: Browser, live_server: Any, nojs_scorer: Scorer
) -> None:
    """Two phones at one table: phone 2's form for hand 1 arrives after phone 1 recorded hand 1.
    Without JavaScript it is refused with a clear message and the game as it is now; nothing is
    overwritten. (With it, phone 2's hand is kept beside phone 1's: test_browser_two_phones.)"""
    game = GameFactory()
    phone1 = Scorer(phone_context(browser).new_page(), live_server.url)
    phone2 = nojs_scorer
    try:
        phone1.scan(game)
        phone2.scan(game)

        phone1.play(1, card="4H", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
        phone2.enter(card="9S", high=PATEL, low=PATEL, jack=PATEL, game=PATEL)
        response = phone2.record()

        assert response is not None and response.status == 409
        notice = phone2.page.get_by_role("alert").filter(has_text="moved on")
        expect(notice).to_contain_text("This form was for hand 1")
        expect(notice).to_contain_text("Nothing was saved")
        phone2.expect_scores(4, 0)
        expect(phone2.sheet_row(1)).to_contain_text(f"{SMITH} high +1")
        expect(phone2.page.get_by_test_id("next-dealer")).to_contain_text("Hand 2")
        assert hand_count(game) == 1
        assert facts_of(game)[0]["turn_ups"] == ["4H"]
        assert facts_of(game)[0]["high"] == "A"

        # Phone 2 now has the current form and can record the next hand.
        phone2.play(2, card="9S", high=PATEL, low=PATEL, jack=PATEL, game=PATEL)
        assert hand_count(game) == 2
        phone2.expect_scores(4, 4)
    finally:
        phone1.page.context.close()


def test_no_hand_after_the_game_is_won(any_scorer: Scorer) -> None:
    """A form left open on a phone while another phone won the game records nothing: without
    JavaScript it is refused; with it, the same hand as the other phone's winning one is kept
    once (a different one is kept beside it: test_browser_winner_view)."""
    scorer = any_scorer
    game = GameFactory()
    record_hands(
        game,
        [
            {
                "dealer": d,
                "turn_ups": ["4H"],
                "beg": "stand",
                "high": "A",
                "low": "A",
                "jack": {"held_by": "A", "won_by": "A"},
                "game": "A",
            }
            for d in ("A", "B", "A")
        ],
    )
    scorer.scan(game)
    scorer.enter(card="5C", high=SMITH, low=SMITH, jack=NOT_OUT, game=SMITH)
    record_hands(
        game,
        [
            {
                "dealer": "B",
                "turn_ups": ["5C"],
                "beg": "stand",
                "high": "A",
                "low": "A",
                "jack": None,
                "game": "A",
            }
        ],
    )
    response = scorer.record()

    assert response is not None and response.status == 409
    if scorer.js:
        expect(scorer.page.get_by_test_id("already-recorded")).to_have_text(
            "Hand 4 was already recorded on the other phone, exactly as kept here: kept once."
        )
    else:
        expect(scorer.page.get_by_role("alert")).to_contain_text("already won")
    expect(scorer.page.get_by_test_id("winner-banner")).to_contain_text(f"{SMITH} won 14–0")
    assert hand_count(game) == 4


def test_second_phone_cannot_undo_a_hand_it_has_not_seen(
    browser: Browser, live_server: Any, scorer: Scorer
) -> None:
    """Phone 2 still shows "Undo hand 1" after phone 1 recorded hand 2: its undo is refused and
    phone 1's hand stays."""
    game = GameFactory(hands=1)
    phone2 = Scorer(phone_context(browser).new_page(), live_server.url)
    try:
        scorer.scan(game)
        phone2.scan(game)
        scorer.play(2, card="4H", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)

        response = phone2.undo(1)

        assert response is not None and response.status == 409
        expect(phone2.page.get_by_role("alert")).to_contain_text("Nothing was")
        expect(phone2.sheet_row(2)).to_be_visible()
        assert hand_count(game) == 2
        assert not HandRevision.objects.filter(game=game, action="undo").exists()
    finally:
        phone2.page.context.close()


def test_second_phone_cannot_overwrite_a_correction_it_has_not_seen(
    browser: Browser, live_server: Any, scorer: Scorer
) -> None:
    """Two phones open the correction of hand 1; the second to save is refused, the first
    correction stays."""
    game = GameFactory(hands=2)
    phone2 = Scorer(phone_context(browser).new_page(), live_server.url)
    path = f"/games/{game.pk}/hands/1/correct/"
    try:
        scorer.scan(game)
        phone2.scan(game)
        scorer.open(path)
        phone2.open(path)
        before = facts_of(game)[0]
        first = "B" if before["game"] == "A" else "A"
        names = {"A": SMITH, "B": PATEL}
        with scorer.page.expect_navigation():  # the game button saves the correction
            scorer.page.get_by_role("group", name=GAME, exact=True).get_by_role(
                "button", name=names[first]
            ).tap()
        expect(scorer.page.get_by_text("Hand 1 corrected")).to_be_visible()

        phone2.choose(HIGH, names["B" if before["high"] == "A" else "A"])
        phone2.page.get_by_role("button", name="Save correction").tap()

        expect(phone2.page.get_by_text("changed on another phone")).to_be_visible()
        facts = facts_of(game)[0]
        assert facts["game"] == first
        assert facts["high"] == before["high"]
        assert HandRevision.objects.filter(game=game, action="correct").count() == 1
    finally:
        phone2.page.context.close()


def test_correcting_the_winning_hand_can_reopen_the_game(scorer: Scorer) -> None:
    """A correction re-scores the game: taking the deciding points away puts it back in play."""
    game = GameFactory(west_yorkshire=True, won=True)
    assert game.status == GameStatus.WON and game.decided_hand == 3
    scorer.scan(game)
    scorer.open(f"/games/{game.pk}/hands/3/correct/")
    for legend in (HIGH, LOW, JACK):
        scorer.choose(legend, PATEL)
    with scorer.page.expect_navigation():  # the game button saves the correction
        scorer.page.get_by_role("group", name=GAME, exact=True).get_by_role(
            "button", name=PATEL
        ).tap()

    expect(scorer.page.get_by_text("Hand 3 corrected")).to_be_visible()
    expect(scorer.page.get_by_test_id("winner-banner")).to_have_count(0)
    scorer.expect_scores(8, 4)
    expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text("Hand 4")
    expect(scorer.page.get_by_role("button", name="Record hand")).to_be_visible()
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand) == (GameStatus.IN_PROGRESS, "", None)


def test_undo_the_winning_hand_of_a_won_game_opened_afresh(any_scorer: Scorer) -> None:
    """A game already won when its page is opened (a reload, a second phone, the scorer coming
    back to it): Undo takes the winning hand back and the game is in play again. With
    JavaScript its answer had nowhere to go (htmx:targetError, #entry): the tap did nothing."""
    scorer = any_scorer
    game = GameFactory(west_yorkshire=True, won=True)
    assert game.status == GameStatus.WON and game.decided_hand == 3
    scorer.scan(game)
    expect(scorer.page.get_by_test_id("winner-banner")).to_be_visible()

    scorer.undo(3)

    expect(scorer.page.get_by_text("Hand 3 undone")).to_be_visible()
    expect(scorer.page.get_by_test_id("winner-banner")).to_have_count(0)
    expect(scorer.page.get_by_test_id("next-dealer")).to_contain_text("Hand 3")
    expect(scorer.page.get_by_role("button", name="Record hand")).to_be_visible()
    game.refresh_from_db()
    assert (game.status, hand_count(game)) == (GameStatus.IN_PROGRESS, 2)


def test_score_sheet_fits_a_phone_without_scrolling_sideways(scorer: Scorer) -> None:
    """Three long names and long award chips: every running total and every Fix link is on
    screen at 390 px, not hidden in a sideways-scrolling table."""
    game = GameFactory(
        all_fives=True,
        side_names=("Ann Sheffield-Brown", "Bob Hebden-Royd", "Cat Ackroyd-Smith"),
        players=(("Ann",), ("Bob",), ("Cat",)),
    )
    suits = "CDHS"
    record_hands(
        game,
        [
            {
                "dealer": "ABC"[n % 3],
                "turn_ups": [f"4{suits[n]}"],
                "captures": [
                    {"card": f"10{suits[n]}", "side": "ABC"[n % 3]},
                    {"card": f"5{suits[n]}", "side": "ABC"[(n + 1) % 3]},
                    {"card": f"K{suits[n]}", "side": "ABC"[(n + 2) % 3]},
                ],
            }
            for n in range(3)
        ],
    )
    scorer.scan(game)
    sheet = scorer.page.get_by_test_id("score-sheet")
    sheet.scroll_into_view_if_needed()
    width = PHONE["width"]
    for number in (1, 2, 3):
        row = scorer.sheet_row(number)
        fix = row.get_by_test_id(f"correct-{number}")
        box = fix.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, (number, box)
        assert box["width"] >= 44 and box["height"] >= 44, box
        for cell in row.locator("td.total").all():
            cell_box = cell.bounding_box()
            assert cell_box is not None and cell_box["x"] + cell_box["width"] <= width, cell_box
    sideways = sheet.locator(".table-wrap").evaluate("el => el.scrollWidth - el.clientWidth")
    assert sideways <= 0


#: The words of an element's text that the browser laid out over more than one line.
BROKEN_WORDS = """el => {
  const text = el.firstChild, broken = [];
  for (const match of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) {
      broken.push(match[0]);
    }
  }
  return broken;
}"""


def test_a_pub_name_heads_the_score_sheet_in_whole_words(scorer: Scorer) -> None:
    """Two sides named after their pubs: each name wraps between its words on a phone, not
    inside one ("Shoulder of Mutton", not "Should/er of/Mutto/n"), and the sheet still fits."""
    game = GameFactory(side_names=("Shoulder of Mutton", "Black Bull Liversedge"))
    record_hands(
        game,
        [{"dealer": "A", "turn_ups": ["4H"], "high": "A", "low": "B", "jack": None, "game": "A"}],
    )
    scorer.scan(game)
    sheet = scorer.page.get_by_test_id("score-sheet")
    sheet.scroll_into_view_if_needed()
    for label in "AB":
        assert scorer.page.get_by_test_id(f"sheet-head-{label}").evaluate(BROKEN_WORDS) == []
    assert sheet.locator(".table-wrap").evaluate("el => el.scrollWidth - el.clientWidth") <= 0


def test_a_third_side_deals_first_only_once_a_game_has_one(scorer: Scorer) -> None:
    """Starting a game of two sides offers no "Side C" to deal first; asking for a third side
    does."""
    scorer.open("/games/new/")
    page = scorer.page
    expect(page.get_by_test_id("first_dealer-C")).to_be_hidden()
    expect(page.get_by_test_id("first_dealer-B")).to_be_visible()
    page.locator("details.side-c > summary").click()
    page.locator("input[name=three_sides]").check()
    expect(page.get_by_test_id("first_dealer-C")).to_be_visible()


def test_the_score_bar_shows_a_pub_name_whole_in_the_height_of_a_short_one(scorer: Scorer) -> None:
    """The sticky score at the top: "Shoulder of Mutton" on two lines, not "Shoulder of M…",
    and the bar no taller than for "Smith & Jones" (it stays over the form as the scorer
    scrolls)."""
    heights = []
    for names in (
        ("Smith & Jones", "Patel & Brown"),
        ("Shoulder of Mutton", "Black Bull Liversedge"),
    ):
        scorer.scan(GameFactory(side_names=names))
        bar = scorer.page.get_by_test_id("scoreboard")
        box = bar.bounding_box()
        assert box is not None
        heights.append(box["height"])
        clipped = bar.locator(".score-name").evaluate_all(
            "names => names.filter(n => n.scrollHeight > n.clientHeight + 1"
            " || n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)"
        )
        assert clipped == [], names
    assert abs(heights[0] - heights[1]) <= 1, heights


def test_every_link_in_the_site_header_is_a_44px_target(scorer: Scorer) -> None:
    """The header's links (the site's name included) are tap targets of at least 44 px."""
    scorer.open("/games/")
    links = scorer.page.locator("header a").all()
    assert links
    for link in links:
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (
            link.inner_text(),
            box,
        )


def test_a_long_side_name_stays_inside_its_tap_buttons(scorer: Scorer) -> None:
    """A name with a long word (Featherstonehaugh-Smythe) wraps inside each button rather than
    spilling over the next one."""
    game = GameFactory(
        seven_up=True,
        side_names=("Ann", "Bartholomew Featherstonehaugh-Smythe"),
        players=(("Ann",), ("Bartholomew",)),
    )
    scorer.scan(game)
    spilled = scorer.page.locator("label.tap").evaluate_all(
        "labels => labels.filter(l => l.scrollWidth > l.clientWidth + 1)"
        ".map(l => l.innerText.trim())"
    )
    assert spilled == []


def test_a_refused_hand_says_so_where_the_phone_is_looking(scorer: Scorer) -> None:
    """After a refusal the game is shown from its top: the summary there is on screen and its
    link takes the scorer to the question to fix."""
    game = GameFactory()
    scorer.scan(game)
    scorer.enter(card="JH", high=SMITH, low=SMITH, jack=SMITH, game=SMITH)
    response = scorer.record()
    assert response is not None and response.status == 422
    summary = scorer.page.get_by_test_id("error-summary")
    expect(summary).to_be_in_viewport()
    expect(summary).to_contain_text("Nothing was saved")
    summary.get_by_role("link", name=JACK).tap()
    expect(scorer.page.get_by_test_id("error-jack")).to_be_in_viewport()
    assert hand_count(game) == 0


def test_a_hand_sent_after_the_link_was_revoked_says_why_in_place(scorer: Scorer) -> None:
    """The secretary revoked the table's link (a lost fixture card) while its phone had the
    game open: the next hand was refused (403) with the refusal page, which htmx dropped, so
    the scorer's tap did nothing at all. The refusal shows where the game was; nothing is
    recorded."""
    game = GameFactory(trinidad=True)
    scorer.scan(game)
    ScoringLink.objects.filter(pk=game.scoring_link_id).update(revoked_at=timezone.now())
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    response = scorer.record()
    assert response is not None and response.status == 403
    expect(scorer.page.get_by_test_id("forbidden")).to_be_visible()
    expect(scorer.page.get_by_text("You cannot change this game")).to_be_visible()
    assert not Hand.objects.filter(game=game).exists()


def test_a_hand_sent_for_a_game_no_longer_kept_says_so_in_place(scorer: Scorer) -> None:
    """The game was taken away while its phone had it open (a table's next game, when the game
    before it came back into play): the next hand got a "not found" that htmx dropped, so the
    tap did nothing. The page says where the game was that it is no longer kept, with the
    link to go on with the game in play; nothing is recorded."""
    game = GameFactory(trinidad=True)
    scorer.scan(game)
    # Kept for offline use first, as a phone that scored on does (a page it keeps later is
    # read again, and is no longer there).
    scorer.page.wait_for_function("() => document.documentElement.dataset.kept === 'yes'")
    take_away(Game.objects.get(pk=game.pk))
    scorer.enter(card="4H", high=SMITH, low=PATEL, jack=NOT_OUT, game=SMITH)
    response = scorer.record()
    assert response is not None and response.status == 410
    expect(scorer.page.get_by_test_id("game-gone")).to_contain_text("Nothing was saved.")
    expect(scorer.page.get_by_test_id("game-in-play")).to_have_attribute(
        "href", game.scoring_link.get_absolute_url()
    )
    assert not Hand.objects.exists()
