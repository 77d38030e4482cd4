"""People, not names: two players may share a name. Pickers name a player with the team they
play for ("Linda Dyson (Black Bull)"), their latest team in the league (``league_labels``), and
everything else that shows players (pages, exports, the API, audit entries, games' sides, cup
entrants: ``name_people``) does so whenever someone else in the league has the same name; two
of one name at one team are numbered. Names are compared as ``one_spaced`` stores them, case
aside."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import Lower

from config.inputs import one_spaced
from leagues.models import FixtureTable, League, Player, Registration, Season, Team
from leagues.permissions import role_alone
from scoring.services.compiled import CompiledRows

#: (league, player) -> (the player's name, their team in the newest season they played there).
Newest = dict[tuple[int, int], tuple[str, str]]


def _newest_rows(registrations: QuerySet[Registration]) -> QuerySet[Any]:
    """``registrations`` as (league, player, the player's name, the team's name), each
    player's newest first in each league."""
    return registrations.order_by(
        "season__league", "player", "-season__starts_on", "-pk"
    ).values_list("season__league", "player", "player__name", "team__name")


def _newest(rows: Iterable[tuple[int, int, str, str]]) -> Newest:
    """Each player's name and newest team in each league of ``rows`` (``_newest_rows``)."""
    newest: Newest = {}
    for league, player, name, team in rows:
        newest.setdefault((league, player), (name, team))
    return newest


def _namesakes_shape(*keys: str) -> QuerySet[Any]:
    """The registrations of everyone whose name is one of ``keys`` (lower case), as
    ``_newest_rows``."""
    return _newest_rows(
        Registration.objects.annotate(key=Lower("player__name")).filter(key__in=keys)
    )


#: ``_namesakes_shape`` by number of names, built once per connection
#: (``scoring.services.compiled``): the ORM took longer to build it than the database to run
#: it, on every page that shows players.
_namesakes_reads: dict[int, CompiledRows] = {}


def _namesakes(keys: set[str]) -> list[tuple[Any, ...]]:
    count = len(keys)
    if count not in _namesakes_reads:
        _namesakes_reads[count] = CompiledRows(_namesakes_shape, kinds=(str,) * count)
    return _namesakes_reads[count].rows(*sorted(keys))


def _told_apart(newest: Newest) -> dict[tuple[int, int], str]:
    """The label of each player in ``newest`` who shares their name with another there:
    "Linda Dyson (Black Bull)", their newest team; "Linda Dyson (Black Bull, 1)" and "(Black
    Bull, 2)" when that team is the same, numbered by who joined the league first."""
    alike: dict[tuple[int, str], list[int]] = defaultdict(list)
    for (league, player), (name, _) in sorted(newest.items()):
        alike[league, _key(name)].append(player)
    labels: dict[tuple[int, int], str] = {}
    for (league, _), people in alike.items():
        if len(people) < 2:
            continue
        teams = [newest[league, player][1] for player in people]
        for player, team in zip(people, teams, strict=True):
            same = [p for p, t in zip(people, teams, strict=True) if t == team]
            told = f"{team}, {same.index(player) + 1}" if len(same) > 1 else team
            labels[league, player] = f"{newest[league, player][0]} ({told})"
    return labels


def league_labels(*, league: League) -> dict[int, str]:
    """How a picker names each of the league's people (by primary key): with their newest team,
    "Jo Smith (Black Bull)", and numbered as ``name_people`` numbers two of one name at one
    team. One query."""
    return _picked(_league_newest(league))


def _league_newest(league: League) -> Newest:
    """``_newest`` of everyone who has played in ``league``."""
    return _newest(_newest_rows(Registration.objects.filter(season__league=league)))


def _picked(newest: Newest) -> dict[int, str]:
    """Each player's picker label: told apart as ``name_people`` does, else with their team."""
    told = _told_apart(newest)
    return {
        player: told.get((league, player)) or f"{name} ({team})"
        for (league, player), (name, team) in newest.items()
    }


def people_labels(*, league: League, players: Iterable[Player]) -> dict[int, str]:
    """The picker's label of each of ``players`` (by primary key); the name alone for someone
    not (yet) in the league."""
    labels = league_labels(league=league)
    return {p.pk: labels.get(p.pk, p.name) for p in players}


