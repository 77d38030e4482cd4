"""The standings, fixtures and player tables: sorting with ``?sort=`` and CSV downloads; every
table's rows as django-tables2 would write them."""

from __future__ import annotations

import csv
import datetime
import io
import re
from types import SimpleNamespace

import django_tables2 as tables
import pytest
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django_tables2.data import TableListData
from django_tables2.utils import AttributeDict
from hypothesis import given, settings
from hypothesis import strategies as st

from config.tables import BaseTable, _safe_cell, attrs_html
from leagues.days import NEAR, long_date, short_date
from leagues.models import Fixture, Venue
from leagues.selectors.fixtures import (
    NEXT_STATUSES,
    awaiting_query,
    awaiting_result_rows,
    counted_query,
    division_entries,
    division_fixture_rows,
    division_own,
    division_teams,
    fixture_list,
    fixture_query,
    fixture_rows,
    latest_result_rows,
    next_fixture_rows,
    team_fixture_rows,
)
from leagues.selectors.race import division_race
from leagues.selectors.standings import division_standings
from leagues.selectors.statistics import players_teams
from leagues.services.fixtures import fixture_walkover
from leagues.tables import (
    DATE_FIRST,
    FixturesTable,
    PlayerStatisticsTable,
    StandingsTable,
    fixture_score,
    status_text,
)
from scoring.selectors import recent_games
from scoring.tables import GameTable
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
    PlayerFactory,
    PointAdjustmentFactory,
    RegistrationFactory,
    TeamEntryFactory,
)
from tests.factories.scoring import GameFactory, record_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def division():
    """Four Yorkshire teams: Anchor beat Bay Horse and Crown; Drop Inn docked two points."""
    division = DivisionFactory(season__league=LeagueFactory())
    teams = {
        name: TeamEntryFactory(division=division, team__name=name).team
        for name in ("Anchor", "Bay Horse", "Crown", "Drop Inn")
    }
    day = datetime.date(2025, 9, 9)
    FixtureResultFactory(
        fixture=FixtureFactory(division=division, home=teams["Anchor"], away=teams["Bay Horse"]),
        home_win=True,
        home_pegs=40,
        away_pegs=30,
    )
    FixtureResultFactory(
        fixture=FixtureFactory(
            division=division,
            home=teams["Crown"],
            away=teams["Anchor"],
            date=day + datetime.timedelta(days=7),
        ),
        away_win=True,
    )
    FixtureFactory(
        division=division,
        home=teams["Drop Inn"],
        away=teams["Crown"],
        date=day + datetime.timedelta(days=14),
    )
    PointAdjustmentFactory(entry=division.entries.get(team=teams["Drop Inn"]), points=-2)
    return division


def rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_standings_csv_has_a_row_per_team_in_table_order(client, division):
    """Header of full names, then each team with its place, figures and points."""
    table = rows(client.get(reverse("leagues:division_standings_csv", args=[division.pk])))
    header, body = table[0], table[1:]
    assert header[:5] == ["Pos", "Team", "Played", "Points", "Last 5"]
    assert "Pegs for" in header and "Adjustments" in header
    assert [row[1] for row in body] == ["Anchor", "Bay Horse", "Crown", "Drop Inn"]
    anchor = dict(zip(header, body[0], strict=True))
    assert anchor["Points"] == "16" and anchor["Played"] == "2" and anchor["Won"] == "2"
    drop_inn = dict(zip(header, body[-1], strict=True))
    assert drop_inn["Adjustments"] == "-2" and drop_inn["Points"] == "-2"


