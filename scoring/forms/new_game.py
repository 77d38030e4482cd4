"""Starting a game: variant and target, the sides and their players, the first dealer."""

from __future__ import annotations

from typing import Any

from django import forms

from config.inputs import NameField, TextField
from scoring.forms.fields import TapRadio, TargetField
from scoring.models import SIDE_LABELS
from scoring.rules import PRESETS, InvalidFacts, Ruleset


class NewGameForm(forms.Form):
    """Variant and target, the sides in play order with their players, and the first dealer."""

    variant = forms.ChoiceField(
        choices=[(name, ruleset.label) for name, ruleset in PRESETS.items()],
        initial="trinidad",
    )
    target = TargetField(
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
    title = TextField(max_length=120, required=False, label="Title (optional)")
    side_a_name = TextField(max_length=80, required=False, label="Side A name")
    side_a_player_1 = NameField(max_length=60, required=False, label="Player")
    side_a_player_2 = NameField(max_length=60, required=False, label="Partner")
    side_b_name = TextField(max_length=80, required=False, label="Side B name")
    side_b_player_1 = NameField(max_length=60, required=False, label="Player")
    side_b_player_2 = NameField(max_length=60, required=False, label="Partner")
    three_sides = forms.BooleanField(required=False, label="A third side plays")
    side_c_name = TextField(max_length=80, required=False, label="Side C name")
    side_c_player_1 = NameField(max_length=60, required=False, label="Player")
    side_c_player_2 = NameField(max_length=60, required=False, label="Partner")
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
            name = name or f"Side {label}"
            same = next((s for s in self.sides if _told_apart(s[0]) == _told_apart(name)), None)
            if same is not None:
                # "Us 0 | Us 0", "deals: Us": the scorer could not tell the sides apart.
                earlier = SIDE_LABELS[self.sides.index(same)]
                self.add_error(
                    f"{prefix}_name",
                    f"Side {label} has the same name as side {earlier} (“{same[0]}”): give "
                    "each side a name of its own.",
                )
            self.sides.append((name, players))
        if data.get("first_dealer") not in labels:
            self.add_error("first_dealer", "The first dealer must be one of the sides playing.")
        return data


def _told_apart(name: str) -> str:
    """A side's name as a player hears it: "Us", "us" and " U s " are one name."""
    return "".join(name.split()).casefold()
