"""The demo's score cards: some fixtures of each league come from the paper card, as a league
does before it moves to phones, and one is mixed (tables scored on phones, the rest typed)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from leagues import match
from leagues.models import Player
from leagues.services.cards import CardTable
from scoring.rules import Ruleset


def game_score(rng: random.Random, ruleset: Ruleset, *, home_wins: bool) -> tuple[int, int]:
    """A finished game's final pegs as a card records them: the winner on the target (now and
    then a point or two past it), the loser short of it."""
    target = ruleset.target
    winner = min(target + rng.choice((0, 0, 0, 1, 2)), ruleset.highest_final_score)
    loser = rng.randint(max(0, target // 3), target - 1)
    return (winner, loser) if home_wins else (loser, winner)


def card_tables(
    rng: random.Random,
    *,
    ruleset: Ruleset,
    fmt: match.MatchFormat,
    boards: Sequence[int],
    pairs: dict[int, tuple[Sequence[Player], Sequence[Player]]],
) -> list[CardTable]:
    """A plausible card for ``boards``: each table played to a finish under the format, with
    game scores, hang jacks where the variant has them, and the pairs."""
    tables = []
    for board in boards:
        games: list[tuple[int, int]] = []
        won = [0, 0]
        while not match.table_verdict(fmt, won[0], won[1]):
            home_wins = rng.random() < 0.5
            games.append(game_score(rng, ruleset, home_wins=home_wins))
            won[0 if home_wins else 1] += 1
        hang_jacks = (
            (rng.randint(0, 2), rng.randint(0, 2))
            if ruleset.hang_jack_points is not None
            else (0, 0)
        )
        home, away = pairs[board]
        tables.append(
            CardTable(board=board, home=home, away=away, games=tuple(games), hang_jacks=hang_jacks)
        )
    return tables
