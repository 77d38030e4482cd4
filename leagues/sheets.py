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
from typing import NamedTuple

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


class Read(NamedTuple):
    """A file read: its sheets as rows of cell texts and their names, or why it cannot be
    read."""

    sheets: list[list[list[str]]]
    names: list[str]
    why: str = ""
    separator: str = ""
    """What stands between a CSV file's cells ("," or ";"); "" for an XLSX workbook."""


def read_sheets(data: bytes, filename: str = "", size: int | None = None) -> Read:
    """The file's sheets, or why it cannot be read. ``size``: the file's whole size, when
    only its start was read."""
    size = max(size or 0, len(data))
    if size > MAX_BYTES:
        return _unreadable(
            f"The file is {size / 1024 / 1024:.1f} MB: at most "
            f"{MAX_BYTES // 1024 // 1024} MB is read. Is it the right file?",
        )
    if not data.strip():
        return _unreadable("The file is empty.")
    if is_xlsx(data):
        return _read_xlsx(data)
    if filename.lower().endswith((".xls", ".ods", ".numbers")) or b"\0" in data[:4096]:
        return _unreadable("This is not a CSV or XLSX file: save it from your spreadsheet as one.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _unreadable(
            "The file is not UTF-8 text: save it as “CSV UTF-8” (or as XLSX) and try again."
        )
    first = text.split("\n", 1)[0]
    separator = ";" if first.count(";") > first.count(",") else ","
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))
    except csv.Error as exc:
        return _unreadable(f"The CSV cannot be read: {exc}.")
    return Read([rows], [""], separator=separator)


def _unreadable(why: str) -> Read:
    return Read([], [], why)


def _read_xlsx(data: bytes) -> Read:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as exc:
        return _unreadable(f"The XLSX file cannot be opened ({type(exc).__name__}): is it whole?")
    except Exception as exc:  # openpyxl raises many kinds on a damaged file
        return _unreadable(f"The XLSX file cannot be opened ({type(exc).__name__}): is it whole?")
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
        return _unreadable(f"The XLSX file cannot be read ({type(exc).__name__}): is it whole?")
    finally:
        book.close()
    return Read(sheets, names)


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
    separator: str = "",
) -> Sheet:
    """The sheet's rows by column name: the first non-empty row is the heading row.
    ``separator``: a CSV file's (``Read.separator``), whose rows are checked against the
    heading row's cells (``_misread``)."""
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
    width = len(rows[start])
    filled = [raw for raw in rows[start + 1 :] if any(cell.strip() for cell in raw)]
    shape = Shape(
        width,
        even=2 * sum(len(raw) == width for raw in filled) > len(filled),
        ends_empty=all(len(raw) > width for raw in filled),
    )
    for offset, raw in enumerate(rows[start + 1 :], start=start + 2):
        misread = separator and _misread(raw, shape, separator)
        if misread:
            # Its cells are not under their headings: read by place, it named a venue's
            # town as the player and the captain's name as the mark. This problem alone.
            sheet.problem(misread, offset)
            continue
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


class Shape(NamedTuple):
    """How a CSV file's rows stand to its heading row's ``width`` cells: ``even``, most rows
    have as many (a spreadsheet saves them so); ``ends_empty``, every row has more (each
    typed ending in a separator)."""

    width: int
    even: bool
    ends_empty: bool


def _misread(raw: Sequence[str], shape: Shape, separator: str) -> str:
    """Why a CSV row's cells are not under their headings, "" when they are: text beyond the
    last heading, or a cell more than the headings where the file's rows do not each end so
    (a cell parted in two by the ``separator`` typed inside it); a cell fewer where the file's
    other rows have as many as the headings (a separator left out). A file whose rows leave
    their empty cells off is read as it is."""
    width = shape.width
    beyond = any(cell.strip() for cell in raw[width:])
    if len(raw) > width and (beyond or not shape.ends_empty) or len(raw) < width and shape.even:
        return _misread_words(raw, width, separator)
    return ""


def _misread_words(raw: Sequence[str], width: int, separator: str) -> str:
    mark = {",": "comma", ";": "semicolon"}.get(separator, f"“{separator}”")
    counted = f"This row has {len(raw)} cells but the headings name {width}"
    if len(raw) < width:
        return (
            f"{counted}: is a {mark} missing between two cells? Give every heading its cell "
            f"(an empty one is two {mark}s together, {separator}{separator})."
        )
    # A cell parted where the separator was followed by a space ("Black Bull, Mirfield")
    # is named, when the row has one such place and one cell too many.
    parted = [
        f"{raw[i - 1]}{separator}{raw[i]}"
        for i in range(1, len(raw))
        if raw[i][:1].isspace() and raw[i].strip() and raw[i - 1].strip()
    ]
    one = len(parted) == len(raw) - width == 1
    example = parted[0] if one else f"Black Bull{separator} Mirfield"
    return (
        f"{counted}: is there a {mark} inside a name or an address? Put that cell in double "
        f'quotes ("{example}") or remove the {mark}.'
    )
