"""The words the scoring pages use for the engine's facts: a scorer reads "Blues renege → Reds +1",
"Reds'", "Not out", never the replay format's keys or "null"."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from scoring.forms.cards import SUIT_NAMES, SUIT_SYMBOLS

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
#: How the point that reached the target is said after "won 7–6 on hand 3", as a player says
#: it: "on the kick", "on the gift", "with high" (a category not here: "with" its name).
WON_WITH = {
    "kick": "on the kick",
    "gift": "on the gift",
    "penalty": "on a penalty",
    "high": "with high",
    "low": "with low",
    "jack": "with jack",
    "hang_jack": "with hang jack",
    "game": "with game",
    "capture": "with a capture",
}


MINUS = "\u2212"
"""The minus sign: "−2" reads as a number where the hyphen of "-2" reads as a dash."""


def signed(number: int) -> str:
    """A change of points as the pages write it: "+2", "−2" (a true minus sign), "0"."""
    return f"+{number}" if number > 0 else number_words(number)


def number_words(number: int) -> str:
    """A whole number as the pages write it: "−2" with a true minus sign, "12"."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def ordinal(number: int) -> str:
    """A place as the pages write it: "1st", "2nd", "3rd", "11th", "21st"."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def possessive(name: str) -> str:
    """`Reds'`, `Smith & Jones'`, `Patel's`."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def penalty_called(kind: str, offender: str, receivers: Mapping[str, int | None]) -> str:
    """ "Blues renege → Reds +1"; several receivers: "Blues renege → Reds +1, Greens +1"."""
    what = PENALTY_WORDS.get(kind, kind).lower()
    parts = [f"{name} +{points}" if points else name for name, points in receivers.items()]
    return f"{offender} {what} → {', '.join(parts)}"


#: What the replay format's keys are called on the page, where a refusal names one.
KEY_WORDS = {
    "turn_ups": "cards turned up",
    "held_by": "held by",
    "won_by": "won by",
}

