"""Importing the fixture list (and results already played) with the people's spreadsheet:
``date``, ``time`` (optional), ``division``, ``home``, ``away``, ``venue`` (optional) and,
for a match already played, ``home_score`` and ``away_score``: its match points as the season's
format gives them (8–2 in a Yorkshire league of four tables worth 2 and a bonus of 2; in a
Trinidad league one match point is one game won, so 7–5 is bullseyes 7–5), and, where the match
points do not say how many games each side won (a Yorkshire 8–2 is 4–0 or 3–1),
``home_games`` and ``away_games``: the standings count them.

The scores are checked by the match engine (``leagues.match.points_result``: no other code
knows what a format's matches can end with, nor the games they say) and saved as results that
count, with the games won they say: the fixture
played, its result stored, and a submission confirmed as imported, each audited. A fixture
already in the season (same teams, same date) is the same fixture: importing again changes
nothing.
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils import timezone

from config.inputs import one_spaced
from leagues import match
from leagues.audit import audit_log
from leagues.bookings import Booked, clashes
from leagues.days import long_date
from leagues.models import (
    AuditEntry,
    ConfirmedAs,
    Fixture,
    FixtureResult,
    League,
    ResultSubmission,
    Season,
    Venue,
    venue_words,
)
from leagues.selectors.fixtures import NO_MATCH_ON_THE_NIGHT
from leagues.services.confirmation import result_figures
from leagues.services.fixtures import fixture_add
from leagues.services.results import result_store
from leagues.sheets import Problem, Sheet, table
from leagues.tiebreaks import games_word
from leagues.typed_dates import DATE_EXAMPLE, parse_date, read_date
from scoring.actors import Account
from scoring.sheet import join_words

if TYPE_CHECKING:
    from leagues.services.league_import import Plan as PeoplePlan

REQUIRED = ("date", "division", "home", "away")
OPTIONAL = ("time", "venue", "home_score", "away_score", "home_games", "away_games")


def _key(name: str) -> str:
    return one_spaced(name).casefold()


#: Quotes a venue's name may stand in, straight or curly, in a new venue's text.
_QUOTES = {'"': '"', "“": "”"}


def venue_parts(text: str) -> tuple[str, str]:
    """The name and town of a venue an import creates from ``text``, read as every page writes
    a venue (``models.venue_words``): "Stars Bar, Batley" is Stars Bar in Batley; "Stars Bar"
    has no town; a name with a comma in it is written in quotes, "“Coach, Horses”, Batley" (or
    its town given in a column of its own, ``venue_text``). Raises ``ValueError``, saying how to
    write it, for text that cannot be read one way only: two commas and no quotes, or a quote
    left open."""
    text = one_spaced(text)
    close = _QUOTES.get(text[:1])
    if close is not None:
        end = text.find(close, 1)
        name, rest = text[1:end].strip(), text[end + 1 :].strip()
        town = rest[1:].strip() if rest.startswith(",") else None
        if end < 0 or not name or town is None and rest or town == "" or "," in (town or ""):
            raise ValueError(
                f"“{text}”: write a venue's name in quotes and then its town, as "
                f"“{VENUE_EXAMPLE}” (or the name alone in quotes)."
            )
        return name, town or ""
    if text.count(",") > 1:
        raise ValueError(
            f"“{text}” has {text.count(',')} commas: which part is the venue's town? Write a name "
            f"with a comma in it in quotes, as “{VENUE_EXAMPLE}”, or give the town in a column "
            "headed “town”."
        )
    name, comma, town = text.partition(",")
    if comma and name.strip() and town.strip():
        return name.strip(), town.strip()
    return text, ""


def venue_written(text: str) -> list[str]:
    """The ways ``text`` may write a venue: as it stands, and as its pages would write the
    venue ``venue_parts`` reads in it (a name in quotes: "“Coach, Horses”, Batley" is
    "Coach, Horses, Batley")."""
    try:
        return [text, venue_words(*venue_parts(text))]
    except ValueError:
        return [text]


#: A new venue whose name has a comma, written so its town reads one way only.
VENUE_EXAMPLE = '"Coach, Horses", Batley'


def venue_text(name: str, town: str) -> str:
    """A venue's text as ``venue_parts`` reads it back, from a file's venue cell and town cell
    (the file has a town column: the venue cell is its name whole, commas and all)."""
    name, town = one_spaced(name), one_spaced(town)
    if not name:
        return ""
    written = f'"{name}"' if "," in name else name
    return f"{written}, {town}" if town else written


#: How alike (``difflib.SequenceMatcher.ratio``) a new venue's text and a known venue's must be
#: for the import to ask whether the known one was meant: "Rum Shop Corna" and "Rum Shop
#: Corner" are 0.90 alike, "Red Lion Inn" and "Red Lion" 0.80, "The Fleece Inn" and "The
#: Feathers Inn" 0.73 (two pubs).
LIKE = 0.8


class KnownVenues:
    """The league's venues as a file names them: as every page writes one, "Woolpack, Batley"
    (``str(venue)``: its name and town), or by its name alone when no other venue of the league
    has that name. The people's and the fixtures' imports both read a venue cell with it; the
    venues an import creates (``add``) are read the same way as the league's own."""

    def __init__(self, venues: Iterable[Venue]) -> None:
        self.written: dict[str, Venue] = {}
        self.named: dict[str, list[Venue]] = {}
        for venue in venues:
            self._know(venue)

    def _know(self, venue: Venue) -> None:
        self.written[_key(str(venue))] = venue
        self.named.setdefault(_key(venue.name), []).append(venue)

    def add(self, text: str, matches_a_night: int | None = None) -> Venue:
        """The venue ``text`` names, or, naming none, the one the import creates from it
        (``venue_parts``, which the plan has read already; not saved, with its own
        ``matches_a_night``), known from now on as the league's own are: a fixture's row
        naming "Stars Bar" finds the Stars Bar the people's file creates as "Stars Bar,
        Batley". A name several venues share is for ``which`` to refuse first."""
        venue = self.get(text)
        if venue is None:
            name, town = venue_parts(text)
            venue = Venue(name=name, town=town, matches_a_night=matches_a_night)
            self._know(venue)
        return venue

    def get(self, text: str) -> Venue | None:
        """The venue ``text`` names (None: none, or more than one by name alone), written as
        its pages write it or as ``venue_parts`` reads it (a name in quotes)."""
        keys = [_key(written) for written in venue_written(text)]
        for key in keys:
            if key in self.written:
                return self.written[key]
        named = self.named.get(keys[-1], [])
        return named[0] if len(named) == 1 else None

    def which(self, text: str) -> str:
        """Why ``text`` names no one venue when several have that name ("" otherwise)."""
        named = self.named.get(_key(venue_written(text)[-1]), [])
        if self.get(text) is not None or len(named) < 2:
            return ""
        return (
            f"The league has {len(named)} venues called {named[0].name} "
            f"({join_words(sorted(str(venue) for venue in named))}): write which, as its "
            "pages do."
        )

    def like(self, text: str) -> Venue | None:
        """The venue known that ``text``, naming none, most likely meant ("Rum Shop Corna" for
        Rum Shop Corner; "Woolpak" for "Woolpack, Batley"): as written whole, or by its name,
        at least ``LIKE`` alike (``difflib``'s ratio); a venue of the same name in another
        town, written so, is a venue of its own. None where no venue is that alike."""
        written = venue_written(text)[-1]
        try:
            name = _key(venue_parts(text)[0])
        except ValueError:
            name = ""
        found, best = None, LIKE
        for venue in self.written.values():
            pairs = [(_key(written), _key(str(venue)))]
            if name and name != _key(venue.name):
                pairs.append((name, _key(venue.name)))
            for typed, known in pairs:
                alike = difflib.SequenceMatcher(None, typed, known).ratio()
                if alike >= best:
                    found, best = venue, alike
        return found

    def ident(self, text: str) -> str:
        """What a clash compares ``text`` by: the venue it names (one the import creates by
        how every page will write it), else the words."""
        venue = self.get(text)
        if venue is None:
            return _key(text)
        return f"#{venue.pk}" if venue.pk is not None else _key(str(venue))

    def names(self) -> dict[str, str]:
        """Each venue known, by its ``ident``: as every page names it."""
        return {self.ident(written): str(venue) for written, venue in self.written.items()}


