"""A division's table at a glance: the last five results, who can still win it (from the stored
fixtures left), and the points chart that picks out a few teams and ends on the table's figures."""

from __future__ import annotations

import datetime
import re
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.days import day_month, short_date
from leagues.models import Division, Fixture, PointAdjustment
from leagues.progression import BAND_ABOVE
from leagues.selectors.race import division_race
from leagues.selectors.standings import division_standings, with_nights, worked_out_standings
from leagues.services.standings import refresh_division_table
from leagues.services.structure import league_update
from leagues.views.charts import (
    BOTTOM,
    HEIGHT,
    LABEL_SIZE,
    MARK_GAP,
    PENS,
    ROW,
    TICK_GAP,
    TOP,
    OffNight,
    picked_out,
    progression_chart,
)
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    FixtureResultFactory,
    LeagueFactory,
    PlayerFactory,
    PointAdjustmentFactory,
    TeamEntryFactory,
)
from tests.factories.scoring import UserFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 9, 2)


def make_division(*names, **league):
    league = LeagueFactory(**league)
    division = DivisionFactory(season__league=league)
    teams = {name: TeamEntryFactory(division=division, team__name=name).team for name in names}
    return division, teams


def play(division, home, away, home_points, away_points, week, **kwargs):
    outcome = (
        "home" if home_points > away_points else "away" if away_points > home_points else "draw"
    )
    fixture = FixtureFactory(
        division=division, home=home, away=away, date=DAY + datetime.timedelta(weeks=week)
    )
    return FixtureResultFactory(
        fixture=fixture,
        outcome=outcome,
        home_points=home_points,
        away_points=away_points,
        home_match_points=home_points,
        away_match_points=away_points,
        **kwargs,
    )


def to_play(division, home, away, week):
    return FixtureFactory(
        division=division, home=home, away=away, date=DAY + datetime.timedelta(weeks=week)
    )


def test_last_five_are_the_latest_results_oldest_first():
    division, t = make_division("Anchor", "Crown")
    scores = [(10, 0), (0, 10), (5, 5), (10, 0), (10, 0), (0, 10)]  # Anchor's view, week by week
    for week, (home, away) in enumerate(scores):
        play(division, t["Anchor"], t["Crown"], home, away, week)
    rows = {row.team.name: row for row in division_standings(division=division).rows}
    assert rows["Anchor"].form == "LDWWL"
    assert rows["Crown"].form == "WDLLW"


def test_race_marks_a_champion_nobody_can_catch_and_counts_unconfirmed_results_as_left():
    division, t = make_division("Anchor", "Bay Horse", "Crown", "Drop Inn")
    play(division, t["Anchor"], t["Bay Horse"], 10, 0, 0)
    play(division, t["Anchor"], t["Crown"], 10, 0, 1)
    play(division, t["Anchor"], t["Drop Inn"], 10, 0, 2)
    to_play(division, t["Bay Horse"], t["Crown"], 3)
    # Played but not confirmed: not in the table, so still a result to come.
    play(division, t["Crown"], t["Drop Inn"], 10, 0, 3, confirmed=False)
    race = division_race(standings=division_standings(division=division))
    assert race.remaining == 2
    anchor = race.outlooks[t["Anchor"].pk]
    assert anchor.champions and (anchor.best, anchor.worst) == (1, 1)
    crown = race.outlooks[t["Crown"].pk]
    assert (crown.best, crown.worst) == (2, 4) and not crown.champions


def test_void_and_cup_fixtures_are_not_left_to_play():
    division, t = make_division("Anchor", "Bay Horse")
    play(division, t["Anchor"], t["Bay Horse"], 6, 4, 0)
    void = to_play(division, t["Bay Horse"], t["Anchor"], 1)
    Fixture.objects.filter(pk=void.pk).update(status=Fixture.Status.VOID)
    cup = to_play(division, t["Bay Horse"], t["Anchor"], 2)
    Fixture.objects.filter(pk=cup.pk).update(kind=Fixture.Kind.CUP)
    refresh_division_table(division=division)  # as fixture_void leaves it
    race = division_race(standings=division_standings(division=division))
    assert race.remaining == 0
    assert race.outlooks[t["Anchor"].pk].champions


