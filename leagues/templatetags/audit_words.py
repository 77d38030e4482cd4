"""``{% audit_changes entry.before entry.after %}``: what an audit entry changed, one line per
field in the page's words ("Status: scheduled → postponed", "Beg: Blues stood → Blues begged;
the dealer ran the pack"), never the stored JSON. Every audit page uses it: the league's, a
fixture's, a tie's and a game's.

Give ``game=`` for a game's hands: its sides' letters ("A", "B") read as their names, and
``hand=`` (the entry's hand number) for a hand's facts, told as a player tells them; give
``ruleset=`` for a league's entries: the figures its ruleset does not have are left out, and
``style=`` (the league's): its figures named in its words ("Home points scored: 50"). Give
``action=`` (the entry's ``AuditEntry.Action``) and ``fixture=``: an action with words of its
own (``ACTION_LINES``: a table seated) reads as sentences naming the fixture's teams, not field
by field.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django import template
from django.template.defaultfilters import pluralize

from leagues.days import long_date
from leagues.models import AuditEntry, Fixture, FixtureTable, SubmissionStatus
from leagues.nights_off import NightsOff, NightsOffError, ranges_of
from leagues.schedule import WEEKDAYS
from leagues.selectors.audit import TAKEN_AWAY
from leagues.tiebreaks import games_word, pegged_words
from scoring.forms.cards import card_label
from scoring.forms.told import FACT_NAMES, told
from scoring.forms.words import KEY_WORDS, OUTCOME_WORDS, PENALTY_WORDS, possessive
from scoring.models import names_by_label
from scoring.rules import Ruleset
from scoring.rules.presets import PRESETS

register = template.Library()

#: What an empty or missing value reads as.
NOTHING = "—"
#: Keys whose values are cards ("JS" reads "J♠").
CARD_KEYS = {"turn_ups", "card"}
#: Keys whose values have words of their own on the scoring pages.
VALUE_WORDS = {
    "outcome": OUTCOME_WORDS,
    "kind": PENALTY_WORDS,
    # A game's variant by the name its start form gives it ("West Yorkshire").
    "variant": {name: ruleset.label for name, ruleset in PRESETS.items()},
}
#: Keys whose whole-number values are a record's id, stored for the operator beside the names
#: the entry also stores (its subject, ``username``, ``player_name``): not shown as a change.
ID_KEYS = {"invitation", "player", "season", "team", "user"}
#: Keys whose object names records by id for the pages that look them up (the games an entry
#: took away: ``leagues.selectors.audit.game_taken_away``), the entry's subject naming them in
#: words: not shown as a change.
ID_OBJECTS = {TAKEN_AWAY}
#: A stored day ("2026-12-12") and moment ("2026-12-12T20:45:29.123+00:00", ``isoformat``).
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)")
#: A stored code such as "pack_exhausted": read with spaces.
CODE = re.compile(r"[a-z]+(?:_[a-z]+)+")
#: Keys whose object's fields read without the key: a result's "figures" ("Home tables: 3"),
#: a score card table's "card" ("Table 1 games: 11–7").
SILENT_OBJECTS = {"figures", "card"}
#: Keys whose two numbers are the home and away sides' ("1–1"), or a list of such pairs, a
#: game a pair ("14–9, 14–12").
SCORE_KEYS = {"games", "bullseyes", "hang_jacks"}
#: A stored name beside its record's id ("venue" 19, "venue_name" "Crown"): the name reads as
#: the field ("Venue: Crown"), the id is not shown.
NAME_SUFFIX = "_name"
#: The hang jacks a result or a score card stores (0–0 where the ruleset has none): left out
#: of the entries of a league whose ruleset has no hang jack (``figures_left_out``).
HANG_JACK_KEYS = frozenset({"hang_jacks", "home_hang_jacks", "away_hang_jacks"})
#: Keys whose values have words of their own on the league's pages (the model's labels).
LEAGUE_VALUE_WORDS = {
    "source": dict(FixtureTable.Source.choices),
    # A fixture's status and a submitted result's (their values do not meet).
    "status": dict(Fixture.Status.choices) | dict(SubmissionStatus.choices),
}


@dataclass(frozen=True)
class Change:
    """One field: ``before`` is None when the entry had nothing before (a thing made)."""

    field: str
    before: str | None
    after: str


def _key(key: str, names: dict[str, str]) -> str:
    if key.isdigit():
        # A score card's tables, by board.
        return f"table {key}"
    return names.get(key) or KEY_WORDS.get(key) or key.replace("_", " ")


def figure_names(style: str) -> dict[str, str]:
    """A result's stored figures named as the league's result page names them: "home points
    scored" in a Trinidad league ("home points pegged" in a Yorkshire one, not "home pegs"),
    "home bullseyes" (games won), "home league points" (not "home points", beside the points
    scored)."""
    if not style:
        return {}
    figures = {"pegs": pegged_words(style), "games": games_word(style), "points": "league points"}
    return {
        f"{side}_{key}": f"{side} {words}"
        for side in ("home", "away")
        for key, words in figures.items()
    }


def figures_left_out(ruleset: Ruleset | None) -> frozenset[str]:
    """The stored figures ``ruleset`` does not have, left out of its league's entries."""
    if isinstance(ruleset, Ruleset) and ruleset.hang_jack_points is None:
        return HANG_JACK_KEYS
    return frozenset()