TIME_EXAMPLE = "20:00, 20.30, 8pm or 8.30pm"
#: The dates and times a fixtures file may give (``read_date``, ``read_time``), as the import
#: page's help says them, in the examples its refusals give.
DATES_AND_TIMES = (
    f"Dates day first: {DATE_EXAMPLE} (a date with no year, or a weekday that is not the "
    f"date's, is refused). Times: {TIME_EXAMPLE}; a bare “8”, or “7.30” without its leading "
    "zero or pm, could be morning or evening and is refused (“07:30” is the morning)."
)


def scores_help(fmt: match.MatchFormat, style: str) -> str:
    """What a played match's two figures are in a league of ``style`` playing ``fmt``, as the
    import page says it: its match points (the format described), and the games won they say
    (a Trinidad league's 7–5 is bullseyes 7–5) or, where they leave them open (a Yorkshire 8–2
    is 4–0 or 3–1 in games), the columns that give them. The engine says which."""
    games = games_word(style)
    said = (
        "home_score and away_score: the match points each side took, as the season's format "
        f"gives them ({fmt.describe().rstrip('.')})."
    )
    left_open = match.games_left_open(fmt)
    if left_open:
        (home, away), could = left_open[0]
        either = " or ".join(f"{h}–{a}" for h, a in could)
        return (
            f"{said} Where they do not say how many {games} each side won ({home}–{away} could "
            f"be {either}), give them in home_games and away_games: the standings count them."
        )
    wins = [p for p in match.possible_match_points(fmt) if p[0] > p[1]]
    if not wins:
        return said
    home, away = min(wins, key=lambda p: (p[0] - p[1], p))
    (won, lost) = match.games_for_points(fmt, home, away)[0]
    return f"{said} They say the {games} each side won: {home}–{away} is {games} {won}–{lost}."


