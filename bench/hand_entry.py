"""How long recording a hand takes, against the app's cheapest page, under concurrent scorers.

    .venv/bin/python bench/hand_entry.py [--clients 8] [--hands 200] [--time-limit 120]

Starts the app (`manage.py runserver --noreload`, threaded) on a free port on 127.0.0.1 with a
throwaway SQLite database in a temporary folder (or the database in DATABASE_URL, if set),
starts one game per client through the start-game form (following the new game's scoring link,
which lets that phone score it), and lets the clients record plain
hands over HTTP at the same time, as phones with JavaScript do: one POST per hand, carrying the
form's CSRF token, one-time key and expected hand number, answered with the updated game
fragment (htmx). When a client's game is won it starts another. Between hands each client also
fetches the cheapest page, so both are timed under the same load in the same run.

Prints the median and 95th percentile per recorded hand and per cheapest-page request, and their
ratios. Only loopback traffic. The server is stopped at the end, also on error or Ctrl-C. Exits
with status 1 if any hand failed to record (or the database does not hold exactly the hands
the clients were told were recorded).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
#: HTML pages that need no game: the cheapest of them (lowest median in a warm-up) is timed.
CANDIDATE_PAGES = ("/", "/accounts/login/", "/games/new/", "/games/")

INPUT = re.compile(r"<input\b[^>]*>", re.S)
ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


# --- HTTP -------------------------------------------------------------------------------------


class Session:
    """One phone: its cookies (session, CSRF) and a fresh loopback connection per request.

    Not keep-alive: runserver writes headers and body in separate segments without TCP_NODELAY,
    so on a kept-alive connection Nagle's algorithm and the client's delayed ACK add ~40 ms to
    most responses, which would measure the kernel, not the app.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        body = urlencode(data).encode() if data is not None else None
        head = {"Host": f"{HOST}:{self.port}", "Connection": "close", **(headers or {})}
        if body is not None:
            head["Content-Type"] = "application/x-www-form-urlencoded"
            head["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=head)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                self.cookies[key.strip()] = val.strip()
        return response.status, dict(response.getheaders()), text

    def close(self) -> None:
        """Nothing held open between requests."""


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


def next_dealer(html: str) -> str:
    match = re.search(r'name="dealer" value="(\w)"[^>]*checked', html)
    return match.group(1) if match else "A"


def start_game(session: Session, title: str) -> tuple[int, str]:
    """Start a Trinidad game through the start form; return its id and its page."""
    status, _, html = session.request("GET", "/games/new/")
    token = form_fields(html, "new-game-form").get("csrfmiddlewaretoken", "")
    data = {
        "csrfmiddlewaretoken": token,
        "variant": "trinidad",
        "title": title,
        "side_a_name": "Smith & Jones",
        "side_b_name": "Patel & Brown",
        "first_dealer": "A",
    }
    status, headers, html = session.request("POST", "/games/new/", data)
    link = headers.get("Location", "")
    if status != 302 or "/games/s/" not in link:
        raise RuntimeError(f"could not start a game: HTTP {status}\n{html[:500]}")
    # The start form sends the phone through the game's scoring link, which lets it score.
    status, headers, html = session.request("GET", link)
    location = headers.get("Location", "")
    match = re.search(r"/games/(\d+)/", location)
    if status != 302 or not match:
        raise RuntimeError(f"the scoring link did not open the game: HTTP {status}\n{html[:500]}")
    status, _, html = session.request("GET", location)
    return int(match.group(1)), html


def plain_hand(fields: dict[str, str], dealer: str, number: int) -> dict[str, str]:
    """A plain hand: stand on a five (never a kick); high and jack to A, low and game to B."""
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
    hands: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    claimed: int = 0

    def claim(self, limit: int) -> bool:
        """One more hand to record, if the run has not recorded (or failed) `limit` yet."""
        with self.lock:
            if self.claimed >= limit:
                return False
            self.claimed += 1
            return True


def client(index: int, port: int, tally: Tally, limit: int, deadline: float, page: str) -> None:
    session = Session(port)
    try:
        game, html = start_game(session, f"bench {index}")
        with tally.lock:
            tally.games.append(game)
        while time.monotonic() < deadline and tally.claim(limit):
            fields = form_fields(html, "hand-form")
            if not fields:  # won: start the next game (not timed)
                game, html = start_game(session, f"bench {index}")
                with tally.lock:
                    tally.games.append(game)
                fields = form_fields(html, "hand-form")
            number = int(fields["expected_number"])
            data = plain_hand(fields, next_dealer(html), number)
            began = time.perf_counter()
            status, _, html = session.request(
                "POST",
                f"/games/{game}/hands/",
                data,
                headers={"HX-Request": "true", "HX-Target": "game"},
            )
            took = time.perf_counter() - began
            if status == 200 and f"Hand {number} recorded." in html:
                with tally.lock:
                    tally.hands.append(took)
            else:
                error = re.search(r'role="alert"[^>]*>(.*?)<', html, re.S)
                with tally.lock:
                    tally.failures.append(
                        f"client {index}, game {game}, hand {number}: HTTP {status} "
                        f"{error.group(1).strip() if error else html[:200]!r}"
                    )
                status, _, html = session.request("GET", f"/games/{game}/")
                continue
            began = time.perf_counter()
            status, _, _ = session.request("GET", page)
            took = time.perf_counter() - began
            with tally.lock:
                if status == 200:
                    tally.pages.append(took)
                else:
                    tally.failures.append(f"client {index}: {page} answered HTTP {status}")
    except Exception as exc:  # a broken client is a failed run, reported below
        with tally.lock:
            tally.failures.append(f"client {index}: {type(exc).__name__}: {exc}")
    finally:
        session.close()


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
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                pass
            status, _, _ = Session(port).request("GET", "/")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer on {HOST}:{port}:\n{log.read_text()[-2000:]}")


def cheapest_page(port: int, rounds: int = 15) -> tuple[str, dict[str, float]]:
    """Warm up, then pick the candidate page with the lowest median (sequential requests)."""
    session = Session(port)
    medians = {}
    try:
        for page in CANDIDATE_PAGES:
            times = []
            for _ in range(rounds):
                began = time.perf_counter()
                status, _, _ = session.request("GET", page)
                times.append(time.perf_counter() - began)
                if status != 200:
                    break
            else:
                medians[page] = percentile(times, 50)
    finally:
        session.close()
    return min(medians, key=medians.__getitem__), medians


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)