def test_standings_sort_by_a_column_and_back(client, division):
    """``?sort=team`` orders by name; ``?sort=-points`` by points, most first."""
    url = reverse("leagues:division", args=[division.pk])
    page = client.get(url, {"sort": "-team"}).content.decode()
    names = ["Drop Inn", "Crown", "Bay Horse", "Anchor"]
    positions = [page.index(f">{name}<") for name in names]
    assert positions == sorted(positions)
    csv_rows = rows(
        client.get(reverse("leagues:division_standings_csv", args=[division.pk]), {"sort": "-team"})
    )
    assert [row[1] for row in csv_rows[1:]] == names, "the CSV follows the page's sort"
    csv_rows = rows(
        client.get(
            reverse("leagues:division_standings_csv", args=[division.pk]), {"sort": "points"}
        )
    )
    assert csv_rows[1][1] == "Drop Inn"


def test_a_figures_first_tap_sorts_the_better_first(client, division):
    """Tapping "Pts" put the team with the fewest points first: a figure where more is better
    sorts most first at the first tap (points, won), one where fewer is better fewest first
    (lost, against), as the table itself reads."""
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    for key in ("points", "won", "pegs_for"):
        assert f'href="?sort=-{key}"' in page, key
    for key in ("lost", "pegs_against"):
        assert f'href="?sort={key}"' in page, key
    page = client.get(reverse("leagues:division", args=[division.pk]), {"sort": "-points"})
    body = page.content.decode()
    positions = [body.index(f">{name}<") for name in ("Anchor", "Drop Inn")]
    assert positions == sorted(positions), "most points first"
    assert 'href="?sort=points"' in body, "then the other way"


def test_fixtures_csv_is_the_whole_list_and_follows_filters(client, division):
    url = reverse("leagues:division_fixtures_csv", args=[division.pk])
    Fixture.objects.filter(division=division).update(time=datetime.time(19, 30))
    table = rows(client.get(url))
    assert table[0] == ["Home", "Result", "Away", "Date", "Time", "Venue", "Status"]
    assert len(table) == 1 + Fixture.objects.filter(division=division).count()
    # The start time where the league plays, which the page says above its list.
    assert table[1][:5] == ["Anchor", "8–2", "Bay Horse", "2025-09-09", "19:30"]
    drop_inn = division.entries.get(team__name="Drop Inn").team
    table = rows(client.get(url, {"team": drop_inn.pk}))
    assert [row[0] for row in table[1:]] == ["Drop Inn"]
    table = rows(client.get(url, {"sort": "-date"}))
    assert [row[3] for row in table[1:]] == ["2025-09-23", "2025-09-16", "2025-09-09"]


def test_every_fixtures_csv_of_a_division_has_the_same_columns_in_the_same_order(client, division):
    """A secretary pastes the whole season's CSV, a league night's and a team's into one
    spreadsheet: each has the whole season's columns in its order (a team's CSV started with
    the date, as the team's page does, so its columns did not line up with the others')."""
    url = reverse("leagues:division_fixtures_csv", args=[division.pk])
    crown = division.entries.get(team__name="Crown").team
    season = rows(client.get(url))
    week = rows(client.get(url, {"week": "2025-09-16"}))
    team = rows(client.get(url, {"team": crown.pk}))
    assert season[0] == ["Home", "Result", "Away", "Date", "Time", "Venue", "Status"]
    assert week[0] == season[0], "a league night's CSV"
    assert team[0] == season[0], "a team's CSV"
    # The same fixture is the same row in each.
    crown_anchor = ["Crown", "2–8", "Anchor", "2025-09-16"]
    assert [row[:4] for row in week[1:]] == [crown_anchor]
    assert crown_anchor in [row[:4] for row in team[1:]]
    assert crown_anchor in [row[:4] for row in season[1:]]


