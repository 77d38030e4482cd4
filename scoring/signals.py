"""Signals other apps listen to. Sent explicitly by `scoring.services`, inside the transaction."""

from django.dispatch import Signal

#: Sent as `game_changed.send(sender=Game, game=game, was=status)` whenever a game's score or
#: status changes (a game started, a hand recorded, corrected or undone, a game abandoned);
#: ``was`` is the game's status before the change (None for a game just started): a hand in the
#: middle of a game is sent with ``was`` and ``game.status`` both in progress, and wins or loses
#: no game. Receivers run inside the service's transaction, so whatever they write commits or
#: rolls back with the change.
game_changed = Signal()

#: Sent as `scoring_link_reissued.send(sender=ScoringLink, old=old, new=new, by=user)` when a
#: link is re-issued under a new key: whatever else points at the old link (a fixture table)
#: should follow. Sent inside the service's transaction.
scoring_link_reissued = Signal()
