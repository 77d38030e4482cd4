"""Every write to a scored game and its scoring link, one transaction each.

Each service locks the game row, runs the rules engine over the game's stored facts (cheap: a
game has a few dozen hands), stores what the engine derived, writes the audit trail and hands
the result roll-up what changed (``leagues.services.rollup.game_changed``), in the same
transaction. Reading a game never runs the engine. Who writes is an ``Actor``
(``scoring.actors``), asked under the game's row lock whether it may (``permissions.may_score``).

Modules: `games` (start, abandon), `hands` (record, correct, undo), `links` (scoring links),
`state` (the row lock, storing what the engine derived, the one-time form keys, `GameMovedOn`).
"""

from scoring.rules import InvalidFacts
from scoring.services.games import game_abandon, game_play_again, game_players_set, game_start
from scoring.services.hands import hand_correct, hand_record, hand_undo
from scoring.services.links import (
    game_link_reissue,
    game_link_revoke,
    scoring_link_close,
    scoring_link_create,
    scoring_link_reissue,
    scoring_link_reopen,
    scoring_link_revoke,
)
from scoring.services.state import GameMovedOn, NotAllowed

__all__ = [
    "GameMovedOn",
    "InvalidFacts",
    "NotAllowed",
    "game_abandon",
    "game_link_reissue",
    "game_link_revoke",
    "game_play_again",
    "game_players_set",
    "game_start",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "scoring_link_close",
    "scoring_link_create",
    "scoring_link_reissue",
    "scoring_link_reopen",
    "scoring_link_revoke",
]