def test_standings_page_marks_champions_and_names_the_title_race(client):
    division, t = make_division("Anchor", "Bay Horse", "Crown")
    play(division, t["Anchor"], t["Bay Horse"], 10, 0, 0)
    play(division, t["Anchor"], t["Crown"], 10, 0, 1)
    to_play(division, t["Bay Horse"], t["Crown"], 2)
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    assert '<abbr class="badge badge-champions" title="Champions">C</abbr>' in page
    assert "Who can still win it" in page
    assert "<strong>Anchor</strong> are certain to finish top" in page
    assert "Can finish 2nd to 3rd" in page


def chart_world():
    names = ("Anchor", "Bay Horse", "Crown", "Drop Inn", "Eagle", "Fox")
    division, t = make_division(*names)
    week = 0
    for i, home in enumerate(names):
        for away in names[i + 1 :]:
            play(division, t[home], t[away], 6 + (i % 3), 4 - (i % 3), week % 4)
            week += 1
    entry = division.entries.get(team=t["Fox"])
    PointAdjustmentFactory(entry=entry, points=-3, reason="Late start")
    return division, t


def test_chart_lines_end_on_the_tables_points_and_only_a_few_stand_out():
    division, t = chart_world()
    standings = division_standings(division=division)
    chart = progression_chart(
        rows=standings.rows,
        nights=standings.nights,
        adjustments=standings.adjustments,
        yours=[t["Drop Inn"].pk],
        chosen=t["Fox"].pk,
        zone=standings.league.time_zone,
    )
    assert chart is not None
    points = {row.team.name: row.points for row in standings.rows}
    assert {line.team: line.total for line in chart.lines} == points
    out = {line.team: line.why for line in chart.standing_out}
    leader = standings.rows[0].team.name
    assert out == {leader: "leader", "Drop Inn": "your team", "Fox": "chosen"}
    assert len(chart.standing_out) <= len(PENS)
    # Each picked-out line differs from the others without colour: dash or marker.
    drawn = [(line.pen.dash, line.pen.marker) for line in chart.standing_out]
    assert len(set(drawn)) == len(drawn) and len({m for _, m in drawn}) == len(drawn)
    assert chart.label_size >= 12


def test_chart_picks_out_the_tapped_team_and_the_captains_own(client):
    division, t = chart_world()
    url = reverse("leagues:division", args=[division.pk])
    client.get(url)  # the anonymous page, cached
    page = client.get(url, {"team": t["Crown"].pk}).content.decode()
    assert f'<g class="standout" data-team="{t["Crown"].pk}">' in page
    assert "chosen" in page
    # Each picked-out line carries its markers, in its pen, at its marks.
    standings = division_standings(division=division)
    chart = progression_chart(
        rows=standings.rows,
        nights=standings.nights,
        adjustments=standings.adjustments,
        chosen=t["Crown"].pk,
        zone=standings.league.time_zone,
    )
    for line in chart.standing_out:
        drawn = re.findall(
            rf'<use href="#m-{line.pen.marker}" x="([\d.]+)" y="([\d.]+)" '
            rf'fill="{line.pen.colour}" stroke="#0f1a14" stroke-width="1"/>',
            page,
        )
        assert line.marks and drawn == [(str(m.x), str(m.y)) for m in line.marks]
    # The chooser offers every team, the tapped one selected.
    options = re.findall(r'<option value="(\d+)"( selected)?>([^<]*)</option>', page)
    assert sorted(name for _, _, name in options) == sorted(t)
    assert [int(pk) for pk, selected, _ in options if selected] == [t["Crown"].pk]
    # A team's captain sees their own team picked out.
    user = get_user_model().objects.create_user("eagle-captain", password="x-long-password-1")
    entry = division.entries.get(team=t["Eagle"])
    entry.captain = PlayerFactory(user=user)
    entry.save()
    client.force_login(user)
    page = client.get(url).content.decode()
    assert f'<g class="standout" data-team="{t["Eagle"].pk}">' in page
    assert "your team" in page
    # The captain's page is not the one everyone else is served from the cache.
    client.logout()
    page = client.get(url).content.decode()
    assert "your team" not in page
    assert f'<g class="standout" data-team="{t["Eagle"].pk}">' not in page
    # Nonsense in ?team= is ignored.
    assert client.get(url, {"team": "x' or 1=1"}).status_code == 200


