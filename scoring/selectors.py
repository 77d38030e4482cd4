"""Reads: each selector fetches what its page shows in a fixed number of queries."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db.models import Prefetch, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.matches import match_relations
from scoring.models import Award, Game, Hand, HandRevision, Side
from scoring.services.compiled import CompiledRead, CompiledReadIn


def _sides() -> Prefetch[Side]:
    return Prefetch("sides", queryset=Side.objects.order_by("position"))


def game_for_page(pk: int) -> Game:
    """A game with its sides, hands and their awards: four queries whatever its length. Read
    with it, the match it is played for (``scoring.matches``)."""
    hands = Hand.objects.order_by("number").prefetch_related(
        Prefetch("awards", queryset=Award.objects.order_by("position"))
    )
    return get_object_or_404(
        Game.objects.select_related("scoring_link", *match_relations()).prefetch_related(
            _sides(), Prefetch("hands", queryset=hands)
        ),
        pk=pk,
    )


def game_updated_at(pk: int) -> datetime.datetime | None:
    """When the game last changed (a hand recorded, corrected or undone; the game won or
    abandoned), or None when there is no such game: one query, nothing else read."""
    return Game.objects.filter(pk=pk).values_list("updated_at", flat=True).first()


def game_with_sides(pk: int) -> Game:
    """A game and its sides, for pages that do not show the score sheet."""
    return get_object_or_404(
        Game.objects.select_related("scoring_link").prefetch_related(_sides()), pk=pk
    )


def _entry_sides(pk: int) -> QuerySet[Side]:
    return Side.objects.select_related("game").filter(game_id=pk).order_by("position")


#: Built once per connection, as the service's locked read is (services/compiled.py): on every
#: hand, building this query cost the ORM more than the database takes to answer it.
_entry_read = CompiledRead(_entry_sides, one_parent=True)


def game_for_entry(pk: int) -> tuple[Game, list[Side]]:
    """A game's ruleset and sides, to read a posted hand form against before the service takes
    the game's lock: one query. Both are fixed once a game starts, so a read outside the lock is
    as good as one under it; the scores and the hand count are read again under the lock."""
    sides = _entry_read.rows(pk)
    if not sides:
        raise Http404("No such game.")
    return sides[0].game, sides  # every side's (the read's one parent)


def hand_for_correction(game_pk: int, number: int) -> Hand:
    """One hand of a game, with the game and its sides."""
    return get_object_or_404(
        Hand.objects.select_related("game__scoring_link").prefetch_related(
            Prefetch("game__sides", queryset=Side.objects.order_by("position"))
        ),
        game_id=game_pk,
        number=number,
    )


def scores_before(game_pk: int, number: int, sides: Sequence[Side]) -> dict[str, int]:
    """The score before hand `number`: the start scores before hand 1, else the scores after
    the hand before it (a correction's form asks whether its kicks won before a card was
    played)."""
    if number <= 1:
        return {side.label: side.start_score for side in sides}
    after = (
        Hand.objects.filter(game_id=game_pk, number=number - 1)
        .values_list("scores", flat=True)
        .first()
    )
    if after is None:
        return {side.label: side.score for side in sides}
    return {side.label: int(after.get(side.label, 0)) for side in sides}


def game_audit(game: Game) -> QuerySet[HandRevision]:
    """The game's audit trail, newest first, with who made each change."""
    return (
        HandRevision.objects.filter(game=game).select_related("by", "link").order_by("-at", "-pk")
    )


#: Games a page of the list shows: a phone's screenful or two.
GAMES_A_PAGE = 20
#: What the list shows of a game and of its sides (``scoring.tables.GameTable``).
LISTED_GAME = ("title", "ruleset", "variant", "status", "winner", "created_at")
LISTED_SIDE = ("game_id", "label", "name", "score", "position")


def _hands_of_the_game() -> RawSQL:
    """A side's game's number of hands, as a column of a query over sides: counted by the
    ``(game, number)`` index for each side read, never across the whole table of hands. (The
    ORM's correlated ``Subquery`` takes longer to build than the list takes to render.)"""
    hand, side = Hand._meta.db_table, Side._meta.db_table
    return RawSQL(
        f'SELECT COUNT(*) FROM "{hand}" WHERE "{hand}"."game_id" = "{side}"."game_id"', ()
    )


#: The listed games' sides, each with its game's number of hands, by a query built once per
#: connection and number of games (``scoring.services.compiled``).
_listed_sides_read = CompiledReadIn(
    lambda games: (
        Side.objects.only(*LISTED_SIDE)
        .filter(game_id__in=games)
        .annotate(hand_count=_hands_of_the_game())
        .order_by("game_id", "position")
    )
)


def recent_games(page: int = 1) -> tuple[list[Game], bool]:
    """Page `page` of the games, newest first, each with `sides_in_order` and `hand_count`, and
    whether older games follow.

    Two queries: the games, newest first by the ``(created_at, id)`` index (one game more than
    a page, to know whether there are older ones; no count of all the games), then their sides,
    each with its game's number of hands."""
    start = (page - 1) * GAMES_A_PAGE
    games = list(
        Game.objects.only(*LISTED_GAME).order_by("-created_at", "-pk")[
            start : start + GAMES_A_PAGE + 1
        ]
    )
    older = len(games) > GAMES_A_PAGE
    games = games[:GAMES_A_PAGE]
    sides: dict[int, list[Side]] = {game.pk: [] for game in games}
    for side in _listed_sides_read.rows(list(sides)):
        sides[side.game_id].append(side)
    for game in games:
        listed = sides[game.pk]
        game.sides_in_order = listed  # type: ignore[attr-defined]
        game.hand_count = listed[0].hand_count if listed else 0  # type: ignore[attr-defined]
    return games, older
