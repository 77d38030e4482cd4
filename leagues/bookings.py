"""Whether one more fixture fits a season's calendar: the rules adding a fixture, moving one and
importing a fixture list all ask (``leagues.services.fixtures.fixture_add`` and
``fixture_rearrange``, ``leagues.services.fixtures_import``), so an import's check finds every
problem its confirmation would.

Pure: the fixtures already booked come in as ``Booked`` values whose teams, venue and division
are any keys (primary keys, or the names of what an import has still to create).
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from leagues.days import long_date
from leagues.nights_off import NightsOff
from scoring.forms.words import ordinal

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


@dataclass(frozen=True)
class Booked:
    """A fixture on the season's calendar (a void one is not)."""

    date: datetime.date
    home: Hashable
    away: Hashable
    venue: Hashable
    words: str
    """How a refusal names it: "Stubbing Wharf v White Lion"."""
    division: Hashable | None = None
    """A league fixture's division (it counts towards the teams' meetings); None otherwise."""
    on_the_night: bool = True
    """False for a walkover: it counts as a meeting, but no match is played on its night."""


@dataclass(frozen=True)
class Clash:
    """Why the fixture does not fit: ``about`` is "home", "away", "venue" or "meetings";
    ``withdrawn`` when it is the team ``about`` itself (it withdrew), not the night: no other
    date would do."""

    about: str
    message: str
    withdrawn: bool = False


def ordinal_word(number: int) -> str:
    """ "third" in a sentence, "21st" past the eighth."""
    return _ORDINALS[number - 1] if 0 < number <= len(_ORDINALS) else ordinal(number)


def clashes(
    *,
    booked: Iterable[Booked],
    date: datetime.date,
    home: Hashable,
    away: Hashable,
    venue: Hashable,
    names: Mapping[Hashable, str],
    capacity: int,
    division: Hashable | None = None,
    meetings: int | None = None,
    withdrawn: Mapping[Hashable, datetime.date] | None = None,
    closed: Iterable[NightsOff] = (),
) -> list[Clash]:
    """Every reason ``home`` v ``away`` at ``venue`` on ``date`` cannot join ``booked``: for a
    league fixture (``division`` given) a team withdrawn from the season (``withdrawn``: the
    day each withdrew), either team already on that night (each named, with the fixture it
    plays in), the venue hosting as many matches that night as it can (``capacity``: the
    venue's own number, else the season's, ``Venue.matches_in``), and for a league fixture a
    meeting of the two beyond the format's ``meetings``, and the venue closed that night
    (``closed``: its dates closed, ``Venue.closed_ranges``). ``names`` names the teams and the
    venue."""
    booked = list(booked)
    night = [b for b in booked if b.date == date and b.on_the_night]
    found: list[Clash] = []
    for side, team in (("home", home), ("away", away)):
        if division is not None and withdrawn and team in withdrawn:
            found.append(
                Clash(
                    side,
                    f"{names[team]} withdrew from the season on {long_date(withdrawn[team])}: "
                    "it plays no more league fixtures (reinstate it first, on its page).",
                    withdrawn=True,
                )
            )
    for side, team in (("home", home), ("away", away)):
        playing = next((b for b in night if team in (b.home, b.away)), None)
        if playing is not None:
            found.append(Clash(side, f"{names[team]} is already on that night ({playing.words})."))
    shut = next((nights for nights in closed if nights.covers(date)), None)
    if shut is not None:
        why = f" ({shut.name})" if shut.name else ""
        found.append(Clash("venue", f"{names[venue]} is closed that night{why}."))
    hosted = [b for b in night if b.venue == venue]
    if len(hosted) >= capacity:
        found.append(
            Clash(
                "venue",
                f"{names[venue]} already hosts {hosted[0].words} that night: it can host "
                f"{capacity} a night."
                if len(hosted) == 1
                else f"{names[venue]} already hosts {len(hosted)} matches that night "
                f"({'; '.join(b.words for b in hosted)}): it can host {capacity} a night.",
            )
        )
    if division is not None and meetings is not None:
        met = sum(1 for b in booked if b.division == division and {b.home, b.away} == {home, away})
        if met >= meetings:
            plural = "" if met == 1 else "s"
            found.append(
                Clash(
                    "meetings",
                    f"{names[home]} and {names[away]} already have {met} league fixture{plural} "
                    f"this season, as many as the format allows ({meetings}): this would be "
                    f"their {ordinal_word(met + 1)} league meeting.",
                )
            )
    return found