def _rows(teams: int, weeks: int) -> list[SimpleNamespace]:
    """Standing rows as the chart reads them: team k scores k % 4 points each league night."""
    rows = []
    for k in range(teams):
        nights = [k % 4] * weeks
        rows.append(
            SimpleNamespace(
                team=SimpleNamespace(pk=k + 1, name=f"Team {k:03}"),
                entry=SimpleNamespace(display_name=f"Team {k:03}"),
                position=k + 1,
                nights=nights,
            )
        )
    return sorted(rows, key=lambda row: -(row.team.pk - 1) % 4)


def test_a_big_division_draws_every_team_as_one_band_under_the_picked_out_lines():
    rows = _rows(BAND_ABOVE + 1, 30)
    chart = progression_chart(rows=rows, nights=_nights(30), chosen=5, zone="UTC")
    assert chart is not None
    assert [line.why for line in chart.lines] == ["chosen", "leader"]
    assert chart.banded == BAND_ABOVE + 1
    edge = chart.band.split(" ")
    assert len(edge) == 2 * 30
    # The band's top is the best of all each week (the leader's), its bottom the worst (no
    # points).
    ys = [float(point.split(",")[1]) for point in edge]
    assert ys[:30] == sorted(ys[:30], reverse=True) and len(set(ys[30:])) == 1
    assert max(ys) == ys[30]


def big_division():
    """A division of two teams more than ``BAND_ABOVE``, three weeks played and a team docked
    points today (a day of its own on the chart)."""
    names = [f"Team {k:02}" for k in range(BAND_ABOVE + 2)]
    division, t = make_division(*names)
    teams = list(t.values())
    for week in range(3):
        for i in range(0, len(teams), 2):
            home, away = teams[(i + week) % len(teams)], teams[(i + week + 1) % len(teams)]
            play(division, home, away, (i * 3 + week) % 11, (i + week * 5) % 11, week)
    PointAdjustmentFactory(entry=division.entries.get(team=teams[5]), points=-4, reason="Late")
    refresh_division_table(division=division)
    return division, teams


def test_a_big_divisions_chart_is_drawn_from_its_stored_band_as_from_every_teams_points(client):
    division, teams = big_division()
    (worked_out,) = worked_out_standings(divisions=[division])
    stored = division_standings(division=division)
    assert len(stored.band) == 4 and stored.band == worked_out.band
    # Read as stored, the rows come without their points a night; the chart's few are read.
    assert not stored.row_nights and all(row.nights == [] for row in stored.rows)
    chosen = teams[7].pk
    picked = picked_out(stored.rows, chosen=chosen)
    with_nights(stored, teams=picked)
    assert {row.team.pk for row in stored.rows if row.nights} == set(picked)

    def chart(standings):
        return progression_chart(
            rows=standings.rows,
            nights=standings.nights,
            adjustments=standings.adjustments,
            band=standings.band,
            chosen=chosen,
            zone=standings.league.time_zone,
        )

    from_stored, from_every_team = chart(stored), chart(worked_out)
    assert from_stored is not None and from_every_team is not None
    assert from_stored.band and from_stored.drawing == from_every_team.drawing
    assert from_stored.banded == len(teams)
    page = client.get(reverse("leagues:division", args=[division.pk]), {"team": chosen})
    html = page.content.decode()
    assert from_stored.drawing in html
    assert f"all {len(teams)} teams, from the lowest to the highest each week" in html


