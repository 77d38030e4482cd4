"""How long recording a hand takes, against the app's cheapest page.

    .venv/bin/python bench/hand_entry.py [--games 3] [--clients 2] [--hands-per-game 60]
                                         [--time-limit 300]

Runs the app as in production: the production settings (`DJANGO_DEBUG=0`, a secret key, the
hosts allowed, compressed collected static files) under gunicorn with `config/gunicorn.py`, as
`make serve` does, on a free port on 127.0.0.1 with a throwaway SQLite database in a temporary
folder (or the database in DATABASE_URL, if set). Requests say they came through the TLS proxy
(`X-Forwarded-Proto: https`) and accept what Chrome on a phone accepts (Zstandard, Brotli,
gzip: `bench/coding.py`), as a phone behind the proxy does.

A scorer's phone starts a Trinidad game to 500 through the start form (which sends it to the
game, holding the game's scoring link: that phone may score it) and records plain hands over
HTTP until its game reaches hand `--hands-per-game` (60), as phones with JavaScript do: one
POST per hand, carrying the form's CSRF token, one-time key and expected hand number, answered
with only what changed (htmx): from hand 2 on (once the page's score bar has Undo) as data the
page draws itself (`X-Light-Reply: json`, static/scoring/scoring.js), as the page asks for it.
After each hand it fetches the cheapest page, named in the output
(the candidate with the lowest median in a warm-up), with the same cookies, so both are timed in
the same run.

First one scorer alone plays `--games` (3) games one after another: a hand's cost against the
page's with nothing else running, which is what R, p95 and G report. Then `--clients` (2)
scorers play a game each at the same time, for one line on the shared machine: hands per
second, and the hand's median against the page's under that load (on SQLite, one scorer's hand
waits for the other's write; on 2 cores the two also share the processors).

Then a scorer's phone in Chromium (Debian's, at 390×844, as the browser tests run it) starts a
game through the start form and taps `--phone-hands` (60) hands on the page, with its
JavaScript, htmx and service worker: every request the page and its service worker make for a
hand is counted, with the bytes on the wire (received: headers and compressed body; sent), hand
1 against hand 60. Then `--saturation-clients` (8) scorers at once post hands as fast as the
server answers for `--saturation` (5) seconds, then as many readers fetch the cheapest page:
hands/s against the page's requests/s. Last a burst: `--burst` (400) games started within
`--burst-seconds` (10), each by its own phone (the start form, its post, the game page; each
table its own side names), the cheapest page fetched meanwhile: each kind of
request's 95th percentile.

Prints per hand (the lone scorer): the median and 95th percentile, the ratio to the cheapest
page (R), the bytes sent per reply (compressed, B), the growth (G: the median of hands 40–60
over hands 1–10), and the queries one recorded hand runs (Q, counted in-process on the same
settings and database at hands 1 and 60; the transaction's BEGIN and COMMIT are not queries).
The last line:

    hand entry: median X ms = R× cheapest page, p95 Y ms, Q queries/hand, B bytes/hand, growth G×

Only loopback traffic. The server is stopped at the end, also on error or Ctrl-C. Exits with
status 1 if any hand failed to record (or the database does not hold exactly the hands the
clients were told were recorded).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from coding import ACCEPT_ENCODING, decoded

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
TARGET = 500
#: HTML pages that need no game: the cheapest of them (lowest median in a warm-up) is timed.
CANDIDATE_PAGES = ("/", "/accounts/login/", "/games/new/", "/games/")

INPUT = re.compile(r"<input\b[^>]*>", re.S)
ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


# --- HTTP -------------------------------------------------------------------------------------


class Session:
    """One phone behind the TLS proxy: its cookies (session, CSRF), a fresh connection each."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.origin = f"https://{HOST}:{port}"

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str, int]:
        """Status, headers, the body as text, and the bytes sent on the wire (compressed)."""
        body = urlencode(data).encode() if data is not None else None
        head = {
            "Host": f"{HOST}:{self.port}",
            "Connection": "close",
            "X-Forwarded-Proto": "https",
            "Accept-Encoding": ACCEPT_ENCODING,
            **(headers or {}),
        }
        if body is not None:
            head["Content-Type"] = "application/x-www-form-urlencoded"
            head["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            head["Origin"] = self.origin
            head["Referer"] = self.origin + path
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=head)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        headers_out = {name.lower(): value for name, value in response.getheaders()}
        text = decoded(raw, headers_out.get("content-encoding"))
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                self.cookies[key.strip()] = val.strip()
        return response.status, headers_out, text.decode("utf-8", "replace"), len(raw)


