"""Seating the pairs on the night, table by table, from a captain's phone.

The home team's captain seats both sides (the home side sets the tables), the away captain
their own side, a secretary either (``leagues.permissions.seating_sides``). A table's scoring
link opens as soon as it has a pair on either side, and its first game starts once both sides
are seated, so the table's scorer can scan its QR code at once. No game begins before the match
has started (its date and time where the league plays): captains may seat the pairs and show
the QR codes ahead, and a table seated then begins its first game when its scorer opens the
link once the match has started (``leagues.services.results.table_link_opened``). A pair may
change until the table's first hand is recorded: the game already open takes the new players'
names. A captain adds a player to their own squad by name on the spot where the league allows
it (``leagues.services.registrations.squad_add_on_the_night``).

``check_pairs`` is the one check of a fixture's seating (a player registered for their team
that season, at one table only, one or two a side, and both players of a pair where the league
plays pairs: ``half_pair_words``), for the secretary's seating, the captains' and the score
card's pairs alike; its refusals name the table (``pairs_problem``: the refusal
with the table it is at, for a list of refusals put in the order of the tables).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from leagues.audit import audit_log
from leagues.models import (
    AuditEntry,
    Fixture,
    FixtureTable,
    Player,
    Registration,
)
from leagues.permissions import captained_sides, seating_sides
from leagues.selectors.fixtures import stopped_at, with_abandoned_game
from leagues.selectors.people import name_people, person_name
from scoring.actors import Account
from scoring.forms.words import possessive
from scoring.models import Hand

Pair = Sequence[Player]
#: The statuses a fixture's tables may still be seated in.
#: A fixture whose night is to come or on: scheduled. A postponed one has no date to seat its
#: tables, show their QR codes or print its card for until a secretary re-arranges it.
PLAYABLE = (Fixture.Status.SCHEDULED,)
SIDES = ("home", "away")


@dataclass(frozen=True)
class TableProblem:
    """One refusal of a fixture's tables: the table it is at (None: the fixture as a whole) and
    what it says, naming that table. A list of them is put in the order of the tables by
    ``table``, not by reading the words."""

    table: int | None
    text: str

    def __str__(self) -> str:
        return self.text


def pairs_problem(
    fixture: Fixture,
    seats: Mapping[int, tuple[Pair, Pair]],
    *,
    seating: Collection[int] | None = None,
    halves: bool = True,
) -> TableProblem | None:
    """What is wrong with a seating of ``fixture`` (board: (home pair, away pair); a pair may
    be empty when it is not seated or not recorded), at the table it is wrong at: a player not
    registered for their team that season, at two tables or on both sides, or more than two
    players a side; then, with ``halves``, a side of one player at a table being seated where
    the league plays pairs (``half_pair_words``). None when the seating is right. ``seating``:
    the tables being seated now (None: all); the others are already seated, so a player chosen
    again is refused at the table being seated, naming the table they already sit at."""
    registered: dict[int, set[int]] = {fixture.home_id: set(), fixture.away_id: set()}
    for team_id, player_id in Registration.objects.filter(
        season=fixture.division.season_id, team__in=[fixture.home_id, fixture.away_id]
    ).values_list("team", "player"):
        registered[team_id].add(player_id)
    seated: dict[int, int] = {}
    for board in sorted(seats, key=lambda b: (seating is not None and b in seating, b)):
        for team, pair in zip((fixture.home, fixture.away), seats[board], strict=True):
            if len(pair) > 2:
                return TableProblem(board, f"Table {board}: each side is one or two players.")
            if len(pair) == 2 and pair[0].pk == pair[1].pk:
                return TableProblem(board, f"Table {board}: {pair[0]} is chosen twice in one pair.")
            for player in pair:
                if player.pk not in registered[team.pk]:
                    return TableProblem(
                        board,
                        f"Table {board}: {player} is not registered for {team} this season.",
                    )
                if player.pk in seated:
                    return TableProblem(
                        board,
                        f"Table {board}: {player} is already seated at table {seated[player.pk]}.",
                    )
                seated[player.pk] = board
    if not halves or fixture.division.season.get_ruleset().players < 2:
        return None
    for board in sorted(seats):
        if seating is not None and board not in seating:
            continue
        for team, pair in zip((fixture.home, fixture.away), seats[board], strict=True):
            if len(pair) == 1:
                return TableProblem(board, half_pair_words(board, team.name, pair[0]))
    return None


def half_pair_words(board: int, team: str, player: Player) -> str:
    """The refusal of a side given one player of, where the league plays pairs: the score
    card's and the seating's (on the night and the secretary's Tables page) alike."""
    return (
        f"Table {board}: {team}: {possessive(str(player))} partner is not chosen: choose both "
        "players of the pair, or neither (not recorded)."
    )


def check_pairs(
    fixture: Fixture,
    seats: Mapping[int, tuple[Pair, Pair]],
    *,
    seating: Collection[int] | None = None,
) -> None:
    """Refuse a seating of ``fixture`` that ``pairs_problem`` finds wrong, naming the table."""
    problem = pairs_problem(fixture, seats, seating=seating)
    if problem is not None:
        raise ValidationError(problem.text)


def refuse_unless_night_open(fixture: Fixture) -> None:
    """Refuse seating a table of ``fixture`` whose night is not open (``night_open``): a
    postponed one until it is re-arranged, said so; else its status."""
    if fixture.status == Fixture.Status.POSTPONED:
        raise ValidationError(
            f"{fixture.postponed_words}: its tables are seated once it is re-arranged."
        )
    if not night_open(fixture):
        raise ValidationError(f"{fixture} is {fixture.get_status_display().lower()}.")


def night_open(fixture: Fixture) -> bool:
    """Whether a table of ``fixture`` may still be seated or played (the captains' night and its
    QR codes have something to do, and its blank card is to print): while it is to be played on
    its date (``PLAYABLE``). Postponed, it has no date until a secretary re-arranges it. Once
    every table has its result, from the phones or the score card, the fixture is played and its
    result goes forward; walked over or void, it has no tables to play. Every page offering the
    night, its QR codes or the blank card asks it."""
    return fixture.status in PLAYABLE


def table_has_hands(table: FixtureTable) -> bool:
    """Whether a hand has been recorded at the table (its pairs are then set)."""
    return Hand.objects.filter(game__league_game__table=table).exists()


def tables_with_hands(tables: Collection[FixtureTable]) -> set[int]:
    """The ids of ``tables`` at which a hand has been recorded (``table_has_hands`` of each),
    for a page showing every table: one query, none where no table is given."""
    if not tables:
        return set()
    return set(
        Hand.objects.filter(game__league_game__table__in=[table.pk for table in tables])
        .order_by()
        .values_list("game__league_game__table", flat=True)
        .distinct()
    )


def mark_abandoned(tables: Collection[FixtureTable]) -> None:
    """Mark each of ``tables`` whose game was abandoned at the table and nothing since
    (``FixtureTable.abandoned``, by the one rule ``selectors.with_abandoned_game``): scored
    on the phones, undecided, its latest game abandoned. Such a table is played no more on a
    phone: its result comes from the score card (which gives it boxes as a table never scored)
    or a secretary starts its game again. Each marked table's ``abandoned_at`` is the score its
    game stopped at, home first ("5–3"). One query, none where every table is decided or from
    the card."""
    scored = [table.pk for table in tables if not table.from_card and not table.outcome]
    stopped: dict[int, str] = {}
    if scored:
        stopped = {
            found.pk: stopped_at(found)
            for found in with_abandoned_game(FixtureTable.objects.filter(pk__in=scored)).only("pk")
        }
    for table in tables:
        table.abandoned = table.pk in stopped
        table.abandoned_at = stopped.get(table.pk, "")


def _captain_words(account: Account, fixture: Fixture, side: str) -> str:
    """``account``, the captain of ``fixture``'s ``side``, as the other side is told: "Black
    Bull's captain, Roy Stead" (the person as the app names them: ``person_name``)."""
    team = fixture.home if side == "home" else fixture.away
    role = f"{possessive(str(team))} captain"
    name = person_name(account)
    return f"{role}, {name}" if name else role


def _changed_by(by: Account, fixture: Fixture, own: Collection[str]) -> str:
    """Who seated another side's pair, as that side's captain is told (``notices``): only the
    home captain or a secretary may."""
    return _captain_words(by, fixture, "home") if "home" in own else "a secretary"


@dataclass(frozen=True)
class TheirPair:
    """A pair seated by its own side's captain that a change would replace, by someone who
    does not captain that side (the home captain, a secretary): they are asked first."""

    board: int
    team: str
    was: Sequence[Player]
    now: Sequence[Player]
    #: Who seated it, in words: "Old Hall's captain, Sue Mills".
    seated_by: str

    def __str__(self) -> str:
        was, now = _pair_words(self.was), _pair_words(self.now)
        verb = "was" if len(self.was) == 1 else "were"
        put = f"Seat {now} in their place?" if self.now else f"Take {was} off the table?"
        return f"Table {self.board}: {was} {verb} seated for {self.team} by {self.seated_by}. {put}"


class ReplaceTheirPair(ValidationError):
    """A seating refused until its actor confirms replacing ``pairs``, seated by their own
    captains (``table_seat``'s ``replace_confirmed``): nothing was changed."""

    def __init__(self, pairs: Sequence[TheirPair]) -> None:
        super().__init__(" ".join(str(pair) for pair in pairs))
        self.pairs = list(pairs)


def _pair_words(pair: Sequence[Player]) -> str:
    return " and ".join(p.label for p in pair)


def their_pairs(
    *,
    fixture: Fixture,
    table: FixtureTable | None,
    after: tuple[Pair, Pair],
    own: Collection[str],
) -> list[TheirPair]:
    """The pairs at ``table`` that seating ``after`` (home pair, away pair) would replace,
    each seated by its own side's captain, where the actor captains not that side (``own``:
    the sides they do): the home captain changing the away captain's pair, a secretary either
    captain's. Not a pair the actor seated, an empty seat, nor the same two players the other
    way round. One query a side to replace, none where nothing is."""
    if table is None:
        return []
    pairs = []
    for side, now in zip(SIDES, after, strict=True):
        was = getattr(table, f"{side}_pair")
        seated_by = getattr(table, f"{side}_seated_by")
        if side in own or not was or {p.pk for p in was} == {p.pk for p in now}:
            continue
        if seated_by is None or side not in captained_sides(seated_by, fixture):
            continue
        team = str(fixture.home if side == "home" else fixture.away)
        words = _captain_words(seated_by, fixture, side)
        pairs.append(TheirPair(table.board, team, was, list(now), words))
    return pairs


def pair_state(pair: Pair) -> list[dict[str, object]]:
    """A pair as a seating's audit entry stores it: each player's id and name (the audit page
    names them, ``audit_words``)."""
    return [{"id": p.pk, "name": p.name} for p in pair]


def _names(pair: Pair) -> list[str]:
    """The pair as the audit entry and the game's side name them (``name_people`` first)."""
    return [p.label for p in pair]


@transaction.atomic
def table_seat(
    *,
    fixture: Fixture,
    board: int,
    home: Pair | None = None,
    away: Pair | None = None,
    by: Account,
    replace_confirmed: Collection[int] = (),
) -> FixtureTable:
    """Seat (or change) the home and/or away pair at one table of ``fixture`` (None leaves a
    side as it is). The table's scoring link opens at once; its first game starts as soon as
    both sides are seated and the match has started (seated before, it begins when the table's
    scorer opens the link once it has: ``results.table_link_opened``). Refused for a side
    ``by`` may not seat, a fixture no longer to be played, a table from the score card, and
    once the table's first hand is recorded. A pair its own captain seated is replaced by
    someone else only once they have confirmed it (``their_pairs``): every player of it is in
    ``replace_confirmed`` (ids), else ``ReplaceTheirPair`` says whose pair it is and nothing
    changes."""
    from leagues.services.results import _new_table_link, lock_fixture, table_open
    from scoring.services.games import _game_players_set

    fixture = lock_fixture(fixture)
    asked = {side for side, pair in zip(SIDES, (home, away), strict=True) if pair is not None}
    if not asked:
        raise ValidationError(f"Table {board}: choose the players to seat.")
    allowed = set(SIDES) if by is None else seating_sides(by, fixture)
    if not asked <= allowed:
        raise PermissionDenied(
            "Only the home team's captain (either side), the away captain (their own side) "
            "or a secretary seats the pairs."
        )
    refuse_unless_night_open(fixture)
    boards = fixture.division.season.get_match_format().tables
    if not 1 <= board <= boards:
        raise ValidationError(f"There is no table {board}: the match is played on {boards}.")
    tables = {
        t.board: t
        for t in FixtureTable.objects.select_for_update(of=("self",))
        .filter(fixture=fixture)
        .select_related(
            "scoring_link",
            "home_player_1",
            "home_player_2",
            "away_player_1",
            "away_player_2",
            "home_seated_by",
            "away_seated_by",
        )
    }
    table = tables.get(board)
    if table is not None and table.from_card:
        raise ValidationError(f"Table {board} is entered from the score card.")
    if table is not None and table_has_hands(table):
        raise ValidationError(
            f"Table {board} has played its first hand: its pairs are set for the night."
        )
    seats = {b: (t.home_pair, t.away_pair) for b, t in tables.items()}
    before = seats.get(board, ([], []))
    after = (
        list(home) if home is not None else before[0],
        list(away) if away is not None else before[1],
    )
    seats[board] = (after[0], after[1])
    check_pairs(fixture, seats, seating=[board])
    own = captained_sides(by, fixture) if by is not None else set()
    name_people([*before[0], *before[1], *after[0], *after[1]])  # two of one name told apart
    confirmed = set(replace_confirmed)
    unconfirmed = [
        pair
        for pair in their_pairs(fixture=fixture, table=table, after=after, own=own)
        if not {p.pk for p in pair.was} <= confirmed
    ]
    if unconfirmed:
        raise ReplaceTheirPair(unconfirmed)

    if table is None:
        table = FixtureTable(fixture=fixture, board=board)
    if table.scoring_link is None:
        table.scoring_link = _new_table_link(fixture, board, by=by)
    seater = by if getattr(by, "is_authenticated", False) else None
    for side, was, pair in zip(SIDES, before, after, strict=True):
        setattr(table, f"{side}_player_1", pair[0] if pair else None)
        setattr(table, f"{side}_player_2", pair[1] if len(pair) > 1 else None)
        if {p.pk for p in was} != {p.pk for p in pair}:
            setattr(table, f"{side}_seated_by", seater if pair else None)
    table.save()
    # A side's seated pair changed by someone who does not captain it (the home captain, a
    # secretary): its captain is told (``notices``), not left to find out at the table.
    replaced = [
        side
        for side, was, now in zip(SIDES, before, after, strict=True)
        if was and {p.pk for p in was} != {p.pk for p in now} and side not in own
    ]
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=AuditEntry.Action.TABLE_SEATED,
        subject=f"Table {board}: {' & '.join(_names(after[0])) or '—'} v "
        f"{' & '.join(_names(after[1])) or '—'}",
        before={"home": pair_state(before[0]), "away": pair_state(before[1])},
        after={"home": pair_state(after[0]), "away": pair_state(after[1]), "board": board}
        | ({"replaced": replaced, "changed_by": _changed_by(by, fixture, own)} if replaced else {}),
        by=by,
    )
    if after[0] and after[1]:
        game = table.games.select_related("game").order_by("-number").first()
        if game is None:
            if fixture.has_started():
                table_open(table=table, by=by)
        else:
            _game_players_set(
                game=game.game, players={"A": _names(after[0]), "B": _names(after[1])}
            )
    return table
