"""A division's season on one sheet: league nights down the side, teams across, each cell the
team's match that night (home or away, against whom), for the pub noticeboard.

Two queries: the division's entries and its own fixtures (``DIVISION_OWN``: not the cup ties
filed under it; a play-off or a friendly is marked with its kind). A fixture away from the home
team's own venue is marked and listed under the grid with its venue.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from leagues.models import Division, Fixture, Team
from leagues.selectors.fixtures import division_entries, division_fixtures


@dataclass(frozen=True)
class Cell:
    fixture: Fixture
    home: bool
    opponent: Team
    elsewhere: bool
    """Played away from the home team's own venue (see the notes)."""

    @property
    def side(self) -> str:
        return "H" if self.home else "A"


@dataclass
class Week:
    date: datetime.date
    cells: list[list[Cell]]
    """One list a team, in the grid's team order (empty: no match that night)."""


@dataclass
class SeasonGrid:
    division: Division
    teams: list[Team]
    weeks: list[Week]
    elsewhere: list[Fixture] = field(default_factory=list)
    void: int = 0


def season_grid(*, division: Division) -> SeasonGrid:
    teams = [entry.team for entry in division_entries(division=division)]
    column = {team.pk: i for i, team in enumerate(teams)}
    weeks: dict[datetime.date, Week] = {}
    grid = SeasonGrid(division=division, teams=teams, weeks=[])
    for fixture in division_fixtures(division=division):
        if fixture.status == Fixture.Status.VOID:
            grid.void += 1
            continue
        week = weeks.setdefault(fixture.date, Week(date=fixture.date, cells=[[] for _ in teams]))
        elsewhere = fixture.venue_id != fixture.home.home_venue_id
        if elsewhere:
            grid.elsewhere.append(fixture)
        for team, opponent, home in (
            (fixture.home, fixture.away, True),
            (fixture.away, fixture.home, False),
        ):
            if team.pk in column:
                week.cells[column[team.pk]].append(
                    Cell(fixture=fixture, home=home, opponent=opponent, elsewhere=elsewhere)
                )
    grid.weeks = [weeks[day] for day in sorted(weeks)]
    return grid