def test_a_weeks_page_links_to_the_csv_of_the_week_it_shows(client, division):
    """The fixtures page shows a league night (the next one when none is asked for): "This week
    as CSV" is that night's list, and the whole season's is beside it, both below who has no
    match that week (the page read "Download as CSV", then "No match: ...", then "The CSV of
    this week; the whole season's list as CSV", its note two lines away from its link)."""
    page_url = reverse("leagues:division_fixtures", args=[division.pk])
    csv_url = reverse("leagues:division_fixtures_csv", args=[division.pk])
    for query, night in (({}, "2025-09-23"), ({"week": "2025-09-16"}, "2025-09-16")):
        page = client.get(page_url, query).content.decode()
        links = re.findall(r'<p class="csv">(.*?)</p>', page)
        assert links == [
            f'<a href="{csv_url}?week={night}" download>This week as CSV</a> · '
            f'<a href="{csv_url}" download>the whole season\'s list as CSV</a>'
        ]
        table = rows(client.get(f"{csv_url}?week={night}"))
        assert {row[3] for row in table[1:]} == {night}, "the CSV holds that night's fixtures"
    assert page.index('data-testid="no-match">No match: Bay Horse and Drop Inn<') < page.index(
        '<p class="csv">'
    )


def test_fixtures_sort_by_home_team(client, division):
    anchor = division.entries.get(team__name="Anchor").team
    url = reverse("leagues:division_fixtures", args=[division.pk])
    page = client.get(url, {"team": anchor.pk, "sort": "home"}).content.decode()
    assert page.index(">Anchor</a>") < page.index(">Crown</a>")
    page = client.get(url, {"team": anchor.pk, "sort": "-home"}).content.decode()
    assert page.index(">Crown</a>") < page.index(">Anchor</a>")


def test_players_csv_has_a_header_and_no_rows_before_any_game(client, division):
    table = rows(client.get(reverse("leagues:division_players_csv", args=[division.pk])))
    assert table[0][:4] == ["Player", "Team", "Games played", "Games won"]
    assert "Kicks" not in table[0], "Yorkshire rules have no kicks"
    assert len(table) == 1


def test_every_table_subclasses_the_project_base_table():
    for table in (StandingsTable, FixturesTable, PlayerStatisticsTable):
        assert issubclass(table, BaseTable)
        assert table._meta.template_name == "site/table.html"


def test_each_table_has_columns_of_its_own():
    """A table's columns are copies of its class's (``BaseTable`` copies each shallowly, not
    deeply as django-tables2 does): one hidden, or given its accessor, in one table is so in
    that table only, and a subclass's columns are copied so too."""

    class Later(FixturesTable):
        note = tables.Column()

    first, second = FixturesTable([]), Later([])
    first.columns.hide("venue")
    assert not first.columns["venue"].visible
    assert second.columns["venue"].visible and FixturesTable.base_columns["venue"].visible
    assert first.columns["home"].accessor == "home"
    assert FixturesTable.base_columns["home"].accessor is None
    assert first.columns["home"].column is not second.columns["home"].column
    assert second.columns["note"].column is not Later.base_columns["note"]


def test_a_table_asked_for_pages_refuses(rf):
    """``site/table.html`` writes no page links: a paginated table would show its first page
    and no way to the others."""
    with pytest.raises(TypeError, match="not paginated"):
        tables.RequestConfig(rf.get("/"), paginate={"per_page": 1}).configure(GameTable([]))


def test_csv_cells_that_look_like_formulas_are_quoted():
    assert _safe_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert _safe_cell("-2") == "-2"
    assert _safe_cell(-2) == -2
    assert _safe_cell(None) == ""


