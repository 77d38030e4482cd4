"""The score card form: one form for the whole fixture, a block per table.

What each table asks for follows the season's match format and ruleset: each game's final
pegs (as many games as a table plays), the games (bullseyes) won where a table plays more than
one, hang jacks where the variant scores them; the ranges come from the ruleset (the highest
score a game can finish on). Each field's refusal names the table, the game and the figure.
The card's own checks (the winner at the target, the table decided) are the service's
(``leagues.services.cards``), asked of the engines, not repeated here. A card with a figure
refused here is not sent to the service, so the form asks the same checks of every table whose
figures were all taken (and, at a table with one refused, of each game whose pegs were): a
captain learns every problem on the card from one submission, not the rules only once the
figures are right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from leagues import match
from leagues.models import Fixture, FixtureTable, Player
from leagues.services.cards import (
    PLAYOFF_GAME,
    CardRefused,
    CardTable,
    card_layout,
    card_pairs_problem,
    card_problems,
    card_words,
    game_problems,
)
from leagues.services.seating import TableProblem, half_pair_words
from leagues.tiebreaks import score_word
from scoring.forms.words import possessive
from scoring.rules import Ruleset

if TYPE_CHECKING:
    from cups.models import Tie

SIDES = ("home", "away")
#: The most hang jacks a side is asked for at one table.
MOST_HANG_JACKS = 99


#: The most of a refused figure said back: what was typed, quoted, cut short past this.
MOST_QUOTED = 20


class FigureField(forms.IntegerField):
    """A figure of the card, refused when it is no whole number by quoting what was typed
    (its ``invalid`` message's ``%(value)s``): "give a whole number, not “1o”"."""

    def to_python(self, value: Any) -> int | None:
        try:
            return super().to_python(value)
        except ValidationError as exc:
            if exc.code != "invalid":
                raise
            typed = str(value).strip()
            shown = typed if len(typed) <= MOST_QUOTED else f"{typed[:MOST_QUOTED]}…"
            raise ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": shown}
            ) from exc


def _figure(label: str, *, most: int) -> forms.IntegerField:
    named = label.replace("%", "%%")  # a team's name is not a place for the figures' values
    return FigureField(
        label=label,
        required=False,
        min_value=0,
        max_value=most,
        # A text box asking a phone for its digit keypad, not a number box: typed on a
        # keyboard, a number box drops a letter (10 typed "1o" is sent as 1, and saved), where
        # this one sends what was typed, for the form to refuse by name.
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
        ),
        error_messages={
            "invalid": f"{named}: give a whole number, not “%(value)s”.",
            "min_value": f"{named}: cannot be less than %(limit_value)s.",
            "max_value": f"{named}: cannot be more than %(limit_value)s.",
        },
    )


