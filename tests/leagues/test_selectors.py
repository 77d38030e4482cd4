"""Selectors the pages read through: what they count and how many queries they take."""

from __future__ import annotations

import datetime

import pytest
from django.forms.models import model_to_dict

from leagues.models import Fixture, League, Player
from leagues.selectors import fixtures as selectors
from leagues.services.fixtures import fixtures_generate
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    PlayerFactory,
    PointAdjustmentFactory,
    RegistrationFactory,
    SeasonFactory,
    TeamEntryFactory,
)
from tests.leagues.helpers import confirm, entered_teams, squad, start_fixture, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def division():
    division = DivisionFactory()
    entered_teams(division, ["Black Bull", "Old Hall", "Crown", "Anchor"])
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=2)
    return division


def test_kept_count_is_decided_fixtures_and_any_with_a_game_started(
    division, django_assert_num_queries
):
    fixtures = list(Fixture.objects.filter(division=division).order_by("date", "pk"))
    for fixture, status in zip(fixtures, ["played", "walkover", "void", "postponed"], strict=False):
        Fixture.objects.filter(pk=fixture.pk).update(
            status=status, walkover_to="home" if status == "walkover" else ""
        )
    start_fixture(fixtures[4])
    with django_assert_num_queries(1):
        assert selectors.division_kept_count(division=division) == 4


def test_adjustments_latest_first_in_one_query(division, django_assert_num_queries):
    entries = list(division.entries.all())
    first = PointAdjustmentFactory(entry=entries[0], points=-2)
    second = PointAdjustmentFactory(entry=entries[1], points=1)
    with django_assert_num_queries(1):
        made = [
            (a.pk, a.entry.team.name) for a in selectors.division_adjustments(division=division)
        ]
    assert made == [(second.pk, entries[1].team.name), (first.pk, entries[0].team.name)]


def test_player_tables_in_three_queries(division, django_assert_num_queries):
    fixture = Fixture.objects.filter(division=division).order_by("date", "pk").first()
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 2)
    player = fixture.tables.get(board=1).home_player_1
    assert selectors.player_tables(player=player) == [], "not confirmed: it does not count yet"
    confirm(fixture)
    home = fixture.home.name
    with django_assert_num_queries(3):
        tables = selectors.player_tables(player=player)
        assert [t.fixture.home.name for t in tables] == [home]
        assert all(len(t.games.all()[0].game.sides.all()) == 2 for t in tables)


def _read(table) -> tuple:
    """A table as the player's page reads it: its own fields, its fixture's and teams', its
    players' and whether it is provisional."""
    related = (table.fixture, table.fixture.home, table.fixture.away, *table.home_pair)
    return (
        model_to_dict(table),
        [model_to_dict(obj) for obj in (*related, *table.away_pair)],
        table.provisional,
    )


def test_player_tables_built_once_are_the_querysets(division):
    """The tables' query is built once per connection (and kinds of fixture) and run with each
    player's id (in every seat): the same tables, fields, related rows and marks as its
    queryset gives; the league's tables under the league, and under the league and cup."""
    fixtures = list(Fixture.objects.filter(division=division).order_by("date", "pk")[:2])
    for fixture in fixtures:
        for table_game in start_fixture(fixture):
            win_game(table_game.game, "A", 2)
    confirm(fixtures[0])
    seated = fixtures[0].tables.get(board=1)
    for player in (*seated.home_pair, *seated.away_pair):
        read = selectors.player_tables(player=player)
        expected = list(selectors._player_tables_shape(player.pk))
        assert read and [_read(t) for t in read] == [_read(t) for t in expected]
        for kinds in selectors._player_tables_reads:
            read = selectors.player_tables(player=player, kinds=kinds)
            expected = list(selectors._player_tables_shape(player.pk, kinds))
            assert [_read(t) for t in read] == [_read(t) for t in expected]
            assert bool(read) == (Fixture.Kind.LEAGUE in kinds), kinds


def test_player_registrations_built_once_are_the_querysets(division):
    """A player page's teams are read by a query built once per connection: the same rows,
    teams, seasons and leagues as its queryset gives, latest season first."""
    team = division.entries.order_by("pk").first().team
    player = squad(team, division.season)[0]
    later = SeasonFactory(league=division.season.league, starts_on=datetime.date(2026, 9, 1))
    RegistrationFactory(player=player, team=team, season=later)
    read = selectors.player_registrations(player=player)
    expected = list(selectors._player_registrations_shape(player.pk))
    assert [r.season for r in read] == [later, division.season]
    assert all(r.player is player for r in read)
    fields = [[model_to_dict(obj) for obj in (r, r.team, r.season, r.season.league)] for r in read]
    assert fields == [
        [model_to_dict(obj) for obj in (r, r.team, r.season, r.season.league)] for r in expected
    ]