class ProbeTable(BaseTable):
    """Each way django-tables2 fills a cell: a choices field shown by its label, a link, a date
    by its template, a default for an empty value, attributes computed from the record (a
    cell's and a row's), render methods asking for the value, the record or both (in either
    order), a method of the record called, a name the record lacks, a column that counts
    nothing as empty."""

    status = tables.Column(attrs={"td": {"data-status": lambda record: record.status}})
    home = tables.Column(linkify=True)
    date = tables.DateColumn(format="j M")
    original_date = tables.Column(default="never moved")
    round = tables.Column()
    number = tables.Column(accessor="pk")
    away = tables.Column()
    kind = tables.Column(accessor="get_kind_display")
    missing = tables.Column(accessor="no_such_name", default="nothing")
    unlisted = tables.Column(accessor="no_such_name", empty_values=())
    moved = tables.Column(accessor="original_date", empty_values=(), default="not shown")

    class Meta(BaseTable.Meta):
        row_attrs = {"data-fixture": lambda record: record.pk}

    def render_number(self, value, record):
        return f"{value}/{record.round} <&>"

    def render_away(self, record, value):
        return format_html("<b>{}</b> ({})", value, record.pk)

    def render_missing(self, value):
        return "never shown"

    def render_unlisted(self, value):
        return f"not found: {value}"

    def render_moved(self, record):
        return f"moved from {record.original_date}"


def part(html: str, tag: str = "tbody") -> str:
    body = html[html.index(f"<{tag}") : html.index(f"</{tag}>")]
    if tag == "thead":  # the template indents each heading inside its cell
        return re.sub(r"\s*([<>])\s*", r"\1", body)
    return re.sub(r">\s+<", "><", body).strip()


@pytest.mark.parametrize(
    "make", ["standings", "compact standings", "fixtures", "probe", "games", "mixed"]
)
def test_rows_are_the_ones_django_tables2_would_write(rf, division, make):
    """``BaseTable.rendered_rows`` writes, cell for cell, what django-tables2's own template
    writes for the same table (``mixed``: rows of two kinds, objects and mappings, each
    written its own way)."""
    fixtures = Fixture.objects.filter(division=division).select_related(
        "home", "away", "venue", "division__season__league"
    )
    if make == "games":
        # Names that need escaping, a game with a hand and one without.
        played = GameFactory(side_names=("Ann & <b>Bob</b>", 'The "Swan"'))
        record_hands(
            played,
            [
                {
                    "dealer": "A",
                    "turn_ups": ["4H"],
                    "high": "A",
                    "low": "B",
                    "jack": None,
                    "game": "A",
                }
            ],
        )
        GameFactory(title="Friday <night>")
        table = GameTable(recent_games()[0])
    elif make in ("standings", "compact standings"):
        standings = division_standings(division=division)
        table = StandingsTable(
            standings.rows,
            metrics=standings.columns,
            style=standings.league.style,
            race=division_race(standings=standings),
            compact=make == "compact standings",
        )
    elif make == "fixtures":
        table = FixturesTable(fixtures)
    elif make == "mixed":
        club = SimpleNamespace(name="Elm & Ash")
        table = _SortedTable(
            [
                SimpleNamespace(day=None, number=2, name="Crown <b>", club=club),
                {"day": datetime.date(2025, 9, 2), "number": 0, "name": "Anchor", "club": club},
                SimpleNamespace(day=datetime.date(2025, 9, 1), number=1, name="", club=club),
            ]
        )
    else:
        table = ProbeTable(fixtures)
    # The header's sort links keep the rest of the query string, escaped, and replace the sort.
    request = rf.get("/", {"sort": "-round", "team": "3", "q": "a&b <c>"})
    ours = table.as_html(request)
    table.template_name = "django_tables2/table.html"
    theirs = table.as_html(request)
    assert "<td" in part(ours) and "<th" in part(ours, "thead")
    assert part(ours) == part(theirs)
    assert part(ours, "thead") == part(theirs, "thead")


