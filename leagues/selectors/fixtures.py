"""Leagues, seasons, divisions, fixtures, teams and players as pages show them."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TypeVar

from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    Model,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)

from leagues.models import (
    Division,
    Fixture,
    FixtureTable,
    League,
    Player,
    PointAdjustment,
    Registration,
    ResultSubmission,
    Season,
    TableGame,
    Team,
    TeamEntry,
    Venue,
)
from leagues.selectors.counting import counts_q, fixtures_with_standing, is_provisional_q
from scoring.models import Side
from scoring.services.compiled import CompiledRead

M = TypeVar("M", bound=Model)

FIXTURE_RELATED = ("home", "away", "venue", "result", "division__season__league")

#: A list of fixtures reads each one's division, season and league once for the whole list (one
#: more query), not with every row: they are the same for most rows, and building the three
#: (the season's and league's formats and rules) for every row was half the list's time.
LISTED_DIVISIONS = Prefetch("division", queryset=Division.objects.select_related("season__league"))


def league_list() -> QuerySet[League]:
    return League.objects.order_by("name")


def league_get(*, slug: str) -> League:
    """The league with this slug; raises ``League.DoesNotExist``."""
    return League.objects.get(slug=slug)


def league_get_by_pk(*, pk: int) -> League:
    """The league with this id; raises ``League.DoesNotExist``."""
    return League.objects.get(pk=pk)


#: Each season's divisions, top first (``season.divisions.all()``).
SEASON_DIVISIONS = Prefetch("divisions", queryset=Division.objects.order_by("rank", "name"))


def league_seasons(*, league: League, divisions: bool = True) -> QuerySet[Season]:
    """The league's seasons, latest first, each with its divisions unless ``divisions=False``
    (``seasons_divisions`` reads them later, for a page that may not need them)."""
    seasons = league.seasons.order_by("-starts_on")
    return seasons.prefetch_related(SEASON_DIVISIONS) if divisions else seasons


def seasons_divisions(*, seasons: list[Season]) -> None:
    """Read the seasons' divisions onto them (as ``league_seasons`` does), in one query."""
    prefetch_related_objects(seasons, SEASON_DIVISIONS)


def league_current_season(*, league: League) -> Season | None:
    """The season that started most recently."""
    return league.seasons.order_by("-starts_on").first()


def division_get(*, pk: int) -> Division:
    """The division with its season and league; raises ``Division.DoesNotExist``."""
    return Division.objects.select_related("season__league").get(pk=pk)


def division_entries(*, division: Division) -> QuerySet[TeamEntry]:
    return division.entries.select_related("team__home_venue", "captain").order_by("team__name")


def _season_name(side: str) -> Subquery:
    return Subquery(
        TeamEntry.objects.filter(team=OuterRef(side), season=OuterRef("division__season"))
        .order_by()
        .values("name")[:1]
    )