def test_a_big_divisions_band_moves_an_adjustment_to_its_day_where_the_league_now_plays():
    """An adjustment made at 02:00 UTC counts on that day in London, the day before in Port of
    Spain: the stored band follows the league's time zone when the secretary changes it."""
    division, teams = big_division()
    league = division.season.league
    secretary = UserFactory()
    league.secretaries.add(secretary)
    made_at = datetime.datetime(2025, 9, 20, 2, 0, tzinfo=datetime.UTC)
    PointAdjustment.objects.update(made_at=made_at)
    refresh_division_table(division=division)

    def band_days():
        return [day for day, _, _ in division_standings(division=division).band]

    assert datetime.date(2025, 9, 20) in band_days()
    league_update(
        league=league,
        name=league.name,
        description=league.description,
        league_night=league.league_night,
        start_time=league.start_time,
        target=None,
        time_zone="America/Port_of_Spain",
        match_format=league.get_match_format(),
        tiebreaks=league.get_tiebreaks(),
        by=secretary,
    )
    days = band_days()
    assert datetime.date(2025, 9, 19) in days and datetime.date(2025, 9, 20) not in days
    division = Division.objects.select_related("season__league").get(pk=division.pk)
    (worked_out,) = worked_out_standings(divisions=[division])
    assert division_standings(division=division).band == worked_out.band


def test_a_big_divisions_table_stored_before_its_band_is_rebuilt_as_missing():
    """A table stored before the band was (migration 0044) has none: ``rebuild_standings
    --missing`` (run on every ``make serve``) works it out; a table with its band is left."""
    from leagues.models import DivisionTable
    from leagues.services.standings import rebuild_tables

    division, _ = big_division()
    stored = DivisionTable.objects.get(pk=division.pk).band
    assert stored
    assert rebuild_tables(leagues=[division.season.league], missing=True) == 0
    DivisionTable.objects.filter(pk=division.pk).update(band=[])
    assert rebuild_tables(leagues=[division.season.league], missing=True) == 1
    assert DivisionTable.objects.get(pk=division.pk).band == stored


def _nights(weeks: int) -> list[datetime.date]:
    start = datetime.date(2026, 9, 1)
    return [start + datetime.timedelta(days=7 * w) for w in range(weeks)]


def test_a_small_division_draws_every_team_as_a_line():
    chart = progression_chart(rows=_rows(BAND_ABOVE, 30), nights=_nights(30), zone="UTC")
    assert chart is not None and chart.band == "" and chart.banded == 0
    assert len(chart.lines) == BAND_ABOVE and chart.others == BAND_ABOVE - 1


def test_a_picked_out_lines_markers_do_not_overlap_in_a_long_season():
    chart = progression_chart(rows=_rows(4, 198), nights=_nights(198), zone="UTC")
    assert chart is not None
    marks = [mark.x for mark in chart.standing_out[0].marks]
    assert all(b - a >= MARK_GAP for a, b in zip(marks, marks[1:], strict=False))
    assert marks[-1] == chart.right_x  # the last week is always marked
    few = progression_chart(rows=_rows(4, 18), nights=_nights(18), zone="UTC")
    assert few is not None and len(few.standing_out[0].marks) == 18


def test_a_division_without_a_fixture_list_marks_no_team_and_says_so(client):
    """Before the fixture list nothing is certain: no C, ↑ or ↓ (a division of two with two
    going down had both marked relegated), and no "every fixture is settled"."""
    division, t = make_division("Anchor", "Bay Horse")
    DivisionFactory(season=division.season, rank=division.rank + 1, name="Below")
    refresh_division_table(division=division)
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    assert page.count('class="badge ') == 3  # the key's C, ↑ and ↓ only: no team marked
    assert "No fixture to count yet" in page and "Every fixture is counted" not in page
    race = division_race(standings=division_standings(division=division))
    assert race.outlooks == {} and race.relegated == 2


def test_the_secretary_sets_how_many_go_up_and_down(client):
    division, t = make_division("Anchor", "Bay Horse", "Crown")
    league = division.season.league
    secretary = get_user_model().objects.create_user("sec", password="a-long-pass-phrase")
    league.secretaries.add(secretary)
    client.force_login(secretary)
    url = reverse("leagues:manage_division_edit", args=[league.slug, division.pk])
    page = client.get(url).content.decode()
    assert "Teams going up" in page and "Teams going down" in page
    response = client.post(url, {"name": division.name, "rank": 1, "promoted": 0, "relegated": 1})
    assert response.status_code == 302
    division.refresh_from_db()
    assert (division.promoted, division.relegated) == (0, 1)
    refused = client.post(url, {"name": division.name, "rank": 1, "relegated": -1})
    assert refused.status_code == 200
    division.refresh_from_db()
    assert division.relegated == 1


