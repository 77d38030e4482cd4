"""The blank score cards printed before a match: a fixture's, or every match of a league night
(of one division, or of the whole league), one card a page.

A card is the typed score card on paper, box for box: the tables in board order, each with its
two pairs' names (printed where the pairs are seated already, else blank lines) and a box a side
for each figure the format scores a table by (``leagues.services.cards.card_layout``: each
game's score, the games won, the hang jacks, the table's match points), the totals under them,
a knock-out cup tie's play-off game, and the two captains' signatures. It holds nothing the
fixture's page does not show (no scoring link: those are the secretary's fixture card's).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Max, Min, Prefetch, Q, QuerySet, Subquery

from leagues import match
from leagues.models import Fixture, FixtureTable, League, Player
from leagues.selectors.fixtures import CUP_TIE, FIXTURE_RELATED, NO_MATCH_ON_THE_NIGHT, SEATS
from leagues.selectors.people import name_people, seated_players
from leagues.services.cards import CardWords, card_layout, card_words
from leagues.services.seating import night_open
from leagues.tiebreaks import pegs_word

#: A seat on the card: its player's name, or "" for a line to write it on.
Seat = str


@dataclass(frozen=True)
class BlankTable:
    """One table's row: its board and each side's two seats."""

    board: int
    home: tuple[Seat, Seat]
    away: tuple[Seat, Seat]


@dataclass(frozen=True)
class BlankCard:
    """One fixture's card, as its page prints it."""

    fixture: Fixture
    competition: str
    """What the match is played for, as the card's heading names it: the division ("Premier
    Division"), or the cup and its round ("League Cup · Semi-final"), or its kind."""
    layout: match.CardLayout
    words: CardWords
    """Its boxes' headings, the typed card's words: each of a table's figures in the typed
    card's order (``columns``: "Pegs"; "Game 1", "Game 2", "Games won", "Hang jacks"), then
    "Match points", a box a side each; the totals' names in order ("Tables won", "Points
    pegged", ...); the play-off game's."""
    tables: tuple[BlankTable, ...]
    rules: str
    """The format and the target in a sentence, for the captains adding it up."""
    decider: str
    """How a knock-out cup tie left level is decided ("Aggregate pegs, then hang jacks, then a
    play-off game"); "" for any other match."""

    @property
    def playable(self) -> bool:
        """Whether a match is played for it on its date: not a walkover, nor void, nor
        postponed (no date until it is re-arranged)."""
        return self.fixture.status not in (*NO_MATCH_ON_THE_NIGHT, Fixture.Status.POSTPONED)


def card_to_print(fixture: Fixture, today: datetime.date) -> bool:
    """Whether the fixture's pages offer its blank card (``today``: its league's): a match
    whose night is open (``seating.night_open``, as its seating and QR codes are offered) on
    today or later. Not a postponed one, until a secretary re-arranges it to a date. No
    query."""
    return night_open(fixture) and fixture.date >= today


def _read(fixtures: QuerySet[Fixture]) -> list[Fixture]:
    """``fixtures`` with their teams, venue, division, season and league, a cup tie's
    competition and round, and their tables with the seated players: two queries (none for the
    tables of no fixture)."""
    return list(
        fixtures.select_related(*FIXTURE_RELATED, *CUP_TIE).prefetch_related(
            Prefetch("tables", queryset=FixtureTable.objects.select_related(*SEATS))
        )
    )


def _competition(fixture: Fixture) -> str:
    tie = getattr(fixture, "cup_tie", None)
    if fixture.kind == Fixture.Kind.CUP and tie is not None:
        return tie.cup_and_stage
    if fixture.kind == Fixture.Kind.LEAGUE:
        return f"{fixture.division.name} · {fixture.division.season.name}"
    return f"{fixture.get_kind_display()} · {fixture.division.name}"


def _seats(pair: Sequence[Player]) -> tuple[Seat, Seat]:
    """A side's two seats: the seated players' names (as ``name_people`` tells namesakes
    apart), a line to write on for each seat no one is in yet."""
    names = [str(player) for player in pair]
    return (names[0] if names else "", names[1] if len(names) > 1 else "")


def _card(fixture: Fixture) -> BlankCard:
    season = fixture.division.season
    style = season.league.style
    fmt, ruleset = season.get_match_format(), season.get_ruleset()
    tie = getattr(fixture, "cup_tie", None)
    # A knock-out tie's level match goes to its decider; a group's match stays drawn.
    knockout = tie if fixture.kind == Fixture.Kind.CUP and tie and tie.is_knockout else None
    decider = knockout.competition.decider if knockout is not None else None
    layout = card_layout(
        fmt, ruleset, league_points=fixture.kind == Fixture.Kind.LEAGUE, decider=decider
    )
    seated = {table.board: table for table in fixture.tables.all()}
    tables = []
    for board in range(1, fmt.tables + 1):
        table = seated.get(board)
        tables.append(
            BlankTable(
                board=board,
                home=_seats(table.home_pair if table else []),
                away=_seats(table.away_pair if table else []),
            )
        )
    return BlankCard(
        fixture=fixture,
        competition=_competition(fixture),
        layout=layout,
        words=card_words(layout, style),
        tables=tuple(tables),
        rules=f"{fmt.describe()} Games to {ruleset.target}.",
        decider=(
            match.decider_words(
                knockout.competition.decider,
                aggregate=pegs_word(style),
                hang_jacks=ruleset.hang_jack_points is not None,
            )
            if knockout is not None
            else ""
        ),
    )


