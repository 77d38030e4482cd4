"""Every write to a scored game and its scoring link, one transaction each.

Each service locks the game row, runs the rules engine over the game's stored facts (cheap: a
game has a few dozen hands), stores what the engine derived, writes the audit trail and hands
the result roll-up what changed (``leagues.services.rollup.game_changed``), in the same
transaction. Reading a game never runs the engine. Who writes is an ``Actor``
(``scoring.actors``), asked under the game's row lock whether it may (``permissions.may_score``).

Modules: `games` (start, abandon), `hands` (record, correct, undo), `links` (a game's link
re-issued or revoked), `state` (the row lock, storing what the engine derived, the one-time form
keys, `GameMovedOn`). A name with a leading underscore (a scoring link made, revoked, closed or
reopened; a game's players named) is a step other services take after checking permission
themselves, not a service: it is not exported here.
"""

from scoring.rules import InvalidFacts
from scoring.services.games import game_abandon, game_play_again, game_start
from scoring.services.hands import hand_correct, hand_record, hand_undo
from scoring.services.links import game_link_reissue, game_link_revoke
from scoring.services.state import GameMovedOn, NotAllowed

__all__ = [
    "GameMovedOn",
    "InvalidFacts",
    "NotAllowed",
    "game_abandon",
    "game_link_reissue",
    "game_link_revoke",
    "game_play_again",
    "game_start",
    "hand_correct",
    "hand_record",
    "hand_undo",
]