def with_season_names(fixtures: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """Each fixture with ``home_name`` and ``away_name``: the teams' names that season (past
    seasons keep the names they were played under)."""
    return fixtures.annotate(home_name=_season_name("home"), away_name=_season_name("away"))


def fixture_list(
    *,
    division: Division | None = None,
    season: Season | None = None,
    team: Team | None = None,
    statuses: Iterable[str] | None = None,
    standing: bool = False,
) -> QuerySet[Fixture]:
    """Fixtures in date order with teams, venue and stored result, in one query, and their
    divisions (with season and league) in one more unless ``division`` is given (then it is
    theirs). ``standing``: each with ``result_counts`` too (``counting.fixtures_with_standing``,
    which the API and the calendar say; a page's list reads how a result stands from the
    result itself, ``result_mark``, and is spared its joins)."""
    if division is not None:
        # Reached through the division, each fixture is given that very division: no query.
        fixtures = division.fixtures.all()
    else:
        fixtures = Fixture.objects.prefetch_related(LISTED_DIVISIONS)
    fixtures = fixtures.select_related("home", "away", "venue", "result").order_by(
        "date", "time", "pk"
    )
    if standing:
        fixtures = fixtures_with_standing(fixtures)
    fixtures = with_season_names(fixtures)
    if season is not None:
        fixtures = fixtures.filter(division__season=season)
    if team is not None:
        fixtures = fixtures.filter(Q(home=team) | Q(away=team))
    if statuses is not None:
        fixtures = fixtures.filter(status__in=list(statuses))
    return fixtures


def division_fixtures(*, division: Division) -> QuerySet[Fixture]:
    return fixture_list(division=division)


def division_weeks(*, division: Division) -> list[datetime.date]:
    """The division's league nights: the dates of its fixtures, in order (one query)."""
    return list(
        Fixture.objects.filter(division=division)
        .order_by("date")
        .values_list("date", flat=True)
        .distinct()
    )


def counted_results(
    *, division: Division | None = None, season: Season | None = None, team: Team | None = None
) -> QuerySet[Fixture]:
    """The results that count (``leagues.selectors.counting``), latest first. Within one league
    (a division's or a season's results) its own ``show_provisional`` is the rule, so the query
    need not join each fixture's league to read it (fewer joins for the database to plan)."""
    owner = division.season if division is not None else season
    provisional = owner.league.show_provisional if owner is not None else None
    return (
        fixture_list(division=division, season=season, team=team)
        .filter(counts_q(provisional=provisional))
        .order_by("-date", "-time", "-pk")
    )


#: Fixtures a re-generation keeps whatever happens: their result or decision is stored.
KEPT = (Fixture.Status.PLAYED, Fixture.Status.WALKOVER, Fixture.Status.VOID)


def results_to_see_to(*, league: League) -> list[Fixture]:
    """The league's fixtures played to the end whose result is not confirmed yet, oldest first,
    each with ``open_status``: its open submission's ("submitted", "disputed"), or None when
    nobody has submitted it. What the secretary's desk lists."""
    open_submission = ResultSubmission.objects.filter(
        fixture=OuterRef("pk"), status__in=ResultSubmission.OPEN_STATUSES
    ).order_by("-pk")
    return list(
        Fixture.objects.filter(
            is_provisional_q(), division__season__league=league, result__is_final=True
        )
        .annotate(open_status=Subquery(open_submission.values("status")[:1]))
        .select_related("home", "away", "division")
        .order_by("date", "time", "pk")
    )


def results_missing(*, league: League) -> list[Fixture]:
    """The league's fixtures whose night has passed with no table scored to a finish and no
    decision (still scheduled): the results to enter from the score card, oldest first."""
    return list(
        Fixture.objects.filter(
            division__season__league=league,
            status=Fixture.Status.SCHEDULED,
            date__lt=league.today(),
        )
        .exclude(result__is_final=True)
        .select_related("home", "away", "division")
        .order_by("date", "time", "pk")
    )


def division_kept_count(*, division: Division) -> int:
    """Fixtures a re-generation of the division's list would keep: decided ones and any with a
    game started (one query)."""
    started = TableGame.objects.filter(table__fixture__division=division).values("table__fixture")
    return (
        Fixture.objects.filter(division=division)
        .filter(Q(status__in=KEPT) | Q(pk__in=started))
        .count()
    )


def division_adjustments(*, division: Division) -> QuerySet[PointAdjustment]:
    """The division's point adjustments, latest first, with team, fixture and who made them."""
    return (
        PointAdjustment.objects.filter(entry__division=division)
        .select_related("entry__team", "fixture__home", "fixture__away", "made_by")
        .order_by("-made_at", "-pk")
    )


def _fixture_shape(fixture_id: int) -> QuerySet[Fixture]:
    return Fixture.objects.select_related(*FIXTURE_RELATED).filter(pk=fixture_id)


#: A fixture's page reads it by a query built once per connection
#: (``scoring.services.compiled``): its five joins cost more to build than to run.
_fixture_read = CompiledRead(_fixture_shape)


def fixture_get(*, pk: int) -> Fixture:
    """A fixture with its teams, venue, result and league: one query; raises
    ``Fixture.DoesNotExist``."""
    for fixture in _fixture_read.rows(pk):
        return fixture
    raise Fixture.DoesNotExist(f"No fixture {pk}.")


def table_games() -> QuerySet[TableGame]:
    """A table's games in order, with their sides in seat order and each game's number of
    ``hands`` (one query for every table's games, one for their sides)."""
    return (
        TableGame.objects.select_related("game")
        .annotate(hands=Count("game__hands"))
        .prefetch_related(Prefetch("game__sides", queryset=Side.objects.order_by("position")))
        .order_by("number")
    )


def fixture_tables() -> QuerySet[FixtureTable]:
    """A fixture's tables in board order, with the pairs and ``table_games``."""
    return (
        FixtureTable.objects.select_related(
            "home_player_1", "home_player_2", "away_player_1", "away_player_2"
        )
        .prefetch_related(Prefetch("games", queryset=table_games()))
        .order_by("board")
    )


def fixture_detail(*, pk: int) -> Fixture:
    """A fixture with its result, tables and pairs, games with their sides and hands, and
    adjustments: five queries."""
    return fixture_with_tables(fixture=fixture_get(pk=pk))


def fixture_with_tables(*, fixture: Fixture) -> Fixture:
    """The fixture as ``fixture_get`` reads it with its tables and pairs, games with their
    sides and hands, and adjustments read onto it: four queries (a page that has the fixture
    already does not read it again)."""
    prefetch_related_objects(
        [fixture], Prefetch("tables", queryset=fixture_tables()), Prefetch("adjustments")
    )
    return fixture


def team_get(*, pk: int) -> Team:
    return Team.objects.select_related("league", "home_venue").get(pk=pk)


def _team_entries_shape(team_id: int) -> QuerySet[TeamEntry]:
    return (
        TeamEntry.objects.filter(team=team_id)
        .select_related("division", "season")
        .order_by("-season__starts_on", "pk")
    )


#: A team page's seasons, by a query built once per connection (``scoring.services.compiled``).
_team_entries_read = CompiledRead(_team_entries_shape)


def team_entries(*, team: Team) -> list[TeamEntry]:
    """The team's divisions season by season, latest first, with their seasons (what the team
    page shows of them), each given ``team``."""
    return _rows_given(_team_entries_read, team, "team")


def team_squad(*, team: Team, season: Season) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(team=team, season=season)
        .select_related("player")
        .order_by("player__name")
    )


