"""The public league pages under the production server, as a league grows.

Builds, in a throwaway database, leagues whose every fixture is played with a stored, confirmed
result: a division of 10 teams, one of 20, one of 100, and a league of 1,000 teams in
divisions of 10; and 100,000 recorded hands for ``/games/``. Then it starts the production
server (gunicorn with ``DJANGO_DEBUG=0``, ``config/gunicorn.py``, one worker) on a free local
port and fetches, over HTTP as a browser behind the TLS proxy would, each page of each size
in turn, ``--runs`` times, and prints per page::

    standings 100 teams: median 4.1 ms = 1.3× cheapest page, 3 queries

The cheapest page is the fastest median of the run (the start page and the leagues list are
timed as references). Pages are timed as they are served, page fragments cached; a second
block times them with every league's fragments cleared before each fetch (what the first
visitor after a result sees). Queries are counted in a separate pass, in this process, with
Django's test client, outside the timed fetches:

    .venv/bin/python bench/standings.py                      # everything (about 3 minutes)
    .venv/bin/python bench/standings.py --sizes 10,20 --hands 0 --runs 15
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/standings.py

Without ``DATABASE_URL`` it uses a SQLite file in a temporary folder; with it, the database is
emptied first (use a database of its own). ``REDIS_URL`` makes the server cache in Redis.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from coding import ACCEPT_ENCODING, decoded

ROOT = Path(__file__).resolve().parent.parent
START = datetime.date(2025, 9, 2)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        default="10,20,100,1000",
        help="Teams per league, comma separated: up to 100 one division, more in divisions of 10.",
    )
    parser.add_argument("--runs", type=int, default=31, help="Timed fetches of each page.")
    parser.add_argument(
        "--hands", type=int, default=100_000, help="Hands stored for /games/ (0: leave it out)."
    )
    parser.add_argument("--seed", type=int, default=4)
    return parser.parse_args()


def production_environment(tmp: str) -> dict[str, str]:
    """The bench's own settings: production, a throwaway database unless one is named."""
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="0",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,testserver",
        LOG_LEVEL="ERROR",
    )
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    if not env["DATABASE_URL"].startswith("sqlite"):
        call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


# --- the data ----------------------------------------------------------------------------