_TIME_24 = re.compile(r"^(\d{1,2})[:.](\d{2})(?::\d{2})?$")
_TIME_12 = re.compile(r"^(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s*m\.?$", re.IGNORECASE)


def read_time(text: str) -> tuple[datetime.time | None, str]:
    """A time as a British spreadsheet writes it (20:00, 20.30, 8pm, 8.30pm, 8:30 p.m.), or
    why it is not one. A bare hour ("8"), or an hour before noon written without its leading
    zero or am/pm ("7.30", as a club's card writes its evening), could be morning or evening:
    refused ("07:30", as an XLSX file's time cell reads, is the morning)."""
    text = text.strip()
    wrong = f"“{text}” is not a time: write it as {TIME_EXAMPLE}."
    ambiguous = f"“{text}” could be morning or evening: write {TIME_EXAMPLE}."
    if found := _TIME_24.match(text):
        hour, minute = int(found.group(1)), int(found.group(2))
        if hour > 23 or minute > 59:
            return None, wrong
        if 1 <= hour <= 11 and not text.startswith("0"):
            return None, ambiguous
        return datetime.time(hour, minute), ""
    if found := _TIME_12.match(text):
        hour, minute = int(found.group(1)), int(found.group(2) or 0)
        if not 1 <= hour <= 12 or minute > 59:
            return None, f"“{text}”: am and pm go with an hour from 1 to 12: write {TIME_EXAMPLE}."
        hour = hour % 12 + (12 if found.group(3).casefold() == "p" else 0)
        return datetime.time(hour, minute), ""
    if text.isdigit() and int(text) <= 12:
        return None, ambiguous
    return None, wrong


def parse_time(text: str) -> datetime.time | None:
    return read_time(text)[0]


