"""Factories for leagues: structure, fixtures, stored results and adjustments.

    league = LeagueFactory()                      # Yorkshire style, West Yorkshire rules to 11
    league = LeagueFactory(trinidad=True)         # trait: Trinidad style, bullseyes, to 14
    entry = TeamEntryFactory(division=division)   # a team of the division's league, entered
    fixture = FixtureFactory(division=d, home=a, away=b)
    FixtureResultFactory(fixture=fixture, home_win=True)   # trait: a stored, final home win

Stored results are for standings tests, which read results and never games; results from real
games are recorded through the services (see ``tests/leagues/helpers.py``).
"""

from __future__ import annotations

import datetime
from typing import Any

import factory
from factory import fuzzy

from leagues.formats import STYLE_PRESETS
from leagues.models import (
    AuditEntry,
    Division,
    Fixture,
    FixtureResult,
    League,
    Outcome,
    Player,
    PointAdjustment,
    Registration,
    ResultSubmission,
    Season,
    Team,
    TeamEntry,
    Venue,
)
from leagues.services.standings import refresh_division_table, refresh_fixture_table

YORKSHIRE = STYLE_PRESETS["yorkshire"]
TRINIDAD = STYLE_PRESETS["trinidad"]


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Calder Valley All Fours League {n}")
    slug = factory.Sequence(lambda n: f"calder-valley-{n}")
    style = League.Style.YORKSHIRE
    ruleset = factory.LazyFunction(lambda: dict(YORKSHIRE.ruleset))
    match_format = factory.LazyFunction(YORKSHIRE.match_format.to_spec)
    tiebreaks = factory.LazyFunction(lambda: list(YORKSHIRE.tiebreaks))
    league_night = 1

    class Params:
        trinidad = factory.Trait(
            name=factory.Sequence(lambda n: f"San Fernando All Fours Association {n}"),
            style=League.Style.TRINIDAD,
            ruleset=factory.LazyFunction(lambda: dict(TRINIDAD.ruleset)),
            match_format=factory.LazyFunction(TRINIDAD.match_format.to_spec),
            tiebreaks=factory.LazyFunction(lambda: list(TRINIDAD.tiebreaks)),
            league_night=4,
        )


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    # Years no test types for a season of its own ("2025–26"): a worker that had made 25
    # seasons named its next "2025–26", and a test's own season of that name found two.
    name = factory.Sequence(lambda n: f"{2100 + n}–{(n + 1) % 100:02d}")
    slug = factory.Sequence(lambda n: f"season-{n}")
    starts_on = datetime.date(2025, 9, 2)


class DivisionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Division

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Division {n}")
    slug = factory.Sequence(lambda n: f"division-{n}")
    # The season's next rank: two divisions of a season never share one.
    rank = factory.LazyAttribute(
        lambda o: 1 + max(o.season.divisions.values_list("rank", flat=True), default=0)
    )


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Venue

    name = factory.Sequence(lambda n: f"The Shoulder of Mutton {n}")
    slug = factory.Sequence(lambda n: f"shoulder-of-mutton-{n}")
    town = fuzzy.FuzzyChoice(["Heckmondwike", "Batley", "Dewsbury", "Cleckheaton"])


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    slug = factory.Sequence(lambda n: f"team-{n}")
    home_venue = factory.SubFactory(VenueFactory, league=factory.SelfAttribute("..league"))


class TeamEntryFactory(factory.django.DjangoModelFactory):
    """A team entered in a division; the team belongs to the division's league."""

    division = factory.SubFactory(DivisionFactory)
    season = factory.SelfAttribute("division.season")
    team = factory.SubFactory(TeamFactory, league=factory.SelfAttribute("..season.league"))

    class Meta:
        model = TeamEntry
        skip_postgeneration_save = True

    @factory.post_generation
    def table(obj, create, extracted, **kwargs):  # noqa: N805
        """The division's stored table has the team, as ``team_enter`` leaves it."""
        if create:
            refresh_division_table(division=obj.division_id)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    player = factory.SubFactory(PlayerFactory)
    team = factory.SubFactory(TeamFactory)
    season = factory.SubFactory(SeasonFactory, league=factory.SelfAttribute("..team.league"))


