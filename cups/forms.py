"""The secretary's forms for a cup: each one becomes one ``cups.services`` call."""

from __future__ import annotations

from typing import Any

from django import forms

from cups.models import Competition, Round, Tie
from cups.selectors import teams_to_enter
from leagues.forms import label_people
from leagues.models import League, Player, Season, Team
from scoring.forms.fields import CountField


class CompetitionForm(forms.Form):
    season = forms.ModelChoiceField(queryset=Season.objects.none(), empty_label=None)
    name = forms.CharField(max_length=120, help_text="e.g. League Cup, Pairs Knock-out.")
    format = forms.ChoiceField(choices=Competition.Format.choices)
    entrant_kind = forms.ChoiceField(
        choices=Competition.EntrantKind.choices,
        label="Entrants",
        help_text="Teams play the league's match format; pairs and players a race of games.",
    )
    best_of = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, f"Best of {n} (first to {n // 2 + 1})") for n in range(1, 16, 2)],
        initial=3,
        label="Games in a pairs or players tie",
    )
    decider = forms.ChoiceField(
        choices=Competition.Decider.choices, label="A drawn team match is decided by"
    )
    draw_method = forms.ChoiceField(choices=Competition.DrawMethod.choices, label="The draw")
    protect_clubs = forms.BooleanField(
        required=False, initial=True, label="Keep two entrants of one pub apart in round one"
    )
    groups = CountField(
        thing="group",
        min_value=0,
        max_value=64,
        initial=0,
        required=False,
        help_text="Groups then knock-out.",
    )
    qualifiers = CountField(
        thing="entrant", min_value=1, max_value=8, initial=2, label="Through from each group"
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["season"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = league.seasons.all()
        # One league's seasons: their names alone ("2026–27"), not the league's on each.
        field.label_from_instance = lambda season: season.name

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["groups"] = data.get("groups") or 0
        return data


class GroupsForm(forms.Form):
    """A groups-then-knock-out cup's groups, changed while its entries are open."""

    groups = CountField(thing="group", min_value=1, max_value=64, label="Groups")
    qualifiers = CountField(
        thing="entrant", min_value=1, max_value=8, label="Through from each group"
    )


class TeamEntrantForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none())
    seed = forms.IntegerField(min_value=1, max_value=999, required=False)

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["team"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = teams_to_enter(competition=competition)


class PlayersEntrantForm(forms.Form):
    player_1 = forms.ModelChoiceField(queryset=Player.objects.none(), label="Player")
    player_2 = forms.ModelChoiceField(
        queryset=Player.objects.none(), label="Partner (same team)", required=False
    )
    seed = forms.IntegerField(min_value=1, max_value=999, required=False)

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = (
            Player.objects.filter(
                registrations__season=competition.season_id,
                registrations__team__league=competition.league_id,
            )
            .order_by("registrations__team__name", "name")
            .distinct()
        )
        pickers = [self.fields[name] for name in ("player_1", "player_2")]
        for field in pickers:
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = players
        label_people(competition.league, *pickers)  # type: ignore[arg-type]
        if competition.entrant_kind != Competition.EntrantKind.PAIRS:
            del self.fields["player_2"]

    def players(self) -> list[Player]:
        return [
            p for p in (self.cleaned_data.get("player_1"), self.cleaned_data.get("player_2")) if p
        ]


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        min_value=0,
        max_value=2**62 - 1,
        required=False,
        label="Seed for a random draw",
        help_text="Leave empty for a new random seed; enter a seed to repeat a draw exactly.",
    )
    byes = forms.BooleanField(
        required=False,
        initial=True,
        label="Byes for the top seeds when the field is not 2, 4, 8, 16 …",
    )


class RoundDatesForm(forms.Form):
    """A round's night or deadline, one form a round (its fields' ids end with its key)."""

    date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    deadline = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        label="or play by",
    )

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"date": round.date, "deadline": round.deadline})
        super().__init__(*args, auto_id=f"%s-{round.pk}", **kwargs)


class TieActionForm(forms.Form):
    """A secretary's decision on a tie. Shown with the actions ``offered`` for the tie only;
    posted, any action is taken to the services, which refuse by name what does not apply."""

    ACTIONS = [
        ("walkover", "Walkover"),
        ("postpone", "Postpone"),
        ("settle", "Settle the score"),
        ("reverse", "Reverse"),
    ]
    action = forms.ChoiceField(choices=ACTIONS)
    to = forms.ChoiceField(choices=Tie.Side.choices, required=False, label="Walkover to")
    home = CountField(thing="game", min_value=0, max_value=15, required=False)
    away = CountField(thing="game", min_value=0, max_value=15, required=False)
    reason = forms.CharField(max_length=500, required=False, label="Reason (both sides read it)")

    def __init__(
        self, *args: Any, tie: Tie, offered: list[str] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        # The sides by name, as the tie's page names them (not "Home" and "Away").
        to = self.fields["to"]
        assert isinstance(to, forms.ChoiceField)
        to.choices = [
            (Tie.Side.HOME, tie.home_name),
            (Tie.Side.AWAY, tie.away_name),
        ]
        self.fields["home"].label = f"Settle: {tie.home_name} games"
        self.fields["away"].label = f"Settle: {tie.away_name} games"
        if offered is None:
            return
        action = self.fields["action"]
        assert isinstance(action, forms.ChoiceField)
        action.choices = [(value, label) for value, label in self.ACTIONS if value in offered]
        if "walkover" not in offered:
            del self.fields["to"]
        if "settle" not in offered:
            del self.fields["home"], self.fields["away"]

    def problems(self) -> str:
        """What was wrong with the posted decision, each field named as the page names it."""
        if "action" in self.errors:
            return "Choose what to do with the tie."
        return " ".join(
            f"{self.fields[name].label}: {' '.join(errors)}" for name, errors in self.errors.items()
        )
