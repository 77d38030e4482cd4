"""Who can still win it: a division's table and its fixtures left, through ``leagues.clinch``.

The fixtures still to count come with the standings (``Standings.remaining``: every league
fixture that is not void and whose result the table does not count yet, a played one waiting for
confirmation included); one query, the ranks of the season's divisions (which say whether places
go up or down), unless the caller has them (the league's home, for all its divisions at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from leagues.clinch import Contender, Outlook, outlook
from leagues.match import possible_points
from leagues.models import Division
from leagues.selectors.standings import StandingRow, Standings
from leagues.tiebreaks import METRICS

#: Places that go up to the division above and down to the one below, when there is one
#: (a third of a small division at most).
MOVING_PLACES = 2


@dataclass(frozen=True)
class Marker:
    """A badge by a team's name: a short mark, its meaning, and a class for its look."""

    mark: str
    label: str
    kind: str


CHAMPIONS = Marker("C", "Champions", "champions")
PROMOTED = Marker("↑", "Promoted", "promoted")
RELEGATED = Marker("↓", "Relegated", "relegated")
MARKERS = (CHAMPIONS, PROMOTED, RELEGATED)


@dataclass(frozen=True)
class Race:
    """Each team's outlook, by team id, and the division's moving places."""

    outlooks: dict[Any, Outlook]
    promoted: int
    relegated: int
    remaining: int
    """Fixtures left to count."""

    def markers(self, row: StandingRow) -> list[Marker]:
        view = self.outlooks.get(row.team.pk)
        if view is None:
            return []
        if view.champions:
            return [CHAMPIONS]
        if view.promoted:
            return [PROMOTED]
        if view.relegated:
            return [RELEGATED]
        return []

    def places(self, row: StandingRow) -> str:
        """E.g. "Can finish 2nd to 4th", "Finishes 3rd"."""
        view = self.outlooks.get(row.team.pk)
        if view is None:
            return ""
        if view.best == view.worst:
            return (
                f"Finishes {ordinal(view.best)}"
                if not self.remaining
                else (f"Certain to finish {ordinal(view.best)}")
            )
        return f"Can finish {ordinal(view.best)} to {ordinal(view.worst)}"

    def title_race(self, rows: list[StandingRow]) -> list[StandingRow]:
        """The teams that can still finish first."""
        return [row for row in rows if self.outlooks[row.team.pk].best == 1]


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def moving_places(
    division: Division, size: int, ranks: Sequence[int] | None = None
) -> tuple[int, int]:
    """Places promoted and relegated: only with a division above, and one below. ``ranks``:
    those of every division of the season, looked up when not given."""
    if ranks is None:
        ranks = list(
            Division.objects.filter(season_id=division.season_id).values_list("rank", flat=True)
        )
    up = min(division.promoted, size) if any(rank < division.rank for rank in ranks) else 0
    down = min(division.relegated, size - up) if any(rank > division.rank for rank in ranks) else 0
    return up, down


def division_race(*, standings: Standings, ranks: Sequence[int] | None = None) -> Race:
    """Where each team of the table can still finish, from the fixtures left. ``ranks``: those
    of every division of the season (``moving_places``)."""
    division = standings.division
    teams = {row.team.pk for row in standings.rows}
    remaining = [
        (home, away) for home, away in standings.remaining if home in teams and away in teams
    ]
    keys = standings.tiebreaks[1:]
    complete = "head_to_head" not in keys
    if not complete:
        keys = keys[: keys.index("head_to_head")]
    busy = {team for fixture in remaining for team in fixture}

    def settled(row: StandingRow) -> tuple[int, ...] | None:
        if not remaining:
            return (-row.position,)  # the table as it ends, every tie-break applied
        if row.team.pk in busy:
            return None
        return tuple(
            row.metric(key) if METRICS[key].higher_is_better else -row.metric(key) for key in keys
        )

    up, down = moving_places(division, len(standings.rows), ranks)
    outlooks = outlook(
        [Contender(row.team.pk, row.points, settled(row)) for row in standings.rows],
        remaining,
        possible_points(standings.division.season.get_match_format()),
        complete=complete or not remaining,
        promoted=up,
        relegated=down,
    )
    return Race(
        outlooks=dict(outlooks),
        promoted=up,
        relegated=down,
        remaining=len(remaining),
    )
