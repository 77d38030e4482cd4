"""Where a league plays, in time: its IANA time zone (``League.time_zone``).

A fixture's date and time are the wall-clock time at its venue, entered and shown as such; the
zone turns them into an instant for the calendar feeds (``TZID`` with a ``VTIMEZONE``), the API
(ISO 8601 with the offset) and anyone reading from another zone.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

# How the pages name a zone, as the scoring pages do (a league's games are shown in its zone).
from scoring.zones import zone_words as zone_words


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """Every zone a league may be in: the IANA names of places ("Europe/London"), and UTC."""
    return tuple(
        sorted(
            name
            for name in zoneinfo.available_timezones()
            if "/" in name and not name.startswith(("Etc/", "SystemV/", "US/", "posix", "right"))
        )
    ) + ("UTC",)


def site_time_zone() -> str:
    """A new league's zone: the site's (``TIME_ZONE``)."""
    return str(settings.TIME_ZONE)


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            f"“{value}” is not a time zone: choose a place such as Europe/London or "
            "America/Port_of_Spain."
        )


def now_in(zone_name: str) -> datetime.datetime:
    """The wall-clock time now where the league plays, from Django's clock (``timezone.now``),
    the one every date and time of the site is read from."""
    return timezone.now().astimezone(zoneinfo.ZoneInfo(zone_name))


def date_in(moment: datetime.datetime, zone_name: str) -> datetime.date:
    """The date an instant falls on where the league plays (an invitation sent at 9 pm in Port of
    Spain is sent that day there, the next day in London)."""
    return moment.astimezone(zoneinfo.ZoneInfo(zone_name)).date()


def today_in(zone_name: str) -> datetime.date:
    """Today's date where the league plays (a league night in Port of Spain runs past
    midnight in London)."""
    return now_in(zone_name).date()


def starts_at(day: datetime.date, time: datetime.time, zone_name: str) -> datetime.datetime:
    """The instant a fixture starts: its wall-clock date and time in its league's zone."""
    return datetime.datetime.combine(day, time, tzinfo=zoneinfo.ZoneInfo(zone_name))


def day_ends(day: datetime.date, zone_name: str) -> datetime.datetime:
    """The instant a day ends where a league plays: the midnight after it in the league's zone
    (a fixture's night is over then, unless a game of it is still in play)."""
    return starts_at(day + datetime.timedelta(days=1), datetime.time(0, 0), zone_name)
