"""Fixtures as the calendar feeds read them.

Each fixture comes with its teams, venue, division and stored result (one query), plus:

- ``result_counts``: whether its result counts, from the one definition of the results that
  count (``leagues.selectors.counting``);
- ``revision``: how many times it has changed (its audit entries: postponed, re-arranged,
  result submitted, confirmed, ...). Stored data, so a calendar's ``SEQUENCE`` only grows.
"""

from __future__ import annotations

from django.db.models import QuerySet, Value
from django.db.models.functions import Coalesce

from config.queries import count_of
from leagues.models import AuditEntry, Division, Fixture, League, Team
from leagues.selectors.fixtures import fixture_list


def with_revision(queryset: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """``queryset`` (from ``fixture_list``, so it knows how each result stands) with each
    fixture's ``revision``."""
    revisions = count_of(AuditEntry.objects.all(), field="fixture", outer="pk")
    return queryset.annotate(revision=Coalesce(revisions, Value(0)))


def feed_fixtures(
    *, league: League | None = None, division: Division | None = None, team: Team | None = None
) -> QuerySet[Fixture]:
    """Every fixture of the league, the division or the team (all seasons), in date order."""
    fixtures = fixture_list(division=division, team=team, standing=True)
    if league is not None:
        fixtures = fixtures.filter(division__season__league=league)
    return with_revision(fixtures)
