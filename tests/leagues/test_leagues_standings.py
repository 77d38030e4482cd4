"""The league table: derived from stored results and adjustments, ordered by the secretary's
tie-breaks, with the rule printed under it."""

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture, FixtureResult
from leagues.selectors.fixtures import division_get
from leagues.selectors.standings import (
    division_for_table,
    division_standings,
    divisions_leaders,
    divisions_standings,
)
from leagues.services.adjustments import points_adjust
from leagues.services.standings import refresh_division_table
from leagues.services.structure import league_set_tiebreaks
from leagues.tiebreaks import METRICS, tiebreak_rule_text, validate_tiebreaks
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
    TeamEntryFactory,
)

pytestmark = pytest.mark.django_db


def make_division(*names, tiebreaks=("points",), **league):
    league = LeagueFactory(tiebreaks=list(tiebreaks), **league)
    division = DivisionFactory(season__league=league)
    teams = {name: TeamEntryFactory(division=division, team__name=name).team for name in names}
    return division, teams


def play(division, home, away, *, home_points, away_points, outcome=None, **figures):
    """A stored final result; ``figures`` use the model's home_/away_ field names."""
    if outcome is None:
        outcome = (
            "home" if home_points > away_points else "away" if away_points > home_points else "draw"
        )
    fixture = FixtureFactory(division=division, home=home, away=away)
    return FixtureResultFactory(
        fixture=fixture,
        outcome=outcome,
        home_points=home_points,
        away_points=away_points,
        home_match_points=home_points,
        away_match_points=away_points,
        **figures,
    )


def order(division):
    return [row.team.name for row in division_standings(division=division).rows]


# Each case: the metric, X's result and Y's result against their own opponents (X and Y level on
# points), and who should be placed first. Y is "Alma", X is "Zetland": alphabetical order alone
# would put Y first, so X on top shows the metric did it.
CASES = {
    "won": ("X", dict(outcome="home"), dict(outcome="draw")),
    "drawn": ("X", dict(outcome="draw"), dict(outcome="away")),
    "lost": ("Y", dict(outcome="away"), dict(outcome="home")),
    "games_for": ("X", dict(home_games=3), dict(home_games=2)),
    "games_against": ("X", dict(away_games=1), dict(away_games=2)),
    "games_diff": ("X", dict(home_games=3, away_games=1), dict(home_games=4, away_games=3)),
    "tables_won": ("X", dict(home_tables=3), dict(home_tables=2)),
    "pegs_for": ("X", dict(home_pegs=150), dict(home_pegs=140)),
    "pegs_against": ("X", dict(away_pegs=100), dict(away_pegs=120)),
    "pegs_diff": (
        "X",
        dict(home_pegs=150, away_pegs=100),
        dict(home_pegs=160, away_pegs=130),
    ),
    "hang_jacks_for": ("X", dict(home_hang_jacks=3), dict(home_hang_jacks=1)),
    "hang_jacks_against": ("X", dict(away_hang_jacks=0), dict(away_hang_jacks=2)),
}


@pytest.mark.parametrize("metric", sorted(CASES))
def test_each_tiebreak_separates_teams_level_on_points(metric):
    """Teams level on points are parted by the metric, in its own direction."""
    first, x_figures, y_figures = CASES[metric]
    division, teams = make_division(
        "Zetland", "Alma", "Filler One", "Filler Two", tiebreaks=("points", metric)
    )
    play(division, teams["Zetland"], teams["Filler One"], home_points=6, away_points=4, **x_figures)
    play(division, teams["Alma"], teams["Filler Two"], home_points=6, away_points=4, **y_figures)
    standings = division_standings(division=division)
    top_two = [row.team.name for row in standings.rows[:2]]
    assert top_two == (["Zetland", "Alma"] if first == "X" else ["Alma", "Zetland"])
    assert [row.position for row in standings.rows[:2]] == [1, 2]
    assert not standings.rows[0].tied


@pytest.mark.parametrize("metric", sorted(CASES))
def test_without_the_tiebreak_the_same_teams_share_the_place(metric):
    _, x_figures, y_figures = CASES[metric]
    division, teams = make_division("Zetland", "Alma", "Filler One", "Filler Two")
    play(division, teams["Zetland"], teams["Filler One"], home_points=6, away_points=4, **x_figures)
    play(division, teams["Alma"], teams["Filler Two"], home_points=6, away_points=4, **y_figures)
    rows = division_standings(division=division).rows
    assert [r.team.name for r in rows[:2]] == ["Alma", "Zetland"], "level: by name"
    assert [r.position for r in rows[:2]] == [1, 1]
    assert rows[0].tied and rows[1].tied


