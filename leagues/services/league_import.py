"""Importing a league from the spreadsheet its secretary already has: one row per player with
``division``, ``team``, ``venue``, ``player``, ``captain`` and ``email`` columns, and for a
venue the file creates ``town`` and ``matches_a_night`` (docs/importing-venues.md).

``people_plan`` reads the file against the league as it is and says what an import would create
or change (divisions, venues, teams and their entries, people and their registrations, captains,
invitations to captains with an e-mail), every problem by row and column, and every question:
a row naming someone who may be a person the league already has asks which, it never refuses
the batch nor makes a second record by accident. ``league_import`` saves a plan with no problem
and no open question, all or nothing, through the services that own each change (each audited),
then mails the captains' invitations. Importing the same file again changes nothing.

Fixtures (and results already played) come from ``leagues.services.fixtures_import``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.template.defaultfilters import pluralize

from config.inputs import check_name_words, one_spaced
from config.mail import MAIL_ERRORS
from leagues.audit import audit_log
from leagues.days import long_date
from leagues.models import (
    INVITATION_UNANSWERED,
    MOST_MATCHES_A_NIGHT,
    VENUE_MATCHES_A_NIGHT,
    AuditEntry,
    Division,
    Invitation,
    League,
    Player,
    Season,
    Team,
    TeamEntry,
    Venue,
)
from leagues.permissions import can_manage_league, player_is_free
from leagues.selectors.people import LeaguePeople, Listed, named_twice
from leagues.services import invitations, registrations, structure
from leagues.services.fixtures_import import (
    FixturesImport,
    KnownVenues,
    read_fixtures,
    venue_parts,
    venue_text,
    venue_written,
)
from leagues.sheets import MAX_BYTES, Problem, Sheet, read_sheets, table
from scoring.actors import Account
from scoring.forms.words import possessive

logger = logging.getLogger(__name__)

__all__ = ["MAX_BYTES", "ImportRefused", "Plan", "import_plan", "league_import", "read_files"]

PEOPLE_REQUIRED = ("team", "player")
PEOPLE_OPTIONAL = ("division", "venue", "town", "matches_a_night", "captain", "email")
#: What an import creates, in the order a plan lists it.
KINDS = (
    "season",
    "divisions",
    "venues",
    "teams",
    "entries",
    "people",
    "registrations",
    "captains",
    "invitations",
    "fixtures",
    "results",
)
#: How a plan names one and several of each kind ("Create 1 division", "Create 4 people").
KIND_WORDS = {
    "season": ("season", "seasons"),
    "divisions": ("division", "divisions"),
    "venues": ("venue", "venues"),
    "teams": ("team", "teams"),
    "entries": ("team entered in a division", "teams entered in a division"),
    "people": ("person", "people"),
    "registrations": ("registration", "registrations"),
    "captains": ("captain", "captains"),
    "invitations": ("invitation", "invitations"),
    "fixtures": ("fixture", "fixtures"),
    "results": ("result", "results"),
}
YES = {"yes", "y", "x", "1", "true", "captain", "c"}
NO = {"", "no", "n", "0", "false", "-"}


def _key(name: str) -> str:
    return one_spaced(name).casefold()


@dataclass
class Question:
    """A row naming someone the league may already have: which person is it?"""

    row: int
    name: str
    team: str
    choices: list[tuple[str, str]]
    """(answer, label): a player's primary key, or "new" for a new person."""

    @property
    def field(self) -> str:
        return f"person-{self.row}"


@dataclass
class Person:
    """The person a row names: an existing player, or a new one (``player`` None)."""

    row: int
    name: str
    team_key: str
    player: Player | None = None
    captain: bool = False
    email: str = ""
    open: bool = False
    """Unanswered: the row asks which person it is."""


@dataclass
class TeamPlan:
    name: str
    division: str = ""
    venue: str = ""
    matches_a_night: str = ""
    team: Team | None = None
    entry: TeamEntry | None = None
    rows: list[int] = field(default_factory=list)


