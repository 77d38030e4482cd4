"""A fixture's result from the paper score card, typed in one go on a phone.

Per table: the pair each side fielded (or not recorded) and what the table gave, in the terms
of the season's match format. A Yorkshire table: each game's final pegs. A Trinidad table: the
games (bullseyes) each side won and the hang jacks, and each game's score where the card has
it. The card is checked by the format (``leagues.match.card_problems``: no more games than the
table plays, the table decided) and by the ruleset (``Ruleset.final_score_problems``: a game's
winner at the target, the loser short of it), every refusal naming the table, the game and the
figure; nothing is stored until the whole card is right.

The card's tables are stored as typed (``FixtureTable.source`` "card") and the result roll-up
adds them up through the match engine exactly as it adds up tables scored hand by hand; a
fixture may mix both. Entering the card submits the result, as a captain's or a secretary's
submission: the other captain confirms it or disputes it. A secretary settles a disputed
result by entering the card, or one waiting for a captain (with no account, say). Two people
entering the same fixture at once are taken one after the other (the fixture's row lock): the
second is refused, since the first one's result is already waiting to be confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.template.defaultfilters import pluralize

from leagues import match
from leagues.audit import audit_log
from leagues.models import (
    AuditEntry,
    Fixture,
    FixtureResult,
    FixtureTable,
    Player,
    ResultSubmission,
)
from leagues.permissions import can_enter_card, can_manage_league
from leagues.services import agreement, confirmation
from leagues.services.seating import (
    TableProblem,
    mark_abandoned,
    pairs_problem,
    tables_with_hands,
)
from leagues.tiebreaks import games_word, pegged_words, score_word
from scoring.actors import Account, Actor
from scoring.forms.words import possessive
from scoring.models import Game, GameStatus
from scoring.rules import Ruleset

Status = ResultSubmission.Status
#: The statuses a fixture takes a score card in: not postponed (no date until it is
#: re-arranged, to when it was played if it was), nor walked over or void.
OPEN_FOR_CARD = (Fixture.Status.SCHEDULED, Fixture.Status.PLAYED)


@dataclass(frozen=True)
class CardTable:
    """One table as the score card gives it. ``home``/``away``: the pair (empty: not
    recorded); ``games``: each game's final pegs (home, away), in order; ``bullseyes``: games
    won per side when the card gives no game scores; ``hang_jacks`` per side."""

    board: int
    home: Sequence[Player] = ()
    away: Sequence[Player] = ()
    games: tuple[tuple[int, int], ...] = ()
    bullseyes: tuple[int, int] | None = None
    hang_jacks: tuple[int, int] = (0, 0)

    def stored(self) -> dict[str, Any]:
        """What ``FixtureTable.card`` keeps."""
        card: dict[str, Any] = {"games": [list(g) for g in self.games]}
        if not self.games and self.bullseyes is not None:
            card["bullseyes"] = list(self.bullseyes)
        card["hang_jacks"] = list(self.hang_jacks)
        return card


class CardRefused(ValidationError):
    """The score card refused: every problem found, each with the table it is at."""

    def __init__(self, problems: Sequence[TableProblem]) -> None:
        super().__init__([problem.text for problem in problems])
        self.problems = tuple(problems)


def card_layout(
    fmt: match.MatchFormat,
    ruleset: Ruleset,
    *,
    league_points: bool = True,
    decider: match.Decider | None = None,
) -> match.CardLayout:
    """What a score card of a match played under ``fmt`` has (``match.card_layout``): the hang
    jacks where ``ruleset`` scores them; ``league_points`` and a knock-out cup tie's
    ``decider`` as the engine takes them. The typed card asks a table's figures by it and the
    printed blank card draws its boxes by it."""
    return match.card_layout(
        fmt,
        hang_jacks=ruleset.hang_jack_points is not None,
        league_points=league_points,
        decider=decider,
    )


#: The heading of a knock-out cup tie's play-off game's boxes, and of each box's label.
PLAYOFF_GAME = "Play-off game"


@dataclass(frozen=True)
class CardWords:
    """The words of a score card's boxes (a ``match.CardLayout``'s, in a league's style): the
    typed card labels its boxes with them and the printed blank card heads its boxes with them,
    so the two say each box alike and a label changes in this one place."""

    games: tuple[str, ...]
    """Each game line's: "Game 1", "Game 2"; a table of one game's is its score, "Pegs" (in
    Trinidad style "Points")."""
    games_won: str
    """The games won's, "Games won": "" where the card has no such box."""
    hang_jacks: str
    """The hang jacks', "Hang jacks": "" where the card has no such box."""
    match_points: str
    """The table's match points', "Match points" (the blank card's; the app adds them up for
    the typed card): "" where the card has no such box."""
    totals: tuple[str, ...]
    """Each total's, in the card's order ("Tables won", "Points pegged", ...), as the fixture's
    page names its result's figures."""
    playoff: str
    """The play-off game's heading, "Play-off game" ("" where the card has none)."""
    playoff_score: str
    """The play-off game's score box's: "Pegs" ("Points")."""

    @property
    def columns(self) -> tuple[str, ...]:
        """A table's boxes in the card's order: each game's, the games won, the hang jacks,
        the match points."""
        return tuple(
            word
            for word in (*self.games, self.games_won, self.hang_jacks, self.match_points)
            if word
        )


