"""``python manage.py settle_walkovers``: the pending walkovers whose date has come count."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.template.defaultfilters import pluralize

from leagues.services.withdrawal import settle_due_walkovers


class Command(BaseCommand):
    help = (
        "Count every walkover given ahead of its night (a withdrawn team's fixture) whose date "
        "has come where its league plays: each fixture's table is refreshed and audited. "
        "Running it again changes nothing; `make serve` runs it every SETTLE_EVERY_SECONDS."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = settle_due_walkovers()
        self.stdout.write(f"Settled {count} walkover{pluralize(count)}.")
