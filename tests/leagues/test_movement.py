"""Promotion and relegation: one rule for the table's marks and the next season."""

import datetime

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from leagues.models import TeamEntry, Withdrawal
from leagues.movement import DOWN, OUT, STAYS, UP, MovingPlaces, moves, moving_places
from leagues.selectors.race import RELEGATED, division_race
from leagues.selectors.standings import season_standings
from leagues.services.seasons import next_season_placements
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
    SeasonFactory,
    TeamEntryFactory,
)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        # a middle division: two up, two down
        ({"playing": 8, "withdrawn": 0, "promoted": 2, "relegated": 2}, (2, 2, DOWN)),
        # a withdrawn team goes down first and does not take a place by default...
        ({"playing": 7, "withdrawn": 1, "promoted": 2, "relegated": 2}, (2, 2, DOWN)),
        # ...unless the league says it does
        (
            {"playing": 7, "withdrawn": 1, "promoted": 2, "relegated": 2, "take": True},
            (2, 1, DOWN),
        ),
        ({"playing": 6, "withdrawn": 3, "promoted": 2, "relegated": 2, "take": True}, (2, 0, DOWN)),
        # the top division promotes nobody; the bottom one relegates nobody, withdrawn teams out
        (
            {"playing": 8, "withdrawn": 0, "promoted": 2, "relegated": 2, "above": False},
            (0, 2, DOWN),
        ),
        (
            {"playing": 5, "withdrawn": 1, "promoted": 2, "relegated": 2, "below": False},
            (2, 0, OUT),
        ),
        # never more places than teams still playing
        ({"playing": 3, "withdrawn": 0, "promoted": 2, "relegated": 2}, (2, 1, DOWN)),
        ({"playing": 0, "withdrawn": 2, "promoted": 2, "relegated": 2}, (0, 0, DOWN)),
    ],
)
def test_moving_places(kwargs, expected):
    take = kwargs.pop("take", False)
    above, below = kwargs.pop("above", True), kwargs.pop("below", True)
    places = moving_places(**kwargs, above=above, below=below, withdrawn_take_places=take)
    assert (places.up, places.down, places.withdrawn) == expected


def test_negative_counts_are_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        moving_places(playing=-1, withdrawn=0, promoted=2, relegated=2, above=True, below=True)


@given(
    st.integers(0, 16),
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 4),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_every_team_moves_once_and_withdrawn_teams_never_go_up(
    playing, withdrawn, promoted, relegated, above, below, take
):
    places = moving_places(
        playing=playing,
        withdrawn=withdrawn,
        promoted=promoted,
        relegated=relegated,
        above=above,
        below=below,
        withdrawn_take_places=take,
    )
    order = [f"P{i}" for i in range(playing)]
    gone = [f"W{i}" for i in range(withdrawn)]
    result = moves(order, gone, places)
    assert set(result) == set(order) | set(gone)
    assert all(result[t] in (DOWN, OUT) for t in gone)
    ups = [t for t in order if result[t] == UP]
    downs = [t for t in order if result[t] == DOWN]
    assert ups == order[: len(ups)] and downs == order[len(order) - len(downs) :]
    assert len(ups) == (min(promoted, playing) if above else 0)
    if below:
        wanted = relegated - withdrawn if take else relegated
        assert len(downs) == max(0, min(wanted, playing - len(ups)))
    else:
        assert not downs
    assert all(result[t] == STAYS for t in order if t not in ups and t not in downs)
    assert isinstance(places, MovingPlaces)


@pytest.mark.django_db
@pytest.mark.parametrize("take", [False, True])
def test_the_table_marks_and_the_next_season_agree_after_a_withdrawal(
    client, django_user_model, take
):
    """Two divisions of five, every fixture played; a Premier team withdraws (results stand).
    By default the withdrawn team and the bottom playing team both go down; with the league's
    setting, the withdrawn team takes the one relegation place."""
    league = LeagueFactory(withdrawn_take_places=take)
    season = SeasonFactory(
        league=league, starts_on=datetime.date(2025, 1, 7), ends_on=datetime.date(2025, 5, 27)
    )
    top = DivisionFactory(season=season, name="Premier", rank=1, promoted=1, relegated=1)
    second = DivisionFactory(season=season, name="First", rank=2, promoted=1, relegated=1)
    teams = {}
    for division, names in ((top, "Alma Bull Crown Dog Eel"), (second, "Fox Gate Hart Ivy Jay")):
        ordered = []
        for name in names.split():
            teams[name] = TeamEntryFactory(division=division, team__name=name, name=name).team
            ordered.append(teams[name])
        for i, home in enumerate(ordered):
            for away in ordered[i + 1 :]:
                FixtureResultFactory(
                    fixture=FixtureFactory(division=division, home=home, away=away), home_win=True
                )
    # Bull withdrew after its last fixture (results stand: nothing of it left to settle)
    TeamEntry.objects.filter(team=teams["Bull"], season=season).update(
        withdrawn_on=datetime.date(2025, 5, 1), withdrawal=Withdrawal.STAND
    )
    placements = {p.team.name: p for p in next_season_placements(season=season)}
    relegated = {"Bull"} | ({"Eel"} if not take else set())
    assert {n for n, p in placements.items() if p.movement == DOWN} == relegated
    assert {n for n, p in placements.items() if p.movement == UP} == {"Fox"}
    assert placements["Bull"].why.endswith("withdrew, relegated")
    # the final table marks exactly the teams that go down
    for table in season_standings(season=season):
        race = division_race(standings=table)
        marked = {row.team.name for row in table.rows if RELEGATED in race.markers(row)}
        assert marked == {
            n for n, p in placements.items() if p.division == table.division and p.movement == DOWN
        }
    user = django_user_model.objects.create_user("sec", password="pw-sec-123456")
    league.secretaries.add(user)
    client.force_login(user)
    page = client.get(reverse("leagues:manage_season_next", args=[league.slug, season.pk]))
    assert "withdrew, relegated" in page.content.decode()
