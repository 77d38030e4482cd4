"""``manage.py export_league --league SLUG [-o FILE]``: the whole league in one file, which
``manage.py import_league FILE --league SLUG`` reads back into another site."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.models import League
from leagues.services.league_export import league_export


class Command(BaseCommand):
    help = "Export a whole league (seasons, teams, players, fixtures, results, cups) to JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", required=True, help="The league's slug.")
        parser.add_argument("-o", "--output", type=Path, help="The file (default: stdout).")

    def handle(self, *args: Any, league: str, output: Path | None, **options: Any) -> None:
        found = League.objects.filter(slug=league).first()
        if found is None:
            raise CommandError(f"There is no league at “{league}”.", returncode=2)
        text = league_export(league=found)
        if output is None:
            self.stdout.write(text)
        else:
            output.write_text(text, encoding="utf-8")
            self.stderr.write(f"{found.name} written to {output}.")
