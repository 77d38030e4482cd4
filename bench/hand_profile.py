"""Where a recorded hand's CPU goes, in-process, against the cheapest page's.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hand REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/hand_profile.py [--games 3] [--hands 60] [--top 40] [--no-profile]

On the production settings (`DJANGO_DEBUG=0`, a secret key, `DATABASE_URL` or a throwaway SQLite
database, `REDIS_URL` if set), the database migrated first. Requests go through Django's WSGI
handler as gunicorn calls it, the whole middleware stack included: they say they came through the
TLS proxy (`X-Forwarded-Proto: https`), accept what Chrome accepts (`bench/coding.py`) and carry the
CSRF cookie, header and origin, as bench/hand_entry.py's phone does. A phone starts a Trinidad game
to 500 through the start form and posts `--hands` plain hands with htmx, `--games` times; after each
hand it fetches the login page (the cheapest page in bench/hand_entry.py's runs).

Prints the process CPU (`time.process_time`, which waiting on the database or Redis does not
count) per hand and per page: the medians over every hand, then the same with cProfile on (its
own overhead included), the functions by own time in the hands and in the pages, and the
functions whose cumulative time per request is larger in a hand than in a page.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from coding import ACCEPT_ENCODING, decoded  # noqa: E402
from hand_entry import (  # noqa: E402
    TARGET,
    form_fields,
    hand_headers,
    next_dealer,
    next_hand,
    plain_hand,
)

HOST = "127.0.0.1"
PAGE = "/accounts/login/"


class Phone:
    """One phone's cookies, its requests handed to the WSGI application as gunicorn does. Only
    the server's part of a request (the application called, its body read) is timed (`cpu`:
    the last request's process CPU) and, while `profile` is set, profiled."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.cookies: dict[str, str] = {}
        self.profile: cProfile.Profile | None = None
        self.cpu = 0.0

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        body = urlencode(data).encode() if data is not None else b""
        environ = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": HOST,
            "SERVER_PORT": "443",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": HOST,
            "HTTP_HOST": HOST,
            "HTTP_X_FORWARDED_PROTO": "https",
            "HTTP_ACCEPT_ENCODING": ACCEPT_ENCODING,
            "HTTP_CONNECTION": "close",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if data is not None:
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
            environ["CONTENT_LENGTH"] = str(len(body))
            environ["HTTP_X_CSRFTOKEN"] = self.cookies.get("csrftoken", "")
            environ["HTTP_ORIGIN"] = f"https://{HOST}"
            environ["HTTP_REFERER"] = f"https://{HOST}{path}"
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        answer: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
            answer["status"], answer["headers"] = int(status.split()[0]), headers

        if self.profile is not None:
            self.profile.enable()
        began = time.process_time()
        chunks = self.application(environ, start_response)
        try:
            raw = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
            self.cpu = time.process_time() - began
            if self.profile is not None:
                self.profile.disable()
        headers = {name.lower(): value for name, value in answer["headers"]}
        for name, value in answer["headers"]:
            if name.lower() == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                self.cookies[key.strip()] = val.strip()
        raw = decoded(raw, headers.get("content-encoding"))
        return answer["status"], headers, raw.decode("utf-8", "replace")


def start_game(phone: Phone, title: str) -> tuple[int, str]:
    _, _, html = phone.request("GET", "/games/new/")
    data = {
        "csrfmiddlewaretoken": form_fields(html, "new-game-form").get("csrfmiddlewaretoken", ""),
        "variant": "trinidad",
        "target": str(TARGET),
        "title": title,
        "side_a_name": "Reds",
        "side_b_name": "Blues",
        "first_dealer": "A",
    }
    status, headers, html = phone.request("POST", "/games/new/", data)
    match = re.search(r"/games/(\d+)/$", headers.get("location", ""))
    if status != 302 or not match:
        raise RuntimeError(f"could not start a game: HTTP {status}\n{html[:500]}")
    _, _, html = phone.request("GET", match.group(0))
    return int(match.group(1)), html