def test_played_fewer_matches_ranks_higher_on_the_same_points():
    division, teams = make_division(
        "Zetland", "Alma", "Filler One", "Filler Two", tiebreaks=("points", "played")
    )
    play(division, teams["Zetland"], teams["Filler One"], home_points=6, away_points=4)
    play(division, teams["Alma"], teams["Filler Two"], home_points=3, away_points=7)
    play(division, teams["Alma"], teams["Filler One"], home_points=3, away_points=7)
    rows = {r.team.name: r for r in division_standings(division=division).rows}
    zetland, alma = rows["Zetland"], rows["Alma"]
    assert (zetland.points, zetland.played, alma.points, alma.played) == (6, 1, 6, 2)
    assert zetland.position + 1 == alma.position


def test_points_come_first():
    division, teams = make_division("Alma", "Zetland")
    play(division, teams["Alma"], teams["Zetland"], home_points=2, away_points=8)
    standings = division_standings(division=division)
    assert [(r.team.name, r.points, r.won, r.lost) for r in standings.rows] == [
        ("Zetland", 8, 1, 0),
        ("Alma", 2, 0, 1),
    ]


def test_adjustments_as_a_tiebreak_put_the_deducted_team_below():
    division, teams = make_division(
        "Zetland", "Alma", "Filler One", "Filler Two", tiebreaks=("points", "adjustments")
    )
    play(division, teams["Zetland"], teams["Filler One"], home_points=6, away_points=4)
    play(division, teams["Alma"], teams["Filler Two"], home_points=8, away_points=2)
    points_adjust(entry=teams["Alma"].entries.get(), points=-2, reason="Late start")
    rows = division_standings(division=division).rows
    assert [(r.team.name, r.points, r.adjustments) for r in rows[:2]] == [
        ("Zetland", 6, 0),
        ("Alma", 6, -2),
    ]


def test_head_to_head_among_three_tied_teams():
    """Wakefield, Ossett and Batley all have 20 points; among themselves Wakefield took 16,
    Ossett 10, Batley 4, so that is the order, against both the alphabet and games won."""
    division, t = make_division(
        "Wakefield",
        "Ossett",
        "Batley",
        "Dewsbury",
        "Earlsheaton",
        tiebreaks=("points", "head_to_head", "games_for"),
    )
    play(division, t["Wakefield"], t["Ossett"], home_points=8, away_points=2)
    play(division, t["Wakefield"], t["Batley"], home_points=8, away_points=2, away_games=4)
    play(division, t["Ossett"], t["Batley"], home_points=8, away_points=2, away_games=4)
    play(division, t["Wakefield"], t["Dewsbury"], home_points=4, away_points=6)
    play(division, t["Ossett"], t["Earlsheaton"], home_points=10, away_points=0, home_games=3)
    play(division, t["Batley"], t["Dewsbury"], home_points=10, away_points=0, home_games=4)
    play(division, t["Batley"], t["Earlsheaton"], home_points=6, away_points=4)
    standings = division_standings(division=division)
    top = standings.rows[:3]
    assert [(r.team.name, r.points, r.head_to_head) for r in top] == [
        ("Wakefield", 20, 16),
        ("Ossett", 20, 10),
        ("Batley", 20, 4),
    ]
    assert [r.position for r in top] == [1, 2, 3]
    assert top[2].games_for > top[1].games_for > top[0].games_for
    assert standings.rows[3].head_to_head is None, "only the tied teams are compared"


def test_head_to_head_leaves_a_remaining_tie_to_the_next_key():
    """Three level teams; two of them are also level head-to-head: games won parts them."""
    division, t = make_division(
        "Wakefield", "Ossett", "Batley", tiebreaks=("points", "head_to_head", "games_for")
    )
    # A cycle: each beats one and loses to one, so the mini-table is level too.
    play(division, t["Wakefield"], t["Ossett"], home_points=6, away_points=4, home_games=2)
    play(division, t["Ossett"], t["Batley"], home_points=6, away_points=4, home_games=5)
    play(division, t["Batley"], t["Wakefield"], home_points=6, away_points=4, home_games=1)
    rows = division_standings(division=division).rows
    assert [r.head_to_head for r in rows] == [10, 10, 10]
    assert [r.team.name for r in rows] == ["Ossett", "Wakefield", "Batley"]


