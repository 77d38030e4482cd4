"""Who can still win it: a division's table and its fixtures left, through ``leagues.clinch``.

The fixtures still to count come with the standings (``Standings.remaining``: every league
fixture that is not void and whose result the table does not count yet, a played one waiting for
confirmation and a walkover waiting for its date included); one query, the ranks of the season's
divisions (which say whether places go up or down), unless the caller has them (the league's
home, for all its divisions at once).

The race reads them all, so that "N fixtures left to count" is the table's own figure (its
"M of T counted so far": T − M = N): a withdrawn team's fixture left (a walkover on its date,
or a result still to be confirmed) places the withdrawn team nowhere, but still gives its
opponent points (``clinch.outlook``'s ``outside``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from leagues.clinch import Contender, Outlook, outlook
from leagues.match import possible_points
from leagues.models import Division
from leagues.movement import DOWN, MovingPlaces, moving_places
from leagues.selectors.standings import StandingRow, Standings
from leagues.tiebreaks import METRICS
from scoring.forms.words import ordinal


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
    """Fixtures left to count: ``len(Standings.remaining)``, the table's own figure."""
    withdrawn_down: bool = False
    """Withdrawn teams go down (a division is below): each is marked relegated."""

    @property
    def finished(self) -> bool:
        """Every fixture of the division is counted (there were some): the table is final, and
        the pages say how it finished, not who can still win it."""
        return bool(self.outlooks) and not self.remaining

    @property
    def marker_words(self) -> str:
        """What a badge (C, ↑, ↓) is, said after its label in the table's key."""
        if self.finished:
            return "final: every fixture is counted"
        return "certain, whatever the results still to come"

    def markers(self, row: StandingRow) -> list[Marker]:
        if row.withdrawn:
            return [RELEGATED] if self.withdrawn_down else []
        view = self.outlooks.get(row.team.pk)
        if view is None:
            return []
        if view.champions and not self.shared_top:
            return [CHAMPIONS]
        if view.promoted:
            return [PROMOTED]
        if view.relegated:
            return [RELEGATED]
        return []

    @property
    def shared_top(self) -> bool:
        """Two teams or more end level first on every tie-break: the table does not name the
        champions (a play-off or the league's own rule does), so none is marked."""
        return sum(1 for view in self.outlooks.values() if view.worst == 1) > 1

    def places(self, row: StandingRow) -> str:
        """E.g. "Can finish 2nd to 4th", "Finishes 3rd"."""
        view = self.outlooks.get(row.team.pk)
        if view is None:
            return ""
        if view.worst == 1 and self.shared_top:
            return (
                "Level first on every tie-break: a play-off or the league's rule decides the title"
            )
        if view.best == view.worst:
            return (
                f"Finishes {ordinal(view.best)}"
                if not self.remaining
                else (f"Certain to finish {ordinal(view.best)}")
            )
        return f"Can finish {ordinal(view.best)} to {ordinal(view.worst)}"

    def title_race(self, rows: list[StandingRow]) -> list[StandingRow]:
        """The teams that can still finish first."""
        return [
            row
            for row in rows
            if (view := self.outlooks.get(row.team.pk)) is not None and view.best == 1
        ]


def division_places(
    division: Division, standings: Standings, ranks: Sequence[int] | None = None
) -> MovingPlaces:
    """The division's moving places by the one promotion and relegation rule
    (``leagues.movement``): only with a division above, and one below, withdrawn teams going
    down first. ``ranks``: those of every division of the season; when not given, whether
    one ranks above and one below as the division was read (``divisions_for_tables``), or
    looked up."""
    if ranks is None and hasattr(division, "has_division_above"):
        above, below = division.has_division_above, division.has_division_below
    else:
        if ranks is None:
            ranks = list(
                Division.objects.filter(season_id=division.season_id).values_list("rank", flat=True)
            )
        above = any(rank < division.rank for rank in ranks)
        below = any(rank > division.rank for rank in ranks)
    withdrawn = sum(1 for row in standings.rows if row.withdrawn)
    return moving_places(
        playing=len(standings.rows) - withdrawn,
        withdrawn=withdrawn,
        promoted=division.promoted,
        relegated=division.relegated,
        above=above,
        below=below,
        withdrawn_take_places=division.season.league.withdrawn_take_places,
    )


def division_race(*, standings: Standings, ranks: Sequence[int] | None = None) -> Race:
    """Where each team of the table can still finish, from the fixtures left. ``ranks``: those
    of every division of the season (``moving_places``)."""
    division = standings.division
    playing = [row for row in standings.rows if not row.withdrawn]
    teams = {row.team.pk for row in playing}
    # Each fixture left with a team still playing; its other side, when not playing (withdrawn,
    # or moved out of the division), takes no place but its opponent still gains.
    remaining = [
        (home, away) for home, away in standings.remaining if home in teams or away in teams
    ]
    outside = {team for fixture in remaining for team in fixture} - teams
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

    places = division_places(division, standings, ranks)
    if not remaining and not standings.counted:
        # No fixture list yet: nothing is certain, no team is marked (no outlooks).
        return Race(
            outlooks={},
            promoted=places.up,
            relegated=places.down,
            remaining=len(standings.remaining),
        )
    # Withdrawn teams are placed below the others whatever their points: the race is between
    # the teams still playing, and a withdrawn team goes down first (``leagues.movement``).
    outlooks = outlook(
        [Contender(row.team.pk, row.points, settled(row)) for row in playing],
        remaining,
        possible_points(standings.division.season.get_match_format()),
        complete=complete or not remaining,
        promoted=places.up,
        relegated=places.down,
        outside=outside,
    )
    return Race(
        outlooks=dict(outlooks),
        promoted=places.up,
        relegated=places.down,
        remaining=len(standings.remaining),
        withdrawn_down=places.withdrawn == DOWN,
    )
