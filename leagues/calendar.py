"""Fixtures as an iCalendar feed (RFC 5545), for a league, a division or a team.

One event a fixture. Its UID never changes; its ``SEQUENCE`` is the fixture's revision (its
audit entries), so a postponement, a re-arrangement or a result makes calendars update the event
rather than add another. A void fixture is ``CANCELLED``; a postponed one ``TENTATIVE``, marked in
its title. The result is in the description once it counts. Times are the league's local times
with its zone (``DTSTART;TZID=America/Port_of_Spain:...``), the zone described in a
``VTIMEZONE``, so every calendar shows them at the right instant wherever it is.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from icalendar import Calendar, Event

from config.inputs import one_spaced
from leagues.models import POSTPONED_WORDS, Fixture
from leagues.tables import fixture_score

#: How long a match night is shown for.
MATCH_LENGTH = datetime.timedelta(hours=3)


def fixture_uid(fixture: Fixture) -> str:
    return f"fixture-{fixture.pk}@allfours"


def _status(fixture: Fixture) -> str:
    if fixture.status == Fixture.Status.VOID:
        return "CANCELLED"
    if fixture.status == Fixture.Status.POSTPONED:
        return "TENTATIVE"
    return "CONFIRMED"


def _cup_words(fixture: Fixture) -> str:
    """What a fixture is, when not a league fixture: a cup tie's cup and round ("League Cup,
    Round 1"; "Cup tie" when it has no tie in a cup), else its kind ("Play-off"); "" for a
    league fixture."""
    if fixture.kind == Fixture.Kind.LEAGUE:
        return ""
    tie = getattr(fixture, "cup_tie", None) if fixture.kind == Fixture.Kind.CUP else None
    if tie is None:
        return "Cup tie" if fixture.kind == Fixture.Kind.CUP else fixture.get_kind_display()
    return tie.cup_and_stage


def _summary(fixture: Fixture) -> str:
    """The event's title: the match, its score once the result stands (a cup tie's as a league
    fixture's), and what it is when not a league fixture ("(League Cup, Round 1)")."""
    match = f"{fixture.home.name} v {fixture.away.name}"
    if fixture.status == Fixture.Status.POSTPONED:
        match = f"Postponed: {match}"
    elif fixture.status == Fixture.Status.VOID:
        match = f"Void: {match}"
    elif getattr(fixture, "result_counts", False):
        score = fixture_score(fixture, marked=fixture.kind == Fixture.Kind.LEAGUE)
        match = f"{fixture.home.name} {score} {fixture.away.name}"
    what = _cup_words(fixture)
    return f"{match} ({what})" if what else match


def _location(fixture: Fixture) -> str:
    venue = fixture.venue
    parts = [venue.name, one_spaced(venue.address), venue.town]
    return ", ".join(part for part in parts if part)


def _description(fixture: Fixture, url: str) -> str:
    """What it is first (a cup tie: its cup and round, not the division it is filed under),
    then how it stands, its note and its page."""
    league = fixture.division.season.league.name
    what = _cup_words(fixture)
    if fixture.kind == Fixture.Kind.CUP:
        lines = [f"{what} ({league})."]
    else:
        lines = [f"{league}, {fixture.division}" + (f": {what.lower()}." if what else ".")]
    if getattr(fixture, "result_counts", False):
        score = fixture_score(fixture, marked=fixture.kind == Fixture.Kind.LEAGUE)
        lines.append(f"Result: {fixture.home.name} {score} {fixture.away.name}.")
    elif fixture.walkover_pending:
        lines.append(f"{fixture.walkover_words}.")
    elif fixture.status == Fixture.Status.POSTPONED:
        # As its page says it: the event stays on the night it was set for, marked tentative.
        # A cup tie waiting for a night: its reason says so ("No night yet: ...").
        if fixture.awaits_night:
            lines.append(fixture.reason)
        else:
            lines.append(
                f"{POSTPONED_WORDS}: {fixture.reason}" if fixture.reason else f"{POSTPONED_WORDS}."
            )
    elif fixture.status == Fixture.Status.VOID:
        lines.append(f"Void: {fixture.reason}" if fixture.reason else "Void.")
    # A cup tie's note is its cup and round when it was made ("League Cup, Round 1"): said above.
    if fixture.note and fixture.note.rstrip(".") != what:
        lines.append(fixture.note)
    lines.append(url)
    return "\n".join(lines)


def fixture_event(fixture: Fixture, *, url: str) -> Event:
    """The fixture as one VEVENT; ``url`` is the fixture's page."""
    start = fixture.starts_at  # in the league's zone: DTSTART;TZID=America/Port_of_Spain:...
    return Event.new(
        uid=fixture_uid(fixture),
        sequence=getattr(fixture, "revision", 0),
        stamp=fixture.updated_at,
        last_modified=fixture.updated_at,
        start=start,
        end=start + MATCH_LENGTH,
        summary=_summary(fixture),
        location=_location(fixture),
        description=_description(fixture, url),
        status=_status(fixture),  # type: ignore[arg-type]
        url=url,
    )


def fixtures_calendar(*, uid: str, name: str, fixtures: Iterable[Fixture], base_url: str) -> bytes:
    """The feed ``uid`` named ``name``; ``base_url`` (scheme and host) makes the fixture links
        whole. Each event's times carry its league's zone (``TZID``), and each zone is described
    (``VTIMEZONE``) for the years the fixtures span."""
    calendar = Calendar.new(
        uid=f"{uid}@allfours", name=name, prodid="-//All Fours league//Fixtures//EN"
    )
    calendar.add("X-PUBLISHED-TTL", "PT6H")
    years = set()
    for fixture in fixtures:
        years.add(fixture.date.year)
        calendar.add_component(
            fixture_event(fixture, url=f"{base_url}{fixture.get_absolute_url()}")
        )
    if years:
        calendar.add_missing_timezones(
            first_date=datetime.date(min(years) - 1, 1, 1),
            last_date=datetime.date(max(years) + 2, 1, 1),
        )
    return calendar.to_ical()
