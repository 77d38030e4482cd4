"""The match a fixture table's game is played for, as the game page names it
(``scoring.matches``): its fixture, its table, and its table's result where the score card
replaced the hands scored on the phones."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from leagues.models import FixtureTable
from scoring.matches import GameMatch


def table_game_match(game: Any) -> GameMatch | None:
    """Registered with ``scoring.matches``: a fixture table's game is played for its fixture
    ("Black Bull A v Woolpack, table 2"). None, with no query, for a game that is not a table's
    (the game read with what is attached to it: ``scoring.selectors.game_for_page``); else one
    query."""
    try:
        table_id = game.league_game.table_id
    except ObjectDoesNotExist:
        return None
    table = FixtureTable.objects.select_related(
        "fixture__home", "fixture__away", "fixture__division__season__league"
    ).get(pk=table_id)
    fixture = table.fixture
    return GameMatch(
        title=f"{fixture.home} v {fixture.away}, table {table.board}",
        url=fixture.get_absolute_url(),
        note=settled_from_card(table),
    )


def settled_from_card(table: FixtureTable) -> str:
    """What a table's game page says once the table's result is the score card's, not its
    games' as scored on the phones (a dispute settled with a corrected card, a card entered
    after a game was abandoned): the card's scores, else its games won. Nothing otherwise."""
    if not table.from_card:
        return ""
    scores = ", ".join(f"{home}–{away}" for home, away in table.card.get("games") or [])
    if not scores:
        league = table.fixture.division.season.league
        scores = f"{league.games_word} {table.home_games}–{table.away_games}"
    return (
        f"This table's result was settled from the score card: {scores}. "
        "The hands below are as scored on the night."
    )
