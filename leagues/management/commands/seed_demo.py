"""``python manage.py seed_demo [--reset] [--accounts]``: the two demo leagues, part-played;
with ``--accounts``, a secretary and a captain to sign in as (new passwords, printed)."""

from __future__ import annotations

import time
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.demo import seed as demo
from leagues.demo.accounts import demo_accounts


class Command(BaseCommand):
    help = (
        "Create a Yorkshire-style and a Trinidad-style demo league with a season part-played "
        "(real hands recorded through the scoring services). Running it again changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo leagues first, then rebuild."
        )
        parser.add_argument(
            "--seed", type=int, default=1874, help="Random seed for the cards (default 1874)."
        )
        parser.add_argument(
            "--accounts",
            action="store_true",
            help="Give the demo's secretary and a captain new passwords and print them "
            "(development only: DJANGO_DEBUG=1).",
        )

    def handle(self, *args: Any, reset: bool, seed: int, accounts: bool, **options: Any) -> None:
        started = time.monotonic()
        if reset:
            demo.reset()
            self.stdout.write("Removed the demo leagues.")
        report = demo.seed(
            seed=seed, log=self.stdout.write if options["verbosity"] > 1 else lambda line: None
        )
        for name in report.skipped:
            self.stdout.write(f"{name}: already there (seed_demo --reset rebuilds it).")
        for name in report.leagues:
            self.stdout.write(self.style.SUCCESS(f"{name}: created."))
        if report.leagues:
            self.stdout.write(
                f"{report.fixtures_played} fixtures played ({report.card_fixtures} from the "
                f"score card), {report.hands} hands recorded "
                f"in {time.monotonic() - started:.1f} s."
            )
        if accounts:
            self._accounts()

    def _accounts(self) -> None:
        try:
            made = demo_accounts()
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc
        if not made:
            return
        self.stdout.write(
            "\nSign in at /accounts/login/ to try the secretary's and the captain's pages "
            "(new passwords each time this runs):"
        )
        for account in made:
            self.stdout.write(f"  {account.username}  {account.password}  ({account.role})")
