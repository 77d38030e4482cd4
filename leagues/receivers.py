"""Signal receivers: they only hand over to services."""

from __future__ import annotations

from typing import Any


def on_game_changed(sender: Any, *, game: Any, **kwargs: Any) -> None:
    """A scored game changed: if it was played at a fixture table, roll the fixture up again."""
    from leagues.services.results import fixture_game_changed

    fixture_game_changed(game=game)


def on_scoring_link_reissued(sender: Any, *, old: Any, new: Any, **kwargs: Any) -> None:
    """A link was re-issued (say from a game's page): the fixture table that held it follows."""
    from leagues.services.results import table_link_follow

    table_link_follow(old=old, new=new)


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
