"""A team's page shows its place, games played and points in its division."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leagues.selectors.standings import division_standings
from leagues.services.standings import refresh_division_table
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
        assert " ".join(words) == (
            f"Position {row.position}{suffix} of 3 Played 1 Points {row.points}"
        )
    assert rows[fixture.home.pk].position == 1 and rows[fixture.home.pk].points > 0
