"""The secretary's forms. They check input; the services (``leagues.services``) do the work.

A service refuses with ``ValidationError``; ``add_service_error`` puts its message next to the
field it is about, or at the top of the form.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib.auth.forms import SetPasswordMixin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.html import format_html

from config.inputs import NameField, SaneDateField, TextField, check_name_words, one_spaced
from leagues import nights_off
from leagues.days import long_date
from leagues.formats import STYLE_PRESETS
from leagues.match import FIRST_TO, FIXED, SINGLE, FormatError
from leagues.models import (
    MOST_MATCHES_A_NIGHT,
    SEASON_MATCHES_A_NIGHT,
    VENUE_CLOSED,
    VENUE_MATCHES_A_NIGHT,
    Division,
    Fixture,
    League,
    Player,
    Registration,
    Season,
    Team,
    TeamEntry,
    Venue,
    Weekday,
    Withdrawal,
    league_address,
    league_address_taken,
    league_name_taken,
    validate_league_slug,
)
from leagues.nights_off import NightsOff
from leagues.selectors.fixtures import league_players, league_players_available, league_venues
from leagues.selectors.people import league_labels, people_labels
from leagues.services.accounts import NAME_LENGTH, NAME_WORDS, NO_NAME, account_name
from leagues.services.league_requests import asked_already
from leagues.services.registrations import name_too_long
from leagues.tiebreaks import METRICS, validate_tiebreaks
from leagues.zones import site_time_zone, time_zone_names
from scoring.actors import Account
from scoring.forms.fields import TargetField
from scoring.sheet import join_words

TIEBREAK_SLOTS = 7
"""Tie-breaks after points a secretary can list (there are more metrics than anyone uses)."""

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME_INPUT = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


def _zone_label(name: str) -> str:
    return name.replace("_", " ")


def time_zone_field(*, by_style: bool = False) -> forms.ChoiceField:
    """The league's time zone: its fixtures' times are wall-clock times there. ``by_style``
    (a new league, whose style is chosen on the same page): a blank first choice, the style's
    own zone, so a Trinidad league is not left in London by a secretary who did not look."""
    choices = [(name, _zone_label(name)) for name in time_zone_names()]
    help_text = (
        "Where the league plays. Fixture times are entered and shown as local times there; "
        "calendars and the API give them with it."
    )
    if by_style:
        styles = "; ".join(
            f"{League.Style(style).label.split(' (')[0]}: {_zone_label(preset.time_zone)}"
            for style, preset in STYLE_PRESETS.items()
        )
        choices.insert(0, ("", "The style's own"))
        help_text += f" The style's own: {styles}."
    return forms.ChoiceField(
        choices=choices,
        initial="" if by_style else site_time_zone,
        required=False,  # a league asked for before there were zones: the site's
        help_text=help_text,
    )


def add_service_error(
    form: forms.Form,
    error: ValidationError,
    field: str | None = None,
    *,
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Show a service's refusal on the form: per field where the service named one we show
    (``aliases``: the form's name for a field the service calls otherwise)."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            name = (aliases or {}).get(name, name)
            target = name if name in form.fields else field
            for message in errors:
                form.add_error(target, message)
        return
    for message in error.messages:
        form.add_error(field, message)


def _metric_label(key: str, style: str | None) -> str:
    metric = METRICS[key]
    if style is None:
        return metric.label.format(games="Games (bullseyes)", pegs="Pegs (points scored)")
    return metric.label_for(style)


class TiebreakMixin(forms.Form):
    """Tie-breaks after points, one select each in order; blanks are skipped. Works without
    JavaScript: the order is the order of the selects."""

    tiebreak_style: str | None = None

    def add_tiebreak_fields(self, initial: list[str] | None) -> None:
        choices = [("", "—")] + [
            (key, _metric_label(key, self.tiebreak_style)) for key in METRICS if key != "points"
        ]
        chosen = [key for key in (initial or []) if key != "points"]
        for slot in range(TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{slot + 1}"] = forms.ChoiceField(
                label=f"Then by ({slot + 1})" if slot else "Level on points: first by",
                choices=choices,
                required=False,
                initial=chosen[slot] if slot < len(chosen) else "",
            )

    @property
    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{slot + 1}"] for slot in range(TIEBREAK_SLOTS)]

    def clean_tiebreaks(self) -> list[str] | None:
        """The tie-break order chosen (None: none chosen, or one listed twice). Each tie-break
        listed more than once is said at the select where it is listed again, every one of
        them in the one submission."""
        chosen = [
            (slot + 1, key)
            for slot in range(TIEBREAK_SLOTS)
            if (key := self.cleaned_data.get(f"tiebreak_{slot + 1}"))
        ]
        if not chosen:
            return None
        repeated = False
        style = self.tiebreak_style or self.cleaned_data.get("style") or None
        for key in dict.fromkeys(key for _, key in chosen):
            slots = [str(slot) for slot, listed in chosen if listed == key]
            if len(slots) > 1:
                repeated = True
                times = "twice" if len(slots) == 2 else f"{len(slots)} times"
                self.add_error(
                    f"tiebreak_{slots[1]}",
                    f"“{_metric_label(key, style)}” is listed {times}, as tie-breaks "
                    f"{join_words(slots)}: each tie-break may be listed only once.",
                )
        if repeated:
            return None
        tiebreaks = ["points", *(key for _, key in chosen)]
        validate_tiebreaks(tiebreaks)
        return tiebreaks


class LeagueCreateForm(TiebreakMixin):
    name = TextField(max_length=120)
    slug = forms.SlugField(
        label="Web address",
        max_length=120,
        required=False,
        validators=[validate_league_slug],
        help_text=(
            "The last part of the league's pages' address: spen-valley gives "
            "/leagues/spen-valley/. Made from the name if blank."
        ),
        error_messages={
            "invalid": "The web address may have only letters, digits and hyphens "
            "(e.g. spen-valley)."
        },
    )
    style = forms.ChoiceField(
        choices=League.Style.choices,
        help_text="Starts the league with the style's rules, match format and tie-breaks.",
    )
    target = TargetField(
        min_value=5,
        max_value=61,
        required=False,
        help_text="Points to win a game; blank for the style's (11 Yorkshire, 14 Trinidad).",
    )
    tables = forms.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        help_text="Tables per fixture; blank for the style's (4 Yorkshire, 6 Trinidad).",
    )
    league_night = forms.TypedChoiceField(
        choices=Weekday.choices, coerce=int, initial=Weekday.TUESDAY
    )
    start_time = forms.TimeField(initial=datetime.time(20, 0), widget=TIME_INPUT)
    time_zone = time_zone_field(by_style=True)
    description = TextField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def __init__(self, *args: Any, asker: Account | None = None, **kwargs: Any) -> None:
        """``asker``: whoever asks for the league while it waits for the site's operator
        (sign-up closed), for a request waiting with its name or web address to be said with
        the form's other refusals; None when the league is started at once, or decided."""
        super().__init__(*args, **kwargs)
        self.asker = asker
        self.add_tiebreak_fields(None)

    def clean_name(self) -> str:
        # Said with the form's other refusals (a target too low, say), not after them: the
        # service checks it again as it saves.
        name: str = self.cleaned_data["name"]
        taken = league_name_taken(name)
        if taken:
            raise ValidationError(taken)
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        try:
            cleaned["tiebreaks"] = self.clean_tiebreaks()
        except ValidationError as exc:
            self.add_error("tiebreak_1", exc)
        # The web address another league has, said with the rest too (typed, or made from a
        # name no other league has: the name's own refusal says the rest).
        if "name" in cleaned and "slug" in cleaned:
            try:
                address = league_address(cleaned["name"], cleaned["slug"] or "")
            except ValidationError as exc:
                self.add_error(None, exc)
            else:
                taken = league_address_taken(address)
                if taken:
                    self.add_error("slug", taken)
                elif self.asker is not None:
                    # A request waiting with the name or the address: the service says it
                    # again as it stores the request.
                    waiting = asked_already(
                        name=one_spaced(cleaned["name"]), slug=address, by=self.asker
                    )
                    for field, refusal in waiting.items():
                        self.add_error(field, refusal)
        return cleaned

    def asked(self) -> list[tuple[str, str]]:
        """What a league asked for holds (this form bound to its ``form_data``), for the site's
        operator deciding it: each question below the name, by its label, with the answer in
        the form's own words; a blank one as what the style gives it ("11 (the style's)")."""
        style = str(self.data.get("style", ""))
        preset = STYLE_PRESETS.get(style)
        defaults = {
            "target": str(preset.ruleset.get("target", "")) if preset else "",
            "tables": str(preset.match_format.tables) if preset else "",
            "time_zone": _zone_label(preset.time_zone) if preset else "",
        }
        rows = []
        for bound in self:
            if bound.name in ("name", "slug", "description") or bound.name.startswith("tiebreak_"):
                continue
            value = "" if bound.value() is None else str(bound.value())
            choices = {str(key): label for key, label in getattr(bound.field, "choices", [])}
            if value in choices and value:
                words = str(choices[value])
            elif value:
                words = value
            else:
                default = defaults.get(bound.name)
                words = f"{default} (the style's)" if default else "—"
            rows.append((str(bound.label), words))
        chosen = [key for bound in self.tiebreak_fields if (key := str(bound.value() or ""))]
        order = chosen or [key for key in (preset.tiebreaks if preset else ()) if key != "points"]
        # As the rule under the table names them ("games won, then head-to-head").
        named = [
            METRICS[key].phrase_for(style) if style else _metric_label(key, None)
            for key in order
            if key in METRICS
        ]
        words = ", then ".join(named) or "—"
        rows.append(("Level on points", words if chosen else f"{words} (the style's)"))
        return rows

    def service_kwargs(self) -> dict[str, Any]:
        """Arguments for ``league_create``: the style's preset with the chosen overrides."""
        data = self.cleaned_data
        preset = STYLE_PRESETS[data["style"]]
        ruleset = dict(preset.ruleset)
        if data.get("target"):
            ruleset["target"] = data["target"]
        match_format = preset.match_format
        if data.get("tables"):
            match_format = match_format.with_options(tables=data["tables"])
        return {
            "name": data["name"],
            "slug": data.get("slug") or "",
            "style": data["style"],
            "ruleset": ruleset,
            "match_format": match_format,
            "tiebreaks": data.get("tiebreaks"),
            "league_night": data["league_night"],
            "start_time": data["start_time"],
            "time_zone": data.get("time_zone") or "",
            "description": data.get("description") or "",
        }