@settings(max_examples=60, deadline=None)
@given(
    nights=st.lists(st.integers(0, 40), min_size=1, max_size=12, unique=True).map(sorted),
    points=st.lists(st.lists(st.integers(0, 3), min_size=12, max_size=12), min_size=1, max_size=4),
    made=st.lists(st.tuples(st.integers(0, 44), st.integers(0, 3), st.integers(-5, 3)), max_size=5),
)
def test_each_line_adds_the_results_and_adjustments_day_by_day(nights, points, made):
    """Each team's line is its running total over every day with a result or an adjustment,
    in date order: an adjustment on a day without a result has a point of its own."""
    start = datetime.date(2026, 9, 1)
    days = [start + datetime.timedelta(days=d) for d in nights]
    rows = [
        SimpleNamespace(
            team=SimpleNamespace(pk=k + 1, name=f"Team {k}"),
            entry=SimpleNamespace(display_name=f"Team {k}"),
            position=k + 1,
            nights=scored[: len(days)],
        )
        for k, scored in enumerate(points)
    ]
    adjustments = [
        SimpleNamespace(
            made_at=datetime.datetime.combine(
                start + datetime.timedelta(days=day), datetime.time(12), tzinfo=datetime.UTC
            ),
            entry=SimpleNamespace(team_id=team % len(rows) + 1),
            points=change,
        )
        for day, team, change in made
    ]
    chart = progression_chart(rows=rows, nights=days, adjustments=adjustments, zone="UTC")
    assert chart is not None
    # The same worked out the plain way: each day's points, then the running total.
    dates = sorted(set(days) | {a.made_at.date() for a in adjustments})
    expected = {}
    for row in rows:
        day_points = dict.fromkeys(dates, 0)
        for day, scored in zip(days, row.nights, strict=True):
            day_points[day] += scored
        for a in adjustments:
            if a.entry.team_id == row.team.pk:
                day_points[a.made_at.date()] += a.points
        running, total = [], 0
        for day in dates:
            total += day_points[day]
            running.append(total)
        expected[row.team.pk] = running
    low = min(0, *(min(series) for series in expected.values()))
    top = max(1, *(max(series) for series in expected.values()))
    plot_h = HEIGHT - TOP - BOTTOM
    for line in chart.lines:
        heights = [float(point.split(",")[1]) for point in line.points.split(" ")]
        assert heights == [
            round(TOP + plot_h * (1 - (p - low) / (top - low)), 1) for p in expected[line.team_id]
        ]
        assert line.total == expected[line.team_id][-1]


def test_an_adjustment_is_charted_on_the_day_it_was_made_where_the_league_plays():
    """A Trinidad secretary docks a point at 21:30 on the Friday league night: it is 01:30 on
    Saturday in London (the site's zone), and the chart put it on a Saturday of its own; it
    belongs to the Friday, with that night's results."""
    friday = datetime.date(2026, 11, 6)
    row = SimpleNamespace(
        team=SimpleNamespace(pk=1, name="Toco Trumps"),
        entry=SimpleNamespace(display_name="Toco Trumps"),
        position=1,
        nights=[2],
    )
    docked = SimpleNamespace(
        made_at=datetime.datetime(2026, 11, 7, 1, 30, tzinfo=datetime.UTC),
        entry=SimpleNamespace(team_id=1),
        points=-1,
    )
    chart = progression_chart(
        rows=[row], nights=[friday], adjustments=[docked], zone="America/Port_of_Spain"
    )
    assert chart is not None
    assert chart.days == 1
    assert chart.lines[0].total == 1