@pytest.mark.parametrize("provisional", [False, True])
def test_listed_rows_read_as_the_fixtures_do(rf, division, provisional):
    """A list's rows (``fixture_rows``) print what the fixtures themselves print, row for row
    and in the CSV: names that season, results confirmed or not, walkovers (given ahead of the
    night too), postponed, void and cup fixtures, in a league showing provisional results and
    in one that does not."""
    league = division.season.league
    league.show_provisional = provisional
    league.save()
    teams = {entry.team.name: entry.team for entry in division.entries.all()}
    division.entries.filter(team=teams["Crown"]).update(name="Crown & <Anchor>")
    day = datetime.date(2025, 10, 7)
    FixtureResultFactory(
        fixture=FixtureFactory(
            division=division, home=teams["Bay Horse"], away=teams["Drop Inn"], date=day
        ),
        home_win=True,
        confirmed=False,
    )
    FixtureFactory(
        division=division,
        home=teams["Drop Inn"],
        away=teams["Anchor"],
        date=day,
        status=Fixture.Status.WALKOVER,
        walkover_to=Fixture.Side.AWAY,
        walkover_pending=True,
    )
    fixture_walkover(
        fixture=FixtureFactory(division=division, home=teams["Crown"], away=teams["Bay Horse"]),
        to="home",
        reason="Bay Horse did not turn up",
    )
    FixtureFactory(
        division=division,
        home=teams["Anchor"],
        away=teams["Drop Inn"],
        status=Fixture.Status.POSTPONED,
        original_date=day,
        date=day + datetime.timedelta(days=7),
    )
    FixtureFactory(division=division, status=Fixture.Status.VOID)
    FixtureResultFactory(
        fixture=FixtureFactory(division=division, kind=Fixture.Kind.CUP), away_win=True
    )
    request = rf.get("/")
    fixtures = Fixture.objects.filter(division=division).select_related(
        "home", "away", "venue", "result", "division__season__league"
    )
    listed = fixture_rows(fixture_query(division=division), league=league, divisions=[division])
    assert [f.pk for f in listed] == [f.pk for f in fixture_list(division=division)]
    by_pk = {fixture.pk: fixture for fixture in fixtures}
    for row in listed:
        fixture = by_pk[row.pk]
        assert fixture_score(row) == fixture_score(fixture)
        assert status_text(row) == status_text(fixture)
        assert row.listed_under == fixture.listed_under
        assert row.get_absolute_url() == fixture.get_absolute_url()
        assert row.home.get_absolute_url() == fixture.home.get_absolute_url()
    for sequence in ((), DATE_FIRST):
        ours = FixturesTable(listed, sequence=sequence or None)
        theirs = FixturesTable(fixture_list(division=division), sequence=sequence or None)
        assert part(ours.as_html(request)) == part(theirs.as_html(request))
        assert ours.as_csv() == theirs.as_csv()
    words = part(ours.as_html(request))
    assert "Crown &amp; &lt;Anchor&gt;" in words and "(was Tue 7 Oct 2025)" in words
    # The list's own writers (``FixturesTable._cell_writers``) write the rows django-tables2's
    # template writes, whichever columns show: a team's (date first), a week's (no date, and
    # the start times where they differ), names to escape and all.
    Venue.objects.filter(fixtures=listed[0].pk).update(name='The "Bay" & <Horse>')
    listed = fixture_rows(fixture_query(division=division), league=league, divisions=[division])
    for options in ({}, {"sequence": DATE_FIRST}, {"exclude": ("date",)}):
        table = FixturesTable(listed, **options)
        if "exclude" in options:
            table.columns.show("time")
        ours_html = table.as_html(request)
        assert table._cell_writers() is not None
        table.template_name = "django_tables2/table.html"
        assert part(ours_html) == part(table.as_html(request))

    # The pages' lists, by queries built once per connection, read the same rows as the
    # querysets they are built from (each twice: the second reuses the first's plan).
    def same(compiled, fixtures):
        expected = [
            vars_of(row) for row in fixture_rows(fixtures, league=league, divisions=[division])
        ]
        for _ in range(2):
            assert [vars_of(row) for row in compiled()] == expected
        return expected

    crown = teams["Crown"]
    entry = division.entries.get(team=crown)
    cases = [
        (
            lambda: division_fixture_rows(division=division),
            division_own(fixture_query(division=division)),
        ),
        (
            lambda: division_fixture_rows(division=division, team=crown),
            division_own(fixture_query(division=division, team=crown)),
        ),
        (
            lambda: division_fixture_rows(division=division, week=day),
            division_own(fixture_query(division=division)).filter(date=day),
        ),
        (
            lambda: team_fixture_rows(entry=entry, league=league),
            fixture_query(team=crown, season=division.season),
        ),
        (
            lambda: latest_result_rows(
                season=division.season, divisions=[division], today=day, limit=3
            ),
            counted_query(season=division.season).filter(date__lte=day)[:3],
        ),
        (
            lambda: next_fixture_rows(
                season=division.season, divisions=[division], today=day, limit=3
            ),
            fixture_query(season=division.season, statuses=NEXT_STATUSES).filter(date__gte=day)[:3],
        ),
        (
            lambda: awaiting_result_rows(
                season=division.season,
                divisions=[division],
                today=day + datetime.timedelta(days=1),
                limit=3,
            ),
            awaiting_query(
                season=division.season,
                before=day + datetime.timedelta(days=1),
                provisional=provisional,
            )[:3],
        ),
    ]
    for compiled, fixtures in cases:
        assert same(compiled, fixtures)


