"""A division's league table, from stored results and adjustments (never by replaying hands).

Four queries whatever the size of the division: the division, its entries, the results that
count (``leagues.selectors.counting``, the one definition the chart, the statistics and every
list share), and its adjustments. A league with ``show_provisional`` counts unconfirmed results
too and the rows say how many. A withdrawn team is marked and placed below the others.
The order follows the league's tie-break list, a precedence of metric keys from
``leagues.tiebreaks.METRICS``; each key splits the teams still level on every key before it.
``head_to_head`` is a mini-table: the points the tied teams took from their matches against
each other; when it parts some of them, it is applied again to those still level (their matches
against each other only) before the next key.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from leagues.models import (
    Division,
    Fixture,
    League,
    PointAdjustment,
    Team,
    TeamEntry,
)
from leagues.selectors.counting import counted_fixtures
from leagues.tiebreaks import METRICS, Metric, tiebreak_rule_text

#: Columns shown for each style, in order (the points column last).
COLUMNS: dict[str, tuple[str, ...]] = {
    League.Style.YORKSHIRE: (
        "played",
        "won",
        "drawn",
        "lost",
        "games_for",
        "games_against",
        "tables_won",
        "pegs_for",
        "pegs_against",
        "pegs_diff",
        "adjustments",
        "points",
    ),
    League.Style.TRINIDAD: (
        "played",
        "won",
        "drawn",
        "lost",
        "games_for",
        "games_against",
        "games_diff",
        "hang_jacks_for",
        "hang_jacks_against",
        "adjustments",
        "points",
    ),
}


@dataclass(frozen=True)
class MatchLine:
    """One final result, from one team's side."""

    opponent_id: int
    points: int
    result: str = ""
    """"W", "D" or "L"."""
    fixture_id: int = 0


@dataclass
class StandingRow:
    entry: TeamEntry
    team: Team
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    games_for: int = 0
    games_against: int = 0
    tables_won: int = 0
    pegs_for: int = 0
    pegs_against: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    match_points: int = 0
    result_points: int = 0
    """Points from results, before adjustments."""
    adjustments: int = 0
    head_to_head: int | None = None
    """Points against the teams it was tied with, when head-to-head was needed to part them."""
    position: int = 0
    tied: bool = False
    """Level with the row above or below on every tie-break: the place is shared."""
    matches: list[MatchLine] = field(default_factory=list, repr=False)
    provisional: int = 0
    """Results counted that are not yet confirmed (only when the league shows them)."""

    @property
    def withdrawn(self) -> bool:
        return self.entry.is_withdrawn

    @property
    def points(self) -> int:
        return self.result_points + self.adjustments

    @property
    def last_five(self) -> list[MatchLine]:
        """The team's last five counted results, oldest first."""
        return self.matches[-5:]

    @property
    def games_diff(self) -> int:
        return self.games_for - self.games_against

    @property
    def pegs_diff(self) -> int:
        return self.pegs_for - self.pegs_against

    def metric(self, key: str) -> int:
        value = getattr(self, key)
        return 0 if value is None else value


@dataclass
class Standings:
    division: Division
    league: League
    rows: list[StandingRow]
    tiebreaks: list[str]
    rule_text: str
    columns: list[Metric]
    adjustments: list[PointAdjustment]
    """Every adjustment in the division, for the notes under the table."""
    counted: set[int] = field(default_factory=set)
    """The fixtures whose results the table counts."""

    @property
    def column_keys(self) -> list[str]:
        return [metric.key for metric in self.columns]


def _head_to_head(group: Sequence[StandingRow]) -> dict[int, int]:
    ids = {row.team.pk for row in group}
    return {
        row.team.pk: sum(line.points for line in row.matches if line.opponent_id in ids)
        for row in group
    }


def _value_getter(key: str, group: Sequence[StandingRow]) -> Callable[[StandingRow], int]:
    if key == "head_to_head":
        mini_table = _head_to_head(group)
        for row in group:
            row.head_to_head = mini_table[row.team.pk]
        return lambda row: mini_table[row.team.pk]
    return lambda row: row.metric(key)