#: The aggregate's bonus, as the score card's total and the result's line name it.
AGGREGATE_BONUS = "Bonus for the higher aggregate"


def card_words(layout: match.CardLayout, style: str) -> CardWords:
    """The words of ``layout``'s boxes as a league of ``style`` says them."""
    scored = score_word(style).capitalize()
    totals = {
        "tables": "Tables won",
        "games": games_word(style).capitalize(),
        "pegs": pegged_words(style).capitalize(),
        "bonus": AGGREGATE_BONUS,
        "hang_jacks": "Hang jacks",
        "match_points": "Match points",
        "points": "League points",
    }
    return CardWords(
        games=tuple(f"Game {number}" for number in range(1, layout.games + 1))
        if layout.games > 1
        else (scored,),
        games_won="Games won" if layout.games_won else "",
        hang_jacks=totals["hang_jacks"] if layout.hang_jacks else "",
        match_points=totals["match_points"] if layout.table_points else "",
        totals=tuple(totals[total] for total in layout.totals),
        playoff=PLAYOFF_GAME if layout.playoff else "",
        playoff_score=scored,
    )


def table_card(stored: dict[str, Any]) -> match.TableCard:
    """The match engine's card for a table entered from the score card."""
    games = tuple(match.Game(int(h), int(a)) for h, a in stored.get("games", ()))
    bullseyes = stored.get("bullseyes")
    return match.TableCard(
        games=games,
        bullseyes=(int(bullseyes[0]), int(bullseyes[1])) if bullseyes and not games else None,
        hang_jacks=tuple(stored.get("hang_jacks", (0, 0))),  # type: ignore[arg-type]
    )


def card_problems(
    tables: Sequence[CardTable],
    fmt: match.MatchFormat,
    ruleset: Ruleset,
    *,
    names: tuple[str, str] = ("the home side", "the away side"),
    scored: str = "pegs",
) -> list[TableProblem]:
    """Everything wrong with the typed tables, each at its table and naming the table, the
    game and the figure (empty when the card is right), a side by its team's name in
    ``names``, a game's score in what the league counts it in (``scored``: ``score_word``).
    The rules are the engines': the format's and the ruleset's."""
    problems: list[TableProblem] = []
    for table in tables:
        board = table.board
        where = f"Table {board}"
        for number, (home, away) in enumerate(table.games, start=1):
            problems += game_problems(
                board=table.board, number=number, home=home, away=away, ruleset=ruleset
            )
        if any(n < 0 for n in (*table.hang_jacks, *(table.bullseyes or ()))):
            problems.append(TableProblem(board, f"{where}: figures cannot be negative."))
            continue
        if any(p.table == board for p in problems):
            # A game's score refused (14–14 names no winner): the table's own checks, which
            # count the games each side won, wait for it.
            continue
        if table.games and table.bullseyes is not None:
            card = match.TableCard.of_games(table.games)
            won, said = card.games_won, table.bullseyes
            if len(table.games) < sum(said) and all(w <= s for w, s in zip(won, said, strict=True)):
                # Some games' scores and not the rest: the pegs would be part of the table's.
                problems.append(
                    TableProblem(
                        board,
                        f"{where}: the card says {said[0]}–{said[1]} in games but gives the "
                        f"score of {_scores_given(len(table.games))}: give every game's score, "
                        "or leave the scores blank and give only the games won.",
                    )
                )
                continue
            if card.games_won != table.bullseyes:
                problems.append(
                    TableProblem(
                        board,
                        f"{where}: the game scores give {card.games_won[0]}–{card.games_won[1]} "
                        f"in games, the card says {table.bullseyes[0]}–{table.bullseyes[1]}.",
                    )
                )
                continue
        if not table.games and table.bullseyes is None:
            # In the words the card's boxes are labelled with (``ScoreCardForm``): one game's
            # "Pegs"; several games' "Game 1", "Game 2" and their "Games won".
            wanted = (
                f"each game's {scored}, or the games won"
                if fmt.games > 1
                else f"the table's {scored}"
            )
            problems.append(TableProblem(board, f"{where}: give {wanted}."))
            continue
        card = table_card(CardTable.stored(table))
        found = match.card_problems(card, fmt)
        problems += [TableProblem(board, f"{where}: {p}.") for p in found]
        if not found and not match.table_verdict(fmt, *card.games_won):
            home, away = card.games_won
            problems.append(
                TableProblem(
                    board,
                    f"{where}: {home}–{away} in games does not finish the table "
                    f"(it plays {_games_words(fmt)}).",
                )
            )
        elif not found:
            problems += _hang_jack_problems(table, card.games_won, ruleset, names, scored)
    return problems


