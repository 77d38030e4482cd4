"""The facts↔fields mapping: a hand's facts (replay format, docs/rules.md section 7) as the hand
form's field values, and the form's cleaned values back as facts.

`facts_from_fields` reads only what the variant asks and names, by field, every question left
unanswered; the engine judges the facts themselves. Given the scores before the hand, it asks the
engine whether the kicks (or the gift) won the game before a card was played
(`questions.won_before_play`): then high, low, jack and game are not asked, and any tapped anyway
are passed on (the engine lists them as not counted). `fields_from_facts` fills a form with a
stored hand's facts, for a correction. A hand's facts survive the round trip unchanged.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from config.inputs import strict_id
from scoring.forms.cards import split_cards
from scoring.rules import Ruleset, parse_card, questions
from scoring.rules.cards import parse_rank

NONE = "none"
TIE = "tie"

#: A field name (or None: the form as a whole) and what to fix there.
FieldError = tuple[str | None, str]
#: The scores before the hand, or how to read them (asked only for a hand left short of its play).
ScoresBefore = Mapping[str, int] | Callable[[], Mapping[str, int]]


def facts_from_fields(
    data: Mapping[str, Any],
    *,
    ruleset: Ruleset,
    labels: Sequence[str],
    scores: ScoresBefore | None = None,
) -> tuple[dict[str, Any], list[FieldError]]:
    """One hand's facts from the form's cleaned values, and the questions left unanswered.
    `scores` are the scores before the hand (None: every play question is asked), read only
    when a play question is left unanswered."""
    errors: list[FieldError] = []
    facts: dict[str, Any] = {"dealer": data["dealer"]}
    outcome = data.get("outcome") or "played"
    beg = data.get("beg") or "stand"
    # The outcome decides which questions count: a misdeal has no turn-up and no play, a
    # redeal (or a take one that ends the hand) no play. Taps left on those questions, which
    # a radio button cannot undo (the scorer tapped them before choosing the outcome, or a
    # correction starts from a played hand), are not facts of this hand.
    misdeal = outcome == "misdeal"
    asks = questions.hand_questions(ruleset)
    if "turn_ups" in asks and not misdeal:
        cards = split_cards(data.get("turn_ups") or "")
        if cards:
            facts["turn_ups"] = cards
        else:
            errors.append(("turn_ups", "Tap the card turned up for trumps."))
    if "beg" in asks and not misdeal:
        facts["beg"] = beg
    if outcome != "played":
        facts["outcome"] = outcome
    played = questions.hand_is_played(ruleset, outcome=outcome, beg=beg)

    if not played:
        pass
    elif "captures" in asks:
        captures = _captures(data.get("captures") or "", facts.get("turn_ups") or [], errors)
        if captures:
            facts["captures"] = captures
    else:
        unanswered = _play_facts(data, facts, labels, errors)
        if unanswered and not (
            scores is not None and _won_before_play(facts, ruleset, labels, scores)
        ):
            errors.extend(unanswered)

    penalties = penalties_from_tokens(
        data.get("penalties") or "",
        data.get("penalty_note") or "",
        ruleset=ruleset,
        labels=labels,
        errors=errors,
    )
    if penalties:
        facts["penalties"] = penalties
    return facts, errors


def _won_before_play(
    facts: Mapping[str, Any], ruleset: Ruleset, labels: Sequence[str], scores: ScoresBefore
) -> bool:
    """The engine's answer: did the kicks (or the gift) take a side to the target before a card
    was played? Not while a turned card is unreadable (the engine refuses that card)."""
    cards = [parse_card(text) for text in facts.get("turn_ups") or []]
    turned = [card for card in cards if card is not None]
    if not turned or len(turned) != len(cards):
        return False
    before = scores() if callable(scores) else scores
    winner = questions.won_before_play(
        ruleset, labels, before, dealer=facts["dealer"], turn_ups=turned, beg=facts.get("beg")
    )
    return winner is not None


def _play_facts(
    data: Mapping[str, Any],
    facts: dict[str, Any],
    labels: Sequence[str],
    errors: list[FieldError],
) -> list[FieldError]:
    """High, low, jack and game as tapped, into `facts` (a conflict in what was tapped into
    `errors`); returns the questions left unanswered, which a hand won before a card was played
    does not need."""
    unanswered: list[FieldError] = []
    questions_asked = {
        "high": "Tap who held high (or “No trump in play”).",
        "low": "Tap who took low (or “No trump in play”).",
        "jack": "Tap where the jack went (or “Not out”).",
    }
    for name in ("high", "low"):
        value = data.get(name)
        if value and value != NONE:
            facts[name] = value
        elif value == NONE:
            facts[name] = None
        else:
            unanswered.append((name, questions_asked[name]))
    jack = data.get("jack")
    if jack and jack != NONE:
        held, won = jack.split("-", 1)
        facts["jack"] = {"held_by": held, "won_by": won}
    elif jack == NONE:
        facts["jack"] = None
    else:
        unanswered.append(("jack", questions_asked["jack"]))

    counts = {label: data.get(f"game_{label}") for label in labels}
    given = {label: value for label, value in counts.items() if value is not None}
    # A game button records the hand; a refused hand keeps the side tapped in `game_kept`.
    tapped = data.get("game") or data.get("game_kept")
    if given and tapped:
        errors.append(("game", "Tap a side or tie, or enter the card points: not both."))
    elif given and len(given) != len(counts):
        missing = ", ".join(label for label in counts if label not in given)
        errors.append(("game", f"Enter the card points for every side (missing: {missing})."))
    elif given:
        facts["game"] = given
    elif tapped:
        facts["game"] = tapped
    else:
        unanswered.append(("game", "Tap who made game, tap tie, or enter the card points."))
    return unanswered


def _captures(text: str, turn_ups: Sequence[str], errors: list[FieldError]) -> list[dict[str, str]]:
    trump = turn_ups[-1][-1] if turn_ups else ""
    captures = []
    for index, token in enumerate(split_cards(text), start=1):
        side, colon, card = token.partition(":")
        if not (colon and side and card):
            # Name what was typed: the engine would only see an empty card or side.
            errors.append(
                (
                    "captures",
                    f"Capture {index} is “{token}”: write the side, a colon, then the card, "
                    "e.g. A:10 or A:10H.",
                )
            )
            continue
        if parse_card(card) is None and parse_rank(card) is not None and trump:
            card = card + trump  # a rank alone means that rank of trumps
        captures.append({"card": card, "side": side})
    return captures


def penalty_tokens(text: str) -> list[str]:
    """The penalties called, as the form carries them: `renege:B points:A:2`."""
    return [token for token in text.split() if token]


def penalty_token(entry: Mapping[str, Any]) -> str:
    if entry.get("kind") == "points":
        return f"points:{entry.get('to')}:{entry.get('points')}"
    return f"{entry.get('kind')}:{entry.get('side')}"


def penalties_from_tokens(
    text: str,
    note: str,
    *,
    ruleset: Ruleset,
    labels: Sequence[str],
    errors: list[FieldError],
) -> list[dict[str, Any]]:
    """The penalties the form carries (`renege:B points:A:2`) as facts; each refusal names the
    penalty by its place."""
    penalties: list[dict[str, Any]] = []
    kinds = questions.penalty_kinds(ruleset, len(labels))
    note = note.strip()
    for index, token in enumerate(penalty_tokens(text), start=1):
        kind, *rest = token.split(":")
        if kind not in kinds:
            errors.append(
                ("penalties", f"Penalty {index}: “{kind}” is not a penalty in {ruleset.label}.")
            )
        elif not rest or rest[0] not in labels:
            errors.append(("penalties", f"Penalty {index}: which side?"))
        elif kind == "points":
            given = rest[1] if len(rest) > 1 else ""
            points = strict_id(given)
            if given in ("", "0"):
                errors.append(("penalties", f"Penalty {index}: how many points?"))
            elif points is None or not 1 <= points <= 100:
                errors.append(
                    (
                        "penalties",
                        f"Penalty {index}: the points must be a whole number from 1 to 100 "
                        f"(got {given}).",
                    )
                )
            else:
                entry: dict[str, Any] = {"kind": "points", "to": rest[0], "points": points}
                if note:
                    entry["note"] = note
                penalties.append(entry)
        else:
            penalties.append({"kind": kind, "side": rest[0]})
    return penalties


def fields_from_facts(
    *,
    ruleset: Ruleset,
    facts: Mapping[str, Any] | None,
    dealer: str,
    number: int,
    revision: int | None = None,
) -> dict[str, Any]:
    """Initial form values: a fresh hand (dealer suggested) or an existing hand's facts."""
    initial: dict[str, Any] = {
        "entry_key": uuid.uuid4(),
        "expected_number": number,
        "dealer": dealer,
        "beg": "stand",
        "outcome": "played",
    }
    if revision is not None:
        initial["expected_revision"] = revision
    if not facts:
        return initial
    initial["dealer"] = facts.get("dealer", dealer)
    initial["beg"] = facts.get("beg") or "stand"
    initial["outcome"] = facts.get("outcome") or "played"
    initial["turn_ups"] = " ".join(facts.get("turn_ups") or [])
    played = initial["outcome"] == "played"
    for name in ("high", "low"):
        if facts.get(name):
            initial[name] = facts[name]
        elif played and name in facts:
            initial[name] = NONE
    jack = facts.get("jack")
    if jack:
        initial["jack"] = f"{jack.get('held_by') or jack['won_by']}-{jack['won_by']}"
    elif played and "jack" in facts:
        initial["jack"] = NONE
    game = facts.get("game")
    if isinstance(game, Mapping):
        for label, total in game.items():
            initial[f"game_{label}"] = total
    elif game:
        initial["game"] = game
    captures = facts.get("captures") or []
    initial["captures"] = " ".join(f"{c['side']}:{c['card']}" for c in captures)
    penalties = facts.get("penalties") or []
    initial["penalties"] = " ".join(penalty_token(penalty) for penalty in penalties)
    notes = [penalty["note"] for penalty in penalties if penalty.get("note")]
    if notes:
        initial["penalty_note"] = notes[0]
    return initial