def test_a_fixture_read_once_per_connection_is_its_queryset(division):
    """A fixture's page reads it by a query built once per connection: the same fixture,
    teams, venue, result (none before one is stored) and league as its queryset gives."""
    played, to_play = Fixture.objects.filter(division=division).order_by("date", "pk")[:2]
    FixtureResultFactory(fixture=played, home_win=True)

    def fields(fixture) -> list:
        related = [fixture.home, fixture.away, fixture.venue, fixture.division]
        related += [fixture.division.season, fixture.division.season.league]
        result = getattr(fixture, "result", None)
        return [model_to_dict(obj) if obj else None for obj in (fixture, *related, result)]

    for fixture in (played, to_play):
        read = selectors.fixture_get(pk=fixture.pk)
        assert fields(read) == fields(selectors._fixture_shape(fixture.pk).get())
    assert fields(selectors.fixture_get(pk=played.pk))[-1] is not None
    assert fields(selectors.fixture_get(pk=to_play.pk))[-1] is None
    with pytest.raises(Fixture.DoesNotExist):
        selectors.fixture_get(pk=999_999)


def test_a_fixtures_tables_and_adjustments_are_read_onto_it_in_up_to_four_queries(
    division, django_assert_num_queries
):
    """A fixture page's tables (with their pairs, games, sides and hands) and adjustments are
    read by queries built once per connection: the same rows as the querysets give, read onto
    the fixture so that its related managers answer without a query."""
    fixture, other = Fixture.objects.filter(division=division).order_by("date", "pk")[:2]
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 2)
    entry = division.entries.get(team=fixture.home)
    made = [PointAdjustmentFactory(entry=entry, fixture=fixture, points=p) for p in (-2, 1)]
    PointAdjustmentFactory(entry=entry, fixture=other)
    expected = list(selectors.fixture_tables().filter(fixture=fixture))
    read = selectors.fixture_get(pk=fixture.pk)
    with django_assert_num_queries(4):  # tables, their games, the games' sides, adjustments
        selectors.fixture_with_tables(fixture=read)
    with django_assert_num_queries(0):
        tables = list(read.tables.all())
        adjustments = list(read.adjustments.all())
        assert [_seated(t) for t in tables] == [_seated(t) for t in expected]
        assert all(t.fixture is read for t in tables)
        assert [len(t.games.all()[0].game.sides.all()) for t in tables] == [2] * len(tables)
        assert [t.games.all()[0].hands for t in tables] == [
            t.games.all()[0].hands for t in expected
        ]
        # Each game, its sides and its number of hands as the prefetch gives them, each
        # reaching its table and game as theirs do.
        assert [_games(t) for t in tables] == [_games(t) for t in expected]
        assert all(g.table is t for t in tables for g in t.games.all())
        assert all(
            s.game is g.game for t in tables for g in t.games.all() for s in g.game.sides.all()
        )
    assert [a.pk for a in adjustments] == [a.pk for a in made]
    # The fixture's read says whether it has tables and adjustments: none is looked for where
    # it has none.
    third = Fixture.objects.filter(division=division).order_by("date", "pk")[2]
    for fixture, queries, adjusted in ((other, 1, 1), (third, 0, 0)):
        read = selectors.fixture_get(pk=fixture.pk)
        with django_assert_num_queries(queries):  # its adjustment, or nothing
            selectors.fixture_with_tables(fixture=read)
        with django_assert_num_queries(0):
            assert list(read.tables.all()) == []
            assert len(read.adjustments.all()) == adjusted


def _games(table) -> list:
    return [
        (
            model_to_dict(g),
            g.hands,
            model_to_dict(g.game),
            [model_to_dict(s) for s in g.game.sides.all()],
        )
        for g in table.games.all()
    ]


def _seated(table) -> list:
    return [model_to_dict(obj) for obj in (table, *table.home_pair, *table.away_pair)]


def test_a_league_and_its_seasons_read_once_per_connection_are_the_querysets(division):
    """A league's home reads the league by its slug and its seasons (latest first, each given
    the league) by queries built once per connection: the same rows as the querysets give; a
    slug no league has finds none."""
    league = division.season.league
    later = SeasonFactory(league=league, starts_on=datetime.date(2030, 9, 1))
    SeasonFactory(starts_on=datetime.date(2031, 9, 1))  # another league's
    read = selectors.league_get(slug=league.slug)
    assert model_to_dict(read) == model_to_dict(League.objects.get(slug=league.slug))
    seasons = selectors.league_season_list(league=read)
    assert seasons == [later, division.season]
    assert [model_to_dict(s) for s in seasons] == [
        model_to_dict(s) for s in league.seasons.order_by("-starts_on")
    ]
    assert all(season.league is read for season in seasons)
    for slug in ("no-such-league", league.slug.upper()):
        with pytest.raises(League.DoesNotExist):
            selectors.league_get(slug=slug)