def test_two_teams_level_first_on_every_tie_break_are_not_both_marked_champions(client):
    """A season ended with two teams level first on points and every tie-break: both were
    marked "C", champions certain. The table does not name the champions then (a play-off or
    the league's rule does): neither is marked, and each row says so."""
    division, t = make_division("Anchor", "Bay Horse", "Crown")
    play(division, t["Anchor"], t["Crown"], 10, 0, 0)
    play(division, t["Bay Horse"], t["Crown"], 10, 0, 1)
    play(division, t["Anchor"], t["Bay Horse"], 5, 5, 2)
    race = division_race(standings=division_standings(division=division))
    assert race.remaining == 0 and race.shared_top
    rows = {row.team.name: row for row in division_standings(division=division).rows}
    assert race.markers(rows["Anchor"]) == race.markers(rows["Bay Horse"]) == []
    assert race.places(rows["Anchor"]).startswith("Level first on every tie-break")
    assert race.places(rows["Crown"]) == "Finishes 3rd"
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    badge = '<abbr class="badge badge-champions" title="Champions">C</abbr>'
    assert page.count(badge) == page.count(f"<dt>{badge}</dt>") == 1  # the key's alone
    assert "Level first on every tie-break" in page


def test_a_finished_division_reads_as_final_not_as_a_race(client):
    """Once every fixture is counted the division's page headed a section "Who can still win
    it" and its key said the champions were "certain, whatever the results still to come":
    none are to come. It says how it finished, and the key (the league's page's too) that the
    marks are final."""
    from html import unescape

    division, t = make_division("Anchor", "Bay Horse", "Crown")
    play(division, t["Anchor"], t["Bay Horse"], 10, 0, 0)
    play(division, t["Anchor"], t["Crown"], 10, 0, 1)
    play(division, t["Bay Horse"], t["Crown"], 6, 4, 2)
    page = " ".join(
        unescape(
            client.get(reverse("leagues:division", args=[division.pk])).content.decode()
        ).split()
    )
    assert "How it finished" in page and "Who can still win it" not in page
    assert "<strong>Anchor</strong> finished top." in page
    assert "Every fixture is counted: the table is final." in page
    assert "champions: final: every fixture is counted" in page
    assert "whatever the results still to come" not in page and "can still" not in page
    league = division.season.league
    home = " ".join(unescape(client.get(league.get_absolute_url()).content.decode()).split())
    assert "champions: final: every fixture is counted" in home
    assert "whatever the results still to come" not in home

    # A fixture still to come: the race is on again, in its own words.
    from leagues.fragments import invalidate_league

    to_play(division, t["Crown"], t["Anchor"], 3)
    invalidate_league(league.pk)  # as adding a fixture leaves the pages
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    assert "Who can still win it" in page and "How it finished" not in page
    assert "certain, whatever the results still to come" in page


def test_the_charts_weeks_are_the_leagues_nights_by_date():
    """The chart numbered its axis 1, 2, 3… over every day with a result or an adjustment: a
    fixture re-arranged to a Thursday and a point docked on a Saturday each made a "week", so
    the chart's week 4 was the league's Week 3. The axis reads the league nights by date, as the
    fixture list heads them; the Thursday's and the Saturday's points count, drawn at their
    days between the Tuesdays."""
    tuesday = datetime.date(2025, 9, 2)
    days = [tuesday, tuesday + datetime.timedelta(days=7), tuesday + datetime.timedelta(days=9)]
    days.append(tuesday + datetime.timedelta(days=14))
    row = SimpleNamespace(
        team=SimpleNamespace(pk=1, name="Black Bull"),
        entry=SimpleNamespace(display_name="Black Bull"),
        position=1,
        nights=[2, 2, 2, 2],
    )
    docked = SimpleNamespace(
        made_at=datetime.datetime(2025, 9, 13, 12, tzinfo=datetime.UTC),  # a Saturday
        entry=SimpleNamespace(team_id=1),
        points=-1,
    )
    chart = progression_chart(rows=[row], nights=days, adjustments=[docked], zone="UTC")
    assert chart is not None
    assert [label for _, label in chart.x_ticks] == ["2 Sep", "9 Sep", "16 Sep"]
    ticks = [x for x, _ in chart.x_ticks]
    assert ticks == [chart.left, (chart.left + chart.right_x) / 2, chart.right_x]
    # Two days after the second Tuesday, four days after, then the third Tuesday.
    week = ticks[1] - ticks[0]
    xs = [float(point.split(",")[0]) for point in chart.lines[0].points.split(" ")]
    assert xs == [ticks[0], ticks[1], ticks[1] + week * 2 / 7, ticks[1] + week * 4 / 7, ticks[2]]
    assert chart.lines[0].total == 7
    # The three Tuesdays' dates along the bottom, the last under its tick; the Thursday's in
    # italics beneath (beside the second Tuesday's, the two would touch).
    assert chart.drawing.count('text-anchor="middle" fill') == 3
    assert f'<text x="{float(chart.right_x)}" y="216" text-anchor="middle"' in chart.drawing
    assert chart.off_nights == [OffNight(xs[2], "11 Sep", 1)]
    assert chart.height == HEIGHT + ROW
    assert f'y="{216 + ROW}" text-anchor="middle" font-style="italic"' in chart.drawing
    assert ">11 Sep</text>" in chart.drawing