def _format_problem_fields(message: str) -> tuple[str, ...]:
    """The settings' fields a match format's refusal (``FormatError``) is about, the first
    where it is said: the points a match gives for "no match points", else the option it
    begins with ("games must be 1 when ..."); none for another."""
    if "no match points" in message:
        return ("points_per_table", "points_per_game", "aggregate_bonus")
    name = message.split(" ", 1)[0]
    return (name,) if name in LeagueEditForm.FORMAT_FIELDS else ()


class LeagueEditForm(TiebreakMixin):
    """Everything about a running league on one page: its name and night, the target and match
    format (fixed once a fixture is played; the service refuses), and the tie-break order."""

    FORMAT_FIELDS = (
        "tables",
        "games_mode",
        "games",
        "points_per_table",
        "points_per_game",
        "aggregate_bonus",
        "league_points_win",
        "league_points_draw",
        "league_points_loss",
        "match_points_count",
        "meetings",
    )

    name = TextField(max_length=120)
    description = TextField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    league_night = forms.TypedChoiceField(choices=Weekday.choices, coerce=int)
    start_time = forms.TimeField(widget=TIME_INPUT)
    time_zone = time_zone_field()
    target = TargetField(
        min_value=5, max_value=61, required=False, help_text="Points to win a game."
    )
    tables = forms.IntegerField(min_value=1, max_value=20, help_text="Tables per fixture.")
    games_mode = forms.ChoiceField(
        label="Games a table",
        choices=[
            (SINGLE, "One game"),
            (FIXED, "A fixed number of games, all played"),
            (FIRST_TO, "First to a number of games"),
        ],
    )
    games = forms.IntegerField(
        min_value=1, max_value=15, help_text="Games a table, or games needed to win it; 1 for one."
    )
    points_per_table = forms.IntegerField(min_value=0, max_value=20, label="Points a table won")
    points_per_game = forms.IntegerField(
        min_value=0, max_value=20, label="Points a game (bullseye) won"
    )
    aggregate_bonus = forms.IntegerField(
        min_value=0, max_value=20, label="Points for the higher aggregate"
    )
    league_points_win = forms.IntegerField(min_value=0, max_value=20, label="League points: win")
    league_points_draw = forms.IntegerField(min_value=0, max_value=20, label="League points: draw")
    league_points_loss = forms.IntegerField(
        min_value=0, max_value=20, label="League points: defeat"
    )
    match_points_count = forms.BooleanField(
        required=False, label="Match points count in the table as well as league points"
    )
    meetings = forms.IntegerField(
        min_value=1,
        max_value=6,
        label="League meetings a season",
        help_text="How often two teams meet in the league: 1 once, 2 home and away.",
    )
    show_provisional = forms.BooleanField(
        required=False,
        label="Show results not yet confirmed in the table, marked provisional",
    )
    withdrawal = forms.ChoiceField(
        choices=Withdrawal.choices,
        label="When a team withdraws",
        help_text="The usual choice; the secretary may choose the other for one team.",
    )
    withdrawn_take_places = forms.BooleanField(
        required=False,
        label="A withdrawn team takes one of the relegation places",
        help_text="A withdrawn team always goes down first. Unticked, the teams still playing "
        "lose as many places as ever; ticked, one fewer of them goes down.",
    )
    captains_register = forms.BooleanField(
        required=False,
        label="Captains may add a player to their squad by name on the night",
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        self.league_pk = league.pk
        self.tiebreak_style = league.style
        self.current_format = league.get_match_format()
        initial = {
            "name": league.name,
            "description": league.description,
            "league_night": league.league_night,
            "start_time": league.start_time,
            "time_zone": league.time_zone,
            "target": league.get_ruleset().target,
            "show_provisional": league.show_provisional,
            "withdrawal": league.withdrawal,
            "withdrawn_take_places": league.withdrawn_take_places,
            "captains_register": league.captains_register,
            **{key: getattr(self.current_format, key) for key in self.FORMAT_FIELDS},
        }
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        self.add_tiebreak_fields(league.get_tiebreaks())

    def clean_name(self) -> str:
        # With the form's other refusals, as on starting a league (``LeagueCreateForm``).
        name: str = self.cleaned_data["name"]
        taken = league_name_taken(name, but=self.league_pk)
        if taken:
            raise ValidationError(taken)
        return name

    @property
    def general_fields(self) -> list[forms.BoundField]:
        return [
            self[name]
            for name in (
                "name",
                "description",
                "league_night",
                "start_time",
                "time_zone",
                "show_provisional",
                "withdrawal",
                "withdrawn_take_places",
                "captains_register",
            )
        ]

    @property
    def format_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.FORMAT_FIELDS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        try:
            cleaned["tiebreaks"] = self.clean_tiebreaks() or ["points"]
        except ValidationError as exc:
            self.add_error("tiebreak_1", exc)
        # The format is checked with every field that was taken (the others as they are), so
        # that its problems are said with the fields' own, in the one submission; a problem
        # about a field refused already waits for it.
        options = {name: cleaned[name] for name in self.FORMAT_FIELDS if name in cleaned}
        if options.get("games_mode", self.current_format.games_mode) == SINGLE:
            options["games"] = 1
        try:
            match_format = self.current_format.with_options(**options)
        except FormatError as exc:
            for message in exc.messages:
                about = _format_problem_fields(message)
                if not any(name in self.errors for name in about):
                    self.add_error(about[0] if about else None, message[:1].upper() + message[1:])
        else:
            if all(name in cleaned for name in self.FORMAT_FIELDS):
                cleaned["match_format"] = match_format
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            key: data[key]
            for key in (
                "name",
                "description",
                "league_night",
                "start_time",
                "time_zone",
                "target",
                "match_format",
                "tiebreaks",
                "show_provisional",
                "withdrawal",
                "withdrawn_take_places",
                "captains_register",
            )
        }


