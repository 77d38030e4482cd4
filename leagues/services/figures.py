"""Each pair's figures at each fixture table, stored from the stored hands of its finished
games (``PairFigures``): the roll-up stores a fixture's when its games change, and
``rebuild_standings`` stores them all again.

Three grouped queries over the fixtures' tables, whatever their number: finished games by table
and winner, counted awards by table, side and category, and all-fours hands by table and side;
then one row a side with a pair and a finished game. A table from the score card has no hands:
its pair's figures are what the card gives (``CARD_FIGURES``: the games played and won, the
hang jacks taken and given), its highs, lows, jacks, game points, kicks and all-fours hands none
to count. Side A of a league game is the home pair, side B the away pair. Whether a fixture's
figures count is not decided here: the statistics read that from the fixture
(``leagues.selectors.counting``), so a confirmation or a withdrawal moves nothing stored here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from django.db.models import Count

from leagues.models import FixtureTable, PairFigures, TableGame
from leagues.selectors.statistics import CATEGORY_FIGURE, OTHER, SIDE_SEATS
from scoring.models import Award, GameStatus, Hand

#: What a table from the score card gives its pairs' figures: the games each side won and the
#: hang jacks each side took, as the match engine stored them on the table.
CARD_FIGURES = ("home_games", "away_games", "home_hang_jacks", "away_hang_jacks")


def _card_figures(table: Mapping[str, int]) -> list[tuple[str, dict[str, int]]]:
    """Each side's figures at a table from the score card (``CARD_FIGURES`` of it)."""
    games = (table["home_games"], table["away_games"])
    hang_jacks = (table["home_hang_jacks"], table["away_hang_jacks"])
    return [
        (
            name,
            {
                "games_played": sum(games),
                "games_won": games[mine],
                "hang_jacks_taken": hang_jacks[mine],
                "hang_jacks_given": hang_jacks[1 - mine],
            },
        )
        for mine, name in enumerate(("A", "B"))
    ]


def store_figures(*, fixtures: Collection[int]) -> int:
    """The pairs' figures at every table of ``fixtures`` (ids), worked out from their finished
    games and stored in place of those there were; the number of rows stored."""
    fixture_ids = list(fixtures)
    PairFigures.objects.filter(fixture__in=fixture_ids).delete()
    if not fixture_ids:
        return 0
    via_game = "game__league_game__table"
    in_fixtures = {f"{via_game}__fixture__in": fixture_ids}
    figures: dict[tuple[int, str], dict[str, int]] = {}

    def side(table: int, name: str) -> dict[str, int]:
        return figures.setdefault((table, name), {})

    def add(table: int, name: str, figure: str, n: int) -> None:
        counts = side(table, name)
        counts[figure] = counts.get(figure, 0) + n

    for row in (
        TableGame.objects.filter(table__fixture__in=fixture_ids, game__status=GameStatus.WON)
        .values("table", "game__winner")
        .annotate(n=Count("id"))
        .order_by()
    ):
        for name in ("A", "B"):
            add(row["table"], name, "games_played", row["n"])
            if row["game__winner"] == name:
                add(row["table"], name, "games_won", row["n"])
    for row in (
        Award.objects.filter(
            **in_fixtures,
            game__status=GameStatus.WON,
            counted=True,
            category__in=list(CATEGORY_FIGURE),
        )
        .values(via_game, "side", "category")
        .annotate(n=Count("id"))
        .order_by()
    ):
        add(row[via_game], row["side"], CATEGORY_FIGURE[row["category"]], row["n"])
        if row["category"] == "hang_jack" and row["side"] in OTHER:
            add(row[via_game], OTHER[row["side"]], "hang_jacks_given", row["n"])
    for row in (
        Hand.objects.filter(**in_fixtures, game__status=GameStatus.WON)
        .exclude(all_fours="")
        .values(via_game, "all_fours")
        .annotate(n=Count("id"))
        .order_by()
    ):
        add(row[via_game], row["all_fours"], "all_fours", row["n"])

    seats = FixtureTable.objects.filter(fixture__in=fixture_ids).values(
        "pk", "fixture", "source", *CARD_FIGURES, *SIDE_SEATS["A"], *SIDE_SEATS["B"]
    )
    rows = []
    for table in seats:
        if table["source"] == FixtureTable.Source.CARD:
            # The card gives the table (a game opened on a phone and abandoned for it is not
            # one of its games).
            figures.update(((table["pk"], name), counts) for name, counts in _card_figures(table))
        for name, names in SIDE_SEATS.items():
            pair = sorted(table[seat] for seat in names if table[seat])
            counts = figures.get((table["pk"], name))
            if not pair or not counts or not counts.get("games_played"):
                continue
            rows.append(
                PairFigures(
                    table_id=table["pk"],
                    fixture_id=table["fixture"],
                    side=name,
                    player_1_id=pair[0],
                    player_2_id=pair[1] if len(pair) > 1 else None,
                    **counts,
                )
            )
    PairFigures.objects.bulk_create(rows, batch_size=1000)
    return len(rows)
