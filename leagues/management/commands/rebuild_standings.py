"""``python manage.py rebuild_standings [--league SLUG ...] [--missing]``: stored tables from
the results."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import pluralize

from leagues.models import League
from leagues.services.standings import rebuild_tables


class Command(BaseCommand):
    help = (
        "Work every division's league table out again from its results and store it (the "
        "pages read the stored tables). Run after loading data around the services, e.g. a "
        "restore or an edit in the admin. Running it again changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--league",
            action="append",
            default=[],
            metavar="SLUG",
            help="Only this league's divisions (repeat for more); every league without it.",
        )
        parser.add_argument(
            "--missing",
            action="store_true",
            help="Only the divisions with no stored table yet (``make serve`` runs it after "
            "migrating: a database from before the tables were stored gets them once).",
        )

    def handle(self, *args: Any, league: list[str], missing: bool, **options: Any) -> None:
        started = time.monotonic()
        leagues = None
        if league:
            found = list(League.objects.filter(slug__in=league))
            unknown = sorted(set(league) - {found_league.slug for found_league in found})
            if unknown:
                raise CommandError(f"No league with the slug {', '.join(unknown)}.")
            leagues = found
        count = rebuild_tables(leagues=leagues, missing=missing)
        self.stdout.write(
            f"Rebuilt {count} division table{pluralize(count)} "
            f"in {time.monotonic() - started:.1f} s."
        )