@dataclass
class Plan:
    """What an import would do, its problems and its questions, in words a secretary reads."""

    season_name: str
    season_starts: datetime.date | None = None
    """The season's first day: a new season's as typed, or the one imported into."""
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    create: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in KINDS})
    change: list[str] = field(default_factory=list)
    # What ``league_import`` needs to carry it out.
    divisions: list[str] = field(default_factory=list)
    venues: list[str] = field(default_factory=list)
    venue_rooms: dict[str, int] = field(default_factory=dict)
    """The matches a night of each new venue given one (``venues``' text: the number)."""
    teams: dict[str, TeamPlan] = field(default_factory=dict)
    people: list[Person] = field(default_factory=list)
    extra: Any = None
    """The fixtures' plan, when a fixtures file came with the people's."""

    def problem(self, sheet: Sheet, message: str, row: int | None = None, column: str = "") -> None:
        """A problem in ``sheet``, by row and column (named as the file heads it)."""
        where = sheet.column(column) if column else ""
        if row is not None and any(
            (p.sheet, p.row, p.column) == (sheet.name, row, where) for p in self.problems
        ):
            return  # one problem a cell: a formula taken out is not also "No player"
        self.problems.append(Problem(message, row, where, sheet.name))

    @property
    def season_words(self) -> str:
        """The season as the plan's summary says it: "A new season, starting Thu 3 Dec 2026."
        or, for one the league has, "The season's first day: Mon 1 Sep 2025."."""
        if self.season_starts is None:
            return ""
        day = long_date(self.season_starts)
        if self.create.get("season"):
            return f"A new season, starting {day}."
        return f"The season's first day: {day}."

    @property
    def ready(self) -> bool:
        return not self.problems and not any(p.open for p in self.people)

    @property
    def changes(self) -> int:
        return sum(len(v) for v in self.create.values()) + len(self.change)

    @property
    def creating(self) -> list[tuple[str, list[str]]]:
        """What it creates, kind by kind, each headed as the page and the command say it:
        ("Create 1 division", [its lines])."""
        return [
            (f"Create {len(lines)} {KIND_WORDS[kind][len(lines) != 1]}", lines)
            for kind, lines in self.create.items()
            if lines
        ]

    @property
    def made_words(self) -> str:
        """What it made, as the message after the import says it: "1 division, 4 teams; 2
        changes" ("" for nothing)."""
        made = ", ".join(
            f"{len(lines)} {KIND_WORDS[kind][len(lines) != 1]}"
            for kind, lines in self.create.items()
            if lines
        )
        changed = f"{len(self.change)} change{pluralize(len(self.change))}" if self.change else ""
        return "; ".join(part for part in (made, changed) if part)

    def digest(self) -> str:
        """A fingerprint of what the secretary was shown: confirming a different plan is
        refused (the league changed between the preview and the confirmation)."""
        # Who each asked-about row is depends on the answers given with the confirmation: the
        # questions themselves are fingerprinted, not their answers.
        shown = {
            "create": {
                k: v for k, v in sorted(self.create.items()) if k not in ("people", "registrations")
            },
            "change": self.change,
            "problems": [str(p) for p in self.problems],
            "questions": [q.row for q in self.questions],
            "rows": [
                (p.row, p.player.pk if p.player and p.player.pk else None)
                for p in self.people
                if not p.open and not _asked(self, p.row)
            ],
        }
        return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:32]


def _asked(plan: Plan, row: int) -> bool:
    return any(q.row == row for q in plan.questions)


def _require(league: League, by: Account) -> None:
    # ``by=None`` is the system (the ``import_league`` command), never a request.
    if by is not None and not can_manage_league(by, league):
        raise PermissionDenied(f"Only the secretaries of {league} can import into it.")


