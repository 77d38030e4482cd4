"""What a scoring service changed, as typed values: the reply is drawn from them, and the result
roll-up (``leagues.services.rollup.game_changed``) is handed the :class:`GameChanged` inside the
same transaction."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scoring.actors import Actor

if TYPE_CHECKING:
    from scoring.models import Award, Game, Hand, Side


@dataclass(frozen=True)
class GameChanged:
    """A game's score or status changed: ``was`` is its status before (a hand in the middle of
    a game is in progress before and after); ``actor`` who changed it, its ``link`` the scoring
    link it was done through (as the audit trail records them)."""

    game: Game
    was: str
    actor: Actor
    winner_was: str = ""
    #: What was done to the game, in words that name no table: "a hand was corrected" (a
    #: result it withdraws says why: ``leagues.services.rollup.game_changed``).
    what: str = ""
    #: When the game was last changed before this change (its version then): a page that
    #: showed an older one missed a change made meanwhile (``scoring.offline.missed``).
    changed_was: datetime.datetime | None = None

    @property
    def status_changed(self) -> bool:
        """The game was won, un-won or abandoned by the change."""
        return self.was != self.game.status

    @property
    def finished_game_changed(self) -> bool:
        """A finished game changed (or a game finished, or came back into play): a change a
        table, a tie or a result counts. A hand in the middle of a game is not one."""
        return not (self.was == self.game.status == "in_progress")

    @property
    def back_in_play(self) -> bool:
        """A won game in play again: its winning hand undone, or corrected so that it no longer
        wins. (A correction that leaves it won, by either side, is not one.)"""
        return self.was == "won" and self.game.status == "in_progress"


@dataclass(frozen=True)
class HandRecorded:
    """A hand recorded: the hand, the game's sides and the hand's awards. ``change`` is None
    when the form had recorded its hand before (a double tap, a retry): nothing changed now,
    and ``sides`` and ``awards`` are empty."""

    hand: Hand
    change: GameChanged | None
    sides: list[Side] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return self.hand.game


@dataclass(frozen=True)
class HandCorrected:
    """A hand corrected and the game re-scored from it: ``later`` the hands after it,
    ``awards_of`` each re-scored hand's awards by number. ``change`` is None when the form had
    made its correction before."""

    hand: Hand
    change: GameChanged | None
    sides: list[Side] = field(default_factory=list)
    later: list[Hand] = field(default_factory=list)
    awards_of: dict[int, list[Award]] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        return self.hand.game

    @property
    def status_changed(self) -> bool:
        """The correction won, un-won or changed the winner of the game."""
        return self.change is not None and (
            self.change.status_changed or self.change.winner_was != self.game.winner
        )


@dataclass(frozen=True)
class HandUndone:
    """The last hand taken back: ``number`` it was; ``change`` None when the form had undone it
    before."""

    game: Game
    number: int
    change: GameChanged | None
    sides: list[Side] = field(default_factory=list)
