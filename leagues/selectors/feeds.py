"""Fixtures as the calendar feeds read them.

Each fixture comes with its teams, venue, division, stored result and, for a cup tie, its tie's
cup and round (one query), plus:

- ``result_counts``: whether its result stands, from the one definition of the results that
  count (``leagues.selectors.counting``), for a fixture of any kind: a cup tie's result stands
  in its cup as a league fixture's in the table (and a calendar gives it);
- ``revision``: how many times it has changed (its audit entries: postponed, re-arranged,
  result submitted, confirmed, ...). Stored data, so a calendar's ``SEQUENCE`` only grows.

A division's feed is its own fixtures (``division_fixtures``), as its fixtures page lists them; a
team's and a league's have the cup ties too.
"""

from __future__ import annotations

from django.db.models import QuerySet, Value
from django.db.models.functions import Coalesce

from config.queries import count_of
from leagues.models import AuditEntry, Division, Fixture, League, Team
from leagues.selectors.counting import fixtures_with_standing
from leagues.selectors.fixtures import CUP_TIE, division_fixtures, fixture_list

#: A cup tie's cup and round (or group), which its event names.


def with_revision(queryset: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """``queryset`` (from ``fixture_list``, so it knows how each result stands) with each
    fixture's ``revision``."""
    revisions = count_of(AuditEntry.objects.all(), field="fixture", outer="pk")
    return queryset.annotate(revision=Coalesce(revisions, Value(0)))


def feed_fixtures(
    *, league: League | None = None, division: Division | None = None, team: Team | None = None
) -> QuerySet[Fixture]:
    """Every fixture of the league, the division (its own) or the team (all seasons), in date
    order."""
    if division is not None:
        fixtures = division_fixtures(division=division)
    else:
        fixtures = fixture_list(team=team)
    fixtures = fixtures.select_related(*CUP_TIE)
    if league is not None:
        fixtures = fixtures.filter(division__season__league=league)
    return with_revision(fixtures_with_standing(fixtures, kinds=Fixture.Kind.values))
