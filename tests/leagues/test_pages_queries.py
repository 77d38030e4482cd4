"""The public league pages run a fixed number of queries, whatever the division's size, and
their cached fragments are never stale.

Each page is fetched twice: rendered (its league's fragments just cleared) and then served from
the cache. The counts hold for 4 and 12 teams with a full double round robin of stored results,
a deduction and fixtures still to play. The cache here is the database cache, so its reads and
writes are queries too: a page served from it runs the page's own lookups (the division, the
team...) and one read of the cache.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues.fragments import invalidate_league, versions_tag
from leagues.models import Fixture, PointAdjustment
from leagues.progression import BAND_ABOVE
from leagues.services.fixtures import fixture_walkover, fixtures_generate
from leagues.services.standings import refresh_division_table, store_result_standing
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
    PointAdjustmentFactory,
    RegistrationFactory,
    TeamEntryFactory,
)
from tests.leagues.helpers import (
    current_game,
    entered_teams,
    hand,
    page_words,
    record,
    start_fixture,
)

pytestmark = pytest.mark.django_db

CACHE_WRITE = 6
"""Storing a fragment in the database cache: count (for culling), savepoint, look-up, insert,
release; and the read that found nothing."""
BEGUN = 1
"""A fixture list with a fixture whose night passed without a result: which of those had a game
begun (``mark_begun``: "In play"). Every page here has such a fixture; a list without one reads
nothing for it."""

# page: (queries rendered, queries served from the cache)
QUERIES = {
    # The division with its season, league, stored table (the fixtures left, the league
    # nights, how many adjustments there are) and whether a division ranks above and below it
    # (the race); then the table's rows with their teams, and its adjustments (there is one).
    "standings": (3 + CACHE_WRITE, 2),
    # The division, its entries (the team chooser), its weeks, the week's fixtures; a team's
    # fixtures without the weeks (the page does not step through them), and which of those
    # whose night has passed without a result had a game begun (``BEGUN``; the week shown
    # here has none such, so no such read).
    "fixtures by week": (4 + CACHE_WRITE, 2),
    "fixtures by team": (3 + BEGUN + CACHE_WRITE, 2),
    # The fixture with its teams and result (whose standing says whether it is confirmed) and
    # whether it has tables and adjustments (here neither: none read, and no games to look
    # up), and, its result counting, how it came to ("Result settled by the secretary").
    "fixture": (2 + CACHE_WRITE, 2),
    # The team with its seasons (on a cached page too), then its row of the stored table
    # (with the table's size), fixtures (their division and league are the season's: not read
    # again), squad (and who in it shares a name with someone else in the league), players'
    # stored figures, summed in one query.
    # And which of its fixtures whose night passed without a result had a game begun (``BEGUN``).
    "team": (6 + BEGUN + CACHE_WRITE, 2),
    # The player, then whether someone else in the league has their name or the name of
    # someone at their tables (the title, the partners), registrations, tables (with games: and
    # the games, and their scores) and the stored figures (the partners' too).
    "player": (5 + CACHE_WRITE, 3),
    # The league with its seasons (in one query), their divisions (the fixtures' too), then
    # the latest results, the fixtures awaiting theirs (the last nights' here: nothing read of
    # games begun at their tables, which the list does not say) and the next fixtures, every
    # division's stored table and rows at once (not the adjustments: the home lists none, the
    # rows mark the totals with one in them), the league's cups, whether there is a league
    # night now (``night_now``: its link). Served as stored: the league with its seasons (not
    # their divisions), the fragment.
    "league home": (9 + CACHE_WRITE, 2),
}


def division_of(size: int, style: str):
    league = LeagueFactory(trinidad=True) if style == "trinidad" else LeagueFactory()
    division = DivisionFactory(season__league=league)
    entries = [TeamEntryFactory(division=division) for _ in range(size)]
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=2)
    fixtures = list(Fixture.objects.filter(division=division).order_by("date", "pk"))
    for i, fixture in enumerate(fixtures[: len(fixtures) * 3 // 4]):
        FixtureResultFactory(fixture=fixture, home_win=i % 3 != 0, away_win=i % 3 == 0)
    PointAdjustmentFactory(entry=entries[0], points=-2)
    return division


def pages_of(division) -> dict[str, str]:
    team = division.entries.first().team
    registration = RegistrationFactory(team=team, season=division.season)
    fixture = Fixture.objects.filter(division=division).order_by("date", "pk").first()
    fixtures = reverse("leagues:division_fixtures", args=[division.pk])
    return {
        "standings": reverse("leagues:division", args=[division.pk]),
        "fixtures by week": f"{fixtures}?week=2025-09-09",
        "fixtures by team": f"{fixtures}?team={team.pk}",
        "fixture": reverse("leagues:fixture", args=[fixture.pk]),
        "team": reverse("leagues:team", args=[team.pk]),
        "player": reverse("leagues:player", args=[registration.player.pk]),
        "league home": reverse("leagues:league", args=[division.season.league.slug]),
    }


@pytest.mark.parametrize("size", [4, 12])
def test_each_page_runs_a_fixed_number_of_queries(client, django_assert_num_queries, size):
    division = division_of(size, "yorkshire")
    pages = pages_of(division)
    client.get(pages["fixture"])  # the cache's versions (the live one too) exist from here on
    for page, url in pages.items():
        rendered, cached = QUERIES[page]
        invalidate_league(division.season.league_id)
        with django_assert_num_queries(rendered):
            first = client.get(url)
        with django_assert_num_queries(cached):
            second = client.get(url)
        assert first.status_code == second.status_code == 200, page
        if "fragment" in first.context:
            assert first.context["fragment"] == second.context["fragment"], page


def test_a_big_divisions_standings_read_the_points_a_night_of_the_charts_few_teams_alone(
    client, django_assert_num_queries
):
    """A division of more than ``BAND_ABOVE`` teams: its table's rows are read without their
    points a night, and the chart's picked-out teams' are read in one query more, whichever
    team is picked out."""
    division = DivisionFactory(season__league=LeagueFactory())
    entries = [TeamEntryFactory(division=division) for _ in range(BAND_ABOVE + 2)]
    for i in range(0, len(entries), 2):
        fixture = FixtureFactory(division=division, home=entries[i].team, away=entries[i + 1].team)
        FixtureResultFactory(fixture=fixture, home_win=True)
    PointAdjustmentFactory(entry=entries[0], points=-2)
    url = reverse("leagues:division", args=[division.pk])
    client.get(url)
    for chosen in ("", entries[5].team.pk, entries[9].team.pk):
        invalidate_league(division.season.league_id)
        with django_assert_num_queries(QUERIES["standings"][0] + 1):
            response = client.get(url, {"team": chosen})
        assert 'data-testid="chart-band"' in response.content.decode()


def test_a_division_without_adjustments_does_not_look_them_up(client, django_assert_num_queries):
    """The stored table says how many adjustments its division has: none, no query (the
    league's home, which lists none, looks them up for no division)."""
    division = division_of(4, "yorkshire")
    PointAdjustment.objects.filter(entry__division=division).delete()
    refresh_division_table(division=division)
    urls = pages_of(division)
    for page, fewer in (("standings", 1), ("league home", 0)):
        client.get(urls[page])
        invalidate_league(division.season.league_id)
        with django_assert_num_queries(QUERIES[page][0] - fewer):
            response = client.get(urls[page])
        assert "Point adjustments" not in response.content.decode(), page


def test_the_league_home_runs_the_same_queries_whatever_the_number_of_divisions(
    client, django_assert_num_queries
):
    """Each division's table on the league's home is read with all the others: three
    divisions cost what one does."""
    division = division_of(4, "yorkshire")
    season = division.season
    for rank in (2, 3):
        other = DivisionFactory(season=season, rank=rank)
        for _ in range(4):
            TeamEntryFactory(division=other)
        fixtures_generate(division=other, start=datetime.date(2025, 9, 2), legs=2)
        for fixture in Fixture.objects.filter(division=other)[:4]:
            FixtureResultFactory(fixture=fixture, home_win=True)
    url = pages_of(division)["league home"]
    client.get(url)
    invalidate_league(season.league_id)
    with django_assert_num_queries(QUERIES["league home"][0]):
        page = client.get(url).content.decode()
    assert page.count('class="division-glance"') == 3


def test_a_result_put_forward_among_the_awaited_is_read_with_no_query_more(
    client, django_assert_num_queries
):
    """An awaited result a side has put forward reads as every page says it ("Result
    submitted, awaiting confirmation", "Result disputed") from its stored standing
    (``FixtureResult.disputed``, read with the list): no query more on the league home (it read
    the open submissions' statuses in one query more, ``mark_waiting``)."""
    from leagues.models import ResultSubmission
    from tests.factories.scoring import UserFactory

    division = division_of(4, "yorkshire")
    awaited = Fixture.objects.filter(division=division, result__isnull=True).order_by("date")[0]
    result = FixtureResultFactory(fixture=awaited, home_win=True, confirmed=False)
    ResultSubmission.objects.create(
        fixture=awaited,
        submitted_by=UserFactory(),
        status=ResultSubmission.Status.DISPUTED,
        dispute_reason="Table 2 was 11-9",
        disputed_by=UserFactory(),
    )
    store_result_standing(fixtures=Fixture.objects.filter(pk=awaited.pk))
    result.refresh_from_db()
    assert result.submitted and result.disputed
    url = pages_of(division)["league home"]
    client.get(url)
    invalidate_league(division.season.league_id)
    with django_assert_num_queries(QUERIES["league home"][0]):
        page = page_words(client.get(url))
    assert f'href="{awaited.get_absolute_url()}">' in page and "· Result disputed</span>" in page


@pytest.mark.parametrize("style", ["yorkshire", "trinidad"])
def test_standings_rows_and_queries_do_not_grow_with_a_sort(
    client, django_assert_num_queries, style
):
    division = division_of(12, style)
    url = reverse("leagues:division", args=[division.pk])
    response = client.get(url)
    assert response.content.decode().count("<tr") == 12 + 1
    with django_assert_num_queries(QUERIES["standings"][0]):
        assert client.get(url, {"sort": "-pegs_for"}).status_code == 200
    with django_assert_num_queries(QUERIES["standings"][1]):
        assert client.get(url, {"sort": "-pegs_for"}).status_code == 200


def test_a_result_changed_shows_at_once_on_every_cached_page(client):
    """A walkover given through the service: the cached table, week and team pages show it on
    the very next fetch."""
    division = division_of(4, "yorkshire")
    pages = pages_of(division)
    for url in pages.values():
        client.get(url)
    fixture = (
        Fixture.objects.filter(division=division, status=Fixture.Status.SCHEDULED)
        .order_by("date", "pk")
        .first()
    )
    standings = reverse("leagues:division", args=[division.pk])
    before = client.get(standings).content
    fixture_walkover(fixture=fixture, to="home", reason="The away team did not turn up")
    after = client.get(standings).content
    assert after != before
    week = client.get(
        reverse("leagues:division_fixtures", args=[division.pk]),
        {"week": fixture.date.isoformat()},
    ).content.decode()
    assert "walkover" in week.lower()
    team = client.get(reverse("leagues:team", args=[fixture.home_id])).content.decode()
    assert "walkover" in team.lower()


def test_new_code_never_serves_a_fragment_the_old_code_rendered(
    client, django_assert_num_queries, monkeypatch
):
    """A server started on new code (another ``config.release``) renders each page afresh, and
    a poll holding the old code's tag is not told "not modified": a deploy showed "Week 3 of
    6" from the cache after the code had stopped counting cup nights as weeks."""
    division = division_of(4, "yorkshire")
    pages = pages_of(division)
    client.get(pages["fixture"])
    rendered, cached = QUERIES["standings"]
    client.get(pages["standings"])
    with django_assert_num_queries(cached):
        client.get(pages["standings"])
    league = division.season.league_id
    tag = versions_tag(league_id=league)
    monkeypatch.setattr("leagues.fragments.release", lambda: "a-new-release")
    with django_assert_num_queries(rendered):
        client.get(pages["standings"])
    assert versions_tag(league_id=league) != tag


def test_a_hand_in_play_changes_the_fixture_page_and_no_other(client, django_assert_num_queries):
    """On a league night hands come in from every table: each shows at once on its fixture's
    page (the games as they stand), while the table, the week's fixtures, the team pages and
    the league's home, which count only results, stay cached."""
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    fixture = FixtureFactory(division=division, home=home, away=away)
    game = current_game(start_fixture(fixture)[0])
    fixtures = reverse("leagues:division_fixtures", args=[division.pk])
    cached = {
        "standings": reverse("leagues:division", args=[division.pk]),
        "fixtures by week": f"{fixtures}?week={fixture.date.isoformat()}",
        "team": reverse("leagues:team", args=[home.pk]),
        "league home": reverse("leagues:league", args=[league.slug]),
    }
    live = reverse("leagues:fixture", args=[fixture.pk])

    def words(url: str) -> str:
        return page_words(client.get(url))

    before = {page: client.get(url).context["fragment"] for page, url in cached.items()}
    assert "Game 1</a>: 0–0" in words(live)

    record(game, [hand(game, "A", {"high": "A", "low": "B", "jack": "A", "game": "A"})])
    score = "–".join(str(side.score) for side in game.sides.order_by("label"))
    assert score != "0–0"

    for page, url in cached.items():
        with django_assert_num_queries(QUERIES[page][1]):  # served from the cache
            assert client.get(url).context["fragment"] == before[page], page
    assert f"Game 1</a>: {score}" in words(live)


def test_a_page_with_another_parameter_is_not_cached(client, django_assert_num_queries):
    """Anything else in the query string would be echoed in the page's links: rendered."""
    division = division_of(4, "yorkshire")
    url = reverse("leagues:division", args=[division.pk])
    client.get(url, {"utm": "x"})
    with django_assert_num_queries(QUERIES["standings"][0] - CACHE_WRITE):
        client.get(url, {"utm": "x"})
