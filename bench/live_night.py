"""A league night watched live: 40 tables scoring while 500 phones follow the pages.

    .venv/bin/python bench/live_night.py [--tables 40] [--rate 1] [--spectators 500] [--seconds 30]

Runs the app as in production, as `bench/hand_entry.py` does (production settings under gunicorn
with `config/gunicorn.py`, requests as through the TLS proxy, compressed as for Chrome), on the
database in DATABASE_URL and the cache in REDIS_URL (PostgreSQL and Redis are what the figures are
for; a throwaway SQLite database and the database cache without them).

The night: a Yorkshire-style league (four tables a match) playing Trinidad's turn-up rules to
500 (so no game ends during the run) with `--tables` / 4 fixtures tonight, every table's pairs
seated and its game started. Then, timed:

1. one scorer alone records 30 hands at one table over HTTP (each hand one POST, as the phone
   with JavaScript sends it): the hand's median and 95th percentile alone;
2. for `--seconds`, the tables' scorers record `--rate` hands a second between them (each
   table in turn: at 40 tables and 1 a second, a hand every 40 s a table, faster than a real
   table's one or two minutes), while `--spectators` phones
   each poll their page every 10 seconds with the ETag they last saw, as `static/leagues/live.js`
   does: four in five a fixture's page (`/leagues/live/<league>/fixture/<pk>/`), one in five the
   league night's (`/leagues/live/<league>/`); and a probe fetches the cheapest page (the start
   page or another page that needs no game, as `hand_entry.py` picks it) twice a second.

Prints the hand's p95 under that load as a ratio to the hand alone (goal at most 2×), the median
of the polls answered `304 Not Modified` (nothing changed for that phone) as a ratio to the
cheapest page's median under the same load (goal at most 1×), the share of polls that were 304,
and checks that the database holds exactly the hands the scorers were told were recorded. Only
loopback traffic; the server is stopped at the end, also on error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hand_entry import (  # noqa: E402  (the bench folder is not a package)
    Session,
    cheapest_page,
    form_fields,
    free_port,
    manage,
    ms,
    next_dealer,
    percentile,
    plain_hand,
    production_env,
    start_server,
    stop,
)

#: Builds tonight's fixtures through the factories and services the tests use; prints them.
SETUP = """
import json
from django.utils import timezone
from leagues.models import League
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import entered_teams, start_fixture
fixtures = {fixtures}
league = LeagueFactory(name="Bench Night League", slug="bench-night",
                       ruleset={{"preset": "trinidad", "target": 500}})
division = DivisionFactory(season__league=league, name="Premier")
teams = entered_teams(division, [f"Team {{n}}" for n in range(2 * fixtures)])
night = []
for n in range(fixtures):
    fixture = FixtureFactory(division=division, home=teams[2 * n], away=teams[2 * n + 1],
                             date=timezone.localdate())
    tables = start_fixture(fixture)
    links = [t.table.scoring_link.get_absolute_url() for t in tables]
    night.append({{"fixture": fixture.pk, "links": links}})
