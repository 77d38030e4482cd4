"""The words the scoring pages use for the engine's facts: a scorer reads "Blues renege → Reds +1",
"Reds'", "Not out", never the replay format's keys or "null"."""

from __future__ import annotations

import re
from collections.abc import Mapping

PENALTY_WORDS = {
    "renege": "Renege",
    "renege_top_trump": "Renege holding a top trump",
    "under_trump": "Under-trump",
    "early_look": "Early look",
    "misdeal": "Misdeal",
    "points": "Points",
}
OUTCOME_WORDS = {
    "played": "Played",
    "pack_exhausted": "Pack ran out (redeal)",
    "bunch": "Bunch (redeal)",
    "misdeal": "Misdeal",
}
BEG_WORDS = {"stand": "Stand", "take_one": "Beg → take one", "run": "Beg → run the pack"}
#: What "none" is called on each question's buttons.
NONE_WORDS = {"high": "No trump in play", "low": "No trump in play", "jack": "Not out"}


def possessive(name: str) -> str:
    """`Reds'`, `Smith & Jones'`, `Patel's`."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def penalty_called(kind: str, offender: str, receivers: Mapping[str, int | None]) -> str:
    """ "Blues renege → Reds +1"; several receivers: "Blues renege → Reds +1, Greens +1"."""
    what = PENALTY_WORDS.get(kind, kind).lower()
    parts = [f"{name} +{points}" if points else name for name, points in receivers.items()]
    return f"{offender} {what} → {', '.join(parts)}"


_ENGINE_WORDS = {
    "take_one": "take one",
    "pack_exhausted": "pack ran out",
    "renege_top_trump": "renege holding a top trump",
    "under_trump": "under-trump",
    "early_look": "early look",
    "turn_ups": "turned up",
}


def plain_message(message: str, fact: str | None = None) -> str:
    """An engine message in the page's words: "jack must be null" → "tap “Not out”"."""
    none = NONE_WORDS.get(fact or "", "none")
    message = re.sub(r"\b(\w+) must be null\b", f"tap “{none}”", message)
    message = re.sub(r"\b(high|low) is null\b", "no trump was in play", message)
    message = re.sub(r"\bboth null\b", f"both “{NONE_WORDS['high']}”", message)
    message = re.sub(r"\bnull\b", f"“{none}”", message)
    for word, plain in _ENGINE_WORDS.items():
        message = message.replace(word, plain)
    return message