@dataclass
class Row:
    number: int
    date: datetime.date
    time: datetime.time | None
    division: str
    home: str
    away: str
    venue: str
    score: tuple[int, int] | None
    existing: Fixture | None = None
    games: tuple[int, int] | None = None
    """The games (bullseyes) won, where the file gives them."""


@dataclass
class FixturesPlan:
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    create: dict[str, list[str]] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)


@dataclass
class FixturesImport:
    """The fixtures' sheet, to plan against the league and the people's plan, then to save."""

    sheet: Sheet

    def plan(
        self,
        *,
        league: League,
        people: PeoplePlan,
        season: Season | None,
        starts: datetime.date | None = None,
    ) -> FixturesPlan:
        """``starts``: a new season's first day (None: the league's today)."""
        return _plan(self.sheet, league, people, season, starts)

    def first_date(self) -> datetime.date | None:
        """The earliest date the sheet's rows give (None without one)."""
        return min(filter(None, (parse_date(row["date"]) for row in self.sheet.rows)), default=None)

    def apply(self, plan: FixturesPlan, *, league: League, season: Season, by: Account) -> None:
        _apply(plan, self.sheet, league, season, by)


def read_fixtures(rows: list[list[str]], *, name: str = "", separator: str = "") -> Sheet:
    return table(rows, name=name, required=REQUIRED, optional=OPTIONAL, separator=separator)


def _score(
    plan: FixturesPlan,
    sheet: Sheet,
    row_number: int,
    home: str,
    away: str,
    *,
    figure: str = "score",
    of: str = "match points",
) -> tuple[int, int] | None | bool:
    """The row's score, its columns ``home_score`` and ``away_score``, a whole number of ``of``
    each; or (``figure`` "games") its games won, ``home_games`` and ``away_games``. None
    without one; False when it is wrong (a problem is noted)."""
    if not home and not away:
        return None
    what, both = ("A score is", "scores") if figure == "score" else ("Games won are", "")
    if not home or not away:
        missing = f"home_{figure}" if not home else f"away_{figure}"
        words = f"Give both {both}, or neither." if both else f"Give both sides' {of}, or neither."
        _problem(plan, sheet, words, row_number, missing)
        return False
    try:
        values = int(home), int(away)
    except ValueError:
        column = f"home_{figure}" if not home.isdigit() else f"away_{figure}"
        _problem(plan, sheet, f"{what} a whole number of {of}.", row_number, column)
        return False
    if min(values) < 0:
        _problem(plan, sheet, f"{what} never below 0.", row_number, f"home_{figure}")
        return False
    return values


def _problem(plan: FixturesPlan, sheet: Sheet, message: str, row: int, column: str = "") -> None:
    plan.problems.append(Problem(message, row, sheet.column(column) if column else "", sheet.name))