class FixtureFactory(factory.django.DjangoModelFactory):
    division = factory.SubFactory(DivisionFactory)
    home = factory.LazyAttribute(lambda o: TeamEntryFactory(division=o.division).team)
    away = factory.LazyAttribute(lambda o: TeamEntryFactory(division=o.division).team)
    date = datetime.date(2025, 9, 9)
    venue = factory.SelfAttribute("home.home_venue")
    status = Fixture.Status.SCHEDULED

    class Params:
        played = factory.Trait(status=Fixture.Status.PLAYED)

    class Meta:
        model = Fixture
        skip_postgeneration_save = True

    @factory.post_generation
    def table(obj, create, extracted, **kwargs):  # noqa: N805
        """The fixture is among the stored table's fixtures left, as ``fixture_add`` leaves it."""
        if create:
            refresh_fixture_table(fixture=obj)


class FixtureResultFactory(factory.django.DjangoModelFactory):
    """A stored final result; the fixture is marked played. Set the figures you need.

    The result is confirmed (so it counts in the standings) unless ``confirmed=False``.
    """

    class Meta:
        model = FixtureResult
        skip_postgeneration_save = True

    fixture = factory.SubFactory(FixtureFactory, played=True)
    is_final = True
    outcome = Outcome.DRAW

    class Params:
        home_win = factory.Trait(
            outcome=Outcome.HOME,
            home_tables=3,
            away_tables=1,
            home_games=3,
            away_games=1,
            home_match_points=8,
            away_match_points=2,
            home_points=8,
            away_points=2,
        )
        away_win = factory.Trait(
            outcome=Outcome.AWAY,
            home_tables=1,
            away_tables=3,
            home_games=1,
            away_games=3,
            home_match_points=2,
            away_match_points=8,
            home_points=2,
            away_points=8,
        )

    @factory.post_generation
    def mark_played(obj, create, extracted, **kwargs):  # noqa: N805
        if create and obj.fixture.status != Fixture.Status.PLAYED:
            obj.fixture.status = Fixture.Status.PLAYED
            obj.fixture.save(update_fields=["status"])

    @factory.post_generation
    def confirmed(obj, create, extracted, **kwargs):  # noqa: N805
        if create and extracted is not False:
            confirm_result(obj)

    @factory.post_generation
    def table(obj, create, extracted, **kwargs):  # noqa: N805
        """The division's stored table counts it, as the result services leave it."""
        if create:
            refresh_fixture_table(fixture=obj.fixture)


def confirm_result(result: FixtureResult) -> ResultSubmission:
    """A confirmed submission of ``result``: submitted from a table link, confirmed by a
    secretary."""
    from leagues.services.confirmation import result_figures
    from scoring.services.links import _scoring_link_create
    from tests.factories.scoring import UserFactory

    submission = ResultSubmission.objects.create(
        fixture=result.fixture,
        figures=result_figures(result),
        submitted_by_link=_scoring_link_create(label="table 1"),
        status=ResultSubmission.Status.CONFIRMED,
        confirmed_by=UserFactory(),
        confirmed_at=datetime.datetime.now(tz=datetime.UTC),
        confirmed_as=ResultSubmission.ConfirmedAs.SECRETARY,
    )
    # The result's standing and the table, as the confirmation service leaves them.
    refresh_fixture_table(fixture=result.fixture)
    result.refresh_from_db(fields=["confirmed", "expunged", "submitted"])
    return submission


class PointAdjustmentFactory(factory.django.DjangoModelFactory):
    entry = factory.SubFactory(TeamEntryFactory)
    points = -2
    reason = "Fielded an unregistered player"

    class Meta:
        model = PointAdjustment
        skip_postgeneration_save = True

    @factory.post_generation
    def table(obj, create, extracted, **kwargs):  # noqa: N805
        """The stored table has it, as ``points_adjust`` leaves it."""
        if create:
            refresh_division_table(division=obj.entry.division_id)


def take_away(game: Any) -> None:
    """``game`` (a stand-alone one, for a test of the scoring pages) gone as a table's next game
    goes when the game before it comes back into play
    (``leagues.services.results.later_games_go``): deleted, with the audit entry that names it
    taken away, in a league of its own."""
    from leagues.audit import audit_log
    from leagues.services.results import gone_words, taken_away_named

    gone = {2: game.pk}
    game.delete()
    audit_log(
        league=LeagueFactory(),
        action=AuditEntry.Action.GAME_TAKEN_AWAY,
        subject=f"Table 1: {gone_words(list(gone))}: game 1 is back in play",
        before={"table": 1, "in_play": "game 2"},
        after={"table": 1, "in_play": "game 1"} | taken_away_named(gone),
    )