def blank_cards(fixtures: QuerySet[Fixture]) -> list[BlankCard]:
    """The card of each of ``fixtures``, in their order: two queries, and one more to tell
    namesakes apart where a pair is seated already (``name_people``)."""
    read = _read(fixtures)
    name_people(seated_players(table for fixture in read for table in fixture.tables.all()))
    return [_card(fixture) for fixture in read]


def fixture_blank_card(*, pk: int) -> BlankCard:
    """The card of the fixture ``pk``; raises ``Fixture.DoesNotExist``."""
    cards = blank_cards(Fixture.objects.filter(pk=pk))
    if not cards:
        raise Fixture.DoesNotExist(f"No fixture {pk}.")
    return cards[0]


def _to_play(*, league: League, divisions: Iterable[int]) -> QuerySet[Fixture]:
    """The league's matches to play (scheduled; of ``divisions`` only, where given)."""
    fixtures = Fixture.objects.filter(
        division__season__league=league, status=Fixture.Status.SCHEDULED
    )
    divisions = list(divisions)
    return fixtures.filter(division__in=divisions) if divisions else fixtures


def night_blank_cards(
    *, league: League, date: datetime.date, divisions: Iterable[int] = ()
) -> list[BlankCard]:
    """The cards of the league's matches to play on ``date`` (scheduled; of ``divisions``
    only, where given), in the league night's order: by division, then time."""
    fixtures = _to_play(league=league, divisions=divisions).filter(date=date)
    return blank_cards(fixtures.order_by("division__rank", "division__name", "time", "pk"))


def nights_beside(
    *, league: League, date: datetime.date, divisions: Iterable[int] = ()
) -> tuple[datetime.date | None, datetime.date | None]:
    """The nights before (from the league's today on) and after ``date`` with a match to
    play (of ``divisions`` only, where given), or None: a night's cards page steps to them,
    for a secretary printing a few weeks' cards at once. One query."""
    before = Q(date__lt=date, date__gte=league.today())
    found = _to_play(league=league, divisions=divisions).aggregate(
        before=Max("date", filter=before), after=Min("date", filter=Q(date__gt=date))
    )
    return found["before"], found["after"]


@dataclass(frozen=True)
class NightToPrint:
    """The next league night's cards to print: its date and each division's matches."""

    date: datetime.date
    divisions: tuple[tuple[int, str, int], ...]
    """Each division with a match that night, top first: (its id, its name, its matches)."""
    played: int = 0
    """The night's matches played already (a result in): no card is printed for them."""

    @property
    def night(self) -> str:
        """The night as its cards' address gives it: 2025-09-09."""
        return self.date.isoformat()

    @property
    def matches(self) -> int:
        return sum(matches for _, _, matches in self.divisions)

    @property
    def words(self) -> str:
        """The matches whose cards the desk offers, as the secretary would say them: "all 3
        matches", "both matches", "1 match", or, the night's other matches played already,
        "the 3 matches still to play", "both matches still to play", "the match still to
        play"."""
        matches = self.matches
        if not self.played:
            return {1: "1 match", 2: "both matches"}.get(matches, f"all {matches} matches")
        which = {1: "the match", 2: "both matches"}.get(matches, f"the {matches} matches")
        return f"{which} still to play"


def next_night_to_print(*, league: League) -> NightToPrint | None:
    """The league's next night with a match to play (scheduled, from the league's today on),
    with each of its divisions' matches and how many of the night's were played already: the
    cards the secretary's desk offers to print (a cup tie under its teams' division). None when
    no match is left to play. One query."""
    league_fixtures = Fixture.objects.filter(division__season__league=league)
    to_play = league_fixtures.filter(status=Fixture.Status.SCHEDULED)
    first = to_play.filter(date__gte=league.today()).order_by("date").values("date")[:1]
    played = Q(status=Fixture.Status.PLAYED)
    rows = list(
        league_fixtures.filter(date=Subquery(first))
        .filter(Q(status=Fixture.Status.SCHEDULED) | played)
        .values_list("date", "division", "division__name")
        .annotate(
            matches=Count("pk", filter=Q(status=Fixture.Status.SCHEDULED)),
            played=Count("pk", filter=played),
        )
        .order_by("division__rank", "division__name")
    )
    if not rows:
        return None
    return NightToPrint(
        date=rows[0][0],
        divisions=tuple(
            (division, name, matches) for _, division, name, matches, _ in rows if matches
        ),
        played=sum(done for *_, done in rows),
    )
