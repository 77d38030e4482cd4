"""Smoke test of the production server, as a league would run it.

On a fresh PostgreSQL database and Redis: migrate, load the demo, start ``make serve``
(gunicorn, DJANGO_DEBUG=0) on a free local port, then over HTTP, as behind the TLS proxy:

- fetch every public page type: the pages linked from the start page, the leagues, the games
  list and the pages they link to (one page per URL shape), each 200 (or a redirect to the log-in
  page), every HTML page compressed (asked as Chrome asks), and the style sheets and scripts
  they use;
- record a hand as a phone would: start a game, open its scoring link in a fresh session, post a
  hand with that session's CSRF token, and see it on the score sheet;

and fail on any error, or any warning or error line in the server's log. The server and every
process it started are stopped at the end, pass or fail.

    make smoke                       # or: .venv/bin/python .ci/smoke.py
    SMOKE_DATABASE_URL=postgres://postgres@127.0.0.1:5432/smoke \
    SMOKE_REDIS_URL=redis://127.0.0.1:6379/1 make smoke

The database named by SMOKE_DATABASE_URL is dropped and created afresh; the Redis database
named by SMOKE_REDIS_URL is emptied. Exits 0 and prints "smoke: N passed, 0 failed" when all is
well.
"""

from __future__ import annotations

import gzip
import html.parser
import http.client
import http.cookies
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import deque
from pathlib import Path

import brotli
from backports import zstd

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DATABASE_URL = os.environ.get(
    "SMOKE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/allfours_smoke"
)
REDIS_URL = os.environ.get("SMOKE_REDIS_URL", "redis://127.0.0.1:6379/15")
PAGES_LIMIT = 400
SKIP = re.compile(r"^/(admin|static)/|/manage/|/logout|^/games/s/|/new/$|/again/$|/abandon/$")
#: The codings a browser (Chrome) accepts, and how each is undone.
DECODERS = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}
LOG_PROBLEM = re.compile(r"\b(WARNING|ERROR|CRITICAL)\b|Traceback|\bWarning\b|\bError\b")


class Failure(Exception):
    pass


checks = 0


def check(condition: bool, message: str) -> None:
    global checks
    checks += 1
    if not condition:
        raise Failure(message)


# --- the database, the cache and the server ---------------------------------------------