print(json.dumps({{"league": league.pk, "night": night}}))
"""

HANDS_ALONE = 30
POLL_EVERY = 10.0


@dataclass
class Table:
    """One table's scorer: the phone, its game and the next hand's form."""

    session: Session
    game: int
    fields: dict[str, str]
    dealer: str


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    hands: list[float] = field(default_factory=list)
    recorded: int = 0
    failures: list[str] = field(default_factory=list)
    unchanged: list[float] = field(default_factory=list)
    changed: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)


def open_table(port: int, link: str) -> Table:
    """Open a table's scoring link as the scorer's phone does (it lands on the game)."""
    session = Session(port)
    status, headers, _, _ = session.request("GET", link)
    location = headers.get("location", "")
    if status != 302 or "/games/" not in location:
        raise RuntimeError(f"the scoring link did not open the game: HTTP {status}")
    status, _, html, _ = session.request("GET", location)
    game = int(location.rstrip("/").rsplit("/", 1)[-1])
    return Table(session, game, form_fields(html, "hand-form"), next_dealer(html))


def record(table: Table, tally: Tally) -> None:
    """Record the table's next hand; its time goes in the tally."""
    number = int(table.fields["expected_number"])
    data = plain_hand(table.fields, table.dealer, number)
    began = time.perf_counter()
    status, _, reply, _ = table.session.request(
        "POST", f"/games/{table.game}/hands/", data, headers={"HX-Request": "true"}
    )
    took = time.perf_counter() - began
    with tally.lock:
        if status == 200 and f"Hand {number} recorded." in reply:
            tally.hands.append(took)
            tally.recorded += 1
            table.fields = form_fields(reply, "hand-form")
            table.dealer = next_dealer(reply)
        else:
            tally.failures.append(f"game {table.game}, hand {number}: HTTP {status}")


def scorer(table: Table, tally: Tally, until: float, every: float) -> None:
    """A hand every ``every`` seconds until ``until``, from a random start."""
    began = time.monotonic() + random.random() * every
    while began < until:
        time.sleep(max(0.0, began - time.monotonic()))
        record(table, tally)
        began += every