def _hang_jack_problems(
    table: CardTable,
    games_won: tuple[int, int],
    ruleset: Ruleset,
    names: tuple[str, str],
    scored: str,
) -> list[TableProblem]:
    """A side's hang jacks past what its game scores allow (``Ruleset.most_hang_jacks``), or,
    on a card of games won alone, past what the games it won and lost could hold
    (``Ruleset.most_hang_jacks_in_games``)."""
    problems = []
    for side, name in enumerate(names):
        taken = table.hang_jacks[side]
        if table.games:
            finals = [game[side] for game in table.games]
            most = ruleset.most_hang_jacks(finals, games_won=games_won[side])
            what = f"{scored} ({' and '.join(str(final) for final in finals)})"
        else:
            won, lost = games_won[side], games_won[1 - side]
            most = ruleset.most_hang_jacks_in_games(won=won, lost=lost)
            what = f"games ({won} won, {lost} lost; no game scores on the card)"
        if taken > most:
            problems.append(
                TableProblem(
                    table.board,
                    f"Table {table.board}: {possessive(name)} {what} allow at most "
                    f"{most} hang jacks, not {taken}.",
                )
            )
    return problems


def card_pairs_problem(
    fixture: Fixture,
    existing: Mapping[int, FixtureTable],
    tables: Sequence[CardTable],
    *,
    halves: bool = True,
) -> TableProblem | None:
    """What is wrong with the pairs the card gives (``pairs_problem``), with the fixture's
    tables as they are stored (``existing``, by board) where the card leaves them: a player the
    card seats who already sits at one of those tables (scored on a phone, say) is refused at
    the card's table, naming the table they sit at. With ``halves``, a pair the card gives one
    player of where the ruleset plays pairs too (``half_pair_words``): a card says who sat at a
    table, both of a pair or neither (the form refuses it at the empty seat)."""
    seats = {b: (t.home_pair, t.away_pair) for b, t in existing.items()}
    seats.update({t.board: (list(t.home), list(t.away)) for t in tables})
    return pairs_problem(fixture, seats, seating=[t.board for t in tables], halves=halves)


def game_problems(
    *, board: int, number: int, home: int, away: int, ruleset: Ruleset
) -> list[TableProblem]:
    """What is wrong with one typed game's final pegs (the ruleset's check), each at its table
    and naming the table, the game and the figure: what ``card_problems`` says of it, asked
    alone where the rest of its table cannot be checked yet."""
    return [
        TableProblem(board, f"Table {board}, game {number} ({home}–{away}): {p}")
        for p in ruleset.final_score_problems(home, away)
    ]


def _scores_given(count: int) -> str:
    """``game 1``, ``games 1 and 2``, ``games 1, 2 and 3``: the games whose scores were given."""
    numbers = [str(n) for n in range(1, count + 1)]
    if count == 1:
        return "game 1 only"
    return f"games {', '.join(numbers[:-1])} and {numbers[-1]} only"


def _games_words(fmt: match.MatchFormat) -> str:
    if fmt.games_mode == match.FIRST_TO:
        return f"first to {fmt.games} games"
    return f"{fmt.games} game{pluralize(fmt.games)}"


def _card_state(table: FixtureTable) -> dict[str, Any]:
    return {
        "source": table.source,
        "card": table.card,
        # The pairs by name, as the audit trail reads them (not their numbers).
        "home": [p.label for p in table.home_pair],
        "away": [p.label for p in table.away_pair],
    }