def fresh_database() -> None:
    import psycopg

    parts = urllib.parse.urlsplit(DATABASE_URL)
    name = parts.path.lstrip("/")
    check(bool(re.fullmatch(r"\w+", name)), f"a plain database name in {DATABASE_URL}")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def empty_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    env.update(
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        DJANGO_DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        PORT=str(port),
        HOST="127.0.0.1",
        WEB_CONCURRENCY="2",
        LOG_LEVEL="WARNING",
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    run = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    output = (run.stdout + run.stderr).strip()
    check(run.returncode == 0, f"manage.py {' '.join(args)} failed:\n{output}")
    problems = [line for line in output.splitlines() if LOG_PROBLEM.search(line)]
    check(not problems, f"manage.py {' '.join(args)} warned:\n" + "\n".join(problems))


SERVER_START_SECONDS = 300


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """`make serve` (its checks, collectstatic, gunicorn) answering on ``port``; stopped, the
    whole process group, if it does not answer within the time (collectstatic compresses every
    static file: minutes on a loaded machine)."""
    process = subprocess.Popen(
        ["make", "--no-print-directory", "serve"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Failure(f"make serve stopped (exit {process.returncode}):\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.5)
    stop_server(process)
    raise Failure(f"the server did not answer within {SERVER_START_SECONDS} s:\n{log.read_text()}")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop make, gunicorn's master and its workers: the whole process group."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def server_log_problems(log: Path) -> list[str]:
    """Warning and error lines of the server's log, from the deploy check on (the install
    step before it is pip's business)."""
    lines = log.read_text(errors="replace").splitlines()
    start = next((i for i, line in enumerate(lines) if "manage.py check" in line), 0)
    commands = (".venv/bin/", "exec ")  # make's echo of its own commands
    return [
        line for line in lines[start:] if LOG_PROBLEM.search(line) and not line.startswith(commands)
    ]


# --- a browser of sorts ------------------------------------------------------------------


class Page(html.parser.HTMLParser):
    """The links, assets and forms of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.assets: list[str] = []
        self.forms: list[dict[str, object]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "link" and a.get("rel") in ("stylesheet", "manifest", "icon") and a.get("href"):
            self.assets.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.assets.append(a["src"])
        elif tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", "get")})
            self.forms[-1]["fields"] = {}
        elif tag in ("input", "select", "textarea") and self.forms and a.get("name"):
            fields = self.forms[-1]["fields"]
            assert isinstance(fields, dict)
            kind = a.get("type", "")
            if kind in ("radio", "checkbox") and "checked" not in a:
                fields.setdefault(a["name"], None)
            else:
                fields[a["name"]] = a.get("value", "")


class Browser:
    """One phone: its own cookies; every request as through the TLS proxy."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, data: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",
            "Accept-Encoding": "gzip, deflate, br, zstd",  # as Chrome
            "Accept": "text/html,*/*",
            "User-Agent": "allfours-smoke",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = "https://127.0.0.1"
            headers["Referer"] = f"https://127.0.0.1{path}"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        found = {k.lower(): v for k, v in response.getheaders()}
        for value in response.headers.get_all("Set-Cookie") or []:
            cookie = http.cookies.SimpleCookie(value)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        connection.close()
        coding = found.get("content-encoding")
        if coding in DECODERS:
            raw = DECODERS[coding](raw)
        elif "text/html" in found.get("content-type", "") and len(raw) > 200:
            raise Failure(f"{method} {path}: an HTML page of {len(raw)} bytes not compressed")
        return response.status, found, raw.decode("utf-8", errors="replace")

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path)


def shape(path: str) -> str:
    """A URL's type: its path with numbers and slugs of known places taken out."""
    parts = urllib.parse.urlsplit(path)
    kind = re.sub(r"\d+", "N", parts.path)
    kind = re.sub(r"^/leagues/(?!N/|division/|fixture/|team/|player/)[^/]+/", "/leagues/L/", kind)
    keys = sorted(k for k, _ in urllib.parse.parse_qsl(parts.query))
    return kind + ("?" + "&".join(keys) if keys else "")


def crawl(browser: Browser) -> int:
    """Every public page type, once: breadth first from the start page."""
    queue = deque(["/", "/leagues/", "/games/"])
    seen: set[str] = set()
    assets: set[str] = set()
    fetched = 0
    while queue and fetched < PAGES_LIMIT:
        path = queue.popleft()
        kind = shape(path)
        if kind in seen:
            continue
        seen.add(kind)
        status, headers, text = browser.get(path)
        fetched += 1
        location = headers.get("location", "")
        check(
            status == 200 or (status == 302 and "/accounts/login/" in location),
            f"GET {path} answered {status} {location}",
        )
        if status != 200 or "text/html" not in headers.get("content-type", ""):
            continue
        page = Page()
        page.feed(text)
        assets.update(page.assets)
        for href in page.links:
            target = urllib.parse.urljoin(path, href.split("#")[0])
            if target.startswith("/") and not target.startswith("//") and not SKIP.search(target):
                queue.append(target)
    for asset in sorted(assets):
        status, headers, _ = browser.get(asset)
        check(status == 200, f"GET {asset} answered {status}")
        if asset.endswith((".css", ".js", ".mjs")):
            check(headers.get("content-encoding") in DECODERS, f"{asset} was not compressed")
        check(
            "immutable" in headers.get("cache-control", "")
            or asset.endswith(".webmanifest")
            or "max-age" in headers.get("cache-control", ""),
            f"{asset} has no cache header",
        )
    print(f"smoke: {fetched} pages of {len(seen)} types and {len(assets)} static files fetched")
    return fetched


def form_with(text: str, field: str) -> dict[str, object]:
    page = Page()
    page.feed(text)
    form = next((f for f in page.forms if field in f["fields"]), None)  # type: ignore[operator]
    if form is None:
        raise Failure(f"no form with {field!r} on the page")
    return form


def record_a_hand(port: int) -> None:
    """Start a game, open its scoring link on another phone, record a hand there."""
    starter = Browser(port)
    status, _, text = starter.get("/games/new/")
    check(status == 200, f"GET /games/new/ answered {status}")
    form = form_with(text, "variant")
    fields = {k: v or "" for k, v in form["fields"].items()}  # type: ignore[union-attr]
    fields.update(
        variant="west_yorkshire",
        target="11",
        players_per_side="2",
        side_a_name="Red Lion",
        side_b_name="Black Bull",
        first_dealer="A",
    )
    fields.pop("three_sides", None)
    status, headers, text = starter.request("POST", "/games/new/", fields)
    check(status == 302, f"starting a game answered {status}: {text[:400]}")
    # The start form lets the starting phone score and sends it straight to its game, whose
    # page shows the scoring link for a second phone at the table.
    game = headers["location"]
    check(bool(re.fullmatch(r"/games/\d+/", game)), f"a new game opens its page, not {game}")
    status, _, text = starter.get(game)
    check(status == 200, f"GET {game} on the starting phone answered {status}")
    found = re.search(
        r'href="(?:https?://[^/"]+)?(/games/s/[-\w]+/)" data-testid="scoring-link-url"', text
    )
    check(found is not None, f"{game} shows its scoring link for a second phone")
    link = found.group(1) if found else ""
    links = [link]

    phone = Browser(port)
    status, headers, _ = phone.get(links[0])
    check(status == 302 and headers.get("location") == game, f"the link opens {game}")
    status, _, text = phone.get(game)
    check(status == 200, f"GET {game} on the scorer's phone answered {status}")
    form = form_with(text, "entry_key")
    fields = {k: v or "" for k, v in form["fields"].items()}  # type: ignore[union-attr]
    check(bool(fields.get("csrfmiddlewaretoken")), "the hand form carries a CSRF token")
    fields.update(dealer="A", outcome="played", high="A", low="B", jack="none", game="A")
    for name in [k for k, v in fields.items() if v == "" and k.startswith(("game_", "points_"))]:
        fields.pop(name)
    action = str(form["action"]) or f"{game}hands/"
    status, headers, text = phone.request("POST", action, fields)
    check(status in (200, 302), f"recording a hand answered {status}: {text[:400]}")
    status, _, text = phone.get(game)
    check("Hand 1" in text or "hand 1" in text, "the score sheet shows hand 1")
    status, _, text = starter.get(f"{game}replay.json")
    check(
        status == 200 and '"dealer": "A"' in text.replace('"dealer":"A"', '"dealer": "A"'),
        "the game's replay file holds the hand",
    )
    print("smoke: a hand recorded over HTTP through a scoring link, with its CSRF token")


def main() -> int:
    port = int(os.environ.get("SMOKE_PORT") or free_port())
    env = environment(port)
    log = Path(tempfile.mkdtemp(prefix="allfours-smoke-")) / "server.log"
    server = None
    try:
        fresh_database()
        empty_redis()
        began = time.monotonic()
        manage(env, "migrate", "--noinput")
        manage(env, "seed_demo")
        print(f"smoke: demo loaded in {time.monotonic() - began:.0f} s")
        server = start_server(env, port, log)
        crawl(Browser(port))
        record_a_hand(port)
    except Failure as failure:
        print(f"smoke: FAILED: {failure}")
        if server is not None:
            stop_server(server)
            print("server log:\n" + log.read_text(errors="replace")[-4000:])
        print(f"smoke: {checks - 1} passed, 1 failed")
        return 1
    finally:
        if server is not None:
            stop_server(server)
    problems = server_log_problems(log)
    if problems:
        print("smoke: FAILED: warnings or errors in the server's log:\n" + "\n".join(problems))
        print(f"smoke: {checks} passed, 1 failed")
        return 1
    print(f"smoke: {checks} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
