"""What the API says about each thing: public facts only.

Never a scoring link or its key, a captain's contact or any account's name: the schemas name
every field they give, so nothing else can leak out of a model.
"""

import datetime
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import WithJsonSchema

from leagues.models import Fixture, FixtureResult
from leagues.selectors.fixtures import not_recorded
from leagues.selectors.standings import COLUMNS

LocalTime = Annotated[
    datetime.time,
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$",
            "description": "A time of day on the league's clock, HH:MM:SS (no offset).",
            "example": "20:00:00",
        }
    ),
]
"""A fixture's or league night's start: the wall-clock time the league plays at. JSON Schema's
``format: time`` is RFC 3339's ``full-time``, which carries an offset; this has none."""


class LeagueRef(Schema):
    slug: str
    name: str


class SeasonRef(Schema):
    id: int
    name: str
    slug: str


class DivisionRef(Schema):
    id: int
    name: str
    rank: int


class TeamRef(Schema):
    id: int
    name: str


class VenueOut(Schema):
    name: str
    town: str
    address: str


class LeagueOut(Schema):
    slug: str
    name: str
    style: str
    description: str
    league_night: str
    start_time: LocalTime
    time_zone: str = Field(
        description="Where the league plays (an IANA time zone, e.g. America/Port_of_Spain): "
        "its fixtures' dates and times are local times there.",
        examples=["Europe/London"],
    )
    show_provisional: bool
    page: str

    @staticmethod
    def resolve_league_night(obj: Any) -> str:
        return str(obj.get_league_night_display())

    @staticmethod
    def resolve_page(obj: Any) -> str:
        return str(obj.get_absolute_url())


class SeasonOut(Schema):
    id: int
    name: str
    slug: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    divisions: list[DivisionRef]

    @staticmethod
    def resolve_divisions(obj: Any) -> list[Any]:
        return list(obj.divisions.all())


class DivisionOut(Schema):
    id: int
    name: str
    rank: int
    season: SeasonRef
    league: LeagueRef
    page: str

    @staticmethod
    def resolve_league(obj: Any) -> Any:
        return obj.season.league

    @staticmethod
    def resolve_page(obj: Any) -> str:
        return str(obj.get_absolute_url())


class TeamOut(Schema):
    id: int
    name: str
    short_name: str
    league: LeagueRef
    home_venue: VenueOut
    page: str

    @staticmethod
    def resolve_page(obj: Any) -> str:
        return str(obj.get_absolute_url())


class StandingRowOut(Schema):
    position: int
    tied: bool
    team: TeamRef
    played: int
    won: int
    drawn: int
    lost: int
    games_for: int
    games_against: int
    games_diff: int
    tables_won: int
    pegs_for: int
    pegs_against: int
    pegs_diff: int
    hang_jacks_for: int
    hang_jacks_against: int
    adjustments: int
    points: int
    provisional: int
    withdrawn: bool = Field(
        description="The team has withdrawn from the division (the pages read its name with "
        '"(withdrawn)"); its place is at the foot of the table.'
    )


#: The figures a league's table can show (``columns`` names them; every row has each).
Column = Annotated[
    str,
    WithJsonSchema(
        {"type": "string", "enum": sorted({key for keys in COLUMNS.values() for key in keys})}
    ),
]


class StandingsOut(Schema):
    division: DivisionRef
    rule_text: str
    columns: list[Column] = Field(
        description="The figures the league's table shows, in its order: each names a field "
        "of every row (a Yorkshire league shows pegs, a Trinidad league hang jacks). Where its "
        "format plays one game a table, games_for and tables_won are the same figure: one of "
        "them is shown, the one its tie-breaks name (games_for where they name neither)."
    )
    rows: list[StandingRowOut]


#: A result imported from the league's own records gives its match points and games alone.
IMPORTED = "a result imported from the league's own records (its match points and games alone)"
#: What each figure a result may not have recorded is, and when it is null (never 0 then).
TABLES_WON = (
    f"Tables won; null where nobody recorded them: for {IMPORTED} whose games do not say "
    "them (a Trinidad 7–5; a Yorkshire 3–1 in games is 3 tables to 1)."
)
PEGS = (
    f"Points scored (pegged); null where nobody recorded them: for {IMPORTED}, a walkover, "
    "or one whose every table's score card gave the games without their scores. Where only "
    "some tables' cards gave them, the points of those tables."
)
HANG_JACKS = f"Hang jacks; null where nobody recorded them: for {IMPORTED}, or a walkover."


