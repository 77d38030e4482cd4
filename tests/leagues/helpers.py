"""Building a league and playing its fixtures through the real services, for tests."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from leagues.models import Division, Fixture, Player, TableGame, Team, TeamEntry
from leagues.services.registrations import player_register
from leagues.services.results import fixture_start
from scoring import services as scoring_services
from scoring.models import Game
from tests.factories.leagues import PlayerFactory, TeamEntryFactory
from tests.factories.scoring import UserFactory

CATEGORIES = ("high", "low", "jack", "game")


def entered_teams(division: Division, names: Sequence[str], *, players: int = 8) -> list[Team]:
    """Teams entered in the division, each with ``players`` registered players."""
    teams = []
    for name in names:
        team = TeamEntryFactory(division=division, team__name=name).team
        for i in range(players):
            player_register(
                player=PlayerFactory(name=f"{name} player {i + 1}"),
                team=team,
                season=division.season,
            )
        teams.append(team)
    return teams


def captained_teams(division: Division, *, players: int) -> tuple[Team, Team, dict[str, Any]]:
    """Black Bull and Old Hall entered in the division (``entered_teams``), each captained by
    a player with an account, and a secretary of the league: (home, away, the accounts by
    "home", "away" and "secretary")."""
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=players)
    users = {"home": UserFactory(), "away": UserFactory(), "secretary": UserFactory()}
    division.season.league.secretaries.add(users["secretary"])
    for side, team in (("home", home), ("away", away)):
        TeamEntry.objects.filter(team=team).update(
            captain=PlayerFactory(name=f"{team} captain", user=users[side])
        )
    return home, away, users


def squad(team: Team, season: Any) -> list[Player]:
    return list(
        Player.objects.filter(registrations__team=team, registrations__season=season).order_by("pk")
    )


def start_fixture(fixture: Fixture) -> list[TableGame]:
    """Seat pairs from both squads at every table and start the first games."""
    season = fixture.division.season
    tables = season.league.get_match_format().tables
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    pairs = [(home[2 * i : 2 * i + 2], away[2 * i : 2 * i + 2]) for i in range(tables)]
    return fixture_start(fixture=fixture, pairs=pairs)


def hand(game: Game, dealer: str, to: Mapping[str, str], *, hang_jack: bool = False) -> dict:
    """A hand giving each of high, low, jack and game to the side in ``to``.

    With ``hang_jack`` the jack was held by the other side and captured (Trinidad: 3 points).
    """
    facts: dict[str, Any] = {"dealer": dealer}
    if game.rules.trumps == "turn_up":
        facts.update(turn_ups=["5C"], beg="stand")
    facts["high"] = to["high"]
    facts["low"] = to["low"]
    won_by = to["jack"]
    held_by = ("B" if won_by == "A" else "A") if hang_jack else won_by
    facts["jack"] = {"held_by": held_by, "won_by": won_by}
    facts["game"] = to["game"]
    return facts


def record(game: Game, hands: Iterable[Mapping[str, Any]]) -> Game:
    for facts in hands:
        number = game.hands.count() + 1
        scoring_services.hand_record(
            game=game, facts=facts, entry_key=uuid.uuid4(), expected_number=number
        )
    game.refresh_from_db()
    return game


def win_game(game: Game, winner: str, loser_points: int) -> Game:
    """Play hands of single points until ``winner`` reaches the target with the loser on
    ``loser_points`` (every award is one point, so the winner finishes exactly on target)."""
    loser = "B" if winner == "A" else "A"
    target = game.rules.target
    hands: list[dict] = []
    dealer = game.next_dealer or "A"
    owed = loser_points
    winner_score = 0
    while owed > 0:
        k = min(4, owed)
        to = {c: (loser if i < k else winner) for i, c in enumerate(CATEGORIES)}
        winner_score += 4 - k
        owed -= k
        hands.append(hand(game, dealer, to))
        dealer = "B" if dealer == "A" else "A"
    assert winner_score < target
    while winner_score < target:
        hands.append(hand(game, dealer, dict.fromkeys(CATEGORIES, winner)))
        winner_score += 4
        dealer = "B" if dealer == "A" else "A"
    return record(game, hands)


def current_game(table_game_or_table: Any) -> Game:
    """The latest game at a table."""
    table = getattr(table_game_or_table, "table", table_game_or_table)
    return table.games.order_by("-number").first().game


def confirm(fixture: Fixture) -> Fixture:
    """Confirm the fixture's final result (as the other side would), so that it counts."""
    from tests.factories.leagues import confirm_result

    fixture.refresh_from_db()
    assert fixture.result.is_final, "only a final result can be confirmed"
    confirm_result(fixture.result)
    return fixture


def refused(response: Any) -> bool:
    """403, or (for a secretary's page) the log-in page for an anonymous visitor."""
    if response.status_code == 403:
        return True
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


def page_words(response: Any) -> str:
    """A page's HTML with each run of whitespace one space: what a reader sees of a sentence
    that the templates break over lines."""
    content = response if isinstance(response, str) else response.content.decode()
    return " ".join(content.split())


def clock_at(monkeypatch: Any, instant: datetime.datetime) -> None:
    """Django's clock (``timezone.now``) moved to ``instant``: what every date of the site is
    read from, the league's own (``leagues.zones.today_in``) and the site's
    (``timezone.localdate``)."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: instant)


def small_hours_utc() -> datetime.datetime:
    """02:00 UTC today: 22:00 the evening before in Port of Spain (UTC-4), so the site's date
    (London's, or UTC's) is a day ahead of the league's."""
    return datetime.datetime.combine(
        datetime.datetime.now(datetime.UTC).date(), datetime.time(2, 0), tzinfo=datetime.UTC
    )


def phone_signed_in(page: Any, live_server: Any, user: Any) -> None:
    """The browser ``page`` signed in as ``user`` on the live server (its session cookie)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