def test_the_leagues_season_is_the_one_in_play_until_the_next_starts():
    """The one rule for "the league's season" (``seasons_now``): the latest started by the day
    given, kept after its end until the next starts; before any has started, the first to
    come; the others to come soonest first, the earlier ones latest first."""
    day = datetime.timedelta(days=1)
    past, playing, ahead, later = (
        SeasonFactory.build(pk=pk, starts_on=datetime.date(2025, 9, 2) + 365 * n * day)
        for n, pk in enumerate((1, 2, 3, 4))
    )
    playing.ends_on = playing.starts_on + 200 * day
    seasons = [later, past, ahead, playing]  # in no order
    now = selectors.seasons_now(seasons, today=ahead.starts_on - day)
    assert now == selectors.SeasonsNow(playing, [ahead, later], [past])
    after_its_end = selectors.seasons_now(seasons, today=playing.ends_on + day)
    assert after_its_end.current == playing, "its final table until the next starts"
    assert selectors.seasons_now(seasons, today=ahead.starts_on).current == ahead
    first = selectors.seasons_now([later, ahead], today=past.starts_on)
    assert first == selectors.SeasonsNow(ahead, [later], []), "a new league's first season"
    assert selectors.seasons_now([], today=past.starts_on) == selectors.SeasonsNow(None, [], [])


def test_a_divisions_nights_and_a_player_read_once_per_connection_are_the_querysets(division):
    """A division's nights (each date once, in order, only its own) and a player are read by
    queries built once per connection: what the querysets give; an id no player has finds
    none."""
    other = DivisionFactory(season=division.season, rank=2)
    FixtureFactory(division=other, date=datetime.date(2020, 1, 7))
    fixtures = Fixture.objects.filter(division=division)
    expected = sorted(set(fixtures.values_list("date", flat=True)))
    assert len(expected) > 1 and fixtures.count() > len(expected)  # nights of several fixtures
    nights = selectors.division_nights(division=division)
    assert [night.date for night in nights] == expected
    assert all(type(night.date) is datetime.date for night in nights)
    assert [night.week for night in nights] == list(range(1, len(expected) + 1))
    assert selectors.division_nights(division=DivisionFactory(season=division.season)) == []
    player = PlayerFactory()
    assert model_to_dict(selectors.player_get(pk=player.pk)) == model_to_dict(player)
    with pytest.raises(Player.DoesNotExist):
        selectors.player_get(pk=player.pk + 1000)


def test_a_divisions_weeks_are_its_league_nights_not_a_cup_night_filed_under_it(
    division, django_assert_num_queries
):
    """A cup tie is filed under its home team's division, but its night is not one of the
    division's weeks: a Friday of cup ties was counted as a week, so each league night after it
    was a week later than its fixtures' round. The cup tie (one against another division's
    team) is in neither the night's nor the team's list of the division, but in the team's own;
    a play-off's night is listed, headed by its kind, and not counted as a week."""
    rounds = dict(Fixture.objects.filter(division=division).values_list("date", "round").distinct())
    first, second = sorted(rounds)[:2]
    home = Fixture.objects.filter(division=division, date=first).first().home
    stranger = TeamEntryFactory(division=DivisionFactory(season=division.season, rank=2)).team
    friday = first + datetime.timedelta(days=3)
    cup = FixtureFactory(
        division=division, home=home, away=stranger, date=friday, kind=Fixture.Kind.CUP
    )
    last = max(rounds)
    playoff = FixtureFactory(
        division=division,
        home=home,
        away=Fixture.objects.filter(division=division, date=first).first().away,
        date=last + datetime.timedelta(days=7),
        kind=Fixture.Kind.PLAYOFF,
    )
    with django_assert_num_queries(1):
        nights = selectors.division_nights(division=division)
    assert friday not in [night.date for night in nights]
    weeks = {night.date: night.week for night in nights if night.week is not None}
    assert weeks == rounds, "each league night's week is its fixtures' round"
    assert nights[-1] == selectors.Night(playoff.date, None, "Play-off")
    assert [night.label for night in nights[:2]] == ["Week 1", "Week 2"]
    assert second == nights[1].date
    assert cup.pk not in [row.pk for row in selectors.division_fixture_rows(division=division)]
    assert selectors.division_fixture_rows(division=division, week=friday) == []
    by_team = selectors.division_fixture_rows(division=division, team=home)
    assert cup.pk not in [row.pk for row in by_team] and playoff.pk in [r.pk for r in by_team]
    # The team's own list has it, marked as the cup's.
    entry = division.entries.get(team=home)
    (listed,) = [
        row
        for row in selectors.team_fixture_rows(entry=entry, league=division.season.league)
        if row.pk == cup.pk
    ]
    assert listed.listed_under == "Cup"