def test_head_to_head_is_applied_again_to_the_teams_still_level():
    """Four teams on 12 points. Among the four, Wakefield took 12 and Ossett 8 (parted), while
    Batley and Dewsbury took 4 each. Between those two alone Dewsbury beat Batley 3–1, so
    Dewsbury is above Batley, although Batley won more games (the next key)."""
    division, t = make_division(
        "Wakefield",
        "Ossett",
        "Batley",
        "Dewsbury",
        "Filler",
        tiebreaks=("points", "head_to_head", "games_for"),
    )
    play(division, t["Wakefield"], t["Ossett"], home_points=6, away_points=4)
    play(division, t["Wakefield"], t["Batley"], home_points=2, away_points=3)
    play(division, t["Wakefield"], t["Dewsbury"], home_points=4, away_points=1)
    play(division, t["Ossett"], t["Batley"], home_points=2, away_points=0)
    play(division, t["Ossett"], t["Dewsbury"], home_points=2, away_points=0)
    play(division, t["Dewsbury"], t["Batley"], home_points=3, away_points=1)
    play(division, t["Batley"], t["Filler"], home_points=8, away_points=0, home_games=9)
    play(division, t["Dewsbury"], t["Filler"], home_points=8, away_points=0)
    play(division, t["Ossett"], t["Filler"], home_points=4, away_points=0)
    rows = division_standings(division=division).rows
    assert [(r.team.name, r.points) for r in rows[:4]] == [
        ("Wakefield", 12),
        ("Ossett", 12),
        ("Dewsbury", 12),
        ("Batley", 12),
    ]
    assert [r.position for r in rows[:4]] == [1, 2, 3, 4]
    assert rows[3].games_for > rows[2].games_for


def test_a_deduction_changes_the_order():
    division, teams = make_division("Alma", "Zetland", "Filler", tiebreaks=("points",))
    play(division, teams["Alma"], teams["Filler"], home_points=8, away_points=2)
    play(division, teams["Zetland"], teams["Filler"], home_points=7, away_points=3)
    assert order(division)[:2] == ["Alma", "Zetland"]
    adjustment = points_adjust(
        entry=teams["Alma"].entries.get(), points=-2, reason="Fielded an unregistered player"
    )
    standings = division_standings(division=division)
    assert [(r.team.name, r.points) for r in standings.rows[:2]] == [
        ("Zetland", 7),
        ("Alma", 6),
    ]
    assert standings.adjustments == [adjustment]
    assert standings.rows[1].adjustments == -2 and standings.rows[1].result_points == 8


def test_an_adjustment_arises_from_a_league_fixture_of_its_own_team():
    """The form's "Fixture" offered the division's cup ties (one against another division's
    team): an adjustment changes the league's table, which counts no cup tie, and arises
    from the team's own fixture; anything else is refused and nothing is made."""
    from leagues.forms import AdjustmentForm
    from leagues.models import PointAdjustment

    division, teams = make_division("Alma", "Zetland", "Filler")
    theirs = play(division, teams["Alma"], teams["Zetland"], home_points=8, away_points=2).fixture
    others = FixtureFactory(division=division, home=teams["Zetland"], away=teams["Filler"])
    cup = FixtureFactory(
        division=division, home=teams["Alma"], away=teams["Filler"], kind=Fixture.Kind.CUP
    )
    entry = teams["Alma"].entries.get()
    assert list(AdjustmentForm(division=division).fields["fixture"].queryset) == [theirs, others]
    for fixture, words in ((cup, "is a cup tie"), (others, "is not a fixture of Alma")):
        with pytest.raises(ValidationError, match=words):
            points_adjust(entry=entry, points=-2, reason="Late start", fixture=fixture)
    assert not PointAdjustment.objects.exists()
    made = points_adjust(entry=entry, points=-2, reason="Late start", fixture=theirs)
    assert made.fixture == theirs


def test_only_final_results_of_played_or_walked_over_fixtures_count():
    division, teams = make_division("Alma", "Zetland")
    unfinished = play(division, teams["Alma"], teams["Zetland"], home_points=4, away_points=2)
    FixtureResult.objects.filter(pk=unfinished.pk).update(is_final=False, outcome="")
    void = play(division, teams["Zetland"], teams["Alma"], home_points=10, away_points=0)
    Fixture.objects.filter(pk=void.fixture_id).update(status=Fixture.Status.VOID)
    refresh_division_table(division=division)
    rows = division_standings(division=division).rows
    assert [(r.played, r.points) for r in rows] == [(0, 0), (0, 0)]