def _fields(
    state: Any, names: dict[str, str], prefix: str = "", leave_out: frozenset[str] = frozenset()
) -> dict[tuple[str, str], Any]:
    """The state's fields, a nested object's under its key's words: (key, words) → value."""
    if not isinstance(state, dict):
        return {} if state is None else {("", prefix): state}
    fields: dict[tuple[str, str], Any] = {}
    named = {
        str(key)[: -len(NAME_SUFFIX)]
        for key in state
        if str(key).endswith(NAME_SUFFIX) and str(key)[: -len(NAME_SUFFIX)] in state
    }
    for key, value in state.items():
        if (key in ID_KEYS and type(value) is int) or key in ID_OBJECTS or key in leave_out:
            continue
        if key in named and (value is None or type(value) is int):
            # The record's id: its name beside it is shown instead.
            continue
        if str(key).endswith(NAME_SUFFIX) and str(key)[: -len(NAME_SUFFIX)] in named:
            key = str(key)[: -len(NAME_SUFFIX)]
        silent = key in SILENT_OBJECTS and isinstance(value, dict)
        words = prefix if silent else f"{prefix} {_key(str(key), names)}".strip()
        if isinstance(value, dict) and value:
            fields |= _fields(value, names, words, leave_out)
        else:
            fields[(str(key), words)] = value
    return fields


def _moment(text: str, zone: str | None) -> str | None:
    """A stored day ("2026-12-12") or moment ("2026-12-12T20:45:29.1+00:00") as the page
    says its own: "12 Dec 2026", a moment in the league's ``zone`` ("12 Dec 2026 20:45");
    None for any other text."""
    if DAY.fullmatch(text):
        day = datetime.date.fromisoformat(text)
        return f"{day.day} {day:%b %Y}"
    if zone and MOMENT.fullmatch(text):
        try:
            moment = datetime.datetime.fromisoformat(text)
        except ValueError:
            return None
        if moment.tzinfo is not None:
            moment = moment.astimezone(ZoneInfo(zone))
            return f"{moment.day} {moment:%b %Y %H:%M}"
    return None


