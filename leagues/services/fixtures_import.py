"""Importing the fixture list (and results already played) with the people's spreadsheet:
``date``, ``time`` (optional), ``division``, ``home``, ``away``, ``venue`` (optional) and,
for a match already played, ``home_score`` and ``away_score``: its match points as the season's
format gives them (8–2 in a Yorkshire league of four tables worth 2 and a bonus of 2).

The scores are checked by the match engine (``leagues.match.points_result``: no other code
knows what a format's matches can end with) and saved as results that count: the fixture
played, its result stored, and a submission confirmed as imported, each audited. A fixture
already in the season (same teams, same date) is the same fixture: importing again changes
nothing.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils import timezone

from config.inputs import one_spaced
from leagues import match
from leagues.audit import audit_log
from leagues.days import long_date
from leagues.models import ConfirmedAs, Fixture, FixtureResult, League, ResultSubmission, Season
from leagues.services.confirmation import result_figures
from leagues.services.fixtures import fixture_add
from leagues.sheets import Problem, Sheet, table
from scoring.actors import Account

if TYPE_CHECKING:
    from leagues.services.league_import import Plan as PeoplePlan

REQUIRED = ("date", "division", "home", "away")
OPTIONAL = ("time", "venue", "home_score", "away_score")

_DAY_FIRST = re.compile(r"^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})$")


def _key(name: str) -> str:
    return one_spaced(name).casefold()


def parse_date(text: str) -> datetime.date | None:
    """A date as a British spreadsheet writes it: 2025-09-02, 2/9/2025, 02.09.25."""
    text = text.strip().split(" ")[0]
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    found = _DAY_FIRST.match(text)
    if not found:
        return None
    day, month, year = (int(part) for part in found.groups())
    if year < 100:
        year += 2000
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def parse_time(text: str) -> datetime.time | None:
    found = re.match(r"^(\d{1,2})[:.](\d{2})(?::\d{2})?$", text.strip())
    if not found:
        return None
    hour, minute = int(found.group(1)), int(found.group(2))
    if hour > 23 or minute > 59:
        return None
    return datetime.time(hour, minute)


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


@dataclass
class FixturesPlan:
    problems: list[Problem] = field(default_factory=list)
    create: dict[str, list[str]] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)


@dataclass
class FixturesImport:
    """The fixtures' sheet, to plan against the league and the people's plan, then to save."""

    sheet: Sheet

    def plan(self, *, league: League, people: PeoplePlan, season: Season | None) -> FixturesPlan:
        return _plan(self.sheet, league, people, season)

    def apply(self, plan: FixturesPlan, *, league: League, season: Season, by: Account) -> None:
        _apply(plan, league, season, by)


def read_fixtures(rows: list[list[str]], *, name: str = "") -> Sheet:
    return table(rows, name=name, required=REQUIRED, optional=OPTIONAL)


def _score(
    plan: FixturesPlan, sheet: Sheet, row_number: int, home: str, away: str
) -> tuple[int, int] | None | bool:
    """The row's score; None without one; False when it is wrong (a problem is noted)."""
    if not home and not away:
        return None
    if not home or not away:
        missing = "home_score" if not home else "away_score"
        _problem(plan, sheet, "Give both scores, or neither.", row_number, missing)
        return False
    try:
        values = int(home), int(away)
    except ValueError:
        column = "home_score" if not home.isdigit() else "away_score"
        _problem(plan, sheet, "A score is a whole number of match points.", row_number, column)
        return False
    if min(values) < 0:
        _problem(plan, sheet, "A score is never below 0.", row_number, "home_score")
        return False
    return values


def _problem(plan: FixturesPlan, sheet: Sheet, message: str, row: int, column: str = "") -> None:
    plan.problems.append(Problem(message, row, sheet.column(column) if column else "", sheet.name))


