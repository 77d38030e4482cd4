"""The one project base table: every app table subclasses ``BaseTable`` (django-oscar style).

The template, CSS class and empty text are set once here, and so is CSV export: django-tables2's
own ``ExportMixin`` needs tablib, which the project does without, so ``BaseTable.as_csv`` writes
the same rows (``Table.as_values``) with Python's ``csv`` module and ``CSVExportMixin`` lets a
``SingleTableMixin`` view answer with the file instead of the page.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import django_tables2 as tables
from django.http import HttpResponse

#: Leading characters that make a spreadsheet treat a cell as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _safe_cell(value: Any) -> Any:
    """A value a spreadsheet shows as text: numbers as they are, formula-like text quoted."""
    if value is None:
        return ""
    if isinstance(value, int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_START):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


class BaseTable(tables.Table):
    """Project look and CSV export; subclasses declare columns and a ``Meta`` of their own
    (``class Meta(BaseTable.Meta)`` keeps the attributes set here)."""

    export_name = "table"
    """File name (without ``.csv``) of the download."""

    class Meta:
        template_name = "site/table.html"
        attrs = {"class": "data-table"}
        empty_text = "Nothing yet."
        orderable = True

    def as_csv(self, exclude_columns: tuple[str, ...] = ()) -> str:
        """The table's rows, in the order shown, as CSV text with a header row.

        A column may carry ``export_header`` (e.g. "Pegs for" where the page shows "PF").
        """
        columns = [
            column
            for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in exclude_columns)
        ]
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([str(getattr(c.column, "export_header", "") or c.header) for c in columns])
        for row in self.rows:
            writer.writerow([_safe_cell(row.get_cell_value(column.name)) for column in columns])
        return out.getvalue()

    def csv_response(self, filename: str | None = None) -> HttpResponse:
        name = filename or self.export_name
        response = HttpResponse(self.as_csv(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response


class CSVExportMixin:
    """For ``SingleTableMixin`` views: ``as_view(export="csv")`` serves the table as CSV, sorted
    as the page's ``?sort=`` asks, without pagination."""

    export: str | None = None

    def get_table_pagination(self, table: tables.Table) -> Any:
        if self.export:
            return False
        return super().get_table_pagination(table)  # type: ignore[misc]

    def export_filename(self, table: BaseTable) -> str:
        return table.export_name

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if self.export == "csv":
            table = context["table"]
            return table.csv_response(self.export_filename(table))
        return super().render_to_response(context, **kwargs)  # type: ignore[misc]
