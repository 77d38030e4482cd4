"""Reading a spreadsheet a secretary already has: CSV (comma or semicolon, UTF-8 with or without
a byte-order mark) or XLSX (its first sheet, or a named one), into rows of named columns.

Headings are matched in any letter case and order; columns the caller does not know are
ignored with a warning. Nothing here raises on bad input: every problem is a ``Problem`` with
the row and column it is about (row 1 is the heading row, as the secretary's spreadsheet
numbers it), so a page or a command can list them all at once.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from config.inputs import one_spaced

#: The biggest file read (a league of 40 teams of 12 players is about 25 KB of CSV; the
#: confirmation carries the file again in the form, under Django's 2.5 MB limit).
MAX_BYTES = 1024 * 1024
#: The most rows read from one sheet.
MAX_ROWS = 5000


@dataclass(frozen=True)
class Problem:
    """Something wrong in the file, by row and column ("" when it is about the whole file)."""

    message: str
    row: int | None = None
    column: str = ""
    sheet: str = ""

    def where(self) -> str:
        parts = [self.sheet] if self.sheet else []
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.column:
            parts.append(f"column {self.column}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


@dataclass
class Row:
    """One row of the sheet: its number and its cells by (lower-case) column name."""

    number: int
    cells: dict[str, str]

    def __getitem__(self, column: str) -> str:
        return self.cells.get(column, "")


@dataclass
class Sheet:
    name: str
    rows: list[Row] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    letters: dict[str, str] = field(default_factory=dict)
    """Each known column's letter in the file (``{"team": "B"}``)."""

    def column(self, name: str) -> str:
        """How a problem names a column: ``team (B)``."""
        letter = self.letters.get(name)
        return f"{name} ({letter})" if letter else name

    def problem(self, message: str, row: int | None = None, column: str = "") -> None:
        where = self.column(column) if column else ""
        self.problems.append(Problem(message, row, where, self.name))


def letter(index: int) -> str:
    """A spreadsheet's column letter for a 0-based index: 0 → A, 26 → AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def is_xlsx(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04"


def read_sheets(
    data: bytes, filename: str = "", size: int | None = None
) -> tuple[list[list[list[str]]], list[str], str]:
    """The file's sheets as rows of cell texts, their names, and why it cannot be read ("").
    ``size``: the file's whole size, when only its start was read."""
    size = max(size or 0, len(data))
    if size > MAX_BYTES:
        return (
            [],
            [],
            f"The file is {size / 1024 / 1024:.1f} MB: at most "
            f"{MAX_BYTES // 1024 // 1024} MB is read. Is it the right file?",
        )
    if not data.strip():
        return [], [], "The file is empty."
    if is_xlsx(data):
        return _read_xlsx(data)
    if filename.lower().endswith((".xls", ".ods", ".numbers")) or b"\0" in data[:4096]:
        return [], [], "This is not a CSV or XLSX file: save it from your spreadsheet as one."
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return (
            [],
            [],
            "The file is not UTF-8 text: save it as “CSV UTF-8” (or as XLSX) and try again.",
        )
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        return [], [], f"The CSV cannot be read: {exc}."
    return [rows], [""], ""


def _read_xlsx(data: bytes) -> tuple[list[list[list[str]]], list[str], str]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as exc:
        return [], [], f"The XLSX file cannot be opened ({type(exc).__name__}): is it whole?"
    except Exception as exc:  # openpyxl raises many kinds on a damaged file
        return [], [], f"The XLSX file cannot be opened ({type(exc).__name__}): is it whole?"
    sheets: list[list[list[str]]] = []
    names: list[str] = []
    try:
        for worksheet in book.worksheets[:2]:
            rows: list[list[str]] = []
            for n, values in enumerate(worksheet.iter_rows(values_only=True)):
                if n >= MAX_ROWS + 1:
                    break
                rows.append([_xlsx_text(value) for value in values])
            sheets.append(rows)
            names.append(worksheet.title)
    except Exception as exc:  # a damaged sheet inside a whole zip
        return [], [], f"The XLSX file cannot be read ({type(exc).__name__}): is it whole?"
    finally:
        book.close()
    return sheets, names, ""


def _xlsx_text(value: object) -> str:
    import datetime

    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def is_formula(text: str) -> bool:
    """A cell holding a formula (or a CSV cell a spreadsheet would run as one)."""
    return text.startswith("=")


def table(
    rows: Sequence[Sequence[str]],
    *,
    name: str = "",
    required: Iterable[str],
    optional: Iterable[str] = (),
) -> Sheet:
    """The sheet's rows by column name: the first non-empty row is the heading row."""
    sheet = Sheet(name=name)
    required, optional = list(required), list(optional)
    known = set(required) | set(optional)
    start = next((i for i, row in enumerate(rows) if any(cell.strip() for cell in row)), None)
    if start is None:
        sheet.problem("The sheet is empty: the first row names the columns.")
        return sheet
    positions: dict[str, int] = {}
    for index, heading in enumerate(rows[start]):
        key = one_spaced(heading).casefold().replace(" ", "_")
        if not key:
            continue
        if key in positions:
            sheet.problem(f"The column “{heading}” is there twice.", start + 1, key)
        elif key in known:
            positions[key] = index
            sheet.letters[key] = letter(index)
        else:
            sheet.warnings.append(
                Problem(
                    f"The column “{heading.strip()}” is ignored.", start + 1, letter(index), name
                )
            )
    for column in required:
        if column not in positions:
            sheet.problem(
                f"No column is headed “{column}” (the columns needed: {', '.join(required)}).",
                start + 1,
            )
    if len(rows) - start - 1 > MAX_ROWS:
        sheet.problem(f"The sheet has {len(rows) - start - 1} rows: at most {MAX_ROWS} are read.")
        return sheet
    for offset, raw in enumerate(rows[start + 1 :], start=start + 2):
        cells = {
            key: one_spaced(raw[index] if index < len(raw) else "")
            for key, index in positions.items()
        }
        if not any(cells.values()):
            continue
        for key, text in cells.items():
            if is_formula(text):
                sheet.problem(f"“{text[:30]}” is a formula: type the value itself.", offset, key)
                cells[key] = ""
        sheet.rows.append(Row(offset, cells))
    return sheet