def _plan(
    sheet: Sheet,
    league: League,
    people: PeoplePlan,
    season: Season | None,
    starts: datetime.date | None,
) -> FixturesPlan:
    plan = FixturesPlan(problems=list(sheet.problems), create={"fixtures": [], "results": []})
    fmt = season.get_match_format() if season else league.get_match_format()
    divisions = {_key(d.name): d.name for d in season.divisions.all()} if season else {}
    divisions.update({_key(name): name for name in people.divisions})
    teams_in: dict[str, str] = {}  # team key -> division key
    names: dict[str, str] = {}
    withdrawn: dict[str, datetime.date] = {}
    if season is not None:
        for entry in season.entries.select_related("team", "division"):
            teams_in[_key(entry.team.name)] = _key(entry.division.name)
            names[_key(entry.team.name)] = entry.team.name
            if entry.withdrawn_on is not None:
                withdrawn[_key(entry.team.name)] = entry.withdrawn_on
    for key, team in people.teams.items():
        if team.division:
            teams_in.setdefault(key, _key(team.division))
            names.setdefault(key, team.name)
    known = KnownVenues(league.venues.all())
    for venue in people.venues:
        known.add(venue, people.venue_rooms.get(venue))
    venue_names = known.names()
    # Where each team plays at home once the people's file is imported.
    home_venues = {
        _key(t.name): f"#{t.home_venue_id}" for t in league.teams.select_related("home_venue")
    }
    home_venues.update({k: known.ident(t.venue) for k, t in people.teams.items() if t.venue})
    existing: dict[tuple[str, str, datetime.date], Fixture] = {}
    # The season's fixtures as the rules for adding one read them (``leagues.bookings``, the
    # rules ``fixture_add`` refuses by when the import is confirmed), keyed by name: the file's
    # rows join them one by one.
    booked: list[Booked] = []
    if season is not None:
        for fixture in Fixture.objects.filter(division__season=season).select_related(
            "home", "away", "venue", "division", "result"
        ):
            existing[(_key(fixture.home.name), _key(fixture.away.name), fixture.date)] = fixture
            if fixture.status != Fixture.Status.VOID:
                booked.append(
                    Booked(
                        fixture.date,
                        _key(fixture.home.name),
                        _key(fixture.away.name),
                        ("venue", f"#{fixture.venue_id}"),
                        f"{fixture.home} v {fixture.away}",
                        _key(fixture.division.name)
                        if fixture.kind == Fixture.Kind.LEAGUE
                        else None,
                        on_the_night=fixture.status not in NO_MATCH_ON_THE_NIGHT,
                    )
                )
    calendar = _Calendar.of(season, starts or league.today())
    capacity = season.venue_capacity if season is not None else 1
    # A venue with its own number of matches a night (``Venue.matches_in``) is held to it, as
    # is a venue the import creates with one (the people's file's matches_a_night); the others
    # to the season's.
    rooms = {
        known.ident(str(v)): v.matches_a_night for v in known.written.values() if v.matches_a_night
    }
    # And to the dates it is closed (``Venue.closed``), as adding a fixture is.
    shut = {known.ident(str(v)): v.closed_ranges for v in known.written.values() if v.closed}
    seen: dict[tuple[str, str, datetime.date], int] = {}
    today = league.today()
    #: What the league calls a game won, as its pages say it: "games", "bullseyes".
    games_said = games_word(league.style)
    for raw in sheet.rows:
        n = raw.number
        problems = len(plan.problems)
        date, why = read_date(raw["date"])
        if date is None:
            _problem(plan, sheet, why, n, "date")
        time, why = read_time(raw["time"]) if raw["time"] else (None, "")
        if raw["time"] and time is None:
            _problem(plan, sheet, why, n, "time")
        division = _key(raw["division"])
        if division not in divisions:
            _problem(
                plan,
                sheet,
                f"Unknown division “{raw['division']}”"
                + (
                    f": the season has {', '.join(sorted(divisions.values()))}."
                    if divisions
                    else "."
                ),
                n,
                "division",
            )
        for side in ("home", "away"):
            team = _key(raw[side])
            if not team:
                _problem(plan, sheet, f"No {side} team.", n, side)
            elif team not in teams_in:
                _problem(plan, sheet, f"Unknown team “{raw[side]}”.", n, side)
            elif division in divisions and teams_in[team] != division:
                _problem(
                    plan,
                    sheet,
                    f"{names[team]} is not in {divisions[division]} this season.",
                    n,
                    side,
                )
        if raw["home"] and _key(raw["home"]) == _key(raw["away"]):
            _problem(plan, sheet, "A team cannot play itself.", n, "away")
        if raw["venue"] and known.get(raw["venue"]) is None:
            like = known.like(raw["venue"])
            why = known.which(raw["venue"]) or f"Unknown venue “{raw['venue']}”." + (
                f" Did you mean {like}?" if like is not None else ""
            )
            _problem(plan, sheet, why, n, "venue")
        score = _score(plan, sheet, n, raw["home_score"], raw["away_score"])
        games = _score(
            plan, sheet, n, raw["home_games"], raw["away_games"], figure="games", of=games_said
        )
        if games and not score:
            if score is None:
                _problem(plan, sheet, "Games won without the score.", n, "home_score")
            games = False
        if score and date and date > today:
            _problem(plan, sheet, "A result for a match not yet played.", n, "home_score")
            score = False
        if score and games is not False:
            given = games if isinstance(games, tuple) else None
            try:
                match.points_result(fmt, *score, games=given)
            except match.CardError as exc:
                open_games = given is None and len(match.games_for_points(fmt, *score)) > 1
                why = " ".join(exc.messages)
                if open_games:
                    why += (
                        f" Give the {games_said} each side won in the home_games and "
                        "away_games columns: the standings count them."
                    )
                column = "home_games" if open_games or given else "home_score"
                _problem(plan, sheet, why, n, column)
                score = False
        if date is None or len(plan.problems) > problems:
            # A row with a problem is in the problems, never in what the import would do.
            continue
        key = (_key(raw["home"]), _key(raw["away"]), date)
        if key in seen:
            _problem(plan, sheet, f"The same fixture as row {seen[key]}.", n, "home")
            continue
        seen[key] = n
        row = Row(n, date, time, raw["division"], raw["home"], raw["away"], raw["venue"], None)
        row.score = score if isinstance(score, tuple) else None
        row.games = games if isinstance(games, tuple) else None
        row.existing = existing.get(key)
        if row.existing is None:
            # A fixture the import adds: the season's dates, and the rules adding one follows.
            outside = calendar.outside(date)
            if outside:
                _problem(plan, sheet, outside, n, "date")
                continue
            if off := calendar.night_off(date):
                plan.warnings.append(
                    Problem(
                        f"{off}: imported on it, as the file says.",
                        n,
                        sheet.column("date"),
                        sheet.name,
                    )
                )
            venue = (
                "venue",
                known.ident(raw["venue"]) if raw["venue"] else home_venues.get(key[0], ""),
            )
            found = clashes(
                booked=booked,
                date=date,
                home=key[0],
                away=key[1],
                venue=venue,
                names={
                    key[0]: names[key[0]],
                    key[1]: names[key[1]],
                    venue: venue_names.get(venue[1], raw["venue"]),
                },
                capacity=rooms.get(venue[1], capacity),
                closed=shut.get(venue[1], ()),
                division=division,
                meetings=fmt.meetings,
                withdrawn=withdrawn,
            )
            for clash in found:
                column = "" if clash.about == "meetings" else clash.about
                _problem(plan, sheet, clash.message, n, column)
            if found:
                continue
            booked.append(
                Booked(
                    date,
                    key[0],
                    key[1],
                    venue,
                    f"{names[key[0]]} v {names[key[1]]}, row {n}",
                    division,
                )
            )
        words = (
            f"{names.get(key[0], raw['home'])} v {names.get(key[1], raw['away'])}, "
            f"{long_date(date)}"
        )
        if row.existing is None:
            # At its time (the league's start time when the file gives none): a time read
            # wrong is seen in the plan, before anything is saved.
            plan.create["fixtures"].append(f"{words}, {time or league.start_time:%H:%M}")
        if row.score is not None:
            stored = _stored_score(row.existing)
            if stored is None:
                result = match.points_result(fmt, *row.score, games=row.games)
                plan.create["results"].append(
                    f"{words}: {row.score[0]}–{row.score[1]} "
                    f"({games_said} {result.home_games}–{result.away_games})"
                )
            elif stored != row.score:
                _problem(
                    plan,
                    sheet,
                    f"{words} has a result already ({stored[0]}–{stored[1]}): change it on the "
                    "fixture's page.",
                    n,
                    "home_score",
                )
                continue
        plan.rows.append(row)
    return plan


