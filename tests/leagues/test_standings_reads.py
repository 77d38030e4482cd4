"""A division's standings page reads the division with its stored table and its neighbours in
one query, and the table's rows in one more, each built once per connection: the same objects
as their querysets give, and the same moving places as the season's ranks say."""

from __future__ import annotations

import dataclasses

import pytest
from django.forms.models import model_to_dict

from leagues.models import Division, DivisionTable, TableRow
from leagues.selectors import standings as selectors
from leagues.selectors.race import division_places
from leagues.selectors.standings import STORED_FIGURES, StandingRow, stored_figures
from leagues.services.standings import refresh_division_table
from tests.factories.leagues import DivisionFactory, PointAdjustmentFactory, TeamEntryFactory

pytestmark = pytest.mark.django_db


def _division(division: Division) -> tuple:
    try:
        table = model_to_dict(division.table)
    except DivisionTable.DoesNotExist:
        table = None
    return (
        model_to_dict(division),
        model_to_dict(division.season),
        model_to_dict(division.season.league),
        table,
        division.has_division_above,
        division.has_division_below,
    )


@pytest.fixture
def season_of_three():
    top = DivisionFactory(rank=1, promoted=0, relegated=2)
    middle = DivisionFactory(season=top.season, rank=2, promoted=2, relegated=2)
    bottom = DivisionFactory(season=top.season, rank=3, promoted=2, relegated=0)
    for division in (top, middle, bottom):
        for _ in range(6):
            TeamEntryFactory(division=division)
    for division in (top, middle):
        refresh_division_table(division=division)
    DivisionTable.objects.filter(division=bottom).delete()  # not stored yet
    return top, middle, bottom


def test_a_division_read_once_per_connection_is_its_queryset(season_of_three):
    for division in season_of_three:
        read = selectors.division_for_table(pk=division.pk)
        assert _division(read) == _division(selectors.divisions_for_tables().get(pk=division.pk))
    top, middle, bottom = (
        _division(selectors.division_for_table(pk=d.pk)) for d in season_of_three
    )
    assert (top[-2:], middle[-2:], bottom[-2:]) == ((False, True), (True, True), (True, False))
    assert bottom[3] is None
    with pytest.raises(Division.DoesNotExist):
        selectors.division_for_table(pk=999_999)


def test_moving_places_read_with_the_division_are_those_of_the_seasons_ranks(season_of_three):
    ranks = [division.rank for division in season_of_three]
    for division in season_of_three:
        read = selectors.division_for_table(pk=division.pk)
        standings = selectors.division_standings(division=read)
        assert division_places(read, standings) == division_places(division, standings, ranks)
        assert division_places(read, standings) == division_places(division, standings)


def test_the_divisions_tables_read_once_per_connection_are_their_querysets(season_of_three):
    """Built once per number of divisions: one, two and three give what their querysets do."""
    top, middle, bottom = season_of_three
    PointAdjustmentFactory(entry=top.entries.first(), points=2)
    PointAdjustmentFactory(entry=bottom.entries.first(), points=-1)
    for ids in ([middle.pk], [bottom.pk, top.pk], [top.pk, middle.pk, bottom.pk], [middle.pk]):
        assert sorted(selectors._rows_read.rows(ids)) == sorted(selectors._rows_shape(ids))
        for read, shape in (
            (selectors._adjustments_read, selectors._adjustments_shape),
            (selectors._tables_read, lambda ids: DivisionTable.objects.filter(pk__in=ids)),
        ):
            assert sorted(map(model_to_dict, read.rows(ids)), key=repr) == sorted(
                map(model_to_dict, shape(ids)), key=repr
            )
    assert selectors._rows_read.rows([]) == []
    everything = selectors.divisions_standings(divisions=list(season_of_three))
    one_by_one = [selectors.division_standings(division=d.pk) for d in season_of_three]
    assert [s.rows for s in everything] == [s.rows for s in one_by_one]
    assert [[a.points for a in s.adjustments] for s in everything] == [[2], [], [-1]]


def test_a_divisions_rows_read_once_per_connection_are_its_queryset(season_of_three):
    _, middle, _ = season_of_three
    PointAdjustmentFactory(entry=middle.entries.first(), points=-3)
    refresh_division_table(division=middle)
    read = [
        selectors._stored_row(row, nights=True) for row in selectors._rows_read.rows([middle.pk])
    ]
    expected = [
        selectors._row(row, nights=True)
        for row in TableRow.objects.filter(table=middle.pk).select_related("entry__team")
    ]

    def fields(rows):
        """Each row's figures, its entry and its team, as the ORM's instances have them."""
        return [
            (
                stored_figures(row),
                model_to_dict(row.entry),
                model_to_dict(row.team),
                row.entry.team is row.team,
                row.entry._state.adding,
            )
            for row in sorted(rows, key=lambda row: row.entry.pk)
        ]

    assert len(read) == 6 and fields(read) == fields(expected)
    standings = selectors.division_standings(division=selectors.division_for_table(pk=middle.pk))
    assert [adjustment.points for adjustment in standings.adjustments] == [-3]
    (adjustment,) = selectors._adjustments_read.rows([middle.pk])
    (expected_adjustment,) = selectors._adjustments_shape([middle.pk])
    assert [
        model_to_dict(obj) for obj in (adjustment, adjustment.entry, adjustment.entry.team)
    ] == [
        model_to_dict(obj)
        for obj in (expected_adjustment, expected_adjustment.entry, expected_adjustment.entry.team)
    ]
    assert adjustment.fixture is None
    assert selectors.division_standings(division=middle.pk).rows == standings.rows


def test_a_stored_rows_figures_come_in_the_order_a_standing_row_takes_them():
    """``_stored_row`` gives a row its entry, its team and then the first of the stored figures
    as they come, in ``StandingRow``'s own order of fields."""
    names = [field.name for field in dataclasses.fields(StandingRow)]
    assert names[:2] == ["entry", "team"]
    assert names[2 : 2 + selectors._IN_ORDER] == list(STORED_FIGURES[: selectors._IN_ORDER])
