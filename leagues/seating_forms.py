"""The captain's seating on the night: one small form per table, and one to add a player."""

from __future__ import annotations

from typing import Any

from django import forms

from config.inputs import NameField
from leagues.models import Player

SIDES = ("home", "away")


class TableSeatForm(forms.Form):
    """One table's pairs: two seats a side, from that side's squad. The sides the viewer may
    not seat are shown but disabled; a side left blank stays as it is."""

    def __init__(
        self,
        *args: Any,
        board: int,
        squads: dict[str, list[Player]],
        seated: tuple[list[Player], list[Player]],
        may_seat: set[str],
        boards: dict[int, int] | None = None,
        **kwargs: Any,
    ) -> None:
        """``boards``: the table each player seated for the match sits at; one seated at
        another table is offered with it ("Barry Stead (table 1)"), as the refusal of
        choosing them here will say."""
        super().__init__(*args, prefix=f"t{board}", **kwargs)
        self.board = board
        self.players = {p.pk: p for squad in squads.values() for p in squad}
        self.may_seat = may_seat
        boards = boards or {}
        for side, pair in zip(SIDES, seated, strict=True):
            choices: list[tuple[str, str]] = [("", "—")]
            for p in squads[side]:
                at = boards.get(p.pk, board)
                choices.append((str(p.pk), p.label if at == board else f"{p.label} (table {at})"))
            for seat in (1, 2):
                self.fields[f"{side}_{seat}"] = forms.TypedChoiceField(
                    label=f"Player {seat}",
                    choices=choices,
                    coerce=int,
                    required=False,
                    empty_value=None,
                    initial=pair[seat - 1].pk if len(pair) >= seat else "",
                    disabled=side not in may_seat,
                )

    def side_fields(self, side: str) -> list[forms.BoundField]:
        return [self[f"{side}_{seat}"] for seat in (1, 2)]

    @property
    def home_fields(self) -> list[forms.BoundField]:
        return self.side_fields("home")

    @property
    def away_fields(self) -> list[forms.BoundField]:
        return self.side_fields("away")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not any(self.pair(side) for side in self.may_seat):
            raise forms.ValidationError(f"Table {self.board}: choose the players to seat.")
        return cleaned

    def pair(self, side: str) -> list[Player]:
        data = self.cleaned_data
        return [
            self.players[data[f"{side}_{seat}"]]
            for seat in (1, 2)
            if data.get(f"{side}_{seat}") is not None
        ]

    def replace_confirmed(self) -> list[int]:
        """The players of another captain's pair the viewer agreed to replace (the page asked
        them: ``seating.ReplaceTheirPair``), for ``table_seat``'s ``replace_confirmed``."""
        getlist = getattr(self.data, "getlist", None)
        values = getlist(self.add_prefix("replace")) if getlist is not None else []
        return [int(value) for value in values if str(value).isdigit()]

    def pairs(self) -> dict[str, list[Player] | None]:
        """The service's ``home`` and ``away``: None for a side left as it is."""
        return {side: self.pair(side) or None if side in self.may_seat else None for side in SIDES}


class SquadAddForm(forms.Form):
    """A player added to one side's squad by name, on the night."""

    side = forms.ChoiceField(choices=[(side, side) for side in SIDES], widget=forms.HiddenInput)
    name = NameField(
        label="New player's name",
        max_length=Player._meta.get_field("name").max_length,
        strip=True,
    )