def person_name(account: Any, *, as_player: str | None = None) -> str:
    """How the app names a person with an account (``account``): its full name, else their
    name as one of the league's players (a captain's, as the secretary entered it), else ""; never
    the username, a login rather than a name. One query when it has no full name, none when
    their name as a player was read with it (``as_player``: ``player_name_of``'s, "" for none)."""
    if account is None:
        return ""
    name = str(account.get_full_name()).strip()
    if name:
        return name
    if as_player is None:
        as_player = Player.objects.filter(user=account).values_list("name", flat=True).first()
    return as_player or ""


def person_or_login(account: Any, *, as_player: str | None = None) -> str:
    """A person named where someone must be told who: as ``person_name`` names them, else by
    the login they gave no name to ("mkaye2"), the one thing left that tells them apart."""
    return person_name(account, as_player=as_player) or account.get_username()


#: What an audit query names its rows' accounts' names as players (``player_name_of("by")``),
#: read by ``acted_by`` with no query a row.
BY_AS_PLAYER = "by_as_player"


def acted_by(change: Any) -> str:
    """Who made a league audit entry or a game's hand revision (``change``, with its ``by`` and
    ``link``), in the audit trail's words: the person ("Susan Booth", ``person_or_login``), a
    table's scoring link ("scoring link “Table 1”"), or "the system". No query where the query
    that read it annotated ``BY_AS_PLAYER``."""
    if change.by is not None:
        # Read with the entry: null for an account that is no player ("": none, no query).
        as_player = getattr(change, BY_AS_PLAYER) or "" if hasattr(change, BY_AS_PLAYER) else None
        return person_or_login(change.by, as_player=as_player)
    if change.link is not None:
        return f"scoring link “{change.link}”"
    return "the system"


def player_name_of(account: str) -> Subquery:
    """The name as a player of the account a query reaches by ``account`` (its path, e.g.
    "submitted_by"), or null: for a list that names people (``person_name``'s ``as_player``)
    in its own query, not in one query a person. An account is at most one player."""
    return Subquery(Player.objects.filter(user=OuterRef(account)).values("name")[:1])


def acted_words(account: Any, role: str, *, as_player: str | None = None) -> str:
    """Who acted on a result as the people who agree it read them (its secretaries and its
    sides' captains or players): the person as the app names them and their ``role``, "Roy
    Stead (captain of Black Bull)"; the role alone for someone with no name the app knows
    (the table's scoring link), the name alone for a role of none (a single player in a cup
    tie: the side is them). ``as_player`` as ``person_name`` takes it."""
    name = person_name(account, as_player=as_player)
    return f"{name} ({role})" if name and role else name or role_alone(role)


def name_people(players: Iterable[Player | None]) -> None:
    """Tell namesakes apart wherever players are shown (pages, CSV, API, audit entries, games):
    each player who shares their name with someone else in their league gets ``Player.label``
    "Linda Dyson (Black Bull)", the team of their newest season; if that still leaves two alike
    (one team, two people of one name, in turn or side by side), a number by who joined the
    league first: "Linda Dyson (Black Bull, 1)" and "Linda Dyson (Black Bull, 2)". A name
    nobody else in the league has stays plain. One query for any number of players (none for
    none)."""
    seen: dict[int, list[Player]] = defaultdict(list)
    for player in players:
        if player is not None:
            seen[player.pk].append(player)
    if not seen:
        return
    # Names are stored as ``one_spaced`` has them: the database compares them case aside.
    keys = {one_spaced(p[0].name).lower() for p in seen.values()}
    for (_, player), label in _told_apart(_newest(_namesakes(keys))).items():
        for instance in seen.get(player, []):
            instance.distinguished = label


def seated_players(tables: Iterable[FixtureTable | None]) -> list[Player]:
    """The players at ``tables`` (their pairs, seated or not), for ``name_people``."""
    return [p for t in tables if t is not None for p in (*t.home_pair, *t.away_pair)]


def seated_boards(tables: Iterable[FixtureTable]) -> dict[int, int]:
    """The table each player seated at ``tables`` sits at, by player id: a seating form
    offers a player seated elsewhere with their table ("Barry Stead (table 1)")."""
    return {p.pk: t.board for t in tables for p in (*t.home_pair, *t.away_pair)}


@dataclass
class NameMatch:
    """Who a name typed for a team may be: ``player`` when surely one of the league's people,
    else the ``candidates`` who may be (the secretary picks, or "someone new"); ``namesakes``:
    the teams this season of other people of that name (surely not them)."""

    name: str
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    namesakes: list[str] = field(default_factory=list)

    @property
    def asks(self) -> bool:
        return self.player is None and bool(self.candidates)


