"""A date as a secretary or a spreadsheet writes it: 2025-09-02, 2/9/2025, 02.09.25, 2 Sep
2025, Tue 2 Sep 2025 (``read_date``), read the same wherever one is typed: the fixtures and
results import, a season's nights with no league, a venue's closed dates
(``leagues.nights_off``). No Django here."""

from __future__ import annotations

import datetime
import re

#: A date as a spreadsheet or a person writes it, day first: 2/9/2025, 02.09.25 (a time after
#: it, as a spreadsheet's date and time cell gives it, is left aside).
_DAY_FIRST = re.compile(
    r"^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})(?:[ T]\d{1,2}[:.]\d{2}(?::\d{2})?)?$"
)
#: Year first, 2025-09-02 (or 2025-9-2).
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$")
#: "7 Jan 2027", "Thu 7 January 2027", "Thursday, 7th Jan 27", "7-Jan-2027".
_NAMED = re.compile(
    r"^(?:(?P<weekday>[a-z]+)\.?,?\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?[\s\-/]*"
    r"(?P<month>[a-z]+)\.?,?(?:[\s\-/]+(?P<year>\d{4}|\d{2}))?$",
    re.IGNORECASE,
)
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DATE_EXAMPLE = "7 Jan 2027, Thu 7 Jan 2027, 7/1/2027 or 2027-01-07"


def _named(names: tuple[str, ...], word: str) -> int | None:
    """The index of the month or weekday ``word`` names: in full, or its first three letters
    or more ("Sep", "Sept", "Thurs")."""
    word = word.casefold()
    if len(word) < 3:
        return None
    found = [i for i, name in enumerate(names) if name.startswith(word)]
    return found[0] if len(found) == 1 else None


def read_date(text: str) -> tuple[datetime.date | None, str]:
    """A date as a British spreadsheet writes it (2025-09-02, 2/9/2025, 02.09.25, 2 Sep 2025,
    Tue 2 Sep 2025), or why it is not one: the sentence a problem says."""
    text = text.strip()
    wrong = f"“{text}” is not a date: write it as {DATE_EXAMPLE}."
    if found := _ISO.match(text):
        try:
            return datetime.date(*(int(part) for part in found.groups())), ""
        except ValueError:
            return None, wrong
    if found := _DAY_FIRST.match(text):
        day, month, year = (int(part) for part in found.groups())
    elif found := _NAMED.match(text):
        month_index = _named(MONTHS, found["month"])
        if month_index is None:
            return None, wrong
        if not found["year"]:
            return None, f"“{text}” has no year: write it as {DATE_EXAMPLE}."
        day, month, year = int(found["day"]), month_index + 1, int(found["year"])
    else:
        return None, wrong
    if year < 100:
        year += 2000
    try:
        date = datetime.date(year, month, day)
    except ValueError:
        return None, wrong
    weekday = found.groupdict().get("weekday")
    if weekday:
        named = _named(WEEKDAYS, weekday)
        if named is None:
            return None, wrong
        if named != date.weekday():
            return None, (
                f"“{text}”: {date.day} {MONTHS[date.month - 1].title()} {date.year} is a "
                f"{WEEKDAYS[date.weekday()].title()}, not a {WEEKDAYS[named].title()}. Put the "
                "date or the day right."
            )
    return date, ""


def parse_date(text: str) -> datetime.date | None:
    return read_date(text)[0]