def play(
    phone: Phone,
    games: int,
    hands: int,
    profiles: tuple[cProfile.Profile, cProfile.Profile] | None = None,
) -> tuple[list[float], list[float]]:
    """`games` games of `hands` hands each; the CPU seconds of each hand and each page fetch
    (with `profiles`, each profiled into its own)."""
    hand_cpu: list[float] = []
    page_cpu: list[float] = []
    for index in range(games):
        game, html = start_game(phone, f"profile {index + 1}")
        dealer, fields, draws = next_dealer(html), form_fields(html, "hand-form"), False
        while fields and int(fields["expected_number"]) <= hands:
            number = int(fields["expected_number"])
            data = plain_hand(fields, dealer, number)
            phone.profile = profiles[0] if profiles else None
            status, headers, reply = phone.request(
                "POST", f"/games/{game}/hands/", data, headers=hand_headers(draws)
            )
            hand_cpu.append(phone.cpu)
            following = next_hand(status, headers, reply, number, fields)
            if following is None:
                raise RuntimeError(f"hand {number} of game {game}: HTTP {status}\n{reply[:500]}")
            fields, dealer, draws = following
            phone.profile = profiles[1] if profiles else None
            status, _, _ = phone.request("GET", PAGE)
            page_cpu.append(phone.cpu)
            phone.profile = None
            if status != 200:
                raise RuntimeError(f"{PAGE} answered HTTP {status}")
    return hand_cpu, page_cpu


def per_call(profile: cProfile.Profile, requests: int) -> dict[tuple[str, int, str], float]:
    """Each function's cumulative seconds per request."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return {func: row[3] / requests for func, row in stats.items()}


def where(func: tuple[str, int, str]) -> str:
    path, line, name = func
    for prefix in (str(ROOT) + "/", sys.prefix + "/lib/python3.11/site-packages/"):
        path = path.removeprefix(prefix)
    return f"{path}:{line}({name})" if line else name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games played (3)")
    parser.add_argument("--hands", type=int, default=60, help="hands a game (60)")
    parser.add_argument("--top", type=int, default=40, help="functions listed (40)")
    parser.add_argument("--no-profile", action="store_true", help="CPU medians only")
    args = parser.parse_args(argv)

    tmp = tempfile.TemporaryDirectory(prefix="allfours-profile-")
    os.environ.update(
        {
            "DJANGO_DEBUG": "0",
            "SECRET_KEY": "profile-" + "x" * 50,
            "ALLOWED_HOSTS": HOST,
            "CSRF_TRUSTED_ORIGINS": f"https://{HOST}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(tmp.name) / 'profile.sqlite3'}")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    from config.wsgi import application  # as gunicorn loads it

    phone = Phone(application)
    play(phone, 1, 10)  # warm-up: imports, templates, connections, prepared statements

    hand_cpu, page_cpu = play(phone, args.games, args.hands)
    hand, page = statistics.median(hand_cpu), statistics.median(page_cpu)
    print(f"database: {os.environ['DATABASE_URL'].split('@')[-1]}; DJANGO_DEBUG=0")
    print(
        f"CPU per request (process_time, median of {len(hand_cpu)}): hand {hand * 1000:.2f} ms, "
        f"{PAGE} {page * 1000:.2f} ms, hand/page {hand / page:.2f}×"
    )
    if args.no_profile:
        return 0

    timer = time.perf_counter if os.environ.get("PROFILE_WALL") else time.process_time
    profiles = (cProfile.Profile(timer), cProfile.Profile(timer))
    hand_cpu, page_cpu = play(phone, args.games, args.hands, profiles)
    hands, pages = len(hand_cpu), len(page_cpu)
    calls = [pstats.Stats(profile).total_calls for profile in profiles]  # type: ignore[attr-defined]
    print(
        f"with cProfile: hand {statistics.median(hand_cpu) * 1000:.2f} ms, "
        f"page {statistics.median(page_cpu) * 1000:.2f} ms; function calls (which load does not "
        f"change): hand {calls[0] / hands:.0f}, page {calls[1] / pages:.0f}"
    )
    for name, profile in (("hands", profiles[0]), ("pages", profiles[1])):
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(args.top)
        print(f"\n=== {name}: own time, {hands if name == 'hands' else pages} requests ===")
        print(out.getvalue().split("\n", 6)[-1])
    in_hand, in_page = per_call(profiles[0], hands), per_call(profiles[1], pages)
    beyond = sorted(
        ((seconds - in_page.get(func, 0.0), func) for func, seconds in in_hand.items()),
        reverse=True,
    )
    print(f"\n=== cumulative ms per request, hand minus page (top {args.top}) ===")
    for extra, func in beyond[: args.top]:
        print(f"{extra * 1000:8.3f}  {in_hand[func] * 1000:8.3f}  {where(func)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