#: The engine's refusals (`InvalidFacts.message`, the replay contract's text) in the page's words.
#: Each pattern matches a whole message; the first that matches gives the words. A template's
#: places: `{1}` a group as it is; `{kind:1}` a group in a kind's words; `{kind=value}` a value in
#: a kind's words; `{none}` the "none" button of the refused fact. The kinds are in `_KINDS`. The
#: patterns use only what Python's `re` (ASCII) and JavaScript's RegExp read alike:
#: static/scoring/offline/refusals.mjs applies this table, exported to words.mjs, in the browser.
REFUSALS: tuple[tuple[str, str], ...] = (
    # the jack
    (
        r"(\w+) was turned up, so the jack of trumps cannot be in play \(jack must be null\)",
        "{card:1} was turned up, so the jack of trumps was not in play: tap {none=jack}",
    ),
    (
        r"high is null \(no trump in play\), so the jack of trumps cannot be in play "
        r"\(jack must be null\)",
        "High is {none=high}, so the jack of trumps was not in play either: tap {none=jack}, "
        "or tap who held high",
    ),
    # high and low
    (
        r"low is (\w+) but high is null: high and low are both null only when no trump was in "
        r"play, else both are given",
        "Low is {side:1} but high is {none=high}: tap who held high, or {none=low} for both "
        "when no trump was in play",
    ),
    (
        r"high is (\w+), so a trump was in play and low must be given too \(the same side as "
        r"high when only one trump was in play\)",
        "High is {side:1}, so a trump was in play: tap a side for low too (the same side as "
        "high when only one trump was in play)",
    ),
    # the turn-up and the beg
    (
        r"with (\w+) exactly one card is turned up \(got (\d+): (.*)\); use beg run when the "
        r"pack was run",
        "With {beg:1} only one card is turned up, not {2} ({cards:3}): tap {beg=run} if the "
        "pack was run, or take the extra card back with ⌫",
    ),
    (
        r"running the pack turns up at least two cards \(got (\d+): (.*)\)",
        "{beg=run} turns up at least two cards, not {1} ({cards:2}): pick every card turned up, or "
        "tap {beg=stand} or {beg=take_one}",
    ),
    (r"(\w+) is turned up twice", "{card:1} is turned up twice"),
    (
        r"pack_exhausted needs beg run",
        "{outcome=pack_exhausted} needs {beg=run}: the pack runs out only when it is run",
    ),
    (
        r"pack_exhausted needs beg run \(got (\w+)\)",
        "{outcome=pack_exhausted} needs {beg=run}, not {beg:1}: the pack runs out only when it "
        "is run",
    ),
    (
        r"this variant has no begging, so beg must be stand \(got (\w+)\)",
        "This game has no begging, so {beg:1} cannot be recorded",
    ),
    (
        r"(\d+) cards turned up \((.*)\), but with (\d+) players the pack allows at most (\d+)",
        "{1} cards turned up ({cards:2}), but with {3} players the pack allows at most {4}: "
        "take the extra cards back with ⌫",
    ),
    (
        r"the pack ran out, so every card turned up is of the first suit (\w+), but (\w+) is "
        r"not \((.*)\)",
        "The pack ran out, so every card turned up is of the first suit, {suit:1}, but {card:2} is "
        "not ({cards:3}): if the run found a new suit, tap {outcome=played}",
    ),
    (
        r"the pack runs out after (\d+) turn-ups with (\d+) players, not (\d+) \((.*)\)",
        "The pack runs out after {1} cards turned up with {2} players, not {3} ({cards:4}): pick "
        "every card turned up",
    ),
    (
        r"the pack is run until a new suit is turned, so (\w+) \(a new suit\) must be the last "
        r"card turned up \((.*)\)",
        "The pack is run until a new suit is turned, so {card:1} (a new suit) must be the last "
        "card turned up ({cards:2})",
    ),
    (
        r"the last card turned up \((\w+)\) must be of a new suit, not the begged suit (\w+) "
        r"\((.*)\); if the pack ran out, the outcome is pack_exhausted",
        "The last card turned up ({card:1}) must be of a new suit, not {suit:2}, the suit begged "
        "({cards:3}); if the pack ran out, tap {outcome=pack_exhausted}",
    ),
    (
        r"(.+) is not a card \(write rank \+ suit, e\.g\. JH, 10S; ranks A K Q J 10\.\.2, "
        r"suits C D H S\)",
        "{typed:1} is not a card: write the rank, then the suit (e.g. JH, 10S; ranks A K Q J 10 "
        "to 2, suits C D H S)",
    ),
    (
        r"take one not allowed: it would give (\w+) the target \((\d+) \+ (\d+) = (\d+)\)",
        "{beg=take_one} is not allowed: it would give {side:1} the target ({2} + {3} = {4})",
    ),
    # penalties
    (
        r"a (\w+) penalty needs a hand that was played \(a misdeal has no play\)",
        "{penalty:1} needs a hand that was played, and {outcome=misdeal} has no play: drop the "
        "penalty, or tap {outcome=played}",
    ),
    (
        r"a (\w+) penalty needs a hand that was played \(a redeal \((\w+)\) has no play\)",
        "{penalty:1} needs a hand that was played, and {outcome:2} has no play: drop the "
        "penalty, or tap {outcome=played}",
    ),
    (
        r"a (\w+) penalty needs a hand that was played \(take one ends the hand in this variant "
        r"\(the same dealer deals again\)\)",
        "{penalty:1} needs a hand that was played, and in this game {beg=take_one} ends the hand "
        "(the same dealer deals again): drop the penalty",
    ),
    # game
    (
        r"card-point totals add up to (\d+), more than the (\d+) in the pack",
        "The card points add up to {1}, more than the {2} in the pack",
    ),
    (
        r"(\w+)'s card-point total must be a whole number of 0 or more \(got (.*)\)",
        "{whose:1} card points must be a whole number of 0 or more, not {typed:2}",
    ),
    # All Fives
    (
        r"capture (\d+): side is (.*), which is not a side in this game \(sides: (.*)\)",
        "Capture {1}: {typed:2} is not a side in this game (write {labels:3})",
    ),
    (
        r"(\w+) is not a trump \(trumps are (\w+)\), so it does not score",
        "{card:1} is not a trump (trumps are {suit:2}), so it does not score",
    ),
    (r"(\w+) is captured twice", "{card:1} is captured twice"),
    (
        r"(\w+) was turned up, so it is not in play and cannot be captured",
        "{card:1} was turned up, so it is not in play and cannot be captured",
    ),
    (
        r"(\w+) does not score when captured \(scoring trumps: (.*)\)",
        "{card:1} does not score when captured (scoring trumps: {2})",
    ),
    # the game as a whole (a correction re-scores the hands after it)
    (
        r"the game was already won by (\w+) in hand (\d+); no hand can follow",
        "{side:1} already won the game in hand {2}; no hand can follow",
    ),
    (
        r"with this correction, hand (\d+) is refused: (.*)\. Undo the hands after hand (\d+) "
        r"first if this correction is right\.",
        "With this correction, hand {1} is refused: {message:2}. Undo the hands after hand {3} "
        "first if this correction is right",
    ),
)

