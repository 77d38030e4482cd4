"""The match a fixture table's game is played for, as the game page names it
(``scoring.matches``): its fixture, its table, and its table's result where the score card
replaced the hands scored on the phones."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from leagues.models import FixtureTable
from scoring.matches import GameMatch

#: What ``table_game_match`` reads, from the game.
TABLE_GAME_RELATED = ("league_game__table__fixture__home", "league_game__table__fixture__away")


def table_game_match(game: Any) -> GameMatch | None:
    """Registered with ``scoring.matches``: a fixture table's game is played for its fixture
    ("Black Bull A v Woolpack, table 2"). No query: it reads ``TABLE_GAME_RELATED``, read with
    the game (``scoring.selectors.game_for_page``); None for a game that is not a table's."""
    try:
        table_game = game.league_game
    except ObjectDoesNotExist:
        return None
    table = table_game.table
    fixture = table.fixture
    return GameMatch(
        title=f"{fixture.home} v {fixture.away}, table {table.board}",
        url=fixture.get_absolute_url(),
        game=f"Game {table_game.number}",
        note=settled_from_card(table),
    )


def settled_from_card(table: FixtureTable) -> str:
    """What a table's game page says once the table's result is the score card's, not its
    games' as scored on the phones (a dispute settled with a corrected card, a card entered
    after a game was abandoned): the card's scores, else its games won (as a player's page
    says it). Nothing otherwise."""
    if not table.from_card:
        return ""
    scores = ", ".join(f"{home}–{away}" for home, away in table.card.get("games") or [])
    if not scores:
        scores = f"games won {table.home_games}–{table.away_games}"
    return (
        f"This table's result was settled from the score card: {scores}. "
        "The hands below are as scored on the night."
    )