@dataclass(frozen=True)
class _Calendar:
    """The season's dates as the import checks a fixture against them."""

    season: Season | None
    starts: datetime.date
    ends: datetime.date | None
    words: str

    @classmethod
    def of(cls, season: Season | None, starts: datetime.date) -> _Calendar:
        if season is not None:
            return cls(
                season, season.starts_on, season.ends_on, f"{season.name} runs {season.dates_words}"
            )
        return cls(None, starts, None, f"the new season starts on {long_date(starts)}")

    def outside(self, day: datetime.date) -> str:
        """Why a fixture on ``day`` is refused: before the season starts or after it ends."""
        if day < self.starts:
            where = "before the season starts"
        elif self.ends is not None and day > self.ends:
            where = "after the season ends"
        else:
            return ""
        return (
            f"{long_date(day)} is {where} ({self.words}): import it into the season it is in, "
            "or put the season's dates right first."
        )

    def night_off(self, day: datetime.date) -> str:
        return self.season.calendar_problem(day) if self.season is not None else ""


def _stored_score(fixture: Fixture | None) -> tuple[int, int] | None:
    if fixture is None:
        return None
    result = FixtureResult.objects.filter(fixture=fixture, is_final=True).first()
    if result is None:
        return None
    return result.home_match_points, result.away_match_points