def rounds(n: int) -> list[list[tuple[int, int]]]:
    """A double round robin over team indexes by the circle method."""
    slots: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    m = len(slots)
    first_leg = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = slots[i], slots[m - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        first_leg.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return first_leg + [[(b, a) for a, b in pairs] for pairs in first_leg]


def _result(tables: int, rng: random.Random) -> dict[str, object]:
    """A Yorkshire result: 2 a table won, 2 for the higher aggregate (shared when level)."""
    home_tables = rng.randint(0, tables)
    away_tables = tables - home_tables
    home_pegs = home_tables * 11 + away_tables * rng.randint(0, 10)
    away_pegs = away_tables * 11 + home_tables * rng.randint(0, 10)
    home_mp = 2 * home_tables + (2 if home_pegs > away_pegs else 0)
    away_mp = 2 * away_tables + (2 if away_pegs > home_pegs else 0)
    if home_pegs == away_pegs:
        home_mp, away_mp = home_mp + 1, away_mp + 1
    outcome = "home" if home_mp > away_mp else "away" if away_mp > home_mp else "draw"
    return {
        "is_final": True,
        "outcome": outcome,
        "home_tables": home_tables,
        "away_tables": away_tables,
        "home_games": home_tables,
        "away_games": away_tables,
        "home_pegs": home_pegs,
        "away_pegs": away_pegs,
        "home_match_points": home_mp,
        "away_match_points": away_mp,
        "home_points": home_mp,
        "away_points": away_mp,
    }


@dataclass
class Sample:
    """One size's pages to fetch."""

    label: str
    urls: dict[str, str]
    league_pk: int
    built: float


def build_league(teams: int, rng: random.Random) -> Sample:
    """A league of ``teams`` teams, every fixture played; its middle division's pages."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.urls import reverse
    from django.utils import timezone

    from leagues.formats import STYLE_PRESETS
    from leagues.models import (
        Division,
        Fixture,
        FixtureResult,
        League,
        Player,
        PointAdjustment,
        Registration,
        ResultSubmission,
        Season,
        Team,
        TeamEntry,
        Venue,
    )
    from leagues.services.standings import rebuild_tables

    began = time.perf_counter()
    size = teams if teams <= 100 else 10
    preset = STYLE_PRESETS["yorkshire"]
    users = get_user_model().objects
    submitter = users.get_or_create(username="bench-home-captain")[0]
    confirmer = users.get_or_create(username="bench-away-captain")[0]
    now = timezone.now()
    name = f"{teams}"
    with transaction.atomic():
        league = League.objects.create(
            name=f"Bench league of {teams}",
            slug=f"bench-{name}",
            style="yorkshire",
            ruleset=dict(preset.ruleset),
            match_format=preset.match_format.to_spec(),
            tiebreaks=list(preset.tiebreaks),
        )
        season = Season.objects.create(
            league=league, name="2025–26", slug="2025-26", starts_on=START
        )
        divisions = Division.objects.bulk_create(
            Division(season=season, name=f"Division {d + 1}", slug=f"division-{d + 1}", rank=d + 1)
            for d in range(-(-teams // size))
        )
        venues = Venue.objects.bulk_create(
            Venue(league=league, name=f"Pub {name}-{i}", slug=f"pub-{name}-{i}")
            for i in range(teams)
        )
        team_rows = Team.objects.bulk_create(
            Team(league=league, name=f"Team {i:04d}", slug=f"team-{i}", home_venue=venues[i])
            for i in range(teams)
        )
        entries = TeamEntry.objects.bulk_create(
            TeamEntry(season=season, division=divisions[i // size], team=team)
            for i, team in enumerate(team_rows)
        )
        fixtures = []
        for d, division in enumerate(divisions):
            members = team_rows[d * size : (d + 1) * size]
            for number, pairs in enumerate(rounds(len(members)), start=1):
                for h, a in pairs:
                    fixtures.append(
                        Fixture(
                            division=division,
                            round=number,
                            home=members[h],
                            away=members[a],
                            date=START + datetime.timedelta(weeks=number - 1),
                            time=datetime.time(20, 0),
                            venue=members[h].home_venue,
                            status=Fixture.Status.PLAYED,
                        )
                    )
        fixtures = Fixture.objects.bulk_create(fixtures, batch_size=2000)
        tables = preset.match_format.tables
        FixtureResult.objects.bulk_create(
            (FixtureResult(fixture=f, **_result(tables, rng)) for f in fixtures), batch_size=2000
        )
        ResultSubmission.objects.bulk_create(
            (
                ResultSubmission(
                    fixture=f,
                    status="confirmed",
                    figures={},
                    submitted_by=submitter,
                    submitted_at=now,
                    confirmed_by=confirmer,
                    confirmed_at=now,
                    home_agreed_by=submitter,
                    away_agreed_by=confirmer,
                    confirmed_as="captains",
                )
                for f in fixtures
            ),
            batch_size=2000,
        )
        PointAdjustment.objects.bulk_create(
            PointAdjustment(entry=entry, points=-2, reason="Bench deduction")
            for entry in entries[size - 1 :: size]
        )
        middle = len(divisions) // 2
        division = divisions[middle]
        team = team_rows[middle * size]
        players = Player.objects.bulk_create(Player(name=f"Player {name}-{i}") for i in range(6))
        Registration.objects.bulk_create(
            Registration(player=p, team=team, season=season) for p in players
        )
    # The results were stored around the services: their tables are worked out once, as
    # ``manage.py rebuild_standings`` does.
    rebuild_tables(leagues=[league])
    fixture = next(f for f in fixtures if f.division_id == division.pk)
    fixtures_url = reverse("leagues:division_fixtures", args=[division.pk])
    label = f"{teams} teams" if teams <= 100 else f"{teams:,} teams ({len(divisions)} divisions)"
    return Sample(
        label=label,
        league_pk=league.pk,
        built=time.perf_counter() - began,
        urls={
            "standings": reverse("leagues:division", args=[division.pk]),
            "fixtures by week": f"{fixtures_url}?week={START.isoformat()}",
            "fixtures by team": f"{fixtures_url}?team={team.pk}",
            "fixture": reverse("leagues:fixture", args=[fixture.pk]),
            "team": reverse("leagues:team", args=[team.pk]),
            "player": reverse("leagues:player", args=[players[0].pk]),
            "league home": reverse("leagues:league", args=[league.slug]),
        },
    )


def build_games(hands: int, per_game: int = 20) -> float:
    """``hands`` recorded hands in games of ``per_game``: what ``/games/`` lists the latest of."""
    from django.db import transaction

    from scoring.models import Game, GameStatus, Hand, Side

    began = time.perf_counter()
    facts = {"dealer": "A", "high": "A", "low": "B", "jack": None, "game": "A"}
    games = -(-hands // per_game)
    for start in range(0, games, 1000):
        with transaction.atomic():
            rows = Game.objects.bulk_create(
                Game(
                    ruleset={"preset": "west_yorkshire"},
                    variant="west_yorkshire",
                    status=GameStatus.IN_PROGRESS,
                )
                for _ in range(start, min(games, start + 1000))
            )
            Side.objects.bulk_create(
                Side(game=g, label=label, name=f"Side {label}", position=p, score=9)
                for g in rows
                for p, label in enumerate("AB")
            )
            Hand.objects.bulk_create(
                (
                    Hand(
                        game=g,
                        number=n,
                        facts=facts,
                        dealer="A",
                        scores={"A": n, "B": n},
                        entry_key=uuid.uuid4(),
                    )
                    for g in rows
                    for n in range(1, per_game + 1)
                ),
                batch_size=5000,
            )
    return time.perf_counter() - began


# --- the server and the clocks -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    server_env = dict(
        env,
        PORT=str(port),
        HOST="127.0.0.1",
        WEB_CONCURRENCY="1",
        GUNICORN_THREADS="1",
        GUNICORN_ACCESS_LOG="/dev/null",
    )
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    process = subprocess.Popen(
        [gunicorn, "--config", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT,
        env=server_env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()}")


HEADERS = {
    "Host": "127.0.0.1",
    "X-Forwarded-Proto": "https",
    "Accept-Encoding": ACCEPT_ENCODING,
    "Accept": "text/html",
}


def fetch(connection: http.client.HTTPConnection, url: str) -> float:
    """Milliseconds from sending the request to the last byte of the (compressed) page."""
    began = time.perf_counter()
    connection.request("GET", url, headers=HEADERS)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - began) * 1000
    if response.status != 200:
        raise SystemExit(f"{url} answered {response.status}")
    coding = response.getheader("Content-Encoding")
    if coding is None:
        raise SystemExit(f"{url} was not compressed")
    decoded(body, coding)
    return elapsed


def time_pages(
    port: int, pages: list[tuple[str, str, int | None]], runs: int, cold: bool
) -> dict[str, float]:
    """Median milliseconds per page; the pages are fetched in turn, ``runs`` rounds.

    ``cold``: each page's league fragments are cleared just before its fetch."""
    from leagues.fragments import invalidate_league

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _, url, _ in pages:
        fetch(connection, url)
        fetch(connection, url)
    times: dict[str, list[float]] = {name: [] for name, _, _ in pages}
    for _ in range(runs):
        for name, url, league in pages:
            if cold and league is not None:
                invalidate_league(league)
            times[name].append(fetch(connection, url))
    connection.close()
    return {name: statistics.median(values) for name, values in times.items()}


def count_queries(pages: list[tuple[str, str, int | None]], cold: bool) -> dict[str, int]:
    """Queries each page runs, counted in this process with the test client (not timed)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from leagues.fragments import invalidate_league

    client = Client()
    counts = {}
    for name, url, league in pages:
        client.get(url, secure=True)
        if cold and league is not None:
            invalidate_league(league)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, secure=True)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        counts[name] = len(captured)
    return counts


def report(
    title: str,
    pages: list[tuple[str, str, int | None]],
    times: dict[str, float],
    queries,
    budget: float,
) -> None:
    """Each page's median against the cheapest, flagged over ``budget`` (2× as served, 3×
    fresh)."""
    cheapest = min(times.values())
    cheapest_name = min(times, key=times.__getitem__)
    print(f"\n{title} (cheapest page: {cheapest_name}, {cheapest:.2f} ms)")
    for name, _, _ in pages:
        ratio = times[name] / cheapest
        flag = "" if ratio <= budget else f"   over {budget:g}×"
        print(
            f"{name}: median {times[name]:.2f} ms = {ratio:.1f}× cheapest page, "
            f"{queries[name]} queries{flag}",
            flush=True,
        )


def main() -> None:
    args = parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    with tempfile.TemporaryDirectory(prefix="allfours-bench-") as tmp:
        env = production_environment(tmp)
        setup_django(env)
        from django.db import connection
        from django.urls import reverse

        rng = random.Random(args.seed)
        pages: list[tuple[str, str, int | None]] = [
            ("start page", reverse("home"), None),
            ("leagues list", reverse("leagues:league_list"), None),
        ]
        for teams in sizes:
            sample = build_league(teams, rng)
            print(f"built a league of {sample.label} in {sample.built:.1f} s", flush=True)
            pages += [
                (f"{page} {sample.label}", url, sample.league_pk)
                for page, url in sample.urls.items()
            ]
        if args.hands:
            built = build_games(args.hands)
            print(f"built {args.hands:,} hands in {built:.1f} s", flush=True)
            pages.append((f"/games/ {args.hands:,} hands", reverse("scoring:game_list"), None))
        with connection.cursor() as cursor:
            # As autovacuum keeps them in production: fresh statistics and, on PostgreSQL, the
            # tables' pages marked all visible (an index read without its rows).
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        connection.close()

        port = free_port()
        log = Path(tmp) / "server.log"
        server = start_server(env, port, log)
        try:
            print(
                f"\nDatabase: {connection.vendor}; cache: "
                f"{'Redis' if env.get('REDIS_URL') else 'the database'}; gunicorn, one worker; "
                f"median of {args.runs} fetches a page, compressed for Chrome, as behind the "
                "TLS proxy",
                flush=True,
            )
            warm = time_pages(port, pages, args.runs, cold=False)
            report("As served", pages, warm, count_queries(pages, cold=False), budget=2)
            cold = time_pages(port, pages, max(5, args.runs // 3), cold=True)
            report(
                "Fragments cleared before each fetch",
                pages,
                cold,
                count_queries(pages, cold=True),
                budget=3,
            )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        errors = [line for line in log.read_text().splitlines() if "ERROR" in line]
        if errors:
            print("\nserver log:\n" + "\n".join(errors))


if __name__ == "__main__":
    main()