@transaction.atomic
def fixture_card_enter(
    *,
    fixture: Fixture,
    tables: Sequence[CardTable],
    settlement: str = "",
    signed: bool = False,
    playoff: tuple[int, int] | None = None,
    by: Account,
) -> ResultSubmission:
    """Store the score card's tables (the others stay as scored hand by hand), add the match
    up and submit the result for the other side to confirm; with ``settlement`` a secretary
    settles a disputed result with the card instead, or one waiting for a side they speak for
    (``confirmation.can_settle_with_card``), and it counts. ``signed``: a secretary
    types the card both captains signed at the table, their agreement: it counts at once.
    ``playoff``: a knock-out cup tie's play-off game (home, away) from the card, when its
    tables leave the match level and the cup's decider comes to a play-off game
    (``cups.services.ties.playoff_due``): the tie is decided by it once the result counts;
    None, its boxes left blank: a play-off score kept from before goes (a dispute settled with
    the card emptied of it), and the tie waits for its play-off game.
    Refused, naming the table, the game and the figure, unless the whole card is right
    (``CardRefused``: every problem with its table); nothing is stored then."""
    from cups.services.ties import lock_tie, playoff_due, playoff_problems, take_playoff_from_card
    from leagues.services.results import lock_fixture
    from leagues.services.rollup import FixtureChanged, roll_up
    from scoring.services import game_abandon
    from scoring.services.links import _scoring_link_revoke

    fixture = lock_fixture(fixture)
    league = fixture.division.season.league
    if by is not None and not can_enter_card(by, fixture):
        raise PermissionDenied(
            "Only a captain of one of the two teams or a secretary enters the score card."
        )
    if signed and not can_manage_league(by, league):
        raise PermissionDenied(
            "Only a secretary enters a signed card to count at once: a captain's card waits "
            "for the other team's captain."
        )
    if fixture.status == Fixture.Status.POSTPONED:
        raise ValidationError(
            f"{not_started_words(fixture)} A match played all the same is re-arranged by a "
            "secretary to when it was played."
        )
    if fixture.status not in OPEN_FOR_CARD:
        raise ValidationError(f"{fixture} is {fixture.get_status_display().lower()}.")
    if not fixture.has_started():
        raise ValidationError(
            f"{not_started_words(fixture)} A match played earlier than that is re-arranged "
            "by a secretary to when it was played."
        )
    current = (
        ResultSubmission.objects.select_for_update()
        .filter(fixture=fixture, status__in=[*agreement.OPEN, *agreement.CONFIRMED])
        .first()
    )
    settling = bool(settlement.strip())
    if settling:
        if current is None or current.status not in agreement.OPEN:
            raise ValidationError("There is no disputed or waiting result to settle.")
        if not confirmation.can_settle_with_card(submission=current, by=by):
            raise PermissionDenied(
                "Only a secretary who did not submit it settles a result with the card."
            )
    elif current is not None:
        raise ValidationError(
            f"The result is already {current.get_status_display().lower()}: "
            + (
                "a secretary settles a dispute."
                if current.status == Status.DISPUTED
                else "confirm it or dispute it on the result page."
                if current.status == Status.SUBMITTED
                else "a secretary reopens it first."
            )
        )
    season = fixture.division.season
    fmt = season.get_match_format()
    existing = {
        t.board: t
        for t in FixtureTable.objects.select_for_update(of=("self",))
        .filter(fixture=fixture)
        .select_related(
            "scoring_link", "home_player_1", "home_player_2", "away_player_1", "away_player_2"
        )
    }
    boards = [t.board for t in tables]
    # A table whose game was abandoned is played no more on a phone: the card gives it.
    mark_abandoned(list(existing.values()))
    with_hands = tables_with_hands(list(existing.values()))  # one query for every table
    problems: list[TableProblem] = []
    if len(set(boards)) != len(boards) or not all(1 <= b <= fmt.tables for b in boards):
        problems.append(
            TableProblem(None, f"The match is played on tables 1 to {fmt.tables}, each once.")
        )
    for board in boards:
        table = existing.get(board)
        if (
            table is not None
            and not settling
            and not table.from_card
            and not table.abandoned
            and table.pk in with_hands
        ):
            problems.append(
                TableProblem(
                    board,
                    f"Table {board} was scored hand by hand at the table: its games stand "
                    "(a secretary settling a dispute may replace them with the card).",
                )
            )
    for board, table in sorted(existing.items()):
        if board not in boards and not table.outcome:
            # A table with hands takes no card here (the card page gives it no boxes).
            what = (
                f"had its game abandoned at {table.abandoned_at}: give its figures from the "
                "card, or the secretary starts it again."
                if table.abandoned
                else "is still being played at the table, hand by hand: let it finish, then "
                "enter the card."
                if not settling and table.pk in with_hands
                else "is still being played at the table: give its card, or let it finish."
            )
            problems.append(TableProblem(board, f"Table {board} {what}"))
    missing = sorted(set(range(1, fmt.tables + 1)) - set(boards) - set(existing))
    if missing:
        problems.append(
            TableProblem(
                None,
                "Give every table: "
                + ", ".join(f"table {b}" for b in missing)
                + " has no card and was not scored at the table.",
            )
        )
    names = (fixture.home.name, fixture.away.name)
    problems += card_problems(
        tables, fmt, season.get_ruleset(), names=names, scored=score_word(season.league.style)
    )
    # Said with the figures' problems: a captain learns all of them from one submission.
    seating = card_pairs_problem(fixture, existing, tables)
    if seating is not None:
        problems.append(seating)
    tie = getattr(fixture, "cup_tie", None) if fixture.kind == Fixture.Kind.CUP else None
    if playoff is not None:
        if tie is None or tie.round is None:
            problems.append(TableProblem(None, "This match has no play-off game: leave it blank."))
        else:
            problems += [
                TableProblem(None, f"{p}.")
                for p in playoff_problems(tie, home=playoff[0], away=playoff[1])
            ]
    if problems:
        raise CardRefused(problems)

    before = {b: _card_state(t) for b, t in existing.items() if b in boards}
    for typed in tables:
        table = existing.get(typed.board) or FixtureTable(fixture=fixture, board=typed.board)
        if table.pk is not None:
            # A game opened at the table on a phone is not played on: the card gives the table.
            for game in Game.objects.filter(
                league_game__table=table, status=GameStatus.IN_PROGRESS
            ):
                game_abandon(game=game, reason="The table's result came from the score card.")
        if table.scoring_link is not None and table.scoring_link.is_live:
            # The table is not scored on a phone: its link stops working.
            _scoring_link_revoke(link=table.scoring_link)
        table.source = FixtureTable.Source.CARD
        table.card = typed.stored()
        for side, pair in (("home", typed.home), ("away", typed.away)):
            setattr(table, f"{side}_player_1", pair[0] if pair else None)
            setattr(table, f"{side}_player_2", pair[1] if len(pair) > 1 else None)
        table.save()
        existing[typed.board] = table
    if tables or playoff:  # none typed (every table scored on the phones): it enters none
        audit_log(
            league=league,
            fixture=fixture,
            action=AuditEntry.Action.CARD_ENTERED,
            subject=f"Score card of {fixture} entered ({len(tables)} "
            f"table{pluralize(len(tables))})",
            before=before or None,
            after={t.board: _card_state(existing[t.board]) for t in tables}
            | ({"playoff": list(playoff)} if playoff else {}),
            by=by,
        )
    try:
        roll_up(FixtureChanged(fixture=fixture, actor=Actor.of(by), settling=settling))
    except match.CardError as exc:
        # The checks above refuse every card the engine cannot add up: should one pass them,
        # it is refused all the same (and the transaction keeps nothing), never a server error.
        problems = [TableProblem(None, f"{m[:1].upper()}{m[1:]}.") for m in exc.messages]
        raise CardRefused(problems) from exc
    fixture.refresh_from_db()
    if fixture.status != Fixture.Status.PLAYED:
        raise ValidationError("Every table must be finished for the card to give a result.")
    if tie is not None and tie.is_knockout:
        # The card's play-off boxes, blank or not: a score kept from before never rides on a
        # card entered without it.
        tie = lock_tie(tie)
        if playoff is not None and not playoff_due(
            tie, FixtureResult.objects.filter(fixture=fixture).first()
        ):
            raise CardRefused(
                [
                    TableProblem(
                        None,
                        "The tables decide this match: there is no play-off game to give. "
                        "Leave its score blank.",
                    )
                ]
            )
        take_playoff_from_card(tie, playoff, by=by)
    if settling:
        assert current is not None
        return confirmation.result_settle_with_card(replacing=current, note=settlement, by=by)
    submission = confirmation.result_submit(fixture=fixture, actor=Actor.of(by))
    if signed:
        return confirmation.result_confirm(submission=submission, by=by, signed_card=True)
    return submission


