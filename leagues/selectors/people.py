"""People, not names: two players may share a name, so pages and pickers name a player with the
team they play for ("Linda Dyson (Black Bull)"), their latest team in the league."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from leagues.models import League, Player, Registration, Season, Team


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
