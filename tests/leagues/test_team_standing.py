"""A team's page shows its place, games played and points in its division."""

from __future__ import annotations

import re

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from leagues.selectors.fixtures import _team_entries_shape, team_with_entries
from leagues.selectors.standings import (
    STORED_FIGURES,
    _entry_row_shape,
    division_standings,
    entry_standing,
)
from leagues.services.standings import refresh_division_table
from tests.factories.leagues import TeamFactory
from tests.leagues.helpers import confirm
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


def test_the_team_page_shows_position_played_and_points(client):
    world = build(played=True)
    fixture = confirm(world.fixture)
    refresh_division_table(division=fixture.division_id)
    rows = {row.team.pk: row for row in division_standings(division=fixture.division).rows}
    for team in (fixture.home, fixture.away):
        row = rows[team.pk]
        page = client.get(reverse("leagues:team", args=[team.pk])).content.decode()
        block = re.search(r'data-testid="team-standing">(.*?)</dl>', page, re.S).group(1)
        words = re.sub(r"<[^>]+>|\s+", " ", block).split()
        suffix = {1: "st", 2: "nd", 3: "rd"}[row.position]
        joint = "Joint " if row.tied else ""  # the away team is level with the third, 2=
        assert " ".join(words) == (
            f"Position {joint}{row.position}{suffix} of 3 Played 1 Points {row.points}"
        )
    assert rows[fixture.home.pk].position == 1 and rows[fixture.home.pk].points > 0


def test_the_team_page_says_what_an_adjustment_took_from_its_points(client):
    """The page said "Points 16" where its own results add up to 18 and the table reads "16*"
    with the deduction below it: it says where the difference comes from, linking to it."""
    from leagues.services.adjustments import points_adjust

    world = build(played=True)
    fixture = confirm(world.fixture)
    entry = fixture.home.entries.get()
    points_adjust(entry=entry, points=-2, reason="Late start", by=world.users["secretary"])
    row = next(
        row
        for row in division_standings(division=fixture.division).rows
        if row.team.pk == fixture.home.pk
    )
    page = client.get(reverse("leagues:team", args=[fixture.home.pk])).content.decode()
    block = re.search(r'data-testid="team-standing">(.*?)</dl>', page, re.S).group(1)
    # Read as a screen reader reads it, each tag a break: the closing bracket is no word of its
    # own after the link (it read "−2 adjusted )").
    words = " ".join(re.sub(r"<[^>]+>|\s+", " ", block).split())
    assert words.endswith(
        f"Points {row.result_points - 2} ({row.result_points} from results, −2 adjusted)"
    ), words
    assert f'href="{fixture.division.get_absolute_url()}#adjustments"' in block
    away = client.get(reverse("leagues:team", args=[fixture.away.pk])).content.decode()
    assert 'data-testid="team-adjusted"' not in away


def test_a_shared_place_is_joint_on_the_team_page_as_in_the_table(client):
    """Teams level on every tie-break share a place: the table says "1=", and the team page said
    "1st of 3" for each of them (and "3rd" for the one below two level teams)."""
    world = build(played=False)
    refresh_division_table(division=world.fixture.division_id)
    rows = division_standings(division=world.fixture.division).rows
    assert [(row.position, row.tied) for row in rows] == [(1, True)] * 3
    for row in rows:
        page = client.get(reverse("leagues:team", args=[row.team.pk])).content.decode()
        block = re.search(r'data-testid="team-standing">(.*?)</dl>', page, re.S).group(1)
        words = " ".join(re.sub(r"<[^>]+>|\s+", " ", block).split())
        assert words.startswith("Position Joint 1st of 3 Played 0"), words


def test_the_team_pages_reads_built_once_are_the_querysets():
    """The team page's seasons and its row of the stored table are read by queries built once
    per connection and run with each team's or entry's id: the same rows, fields and related
    rows as their querysets give."""
    world = build(played=True)
    fixture = confirm(world.fixture)
    refresh_division_table(division=fixture.division_id)
    for team in (fixture.home, fixture.away):
        read, entries = team_with_entries(pk=team.pk)
        expected = list(_team_entries_shape(team.pk))
        assert [_fields(e, e.division, e.season, e.team, e.team.league) for e in entries] == [
            _fields(e, e.division, e.season, e.team, e.team.league) for e in expected
        ]
        assert all(entry.team is read for entry in entries)
        assert _fields(read, read.league, read.home_venue) == _fields(
            team, team.league, team.home_venue
        )
        (entry,) = entries
        row, teams = entry_standing(entry=entry)
        (stored,) = _entry_row_shape(entry.pk)
        assert row is not None and row.team is read and teams == stored.teams == 3
        assert [getattr(row, name) for name in STORED_FIGURES] == [
            getattr(stored, name) for name in STORED_FIGURES
        ]


def _fields(*objs) -> list[dict]:
    return [model_to_dict(obj) for obj in objs]


def test_a_team_never_entered_in_a_season_has_its_page(client):
    """The team page reads the team with its seasons: a team with none is read by itself."""
    team = TeamFactory(name="Crown & Anchor")
    read, entries = team_with_entries(pk=team.pk)
    assert entries == [] and _fields(read, read.league, read.home_venue) == _fields(
        team, team.league, team.home_venue
    )
    page = client.get(reverse("leagues:team", args=[team.pk])).content.decode()
    assert "Crown &amp; Anchor" in page and "Not entered in a season yet." in page
    assert team.home_venue.name in page