def _text(value: Any, key: str, names: dict[str, str], zone: str | None = None) -> str:
    """A value in words: sides by name, cards with suit symbols, codes with spaces, days and
    moments as the pages write them (a moment in the league's ``zone``)."""
    if value is None or value == "" or value == [] or value == {}:
        return NOTHING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in SCORE_KEYS and isinstance(value, list):
        if len(value) == 2 and all(type(n) is int for n in value):
            return f"{value[0]}–{value[1]}"
        return ", ".join(_text(item, key, names, zone) for item in value)
    if isinstance(value, list):
        return ", ".join(_text(item, key, names, zone) for item in value)
    if isinstance(value, dict):
        return _headline(value, names, zone)
    text = str(value)
    if isinstance(value, str) and (moment := _moment(text, zone)) is not None:
        return moment
    if key in CARD_KEYS:
        return card_label(text)
    if text in names:
        return names[text]
    if text in VALUE_WORDS.get(key, {}):
        return VALUE_WORDS[key][text]
    if text in LEAGUE_VALUE_WORDS.get(key, {}):
        return LEAGUE_VALUE_WORDS[key][text]
    return text.replace("_", " ") if CODE.fullmatch(text) else text


def _headline(item: dict[str, Any], names: dict[str, str], zone: str | None = None) -> str:
    """One item of a list ("Renege (side Reds)"): its first value, then the others it adds."""
    (key, value), *rest = item.items()
    head = _text(value, key, names, zone)
    more = [(k, _text(v, k, names, zone)) for k, v in rest]
    said = ", ".join(f"{_key(k, names)} {text}" for k, text in more if text != head)
    return f"{head} ({said})" if said else head


def changes(
    before: Any,
    after: Any,
    names: dict[str, str] | None = None,
    leave_out: frozenset[str] = frozenset(),
    zone: str | None = None,
) -> list[Change]:
    """The fields whose words differ between ``before`` and ``after``, in their stored order;
    keys in ``leave_out`` (figures the league's ruleset does not have) are not read; moments
    read in ``zone`` (the league's time zone)."""
    names = names or {}
    old, new = (
        _fields(before, names, leave_out=leave_out),
        _fields(after, names, leave_out=leave_out),
    )
    made = before is None or before == {}
    lines = []
    for key, words in dict.fromkeys([*old, *new]):
        was = _text(old.get((key, words)), key, names, zone)
        now = _text(new.get((key, words)), key, names, zone)
        if was != now:
            field = words[:1].upper() + words[1:]
            lines.append(Change(field, None if made else was, now))
    return lines


def hand_changes(before: Any, after: Any, names: dict[str, str]) -> list[Change]:
    """A hand's facts that differ between ``before`` and ``after`` as a player tells them
    (``scoring.forms.told``): "Beg: Blues stood → Blues begged; the dealer ran the pack";
    ``names`` are the game's sides' names by label, in play order."""
    old, new = told(before, names), told(after, names)
    made = not before
    lines = []
    order = list(FACT_NAMES.values())
    fields = sorted(
        dict.fromkeys([*old, *new]), key=lambda f: order.index(f) if f in order else len(order)
    )
    for field in fields:
        was, now = old.get(field, NOTHING), new.get(field, NOTHING)
        if was != now:
            lines.append(Change(field, None if made else was, now))
    return lines


def _team(fixture: Fixture | None, side: str) -> str:
    """The side's team by name; "the home side" where the entry's fixture is gone."""
    if not isinstance(fixture, Fixture):
        return f"the {side} side"
    return str(fixture.home if side == "home" else fixture.away)


def _players(pair: Any) -> str:
    """A stored pair (``seating.pair_state``: each player's id and name) in words: "Ann Cole
    and Bob Lee"; "" where a player's name is not stored (an entry from before names were)."""
    names = [p.get("name") if isinstance(p, dict) else None for p in pair or []]
    return " and ".join(names) if names and all(names) else ""


def _sentence(text: str) -> Change:
    return Change("", None, text)