def read_people(rows: list[list[str]], *, name: str = "", separator: str = "") -> Sheet:
    return table(
        rows, name=name, required=PEOPLE_REQUIRED, optional=PEOPLE_OPTIONAL, separator=separator
    )


def people_plan(
    *,
    league: League,
    season: Season | None,
    season_name: str,
    sheet: Sheet,
    season_starts: datetime.date | None = None,
    answers: dict[str, str] | None = None,
    by: Account = None,
) -> Plan:
    """What importing ``sheet`` into ``league``'s ``season`` (None: a new season called
    ``season_name``, starting on ``season_starts``) would do. Reads only."""
    _require(league, by)
    answers = answers or {}
    plan = Plan(
        season_name=season.name if season else season_name,
        season_starts=season.starts_on if season else season_starts,
    )
    plan.problems += sheet.problems
    plan.warnings += sheet.warnings
    if season is None:
        starting = f", starting {long_date(season_starts)}" if season_starts else ""
        plan.create["season"].append(f"{season_name}{starting}")
    divisions = {_key(d.name): d for d in season.divisions.all()} if season else {}
    venues = KnownVenues(Venue.objects.filter(league=league))
    teams = {_key(t.name): t for t in league.teams.select_related("home_venue")}
    entries = (
        {e.team_id: e for e in season.entries.select_related("division", "captain__user")}
        if season
        else {}
    )
    _plan_teams(plan, sheet, divisions, venues, teams, entries)
    _plan_people(plan, sheet, league, season, answers, by)
    _plan_captains(plan, sheet, league)
    return plan


def _plan_teams(
    plan: Plan,
    sheet: Sheet,
    divisions: dict[str, Division],
    venues: KnownVenues,
    teams: dict[str, Team],
    entries: dict[int, TeamEntry],
) -> None:
    new_divisions: dict[str, str] = {}
    # As the file writes them, each known from its first row on (``KnownVenues.add``).
    new_venues: list[str] = []
    # A column the file lacks is one problem, not one a team.
    lacking: dict[str, list[str]] = {"division": [], "venue": []}
    for row in sheet.rows:
        team_name = row["team"]
        if not team_name:
            plan.problem(sheet, "No team: every row names the player's team.", row.number, "team")
            continue
        if not row["player"]:
            plan.problem(sheet, "No player: every row names one player.", row.number, "player")
        else:
            try:
                check_name_words(row["player"])
            except ValidationError as exc:
                plan.problem(sheet, exc.message, row.number, "player")
        key = _key(team_name)
        team = plan.teams.get(key)
        if team is None:
            existing = teams.get(key)
            team = plan.teams[key] = TeamPlan(name=existing.name if existing else team_name)
            team.team = existing
            team.entry = entries.get(existing.pk) if existing else None
        team.rows.append(row.number)
        # With a town column the venue cell is the venue's name whole, commas and all.
        venue = venue_text(row["venue"], row["town"]) if "town" in sheet.letters else row["venue"]
        cells = {"division": row["division"], "venue": venue}
        cells["matches_a_night"] = row["matches_a_night"].strip()
        for column, value in cells.items():
            current = getattr(team, column)
            if value and current and _key(value) != _key(current):
                said = (
                    f"{possessive(team.name)} venue can host {current} a night"
                    if column == "matches_a_night"
                    else f"{team.name} is in {current}"
                )
                plan.problem(
                    sheet, f"{said} on an earlier row; this row says {value}.", row.number, column
                )
            elif value and not current:
                setattr(team, column, value)
    for team in plan.teams.values():
        first = team.rows[0]
        if team.entry is not None:
            if team.division and _key(team.division) != _key(team.entry.division.name):
                plan.problem(
                    sheet,
                    f"{team.name} plays in {team.entry.division.name} this season, not "
                    f"{team.division}: move it on the team's page first.",
                    first,
                    "division",
                )
        elif not team.division and "division" not in sheet.letters:
            lacking["division"].append(team.name)
        elif not team.division:
            plan.problem(
                sheet,
                f"{team.name} is not entered this season: give its division.",
                first,
                "division",
            )
        elif _key(team.division) not in divisions:
            new_divisions.setdefault(_key(team.division), team.division)
        if team.team is None:
            if not team.venue and "venue" not in sheet.letters:
                lacking["venue"].append(team.name)
            elif not team.venue:
                plan.problem(sheet, f"{team.name} is a new team: give its venue.", first, "venue")
            elif which := venues.which(team.venue):
                plan.problem(sheet, which, first, "venue")
            else:
                _plan_venue(plan, sheet, team, venues, new_venues)
            plan.create["teams"].append(team.name)
        elif not team.venue or _is_home(team.team, team.venue):
            _plan_venue(plan, sheet, team, venues, new_venues, home=team.team.home_venue)
        elif which := venues.which(team.venue):
            plan.problem(sheet, which, first, "venue")
        else:
            venue = venues.get(team.venue)
            if _plan_venue(plan, sheet, team, venues, new_venues):
                plan.change.append(
                    f"{possessive(team.name)} home venue: {team.team.home_venue} → "
                    f"{venue or team.venue}"
                )
        if team.entry is None and team.division:
            plan.create["entries"].append(f"{team.name} in {team.division}")
    needed = {
        "division": ("not entered this season", "the division each plays in"),
        "venue": ("new to the league", "each new team's home venue"),
    }
    for column, names in lacking.items():
        if names:
            what, gives = needed[column]
            teams = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            plan.problems.append(
                Problem(
                    f"The file has no {column} column, needed for the "
                    f"team{pluralize(len(names))} {what} ({teams}): "
                    f"add a column headed “{column}” giving {gives}.",
                    sheet=sheet.name,
                )
            )
    plan.divisions = list(new_divisions.values())
    plan.venues = new_venues
    plan.create["divisions"] += plan.divisions
    plan.create["venues"] += [
        text + (f" ({plan.venue_rooms[text]} matches a night)" if text in plan.venue_rooms else "")
        for text in plan.venues
    ]