def _order(group: list[StandingRow], keys: Sequence[str]) -> list[list[StandingRow]]:
    """The group split into runs of teams level on every key, best first."""
    if len(group) <= 1 or not keys:
        return [sorted(group, key=lambda row: row.team.name)] if group else []
    key, rest = keys[0], keys[1:]
    value = _value_getter(key, group)
    sign = 1 if METRICS[key].higher_is_better else -1
    buckets: dict[int, list[StandingRow]] = defaultdict(list)
    for row in group:
        buckets[value(row)].append(row)
    ordered: list[list[StandingRow]] = []
    for level in sorted(buckets, key=lambda v: -sign * v):
        bucket = buckets[level]
        if key == "head_to_head" and 1 < len(bucket) < len(group):
            # Head-to-head parted some of the teams: it is applied again among those still
            # level, on their matches against each other only, before the next key.
            ordered.extend(_order(bucket, keys))
        else:
            ordered.extend(_order(bucket, rest))
    return ordered


def rank_rows(rows: Iterable[StandingRow], tiebreaks: Sequence[str]) -> list[StandingRow]:
    """Order rows by the tie-break precedence and number their places (ties share one);
    withdrawn teams come last, in the same order among themselves."""
    ranked: list[StandingRow] = []
    rows = list(rows)
    runs = _order([r for r in rows if not r.withdrawn], list(tiebreaks)) + _order(
        [r for r in rows if r.withdrawn], list(tiebreaks)
    )
    for run in runs:
        position = len(ranked) + 1
        for row in run:
            row.position = position
            row.tied = len(run) > 1
        ranked.extend(run)
    return ranked


RESULT_FIELDS = (
    "home_id",
    "away_id",
    "result__outcome",
    "result__home_tables",
    "result__away_tables",
    "result__home_games",
    "result__away_games",
    "result__home_pegs",
    "result__away_pegs",
    "result__home_hang_jacks",
    "result__away_hang_jacks",
    "result__home_match_points",
    "result__away_match_points",
    "result__home_points",
    "result__away_points",
)


def _count(
    rows: dict[int, StandingRow], result: dict, side: str, other: str, provisional: bool
) -> None:
    row = rows.get(result[f"{side}_id"])
    if row is None:
        # A team moved out of the division keeps its results off this table.
        return
    row.played += 1
    if result["result__outcome"] == "draw":
        row.drawn += 1
        mark = "D"
    elif result["result__outcome"] == side:
        row.won += 1
        mark = "W"
    else:
        row.lost += 1
        mark = "L"
    row.games_for += result[f"result__{side}_games"]
    row.games_against += result[f"result__{other}_games"]
    row.tables_won += result[f"result__{side}_tables"]
    row.pegs_for += result[f"result__{side}_pegs"]
    row.pegs_against += result[f"result__{other}_pegs"]
    row.hang_jacks_for += result[f"result__{side}_hang_jacks"]
    row.hang_jacks_against += result[f"result__{other}_hang_jacks"]
    row.match_points += result[f"result__{side}_match_points"]
    row.result_points += result[f"result__{side}_points"]
    row.matches.append(
        MatchLine(result[f"{other}_id"], result[f"result__{side}_points"], mark, result["pk"])
    )
    if provisional:
        row.provisional += 1


def division_standings(*, division: Division | int) -> Standings:
    """The league table of a division, ordered by the league's tie-breaks."""
    division_id = division if isinstance(division, int) else division.pk
    division = Division.objects.select_related("season__league").get(pk=division_id)
    league = division.season.league
    entries = TeamEntry.objects.filter(division=division).select_related(
        "team__home_venue", "captain"
    )
    rows = {entry.team_id: StandingRow(entry=entry, team=entry.team) for entry in entries}

    counted = counted_fixtures(Fixture.objects.filter(division=division))
    counted_ids: set[int] = set()
    # In date order, so that each team's results end with its latest.
    for result in counted.order_by("date", "time", "pk").values(
        *RESULT_FIELDS, "pk", "provisional"
    ):
        counted_ids.add(result["pk"])
        _count(rows, result, "home", "away", result["provisional"])
        _count(rows, result, "away", "home", result["provisional"])

    adjustments = list(
        PointAdjustment.objects.filter(entry__division=division)
        .select_related("entry__team", "fixture")
        .order_by("made_at", "pk")
    )
    for adjustment in adjustments:
        row = rows.get(adjustment.entry.team_id)
        if row is not None:
            row.adjustments += adjustment.points

    tiebreaks = division.season.get_tiebreaks()
    return Standings(
        division=division,
        league=league,
        rows=rank_rows(rows.values(), tiebreaks),
        tiebreaks=tiebreaks,
        rule_text=tiebreak_rule_text(tiebreaks, league.style),
        columns=[METRICS[key] for key in COLUMNS[league.style]],
        adjustments=adjustments,
        counted=counted_ids,
    )