class ResultOut(Schema):
    outcome: str
    walkover: bool
    provisional: bool
    home_tables: int | None = Field(description=TABLES_WON)
    away_tables: int | None = Field(description=TABLES_WON)
    tables_halved: int | None = Field(description=TABLES_WON)
    home_games: int
    away_games: int
    home_pegs: int | None = Field(description=PEGS)
    away_pegs: int | None = Field(description=PEGS)
    home_hang_jacks: int | None = Field(description=HANG_JACKS)
    away_hang_jacks: int | None = Field(description=HANG_JACKS)
    home_match_points: int
    away_match_points: int
    home_points: int
    away_points: int


RESULT_FIGURES = tuple(
    name for name in ResultOut.model_fields if name.startswith(("home_", "away_", "tables_"))
)


def result_out(fixture: Fixture) -> dict[str, Any] | None:
    """The fixture's result when it is one of the results that count, else nothing."""
    result: FixtureResult | None = getattr(fixture, "result", None)
    if result is None or not getattr(fixture, "result_counts", False):
        return None
    unknown = not_recorded(result)
    figures = {name: None if name in unknown else getattr(result, name) for name in RESULT_FIGURES}
    return figures | {
        "outcome": result.outcome,
        "walkover": result.is_walkover,
        "provisional": fixture.status == Fixture.Status.PLAYED and not result.confirmed,
    }


class FixtureOut(Schema):
    id: int
    kind: str
    date: datetime.date = Field(description="The date, local to the league (``time_zone``).")
    time: LocalTime
    starts_at: datetime.datetime = Field(
        description="The start as ISO 8601 with its UTC offset in the league's zone "
        "(2025-07-10T19:30:00-04:00 is 23:30 UTC).",
        examples=["2025-07-10T19:30:00-04:00"],
    )
    time_zone: str = Field(
        description="The league's IANA time zone, in which ``date`` and ``time`` are local.",
        examples=["America/Port_of_Spain"],
    )
    status: str
    round: int | None
    division: DivisionRef
    home: TeamRef
    away: TeamRef
    venue: VenueOut
    walkover_to: str
    walkover_pending: bool = Field(
        description="A walkover given ahead of its night (a team withdrew or conceded): it "
        "counts, and ``result`` is given, once its date has come."
    )
    original_date: datetime.date | None
    reason: str
    result: ResultOut | None
    page: str

    @staticmethod
    def resolve_result(obj: Any) -> dict[str, Any] | None:
        return result_out(obj)

    @staticmethod
    def resolve_starts_at(obj: Any) -> datetime.datetime:
        return obj.starts_at  # type: ignore[no-any-return]

    @staticmethod
    def resolve_time_zone(obj: Any) -> str:
        return str(obj.division.season.league.time_zone)

    @staticmethod
    def resolve_page(obj: Any) -> str:
        return str(obj.get_absolute_url())


class PlayerRef(Schema):
    id: int
    name: str
    label: str = Field(
        description="How pages show the player: the name, with their team when someone else in "
        'the league has the same name ("Linda Dyson (Black Bull)"; see the README)'
    )


#: A player's figure only hands give, which a score card does not.
FROM_HANDS = (
    "From the hands scored at the player's tables; null where nobody recorded it: every "
    "table of theirs was entered from the score card, which gives the games and hang jacks "
    "alone."
)


class PlayerStatisticsOut(Schema):
    player: PlayerRef
    games_played: int
    games_won: int
    games_lost: int
    win_percentage: float | None
    highs: int | None = Field(description=FROM_HANDS)
    lows: int | None = Field(description=FROM_HANDS)
    jacks: int | None = Field(description=FROM_HANDS)
    hang_jacks_taken: int
    hang_jacks_given: int
    game_points: int | None = Field(description=FROM_HANDS)
    kicks: int | None = Field(description=FROM_HANDS)
    all_fours: int | None = Field(description=FROM_HANDS)


class ErrorOut(Schema):
    detail: str
