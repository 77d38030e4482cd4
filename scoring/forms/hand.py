"""The hand form: asks only what the game's ruleset asks (the engine's `questions` say what), and
turns the answers into one hand's facts (`scoring.forms.facts`). It checks only that each question
was answered; the rules engine judges the facts, and its `InvalidFacts` is shown next to the fact
it names, in the page's words (`add_fact_error`).

One screen: the turn-up (rank, then suit), high, low, jack and game (whose buttons record the
hand) are always shown; the dealer, the beg, the outcome and the penalties open when asked for.
Penalties are one tap each: a labelled button per kind and offending side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from config.inputs import MAX_TYPED_ID, TextField, strict_id
from scoring.forms.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, card_label, split_cards
from scoring.forms.facts import (
    NONE,
    TIE,
    ScoresBefore,
    facts_from_fields,
    penalties_from_tokens,
    penalty_tokens,
)
from scoring.forms.fields import (
    NumericInput,
    PlainChoices,
    TapRadio,
    side_choices,
    whole_number_messages,
)
from scoring.forms.words import (
    BEG_WORDS,
    NONE_WORDS,
    OUTCOME_WORDS,
    PENALTY_WORDS,
    penalty_called,
    plain_message,
    possessive,
)
from scoring.models import Side, names_by_label
from scoring.rules import InvalidFacts, Ruleset, parse_card, questions
from scoring.rules.facts import REDEALS

#: Form fields that are not facts: where the form's own errors go.
_NOT_FACTS = ("__all__", "entry_key", "expected_number", "expected_revision", "reason")


class HandForm(forms.Form):
    """One hand, asking only what the ruleset asks. After `is_valid()`, `facts` is the hand."""

    entry_key = forms.UUIDField(widget=forms.HiddenInput)
    # As the view reads it (``strict_id``): a longer number is an incomplete form, said so.
    expected_number = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, max_value=MAX_TYPED_ID
    )
    penalties = TextField(required=False, max_length=400, widget=forms.HiddenInput)
    penalty_note = TextField(required=False, max_length=80, label="Note (optional)")
    game_kept = TextField(required=False, max_length=8, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        ruleset: Ruleset,
        sides: Sequence[Side],
        correcting: bool = False,
        scores: ScoresBefore | None = None,
        **kwargs: Any,
    ) -> None:
        """`scores` are the scores before the hand, or how to read them (default: the sides'
        scores now, as for the next hand): the engine says from them whether a kick won the
        game before a card was played, and then high, low, jack and game are not asked."""
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.sides = list(sides)
        self.labels = [side.label for side in self.sides]
        self.names = names_by_label(self.sides)
        self.correcting = correcting
        self.scores: ScoresBefore = (
            scores if scores is not None else {side.label: side.score for side in self.sides}
        )
        self.asks = questions.hand_questions(ruleset)
        self.penalty_errors: list[str] = []
        self.facts: dict[str, Any] = {}
        sides_choices = side_choices(self.sides)

        self.fields["dealer"] = forms.ChoiceField(
            choices=PlainChoices(sides_choices), widget=TapRadio, label="Dealer"
        )
        if correcting:
            self.fields["expected_revision"] = forms.IntegerField(
                widget=forms.HiddenInput, min_value=0, max_value=MAX_TYPED_ID
            )
            self.fields["reason"] = TextField(
                required=False, max_length=500, label="Why the correction (optional)"
            )
        if "turn_ups" in self.asks:
            self.fields["turn_ups"] = TextField(required=False, max_length=80, label="Turned up")
        begs = questions.begs(ruleset)
        if begs:
            self.fields["beg"] = forms.ChoiceField(
                choices=PlainChoices([(beg, BEG_WORDS[beg]) for beg in begs]),
                widget=TapRadio,
                initial="stand",
                label="Beg",
            )
        self.fields["outcome"] = forms.ChoiceField(
            choices=PlainChoices([(o, OUTCOME_WORDS[o]) for o in questions.outcomes(ruleset)]),
            widget=TapRadio,
            initial="played",
            label="Outcome",
        )
        if "captures" in self.asks:
            self.fields["captures"] = TextField(
                required=False,
                max_length=200,
                label="Trumps captured, in trick order",
                help_text="Side then card, e.g. A:10 B:5 A:J (the suit is the trump suit) or A:10H",
            )
        else:
            held = "Low (captured by)" if ruleset.low == "captured" else "Low (held by)"
            none_choice = [(NONE, NONE_WORDS["high"])]
            self.fields["high"] = forms.ChoiceField(
                choices=PlainChoices(sides_choices + none_choice),
                widget=TapRadio,
                required=False,
                label="High",
            )
            self.fields["low"] = forms.ChoiceField(
                choices=PlainChoices(sides_choices + none_choice),
                widget=TapRadio,
                required=False,
                label=held,
            )
            self.fields["jack"] = forms.ChoiceField(
                choices=PlainChoices(self._jack_choices()),
                widget=TapRadio,
                required=False,
                label="Jack of trumps",
            )
            self.fields["game"] = forms.ChoiceField(
                choices=PlainChoices([*sides_choices, (TIE, "Tie")]),
                required=False,
                label="Game (most card points)",
            )
            for label in self.labels:
                self.fields[f"game_{label}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=80,
                    label=f"{self.names[label]} card points",
                    widget=NumericInput,
                    error_messages=whole_number_messages(
                        f"{possessive(self.names[label])} card points", 0, 80
                    ),
                )
        for label in self.labels:
            self.fields[f"points_{label}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=100,
                label=f"Points to {self.names[label]}",
                widget=NumericInput,
                error_messages=whole_number_messages(f"Points to {self.names[label]}", 1, 100),
            )

    # --- building the choices -----------------------------------------------------------

    def _jack_choices(self) -> list[tuple[str, str]]:
        """One tap for the jack: not out, won by the side dealt it, or hung (held ≠ won)."""
        names = self.names
        choices = [(NONE, NONE_WORDS["jack"])]
        choices += [(f"{label}-{label}", names[label]) for label in self.labels]
        hang = self.ruleset.hang_jack_points
        verb = f"hangs (+{hang})" if hang else "wins"
        for won in self.labels:
            for held in self.labels:
                if held != won:
                    choices.append(
                        (f"{held}-{won}", f"{names[won]} {verb} {possessive(names[held])} jack")
                    )
        return choices

    # --- what the template shows -----------------------------------------------------------

    @property
    def ranks(self) -> Sequence[str]:
        return RANKS

    @property
    def suits(self) -> list[dict[str, Any]]:
        return [
            {"code": s, "symbol": SUIT_SYMBOLS[s], "name": SUIT_NAMES[s], "red": s in "DH"}
            for s in ("S", "H", "D", "C")
        ]

    @property
    def rank_kicks(self) -> list[dict[str, Any]]:
        """Each rank button, with the kick it scores the dealer when it is turned (engine's)."""
        kicks = dict(self.ruleset.kick_values) if "turn_ups" in self.asks else {}
        return [{"rank": rank, "kick": kicks.get(rank, 0)} for rank in RANKS]

    @property
    def run_turns_up(self) -> int:
        """The cards turned that mean the pack was run (the rules': two): the page moves the beg
        from Stand to "run the pack" at that many, and back under it (scoring.js)."""
        return questions.fewest_turn_ups("run")

    @property
    def kick_hint(self) -> str:
        """ "J♥ turned: Reds (dealing) +3 kick", before the hand is saved."""
        if "turn_ups" not in self.fields:
            return ""
        cards = [c for c in (parse_card(t) for t in split_cards(self.value_of("turn_ups"))) if c]
        dealer = self.names.get(self.value_of("dealer"), "the dealer")
        kicks = questions.kick_points(self.ruleset, cards)
        return "; ".join(
            f"{card_label(str(card))} turned: {dealer} (dealing) +{points} kick"
            for card, points in kicks
        )

    def value_of(self, name: str) -> str:
        value = self[name].value() if name in self.fields else ""
        return str(value or "")

    @property
    def turned_cards(self) -> list[str]:
        return [card_label(card) for card in split_cards(self.value_of("turn_ups"))]

    @property
    def chosen_game(self) -> str:
        """The game side or tie tapped (kept when the hand was refused, and when correcting)."""
        return self.value_of("game") or self.value_of("game_kept")

    @property
    def game_choices(self) -> list[dict[str, str]]:
        if "game" not in self.fields:
            return []
        return [
            {"value": str(value), "label": str(label)}
            for value, label in self.fields["game"].choices  # type: ignore[attr-defined]
        ]

    @property
    def game_count_fields(self) -> list[forms.BoundField]:
        return [self[f"game_{label}"] for label in self.labels if f"game_{label}" in self.fields]

    @property
    def points_fields(self) -> list[forms.BoundField]:
        return [self[f"points_{label}"] for label in self.labels]

    @property
    def penalty_buttons(self) -> list[dict[str, str]]:
        """One button per penalty the variant has and offending side: "Renege — Blues"."""
        buttons = []
        for kind in questions.penalty_kinds(self.ruleset, len(self.sides)):
            if kind == "points":
                continue
            for label in self.labels:
                buttons.append(
                    {
                        "token": f"{kind}:{label}",
                        "label": f"{PENALTY_WORDS[kind]} — {self.names[label]}",
                        "called": self.penalty_text(kind, label),
                        "side": label,
                    }
                )
        return buttons

    def penalty_text(self, kind: str, side: str, points: int | None = None) -> str:
        """ "Blues renege → Reds +1"; custom points: "Points → Reds +2"."""
        if kind == "points":
            return f"Points → {self.names.get(side, side)} +{points}"
        each = questions.penalty_points(self.ruleset, kind)
        receivers = {self.names[other]: each for other in questions.opponents(self.labels, side)}
        if kind == "renege_top_trump":
            return f"{self.names.get(side, side)} renege holding a top trump → " + ", ".join(
                f"{name} to the target" for name in receivers
            )
        return penalty_called(kind, self.names.get(side, side), receivers)

    @property
    def called_penalties(self) -> list[dict[str, Any]]:
        """The penalties called so far in this hand, in order, each with its words."""
        called = []
        for index, token in enumerate(penalty_tokens(self.value_of("penalties"))):
            parts = token.split(":")
            points = strict_id(parts[2]) if parts[0] == "points" and len(parts) == 3 else None
            if points is not None:
                text = self.penalty_text("points", parts[1], points)
            elif len(parts) == 2 and parts[1] in self.names and parts[0] in PENALTY_WORDS:
                text = self.penalty_text(parts[0], parts[1])
            else:
                text = token
            called.append({"index": index, "token": token, "text": text})
        return called

    @property
    def error_summary(self) -> list[dict[str, str]]:
        """The questions whose answers were refused, in page order, each with the id of the
        place on the page that shows why: the phone may be scrolled far from it."""
        places: dict[str, dict[str, str]] = {}
        for name in self.errors:
            if name in _NOT_FACTS:
                continue
            if name.startswith(("penalt", "points_")):
                places["penalties"] = {"anchor": "penalties", "label": "Penalties"}
            elif name.startswith("game"):
                places["game"] = {"anchor": "fs-game", "label": str(self.fields["game"].label)}
            else:
                label = "Turned up" if name == "turn_ups" else str(self.fields[name].label)
                places[name] = {"anchor": f"fs-{name}", "label": label}
        if self.penalty_errors:
            places["penalties"] = {"anchor": "penalties", "label": "Penalties"}
        order = [*self.asks, "reason"]
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
    def penalties_open(self) -> bool:
        return bool(self.penalty_errors or self.value_of("penalties")) or any(
            self[name].errors for name in self.fields if name.startswith(("penalt", "points_"))
        )

    @property
    def more_label(self) -> str:
        """What the folded dealer's part holds, in the game's words: "Dealer, beg, redeal or
        misdeal" where the turn-up is begged, "Dealer or misdeal" in a pitch game (no beg, no
        redeal)."""
        asked = ["Dealer"]
        if "beg" in self.fields:
            asked.append("beg")
        if any(outcome in REDEALS for outcome in questions.outcomes(self.ruleset)):
            asked.append("redeal")
        return f"{', '.join(asked)} or misdeal"

    @property
    def game_hint(self) -> str:
        """What tapping who made game does: records the hand, or saves a correction (with the
        reason typed above it, which that tap cannot wait for)."""
        if self.correcting:
            return "Tapping who made game saves the correction: give the reason above first."
        return "Tapping who made game records the hand."

    @property
    def reason_hint(self) -> str:
        """Under a correction's reason box, at the top of the form: when to type it."""
        if "game" in self.fields:
            return "Type it before you tap who made game: that tap saves the correction."
        return "Type it before Save correction."

    @property
    def more_open(self) -> bool:
        """Dealer, beg and outcome stay folded unless something there is chosen or refused."""
        beg = self.value_of("beg")
        outcome = self.value_of("outcome")
        refused = any(
            self[name].errors for name in ("dealer", "beg", "outcome") if name in self.fields
        )
        return refused or beg not in ("", "stand") or outcome not in ("", "played")

    # --- facts ---------------------------------------------------------------------------

    def clean_penalties(self) -> str:
        """Penalties are checked on their own, so they are named even when a box is refused."""
        value = str(self.cleaned_data.get("penalties") or "")
        errors: list[tuple[str | None, str]] = []
        penalties_from_tokens(value, "", ruleset=self.ruleset, labels=self.labels, errors=errors)
        if errors:
            self.penalty_errors.extend(message for _, message in errors)
            raise forms.ValidationError([message for _, message in errors])
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        self.facts, errors = facts_from_fields(
            data, ruleset=self.ruleset, labels=self.labels, scores=self.scores
        )
        for field, message in errors:
            if field == "penalties":
                self.penalty_errors.append(message)
                self.add_error(None, message)
            else:
                self.add_error(field, message)
        return data

    def add_fact_error(self, exc: InvalidFacts) -> None:
        """Show the engine's refusal next to the fact it names, in the page's words (sides by
        name)."""
        message = plain_message(exc.message, exc.fact, self.names)
        if exc.fact in self.asks and exc.fact in self.fields:
            self.add_error(exc.fact, message)
        elif exc.fact == "penalties":
            self.penalty_errors.append(message)
            self.add_error(None, f"Penalties: {message}")
        else:
            self.add_error(None, message)
