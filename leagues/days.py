"""A day as the site writes it in words: "Tue 2 Sep" in a list ("Sun 9 Feb 2025" when it is more
than half a year off), "Tue 2 Sep 2025" in a sentence;
"Tue 22 Dec 2026" beside another day of another year (``day_beside``); a start time in a list,
"20:30" (``clock``).

The site is in English only (``USE_I18N = False``): the day's and month's short names are
these, as Django's ``date`` filter (``"D j M"``) and ``strftime``'s ``%a``/``%b`` in the C
locale write them, without ``strftime`` (some 9 µs a date; a team's list writes 200). No
Django here: the fixture-list generator (``leagues/schedule.py``) writes its notes with it.
"""

from __future__ import annotations

import datetime

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_month(value: datetime.date) -> str:
    """ "2 Sep": a day along the points chart, whose ticks all fall on the league night."""
    return f"{value.day} {MONTH_NAMES[value.month - 1]}"


#: How far from today a list writes a day without its year ("Tue 2 Sep"): a day further off,
#: before or after, is "Sun 9 Feb 2025", not to be read as the coming February.
NEAR = datetime.timedelta(days=183)


def _day(value: datetime.date) -> str:
    return f"{DAY_NAMES[value.weekday()]} {day_month(value)}"


def short_date(value: datetime.date, today: datetime.date | None = None) -> str:
    """ "Tue 2 Sep": a day in a list of fixtures, within half a year of ``today`` (``NEAR``;
    the server's today when not given, a day either way of the league's); a day further off
    with its year, "Sun 9 Feb 2025"."""
    near = abs(value - (today or datetime.date.today())) <= NEAR
    return _day(value) if near else f"{_day(value)} {value.year}"


def clock(value: datetime.time) -> str:
    """ "20:30": a fixture's start time in a list, where its league plays (as it is stored:
    a Trinidad league's in Port of Spain time; the page names the zone once,
    ``League.time_zone_words``)."""
    return f"{value.hour:02d}:{value.minute:02d}"


def long_date(value: datetime.date) -> str:
    """ "Tue 2 Sep 2025": a day in a sentence (a note, an error, a change made)."""
    return f"{_day(value)} {value.year}"


def day_beside(value: datetime.date, other: datetime.date) -> str:
    """ "Tue 22 Dec" written beside ``other`` (a re-arranged fixture's first day beside its
    day now): with the year, "Tue 22 Dec 2026", when the two fall in different years (or, as
    a list writes it, ``short_date``, when it is far off)."""
    return short_date(value) if value.year == other.year else long_date(value)