def test_a_seasons_latest_results_and_next_fixtures_of_several_divisions_are_its_querysets():
    """A season of one division has its league home's lists read by that division, of several
    by the season: the same rows, either way, as the querysets give, from every division, each
    given its division."""
    top = DivisionFactory()
    season, league = top.season, top.season.league
    second = DivisionFactory(season=season, rank=2)
    day = datetime.date(2025, 10, 7)
    for week, division in enumerate([top, second, top, second, second]):
        date = day - datetime.timedelta(weeks=week)
        FixtureResultFactory(fixture=FixtureFactory(division=division, date=date), home_win=True)
        FixtureFactory(division=division, date=day + datetime.timedelta(weeks=week + 1))
    for divisions in ([top, second], [top]):
        if len(divisions) == 1:
            Fixture.objects.filter(division=second).delete()
        latest = latest_result_rows(season=season, divisions=divisions, today=day, limit=4)
        upcoming = next_fixture_rows(season=season, divisions=divisions, today=day, limit=4)
        for rows, fixtures in (
            (latest, counted_query(season=season).filter(date__lte=day)[:4]),
            (
                upcoming,
                fixture_query(season=season, statuses=NEXT_STATUSES).filter(date__gte=day)[:4],
            ),
        ):
            expected = fixture_rows(fixtures, league=league, divisions=divisions)
            assert [vars_of(row) for row in rows] == [vars_of(row) for row in expected]
            assert {row.division for row in rows} == set(divisions)
        assert len(latest) == (4 if len(divisions) == 2 else 2)  # top has two results


def vars_of(row) -> dict[str, object]:
    """A listed fixture's values, its teams', venue's and result's too."""
    seen = {}
    for name in type(row).__slots__:
        value = getattr(row, name)
        if hasattr(value, "__slots__"):
            value = {part: getattr(value, part) for part in value.__slots__}
        seen[name] = value
    return seen


ONE_DAY = datetime.timedelta(days=1)


def test_a_short_date_is_the_one_djangos_date_filter_writes():
    """As Django's filter writes it: "D j M" near today, "D j M Y" more than half a year off."""
    day = datetime.date(2026, 1, 1)
    for _ in range(366):
        assert short_date(day, today=day) == date_format(day, "D j M")
        for today in (day - NEAR - ONE_DAY, day + NEAR + ONE_DAY):
            assert short_date(day, today=today) == date_format(day, "D j M Y")
        for today in (day - NEAR, day + NEAR):
            assert short_date(day, today=today) == date_format(day, "D j M")
        assert long_date(day) == date_format(day, "D j M Y") == f"{day:%a} {day.day} {day:%b %Y}"
        day += datetime.timedelta(days=1)


