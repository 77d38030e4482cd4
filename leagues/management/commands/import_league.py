"""``manage.py import_league FILE [--fixtures FILE] --league SLUG [--season NAME] [--dry-run]``:
the secretary's spreadsheet import for the site's operator moving a league in.

The league (Yorkshire style unless ``--style``) and the season are created when they do not
exist. Prints the plan and every problem by row and column, as the import page shows them;
exits 2 on any problem (or an open question: answer it with ``--person ROW=ID`` or
``--person ROW=new``) and saves nothing, 0 when saved. ``--dry-run`` saves nothing either way.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from leagues.models import Fixture, League
from leagues.services import league_import, structure
from leagues.services.league_export import is_export, league_restore
from leagues.sheets import MAX_BYTES


class _DryRun(Exception):
    """Leaves the transaction, so a dry run keeps nothing it made to plan against."""


class Command(BaseCommand):
    help = "Import a league's teams, players, captains (and fixtures, results) from CSV or XLSX."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="One row a player: CSV or XLSX.")
        parser.add_argument("--fixtures", type=Path, help="The fixtures (and results played).")
        parser.add_argument("--league", required=True, help="The league's slug (its address).")
        parser.add_argument("--season", default="", help="The season's name (default: latest).")
        parser.add_argument("--style", default="yorkshire", choices=["yorkshire", "trinidad"])
        parser.add_argument("--dry-run", action="store_true", help="Print the plan; save nothing.")
        parser.add_argument(
            "--person",
            action="append",
            default=[],
            metavar="ROW=ID",
            help="Who a row's player is, when the plan asks: a player's number, or 'new'.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        people, people_size = _read(options["file"])
        if is_export(people) or options["file"].suffix == ".json":
            self._restore(options["file"], options)
            return
        fixtures, fixtures_size = _read(options["fixtures"]) if options["fixtures"] else (None, 0)
        answers = {}
        for given in options["person"]:
            row, _, answer = given.partition("=")
            answers[f"person-{row.strip()}"] = answer.strip()
        sheet, fixtures_sheet = league_import.read_files(
            people=people,
            people_name=options["file"].name,
            fixtures=fixtures,
            fixtures_name=options["fixtures"].name if options["fixtures"] else "",
            sizes=(people_size, fixtures_size),
        )
        try:
            with transaction.atomic():
                plan = self._run(options, sheet, fixtures_sheet, answers)
                if options["dry_run"]:
                    self._print(plan)
                    raise _DryRun
        except _DryRun:
            self.stdout.write("Dry run: nothing was saved.")
            sys.exit(2 if plan.problems or not plan.ready else 0)
        except league_import.ImportRefused as refused:
            self._print(refused.plan)
            self.stderr.write("Nothing was saved.")
            sys.exit(2)
        self._print(plan)
        self.stdout.write(self.style.SUCCESS(f"Saved into {plan.season_name}."))

    def _restore(self, path: Path, options: dict[str, Any]) -> None:
        """A whole league exported by ``export_league``: loaded as it was, or nothing."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}", returncode=2) from exc
        try:
            with transaction.atomic():
                league = league_restore(data=data, slug=options["league"])
                self.stdout.write(
                    f"{league.name}: {league.seasons.count()} seasons, {league.teams.count()} "
                    f"teams, {Fixture.objects.filter(division__season__league=league).count()} "
                    "fixtures."
                )
                if options["dry_run"]:
                    raise _DryRun
        except _DryRun:
            self.stdout.write("Dry run: nothing was saved.")
            return
        except ValidationError as exc:
            for message in exc.messages:
                self.stderr.write(f"Problem: {message}")
            self.stderr.write("Nothing was saved.")
            sys.exit(2)
        self.stdout.write(self.style.SUCCESS("Saved."))

    def _run(self, options: dict[str, Any], sheet: Any, fixtures_sheet: Any, answers: Any) -> Any:
        slug = options["league"]
        league = League.objects.filter(slug=slug).first()
        if league is None:
            league = structure.league_create(
                name=slug.replace("-", " ").title(), slug=slug, style=options["style"]
            )
            self.stdout.write(f"League {league.name} ({slug}) will be created.")
        seasons = league.seasons.order_by("-starts_on")
        name = options["season"]
        season = seasons.filter(name=name).first() if name else seasons.first()
        if season is None and not name:
            year = league.today().year
            name = f"{year}–{str(year + 1)[-2:]}"
        reader = league_import.fixtures_reader(fixtures_sheet)
        # A new season starts today, or on its first fixture's day when the file has fixtures
        # already played: the league moving in mid-season.
        first = reader.first_date() if reader is not None else None
        starts = min(first, league.today()) if first else league.today()
        if options["dry_run"]:
            return league_import.import_plan(
                league=league,
                season=season,
                season_name=name,
                season_starts=starts,
                sheet=sheet,
                answers=answers,
                fixtures=reader,
            )
        return league_import.league_import(
            league=league,
            season=season,
            season_name=name,
            season_starts=starts,
            sheet=sheet,
            answers=answers,
            fixtures=reader,
            source=options["file"].name,
        )

    def _print(self, plan: league_import.Plan) -> None:
        self.stdout.write(f"Season: {plan.season_name}")
        for heading, lines in plan.creating:
            self.stdout.write(f"{heading}:")
            for line in lines:
                self.stdout.write(f"  {line}")
        if plan.change:
            self.stdout.write(f"Change {len(plan.change)}:")
            for line in plan.change:
                self.stdout.write(f"  {line}")
        if not plan.changes:
            self.stdout.write("Nothing to create or change.")
        for warning in plan.warnings:
            self.stdout.write(f"Note: {warning}")
        for question in plan.questions:
            if any(p.row == question.row and p.open for p in plan.people):
                choices = "; ".join(f"{value} = {label}" for value, label in question.choices)
                self.stderr.write(
                    f"Question, row {question.row}: who is {question.name} of {question.team}? "
                    f"Answer with --person {question.row}=CHOICE ({choices})."
                )
        for problem in plan.problems:
            self.stderr.write(f"Problem: {problem}")


def _read(path: Path) -> tuple[bytes, int]:
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES + 1), size
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}", returncode=2) from exc