def hands_in_database(env: dict[str, str], games: list[int]) -> int:
    code = (
        "from scoring.models import Hand; "
        f"print(Hand.objects.filter(game_id__in={sorted(games)!r}).count())"
    )
    return int(manage(env, "shell", "-c", code).strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="concurrent scorers (8)")
    parser.add_argument("--hands", type=int, default=200, help="hands to record in all (200)")
    parser.add_argument("--time-limit", type=float, default=120, help="seconds (120)")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.hands < 1:
        parser.error("--clients and --hands must be at least 1")

    with tempfile.TemporaryDirectory(prefix="allfours-bench-") as tmp:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if not env.get("DATABASE_URL"):
            env["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        database = env["DATABASE_URL"].split("@")[-1]
        manage(env, "migrate", "--noinput")

        port = free_port()
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                [
                    sys.executable,
                    "manage.py",
                    "runserver",
                    "--noreload",
                    "--skip-checks",
                    f"{HOST}:{port}",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_until_up(port, server, log)
            page, medians = cheapest_page(port)
            tally = Tally()
            deadline = time.monotonic() + args.time_limit
            threads = [
                threading.Thread(
                    target=client, args=(i, port, tally, args.hands, deadline, page), daemon=True
                )
                for i in range(args.clients)
            ]
            began = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(args.time_limit + 60)
            wall = time.perf_counter() - began
        finally:
            stop(server)
        stored = hands_in_database(env, tally.games) if tally.games else 0

    print(f"database: {database}; server: runserver (threaded) on {HOST}:{port}")
    print(
        f"clients: {args.clients}; games: {len(tally.games)}; hands recorded: {len(tally.hands)}"
        f" of {args.hands} in {wall:.1f} s; hands in the database: {stored}"
    )
    print("warm-up medians: " + ", ".join(f"{p} {ms(t).strip()}" for p, t in medians.items()))
    if tally.hands and tally.pages:
        hand_median, hand_p95 = percentile(tally.hands, 50), percentile(tally.hands, 95)
        page_median, page_p95 = percentile(tally.pages, 50), percentile(tally.pages, 95)
        print(f"{'':36}{'median':>10}{'p95':>11}")
        print(f"{'record a hand (POST)':36}{ms(hand_median):>10}{ms(hand_p95):>11}")
        print(f"{'cheapest page GET ' + page:36}{ms(page_median):>10}{ms(page_p95):>11}")
        print(
            f"{'ratio hand / page':36}{hand_median / page_median:>9.1f}x"
            f"{hand_p95 / page_p95:>10.1f}x"
        )
    for failure in tally.failures[:20]:
        print("FAILED", failure, file=sys.stderr)
    if len(tally.failures) > 20:
        print(f"... and {len(tally.failures) - 20} more failures", file=sys.stderr)
    if len(tally.hands) < args.hands and not tally.failures:
        print(f"stopped at the time limit ({args.time_limit:.0f} s)")
    if stored != len(tally.hands):
        print(
            f"FAILED the database holds {stored} hands, the clients recorded {len(tally.hands)}",
            file=sys.stderr,
        )
        return 1
    return 1 if tally.failures or not tally.hands else 0


if __name__ == "__main__":
    sys.exit(main())