class RowRefused(ValidationError):
    """Saving a row's fixture was refused: its problems name the sheet and the row."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__([str(problem) for problem in problems])


def _apply(plan: FixturesPlan, sheet: Sheet, league: League, season: Season, by: Account) -> None:
    divisions = {_key(d.name): d for d in season.divisions.all()}
    teams = {_key(t.name): t for t in league.teams.select_related("home_venue")}
    venues = KnownVenues(league.venues.all())
    fmt = season.get_match_format()
    calendar = _Calendar.of(season, season.starts_on)
    for row in plan.rows:
        fixture = row.existing
        if fixture is None:
            # A night with no league is imported as the file says (the check noted it); the
            # season's own dates are the check's refusal, and adding the fixture's.
            off = "" if calendar.outside(row.date) else calendar.night_off(row.date)
            try:
                fixture = fixture_add(
                    division=divisions[_key(row.division)],
                    home=teams[_key(row.home)],
                    away=teams[_key(row.away)],
                    date=row.date,
                    time=row.time,
                    venue=venues.get(row.venue) if row.venue else None,
                    outside_calendar=bool(off),
                    reason=f"imported as {sheet.name or 'the file'} gives it (row {row.number})"
                    if off
                    else "",
                    by=by,
                )
            except ValidationError as exc:
                # The check runs fixture_add's own rules (``leagues.bookings``): this is only
                # a change made between the check and the save. Said by row all the same.
                raise RowRefused(
                    [Problem(message, row.number, "", sheet.name) for message in exc.messages]
                ) from exc
        if row.score is not None and _stored_score(fixture) is None:
            result = match.points_result(fmt, *row.score, games=row.games)
            _save_result(fixture, result, league, by)


def _save_result(fixture: Fixture, result: match.MatchResult, league: League, by: Account) -> None:
    """The imported result, counted: the fixture played, the figures stored, a submission
    confirmed as imported (no captain or secretary agreed it here: the league's records did)."""
    stored = result_store(fixture=fixture, result=result, imported=True)
    fixture.status = Fixture.Status.PLAYED
    fixture.save(update_fields=["status", "updated_at"])
    user = by if getattr(by, "is_authenticated", False) else None
    now = timezone.now()
    ResultSubmission.objects.create(
        fixture=fixture,
        status=ResultSubmission.Status.CONFIRMED,
        figures=result_figures(stored),
        submitted_by=user,
        submitted_at=now,
        confirmed_at=now,
        confirmed_as=ConfirmedAs.IMPORTED,
    )
    audit_log(
        league=league,
        fixture=fixture,
        action=AuditEntry.Action.RESULT_IMPORTED,
        subject=f"{fixture.home} v {fixture.away}: "
        f"{result.home_match_points}–{result.away_match_points} imported",
        after=result_figures(stored),
        by=by,
    )
    # What follows a counted result (a cup tie, the standings, the cached pages), as for any.
    from leagues.services.rollup import FixtureChanged, roll_up

    roll_up(FixtureChanged(fixture=fixture, recount=False))