def test_attributes_are_written_as_django_tables2_writes_them():
    attrs = AttributeDict(
        {
            "class": "num wide",
            "title": 'Pegs "for" & <against>',
            "data-x": lambda: "called",
            "hidden": None,
            "td": {"class": "nested, left out"},
            "data-n": 3,
        }
    )
    assert attrs_html(attrs) == attrs.as_html()
    assert 'title="Pegs &quot;for&quot; &amp; &lt;against&gt;"' in attrs_html(attrs)


def test_the_fixtures_chooser_offers_the_divisions_teams_by_name(client, division):
    """The teams read by a query built once per connection are the division's entries' teams,
    in the same order (twice: the second run reuses the first's plan)."""
    expected = [entry.team for entry in division_entries(division=division)]
    assert [team.name for team in expected] == ["Anchor", "Bay Horse", "Crown", "Drop Inn"]
    for _ in range(2):
        assert division_teams(division=division) == [(team.pk, team.name) for team in expected]
    crown = expected[2]
    page = client.get(
        reverse("leagues:division_fixtures", args=[division.pk]), {"team": crown.pk}
    ).content.decode()
    assert f'<option value="{crown.pk}" selected>Crown</option>' in page
    assert page.count("<option value=") == 1 + len(expected)


class _SortedTable(BaseTable):
    """A table over plain rows: a date that may be missing, a number, a name, a nested name."""

    day = tables.Column(order_by=("day", "number"))
    number = tables.Column()
    name = tables.Column(order_by=("-name", "number"))
    club = tables.Column(accessor="club__name", order_by=("club__name",))
    both = tables.Column(accessor="number", order_by=("number", "-day"))


_row = st.builds(
    SimpleNamespace,
    day=st.one_of(st.none(), st.dates(datetime.date(2025, 9, 1), datetime.date(2025, 9, 4))),
    number=st.integers(0, 3),
    name=st.sampled_from(["Anchor", "Bay Horse", "Crown"]),
    club=st.builds(SimpleNamespace, name=st.sampled_from(["Ash", "Elm"])),
)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.one_of(_row, _row.map(vars)), max_size=12),
    sort=st.sampled_from(
        ["day", "-day", "number", "-number", "name", "-name", "club", "-club", "both", "-both"]
    ),
)
def test_a_list_is_sorted_in_the_order_django_tables2_sorts_it(rows, sort):
    """The rows of a list in the order django-tables2's own sort gives (``TableListData``):
    by the rows' attributes where that is the same order, by its key where a row is a mapping,
    a value is missing or the sort goes both ways; stable, equal rows as they came."""
    for index, row in enumerate(rows):
        (row.__setitem__ if isinstance(row, dict) else row.__setattr__)("index", index)
    table = _SortedTable(rows, order_by=sort)
    expected = TableListData(list(rows))
    expected.set_table(table)
    expected.order_by(table.order_by)
    assert [index_of(row) for row in table.data.data] == [index_of(row) for row in expected.data]


def index_of(row):
    return row["index"] if isinstance(row, dict) else row.index


def test_the_players_csv_names_each_players_team_that_season_as_the_pages_do():
    """The players CSV had no Team column: it names each player's team that season, a team
    entered under another name that season by that name, as its pages do."""
    division = DivisionFactory()
    season = division.season
    old_hall = TeamEntryFactory(division=division, team__name="Old Hall").team
    woolpack = TeamEntryFactory(division=division, team__name="The New Woolpack", name="Woolpack")
    moved, stayed = PlayerFactory(name="Walter Ackroyd"), PlayerFactory(name="Linda Dyson")
    RegistrationFactory(player=moved, team=old_hall, season=season)
    RegistrationFactory(player=stayed, team=woolpack.team, season=season)
    assert players_teams(season=season) == {moved.pk: "Old Hall", stayed.pk: "Woolpack"}
