"""Forms for starting a game and entering a hand.

The hand form asks only what the game's ruleset asks, and turns the answers into one hand's facts
in the replay format (RULES.md section 7). It checks only that each question was answered; the
rules engine judges the facts, and its `InvalidFacts` is shown next to the fact it names
(`HandForm.add_fact_error`).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from scoring.models import SIDE_LABELS, Side
from scoring.rules import HAND_KEYS, PRESETS, InvalidFacts, Ruleset, parse_card
from scoring.rules.cards import parse_rank

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

PENALTY_LABELS = {
    "renege": "Renege",
    "renege_top_trump": "Renege holding a top trump (loses the game)",
    "under_trump": "Under-trump",
    "early_look": "Early look (partner looked before the pitch)",
    "points": "Other: points to a side",
}
OUTCOME_LABELS = {
    "played": "Played",
    "pack_exhausted": "Pack ran out (redeal)",
    "bunch": "Bunch (redeal)",
    "misdeal": "Misdeal",
}
BEG_LABELS = {"stand": "Stand", "take_one": "Beg → take one", "run": "Beg → run the pack"}
NONE = "none"
TIE = "tie"
MIN_PENALTY_ROWS = 2


def side_choices(sides: Sequence[Side]) -> list[tuple[str, str]]:
    return [(side.label, side.name) for side in sides]


def split_cards(text: str) -> list[str]:
    """`"JH 6h, 10s"` → `["JH", "6H", "10S"]`; tokens that are not cards are kept for the engine
    to name in its error."""
    return [token.upper() for token in re.split(r"[\s,;]+", text.strip()) if token]


def card_label(card: str) -> str:
    parsed = parse_card(card)
    if parsed is None:
        return card
    return f"{parsed.rank}{SUIT_SYMBOLS[parsed.suit]}"


def _whole_number_messages(what: str, least: int, most: int) -> dict[str, str]:
    """Errors for a number box that name the box: the page may show them away from it."""
    wanted = f"{what} must be a whole number from {least} to {most}"
    return {
        "invalid": f"{wanted}.",
        "min_value": f"{wanted} (got %(show_value)s).",
        "max_value": f"{wanted} (got %(show_value)s).",
    }


class TapRadio(forms.RadioSelect):
    """Radio buttons that the templates render as big tap buttons (label-wrapped inputs)."""


# --- starting a game ---------------------------------------------------------------------------


class NewGameForm(forms.Form):
    """Variant and target, the sides in play order with their players, and the first dealer."""

    variant = forms.ChoiceField(
        choices=[(name, ruleset.label) for name, ruleset in PRESETS.items()],
        initial="trinidad",
    )
    target = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=500,
        help_text="Leave empty for the variant's usual target.",
    )
    players_per_side = forms.TypedChoiceField(
        choices=[("", "Usual for the variant"), ("1", "1 (each player alone)"), ("2", "2 (pairs)")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    title = forms.CharField(max_length=120, required=False, label="Title (optional)")
    side_a_name = forms.CharField(max_length=80, required=False, label="Side A name")
    side_a_player_1 = forms.CharField(max_length=60, required=False, label="Player")
    side_a_player_2 = forms.CharField(max_length=60, required=False, label="Partner")
    side_b_name = forms.CharField(max_length=80, required=False, label="Side B name")
    side_b_player_1 = forms.CharField(max_length=60, required=False, label="Player")
    side_b_player_2 = forms.CharField(max_length=60, required=False, label="Partner")
    three_sides = forms.BooleanField(required=False, label="A third side plays")
    side_c_name = forms.CharField(max_length=80, required=False, label="Side C name")
    side_c_player_1 = forms.CharField(max_length=60, required=False, label="Player")
    side_c_player_2 = forms.CharField(max_length=60, required=False, label="Partner")
    first_dealer = forms.ChoiceField(
        choices=[(label, f"Side {label}") for label in SIDE_LABELS],
        initial="A",
        widget=TapRadio,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name = data.get("variant")
        if not name:
            return data
        options: dict[str, Any] = {}
        if data.get("players_per_side"):
            options["players"] = data["players_per_side"]
        if data.get("target"):
            options["target"] = data["target"]
        try:
            self.ruleset: Ruleset = PRESETS[name].with_options(**options)
        except InvalidFacts as exc:
            field = "players_per_side" if "players" in exc.message else "target"
            self.add_error(field, exc.message)
            return data
        side_c = [data.get(f"side_c_{part}") for part in ("name", "player_1", "player_2")]
        if not data.get("three_sides") and any((value or "").strip() for value in side_c):
            # Names typed for side C but the box left unticked: never drop a player silently.
            self.add_error(
                "three_sides",
                "Side C has a name or players, but “A third side plays” is not ticked: tick it "
                "to play three sides, or clear side C.",
            )
            return data
        labels = SIDE_LABELS if data.get("three_sides") else SIDE_LABELS[:2]
        self.sides: list[tuple[str, list[str]]] = []
        for label in labels:
            prefix = f"side_{label.lower()}"
            players = [
                (data.get(f"{prefix}_player_{n}") or "").strip()
                for n in range(1, self.ruleset.players + 1)
            ]
            # A side with no name of its own is called after its players: "Smith & Jones".
            name = data.get(f"{prefix}_name") or " & ".join(p for p in players if p)
            self.sides.append((name or f"Side {label}", players))
        if data.get("first_dealer") not in labels:
            self.add_error("first_dealer", "The first dealer must be one of the sides playing.")
        return data


# --- one hand ----------------------------------------------------------------------------------


class HandForm(forms.Form):
    """One hand, asking only what the ruleset asks. After `is_valid()`, `facts` is the hand."""

    #: Engine facts shown next to a field of the same name; others go with the form as a whole
    #: (penalties have their own error slot, `penalty_errors`).
    FACT_FIELDS = tuple(key for key in HAND_KEYS if key != "penalties")

    entry_key = forms.UUIDField(widget=forms.HiddenInput)
    expected_number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(
        self,
        *args: Any,
        ruleset: Ruleset,
        sides: Sequence[Side],
        correcting: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.sides = list(sides)
        self.labels = [side.label for side in self.sides]
        self.correcting = correcting
        self.penalty_errors: list[str] = []
        self.facts: dict[str, Any] = {}
        names = {side.label: side.name for side in self.sides}
        sides_choices = side_choices(self.sides)

        self.fields["dealer"] = forms.ChoiceField(
            choices=sides_choices, widget=TapRadio, label="Dealer"
        )
        if correcting:
            self.fields["expected_revision"] = forms.IntegerField(
                widget=forms.HiddenInput, min_value=0
            )
            self.fields["reason"] = forms.CharField(
                required=False, max_length=500, label="Why the correction (optional)"
            )
        outcomes = ["played", "misdeal"]
        if ruleset.trumps == "turn_up":
            self.fields["turn_ups"] = forms.CharField(
                required=False,
                max_length=80,
                label="Turned up",
                help_text="Tap the card turned for trumps (every card, in order, when the pack is "
                "run), or type them: JH 6H",
            )
            outcomes = ["played", "pack_exhausted", "bunch", "misdeal"]
            if ruleset.begging:
                self.fields["beg"] = forms.ChoiceField(
                    choices=list(BEG_LABELS.items()), widget=TapRadio, initial="stand", label="Beg"
                )
        self.fields["outcome"] = forms.ChoiceField(
            choices=[(o, OUTCOME_LABELS[o]) for o in outcomes],
            widget=TapRadio,
            initial="played",
            label="Outcome",
        )
        if ruleset.captures:
            self.fields["captures"] = forms.CharField(
                required=False,
                max_length=200,
                label="Trumps captured, in trick order",
                help_text="Side then card, e.g. A:10 B:5 A:J (the suit is the trump suit) or A:10H",
            )
        else:
            held = "Low (captured by)" if ruleset.low == "captured" else "Low (held by)"
            none_choice = [(NONE, "No trump in play")]
            self.fields["high"] = forms.ChoiceField(
                choices=sides_choices + none_choice, widget=TapRadio, required=False, label="High"
            )
            self.fields["low"] = forms.ChoiceField(
                choices=sides_choices + none_choice, widget=TapRadio, required=False, label=held
            )
            self.fields["jack"] = forms.ChoiceField(
                choices=self._jack_choices(names),
                widget=TapRadio,
                required=False,
                label="Jack of trumps",
            )
            self.fields["game"] = forms.ChoiceField(
                choices=sides_choices + [(TIE, "Tie")],
                widget=TapRadio,
                required=False,
                label="Game (most card points)",
            )
            for label in self.labels:
                what = f"{names[label]}'s card points"
                self.fields[f"game_{label}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=80,
                    label=f"{names[label]} card points",
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                    error_messages=_whole_number_messages(what, 0, 80),
                )
        kinds = [k for k in PENALTY_LABELS if self._penalty_applies(k)]
        rows = max(MIN_PENALTY_ROWS, self._filled_penalty_rows() + 1)
        if self.data.get("more_penalties"):
            rows += 1
        self.penalty_rows = rows
        for index in range(rows):
            self.fields[f"penalty_{index}_kind"] = forms.ChoiceField(
                choices=[("", "—")] + [(k, PENALTY_LABELS[k]) for k in kinds],
                required=False,
                label="Penalty",
                error_messages={
                    "invalid_choice": f"Penalty {index + 1}: %(value)s is not a penalty in "
                    "this variant; choose one from the list."
                },
            )
            self.fields[f"penalty_{index}_side"] = forms.ChoiceField(
                choices=[("", "—")] + sides_choices,
                required=False,
                label="Against (or to, for points)",
            )
            self.fields[f"penalty_{index}_points"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=100,
                label="Points",
                error_messages=_whole_number_messages(f"Penalty {index + 1}'s points", 1, 100),
            )
            self.fields[f"penalty_{index}_note"] = forms.CharField(
                required=False, max_length=80, label="Note"
            )

    # --- building the choices -----------------------------------------------------------

    def _jack_choices(self, names: Mapping[str, str]) -> list[tuple[str, str]]:
        """One tap for the jack: not out, won by the side dealt it, or hung (held ≠ won)."""
        choices = [(NONE, "Not out")]
        choices += [(f"{label}-{label}", names[label]) for label in self.labels]
        hang = self.ruleset.hang_jack_points
        verb = f"hangs (+{hang})" if hang else "wins"
        for won in self.labels:
            for held in self.labels:
                if held != won:
                    choices.append((f"{held}-{won}", f"{names[won]} {verb} {names[held]}'s jack"))
        return choices

    def _penalty_applies(self, kind: str) -> bool:
        if kind == "renege_top_trump":
            return len(self.sides) == 2
        if kind == "early_look":
            return self.ruleset.trumps == "pitch"
        return True

    def _filled_penalty_rows(self) -> int:
        """How many penalty rows hold something, in the posted data or the initial facts."""
        source = self.data if self.is_bound else self.initial
        filled = 0
        for index in range(50):
            key = f"penalty_{index}_kind"
            if key not in source:
                break
            if source.get(key):
                filled = index + 1
        return filled

    # --- grouping for the template ------------------------------------------------------

    @property
    def penalty_fields(self) -> list[dict[str, forms.BoundField]]:
        return [
            {part: self[f"penalty_{i}_{part}"] for part in ("kind", "side", "points", "note")}
            for i in range(self.penalty_rows)
        ]

    @property
    def game_count_fields(self) -> list[forms.BoundField]:
        return [self[f"game_{label}"] for label in self.labels if f"game_{label}" in self.fields]

    @property
    def error_summary(self) -> list[dict[str, str]]:
        """The questions whose answers were refused, in page order, each with the id of the
        place on the page that shows why: the phone may be scrolled far from it."""
        places: dict[str, dict[str, str]] = {}
        for name in self.errors:
            if name in ("__all__", "entry_key", "expected_number", "expected_revision"):
                continue
            if name.startswith("penalty_"):
                places["penalties"] = {"anchor": "penalties", "label": "Penalties"}
            elif name.startswith("game"):
                places["game"] = {"anchor": "fs-game", "label": str(self.fields["game"].label)}
            elif name == "reason":
                places[name] = {"anchor": "id_reason", "label": str(self.fields[name].label)}
            else:
                label = "Turned up" if name == "turn_ups" else str(self.fields[name].label)
                places[name] = {"anchor": f"fs-{name}", "label": label}
        order = [*self.FACT_FIELDS, "penalties", "reason"]
        return [places[key] for key in order if key in places]

    @property
    def game_count_errors(self) -> list[str]:
        """The card-point boxes' own errors, shown with the game question they answer."""
        return [str(error) for field in self.game_count_fields for error in field.errors]

    @property
    def game_counts_open(self) -> bool:
        return bool(self.game_count_errors) or any(
            field.value() not in (None, "") for field in self.game_count_fields
        )

    @property
    def turned_cards(self) -> list[str]:
        value = self["turn_ups"].value() if "turn_ups" in self.fields else ""
        return [card_label(card) for card in split_cards(value or "")]

    @property
    def penalties_open(self) -> bool:
        rows_refused = any(
            self[f"penalty_{index}_{part}"].errors
            for index in range(self.penalty_rows)
            for part in ("kind", "side", "points", "note")
        )
        return bool(self.penalty_errors) or rows_refused or self._filled_penalty_rows() > 0

    @property
    def outcome_open(self) -> bool:
        value = self["outcome"].value()
        return bool(value and value != "played") or bool(self["outcome"].errors)

    # --- facts ---------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        facts: dict[str, Any] = {"dealer": data["dealer"]}
        outcome = data.get("outcome") or "played"
        beg = data.get("beg") or "stand"
        # The outcome decides which questions count: a misdeal has no turn-up and no play, a
        # redeal (or a take one that ends the hand) no play. Taps left on those questions, which
        # a radio button cannot undo (the scorer tapped them before choosing the outcome, or a
        # correction starts from a played hand), are not facts of this hand.
        misdeal = outcome == "misdeal"
        if "turn_ups" in self.fields and not misdeal:
            cards = split_cards(data.get("turn_ups") or "")
            if cards:
                facts["turn_ups"] = cards
            else:
                self.add_error("turn_ups", "Tap the card turned up for trumps.")
        if "beg" in self.fields and not misdeal:
            facts["beg"] = beg
        if outcome != "played":
            facts["outcome"] = outcome
        played = outcome == "played" and not (beg == "take_one" and self.ruleset.gift_ends_hand)

        if not played:
            pass
        elif self.ruleset.captures:
            captures = self._captures(data.get("captures") or "", facts.get("turn_ups") or [])
            if captures:
                facts["captures"] = captures
        else:
            self._play_facts(data, facts, played)

        penalties = self._penalties(data)
        if penalties:
            facts["penalties"] = penalties
        self.facts = facts
        return data

    def _play_facts(self, data: Mapping[str, Any], facts: dict[str, Any], played: bool) -> None:
        asked = {
            "high": "Tap who held high (or “No trump in play”).",
            "low": "Tap who took low (or “No trump in play”).",
            "jack": "Tap where the jack went (or “Not out”).",
        }
        for name in ("high", "low"):
            value = data.get(name)
            if value and value != NONE:
                facts[name] = value
            elif value == NONE and played:
                facts[name] = None
            elif played:
                self.add_error(name, asked[name])
        jack = data.get("jack")
        if jack and jack != NONE:
            held, won = jack.split("-", 1)
            facts["jack"] = {"held_by": held, "won_by": won}
        elif jack == NONE and played:
            facts["jack"] = None
        elif played:
            self.add_error("jack", asked["jack"])

        counts = {label: data.get(f"game_{label}") for label in self.labels}
        given = {label: value for label, value in counts.items() if value is not None}
        tapped = data.get("game")
        if given and tapped:
            self.add_error("game", "Tap a side or tie, or enter the card points: not both.")
        elif given and len(given) != len(counts):
            missing = ", ".join(label for label in counts if label not in given)
            self.add_error("game", f"Enter the card points for every side (missing: {missing}).")
        elif given:
            facts["game"] = given
        elif tapped:
            facts["game"] = tapped
        elif played:
            self.add_error("game", "Tap who made game, tap tie, or enter the card points.")

    def _captures(self, text: str, turn_ups: Sequence[str]) -> list[dict[str, str]]:
        trump = turn_ups[-1][-1] if turn_ups else ""
        captures = []
        for index, token in enumerate(split_cards(text), start=1):
            side, colon, card = token.partition(":")
            if not (colon and side and card):
                # Name what was typed: the engine would only see an empty card or side.
                self.add_error(
                    "captures",
                    f"Capture {index} is “{token}”: write the side, a colon, then the card, "
                    "e.g. A:10 or A:10H.",
                )
                continue
            if parse_card(card) is None and parse_rank(card) is not None and trump:
                card = card + trump  # a rank alone means that rank of trumps
            captures.append({"card": card, "side": side})
        return captures

    def _penalties(self, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        penalties: list[dict[str, Any]] = []
        for index in range(self.penalty_rows):
            kind = data.get(f"penalty_{index}_kind")
            side = data.get(f"penalty_{index}_side")
            if not kind:
                continue
            if not side:
                self.add_error(f"penalty_{index}_side", "Which side?")
                continue
            if kind == "points":
                if data.get(f"penalty_{index}_points") is None:
                    self.add_error(f"penalty_{index}_points", "How many points?")
                    continue
                entry: dict[str, Any] = {
                    "kind": "points",
                    "to": side,
                    "points": data[f"penalty_{index}_points"],
                }
                if data.get(f"penalty_{index}_note"):
                    entry["note"] = data[f"penalty_{index}_note"]
                penalties.append(entry)
            else:
                penalties.append({"kind": kind, "side": side})
        return penalties

    def add_fact_error(self, exc: InvalidFacts) -> None:
        """Show the engine's refusal next to the fact it names."""
        if exc.fact in self.FACT_FIELDS and exc.fact in self.fields:
            self.add_error(exc.fact, exc.message)
        elif exc.fact == "penalties":
            self.penalty_errors.append(exc.message)
            self.add_error(None, f"Penalties: {exc.message}")
        else:
            self.add_error(None, exc.message)


def hand_initial(
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
    for index, penalty in enumerate(facts.get("penalties") or []):
        initial[f"penalty_{index}_kind"] = penalty.get("kind")
        initial[f"penalty_{index}_side"] = penalty.get("side") or penalty.get("to")
        initial[f"penalty_{index}_points"] = penalty.get("points")
        initial[f"penalty_{index}_note"] = penalty.get("note")
    return initial
