"""People, not names: two players may share a name, so pickers name a player with the team they
play for ("Linda Dyson (Black Bull)"), their latest team in the league, and public pages, exports
and the API (``name_people``) do so whenever someone else in the league has the same name."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models.functions import Lower

from leagues.models import FixtureTable, League, Player, Registration, Season, Team


def latest_teams(*, league: League, players: Iterable[int] | None = None) -> dict[int, str]:
    """Each player's latest team in ``league`` by name (the newest season's registration)."""
    registrations = Registration.objects.filter(season__league=league)
    if players is not None:
        registrations = registrations.filter(player__in=list(players))
    rows = registrations.order_by("player", "-season__starts_on", "-pk").values_list(
        "player", "team__name"
    )
    teams: dict[int, str] = {}
    for player, team in rows:
        teams.setdefault(player, team)
    return teams


def person_label(player: Player, team: str | None) -> str:
    """How a picker names a player: "Linda Dyson (Black Bull)", or the name alone."""
    return f"{player.name} ({team})" if team else player.name


def people_labels(*, league: League, players: Iterable[Player]) -> dict[int, str]:
    """The picker's label of each player (by primary key)."""
    players = list(players)
    teams = latest_teams(league=league, players=[p.pk for p in players])
    return {p.pk: person_label(p, teams.get(p.pk)) for p in players}


def name_people(players: Iterable[Player | None]) -> None:
    """Tell namesakes apart wherever players are shown (pages, CSV, API): each player who shares
    their name with someone else in their league gets ``Player.label`` "Linda Dyson (Black
    Bull)", the team of their newest season; if that still leaves two alike (one team, two
    people of one name, in turn or side by side), a number by who joined the league first:
    "Linda Dyson (Black Bull, 1)" and "Linda Dyson (Black Bull, 2)". A name nobody else in
    the league has stays plain. One query for any number of players (none for none)."""
    seen: dict[int, list[Player]] = defaultdict(list)
    for player in players:
        if player is not None:
            seen[player.pk].append(player)
    if not seen:
        return
    keys = {p[0].name.lower() for p in seen.values()}
    rows = (
        Registration.objects.annotate(key=Lower("player__name"))
        .filter(key__in=keys)
        .order_by("season__league", "player", "-season__starts_on", "-pk")
        .values_list("season__league", "player", "player__name", "team__name")
    )
    latest: dict[tuple[int, int], tuple[str, str]] = {}
    for league, player, name, team in rows:
        latest.setdefault((league, player), (name, team))
    alike: dict[tuple[int, str], list[int]] = defaultdict(list)
    for (league, player), (name, _) in sorted(latest.items()):
        alike[league, _key(name)].append(player)
    for (league, _), people in alike.items():
        if len(people) < 2:
            continue
        teams = [latest[league, player][1] for player in people]
        for player, team in zip(people, teams, strict=True):
            if player not in seen:
                continue
            name = latest[league, player][0]
            same = [p for p, t in zip(people, teams, strict=True) if t == team]
            told = f"{team}, {same.index(player) + 1}" if len(same) > 1 else team
            for instance in seen[player]:
                instance.distinguished = f"{name} ({told})"


def seated_players(tables: Iterable[FixtureTable | None]) -> list[Player]:
    """The players at ``tables`` (their pairs, seated or not), for ``name_people``."""
    return [p for t in tables if t is not None for p in (*t.home_pair, *t.away_pair)]


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
        self.teams = latest_teams(league=league)
        self.this_season: dict[int, tuple[int, str]] = {}
        if season is not None:
            rows = Registration.objects.filter(season=season).values_list(
                "player", "team", "team__name"
            )
            self.this_season = {player: (team, name) for player, team, name in rows}
        self.taken: set[int] = set()

    def label(self, player: Player) -> str:
        return person_label(player, self.teams.get(player.pk))

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


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()