def _plan_venue(
    plan: Plan,
    sheet: Sheet,
    team: TeamPlan,
    venues: KnownVenues,
    new_venues: list[str],
    home: Venue | None = None,
) -> bool:
    """Plan ``team``'s venue (``home``: the one it has, the file naming no other): one the
    league has, or an earlier row creates, held to the matches a night the file gives; else
    a new one created from its text (``venue_parts``) with them. False, with the problem
    planned, when the text or the number cannot be read, or the number is not the venue's."""
    first = team.rows[0]
    rooms: int | None = None
    if team.matches_a_night:
        rooms = int(team.matches_a_night) if team.matches_a_night.isdigit() else 0
        if not 1 <= rooms <= MOST_MATCHES_A_NIGHT:
            plan.problem(
                sheet,
                f"“{team.matches_a_night}”: how many matches {possessive(team.name)} venue can "
                f"host on one night (its page's “{VENUE_MATCHES_A_NIGHT}”) is a whole number "
                f"from 1 to {MOST_MATCHES_A_NIGHT}; leave it blank for the season's setting.",
                first,
                "matches_a_night",
            )
            return False
    venue = home or venues.get(team.venue)
    if venue is None:
        try:
            venue_parts(team.venue)
        except ValueError as exc:
            plan.problem(sheet, str(exc), first, "venue")
            return False
        # A slip of the keys makes a second venue: the plan asks before it is made.
        if (like := venues.like(team.venue)) is not None:
            plan.warnings.append(
                Problem(
                    f"{team.venue} is new: did you mean {like}?",
                    first,
                    sheet.column("venue"),
                    sheet.name,
                )
            )
        new_venues.append(team.venue)
        venues.add(team.venue, rooms)
        if rooms is not None:
            plan.venue_rooms[team.venue] = rooms
        return True
    if rooms is None or rooms == venue.matches_a_night:
        return True
    if venue.pk is None:
        # Created by an earlier team's row: one number for it.
        made = next(text for text in new_venues if venues.get(text) is venue)
        if venue.matches_a_night is None:
            venue.matches_a_night = plan.venue_rooms[made] = rooms
            return True
        plan.problem(
            sheet,
            f"{venue} can host {venue.matches_a_night} a night on an earlier row; this row "
            f"says {rooms}.",
            first,
            "matches_a_night",
        )
        return False
    own = (
        f"can host {venue.matches_a_night} a night"
        if venue.matches_a_night
        else "takes the season's setting"
    )
    plan.problem(
        sheet,
        f"{venue} {own} (its page's “{VENUE_MATCHES_A_NIGHT}”), not {rooms}: an import sets "
        "the number only for a venue it creates. Change it on the venue's page, or leave this "
        "blank.",
        first,
        "matches_a_night",
    )
    return False