def _table_seated(before: Any, after: Any, fixture: Fixture | None) -> list[Change]:
    """A table seated on the night (``seating.table_seat``), a line for each side whose pair
    changed: "Table 2, Red Lion: Sheila Walker and Tom Hird seated (were Ann Cole and Bob
    Lee)", and by whom where it was not that side's captain (the notice's ``changed_by``)."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    board = after.get("board")
    replaced, changed_by = after.get("replaced") or [], after.get("changed_by")
    lines = []
    for side in ("home", "away"):
        was, now = before.get(side) or [], after.get(side) or []
        if was == now:
            continue
        team = _team(fixture, side)
        where = f"Table {board}, {team}" if board else team
        by = f" by {changed_by}" if side in replaced and changed_by else ""
        pair = _players(now) or f"{possessive(team)} pair"
        earlier = _players(was) or "another pair"
        if not now:
            lines.append(_sentence(f"{where}: {earlier} no longer seated{by}"))
        elif was:
            verb = "was" if len(was) == 1 else "were"
            lines.append(_sentence(f"{where}: {pair} seated{by} ({verb} {earlier})"))
        else:
            lines.append(_sentence(f"{where}: {pair} seated{by}"))
    return lines or [_sentence("The same pairs seated again")]


def _tables_set(before: Any, after: Any, fixture: Fixture | None) -> list[Change]:
    """Every table seated at once by a secretary (``results.fixture_tables_set``), a line a
    table: "Table 1: Ann Cole and Bob Lee (Black Bull) v Sheila Walker and Tom Hird (Old
    Hall)"."""

    def pair(seat: dict[str, Any], side: str) -> str:
        team = _team(fixture, side)
        players = _players(seat.get(side))
        return f"{players} ({team})" if players else f"{possessive(team)} pair"

    seats = [seat for seat in after or [] if isinstance(seat, dict)]
    return [
        _sentence(f"Table {seat.get('board')}: {pair(seat, 'home')} v {pair(seat, 'away')}")
        for seat in seats
    ]


def _day(value: Any) -> str:
    """A stored day as the pages write it ("Thu 4 Feb 2027"); "—" for none."""
    return long_date(datetime.date.fromisoformat(value)) if isinstance(value, str) else NOTHING


def _weekday(value: Any) -> str:
    return WEEKDAYS[value] if type(value) is int and 0 <= value < len(WEEKDAYS) else NOTHING


def _nights_off(value: Any) -> str:
    try:
        ranges = ranges_of(NightsOff.from_json(nights) for nights in value or [])
        return "; ".join(nights.label for nights in ranges) or NOTHING
    except (NightsOffError, KeyError, TypeError, ValueError):
        return NOTHING