def not_started_words(fixture: Fixture) -> str:
    """Why the card of a match not yet started is not taken, saying when it starts in its
    league's own time (``Fixture.starts_words``): "This match starts at 20:00 Port of Spain
    time tonight: ..." on its day, "This match is on Tue 9 Sep 2025 at 20:00 London time: ..."
    before it; a postponed one's once it is re-arranged: "Postponed: no new date yet (it was set
    for ...): ..."."""
    if fixture.status == Fixture.Status.POSTPONED:
        return f"{fixture.starts_words()}: its score card is entered once it is re-arranged."
    return f"{fixture.starts_words()}: its score card is entered once it has started."


def card_closed_why(by: Account, fixture: Fixture) -> str:
    """Why ``by`` (who may enter cards for ``fixture``) is not offered its card now: "shut" (a
    walkover or void), "not_yet" (the match has not started: ``not_started_words``), "counts"
    (a result counts), "yours" (``by`` submitted the result waiting to be confirmed), else
    "waiting" (a result waits for ``by``'s side, or is disputed, to be seen to on the result
    page). A postponed match's is "not_yet", until it is re-arranged."""
    if fixture.status == Fixture.Status.POSTPONED:
        return "not_yet"
    if fixture.status not in OPEN_FOR_CARD:
        return "shut"
    if not fixture.has_started():
        return "not_yet"
    current = ResultSubmission.objects.filter(
        fixture=fixture, status__in=[*agreement.OPEN, *agreement.CONFIRMED]
    ).first()
    if current is not None and current.status in agreement.CONFIRMED:
        return "counts"
    if (
        current is not None
        and current.status == Status.SUBMITTED
        and by is not None
        and current.submitted_by_id == by.pk
    ):
        return "yours"
    return "waiting"