def _is_home(team: Team, text: str) -> bool:
    """Whether ``text`` names ``team``'s home venue: as its pages write it, "Woolpack, Batley",
    or by its name (it may be a venue of the site's, not the league's own), a name with a comma
    in quotes or not."""
    home = team.home_venue
    return any(
        _key(written) in (_key(str(home)), _key(home.name)) for written in venue_written(text)
    )


def _plan_people(
    plan: Plan,
    sheet: Sheet,
    league: League,
    season: Season | None,
    answers: dict[str, str],
    by: Account,
) -> None:
    people = LeaguePeople(league=league, season=season)
    by_email = {
        p.user.email.casefold(): p
        for named in people.by_name.values()
        for p in named
        if p.user and p.user.email
    }
    addresses: dict[str, Person] = {}  # the row that gave each address first
    for row in sheet.rows:
        name, team_key = row["player"], _key(row["team"])
        if not name or team_key not in plan.teams:
            continue
        team = plan.teams[team_key]
        mark = row["captain"].casefold()
        if mark not in YES | NO:
            plan.problem(
                sheet,
                f"“{row['captain']}” in the captain column: mark the captain with yes, y, x or 1 "
                "and leave the others empty.",
                row.number,
                "captain",
            )
        email = row["email"]
        if email:
            try:
                validate_email(email)
            except ValidationError:
                plan.problem(sheet, f"“{email}” is not an e-mail address.", row.number, "email")
                email = ""
        person = Person(row.number, name, team_key, captain=mark in YES, email=email)
        earlier = addresses.get(email.casefold()) if email else None
        if earlier is not None:
            plan.problem(sheet, _given_twice(plan, earlier, person), row.number, "email")
            person.email = email = ""  # no second invitation to one inbox in the plan
        elif email:
            addresses[email.casefold()] = person
        plan.people.append(person)
        found = people.match(name, team.team)
        known = by_email.get(email.casefold()) if email else None
        if found.player is None and known is not None and known.pk not in people.taken:
            # The e-mail of one of the league's people: them.
            if known.pk in people.this_season:
                plan.problem(
                    sheet,
                    f"{email} is {known.name}'s, who plays for "
                    f"{people.this_season[known.pk][1]} this season.",
                    row.number,
                    "email",
                )
                continue
            found.player, found.candidates = known, []
        answer = answers.get(f"person-{row.number}", "")
        chosen = found.player
        if found.asks:
            # It may be one of the league's people: ask (the other rows go on).
            plan.questions.append(
                Question(
                    row.number,
                    name,
                    team.name,
                    [(str(p.pk), people.label(p)) for p in found.candidates]
                    + [("new", f"Someone new: a second {name}, for {team.name}")],
                )
            )
            chosen = next((p for p in found.candidates if str(p.pk) == answer), None)
            person.open = chosen is None and answer != "new"
        if chosen is not None:
            people.take(chosen)
            person.player = chosen
            if people.this_season.get(chosen.pk, (0, ""))[0] == getattr(team.team, "pk", None):
                continue  # registered to this team this season already
            if by is not None and not player_is_free(by, league, chosen):
                plan.problem(
                    sheet,
                    f"{chosen.name} plays in another league too: only the site's operator can "
                    "register them here.",
                    row.number,
                    "player",
                )
            plan.create["registrations"].append(f"{people.label(chosen)} for {team.name}")
        elif not person.open:
            others = ", ".join(found.namesakes)
            note = f" (not the {name} of {others})" if others else ""
            plan.create["people"].append(f"{name} for {team.name}{note}")
    _note_new_namesakes(plan, sheet, people)


