"""The score card refuses every card it cannot take by name, at the table and the field, with
the figures typed kept: never a server error, and nothing saved.

A Trinidad table's game typed 14–14 (or 13–13) with its games won given was a 500
(``CardError: a game of 14–14 needs its winner named``, from counting the games each side won
before the game's own refusal was heeded); a pair with one player chosen was saved and read
"Roy Stead v pair not recorded" on the fixture's page."""

from __future__ import annotations

from html import unescape

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.formats import TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.models import AuditEntry, FixtureTable, ResultSubmission
from leagues.services.cards import CardRefused, CardTable, fixture_card_enter
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, squad

pytestmark = pytest.mark.django_db


def _fixture(style: str, *, players: int = 12, ruleset: dict | None = None):
    if style == "yorkshire":
        league = LeagueFactory(
            style="yorkshire",
            match_format=YORKSHIRE_FORMAT.to_spec(),
            ruleset=ruleset or {"preset": "west_yorkshire", "target": 11},
        )
    else:
        league = LeagueFactory(
            style="trinidad",
            ruleset={"preset": "trinidad", "target": 14},
            match_format=TRINIDAD_FORMAT.to_spec(),
        )
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=players)
    return FixtureFactory(division=division, home=home, away=away), users


def _captain(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _nothing_saved(fixture) -> None:
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()
    assert not AuditEntry.objects.filter(fixture=fixture).exists()


def _trinidad_card(game_1: tuple[int, int]) -> dict[str, str]:
    """Table 1: game 1 as given, game 2 3–14, games won 1–1; tables 2 to 6 games won 1–1."""
    data = {"t1_g1_home": str(game_1[0]), "t1_g1_away": str(game_1[1])}
    data |= {"t1_g2_home": "3", "t1_g2_away": "14"}
    for board in range(1, 7):
        data |= {f"t{board}_bull_home": "1", f"t{board}_bull_away": "1"}
    return data


@pytest.mark.parametrize(
    ("game_1", "message"),
    [
        (
            (14, 14),
            "Table 1, game 1 (14–14): both sides are at or past the target of 14: the first to "
            "reach it wins, so the other stops short",
        ),
        ((13, 13), "Table 1, game 1 (13–13): neither side reached the target of 14"),
    ],
)
def test_a_trinidad_game_typed_level_with_its_games_won_is_refused_not_a_500(game_1, message):
    fixture, users = _fixture("trinidad")
    client = _captain(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    response = client.post(url, _trinidad_card(game_1))
    assert response.status_code == 200
    body = unescape(response.content.decode())
    assert message in body
    # At table 1's boxes, the figures as typed.
    assert 'id="table-1-problems"' in body
    form = response.context["form"]
    assert [form[f"t1_g1_{side}"].value() for side in ("home", "away")] == [str(n) for n in game_1]
    assert form["t1_bull_home"].value() == "1"
    assert "needs its winner named" not in body
    _nothing_saved(fixture)


def test_the_service_refuses_a_level_game_with_its_games_won_by_table():
    fixture, users = _fixture("trinidad")
    tables = [CardTable(board=1, games=((14, 14), (3, 14)), bullseyes=(1, 1))]
    tables += [CardTable(board=b, bullseyes=(1, 1)) for b in range(2, 7)]
    with pytest.raises(CardRefused) as refused:
        fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    assert [p.table for p in refused.value.problems] == [1]
    _nothing_saved(fixture)


def test_a_pair_with_one_player_chosen_is_refused_at_the_empty_seat():
    """Roy Stead chosen alone for Black Bull at table 1 was saved: "Roy Stead v pair not
    recorded". Both players of a pair or neither; the one chosen stays chosen."""
    fixture, users = _fixture("yorkshire", players=8)
    season = fixture.division.season
    home = squad(fixture.home, season)
    client = _captain(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "11"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "11", "t4_g1_away": "10"}
    data |= {"t1_home_1": str(home[0].pk)}
    response = client.post(url, data)
    assert response.status_code == 200
    form = response.context["form"]
    words = (
        f"Table 1: Black Bull: {home[0]}'s partner is not chosen: choose both players of the "
        "pair, or neither (not recorded)."
    )
    assert form.errors["t1_home_2"] == [words]
    assert unescape(response.content.decode()).count(words) >= 1
    assert "t1_home_1" not in form.errors
    assert f'<option value="{home[0].pk}" selected>' in response.content.decode()
    _nothing_saved(fixture)

    # The service says the same to a card sent around the form.
    tables = [CardTable(board=b, games=((11, 7),)) for b in range(1, 5)]
    tables[0] = CardTable(board=1, games=((11, 7),), home=home[:1])
    with pytest.raises(CardRefused) as refused:
        fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    assert refused.value.messages == [words]
    _nothing_saved(fixture)

    # Both players, or neither: taken.
    data["t1_home_2"] = str(home[1].pk)
    assert client.post(url, data).status_code == 302


def test_a_singles_league_seats_one_player_a_side():
    fixture, users = _fixture(
        "yorkshire", players=8, ruleset={"preset": "west_yorkshire", "players": 1, "target": 11}
    )
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    tables = [CardTable(board=b, games=((11, 7),)) for b in range(1, 5)]
    tables[0] = CardTable(board=1, games=((11, 7),), home=home[:1], away=away[:1])
    fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    stored = FixtureTable.objects.get(fixture=fixture, board=1)
    assert stored.home_pair == [home[0]] and stored.away_pair == [away[0]]


FIGURE = st.one_of(
    st.integers(min_value=-2, max_value=30).map(str),
    st.sampled_from(["", "", "x", "99", "1e3", " 7 "]),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_card_the_form_takes_is_a_server_error_and_a_refused_one_saves_nothing(data):
    """Varied cards, right and wrong, posted to a Trinidad and a Yorkshire score card: a
    refusal (200) saves nothing; a card taken (302) is a submitted result."""
    style = data.draw(st.sampled_from(["trinidad", "yorkshire"]))
    with transaction.atomic():
        fixture, users = _fixture(style, players=4)
        season = fixture.division.season
        players = {
            "home": [""] + [str(p.pk) for p in squad(fixture.home, season)],
            "away": [""] + [str(p.pk) for p in squad(fixture.away, season)],
        }
        tables = TRINIDAD_FORMAT.tables if style == "trinidad" else YORKSHIRE_FORMAT.tables
        games = 2 if style == "trinidad" else 1
        post: dict[str, str] = {}
        for board in range(1, tables + 1):
            for side in ("home", "away"):
                for number in range(1, games + 1):
                    post[f"t{board}_g{number}_{side}"] = data.draw(FIGURE)
                if style == "trinidad":
                    post[f"t{board}_bull_{side}"] = data.draw(FIGURE)
                    post[f"t{board}_hj_{side}"] = data.draw(FIGURE)
                for seat in (1, 2):
                    post[f"t{board}_{side}_{seat}"] = data.draw(st.sampled_from(players[side]))
        client = _captain(users["home"])
        response = client.post(reverse("leagues:score_card", kwargs={"pk": fixture.pk}), post)
        assert response.status_code in (200, 302), post
        if response.status_code == 200:
            _nothing_saved(fixture)
        else:
            assert ResultSubmission.objects.filter(fixture=fixture).exists()
        transaction.set_rollback(True)