def test_standings_take_a_fixed_number_of_queries(django_assert_num_queries):
    division, teams = make_division(
        *[f"Team {i}" for i in range(8)], tiebreaks=("points", "head_to_head")
    )
    names = list(teams)
    for i, home in enumerate(names):
        for away in names[i + 1 :]:
            play(division, teams[home], teams[away], home_points=5, away_points=5)
    points_adjust(entry=teams["Team 3"].entries.get(), points=-1, reason="Late result card")
    with django_assert_num_queries(3):  # the division with its stored table, rows, adjustments
        standings = division_standings(division=division.pk)
    assert len(standings.rows) == 8 and standings.rows[-1].team.name == "Team 3"
    loaded = division_for_table(pk=division.pk)  # as its page has it, the table with it
    with django_assert_num_queries(2):
        assert division_standings(division=loaded).rows == standings.rows
    loaded = division_get(pk=division.pk)  # as other pages have it, season and league with it
    with django_assert_num_queries(3):  # its stored table, rows, adjustments
        assert division_standings(division=loaded).rows == standings.rows
    with django_assert_num_queries(2):  # without the adjustments listed (the league's home)
        glance = divisions_standings(divisions=[loaded], adjustments=False)[0]
    assert glance.rows == standings.rows and not glance.adjustments and standings.adjustments


def test_rule_text_for_each_style():
    yorkshire, _ = make_division("A", tiebreaks=("points", "games_for", "head_to_head"))
    standings = division_standings(division=yorkshire)
    assert standings.rule_text == (
        "Ordered by points, then games won, then head-to-head among the tied teams "
        "(applied again to those still level)."
    )
    assert standings.league.tiebreak_rule_text() == standings.rule_text
    assert tiebreak_rule_text(
        ["points", "games_for", "games_against", "hang_jacks_for", "hang_jacks_against"],
        "trinidad",
    ) == (
        "Ordered by points, then bullseyes won, then fewer bullseyes against, "
        "then hang jacks taken, then fewer hang jacks conceded."
    )
    assert tiebreak_rule_text(["points", "pegs_diff", "lost"], "yorkshire") == (
        "Ordered by points, then pegging difference, then fewer matches lost."
    )


def test_a_trinidad_league_orders_by_points_scored_not_pegs():
    """Nobody pegs in a Trinidad league: its tie-breaks name the points scored in games, as its
    pages do, and a Yorkshire league keeps its pegs."""
    keys = ["points", "pegs_for", "pegs_against", "pegs_diff"]
    assert tiebreak_rule_text(keys, "trinidad") == (
        "Ordered by points, then points scored, then fewer points scored against, "
        "then difference in points scored."
    )
    assert [METRICS[key].label_for("trinidad") for key in keys[1:]] == [
        "Points scored for",
        "Points scored against",
        "Points scored difference",
    ]
    assert tiebreak_rule_text(keys, "yorkshire") == (
        "Ordered by points, then points pegged, then fewer points pegged against, "
        "then pegging difference."
    )
    assert [METRICS[key].label_for("yorkshire") for key in keys[1:]] == [
        "Pegs for",
        "Pegs against",
        "Pegs difference",
    ]


def test_style_columns():
    trinidad, _ = make_division("A", trinidad=True)
    standings = division_standings(division=trinidad)
    assert "hang_jacks_for" in standings.column_keys
    assert [m.label_for("trinidad") for m in standings.columns][4] == "Bullseyes for"


@pytest.mark.parametrize(
    ("tiebreaks", "games_a_table", "shown", "not_shown"),
    [
        # One game a table: a table won is a game won, the figure shown once.
        (("points", "games_for", "head_to_head"), {}, ("games_for",), ("tables_won",)),
        (("points", "tables_won", "games_for"), {}, ("tables_won",), ("games_for",)),
        (("points", "pegs_diff"), {}, ("games_for",), ("tables_won",)),
        # More games a table: a table won is not a game won, both shown.
        (
            ("points", "games_for"),
            {"games_mode": "fixed", "games": 2},
            ("games_for", "tables_won"),
            (),
        ),
    ],
)
def test_a_yorkshire_table_shows_games_for_and_tables_won_once_where_they_are_one(
    client, tiebreaks, games_a_table, shown, not_shown
):
    """A Yorkshire table showed GF (games for) and TW (tables won), always equal where a table
    plays one game: it shows the one its tie-breaks name (games for where they name neither),
    on the page, the CSV and the API's columns; a format with more games a table keeps both."""
    fmt = YORKSHIRE_FORMAT.with_options(**games_a_table)
    division, teams = make_division(
        "Ossett", "Batley", tiebreaks=tiebreaks, match_format=fmt.to_spec()
    )
    play(
        division,
        teams["Ossett"],
        teams["Batley"],
        home_points=8,
        away_points=2,
        home_games=3,
        away_games=1,
        home_tables=3,
        away_tables=1,
    )
    refresh_division_table(division=division.pk)
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    header = next(
        csv.reader(
            io.StringIO(
                client.get(
                    reverse("leagues:division_standings_csv", args=[division.pk])
                ).content.decode()
            )
        )
    )
    columns = client.get(f"/api/divisions/{division.pk}/standings").json()["columns"]
    for key, present in [*((key, True) for key in shown), *((key, False) for key in not_shown)]:
        metric = METRICS[key]
        assert (key in columns) is present, key
        assert (metric.label_for("yorkshire") in header) is present, key
        assert (f">{metric.abbr_for('yorkshire')}<" in page) is present, key
    assert "games_against" in columns