#: For a message no pattern above matches: the engine's words swapped wherever they stand.
SWAPS: tuple[tuple[str, str], ...] = (
    (r"\((\w+) must be null\)", "(tap {none:1})"),
    (r"\b(\w+) must be null\b", "tap {none:1}"),
    (r"\b(high|low) is null\b", "{1} is {none:1}"),
    (r"\bnull\b", "{none}"),
    (r"\(got ([^()]*)\)", "(not {typed:1})"),
    (r"\b([a-z]+(?:_[a-z]+)+)\b", "{word:1}"),
)

Names = Mapping[str, str]
_PLACE = re.compile(r"\{(\w+)(?:([:=])([^}]*))?\}")


def _quoted(words: str) -> str:
    return f"“{words}”"


def _typed(value: str) -> str:
    """What the scorer typed, as the engine quoted it (`'XX'`): “XX”."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return _quoted(value[1:-1])
    return value


def _labels(value: str, names: Names) -> str:
    """`A, B` → `A for Reds, B for Blues`: the labels a scorer types for the sides."""
    return ", ".join(
        f"{label} for {names[label]}" if label in names else label for label in value.split(", ")
    )


def _word(value: str) -> str:
    """A replay key or value in the page's words: a button's words quoted, else plain."""
    for words in (BEG_WORDS, OUTCOME_WORDS, PENALTY_WORDS):
        if value in words:
            return _quoted(words[value])
    return KEY_WORDS.get(value, value.replace("_", " "))


def _card(value: str) -> str:
    """A card as the page writes it, "JC" → "J♣" (``cards.card_label``): the engine's code
    (the replay format's) stays in the engine's message alone."""
    found = re.fullmatch(r"(10|[2-9AKQJ])([CDHS])", value)
    return f"{found[1]}{SUIT_SYMBOLS[found[2]]}" if found else value


def _none(value: str) -> str:
    return _quoted(NONE_WORDS[value]) if value in NONE_WORDS else "none"


#: Each kind of place in a template: its value (a group, or the literal after "="), the sides'
#: names and the refused fact → the page's words.
_KINDS: dict[str, Callable[[str, Names, str], str]] = {
    "side": lambda value, names, fact: names.get(value, value),
    "whose": lambda value, names, fact: possessive(names.get(value, value)),
    "labels": lambda value, names, fact: _labels(value, names),
    "suit": lambda value, names, fact: SUIT_NAMES.get(value, value),
    "card": lambda value, names, fact: _card(value),
    "cards": lambda value, names, fact: ", ".join(_card(card) for card in value.split(", ")),
    "beg": lambda value, names, fact: _quoted(BEG_WORDS.get(value, value)),
    "outcome": lambda value, names, fact: _quoted(OUTCOME_WORDS.get(value, value)),
    "penalty": lambda value, names, fact: _quoted(PENALTY_WORDS.get(value, value)),
    "none": lambda value, names, fact: _none(value),
    "typed": lambda value, names, fact: _typed(value),
    "word": lambda value, names, fact: _word(value),
    "message": lambda value, names, fact: _rewrite(value, fact, names),
}


def _fill(template: str, groups: Sequence[str | None], fact: str, names: Names) -> str:
    def place(found: re.Match[str]) -> str:
        kind, how, arg = found.groups()
        if how is None and kind.isdigit():
            return groups[int(kind) - 1] or ""
        if how == ":":
            value = groups[int(arg) - 1] or ""
        elif how == "=":
            value = arg
        else:
            value = fact
        return _KINDS[kind](value, names, fact)

    return _PLACE.sub(place, template)


def _rewrite(message: str, fact: str, names: Names) -> str:
    for pattern, template in REFUSALS:
        found = re.fullmatch(pattern, message, re.ASCII)
        if found:
            return _fill(template, found.groups(), fact, names)
    for pattern, template in SWAPS:
        message = re.sub(
            pattern,
            lambda found, template=template: _fill(template, found.groups(), fact, names),
            message,
            flags=re.ASCII,
        )
    return message


def plain_message(message: str, fact: str | None = None, names: Names | None = None) -> str:
    """An engine refusal in the page's words, sides by name: "jack must be null" → "tap “Not
    out”", "pack_exhausted needs beg run (got stand)" → "“Pack ran out (redeal)” needs “Beg →
    run the pack”, not “Stand”: …"."""
    words = _rewrite(message, fact or "", names or {})
    words = words[:1].upper() + words[1:]
    return words if words.endswith((".", "?", "!")) else words + "."
