"""How the standings and fixtures pages of one division behave as the league grows.

Builds Yorkshire-style leagues of 10, 100 and 1,000 teams split into divisions of 10 (1,000
teams is 100 divisions), each division with a full double round robin of stored results
(fixtures, ``FixtureResult`` rows and their confirmed ``ResultSubmission`` rows inserted
directly: standings read stored, confirmed results and never replay hands). It then fetches
one division's standings page and fixtures page (a week, and one team's list) through Django's
test client and prints the median time and the query count of each: the time should stay flat
as the league grows, since every page filters by indexed columns and runs a fixed number of
queries. A last line does the same for a single division of
100 teams, to show how a page grows with its own division:

    .venv/bin/python bench/standings.py                  # leagues of 10, 100 and 1,000 teams
    .venv/bin/python bench/standings.py --sizes 10,100 --runs 5 --single 0
    DATABASE_URL=postgres://... .venv/bin/python bench/standings.py

Without DATABASE_URL it uses a throwaway SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START = datetime.date(2025, 9, 2)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="10,100,1000", help="Teams in each league, comma separated."
    )
    parser.add_argument(
        "--division-size", type=int, default=10, help="Teams a division (default 10)."
    )
    parser.add_argument(
        "--single",
        type=int,
        default=100,
        help="Teams in the one-division league of the last line; 0 to leave it out.",
    )
    parser.add_argument("--runs", type=int, default=3, help="Fetches of each page (median).")
    parser.add_argument(
        "--legs", type=int, choices=(1, 2), default=2, help="Single or double round robin."
    )
    return parser.parse_args()


def setup_django(tmp: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def rounds(n: int, legs: int) -> list[list[tuple[int, int]]]:
    """Circle-method round robin over team indexes (a bye when ``n`` is odd)."""
    slots = list(range(n)) + ([None] if n % 2 else [])
    m = len(slots)
    first_leg = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = slots[i], slots[m - 1 - i]
            if a is None or b is None:
                continue
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        first_leg.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if legs == 1:
        return first_leg
    return first_leg + [[(b, a) for a, b in pairs] for pairs in first_leg]


def build(teams: int, division_size: int, legs: int, rng: random.Random):
    """A league of ``teams`` teams in divisions of ``division_size``, every fixture played.

    Returns the division measured (the middle one, so it is neither the first nor the last
    rows written), one of its teams, and the league's division and fixture counts."""
    from django.db import transaction

    from leagues.formats import STYLE_PRESETS
    from leagues.models import (
        Division,
        League,
        PointAdjustment,
        Season,
        Team,
        TeamEntry,
        Venue,
    )

    preset = STYLE_PRESETS["yorkshire"]
    match_format = preset.match_format
    name = f"{teams}x{division_size}"
    with transaction.atomic():
        league = League.objects.create(
            name=f"Bench league {name}",
            slug=f"bench-{name}",
            style="yorkshire",
            ruleset=dict(preset.ruleset),
            match_format=match_format.to_spec(),
            tiebreaks=list(preset.tiebreaks),
        )
        season = Season.objects.create(
            league=league, name="2025–26", slug="2025-26", starts_on=START
        )
        count = -(-teams // division_size)
        divisions = Division.objects.bulk_create(
            Division(season=season, name=f"Division {d + 1}", slug=f"division-{d + 1}", rank=d + 1)
            for d in range(count)
        )
        venues = Venue.objects.bulk_create(
            Venue(name=f"Pub {name}-{i}", slug=f"pub-{name}-{i}") for i in range(teams)
        )
        team_rows = Team.objects.bulk_create(
            Team(league=league, name=f"Team {i:04d}", slug=f"team-{i}", home_venue=venues[i])
            for i in range(teams)
        )
        entries = TeamEntry.objects.bulk_create(
            TeamEntry(season=season, division=divisions[i // division_size], team=team)
            for i, team in enumerate(team_rows)
        )
        fixtures = 0
        for d, division in enumerate(divisions):
            members = slice(d * division_size, (d + 1) * division_size)
            fixtures += _play_season(
                division, team_rows[members], venues[members], legs, match_format.tables, rng
            )
        PointAdjustment.objects.bulk_create(
            PointAdjustment(entry=entry, points=-2, reason="Bench deduction")
            for entry in entries[division_size - 1 :: division_size]
        )
    measured = divisions[len(divisions) // 2]
    return measured, team_rows[(len(divisions) // 2) * division_size], len(divisions), fixtures


def _insert(model, columns: list[str], rows: list[tuple]) -> None:
    """Rows straight into the model's table: a season of a 1,000-team league is 9,000
    fixtures and as many results, quicker inserted as rows than built as model instances."""
    from django.db import connection

    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    marks = ", ".join(["%s"] * len(columns))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


def _result(home: int, away: int, tables: int, rng: random.Random) -> tuple:
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
    return (
        outcome,
        home_tables,
        away_tables,
        home_tables,
        away_tables,
        home_pegs,
        away_pegs,
        home_mp,
        away_mp,
        home_mp,
        away_mp,
    )


def _play_season(division, teams, venues, legs: int, tables: int, rng: random.Random) -> int:
    """Every fixture of the round robin, played, with its stored final result."""
    from django.db import connection
    from django.utils import timezone

    from leagues.models import Fixture, FixtureResult, ResultSubmission

    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    eight = ops.adapt_timefield_value(datetime.time(20, 0))
    fixture_rows = [
        (
            division.pk,
            number,
            teams[h].pk,
            teams[a].pk,
            ops.adapt_datefield_value(START + datetime.timedelta(weeks=number - 1)),
            eight,
            venues[h].pk,
            Fixture.Status.PLAYED.value,
            "",
            "",
            "",
            now,
        )
        for number, pairs in enumerate(rounds(len(teams), legs), start=1)
        for h, a in pairs
    ]
    _insert(
        Fixture,
        [
            "division_id",
            "round",
            "home_id",
            "away_id",
            "date",
            "time",
            "venue_id",
            "status",
            "walkover_to",
            "reason",
            "note",
            "updated_at",
        ],
        fixture_rows,
    )
    played = Fixture.objects.filter(division=division).values_list("pk", "home", "away")
    _insert(
        FixtureResult,
        [
            "fixture_id",
            "is_final",
            "is_walkover",
            "computed_at",
            "outcome",
            "home_tables",
            "away_tables",
            "home_games",
            "away_games",
            "home_pegs",
            "away_pegs",
            "home_match_points",
            "away_match_points",
            "home_points",
            "away_points",
            "tables_halved",
            "home_hang_jacks",
            "away_hang_jacks",
        ],
        [
            (pk, True, False, now, *_result(home, away, tables, rng), 0, 0, 0)
            for pk, home, away in played.iterator(chunk_size=5000)
        ],
    )
    # Standings count confirmed results only: each result confirmed by the other captain.
    submitter, confirmer = _captains()
    figures = ops.adapt_json_value({}, None)
    _insert(
        ResultSubmission,
        [
            "fixture_id",
            "status",
            "figures",
            "submitted_by_id",
            "submitted_at",
            "confirmed_by_id",
            "confirmed_at",
            "dispute_reason",
            "settlement",
        ],
        [
            (pk, "confirmed", figures, submitter, now, confirmer, now, "", "")
            for pk in Fixture.objects.filter(division=division).values_list("pk", flat=True)
        ],
    )
    return len(fixture_rows)


def _captains() -> tuple[int, int]:
    """Two accounts: the captain who submits every result and the one who confirms it."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return (
        users.get_or_create(username="bench-home-captain")[0].pk,
        users.get_or_create(username="bench-away-captain")[0].pk,
    )


def measure(client, url: str, runs: int) -> tuple[float, int]:
    """Median milliseconds over ``runs`` fetches (after one to warm the caches) and the queries
    of one fetch."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)
    times = []
    queries = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - began) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        queries = len(captured)
    return statistics.median(times), queries


def main() -> None:
    args = parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    runs = [(size, args.division_size) for size in sizes]
    if args.single:
        runs.append((args.single, args.single))
    with tempfile.TemporaryDirectory(prefix="allfours-bench-") as tmp:
        setup_django(tmp)
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        print(
            f"Database: {connection.vendor}; median of {args.runs} fetches; "
            f"{'double' if args.legs == 2 else 'single'} round robin in every division; "
            "one division's pages timed"
        )
        header = (
            f"{'league teams':>12} {'divisions':>9} {'div teams':>9} {'fixtures':>9} "
            f"{'build s':>7} | {'standings ms':>12} {'q':>3} | {'week ms':>8} {'q':>3} | "
            f"{'team ms':>8} {'q':>3}"
        )
        print(header)
        print("-" * len(header))
        rng = random.Random(4)
        client = Client()
        for index, (teams, division_size) in enumerate(runs):
            if args.single and index == len(runs) - 1:
                print("one division of its own:")
            began = time.perf_counter()
            division, team, divisions, fixtures = build(teams, division_size, args.legs, rng)
            built = time.perf_counter() - began
            gc.collect()
            standings = measure(client, reverse("leagues:division", args=[division.pk]), args.runs)
            fixtures_url = reverse("leagues:division_fixtures", args=[division.pk])
            week = measure(client, f"{fixtures_url}?week={START.isoformat()}", args.runs)
            by_team = measure(client, f"{fixtures_url}?team={team.pk}", args.runs)
            print(
                f"{teams:>12,} {divisions:>9} {min(division_size, teams):>9} {fixtures:>9,} "
                f"{built:>7.1f} | {standings[0]:>12.1f} {standings[1]:>3} | "
                f"{week[0]:>8.1f} {week[1]:>3} | {by_team[0]:>8.1f} {by_team[1]:>3}",
                flush=True,
            )


if __name__ == "__main__":
    main()