def _given_twice(plan: Plan, earlier: Person, person: Person) -> str:
    """Why ``person``'s row may not give the address ``earlier``'s row gave: an address is one
    person's (the league knows people by it, and invites a captain at it), and a person plays
    for one team a season."""
    team, first = plan.teams[person.team_key].name, plan.teams[earlier.team_key].name
    given = f"Row {earlier.row} gives {earlier.email} for {earlier.name} ({first})"
    if _key(person.name) != _key(earlier.name):
        return (
            f"{given}, and this row for {person.name} ({team}): an address is one person's. "
            f"Give {person.name} their own address, or leave the cell empty."
        )
    if team == first:
        return f"{given} already: one person on two rows. Delete one of them."
    other = f"; mark another {team} player as its captain" if person.captain else ""
    return (
        f"{given}, and this row for {person.name} ({team}): one address, so one person, and "
        f"a player plays for one team a season. Keep {person.name} in one of them{other}."
    )


def _note_new_namesakes(plan: Plan, sheet: Sheet, people: LeaguePeople) -> None:
    """Rows that make a new person of a name another row names too: said before the import
    (``named_twice``: a row typed twice, or one person put in two teams, would make two)."""
    listed = [
        Listed(
            person.row,
            person.name,
            known=people.label(person.player) if person.player is not None else "",
            team=plan.teams[person.team_key].name,
        )
        for person in plan.people
        if not person.open
    ]
    for words in named_twice(listed, lines="rows", makes="the import makes").values():
        plan.warnings.append(Problem(words, sheet=sheet.name))


def _plan_captains(plan: Plan, sheet: Sheet, league: League) -> None:
    marked: dict[str, list[Person]] = defaultdict(list)
    for person in plan.people:
        if person.captain:
            marked[person.team_key].append(person)
    for team_key, people in marked.items():
        team = plan.teams[team_key]
        if len(people) > 1:
            rows = ", ".join(str(p.row) for p in people)
            for person in people[1:]:
                plan.problem(
                    sheet,
                    f"{team.name} has a captain marked twice (rows {rows}): mark one.",
                    person.row,
                    "captain",
                )
            continue
        person = people[0]
        current = team.entry.captain if team.entry is not None else None
        if person.player is not None and current is not None and current.pk == person.player.pk:
            pass
        elif current is not None:
            plan.change.append(f"{possessive(team.name)} captain: {current.name} → {person.name}")
        else:
            plan.create["captains"].append(f"{person.name} for {team.name}")
        if person.email and not _has_account_or_invitation(person, league):
            plan.create["invitations"].append(f"{person.name} ({team.name}) at {person.email}")


def _has_account_or_invitation(person: Person, league: League) -> bool:
    player = person.player
    if player is None:
        return False
    if player.user_id is not None:
        return True
    return Invitation.objects.filter(
        INVITATION_UNANSWERED, league=league, player=player, email__iexact=person.email
    ).exists()