class ScoreCardForm(forms.Form):
    """Every table of ``fixture`` that takes a card (``editable``): its pairs and figures."""

    settlement = forms.CharField(
        label="How the dispute is settled (both captains read it)",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={
            "required": "How the dispute is settled: say it in a line (both captains read it).",
            "max_length": "How the dispute is settled: at most %(limit_value)d characters "
            "(this has %(show_value)d).",
        },
    )
    signed = forms.BooleanField(
        label="Both captains signed this card: it counts now",
        required=False,
        help_text="Leave it unticked and the result waits for the captains to agree on the site.",
    )

    def __init__(
        self,
        *args: Any,
        fixture: Fixture,
        fmt: match.MatchFormat,
        ruleset: Ruleset,
        squads: dict[str, list[Player]],
        tables: dict[int, FixtureTable],
        editable: list[int],
        settling: bool,
        waiting: bool = False,
        signing: bool = False,
        tie: Tie | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fixture, self.fmt, self.ruleset, self.settling = fixture, fmt, ruleset, settling
        #: A knock-out cup tie's: the card carries its play-off game's boxes from the start.
        self.tie = tie
        self.tables, self.editable = tables, editable
        self.players = {p.pk: p for squad in squads.values() for p in squad}
        self.names = {"home": fixture.home.name, "away": fixture.away.name}
        #: What a game's score is counted in, as the boxes and refusals say it.
        self.scored = score_word(fixture.league.style)
        # What a table's card asks for, as the printed blank card has it, box for box, and
        # each box's words, as the printed card heads it.
        layout = card_layout(
            fmt,
            ruleset,
            league_points=fixture.kind == Fixture.Kind.LEAGUE,
            decider=tie.competition.decider if tie is not None else None,
        )
        self.games = layout.games
        self.asks_bullseyes = layout.games_won
        self.asks_hang_jacks = layout.hang_jacks
        self.words = card_words(layout, fixture.league.style)
        #: Each table's fields by name, the table they are at: their refusals are listed by it.
        self.boards: dict[str, int] = {}
        #: The card's refusals that are no one field's (``refuse``), each with its table.
        self.refusals: list[TableProblem] = []
        #: The refusal of the pairs the card seats (``card_pairs_problem``), if any: a table's
        #: player boxes are marked for it, not its figures.
        self.seating: TableProblem | None = None
        if settling or not signing:
            # Offered to a secretary typing the card, not to a captain (``fixture_card_enter``).
            del self.fields["signed"]
        if not settling:
            del self.fields["settlement"]
        else:
            self.fields["settlement"].required = True
            if waiting:
                # Settling a result still waiting for a side, not a dispute.
                field = self.fields["settlement"]
                field.label = "How the result is settled (both captains read it)"
                field.error_messages = {
                    "required": "How the result is settled: say it in a line (both captains "
                    "read it).",
                    "max_length": "How the result is settled: at most %(limit_value)d "
                    "characters (this has %(show_value)d).",
                }
        for board in editable:
            table = tables.get(board)
            card = table.card if table is not None and table.from_card else {}
            for side in SIDES:
                pair = getattr(table, f"{side}_pair") if table is not None else []
                choices = [("", "not recorded")] + [(str(p.pk), p.label) for p in squads[side]]
                for seat in (1, 2):
                    label = f"{self.names[side]} player {seat}"
                    self.fields[f"t{board}_{side}_{seat}"] = forms.TypedChoiceField(
                        label=label,
                        choices=choices,
                        coerce=int,
                        required=False,
                        empty_value=None,
                        initial=pair[seat - 1].pk if len(pair) >= seat else "",
                        error_messages={
                            "invalid_choice": f"Table {board}: {label}: choose a player "
                            f"from {possessive(self.names[side])} squad."
                        },
                    )
            typed_games = card.get("games", [])
            for number in range(1, self.games + 1):
                for index, side in enumerate(SIDES):
                    label = f"Table {board}, game {number}: {self.names[side]}"
                    field = _figure(label, most=ruleset.highest_final_score)
                    if number <= len(typed_games):
                        field.initial = typed_games[number - 1][index]
                    self.fields[f"t{board}_g{number}_{side}"] = field
            for index, side in enumerate(SIDES):
                if self.asks_bullseyes:
                    label = f"Table {board}: {self._box(side, self.words.games_won)}"
                    field = _figure(label, most=fmt.max_games_won_at_table)
                    if card.get("bullseyes"):
                        field.initial = card["bullseyes"][index]
                    self.fields[f"t{board}_bull_{side}"] = field
                if self.asks_hang_jacks:
                    label = f"Table {board}: {self._box(side, self.words.hang_jacks)}"
                    field = _figure(label, most=MOST_HANG_JACKS)
                    field.initial = card.get("hang_jacks", [0, 0])[index]
                    self.fields[f"t{board}_hj_{side}"] = field
            self.boards |= {name: board for name in self.fields if name.startswith(f"t{board}_")}
        if tie is not None:
            stored = (tie.playoff_home, tie.playoff_away)
            for index, side in enumerate(SIDES):
                field = _playoff_figure(self.names[side], ruleset)
                field.initial = stored[index]
                self.fields[f"playoff_{side}"] = field

    def _box(self, side: str, words: str) -> str:
        """A side's box of a table's figure, as its label and refusals name it: "Black Bull's
        hang jacks" (the figure in the card's words)."""
        return f"{possessive(self.names[side])} {words.lower()}"

    @property
    def playoff(self) -> list[forms.BoundField]:
        """The play-off game's two boxes (home, away), or none: not a knock-out cup tie."""
        return [self[f"playoff_{side}"] for side in SIDES] if self.tie is not None else []

    def playoff_score(self) -> tuple[int, int] | None:
        """The play-off game's score as typed (home, away), for ``fixture_card_enter``; None
        when its boxes are blank (or the card has none)."""
        if self.tie is None:
            return None
        home, away = (self.cleaned_data.get(f"playoff_{side}") for side in SIDES)
        return None if home is None or away is None else (home, away)

    def blocks(self) -> list[dict[str, Any]]:
        """Each editable table's fields, grouped for the page. A table's pairs are open where a
        player is chosen (or refused): after a refusal, the captain sees who they chose."""
        blocks = [
            {
                "board": board,
                "pairs": {side: [self[f"t{board}_{side}_{s}"] for s in (1, 2)] for side in SIDES},
                "games": [
                    (words, [self[f"t{board}_g{number}_{side}"] for side in SIDES])
                    for number, words in enumerate(self.words.games, start=1)
                ],
                "bullseyes": [self[f"t{board}_bull_{side}"] for side in SIDES]
                if self.asks_bullseyes
                else [],
                "hang_jacks": [self[f"t{board}_hj_{side}"] for side in SIDES]
                if self.asks_hang_jacks
                else [],
            }
            for board in self.editable
        ]
        at_tables = self.table_problems()
        for block in blocks:
            seats = [field for fields in block["pairs"].values() for field in fields]
            block["pairs_open"] = any(field.errors or field.value() for field in seats)
            block["problems"] = [problem.text for problem in at_tables.get(block["board"], [])]
            if block["problems"]:
                self._mark(block["board"])
        return blocks

    def table_problems(self) -> dict[int, list[TableProblem]]:
        """Every refusal on the card (``problem_list``) by the table that takes a card it is
        at: each table's are said beside its boxes, and the list at the top links to them."""
        at_tables: dict[int, list[TableProblem]] = {}
        for problem in self.problem_list():
            if problem.table in self.editable:
                at_tables.setdefault(problem.table, []).append(problem)
        return at_tables

    def _mark(self, board: int) -> None:
        """The boxes of a table with a refusal, described by the table's refusals (the block's
        ``problems``, ``id="table-N-problems"``) and marked invalid where it is theirs: a box
        with its own refusal (Django marks it), the figures where a rule of the card refuses the
        table, the pairs where its seating is refused."""
        refused = [p for p in self.refusals if p.table == board]
        figures_refused = any(p is not self.seating for p in refused)
        pairs_refused = self.seating is not None and self.seating.table == board
        figures = set(self._figure_names(board))
        for name, at in self.boards.items():
            if at != board:
                continue
            attrs = self.fields[name].widget.attrs
            attrs["aria-describedby"] = f"table-{board}-problems"
            if figures_refused if name in figures else pairs_refused:
                attrs["aria-invalid"] = "true"

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for board in self.editable:
            for side in SIDES:
                self._check_pair(cleaned, board, side)
            for number in range(1, self.games + 1):
                home, away = (cleaned.get(f"t{board}_g{number}_{side}") for side in SIDES)
                named = [f"t{board}_g{number}_{side}" for side in SIDES]
                if (home is None) != (away is None) and not any(n in self.errors for n in named):
                    missing = named[0] if home is None else named[1]
                    self.add_error(
                        missing,
                        f"Table {board}, game {number}: give both sides' {self.scored}, "
                        f"{self.names['home']} and {self.names['away']}.",
                    )
        if self.tie is not None:
            named = [f"playoff_{side}" for side in SIDES]
            home, away = (cleaned.get(name) for name in named)
            if (home is None) != (away is None) and not any(n in self.errors for n in named):
                self.add_error(
                    named[0] if home is None else named[1],
                    f"Play-off game: give both sides' scores, {self.names['home']} and "
                    f"{self.names['away']}, or leave both blank.",
                )
        if self.errors:
            for problem in self._rule_problems():
                self.refuse(problem)
        return cleaned

    def _check_pair(self, cleaned: dict[str, Any], board: int, side: str) -> None:
        """A pair with one player chosen, where the ruleset plays pairs: refused at the seat
        left empty (``half_pair_words``, the service's words), the chosen one kept."""
        named = [f"t{board}_{side}_{seat}" for seat in (1, 2)]
        chosen = [cleaned.get(name) for name in named]
        if self.ruleset.players < 2 or any(name in self.errors for name in named):
            return
        if (chosen[0] is None) != (chosen[1] is None):
            player = self.players[chosen[0] if chosen[0] is not None else chosen[1]]
            empty = named[1] if chosen[0] is not None else named[0]
            self.add_error(empty, half_pair_words(board, self.names[side], player))

    def refuse(self, problem: TableProblem) -> None:
        """A refusal of the card that is no one field's, listed at its table."""
        self.refusals.append(problem)
        self.add_error(None, problem.text)

    def refused(self, error: ValidationError) -> None:
        """The service's refusal of the card, each problem at its table (a refusal of the
        whole fixture, its status or the result's, at none)."""
        if isinstance(error, CardRefused):
            problems = list(error.problems)
        else:
            problems = [TableProblem(None, message) for message in error.messages]
        for problem in problems:
            self.refuse(problem)

    def _playoff_refused(self) -> bool:
        return any(f"playoff_{side}" in self.errors for side in SIDES)

    def _figure_names(self, board: int) -> list[str]:
        names = [f"t{board}_g{n}_{side}" for n in range(1, self.games + 1) for side in SIDES]
        if self.asks_bullseyes:
            names += [f"t{board}_bull_{side}" for side in SIDES]
        if self.asks_hang_jacks:
            names += [f"t{board}_hj_{side}" for side in SIDES]
        return names

    def _rule_problems(self) -> list[TableProblem]:
        """The service's checks of the card, asked of what the form took: each table whose
        figures were all taken, whole; at a table with a figure refused, each game whose two
        pegs were (the table's own checks wait for its figures)."""
        problems: list[TableProblem] = []
        for board in self.editable:
            if not any(name in self.errors for name in self._figure_names(board)):
                table = self._card_table(board)
                if table is not None:
                    problems += card_problems(
                        [table],
                        self.fmt,
                        self.ruleset,
                        names=(self.names["home"], self.names["away"]),
                        scored=self.scored,
                    )
                continue
            for number in range(1, self.games + 1):
                named = [f"t{board}_g{number}_{side}" for side in SIDES]
                if any(name in self.errors for name in named):
                    continue
                home, away = (self.cleaned_data.get(name) for name in named)
                if home is not None and away is not None:
                    problems += game_problems(
                        board=board, number=number, home=home, away=away, ruleset=self.ruleset
                    )
        score = self.playoff_score() if not self._playoff_refused() else None
        if score is not None:
            from cups.services.ties import playoff_problems

            assert self.tie is not None
            problems += [
                TableProblem(None, f"{p}.")
                for p in playoff_problems(self.tie, home=score[0], away=score[1])
            ]
        # With the pairs already seated at the tables the card leaves as they are.
        # A pair with one player chosen is refused at its empty seat (``_check_pair``).
        seating = card_pairs_problem(self.fixture, self.tables, self.card_tables(), halves=False)
        if seating is not None:
            self.seating = seating
            problems.append(seating)
        return problems

    def problems(self) -> list[str]:
        """Every refusal on the card in words (``problem_list``)."""
        return [problem.text for problem in self.problem_list()]

    def problem_list(self) -> list[TableProblem]:
        """Every refusal on the card, table by table (the rules' and the figures' together:
        they came as the rules' first, then the figures', "Table 1, 4, 6, 2, 3"), each naming
        its table or its field (each field's messages name it), each at its table."""
        said = list(self.refusals)
        for field in self:
            said += [TableProblem(self.boards.get(field.name), str(e)) for e in field.errors]
        return sorted(said, key=lambda p: p.table or 0)

    def card_tables(self) -> list[CardTable]:
        """The typed tables, for ``fixture_card_enter``. A settling secretary's table left
        blank stays as it was scored."""
        return [table for table in map(self._card_table, self.editable) if table is not None]

    def _card_table(self, board: int) -> CardTable | None:
        """The table at ``board`` as typed (None: a settling secretary left it blank)."""
        data = self.cleaned_data
        games = []
        for number in range(1, self.games + 1):
            home, away = (data.get(f"t{board}_g{number}_{side}") for side in SIDES)
            if home is not None and away is not None:
                games.append((home, away))
        bulls = [data.get(f"t{board}_bull_{side}") for side in SIDES]
        bullseyes = None if bulls == [None, None] else (bulls[0] or 0, bulls[1] or 0)
        hang = [data.get(f"t{board}_hj_{side}") or 0 for side in SIDES]
        pairs = {
            side: [
                self.players[data[f"t{board}_{side}_{seat}"]]
                for seat in (1, 2)
                if data.get(f"t{board}_{side}_{seat}") is not None
            ]
            for side in SIDES
        }
        if self.settling and not games and bullseyes is None:
            return None
        return CardTable(
            board=board,
            home=pairs["home"],
            away=pairs["away"],
            games=tuple(games),
            bullseyes=bullseyes,
            hang_jacks=(hang[0], hang[1]),
        )


def _playoff_figure(name: str, ruleset: Ruleset) -> forms.IntegerField:
    """A side's box of a cup tie's play-off game: "Play-off game: Old Hall"."""
    return _figure(f"{PLAYOFF_GAME}: {name}", most=ruleset.highest_final_score)


class PlayoffForm(forms.Form):
    """A level cup tie's play-off game from the score card: "Play-off game: home __ away __".
    The score is checked by the service, as a table's game is (``tie_playoff_enter``)."""

    #: Its boxes' heading, as the score card's play-off game's.
    heading = PLAYOFF_GAME

    def __init__(self, *args: Any, fixture: Fixture, ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side in SIDES:
            name = fixture.home.name if side == "home" else fixture.away.name
            field = _playoff_figure(name, ruleset)
            field.required = True
            field.error_messages["required"] = f"Play-off game: give {possessive(name)} score."
            self.fields[f"playoff_{side}"] = field
