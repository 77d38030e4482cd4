"""What opening a scoring link with no game in progress on it begins.

A stand-alone game's link always has its game. A link an app holds for something to be played
(a league fixture's table) may have none in progress yet: the app registers an opener from
``AppConfig.ready``, as with ``scoring.permissions.register_scorer_check``, that begins the game
due on the link (a service of the app's own, owning its permission check, transaction and
audit), or says what the link waits for.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.actors import Account
from scoring.models import ScoringLink

#: ``opener(link, by)``: begins the game due on ``link`` (opened by ``by``, None for a scorer
#: with no account), or says what the link waits for; "" when it has nothing to say.
LinkOpener = Callable[[ScoringLink, Account], str]

_openers: dict[str, LinkOpener] = {}


def register_link_opener(name: str, opener: LinkOpener) -> None:
    """Let ``opener(link, by)`` begin the game due on a link opened with none in progress;
    ``name`` makes registering twice harmless."""
    _openers[name] = opener


def link_opened(link: ScoringLink, by: Account = None) -> str:
    """``link`` opened with no game in progress on it: each registered opener may begin the
    game due on it; what one of them says the link waits for ("" when none does)."""
    for opener in _openers.values():
        words = opener(link, by)
        if words:
            return words
    return ""
