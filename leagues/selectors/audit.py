"""The league's audit trail: its own entries and every hand-level change to its games, merged
newest first and read a page at a time in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import CharField, Q, Value

from leagues.models import AuditEntry, Fixture, League
from leagues.selectors.people import BY_AS_PLAYER, player_name_of
from scoring.models import HandRevision

LEAGUE, HAND = "league", "hand"

#: Where an entry of games taken away (``AuditEntry.Action.GAME_TAKEN_AWAY``) names them, in
#: its ``after``: each game's id (the object's key) and its number.
TAKEN_AWAY = "taken_away"


def game_taken_away(*, pk: int) -> bool:
    """Whether game ``pk`` was taken away before a hand of it was recorded (a table's or a cup
    tie's next game, ``leagues.services.results.later_games_go``; a cup tie's games when it
    changed before play): the audit entry that took it away names it. No entry names a game id
    that never was a game. One query."""
    return AuditEntry.objects.filter(
        action=AuditEntry.Action.GAME_TAKEN_AWAY, **{f"after__{TAKEN_AWAY}__has_key": str(pk)}
    ).exists()


@dataclass(frozen=True)
class AuditRow:
    """One line of the merged trail: a league ``AuditEntry`` or a game's ``HandRevision``."""

    kind: str
    item: Any
    #: The ruleset of the entry's fixture's season: its entries leave out the figures it does
    #: not have (a Yorkshire card's hang jacks). None for an entry of no fixture.
    ruleset: Any = None

    @property
    def at(self) -> Any:
        return self.item.at

    @property
    def fixture(self) -> Any:
        if self.kind == LEAGUE:
            return self.item.fixture
        return self.item.game.league_game.table.fixture


def _league_revisions(league: League) -> Any:
    return HandRevision.objects.filter(
        game__league_game__table__fixture__division__season__league=league
    )


def league_audit_page(*, league: League, page: Any, per_page: int = 100) -> tuple[Page, list]:
    """The page ``page`` (a number; out of range gives the last) of the merged trail and its
    rows: five queries whatever the page (count, keys of the page, entries, revisions and
    their games' sides)."""
    kind = CharField(max_length=6)
    entries = (
        AuditEntry.objects.filter(league=league)
        .order_by()
        .annotate(kind=Value(LEAGUE, output_field=kind))
        .values_list("at", "pk", "kind")
    )
    revisions = (
        _league_revisions(league)
        .order_by()
        .annotate(kind=Value(HAND, output_field=kind))
        .values_list("at", "pk", "kind")
    )
    merged = entries.union(revisions, all=True).order_by("-at", "-pk")
    current = Paginator(merged, per_page).get_page(page)
    keys = list(current.object_list)
    wanted = {LEAGUE: [pk for _, pk, k in keys if k == LEAGUE], HAND: []}
    wanted[HAND] = [pk for _, pk, k in keys if k == HAND]
    found: dict[tuple[str, int], Any] = {}
    if wanted[LEAGUE]:
        for entry in (
            AuditEntry.objects.filter(pk__in=wanted[LEAGUE])
            .select_related(
                "by", "link", "fixture__home", "fixture__away", "fixture__division__season"
            )
            .annotate(**{BY_AS_PLAYER: player_name_of("by")})
        ):
            found[(LEAGUE, entry.pk)] = entry
    if wanted[HAND]:
        for revision in (
            HandRevision.objects.filter(pk__in=wanted[HAND])
            .select_related(
                "by",
                "link",
                "game__league_game__table__fixture__home",
                "game__league_game__table__fixture__away",
            )
            .prefetch_related("game__sides")
            .annotate(**{BY_AS_PLAYER: player_name_of("by")})
        ):
            found[(HAND, revision.pk)] = revision
    rulesets: dict[int, Any] = {}

    def ruleset(item: Any) -> Any:
        if item.fixture is None:
            return None
        season = item.fixture.division.season
        season.league = league  # the page's league: no query for it
        if season.pk not in rulesets:
            rulesets[season.pk] = season.get_ruleset()
        return rulesets[season.pk]

    rows = [
        AuditRow(k, found[(k, pk)], ruleset(found[(k, pk)]) if k == LEAGUE else None)
        for _, pk, k in keys
        if (k, pk) in found
    ]
    return current, rows


def entries_about(about: Q) -> list[AuditEntry]:
    """The league's audit entries ``about`` matches, newest first, each with who made it
    (``people.acted_by``) read in the same query."""
    return list(
        AuditEntry.objects.filter(about)
        .select_related("by", "link")
        .annotate(**{BY_AS_PLAYER: player_name_of("by")})
    )


def hands_of(games: Q) -> list[HandRevision]:
    """Every hand-level change to the games ``games`` matches, newest first, with who made it
    and the games' sides (its changes name them)."""
    return list(
        HandRevision.objects.filter(games)
        .select_related("by", "link", "game")
        .prefetch_related("game__sides")
        .annotate(**{BY_AS_PLAYER: player_name_of("by")})
        .order_by("-at", "-pk")
    )


def fixture_audit(*, fixture: Fixture) -> tuple[list[AuditEntry], list[HandRevision]]:
    """A fixture's audit trail, newest first: the league's entries about it and every
    hand-level change to its tables' games."""
    return (
        entries_about(Q(fixture=fixture)),
        hands_of(Q(game__league_game__table__fixture=fixture)),
    )
