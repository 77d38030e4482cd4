"""People, not names: two players may share a name, so pages and pickers name a player with the
team they play for ("Linda Dyson (Black Bull)"), their latest team in the league."""

from __future__ import annotations

from collections.abc import Iterable

from leagues.models import League, Player, Registration


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
