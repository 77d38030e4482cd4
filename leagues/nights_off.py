"""Nights with no league: named ranges of dates in a season's calendar ("Christmas and New
Year", 23 December to 1 January), some marked as every year and carried into the next season.

Pure Python (no Django). A season stores its ranges as JSON (:meth:`NightsOff.to_json`); the
generator and re-arrangements keep to :func:`dates_off`. The secretary writes them one a line:

    2026-12-23 to 2027-01-01 Christmas and New Year, every year
    26/12/2026 Boxing Day
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from leagues.days import long_date
from leagues.typed_dates import read_date

__all__ = [
    "NightsOff",
    "NightsOffError",
    "carried",
    "check",
    "check_overlaps",
    "dates_off",
    "parse",
    "ranges_of",
    "text",
]


class NightsOffError(ValueError):
    """A range that cannot be: the message names it and says why, in plain words."""


@dataclass(frozen=True)
class NightsOff:
    """The nights from ``first`` to ``last`` (both included) have no league."""

    first: date
    last: date
    name: str = ""
    every_year: bool = False

    def __post_init__(self) -> None:
        if self.last < self.first:
            raise NightsOffError(f"{self.label}: it ends before it starts")

    @property
    def label(self) -> str:
        """The range in words: "Christmas and New Year (Wed 23 Dec 2026 to Fri 1 Jan 2027)"."""
        span = long_date(self.first)
        if self.last != self.first:
            span += f" to {long_date(self.last)}"
        return f"{self.name} ({span})" if self.name else span

    def days(self) -> Iterator[date]:
        day = self.first
        while day <= self.last:
            yield day
            day += timedelta(days=1)

    def covers(self, day: date) -> bool:
        return self.first <= day <= self.last

    def to_json(self) -> dict[str, object]:
        return {
            "from": self.first.isoformat(),
            "to": self.last.isoformat(),
            "name": self.name,
            "every_year": self.every_year,
        }

    @classmethod
    def from_json(cls, value: object) -> NightsOff:
        """A stored range; a bare ISO date (the calendar's older form) is a one-night range."""
        if isinstance(value, str):
            day = date.fromisoformat(value)
            return cls(day, day)
        if not isinstance(value, dict):
            raise NightsOffError(f"a stored night off must be a date or a range, not {value!r}")
        return cls(
            date.fromisoformat(str(value["from"])),
            date.fromisoformat(str(value["to"])),
            str(value.get("name") or ""),
            bool(value.get("every_year")),
        )

    def in_years(self, years: int) -> NightsOff:
        """The same range ``years`` later (29 February becomes the 28th in other years)."""
        return NightsOff(
            _add_years(self.first, years),
            _add_years(self.last, years),
            self.name,
            self.every_year,
        )

    def line(self) -> str:
        """The range as the secretary writes it (what :func:`parse` reads back)."""
        out = self.first.isoformat()
        if self.last != self.first:
            out += f" to {self.last.isoformat()}"
        if self.name:
            out += f" {self.name}"
        if self.every_year:
            out += ", every year"
        return out


def _add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


#: A date at the start of a line or after "to": as ``read_date`` reads it, with its year, and
#: with spaces between a named month's parts (a dash is a range's): 2025-12-23, 23/12/2025,
#: 23 Dec 2025, Tue 23 Dec 2025.
_DATE = (
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{4}"
    r"|(?:[a-z]+\.?,?\s+)?\d{1,2}(?:st|nd|rd|th)?\s+[a-z]+\.?,?\s+\d{4}"
)
_LINE = re.compile(
    rf"^(?P<first>{_DATE})(?:\s*(?:to|until|–|—|-)\s*(?P<last>{_DATE}))?(?P<rest>.*)$",
    re.IGNORECASE,
)
_EVERY_YEAR = re.compile(r"[\s,;(]*every year\)?\s*$", re.IGNORECASE)
#: How a line's refusal says a night and a range may be written.
WRITTEN = (
    "write a night as 23 Dec 2025 (or 2025-12-23, 23/12/2025), a range as "
    "“23 Dec 2025 to 1 Jan 2026”, then its name"
)


def _date(text: str, number: int) -> date:
    day, why = read_date(text)
    if day is None:
        raise NightsOffError(f"line {number}: {why.rstrip('.')}")
    return day


def parse(text: str) -> list[NightsOff]:
    """Ranges written one a line: a date or "date to date", then a name if wanted, then
    ", every year" for a range the next season keeps. Sorted; refused line by line with what
    is wrong, the line named by its number as typed, blank lines counted ("line 2: …": the
    form says which field; see :func:`check` for overlaps)."""
    ranges = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise NightsOffError(f"line {number}: “{line}” does not start with a date: {WRITTEN}")
        first = _date(match["first"], number)
        last = _date(match["last"], number) if match["last"] else first
        rest = match["rest"]
        every_year = bool(_EVERY_YEAR.search(rest))
        name = _EVERY_YEAR.sub("", rest).strip(" ,;:-–—")
        if last < first:
            span = line[: match.end("last")]
            raise NightsOffError(f"line {number}: “{span}” ends before it starts")
        ranges.append(NightsOff(first, last, name[:60], every_year))
    return sorted(ranges, key=lambda r: (r.first, r.last))


def text(ranges: Iterable[NightsOff]) -> str:
    """The ranges one a line, as :func:`parse` reads them."""
    return "\n".join(r.line() for r in ranges)


def check(ranges: Sequence[NightsOff], *, starts_on: date, ends_on: date | None) -> None:
    """Refuse overlapping ranges and a range outside the season or across its start or end."""
    ordered = check_overlaps(ranges)
    for r in ordered:
        if r.first < starts_on <= r.last:
            raise NightsOffError(
                f"{r.label} runs across the season's start ({long_date(starts_on)}): start the "
                "range on the first day of the season"
            )
        if r.last < starts_on:
            raise NightsOffError(f"{r.label} is before the season starts ({long_date(starts_on)})")
        if ends_on is not None and r.first <= ends_on < r.last:
            raise NightsOffError(
                f"{r.label} runs across the season's end ({long_date(ends_on)}): end the range on "
                "the last day of the season"
            )
        if ends_on is not None and r.first > ends_on:
            raise NightsOffError(f"{r.label} is after the season ends ({long_date(ends_on)})")


def check_overlaps(ranges: Sequence[NightsOff]) -> list[NightsOff]:
    """The ranges in order, refused where two overlap (a night given twice)."""
    ordered = sorted(ranges, key=lambda r: (r.first, r.last))
    for earlier, later in zip(ordered, ordered[1:], strict=False):
        if later.first <= earlier.last:
            raise NightsOffError(
                f"{earlier.label} and {later.label} overlap: give each night off once"
            )
    return ordered


def ranges_of(values: Iterable[NightsOff | date]) -> list[NightsOff]:
    """Ranges from ranges and single dates (a date is a one-night range), sorted, repeats
    dropped."""
    out = {v if isinstance(v, NightsOff) else NightsOff(v, v) for v in values}
    return sorted(out, key=lambda r: (r.first, r.last, r.name))


def dates_off(ranges: Iterable[NightsOff]) -> frozenset[date]:
    return frozenset(day for r in ranges for day in r.days())


def carried(
    ranges: Iterable[NightsOff], *, old_start: date, new_start: date, new_end: date | None
) -> list[NightsOff]:
    """The ranges marked every year, moved to the next season's dates: by as many years as
    its start is after the old one's, then a year more while a range would end before the new
    season starts. A moved range that would not fit inside the new season is left out."""
    years = new_start.year - old_start.year
    out = []
    for r in ranges:
        if not r.every_year:
            continue
        moved = r.in_years(years)
        while moved.last < new_start:
            moved = moved.in_years(1)
        if moved.first < new_start or (new_end is not None and moved.last > new_end):
            continue
        out.append(moved)
    return sorted(out, key=lambda r: (r.first, r.last))