def test_every_metric_is_covered_by_a_test():
    tested = set(CASES) | {"points", "played", "adjustments", "head_to_head"}
    assert tested == set(METRICS)


@pytest.mark.parametrize(
    ("tiebreaks", "message"),
    [
        ([], "non-empty"),
        (["points", "goals"], "Unknown tie-break"),
        (["points", "won", "won"], "only once"),
        (["won", "points"], "points first"),
    ],
)
def test_tiebreak_lists_are_validated(tiebreaks, message):
    with pytest.raises(ValidationError, match=message):
        validate_tiebreaks(tiebreaks)
    league = LeagueFactory()
    with pytest.raises(ValidationError):
        league_set_tiebreaks(league=league, tiebreaks=tiebreaks)


def test_secretary_sets_the_tiebreaks():
    league = LeagueFactory()
    league_set_tiebreaks(league=league, tiebreaks=["points", "pegs_diff", "head_to_head"])
    league.refresh_from_db()
    assert league.get_tiebreaks() == ["points", "pegs_diff", "head_to_head"]


def test_a_league_of_many_divisions_lists_each_with_its_leaders_on_its_home(
    client, django_assert_num_queries
):
    """Past GLANCE_TABLES divisions the league's home names each division's leader (teams level
    on every tie-break share the top), not a hundred tables; a division with no result yet says
    so; every division and leader links to its page."""
    from django.urls import reverse

    from leagues.views.public import GLANCE_TABLES

    division, teams = make_division("Alma", "Zetland", "Crown")
    play(division, teams["Alma"], teams["Crown"], home_points=4, away_points=0)
    season = division.season
    level = DivisionFactory(season=season, name="Level & <pegging>", rank=2)
    tied = {n: TeamEntryFactory(division=level, team__name=n).team for n in ("Bull", "Oak", "Ash")}
    play(level, tied["Bull"], tied["Ash"], home_points=4, away_points=0)
    play(level, tied["Oak"], tied["Ash"], home_points=4, away_points=0)
    quiet = [
        DivisionFactory(season=season, name=f"Quiet division {n}", rank=n)
        for n in range(3, GLANCE_TABLES + 2)
    ]
    page = client.get(reverse("leagues:league", args=[season.league.slug])).content.decode()
    assert 'class="data-table standings' not in page
    leaders = page[
        page.index('class="division-leaders"') : page.index(
            "</ul>", page.index('class="division-leaders"')
        )
    ]
    assert leaders.count("<li>") == GLANCE_TABLES + 1
    assert (
        f'<a href="{teams["Alma"].get_absolute_url()}">Alma</a> <span class="muted">4 pts</span>'
        in leaders
    )
    assert "Zetland" not in leaders and "Crown" not in leaders
    assert f'<a href="{level.get_absolute_url()}">Level &amp; &lt;pegging&gt;</a>' in leaders
    assert (
        f'>Bull</a>, <a href="{tied["Oak"].get_absolute_url()}">Oak</a> '
        '<span class="muted">4 pts, level</span>' in leaders
    )
    for other in quiet:
        assert f'<a href="{other.get_absolute_url()}">{other.name}</a>' in leaders
    assert leaders.count("no results yet") == len(quiet)
    # The leaders read alone are the full tables' first places.
    divisions = [division, level, *quiet]
    tables = divisions_standings(divisions=divisions)
    expected = [
        [r.team.name for r in t.rows if r.position == 1 and not r.withdrawn]
        if any(r.played for r in t.rows)
        else []
        for t in tables
    ]
    with django_assert_num_queries(1):  # the first places of the counted tables, with their teams
        leaders = divisions_leaders(divisions=divisions)
    got = [[leader.name for leader in top] for top in leaders]
    assert got == expected == [["Alma"], ["Bull", "Oak"], *[[] for _ in quiet]]
    assert [[(leader.team_id, leader.points) for leader in top] for top in leaders] == [
        [(r.team.pk, r.points) for r in t.rows if r.position == 1 and not r.withdrawn]
        if any(r.played for r in t.rows)
        else []
        for t in tables
    ]