class SeasonRulesForm(LeagueEditForm):
    """A season's own target, match format and tie-breaks (the league settings' rules part)."""

    GENERAL_FIELDS = (
        "name",
        "description",
        "league_night",
        "start_time",
        "time_zone",
        "show_provisional",
        "withdrawal",
        "withdrawn_take_places",
        "captains_register",
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        self.tiebreak_style = season.league.style
        self.current_format = season.get_match_format()
        initial = {
            "target": season.get_ruleset().target,
            **{key: getattr(self.current_format, key) for key in self.FORMAT_FIELDS},
        }
        kwargs.setdefault("initial", initial)
        TiebreakMixin.__init__(self, *args, **kwargs)
        for name in self.GENERAL_FIELDS:
            del self.fields[name]
        self.add_tiebreak_fields(season.get_tiebreaks())

    def service_kwargs(self) -> dict[str, Any]:
        return {key: self.cleaned_data[key] for key in ("target", "match_format", "tiebreaks")}


#: The season's nights with no league, as its fields are labelled and their refusals name them.
NIGHTS_OFF = "Nights with no league"
NIGHTS_OFF_HELP = (
    "One night or range a line, then its name: 23 Dec 2025 to 1 Jan 2026 Christmas and New "
    "Year, every year (dates as 23 Dec 2025, 23/12/2025 or 2025-12-23). Ranges marked every "
    "year are carried into the next season."
)


class SeasonForm(forms.Form):
    """A season's name and calendar: start, end, league night, nights off, venue capacity."""

    name = TextField(max_length=60, help_text='e.g. "2025–26" or "Winter 2025".')
    starts_on = SaneDateField(widget=DATE_INPUT)
    ends_on = SaneDateField(
        widget=DATE_INPUT,
        required=False,
        help_text="Blank until you know it (the desk says no end is set). Once set, fixtures "
        "and nights off are kept on or before it.",
    )
    league_night = forms.TypedChoiceField(
        choices=Weekday.choices,
        coerce=int,
        empty_value=None,
        required=False,
    )
    exclusions = TextField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label=NIGHTS_OFF,
        help_text=NIGHTS_OFF_HELP,
    )
    venue_capacity = forms.IntegerField(
        min_value=1,
        max_value=MOST_MATCHES_A_NIGHT,
        initial=1,
        required=False,
        label=SEASON_MATCHES_A_NIGHT,
        help_text="1 unless a pub has room for two matches at once. A venue given its own "
        "number on its page (a club with two rooms) is held to that instead.",
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        night = Weekday(league.league_night).label
        self.fields["league_night"].choices = [
            ("", f"The league's night ({night})"),
            *Weekday.choices,
        ]

    def clean_exclusions(self) -> list[NightsOff]:
        return parse_nights_off(self.cleaned_data.get("exclusions") or "")

    def clean_venue_capacity(self) -> int:
        return self.cleaned_data.get("venue_capacity") or 1

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        starts, ends = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", "The season cannot end before it starts.")
        return cleaned


class NextSeasonForm(SeasonForm):
    """The next season: its name and dates, and where each team plays (from the final
    standings, promotion and relegation applied; any of them can be changed)."""

    carry_squads = forms.BooleanField(
        required=False,
        initial=True,
        label="Carry each squad and captain over",
        help_text="Registrations can be changed afterwards on each team's page.",
    )

    def __init__(
        self, *args: Any, placements: list[Any], divisions: list[Division], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for name in ("league_night", "exclusions", "venue_capacity"):
            del self.fields[name]
        choices = [("", "Not entered")] + [(str(d.rank), d.name) for d in divisions]
        self.placements = placements
        for placement in placements:
            self.fields[f"team_{placement.team.pk}"] = forms.TypedChoiceField(
                label=placement.entry.display_name,
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
                initial="" if placement.to_rank is None else str(placement.to_rank),
                help_text=placement.why,
            )

    @property
    def team_fields(self) -> list[forms.BoundField]:
        return [self[f"team_{p.team.pk}"] for p in self.placements]

    @property
    def season_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("name", "starts_on", "ends_on", "carry_squads")]

    def placement_values(self) -> dict[int, int | None]:
        return {p.team.pk: self.cleaned_data[f"team_{p.team.pk}"] for p in self.placements}


def label_people(league: League, *fields: forms.ModelChoiceField) -> None:  # type: ignore[type-arg]
    """Pickers of players name each with their latest team in the league, so two people of one
    name are told apart: "Linda Dyson (Black Bull)" (``league_labels``, read once for all)."""
    labels: dict[int, str] | None = None

    def label(player: Player) -> str:
        nonlocal labels
        if labels is None:  # one query, when the picker is drawn
            labels = league_labels(league=league)
        return labels.get(player.pk, player.name)

    for field in fields:
        field.label_from_instance = label


class SquadForm(forms.Form):
    """A squad at once: ticked from the league's own players, typed one a line, or a CSV file
    of names (the first column; a "name" heading is skipped)."""

    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="The league's players",
        help_text="Only players of this league not yet registered this season.",
    )
    names = TextField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        label="New players",
        help_text="One name a line.",
    )
    csv_file = forms.FileField(
        required=False, label="Or a CSV file of names", help_text="Names in the first column."
    )

    def __init__(self, *args: Any, league: League, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from leagues.selectors.fixtures import league_players

        taken = Registration.objects.filter(season=season).values("player")
        self.fields["players"].queryset = league_players(league=league).exclude(pk__in=taken)
        label_people(league, self.fields["players"])

    def clean_csv_file(self) -> list[str]:
        upload = self.cleaned_data.get("csv_file")
        if not upload:
            return []
        if upload.size > 100_000:
            raise ValidationError("The file is too big for a squad (100 KB at most).")
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValidationError("The file is not UTF-8 text: save it as CSV (UTF-8).") from exc
        names = []
        for row in csv.reader(io.StringIO(text)):
            cell = (row[0] if row else "").strip()
            if cell and cell.casefold() != "name":
                names.append(cell)
        return names

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        typed = [line.strip() for line in (cleaned.get("names") or "").splitlines()]
        typed = [name for name in typed if name]
        cleaned["all_names"] = typed + list(cleaned.get("csv_file") or [])
        # A name refused is named by its line as the box then shows the names again
        # (``show_names``): the typed ones without the blank lines, then the file's.
        refused = False
        for number, name in enumerate(cleaned["all_names"], start=1):
            field = "names" if number <= len(typed) else "csv_file"
            name = one_spaced(name)
            why = name_too_long(name)
            if why and any(mark in name for mark in ",;"):
                why += " Is it more than one name? Put each on its own line."
            try:
                check_name_words(name)
            except ValidationError as exc:
                why = why or exc.message
            if why:
                self.add_error(field, f"Line {number}: {why}")
                refused = True
        if refused:
            self.show_names()
        if not cleaned.get("players") and not cleaned["all_names"]:
            raise ValidationError("Tick players, type names or choose a CSV file.")
        return cleaned

    def show_names(self) -> None:
        """The box shows the names again one a line, numbered as its refusals and questions
        number them: the typed ones without their blank lines, then the CSV file's (it need
        not be chosen again)."""
        self.data = self.data.copy()
        self.data["names"] = "\n".join(self.cleaned_data["all_names"])


class WithdrawForm(forms.Form):
    """Withdraw a team from its season: how its fixtures are settled, and why."""

    withdrawal = forms.ChoiceField(
        choices=Withdrawal.choices, widget=forms.RadioSelect, label="Its fixtures"
    )
    reason = TextField(max_length=500, help_text="Printed with its settled fixtures.")

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"withdrawal": league.withdrawal})
        super().__init__(*args, prefix="withdraw", **kwargs)