def player_get(*, pk: int) -> Player:
    return Player.objects.get(pk=pk)


def _player_tables_shape(player_id: int) -> QuerySet[FixtureTable]:
    seated = Q()
    for seat in ("home_player_1", "home_player_2", "away_player_1", "away_player_2"):
        seated |= Q(**{seat: player_id})
    return (
        FixtureTable.objects.filter(seated)
        .filter(counts_q("fixture__"))
        .annotate(
            provisional=ExpressionWrapper(
                is_provisional_q("fixture__"), output_field=BooleanField()
            )
        )
        .select_related(
            "fixture__home",
            "fixture__away",
            "home_player_1",
            "home_player_2",
            "away_player_1",
            "away_player_2",
        )
        .order_by("-fixture__date", "-fixture__pk")
    )


#: Building the tables' query (the counting rule's joins, six tables' rows read with them)
#: costs the ORM far more than running it: it is built once per connection
#: (``scoring.services.compiled``; a test compares its rows with the queryset's).
_player_tables_read = CompiledRead(_player_tables_shape)


def player_tables(*, player: Player) -> list[FixtureTable]:
    """The fixture tables the player sat at in results that count, latest first (each marked
    ``provisional`` when not yet confirmed), with their games' scores (three queries: tables,
    games, sides). A game is read with its status and winner only, a side with its score (not
    the ruleset or the players, which the page does not show)."""
    tables = _player_tables_read.rows(player.pk)
    games = (
        TableGame.objects.select_related("game")
        .only("table", "number", "game__status", "game__winner")
        .prefetch_related(
            Prefetch(
                "game__sides",
                queryset=Side.objects.only("game", "score").order_by("position"),
            )
        )
    )
    prefetch_related_objects(tables, Prefetch("games", queryset=games))
    return tables


def _player_registrations_shape(player_id: int) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(player=player_id)
        .select_related("team", "season__league")
        .order_by("-season__starts_on", "pk")
    )


#: A player page's teams, by a query built once per connection (``scoring.services.compiled``).
_player_registrations_read = CompiledRead(_player_registrations_shape)


def player_registrations(*, player: Player) -> list[Registration]:
    """The player's teams season by season, latest first, with their seasons and leagues, each
    given ``player``."""
    return _rows_given(_player_registrations_read, player, "player")


def _rows_given(read: CompiledRead[M], owner: Model, field: str) -> list[M]:
    """``read``'s rows for ``owner``'s id, each given ``owner`` as ``field`` (the page has it:
    no query reads it again)."""
    rows = read.rows(owner.pk)
    for row in rows:
        setattr(row, field, owner)
    return rows


def league_venues(*, league: League) -> QuerySet[Venue]:
    """The venues the league keeps: its teams' homes and fixtures' venues are chosen from
    these, and its secretaries change only these."""
    return Venue.objects.filter(league=league).order_by("name", "town")


def league_players_available(*, league: League) -> QuerySet[Player]:
    """The players a secretary of ``league`` may register: the league's own and anyone not
    registered in another league (``leagues.permissions.player_is_free`` has the last word)."""
    elsewhere = Registration.objects.exclude(season__league=league).values("player")
    return Player.objects.exclude(pk__in=elsewhere).order_by("name", "pk")


def league_players(*, league: League) -> QuerySet[Player]:
    """The league's own players: everyone registered for one of its teams in any season."""
    return (
        Player.objects.filter(registrations__season__league=league)
        .distinct()
        .order_by("name", "pk")
    )