class LeaguePeople:
    """The league's people by name, read once, to tell who a name in a list is.

    A name is the person registered to that team this season under it; otherwise the people of
    the league with that name not registered this season may be them (the league's only one of
    that name, last at this very team, surely is); people of that name playing for another team
    this season are someone else. Each person is matched once (``take``): two rows of the same
    name for one team are two people."""

    def __init__(self, *, league: League, season: Season | None) -> None:
        people = Player.objects.filter(registrations__season__league=league).distinct()
        self.by_name: dict[str, list[Player]] = defaultdict(list)
        for player in people.select_related("user").order_by("pk"):
            self.by_name[_key(player.name)].append(player)
        newest = _league_newest(league)
        self.teams = {player: team for (_, player), (_, team) in newest.items()}
        self.labels = _picked(newest)
        self.this_season: dict[int, tuple[int, str]] = {}
        if season is not None:
            rows = Registration.objects.filter(season=season).values_list(
                "player", "team", "team__name"
            )
            self.this_season = {player: (team, name) for player, team, name in rows}
        self.taken: set[int] = set()

    def label(self, player: Player) -> str:
        return self.labels.get(player.pk, player.name)

    def take(self, player: Player) -> None:
        self.taken.add(player.pk)

    def match(self, name: str, team: Team | None) -> NameMatch:
        found = NameMatch(name)
        named = [p for p in self.by_name.get(_key(name), []) if p.pk not in self.taken]
        if team is not None:
            same = [p for p in named if self.this_season.get(p.pk, (0, ""))[0] == team.pk]
            if same:
                found.player = same[0]
                return found
        found.candidates = [p for p in named if p.pk not in self.this_season]
        found.namesakes = sorted(
            {
                self.this_season[p.pk][1]
                for p in self.by_name.get(_key(name), [])
                if p.pk in self.this_season
                and (team is None or self.this_season[p.pk][0] != team.pk)
            }
        )
        if (
            len(found.candidates) == 1
            and team is not None
            and self.teams.get(found.candidates[0].pk) == team.name
        ):
            found.player = found.candidates[0]
        return found


@dataclass(frozen=True)
class Listed:
    """One person a list names (a spreadsheet's row, a line of a squad typed in): its number,
    the name, ``known``, the label of the league's person it is ("" for someone new), and
    ``team``, the team it names them for (where a list has several)."""

    number: int
    name: str
    known: str = ""
    team: str = ""


def named_twice(listed: Iterable[Listed], *, lines: str, makes: str) -> dict[str, str]:
    """The names that ``listed`` gives on two lines or more, someone new on one of them at
    least, each said before anything is saved (by the name as names are compared): each line
    is a person of their own (``LeaguePeople.take``), so a name typed twice, or one person put
    in two teams, makes two people. ``lines`` is what the list's lines are called ("rows"),
    ``makes`` who makes the people ("the import makes")."""
    alike: dict[str, list[Listed]] = defaultdict(list)
    for person in listed:
        alike[_key(person.name)].append(person)
    said: dict[str, str] = {}
    for key, same in alike.items():
        new = [person for person in same if not person.known]
        if len(same) < 2 or not new:
            continue
        name = new[0].name
        teams = ", ".join(dict.fromkeys(person.team for person in same if person.team))
        called = f"{name} ({teams})" if teams else name
        if len(new) == len(same):
            who = f"someone new called {called}"
        else:
            known = [person for person in same if person.known]
            who = (
                f"{called}: {_numbered(lines, known)} {'is' if len(known) == 1 else 'are'} "
                f"{_and([person.known for person in known])}, whom the league has, and "
                f"{_numbered(lines, new)} someone new"
            )
        said[key] = (
            f"{_numbered(lines, same).capitalize()} each name {who}: {makes} {len(same)} people "
            f"of that name. If they are one person, put the {lines} right first."
        )
    return said


def _numbered(lines: str, listed: list[Listed]) -> str:
    """ "row 2", "rows 2 and 5", "rows 2, 3 and 5"."""
    numbers = [str(person.number) for person in listed]
    return f"{lines if len(numbers) > 1 else lines.removesuffix('s')} {_and(numbers)}"


def _and(words: list[str]) -> str:
    return f"{', '.join(words[:-1])} and {words[-1]}" if len(words) > 1 else words[0]


def _key(name: str) -> str:
    """A name as names are compared: as stored (``one_spaced``), case aside."""
    return one_spaced(name).casefold()