def test_the_summary_and_the_bottom_name_the_first_and_last_days_drawn():
    """A point docked on the Sunday after the last Tuesday: the summary read "Tue 2 Sep to Sun
    21 Sep", a last day the bottom did not name; then "Tue 2 Sep to Tue 16 Sep", with every
    line drawn on to the Sunday. The Sunday is named along the bottom, in italics (it is no
    league night), and the summary names it, the adjustment with it."""
    days = [DAY + datetime.timedelta(weeks=week) for week in range(3)]
    docked = SimpleNamespace(
        made_at=datetime.datetime(2025, 9, 21, 12, tzinfo=datetime.UTC),  # a Sunday
        entry=SimpleNamespace(team_id=1),
        points=-1,
    )
    chart = progression_chart(rows=[_one_team(days)], nights=days, adjustments=[docked], zone="UTC")
    assert chart is not None
    assert [label for _, label in chart.x_ticks] == ["2 Sep", "9 Sep", "16 Sep"]
    last_x = float(chart.lines[0].points.split(" ")[-1].split(",")[0])
    assert [(off.x, off.label) for off in chart.off_nights] == [(last_x, "21 Sep")]
    assert chart.off_nights[0].row is not None
    assert ">21 Sep</text>" in chart.drawing
    assert chart.days_words == "Tue 2 Sep 2025 to Sun 21 Sep 2025"
    assert chart.adjusted
    undocked = progression_chart(rows=[_one_team(days)], nights=days, zone="UTC")
    assert undocked is not None and not undocked.adjusted
    assert undocked.days_words == "Tue 2 Sep 2025 to Tue 16 Sep 2025"


@pytest.mark.parametrize("weeks", [7, 29])
def test_the_last_league_night_is_named_however_many_weeks_the_dates_step(weeks):
    """A long season names every few weeks along the bottom: stepping from the first night, the
    last was left unnamed, its points drawn past the last date named and the summary's."""
    days = [DAY + datetime.timedelta(weeks=w) for w in range(weeks + 1)]
    chart = progression_chart(rows=[_one_team(days)], nights=days, zone="UTC")
    assert chart is not None
    assert chart.x_ticks[-1] == (chart.right_x, day_month(days[-1]))
    assert chart.days_words == f"{short_date(days[0])} to {short_date(days[-1])}"
    ticks = [x for x, _ in chart.x_ticks]
    assert all(b - a >= TICK_GAP for a, b in zip(ticks, ticks[1:], strict=False)), ticks


def _one_team(days: list[datetime.date]) -> SimpleNamespace:
    return SimpleNamespace(
        team=SimpleNamespace(pk=1, name="Black Bull"),
        entry=SimpleNamespace(display_name="Black Bull"),
        position=1,
        nights=[2] * len(days),
    )


def _label_width(label: str) -> float:
    return len(label) * LABEL_SIZE * 0.6