def _plan(sheet: Sheet, league: League, people: PeoplePlan, season: Season | None) -> FixturesPlan:
    plan = FixturesPlan(problems=list(sheet.problems), create={"fixtures": [], "results": []})
    fmt = season.get_match_format() if season else league.get_match_format()
    divisions = {_key(d.name): d.name for d in season.divisions.all()} if season else {}
    divisions.update({_key(name): name for name in people.divisions})
    teams_in: dict[str, str] = {}  # team key -> division key
    names: dict[str, str] = {}
    if season is not None:
        for entry in season.entries.select_related("team", "division"):
            teams_in[_key(entry.team.name)] = _key(entry.division.name)
            names[_key(entry.team.name)] = entry.team.name
    for key, team in people.teams.items():
        if team.division:
            teams_in.setdefault(key, _key(team.division))
            names.setdefault(key, team.name)
    venues = {_key(v.name) for v in league.venues.all()} | {_key(v) for v in people.venues}
    existing: dict[tuple[str, str, datetime.date], Fixture] = {}
    if season is not None:
        for fixture in Fixture.objects.filter(division__season=season).select_related(
            "home", "away", "result"
        ):
            existing[(_key(fixture.home.name), _key(fixture.away.name), fixture.date)] = fixture
    seen: dict[tuple[str, str, datetime.date], int] = {}
    today = league.today()
    for raw in sheet.rows:
        n = raw.number
        problems = len(plan.problems)
        date = parse_date(raw["date"])
        if date is None:
            _problem(plan, sheet, f"“{raw['date']}” is not a date (e.g. 2025-09-02).", n, "date")
        time = parse_time(raw["time"]) if raw["time"] else None
        if raw["time"] and time is None:
            _problem(plan, sheet, f"“{raw['time']}” is not a time (e.g. 20:00).", n, "time")
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
        if raw["venue"] and _key(raw["venue"]) not in venues:
            _problem(plan, sheet, f"Unknown venue “{raw['venue']}”.", n, "venue")
        score = _score(plan, sheet, n, raw["home_score"], raw["away_score"])
        if score and date and date > today:
            _problem(plan, sheet, "A result for a match not yet played.", n, "home_score")
            score = False
        if score:
            try:
                match.points_result(fmt, *score)
            except match.CardError as exc:
                _problem(plan, sheet, " ".join(exc.messages), n, "home_score")
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
        row.existing = existing.get(key)
        words = (
            f"{names.get(key[0], raw['home'])} v {names.get(key[1], raw['away'])}, "
            f"{long_date(date)}"
        )
        if row.existing is None:
            plan.create["fixtures"].append(words)
        if row.score is not None:
            stored = _stored_score(row.existing)
            if stored is None:
                plan.create["results"].append(f"{words}: {row.score[0]}–{row.score[1]}")
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


def _stored_score(fixture: Fixture | None) -> tuple[int, int] | None:
    if fixture is None:
        return None
    result = FixtureResult.objects.filter(fixture=fixture, is_final=True).first()
    if result is None:
        return None
    return result.home_match_points, result.away_match_points


def _apply(plan: FixturesPlan, league: League, season: Season, by: Account) -> None:
    divisions = {_key(d.name): d for d in season.divisions.all()}
    teams = {_key(t.name): t for t in league.teams.select_related("home_venue")}
    venues = {_key(v.name): v for v in league.venues.all()}
    fmt = season.get_match_format()
    for row in plan.rows:
        fixture = row.existing
        if fixture is None:
            fixture = fixture_add(
                division=divisions[_key(row.division)],
                home=teams[_key(row.home)],
                away=teams[_key(row.away)],
                date=row.date,
                time=row.time,
                venue=venues.get(_key(row.venue)) if row.venue else None,
                by=by,
            )
        if row.score is not None and _stored_score(fixture) is None:
            _save_result(fixture, match.points_result(fmt, *row.score), league, by)


def _save_result(fixture: Fixture, result: match.MatchResult, league: League, by: Account) -> None:
    """The imported result, counted: the fixture played, the figures stored, a submission
    confirmed as imported (no captain or secretary agreed it here: the league's records did)."""
    stored, _ = FixtureResult.objects.update_or_create(fixture=fixture, defaults=result.figures())
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
        action="result_imported",
        subject=f"{fixture.home} v {fixture.away}: "
        f"{result.home_match_points}–{result.away_match_points} imported",
        after=result_figures(stored),
        by=by,
    )
    # What follows a counted result (a cup tie, the standings, the cached pages), as for any.
    from leagues.services.rollup import FixtureChanged, roll_up

    roll_up(FixtureChanged(fixture=fixture, recount=False))