def spectators(port: int, urls: list[str], tally: Tally, until: float, workers: int) -> None:
    """Each of ``urls`` is one phone polling every 10 s with the ETag it last saw; the polls
    are spread evenly over the 10 s and shared out among ``workers`` threads."""
    tags: dict[int, str] = {}
    due: queue.Queue[tuple[float, int]] = queue.Queue()
    start = time.monotonic()
    for index in range(len(urls)):
        due.put((start + POLL_EVERY * index / len(urls), index))

    def work() -> None:
        session = Session(port)
        while True:
            try:
                at, index = due.get(timeout=1)
            except queue.Empty:
                return
            if at >= until:
                return
            time.sleep(max(0.0, at - time.monotonic()))
            headers = {"If-None-Match": tags[index]} if index in tags else {}
            began = time.perf_counter()
            try:
                status, answer, _, _ = session.request("GET", urls[index], headers=headers)
            except OSError as exc:
                with tally.lock:
                    tally.failures.append(f"poll {urls[index]}: {exc}")
                continue
            took = time.perf_counter() - began
            with tally.lock:
                if status == 304:
                    tally.unchanged.append(took)
                elif status == 200:
                    tally.changed.append(took)
                    tags[index] = answer.get("etag", "")
                else:
                    tally.failures.append(f"poll {urls[index]}: HTTP {status}")
            due.put((at + POLL_EVERY, index))

    threads = [threading.Thread(target=work, daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(until - time.monotonic() + 30)


def probe(port: int, page: str, tally: Tally, until: float) -> None:
    """The cheapest page twice a second, under the same load."""
    session = Session(port)
    while time.monotonic() < until:
        began = time.perf_counter()
        status, _, _, _ = session.request("GET", page)
        with tally.lock:
            if status == 200:
                tally.page.append(time.perf_counter() - began)
        time.sleep(0.5)


def hands_in_database(env: dict[str, str], games: list[int]) -> int:
    code = (
        "from scoring.models import Hand; "
        f"print(Hand.objects.filter(game_id__in={sorted(games)!r}).count())"
    )
    return int(manage(env, "shell", "-c", code).strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables scoring (40; 4 a match)")
    parser.add_argument(
        "--rate", type=float, default=1.0, help="hands a second, all tables together (1)"
    )
    parser.add_argument("--spectators", type=int, default=500, help="phones polling (500)")
    parser.add_argument("--seconds", type=float, default=30, help="how long the load runs (30)")
    args = parser.parse_args(argv)
    if args.tables < 4 or args.tables % 4 or args.spectators < 1 or args.seconds < 5:
        parser.error("--tables a multiple of 4, --spectators 1 or more, --seconds 5 or more")
    if not 0 < args.rate <= args.tables:
        parser.error("--rate is more than 0 and at most a hand a second a table")

    with tempfile.TemporaryDirectory(prefix="allfours-bench-") as tmp:
        port = free_port()
        env = production_env(port, tmp)
        database = env["DATABASE_URL"].split("@")[-1]
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        manage(env, "shell", "-c", "from leagues.models import League; "
               "League.objects.filter(slug='bench-night').delete()")  # fmt: skip
        setup = SETUP.format(fixtures=args.tables // 4)
        made = json.loads(manage(env, "shell", "-c", setup).strip().splitlines()[-1])
        league = made["league"]
        links = [link for fixture in made["night"] for link in fixture["links"]]
        fixtures = [fixture["fixture"] for fixture in made["night"]]
        polled = [
            f"/leagues/live/{league}/"
            if n % 5 == 4
            else f"/leagues/live/{league}/fixture/{fixtures[n % len(fixtures)]}/"
            for n in range(args.spectators)
        ]

        server = start_server(env, port, tmp)
        try:
            page, _ = cheapest_page(port)
            tables = [open_table(port, link) for link in links]
            alone = Tally()
            for _ in range(HANDS_ALONE):
                record(tables[0], alone)
            night = Tally()
            until = time.monotonic() + args.seconds
            every = len(tables) / args.rate
            threads = [
                threading.Thread(target=scorer, args=(t, night, until, every), daemon=True)
                for t in tables
            ]
            threads.append(threading.Thread(target=probe, args=(port, page, night, until)))
            threads.append(
                threading.Thread(
                    target=spectators, args=(port, polled, night, until, 25), daemon=True
                )
            )
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(args.seconds + 60)
        finally:
            stop(server)
        stored = hands_in_database(env, [table.game for table in tables])

    recorded = alone.recorded + night.recorded
    print(f"database: {database}; cache: {'Redis' if env.get('REDIS_URL') else 'the database'};"
          " server: gunicorn (config/gunicorn.py), DJANGO_DEBUG=0")  # fmt: skip
    print(f"hands in the database: {stored} of {recorded} recorded")
    for failure in (alone.failures + night.failures)[:20]:
        print("FAILED", failure, file=sys.stderr)
    if stored != recorded:
        print(
            f"FAILED the database holds {stored} hands, {recorded} were recorded", file=sys.stderr
        )
        return 1
    if alone.failures or night.failures or not alone.hands or not night.hands:
        return 1
    if not night.unchanged or not night.page:
        print("FAILED no unchanged poll or no cheapest page was timed", file=sys.stderr)
        return 1
    polls = len(night.unchanged) + len(night.changed)
    hand_alone, hand_load = percentile(alone.hands, 95), percentile(night.hands, 95)
    unchanged, cheap = percentile(night.unchanged, 50), percentile(night.page, 50)
    print(
        f"{len(tables)} tables, {len(night.hands) / args.seconds:.1f} hands/s; "
        f"{args.spectators} spectators, {polls / args.seconds:.1f} polls/s, "
        f"{100 * len(night.unchanged) / polls:.0f}% answered 304"
    )
    print(f"{'':40}{'median':>10}{'p95':>11}")
    for name, times in (
        ("record a hand, alone", alone.hands),
        ("record a hand, on the night", night.hands),
        ("poll, unchanged (304)", night.unchanged),
        ("poll, changed (200)", night.changed or [0.0]),
        (f"cheapest page GET {page}, on the night", night.page),
    ):
        print(f"{name:40}{ms(percentile(times, 50)):>10}{ms(percentile(times, 95)):>11}")
    print(
        f"live night: hand p95 {hand_load * 1000:.1f} ms = {hand_load / hand_alone:.2f}× alone "
        f"(goal ≤ 2×); unchanged poll median {unchanged * 1000:.1f} ms = "
        f"{unchanged / cheap:.2f}× cheapest page (goal ≤ 1×)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