def form_fields(html: str, form_id: str) -> dict[str, str]:
    """The hidden inputs of one form (CSRF token, one-time key, expected number)."""
    start = html.find(f'id="{form_id}"')
    if start < 0:
        return {}
    end = html.find("</form>", start)
    fields = {}
    for tag in INPUT.findall(html[start:end]):
        attrs = dict(ATTR.findall(tag))
        if attrs.get("type") == "hidden" and "name" in attrs:
            fields[attrs["name"]] = attrs.get("value", "")
    return fields


class Timed:
    """Requests timed by kind (thread-safe): the burst's figures."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}

    def request(
        self,
        session: Session,
        kind: str,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str, int]:
        began = time.perf_counter()
        answer = session.request(method, path, data)
        self.add(kind, time.perf_counter() - began)
        return answer

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(seconds)


def next_dealer(html: str) -> str:
    match = re.search(r'name="dealer" value="(\w)"[^>]*checked', html)
    return match.group(1) if match else "A"


def hand_headers(draws: bool) -> dict[str, str]:
    """A hand's post as the page sends it: with htmx, and once the page can draw the reply
    itself (its score bar has Undo: static/scoring/scoring.js), asking for it as data."""
    return {"HX-Request": "true", **({"X-Light-Reply": "json"} if draws else {})}


def next_hand(
    status: int, headers: dict[str, str], reply: str, number: int, fields: dict[str, str]
) -> tuple[dict[str, str], str, bool] | None:
    """From hand `number`'s reply, as the page reads it: the next hand's form fields (none once
    the game is won), who deals it and whether the page draws the next reply itself; None if
    the hand was not recorded."""
    if status != 200:
        return None
    if headers.get("content-type", "").startswith("application/json"):
        drawn = json.loads(reply)
        if drawn.get("hand") != number:
            return None
        following = drawn["next"]
        fields = fields | {
            "entry_key": following["entry_key"],
            "expected_number": str(following["number"]),
        }
        return fields, following["dealer"], True
    if f"Hand {number} recorded." not in reply:
        return None
    return form_fields(reply, "hand-form"), next_dealer(reply), 'id="undo-form"' in reply


def start_game(
    session: Session,
    title: str,
    names: tuple[str, str] = ("Reds", "Blues"),
    timed: Timed | None = None,
) -> tuple[int, str]:
    """Start a Trinidad game to 500 through the start form; return its id and its page. With
    `timed`, its three requests (the start form, its post, the game page) are timed into it."""
    timed = timed if timed is not None else Timed()
    status, _, html, _ = timed.request(session, "start form", "GET", "/games/new/")
    token = form_fields(html, "new-game-form").get("csrfmiddlewaretoken", "")
    data = {
        "csrfmiddlewaretoken": token,
        "variant": "trinidad",
        "target": str(TARGET),
        "title": title,
        "side_a_name": names[0],
        "side_b_name": names[1],
        "first_dealer": "A",
    }
    status, headers, html, _ = timed.request(session, "start (POST)", "POST", "/games/new/", data)
    # The start form sends the phone to the game, holding its scoring link (which lets it score).
    location = headers.get("location", "")
    match = re.search(r"/games/(\d+)/$", location)
    if status != 302 or not match:
        raise RuntimeError(f"could not start a game: HTTP {status}\n{html[:500]}")
    status, _, html, _ = timed.request(session, "game page", "GET", location)
    return int(match.group(1)), html


def plain_hand(fields: dict[str, str], dealer: str, number: int) -> dict[str, str]:
    """A plain hand: stand on a five (never a kick); high and jack to A, low and game to B (the
    game button that records the hand)."""
    return {
        **fields,
        "dealer": dealer,
        "turn_ups": "5" + "CDHS"[number % 4],
        "beg": "stand",
        "outcome": "played",
        "high": "A",
        "low": "B",
        "jack": "A-A",
        "game": "B",
    }


# --- the run ----------------------------------------------------------------------------------


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    hands: list[tuple[int, float, int]] = field(default_factory=list)  # number, seconds, bytes
    pages: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    games: list[int] = field(default_factory=list)


def play(
    session: Session,
    title: str,
    index: int,
    tally: Tally,
    per_game: int,
    deadline: float,
    page: str,
) -> bool:
    """One game to hand `per_game`, the cheapest page fetched after each hand; False on a
    failure (recorded in the tally)."""
    game, html = start_game(session, title)
    with tally.lock:
        tally.games.append(game)
    dealer, draws = next_dealer(html), 'id="undo-form"' in html
    fields = form_fields(html, "hand-form")
    while time.monotonic() < deadline and fields:
        number = int(fields["expected_number"])
        if number > per_game:
            break
        data = plain_hand(fields, dealer, number)
        began = time.perf_counter()
        status, headers, reply, size = session.request(
            "POST", f"/games/{game}/hands/", data, headers=hand_headers(draws)
        )
        took = time.perf_counter() - began
        following = next_hand(status, headers, reply, number, fields)
        if following is not None:
            with tally.lock:
                tally.hands.append((number, took, size))
            fields, dealer, draws = following
        else:
            error = re.search(r'role="alert"[^>]*>(.*?)<', reply, re.S)
            with tally.lock:
                tally.failures.append(
                    f"client {index}, game {game}, hand {number}: HTTP {status} "
                    f"{error.group(1).strip() if error else reply[:200]!r}"
                )
            return False
        began = time.perf_counter()
        status, _, _, _ = session.request("GET", page)
        took = time.perf_counter() - began
        with tally.lock:
            if status == 200:
                tally.pages.append(took)
            else:
                tally.failures.append(f"client {index}: {page} answered HTTP {status}")
    return True


def client(
    index: int, port: int, tally: Tally, per_game: int, deadline: float, page: str, games: int = 1
) -> None:
    session = Session(port)
    try:
        for number in range(games):
            if time.monotonic() >= deadline or not play(
                session, f"bench {index}.{number + 1}", index, tally, per_game, deadline, page
            ):
                return
    except Exception as exc:  # a broken client is a failed run, reported below
        with tally.lock:
            tally.failures.append(f"client {index}: {type(exc).__name__}: {exc}")


def run(port: int, page: str, clients: int, games: int, per_game: int, deadline: float) -> Tally:
    """`clients` scorers at once, each playing `games` games one after another."""
    tally = Tally()
    threads = [
        threading.Thread(
            target=client,
            args=(i + 1, port, tally, per_game, deadline, page, games),
            daemon=True,
        )
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(1.0, deadline - time.monotonic() + 60))
    return tally


#: Debian's chromium, as the browser tests run it (tests/conftest.py).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The hands the phone keeps for offline use (IndexedDB, static/scoring/offline/store.mjs).
KEPT_HANDS = """async (pk) => {
  const db = await new Promise((ok, no) => {
    const request = indexedDB.open("allfours-offline");
    request.onsuccess = () => ok(request.result);
    request.onerror = () => no(request.error);
  });
  if (!db.objectStoreNames.contains("games")) return 0;
  return await new Promise((ok) => {
    const get = db.transaction("games").objectStore("games").get(pk);
    get.onsuccess = () => ok(get.result ? get.result.hands.length : 0);
  });
}"""


@dataclass
class PhoneHand:
    """What the page did for one hand: its requests (method and path) and the bytes on the
    wire, received (response headers and compressed body) and sent (request headers and body)."""

    number: int
    requests: list[str]
    received: int
    sent: int


def phone(port: int, hands: int) -> list[PhoneHand]:
    """A scorer's phone in Chromium at 390×844: starts a game to 500 through the start form and
    taps `hands` plain hands (turn-up, high, low, jack not out, then the game button that
    records the hand). After each, waits until the phone keeps the hand for offline use (its
    IndexedDB snapshot) and no request follows for half a second, and counts every request the
    page and its service worker made since the tap that began the hand."""
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    from playwright.sync_api import sync_playwright

    base = f"http://{HOST}:{port}"
    made: list[str] = []
    sizes: list[tuple[int, int]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.on("request", lambda r: made.append(f"{r.method} {r.url.removeprefix(base)}"))

            def finished(request: Any) -> None:
                size = request.sizes()
                sizes.append(
                    (
                        size["responseHeadersSize"] + size["responseBodySize"],
                        size["requestHeadersSize"] + size["requestBodySize"],
                    )
                )

            context.on("requestfinished", finished)
            page = context.new_page()
            page.goto(base + "/games/new/")
            page.fill("input[name=target]", str(TARGET))
            page.fill("input[name=side_a_name]", "Reds")
            page.fill("input[name=side_b_name]", "Blues")
            page.get_by_test_id("start-game").click()
            page.wait_for_url(re.compile(r".*/games/\d+/$"))
            game = int(re.findall(r"/games/(\d+)/", page.url)[-1])
            _quiet(page, made)
            done = []
            for number in range(1, hands + 1):
                made.clear()
                sizes.clear()
                for tap in ("rank-5", f"suit-{'CDHS'[number % 4]}", "high-A", "low-B"):
                    page.get_by_test_id(tap).click()
                page.get_by_test_id("jack-none").click()
                page.get_by_test_id("game-B").click()
                page.get_by_text(f"Hand {number} recorded.").wait_for()
                deadline = time.monotonic() + 10
                while page.evaluate(KEPT_HANDS, game) != number:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the phone did not keep hand {number} for offline use")
                    page.wait_for_timeout(20)
                _quiet(page, made)
                done.append(
                    PhoneHand(
                        number,
                        list(made),
                        sum(received for received, _ in sizes),
                        sum(sent for _, sent in sizes),
                    )
                )
            return done
        finally:
            browser.close()


def _quiet(page: Any, made: list[str], seconds: float = 0.5) -> None:
    """Until no request has been made for `seconds`."""
    count, since = len(made), time.monotonic()
    while time.monotonic() - since < seconds:
        page.wait_for_timeout(50)
        if len(made) != count:
            count, since = len(made), time.monotonic()


def saturation(port: int, page: str, clients: int, seconds: float) -> tuple[float, float]:
    """Hands per second and the cheapest page's requests per second, each with `clients`
    scorers (or readers) sending one request after another for `seconds`, as fast as the
    server answers: what the server (and its database) does when it has no time to spare."""

    def scorer(counts: list[int], stop_at: float) -> None:
        session = Session(port)
        while time.monotonic() < stop_at:
            game, html = start_game(session, "saturation")
            dealer, fields, draws = next_dealer(html), form_fields(html, "hand-form"), False
            while fields and time.monotonic() < stop_at:
                number = int(fields["expected_number"])
                data = plain_hand(fields, dealer, number)
                status, headers, reply, _ = session.request(
                    "POST", f"/games/{game}/hands/", data, headers=hand_headers(draws)
                )
                following = next_hand(status, headers, reply, number, fields)
                if following is None:
                    raise RuntimeError(f"saturation: hand {number} of game {game}: HTTP {status}")
                counts.append(number)
                fields, dealer, draws = following

    def reader(counts: list[int], stop_at: float) -> None:
        session = Session(port)
        while time.monotonic() < stop_at:
            status, _, _, _ = session.request("GET", page)
            if status != 200:
                raise RuntimeError(f"saturation: {page} answered HTTP {status}")
            counts.append(status)

    rates = []
    for work in (scorer, reader):
        counts: list[int] = []
        stop_at = time.monotonic() + seconds
        threads = [
            threading.Thread(target=work, args=(counts, stop_at), daemon=True)
            for _ in range(clients)
        ]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(seconds + 60)
        rates.append(len(counts) / (time.perf_counter() - began))
    return rates[0], rates[1]


def burst(port: int, page: str, starts: int, seconds: float) -> tuple[Timed, float]:
    """`starts` games started within `seconds`, one every `seconds / starts`, each by its own
    phone as a captain does at the table: the start form, its post and the game page it leads
    to. The cheapest page is fetched every tenth of a second meanwhile. Each
    side has its own name (every table plays its own teams). Returns the requests' times by
    kind and the seconds until the last start was answered."""
    timed = Timed()
    began = time.monotonic()
    done = threading.Event()
    failures: list[str] = []

    def start(index: int) -> None:
        delay = began + index * seconds / starts - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        session = Session(port)
        try:
            start_game(session, f"table {index}", (f"Home {index}", f"Away {index}"), timed)
        except Exception as exc:  # reported below: a start that failed is a failed run
            failures.append(f"start {index}: {type(exc).__name__}: {exc}")

    def watch() -> None:
        session = Session(port)
        while not done.is_set():
            timed.request(session, "cheapest page", "GET", page)
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    threads = [threading.Thread(target=start, args=(i,), daemon=True) for i in range(starts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 120)
    took = time.monotonic() - began
    done.set()
    watcher.join(5)
    if failures:
        raise RuntimeError("; ".join(failures[:5]))
    return timed, took


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def wait_until_up(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()[-2000:]}")
        try:
            status, _, _, _ = Session(port).request("GET", "/")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer on {HOST}:{port}:\n{log.read_text()[-2000:]}")


def production_env(port: int, tmp: str) -> dict[str, str]:
    """The environment of the production server on ``port`` (``make serve``'s settings), with
    a throwaway SQLite database in ``tmp`` unless DATABASE_URL names one."""
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": "bench-" + "x" * 50,
        "ALLOWED_HOSTS": f"{HOST},testserver",
        "CSRF_TRUSTED_ORIGINS": f"https://{HOST}:{port}",
        "HOST": HOST,
        "PORT": str(port),
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "2"),
        "GUNICORN_ACCESS_LOG": "/dev/null",
        # Chromium talks plain HTTP to the server on the loopback (no TLS proxy here): its
        # requests must not be sent on to https. The bench's own client says it came
        # through the proxy (X-Forwarded-Proto), as before.
        "SECURE_SSL_REDIRECT": "0",
    }
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
    return env


def start_server(env: dict[str, str], port: int, tmp: str) -> subprocess.Popen[bytes]:
    """gunicorn with ``config/gunicorn.py`` on ``env``, once it answers (its log in ``tmp``)."""
    log = Path(tmp) / "server.log"
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    with log.open("wb") as out:
        server = subprocess.Popen(
            [gunicorn, "--config", "config/gunicorn.py", "config.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_up(port, server, log)
    except BaseException:
        stop(server)
        raise
    return server


def cheapest_page(port: int, rounds: int = 15) -> tuple[str, dict[str, float]]:
    """Warm up, then pick the candidate page with the lowest median (sequential requests)."""
    session = Session(port)
    medians = {}
    for page in CANDIDATE_PAGES:
        times = []
        for _ in range(rounds):
            began = time.perf_counter()
            status, _, _, _ = session.request("GET", page)
            times.append(time.perf_counter() - began)
            if status != 200:
                break
        else:
            medians[page] = percentile(times, 50)
    return min(medians, key=medians.__getitem__), medians


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)


def hands_in_database(env: dict[str, str], games: list[int]) -> int:
    code = (
        "from scoring.models import Hand; "
        f"print(Hand.objects.filter(game_id__in={sorted(games)!r}).count())"
    )
    return int(manage(env, "shell", "-c", code).strip().splitlines()[-1])


#: Counted in-process, on the same settings and database: one recorded hand at hand 1 and at
#: hand 60 (the game built through the services), as the scorer's phone posts it.
QUERY_COUNT = """
import json, uuid
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from scoring import services
from scoring.rules import PRESETS
counts = []
for hands in (0, 59):
    game = services.game_start(ruleset=PRESETS["trinidad"].with_options(target=500),
                               sides=[("Reds", []), ("Blues", [])])
    for n in range(1, hands + 1):
        services.hand_record(game=game, entry_key=uuid.uuid4(), expected_number=n, facts={
            "dealer": "AB"[(n - 1) % 2], "turn_ups": ["5" + "CDHS"[n % 4]], "beg": "stand",
            "high": "A", "low": "B", "jack": None, "game": "B"})
    game.refresh_from_db()
    phone = Client(HTTP_X_FORWARDED_PROTO="https", SERVER_NAME="127.0.0.1")
    phone.get(game.scoring_link.get_absolute_url())
    data = {"entry_key": str(uuid.uuid4()), "expected_number": str(hands + 1),
            "dealer": game.next_dealer, "turn_ups": "5H", "beg": "stand", "outcome": "played",
            "high": "A", "low": "B", "jack": "none", "game": "B"}
    with CaptureQueriesContext(connection) as done:
        # Hand 60's page has its score bar's Undo: it asks for the reply as data.
        drawn = {"HTTP_X_LIGHT_REPLY": "json"} if hands else {}
        response = phone.post(f"/games/{game.pk}/hands/", data, HTTP_HX_REQUEST="true", **drawn)
    assert response.status_code == 200, response.status_code
    counts.append(sum(1 for q in done.captured_queries
                      if q["sql"].split()[0].upper() not in ("BEGIN", "COMMIT")))
print(json.dumps(counts))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=3, help="games the lone scorer plays one after another (3)"
    )
    parser.add_argument(
        "--clients", type=int, default=2, help="scorers at once in the second run (2; 0: none)"
    )
    parser.add_argument(
        "--hands-per-game", type=int, default=60, help="hands each client records (60)"
    )
    parser.add_argument("--time-limit", type=float, default=300, help="seconds (300)")
    parser.add_argument(
        "--saturation", type=float, default=5, help="seconds of each saturation run (5; 0: none)"
    )
    parser.add_argument(
        "--saturation-clients",
        type=int,
        default=8,
        help="scorers (then readers) at once at saturation (8: the server's 2 workers × 4 threads)",
    )
    parser.add_argument(
        "--phone-hands",
        type=int,
        default=60,
        help="hands a phone in Chromium (390×844) records, each request counted (60; 0: none)",
    )
    parser.add_argument("--burst", type=int, default=400, help="games started in the burst (400)")
    parser.add_argument(
        "--burst-seconds", type=float, default=10, help="seconds the burst is spread over (10)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.clients < 0 or args.hands_per_game < 60:
        parser.error("--games must be at least 1, --clients 0 or more, --hands-per-game 60 or more")

    with tempfile.TemporaryDirectory(prefix="allfours-bench-") as tmp:
        port = free_port()
        env = production_env(port, tmp)
        database = env["DATABASE_URL"].split("@")[-1]
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")

        server = start_server(env, port, tmp)
        try:
            page, medians = cheapest_page(port)
            deadline = time.monotonic() + args.time_limit
            began = time.perf_counter()
            tally = run(port, page, 1, args.games, args.hands_per_game, deadline)
            wall = time.perf_counter() - began
            crowd = Tally()
            if args.clients > 1:
                began = time.perf_counter()
                crowd = run(port, page, args.clients, 1, args.hands_per_game, deadline)
                crowd_wall = time.perf_counter() - began
            taps = phone(port, args.phone_hands) if args.phone_hands > 0 else []
            rates = None
            if args.saturation > 0 and not tally.failures and not crowd.failures:
                rates = saturation(port, page, args.saturation_clients, args.saturation)
            starts = None
            if args.burst > 0 and not tally.failures and not crowd.failures:
                starts = burst(port, page, args.burst, args.burst_seconds)
        finally:
            stop(server)
        games = tally.games + crowd.games
        stored = hands_in_database(env, games) if games else 0
        queries = json.loads(manage(env, "shell", "-c", QUERY_COUNT).strip().splitlines()[-1])

    print(f"database: {database}; server: gunicorn (config/gunicorn.py), DJANGO_DEBUG=0")
    recorded = len(tally.hands) + len(crowd.hands)
    print(
        f"one scorer: {len(tally.games)} games, {len(tally.hands)} hands in {wall:.1f} s; "
        f"hands in the database: {stored} of {recorded} recorded"
    )
    print("warm-up medians: " + ", ".join(f"{p} {ms(t).strip()}" for p, t in medians.items()))
    failures = tally.failures + crowd.failures
    for failure in failures[:20]:
        print("FAILED", failure, file=sys.stderr)
    if stored != recorded:
        print(
            f"FAILED the database holds {stored} hands, the clients recorded {recorded}",
            file=sys.stderr,
        )
        return 1
    if failures or not tally.hands or not tally.pages:
        return 1
    if crowd.hands and crowd.pages:
        crowd_times = [took for _, took, _ in crowd.hands]
        crowd_hand, crowd_page = percentile(crowd_times, 50), percentile(crowd.pages, 50)
        print(
            f"{args.clients} scorers at once: {len(crowd.hands) / crowd_wall:.0f} hands/s, "
            f"hand median {ms(crowd_hand).strip()} (p95 {ms(percentile(crowd_times, 95)).strip()})"
            f" = {crowd_hand / crowd_page:.2f}× the page's {ms(crowd_page).strip()} then"
        )
    if taps:
        counts = sorted({len(hand.requests) for hand in taps})
        others = sorted({r for hand in taps for r in hand.requests if not r.startswith("POST")})
        wire = [hand.received + hand.sent for hand in taps]
        first = [w for hand, w in zip(taps, wire, strict=True) if hand.number <= 10]
        last = [w for hand, w in zip(taps, wire, strict=True) if 40 <= hand.number <= 60]
        print(
            f"phone (Chromium 390×844, {len(taps)} hands): requests a hand "
            f"{counts[0] if len(counts) == 1 else f'{counts[0]}–{counts[-1]}'}"
            f"{' (besides the post: ' + ', '.join(others) + ')' if others else ''}; "
            f"bytes a hand (received + sent): hand 1 {taps[0].received} + {taps[0].sent}, "
            f"hand {taps[-1].number} {taps[-1].received} + {taps[-1].sent}, "
            f"median {int(statistics.median(wire))}"
            + (
                f", growth {statistics.median(last) / statistics.median(first):.2f}×"
                if first and last
                else ""
            )
        )
    if rates is not None:
        hands_rate, pages_rate = rates
        print(
            f"saturation ({args.saturation_clients} at once, {args.saturation:g} s each): "
            f"{hands_rate:.0f} hands/s, {pages_rate:.0f} cheapest pages/s: "
            f"hands/s = {hands_rate / pages_rate:.2f}× the page's requests/s"
        )
    if starts is not None:
        timed, took = starts
        p95s = {kind: percentile(times, 95) for kind, times in timed.times.items()}
        print(
            f"burst: {args.burst} game starts in {args.burst_seconds:g} s, the last answered after "
            f"{took:.1f} s; p95 "
            + ", ".join(f"{kind} {ms(p95).strip()}" for kind, p95 in p95s.items())
            + f"; worst p95 {max(p95s.values()) * 1000:.0f} ms"
        )
    times = [took for _, took, _ in tally.hands]
    early = [took for number, took, _ in tally.hands if number <= 10]
    late = [took for number, took, _ in tally.hands if 40 <= number <= 60]
    sizes = [size for _, _, size in tally.hands]
    at = {number: size for number, _, size in tally.hands}
    hand_median, hand_p95 = percentile(times, 50), percentile(times, 95)
    page_median = percentile(tally.pages, 50)
    growth = statistics.median(late) / statistics.median(early) if early and late else 0.0
    print(f"{'':36}{'median':>10}{'p95':>11}")
    print(f"{'record a hand (POST, htmx)':36}{ms(hand_median):>10}{ms(hand_p95):>11}")
    page_p95 = percentile(tally.pages, 95)
    print(f"{'cheapest page GET ' + page:36}{ms(page_median):>10}{ms(page_p95):>11}")
    print(
        f"reply bytes (compressed): hand 1 {at.get(1)}, hand 60 {at.get(60)}, "
        f"median {int(statistics.median(sizes))}; queries at hands 1 and 60: {queries}"
    )
    print(
        f"hand entry: median {hand_median * 1000:.1f} ms = {hand_median / page_median:.2f}× "
        f"cheapest page, p95 {hand_p95 * 1000:.1f} ms, {max(queries)} queries/hand, "
        f"{int(statistics.median(sizes))} bytes/hand, growth {growth:.2f}×"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