class DivisionForm(forms.Form):
    name = TextField(max_length=60)
    rank = forms.IntegerField(min_value=1, max_value=20, initial=1, help_text="1 is the top.")
    promoted = forms.IntegerField(
        min_value=0,
        max_value=20,
        initial=2,
        required=False,
        label="Teams going up",
        help_text="At the season's end, to the division above (none for the top division).",
    )
    relegated = forms.IntegerField(
        min_value=0,
        max_value=20,
        initial=2,
        required=False,
        label="Teams going down",
        help_text="At the season's end, to the division below (none for the bottom division).",
    )


class VenueForm(forms.Form):
    name = TextField(max_length=120)
    town = TextField(max_length=80, required=False)
    address = TextField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    matches_a_night = forms.IntegerField(
        min_value=1,
        max_value=MOST_MATCHES_A_NIGHT,
        required=False,
        label=VENUE_MATCHES_A_NIGHT,
        help_text=f"Blank: the season's setting ({SEASON_MATCHES_A_NIGHT}, on the season's "
        "page). 2 for a club with two rooms, while the pubs with one keep 1.",
        error_messages={
            "invalid": f"{VENUE_MATCHES_A_NIGHT}: a whole number such as 2 (a club with two "
            "rooms), or blank for the season's setting.",
            "min_value": f"{VENUE_MATCHES_A_NIGHT}: at least 1, or blank for the season's setting.",
            "max_value": f"{VENUE_MATCHES_A_NIGHT}: at most {MOST_MATCHES_A_NIGHT}, or blank for "
            "the season's setting.",
        },
    )
    closed = TextField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label=VENUE_CLOSED,
        help_text="One date or range a line, then why if you like: 14 Jan 2027 Refurbishment, "
        "or 14 Jan 2027 to 21 Jan 2027 (dates as 14 Jan 2027, 14/1/2027 or 2027-01-14). No "
        "match is arranged here on them; the rest of the league plays.",
    )

    def clean_closed(self) -> list[NightsOff]:
        return parse_nights_off(self.cleaned_data.get("closed") or "", field=VENUE_CLOSED)


