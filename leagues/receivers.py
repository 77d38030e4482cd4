"""Signal receivers for the site's housekeeping, never a result's consequences (those run in
``leagues.services.rollup``): the cache table made on ``migrate``, and the page fragments
dropped after a change made in Django's admin (which bypasses the services)."""

from __future__ import annotations

from typing import Any


def create_cache_table(sender: Any, *, using: str, **kwargs: Any) -> None:
    """Every ``migrate`` also makes the database cache's table (when that is the cache in use),
    so a new site, a bench or a test database has it without a step of its own."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)


def on_admin_change(sender: Any, **kwargs: Any) -> None:
    """A change made in Django's admin (which logs each one) bypasses the services: every
    league page fragment goes, as the change may show anywhere."""
    from leagues.fragments import invalidate_all

    invalidate_all()