def _fixtures_generated(before: Any, after: Any, fixture: Fixture | None) -> list[Change]:
    """A division's fixture list generated (``fixtures.fixtures_generate``), in the preview's
    words: the division by name, "12 fixtures created", each fixture moved ("Black Bull A v
    Old Hall: Thu 28 Jan 2027 → Thu 11 Feb 2027"; an entry from before moves were named says
    how many), and the calendar it kept to ("League night: Tuesday → Thursday")."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    calendar = before.get("calendar") if isinstance(before.get("calendar"), dict) else {}
    lines = []
    if after.get("division_name"):
        lines.append(Change("Division", None, str(after["division_name"])))
    for count, done in (
        (after.get("created"), "created"),
        (before.get("replaced"), "removed"),
        (before.get("kept"), "kept as played or under way"),
        (before.get("past"), "on nights already past kept as they are"),
        (len(after.get("postponed") or []), "postponed kept, to be re-arranged"),
    ):
        if type(count) is int and (count or done == "created"):
            lines.append(_sentence(f"{count} fixture{pluralize(count)} {done}"))
    moved = after.get("moved") or []
    named = [move for move in moved if isinstance(move, dict)]
    for move in named:
        lines.append(
            Change(
                "Moved",
                None,
                f"{move.get('words')}: {_day(move.get('from'))} → {_day(move.get('to'))}",
            )
        )
    if len(moved) > len(named):
        lines.append(_sentence(f"{len(moved)} fixture{pluralize(len(moved))} moved"))
    for field, read, key in (
        ("League night", _weekday, "league_night"),
        ("Nights with no league", _nights_off, "exclusions"),
    ):
        # What it was, where the entry stored it and it changed.
        was, now = read(calendar.get(key)), read(after.get(key))
        lines.append(Change(field, was if was not in (now, NOTHING) else None, now))
    lines.append(Change("From", None, _day(after.get("start"))))
    if after.get("plans_from") and after.get("plans_from") != after.get("start"):
        lines.append(Change("New fixtures from", None, _day(after["plans_from"])))
    legs = after.get("legs")
    lines.append(Change("Played", None, "home and away" if legs == 2 else "once"))
    if after.get("rest_every"):
        lines.append(Change("A week off every", None, f"{after['rest_every']} rounds"))
    if after.get("end_by"):
        lines.append(Change("Spread to end by", None, _day(after["end_by"])))
    if after.get("last"):
        lines.append(Change("Last night", None, _day(after["last"])))
    return lines


def _result_reopened(before: Any, after: Any, fixture: Fixture | None) -> list[Change]:
    """A secretary reopening a counted result (``agreement.reopen``), as what happened, in the
    action's words: "Result reopened: the confirmed result was withdrawn for correction", then
    why and what the sides do next; not "Status: confirmed → withdrawn"."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    statuses = LEAGUE_VALUE_WORDS["status"]
    was = statuses.get(before.get("status"), "counted").lower()
    now = statuses.get(after.get("status"), "withdrawn").lower()
    said = AuditEntry.Action.RESULT_REOPENED.label
    told = {key: after[key] for key in ("reason", "to_do") if after.get(key)}
    return [Change(said, None, f"the {was} result was {now} for correction"), *changes(None, told)]


#: The actions whose entries read as sentences of their own rather than field by field: what
#: each writes (before, after, the entry's fixture) in the words of the night.
ACTION_LINES: dict[str, Callable[[Any, Any, Fixture | None], list[Change]]] = {
    AuditEntry.Action.TABLE_SEATED: _table_seated,
    AuditEntry.Action.TABLES_SET: _tables_set,
    AuditEntry.Action.FIXTURES_GENERATED: _fixtures_generated,
    AuditEntry.Action.RESULT_REOPENED: _result_reopened,
}


@register.inclusion_tag("leagues/_audit_changes.html")
def audit_changes(
    before: Any,
    after: Any,
    game: Any = None,
    ruleset: Any = None,
    action: str = "",
    fixture: Fixture | None = None,
    zone: str | None = None,
    hand: int | None = None,
    style: str = "",
    sides: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Give ``hand`` (the entry's hand number) for a hand's facts, told as a player tells them
    (``hand_changes``); ``ruleset`` (the entry's season's) to leave out the figures it does not
    have: a Yorkshire score card's "hang jacks: 0–0"; ``action`` and ``fixture`` (the entry's)
    for an action with words of its own (``ACTION_LINES``); ``zone`` (the league's time zone,
    which the page's times are in) for the moments an entry stores: an invitation's expiry;
    ``style`` (the league's) for a result's figures named as its pages name them
    (``figure_names``); ``sides`` ("home" and "away" by name) where the entries are of one
    match and there is no ``fixture`` to name them (a cup tie's)."""
    if action in ACTION_LINES:
        return {"lines": ACTION_LINES[action](before, after, fixture)}
    names = names_by_label(game.sides.all()) if game is not None else {}
    if hand:
        return {"lines": hand_changes(before, after, names)}
    names = names | figure_names(style) | _sides(fixture) | (sides or {})
    return {"lines": changes(before, after, names, figures_left_out(ruleset), zone)}


def _sides(fixture: Fixture | None) -> dict[str, str]:
    """The fixture's sides by its teams' names, as its pages name them: a result's outcome,
    the sides that agreed it, a walkover's winner ("home" reads "Black Bull")."""
    if not isinstance(fixture, Fixture):
        return {}
    return {"home": _team(fixture, "home"), "away": _team(fixture, "away")}