@pytest.mark.parametrize("weeks", [1, 2, 3, 8, 30])
def test_the_last_nights_point_and_date_stand_inside_the_drawing(weeks):
    """The last night's point stood at the drawing's right edge: its marker and the line's end
    were cut off on a phone, and its date, pushed left to stay in, stood off its tick. There is
    room: the marker (5 units each side, and its outline) and the date, centred under the
    tick, are inside the drawing."""
    days = [DAY + datetime.timedelta(weeks=w) for w in range(weeks + 1)]
    chart = progression_chart(rows=[_one_team(days)], nights=days, zone="UTC")
    assert chart is not None
    last_x, last_label = chart.x_ticks[-1]
    assert last_x == chart.right_x == chart.lines[0].marks[-1].x
    assert last_x + 5.5 <= chart.width
    assert f'<text x="{float(last_x)}" y="216" text-anchor="middle"' in chart.drawing
    assert last_x + _label_width(last_label) / 2 <= chart.width


def test_a_re_arranged_night_is_named_beside_the_league_nights_where_there_is_room():
    """A Friday three days after the first Tuesday of a two-week season stands far enough from
    both Tuesdays for its date in the same row, in italics; the chart keeps its height."""
    days = [DAY, DAY + datetime.timedelta(days=3), DAY + datetime.timedelta(weeks=1)]
    days.append(DAY + datetime.timedelta(weeks=2))
    chart = progression_chart(rows=[_one_team(days)], nights=days, night=1, zone="UTC")
    assert chart is not None
    assert [label for _, label in chart.x_ticks] == ["2 Sep", "9 Sep", "16 Sep"]
    assert [(off.label, off.row) for off in chart.off_nights] == [("5 Sep", 0)]
    assert chart.height == HEIGHT
    assert 'y="216" text-anchor="middle" font-style="italic"' in chart.drawing


def test_re_arranged_nights_dates_never_overlap():
    """A Wednesday and a Thursday just after the first Tuesday: the Wednesday's date goes
    beneath, the Thursday's has no room in either row and is a dashed tick alone; no two dates
    in a row stand nearer than ``TICK_GAP``."""
    days = [DAY + datetime.timedelta(days=n) for n in (0, 1, 2, 14)]
    chart = progression_chart(rows=[_one_team(days)], nights=days, night=1, zone="UTC")
    assert chart is not None
    assert [(off.label, off.row) for off in chart.off_nights] == [("3 Sep", 1), ("4 Sep", None)]
    assert chart.drawing.count('data-testid="off-night"') == 2
    assert ">4 Sep</text>" not in chart.drawing
    texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="middle"', chart.drawing)
    for row in {y for _, y in texts}:
        xs = sorted(float(x) for x, y in texts if y == row)
        assert all(b - a >= TICK_GAP for a, b in zip(xs, xs[1:], strict=False)), (row, xs)


def test_the_standings_chart_after_a_fixture_re_arranged_to_a_thursday(client):
    """On the page: a fixture of Week 1 re-arranged to the Thursday is named too, in italics
    beneath (it adds no league night: the three Tuesdays are the axis), and the summary says
    the nights it spans."""
    from leagues.services.fixtures import fixture_rearrange, fixtures_generate

    division, t = make_division("Anchor", "Bay Horse", "Crown", "Drop Inn")
    fixtures_generate(division=division, start=DAY, legs=1)
    thursday = DAY + datetime.timedelta(days=2)
    moved = Fixture.objects.filter(division=division, round=1).first()
    fixture_rearrange(fixture=moved, date=thursday, outside_calendar=True, reason="Asked for")
    for fixture in Fixture.objects.filter(division=division):
        FixtureResultFactory(fixture=fixture, home_win=True)
    page = client.get(reverse("leagues:division", args=[division.pk])).content.decode()
    # Along the bottom (the points up the side are set a little lower, with dy).
    along = re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="middle" fill[^>]*>([^<]*)<', page)
    assert along == ["2 Sep", "9 Sep", "16 Sep"]
    off = re.findall(r'<text [^>]*font-style="italic"[^>]*>([^<]*)<', page)
    assert off == ["4 Sep"]
    assert "Points after each league night, Tue 2 Sep 2025 to Tue 16 Sep 2025." in page
