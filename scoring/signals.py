"""Signals other apps listen to. Sent explicitly by `scoring.services`, inside the transaction."""

from django.dispatch import Signal

#: Sent as `game_changed.send(sender=Game, game=game)` whenever a game's score or status changes
#: (a game started, a hand recorded, corrected or undone, a game abandoned). Receivers run inside
#: the service's transaction, so whatever they write commits or rolls back with the change.
game_changed = Signal()