class TeamForm(forms.Form):
    name = TextField(max_length=120)
    short_name = TextField(max_length=30, required=False)
    home_venue = forms.ModelChoiceField(queryset=Venue.objects.none())
    division = forms.ModelChoiceField(
        queryset=Division.objects.none(),
        required=False,
        help_text="Enter the team in a division now (optional).",
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["home_venue"].queryset = league_venues(league=league)
        self.fields["division"].queryset = Division.objects.filter(
            season__league=league
        ).select_related("season")


class TeamEditForm(forms.Form):
    name = TextField(max_length=120)
    short_name = TextField(max_length=30, required=False)
    home_venue = forms.ModelChoiceField(queryset=Venue.objects.none())

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["home_venue"].queryset = league_venues(league=league)


class TeamEntryForm(forms.Form):
    """A team's season: its division (it can move before it has played) and its captain (from
    the season's registered players) with the captain's contact, kept off the public pages."""

    division = forms.ModelChoiceField(
        queryset=Division.objects.none(),
        help_text="A team can move to another division until it has played a fixture.",
    )
    captain = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    captain_contact = TextField(
        max_length=200,
        required=False,
        label="Captain's phone or email",
        help_text="Seen by the secretaries only. While the captain has no account, an email "
        "address here (on its own) gets the emails about the team's fixtures.",
    )

    def __init__(
        self, *args: Any, team: Team, season: Season, squad_url: str = "", **kwargs: Any
    ) -> None:
        """``squad_url``: where the team's squad for ``season`` is registered, given while it
        has no player (the captain's list is empty then, and says so, with the way to it)."""
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = season.divisions.all()
        self.fields["captain"].queryset = Player.objects.filter(
            registrations__team=team, registrations__season=season
        ).order_by("name")
        label_people(season.league, self.fields["captain"])
        if squad_url:
            self.fields["captain"].help_text = format_html(
                'Register the squad first: the captain is one of its players (<a href="{}">'
                "register a squad</a>).",
                squad_url,
            )


def outside_calendar_fields(*, past: bool) -> tuple[forms.CharField, forms.BooleanField]:
    """The reason and the "outside the calendar" tick a fixture added or re-arranged on a night
    outside the season's calendar needs (``fixtures.calendar_override``; ``past``: a date gone
    is one, as for a re-arrangement)."""
    return TextField(max_length=500, required=False), forms.BooleanField(
        required=False,
        label="Outside the calendar",
        help_text=f"{'A past date, an' if past else 'An'} excluded night, or before or after the "
        "season: give the reason above.",
    )


class FixtureAddForm(forms.Form):
    """One fixture outside the generated list: a play-off, a replay, a re-arranged match."""

    kind = forms.ChoiceField(
        choices=Fixture.Kind.choices,
        initial=Fixture.Kind.LEAGUE,
        required=False,
        help_text="Only league fixtures count in the standings.",
    )
    home = forms.ModelChoiceField(queryset=Team.objects.none())
    away = forms.ModelChoiceField(queryset=Team.objects.none())
    date = SaneDateField(widget=DATE_INPUT)
    time = forms.TimeField(widget=TIME_INPUT, required=False, help_text="Blank: the league's.")
    venue = forms.ModelChoiceField(
        queryset=Venue.objects.none(), required=False, help_text="Blank: the home team's."
    )
    reason, outside_calendar = outside_calendar_fields(past=False)

    def __init__(self, *args: Any, division: Division, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = Team.objects.filter(entries__division=division).order_by("name")
        self.fields["home"].queryset = teams
        self.fields["away"].queryset = teams
        self.fields["venue"].queryset = league_venues(league=division.season.league)
        self.fields[
            "time"
        ].help_text = f"{division.season.league.time_zone_words}; blank: the league's start time."

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        home, away = cleaned.get("home"), cleaned.get("away")
        if home is not None and home == away:
            self.add_error("away", "A team cannot play itself.")
        cleaned["kind"] = cleaned.get("kind") or Fixture.Kind.LEAGUE
        return cleaned


class PlayerRegisterForm(forms.Form):
    """Register a new or existing player to a team for a season."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        empty_label="— a new player —",
        help_text="Someone already on the books, or leave it and give a new name.",
    )
    name = NameField(max_length=120, required=False, label="New player's name")
    someone_new = forms.BooleanField(
        required=False,
        label="Someone new",
        help_text="Tick when the league has someone of this name who is another person.",
    )
    team = forms.ModelChoiceField(queryset=Team.objects.none())
    season = forms.ModelChoiceField(queryset=Season.objects.none(), empty_label=None)

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.league = league
        self.fields["player"].queryset = league_players_available(league=league)
        label_people(league, self.fields["player"])
        self.fields["team"].queryset = league.teams.order_by("name")
        self.fields["season"].queryset = league.seasons.order_by("-starts_on")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        player, name = cleaned.get("player"), one_spaced(cleaned.get("name") or "")
        if player is None and not name:
            self.add_error("name", "Choose a player or give a new player's name.")
        if player is not None and name:
            self.add_error("name", "Either choose a player or give a new name, not both.")
        if player is None and name and not cleaned.get("someone_new"):
            # Someone the league has is picked, never a second record by accident.
            namesakes = league_players(league=self.league).filter(name__iexact=name)
            if namesakes.exists():
                labels = people_labels(league=self.league, players=namesakes)
                self.add_error(
                    "name",
                    f"The league has {' and '.join(sorted(labels.values()))}: choose them in "
                    "the list above, or tick “someone new” for another person of that name.",
                )
        cleaned["name"] = name
        return cleaned


def parse_nights_off(text: str, *, field: str = NIGHTS_OFF) -> list[NightsOff]:
    """Nights with no league, or a venue's dates it is closed, as the secretary writes them
    (``leagues.nights_off.parse``), refused naming the field by its label and the line:
    "Closed on, line 2: “31/02/2027” is not a date (…)."."""
    try:
        return nights_off.parse(text)
    except nights_off.NightsOffError as exc:
        raise ValidationError(f"{field}, {exc}.") from exc


class FixtureGenerateForm(forms.Form):
    """The list's start and legs; the night and the exclusion dates are the season's calendar
    (changed here, they are stored in it)."""

    start = SaneDateField(
        widget=DATE_INPUT,
        help_text="The first league night of the list. New fixtures go only on nights not yet "
        "past: on a season under way, from the next league night.",
    )
    league_night = forms.TypedChoiceField(choices=Weekday.choices, coerce=int)
    legs = forms.TypedChoiceField(
        choices=[(1, "Single: play each team once"), (2, "Double: home and away")],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    exclusions = TextField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label=NIGHTS_OFF,
        help_text=NIGHTS_OFF_HELP,
    )
    rest_every = forms.IntegerField(
        min_value=1,
        max_value=52,
        required=False,
        label="A week off every … rounds",
        help_text="Blank: no week off. 4 gives a free league night after every four rounds.",
    )
    end_by = SaneDateField(
        widget=DATE_INPUT,
        required=False,
        label="Spread the rounds to end by",
        help_text="Blank: the rounds are played on the first league nights. A date (the "
        "season's end, say) spreads them evenly up to it, the nights between free.",
    )

    def clean_exclusions(self) -> list[NightsOff]:
        return parse_nights_off(self.cleaned_data.get("exclusions") or "")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("rest_every") and cleaned.get("end_by"):
            self.add_error(
                "end_by",
                "Choose one way to spread the rounds: a week off every few rounds, or an end "
                "date, not both.",
            )
        return cleaned


class FixtureRearrangeForm(forms.Form):
    night = forms.ChoiceField(
        required=False,
        label="Next free league nights",
        widget=forms.RadioSelect,
        help_text="Both teams and the venue are free on each. Or give another date below.",
    )
    date = SaneDateField(
        widget=DATE_INPUT,
        required=False,
        label="Another date",
        help_text="Blank, with no night picked: the first free league night above.",
    )
    time = forms.TimeField(widget=TIME_INPUT, required=False)
    venue = forms.ModelChoiceField(queryset=Venue.objects.none(), required=False)
    reason, outside_calendar = outside_calendar_fields(past=True)

    def __init__(self, *args: Any, fixture: Fixture, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"time": fixture.time, "venue": fixture.venue_id})
        super().__init__(*args, prefix="rearrange", **kwargs)
        league = fixture.division.season.league
        self.fields["venue"].queryset = league_venues(league=league)
        self.fields["time"].help_text = league.time_zone_words
        from leagues.services.fixtures import free_nights

        ends = fixture.division.season.ends_on
        self.fields["night"].choices = [
            (night.isoformat(), long_date(night))
            for night in free_nights(fixture=fixture)
            if ends is None or night <= ends
        ]
        if not self.fields["night"].choices:
            del self.fields["night"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not cleaned.get("date") and cleaned.get("night"):
            cleaned["date"] = datetime.date.fromisoformat(cleaned["night"])
        return cleaned


class ReasonForm(forms.Form):
    reason = TextField(widget=forms.Textarea(attrs={"rows": 2}))


class WalkoverForm(forms.Form):
    to = forms.ChoiceField(label="Awarded to", widget=forms.RadioSelect)
    reason = TextField(widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, fixture: Fixture, **kwargs: Any) -> None:
        super().__init__(*args, prefix="walkover", **kwargs)
        self.fields["to"].choices = [
            (Fixture.Side.HOME, f"{fixture.home} (home)"),
            (Fixture.Side.AWAY, f"{fixture.away} (away)"),
        ]


class FixtureTablesForm(forms.Form):
    """Each board's home pair and away pair, from the players registered to each team; the
    pairs seated already (``seated``: by board, as a captain may seat table 2 alone on the
    night page) offered at their own table. ``pairs``: the league plays pairs, so a side is
    both its players (``seating.half_pair_words``); else a player may play alone."""

    def __init__(
        self,
        *args: Any,
        boards: int,
        home_players: QuerySet[Player] | list[Player],
        away_players: QuerySet[Player] | list[Player],
        seated: Mapping[int, tuple[list[Player], list[Player]]] | None = None,
        pairs: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.boards = boards
        second = "Player 2" if pairs else "Player 2 (blank if playing alone)"
        pools = {"home": list(home_players), "away": list(away_players)}
        self.players = {p.pk: p for pool in pools.values() for p in pool}
        self.seat_names: dict[str, str] = {}
        for board in range(1, boards + 1):
            for side, pool in pools.items():
                choices = [("", "—")] + [(str(p.pk), p.label) for p in pool]
                pairs = (seated or {}).get(board, ([], []))
                pair = pairs[0 if side == "home" else 1]
                for seat in (1, 2):
                    name = f"board_{board}_{side}_{seat}"
                    self.seat_names[name] = f"{side} player {seat} at table {board}"
                    self.fields[name] = forms.TypedChoiceField(
                        label="Player 1" if seat == 1 else second,
                        choices=choices,
                        coerce=int,
                        required=seat == 1,
                        empty_value=None,
                        initial=pair[seat - 1].pk if len(pair) >= seat else "",
                    )

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "board": board,
                "home": [self[f"board_{board}_home_{seat}"] for seat in (1, 2)],
                "away": [self[f"board_{board}_away_{seat}"] for seat in (1, 2)],
            }
            for board in range(1, self.boards + 1)
        ]

    def clean(self) -> dict[str, Any]:
        """A player chosen for more than one seat is named once, with every seat chosen, at the
        first seat that repeats them."""
        cleaned = super().clean()
        seats: dict[int, list[str]] = {}
        for name in self.fields:
            if cleaned.get(name) is not None:
                seats.setdefault(cleaned[name], []).append(name)
        for pk, names in seats.items():
            if len(names) > 1:
                where = join_words([self.seat_names[name] for name in names])
                self.add_error(
                    names[1],
                    f"{self.players[pk]} is chosen for {len(names)} seats ({where}): "
                    "a player sits at one seat only.",
                )
        return cleaned

    def pairs(self) -> list[tuple[list[Player], list[Player]]]:
        """(home pair, away pair) for each board, for ``fixture_tables_set``."""
        data = self.cleaned_data
        return [
            tuple(  # type: ignore[misc]
                [
                    self.players[data[f"board_{board}_{side}_{seat}"]]
                    for seat in (1, 2)
                    if data.get(f"board_{board}_{side}_{seat}") is not None
                ]
                for side in ("home", "away")
            )
            for board in range(1, self.boards + 1)
        ]


class AdjustmentForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=TeamEntry.objects.none(), label="Team")
    points = forms.IntegerField(
        min_value=-99, max_value=99, help_text="Negative for a deduction, e.g. -2."
    )
    reason = TextField(
        widget=forms.Textarea(attrs={"rows": 2}), help_text="Printed under the table."
    )
    fixture = forms.ModelChoiceField(
        queryset=Fixture.objects.none(), required=False, help_text="The fixture it arose from."
    )

    def __init__(self, *args: Any, division: Division, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = division.entries.select_related("team").order_by(
            "team__name"
        )
        self.fields["entry"].label_from_instance = lambda entry: entry.team.name
        # The league's fixtures: a cup tie is not in the table its points would change.
        self.fields["fixture"].queryset = (
            division.fixtures.filter(kind=Fixture.Kind.LEAGUE)
            .select_related("home", "away")
            .order_by("date", "pk")
        )

    def clean_points(self) -> int:
        points = self.cleaned_data["points"]
        if points == 0:
            raise ValidationError("An adjustment of 0 points changes nothing.")
        return points


class InviteForm(forms.Form):
    """Whom to invite: the e-mail the invitation's link goes to."""

    email = forms.EmailField(label="Their e-mail", help_text="The invitation's link goes to it.")


def name_field() -> TextField:
    """The person's name for their account, as sign-up, an invitation and the account's own
    page ask it (``accounts.account_name`` checks it)."""
    return NameField(
        label=NAME_WORDS,
        max_length=NAME_LENGTH,
        help_text='e.g. "Maureen Kaye": invitations and results name you by it.',
        error_messages={"required": NO_NAME},
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )


def new_password_fields() -> tuple[forms.CharField, forms.CharField]:
    """A new password, twice, as sign-up and an invitation ask it: Django's ``password1`` and
    ``password2`` (one naming, so a password manager treats both pages alike)."""
    password1, password2 = SetPasswordMixin.create_password_fields(label2="Password again")
    password1.help_text = (
        "At least 8 characters, not too common, not all digits, not like your name or username."
    )
    password2.help_text = ""
    password1.error_messages["required"] = "Choose a password."
    password2.error_messages["required"] = "Type the password again, to be sure of it."
    return password1, password2


def clean_account_name(form: forms.Form) -> str:
    """``form``'s name as an account keeps it (``account_name``), its refusal on the field."""
    try:
        return account_name(form.cleaned_data["name"])
    except ValidationError as exc:
        raise ValidationError(exc.message_dict["name"]) from None


class AccountNameForm(forms.Form):
    """A person's name for their own account."""

    name = name_field()

    def clean_name(self) -> str:
        return clean_account_name(self)


class InvitationAccountForm(SetPasswordMixin, AccountNameForm):
    """The invited person's own new account (the e-mail is the invited one). The service checks
    the username and runs Django's password validators; its refusals come back here."""

    username = TextField(max_length=150, help_text="What you log in with.")
    password1, password2 = new_password_fields()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self.validate_passwords()
        return cleaned


class ImportForm(forms.Form):
    """The spreadsheet to import: one row a player, and optionally the fixtures; into one of
    the league's seasons or a new one."""

    season = forms.ChoiceField(label="Into the season")
    season_name = TextField(
        max_length=60, required=False, label="New season's name", help_text='e.g. "2025–26".'
    )
    season_starts = SaneDateField(widget=DATE_INPUT, required=False, label="New season starts on")
    people = forms.FileField(
        label="Teams and players (CSV or XLSX)",
        help_text="One row a player; columns division, team, venue, player, captain, email.",
    )
    fixtures = forms.FileField(
        required=False,
        label="Fixtures (optional, CSV or XLSX)",
        help_text="Columns date, time, division, home, away, venue, home_score, away_score; "
        "or the people's XLSX file's second sheet.",
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seasons = list(league.seasons.order_by("-starts_on"))
        self.seasons = {str(s.pk): s for s in seasons}
        self.fields["season"].choices = [(str(s.pk), s.name) for s in seasons] + [
            ("new", "A new season")
        ]
        self.fields["season"].initial = str(seasons[0].pk) if seasons else "new"

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("season") == "new":
            if not cleaned.get("season_name"):
                self.add_error("season_name", "Name the new season.")
            if not cleaned.get("season_starts"):
                self.add_error("season_starts", "When does the new season start?")
        return cleaned