def card_as_stored(tables: Mapping[int, FixtureTable], typed: Sequence[CardTable]) -> bool:
    """Whether the card ``typed`` is the one the fixture's ``tables`` (by board) hold from the
    card, table for table, figures and pairs: the same card sent again (a double tap, a retry
    of a slow page), not a different one. No query (the tables' players read with them)."""
    card_boards = {board for board, table in tables.items() if table.from_card}
    if card_boards != {t.board for t in typed}:
        return False
    return all(
        tables[t.board].card == t.stored()
        and {p.pk for p in tables[t.board].home_pair} == {p.pk for p in t.home}
        and {p.pk for p in tables[t.board].away_pair} == {p.pk for p in t.away}
        for t in typed
    )


def card_not_taken_words(submission: ResultSubmission, by: Account) -> str:
    """Why a score card sent while a result waits or is disputed (an older tab, different
    figures) was not taken, and what changes a figure: "Not saved: a result is already waiting
    for Old Hall's captain — take it back to change a figure." to whoever submitted it."""
    waiting = confirmation.waiting_for(submission)
    if submission.status == Status.DISPUTED:
        return (
            "Not saved: the result is disputed — a secretary settles it, with the corrected "
            "score card."
        )
    if by is not None and submission.submitted_by_id == by.pk:
        return (
            f"Not saved: a result is already waiting for {waiting} — take it back to change "
            "a figure."
        )
    return (
        f"Not saved: a result is already submitted, waiting for {waiting} — confirm it or "
        "dispute it on the result page."
    )


def may_enter_card(by: Account, fixture: Fixture) -> bool:
    """Whether ``by`` is offered the score card: a captain of either team or a secretary,
    when ``card_offered`` says so. The card, result and fixture pages ask it."""
    if not can_enter_card(by, fixture):
        return False
    current = ResultSubmission.objects.filter(
        fixture=fixture, status__in=[*agreement.OPEN, *agreement.CONFIRMED]
    ).first()
    return card_offered(by, fixture, current)


def card_offered(by: Account, fixture: Fixture, current: ResultSubmission | None) -> bool:
    """When one who may enter ``fixture``'s card (``can_enter_card``) is offered it, its
    result waiting or counting being ``current`` (or none): once the match has started, while
    the fixture has no result waiting or counting (a secretary who may settle it with the card
    also while disputed or waiting: ``confirmation.can_settle_with_card``). My fixtures asks it
    of the result it read with its fixtures; the other pages through ``may_enter_card``."""
    if fixture.status not in OPEN_FOR_CARD or not fixture.has_started():
        return False
    if current is None:
        return True
    return confirmation.can_settle_with_card(submission=current, by=by)