class ImportRefused(ValidationError):
    """The plan has problems or open questions: nothing was saved."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        super().__init__([str(p) for p in plan.problems] or ["Answer the questions first."])


def league_import(
    *,
    league: League,
    season: Season | None,
    season_name: str,
    season_starts: datetime.date | None = None,
    sheet: Sheet,
    answers: dict[str, str] | None = None,
    fixtures: FixturesImport | None = None,
    digest: str = "",
    source: str = "",
    by: Account = None,
) -> Plan:
    """Carry out the plan for ``sheet`` (and ``fixtures``, a ``fixtures_import`` reader),
    planned again under the league's lock: all of it, or nothing when it has a problem, an
    open question, or (with ``digest``) differs from the plan the secretary confirmed. The
    captains' invitations are mailed once it is saved; one that cannot go is left to resend
    (the plan's warnings say so)."""
    sent: list[Invitation] = []
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if season is not None:
            season = Season.objects.get(pk=season.pk, league=league)
        season_starts = season_starts or league.today()
        plan = import_plan(
            league=league,
            season=season,
            season_name=season_name,
            season_starts=season_starts,
            sheet=sheet,
            answers=answers,
            fixtures=fixtures,
            by=by,
        )
        if not plan.ready:
            raise ImportRefused(plan)
        if digest and digest != plan.digest():
            plan.problems.append(
                Problem("The league changed since the preview: check the new plan and confirm.")
            )
            raise ImportRefused(plan)
        try:
            season = season or structure.season_create(
                league=league,
                name=season_name,
                starts_on=season_starts,
                by=by,
            )
            sent = _apply_people(plan, league, season, by)
            if fixtures is not None and plan.extra is not None:
                fixtures.apply(plan.extra, league=league, season=season, by=by)
        except ValidationError as exc:
            # Something only saving finds (a season's name taken a moment ago; the fixtures'
            # rules are the check's own, ``leagues.bookings``): nothing is kept, and it is
            # listed like any other problem, by its row when a row's fixture was refused.
            plan.problems += getattr(exc, "problems", None) or [
                Problem(message) for message in exc.messages
            ]
            raise ImportRefused(plan) from exc
        audit_log(
            league=league,
            action=AuditEntry.Action.LEAGUE_IMPORTED,
            subject=f"Imported {source or 'a spreadsheet'} into {season.name}"[:200],
            after={k: len(v) for k, v in plan.create.items()} | {"changes": len(plan.change)},
            by=by,
        )
    for invitation in sent:
        try:
            invitations.invitation_mail(invitation)
        except MAIL_ERRORS:
            logger.exception("imported captain's invitation could not be mailed")
            plan.warnings.append(
                Problem(
                    f"The invitation to {invitation.email} could not be mailed just now: send it "
                    "again from the secretaries' page."
                )
            )
    return plan


def _apply_people(plan: Plan, league: League, season: Season, by: Account) -> list[Invitation]:
    rank = max(season.divisions.values_list("rank", flat=True), default=0)
    divisions = {_key(d.name): d for d in season.divisions.all()}
    for name in plan.divisions:
        rank += 1
        divisions[_key(name)] = structure.division_create(
            season=season, name=name, rank=rank, by=by
        )
    for text in plan.venues:
        name, town = venue_parts(text)
        structure.venue_create(
            name=name,
            town=town,
            matches_a_night=plan.venue_rooms.get(text),
            league=league,
            by=by,
        )
    venues = KnownVenues(Venue.objects.filter(league=league))
    entries: dict[str, TeamEntry] = {}
    for key, team in plan.teams.items():
        division = divisions.get(_key(team.division)) if team.division else None
        home = venues.get(team.venue) if team.venue else None
        if team.team is None:
            assert home is not None  # the plan has a problem for a new team without one
            team.team = structure.team_create(league=league, name=team.name, home_venue=home, by=by)
        elif home is not None and not _is_home(team.team, team.venue):
            structure.team_update(
                team=team.team,
                name=team.team.name,
                short_name=team.team.short_name,
                home_venue=home,
                by=by,
            )
        entry = TeamEntry.objects.filter(team=team.team, season=season).first()
        if entry is None and division is not None:
            entry = structure.team_enter(team=team.team, division=division, by=by)
        if entry is not None:
            entries[key] = entry
    sent: list[Invitation] = []
    for person in plan.people:
        team = plan.teams[person.team_key]
        assert team.team is not None
        registration = registrations.player_register(
            player=person.player, name=person.name, team=team.team, season=season, by=by
        )
        person.player = registration.player
    for person in plan.people:
        entry = entries.get(person.team_key)
        if not person.captain or entry is None:
            continue
        entry.refresh_from_db()
        if entry.captain_id != person.player.pk:  # type: ignore[union-attr]
            structure.entry_set_captain(entry=entry, captain=person.player, by=by)
        if person.email and not entry.captain_contact:
            # The captain's e-mail is the secretary's way to reach them (never on a public
            # page), as if typed on the team's page.
            structure.entry_set_contact(entry=entry, contact=person.email, by=by)
        if person.email and not _has_account_or_invitation(person, league):
            sent.append(
                invitations.captain_invite(entry=entry, email=person.email, by=by, send=False)
            )
    return sent


def read_files(
    *,
    people: bytes,
    people_name: str = "",
    fixtures: bytes | None = None,
    fixtures_name: str = "",
    sizes: tuple[int, int] = (0, 0),
) -> tuple[Sheet, Sheet | None]:
    """The people's sheet and the fixtures' (a second file, or an XLSX file's second sheet);
    a file that cannot be read is a sheet with that one problem."""
    read = read_sheets(people, people_name, sizes[0])
    if read.why:
        return _unreadable(people_name, read.why), None
    people_sheet = read_people(
        read.sheets[0], name=_label(people_name, read.names[0]), separator=read.separator
    )
    if fixtures:
        second = read_sheets(fixtures, fixtures_name, sizes[1])
        if second.why:
            return people_sheet, _unreadable(fixtures_name, second.why)
        return people_sheet, read_fixtures(
            second.sheets[0],
            name=_label(fixtures_name, second.names[0]),
            separator=second.separator,
        )
    sheets = read.sheets
    if len(sheets) > 1 and any(any(cell.strip() for cell in row) for row in sheets[1]):
        return people_sheet, read_fixtures(sheets[1], name=_label(people_name, read.names[1]))
    return people_sheet, None


def _label(filename: str, sheet: str) -> str:
    return f"{filename} ({sheet})" if sheet else filename


def _unreadable(filename: str, why: str) -> Sheet:
    sheet = Sheet(name=filename)
    sheet.problems.append(Problem(why, sheet=filename))
    return sheet


def fixtures_reader(sheet: Sheet | None) -> FixturesImport | None:
    return FixturesImport(sheet) if sheet is not None else None


def import_plan(
    *,
    league: League,
    season: Season | None,
    season_name: str,
    sheet: Sheet,
    season_starts: datetime.date | None = None,
    answers: dict[str, str] | None = None,
    fixtures: FixturesImport | None = None,
    by: Account = None,
) -> Plan:
    """The people's plan, with the fixtures' (if any) joined to it: the check the preview
    shows, and the one ``league_import`` runs again before it saves. ``season_starts``: a new
    season's first day (None: the league's today). Reads only."""
    plan = people_plan(
        league=league,
        season=season,
        season_name=season_name,
        season_starts=season_starts,
        sheet=sheet,
        answers=answers,
        by=by,
    )
    if fixtures is not None:
        plan.extra = fixtures.plan(league=league, people=plan, season=season, starts=season_starts)
        plan.problems += plan.extra.problems
        plan.warnings += plan.extra.warnings
        plan.create.update(plan.extra.create)
    # In the files' order, row by row (the checks find them column by column).
    files = list(dict.fromkeys(p.sheet for p in plan.problems))
    plan.problems.sort(key=lambda p: (files.index(p.sheet), p.row or 0))
    return plan
