"""A fixture's tables, the games played at them, and its stored result.

Side A of every league game is the home pair and side B the away pair. ``fixture_result_store``
reads each table's finished games into a card, asks the match engine (``leagues.match``) what
they add up to, and stores the tables' figures, the fixture's ``FixtureResult`` and whether it is
played; ``table_next_game`` starts a table's next game when the format needs one. Both are steps
of the result roll-up (``leagues.services.rollup``), which calls them in order. One game is in
play at a table at a time: a won game back in play takes the games after it away, or is refused
once one has a hand (``table_game_back_in_play``; ``later_games_go`` for a cup tie's race too).

No game begins at a table before the match has started (its date and time where the league
plays: ``Fixture.has_started``), the rule its score card keeps (``not_started_words``): a table
seated ahead begins its first game when its scorer opens the table's link once it has
(``table_link_opened``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Prefetch, QuerySet
from django.template.defaultfilters import pluralize
from django.urls import reverse

from config.locks import lock_rows
from leagues import match
from leagues.audit import audit_log, request_address
from leagues.models import (
    AuditEntry,
    Fixture,
    FixtureResult,
    FixtureTable,
    Player,
    TableGame,
)
from leagues.permissions import require_secretary
from leagues.selectors.audit import TAKEN_AWAY
from leagues.selectors.fixtures import stopped_at, with_abandoned_game
from leagues.selectors.people import name_people, seated_players
from scoring.actors import Account, Actor
from scoring.models import Award, Game, GameStatus, ScoringLink, Side
from scoring.services import GameMovedOn

Pair = Sequence[Player]

HOME, AWAY = "A", "B"


def _new_table_link(fixture: Fixture, board: int, *, by: Account) -> ScoringLink:
    """A table's private scoring link, shown as a QR code on the fixture card and on the
    captain's phone; it leads to the fixture's result once the games are done. A step of the
    services that seat a table or re-issue its link, which check permission first."""
    from scoring.services.links import _scoring_link_create

    return _scoring_link_create(
        label=f"{fixture.home} v {fixture.away}, table {board}",
        next_url=reverse("leagues:fixture_result", kwargs={"pk": fixture.pk}),
        by=by if by is not None and by.is_authenticated else None,
    )


def lock_fixture(fixture: Fixture) -> Fixture:
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("division__season__league", "home", "away")
        .get(pk=fixture.pk)
    )


@transaction.atomic
def fixture_tables_set(
    *, fixture: Fixture, pairs: Sequence[tuple[Pair, Pair]], by: Account = None
) -> list[FixtureTable]:
    """Seat the pairs: ``pairs[i]`` is (home pair, away pair) at board ``i + 1``.

    Every player must be registered to their team for the season and sit at one table only.
    Refused once a game has started at the fixture.
    """
    require_secretary(by, fixture.division.season.league)
    fixture = lock_fixture(fixture)
    league = fixture.division.season.league
    match_format = fixture.division.season.get_match_format()
    from leagues.services.seating import check_pairs, pair_state, refuse_unless_night_open

    refuse_unless_night_open(fixture)  # as a captain's seating is (``seating.table_seat``)
    if TableGame.objects.filter(table__fixture=fixture).exists():
        raise ValidationError("Games have started at this fixture; the tables are set.")
    if len(pairs) != match_format.tables:
        raise ValidationError(
            f"{league} plays {match_format.tables} tables a fixture (got {len(pairs)})."
        )
    if any(not pair for pairs_at_board in pairs for pair in pairs_at_board):
        raise ValidationError("Each side at a table is one or two players.")
    from scoring.services.links import _scoring_link_revoke

    check_pairs(fixture, dict(enumerate(pairs, start=1)))

    for old in FixtureTable.objects.filter(fixture=fixture, scoring_link__isnull=False):
        _scoring_link_revoke(link=old.scoring_link)
    FixtureTable.objects.filter(fixture=fixture).delete()
    seater = by if getattr(by, "is_authenticated", False) else None
    tables = [
        FixtureTable(
            fixture=fixture,
            board=board,
            scoring_link=_new_table_link(fixture, board, by=by),
            home_player_1=home_pair[0],
            home_player_2=home_pair[1] if len(home_pair) > 1 else None,
            away_player_1=away_pair[0],
            away_player_2=away_pair[1] if len(away_pair) > 1 else None,
            home_seated_by=seater,
            away_seated_by=seater,
        )
        for board, (home_pair, away_pair) in enumerate(pairs, start=1)
    ]
    created = FixtureTable.objects.bulk_create(tables)

    audit_log(
        league=league,
        fixture=fixture,
        action=AuditEntry.Action.TABLES_SET,
        subject=f"Pairs seated at {len(created)} table{pluralize(len(created))}",
        after=[
            {
                "board": board,
                "home": pair_state(home_pair),
                "away": pair_state(away_pair),
            }
            for board, (home_pair, away_pair) in enumerate(pairs, start=1)
        ],
        by=by,
    )
    return created


@transaction.atomic
def table_restart(*, table: FixtureTable, by: Account = None) -> TableGame:
    """A secretary's restart of a table whose game was abandoned (``with_abandoned_game``, the
    one rule): its next game begins under the league's ruleset (side A home, B away) on the
    table's own link, written to the fixture's audit trail with the score the abandoned game
    stopped at. Refused, nothing changed, for any other table: its first game begins when its
    scorer opens the link (``table_link_opened``), the next after one won by the roll-up
    (``table_next_game``).

    The deal starts with the home pair in odd-numbered games and the away pair in even ones.
    """

    league = table.fixture.division.season.league
    require_secretary(by, league)
    # Locked first and read after (``config.locks``): a restart posted twice starts one game.
    lock_rows(FixtureTable.objects.filter(pk=table.pk))
    abandoned = with_abandoned_game(FixtureTable.objects.filter(pk=table.pk)).first()
    if abandoned is None:
        raise ValidationError(f"Table {table.board} has no abandoned game to start again.")
    started = _table_game_start(table=table, by=by)
    board = started.table.board
    was = f"game {started.number - 1} abandoned at {stopped_at(abandoned)}"
    audit_log(
        league=league,
        fixture=started.table.fixture,
        action=AuditEntry.Action.TABLE_RESTARTED,
        subject=f"Table {board} started again: game {started.number} ({was})",
        before={"table": board, "in_play": was},
        after={"table": board, "in_play": f"game {started.number}"},
        by=by,
    )
    return started


def not_started_words(fixture: Fixture) -> str:
    """Why no game is begun or scored at the tables of a match not yet started, saying when it
    starts in its league's own time (``Fixture.starts_words``), as its score card's refusal
    does: "This match starts at 20:00 London time tonight: its tables are scored once it has
    started."; a postponed one's once it is re-arranged ("Postponed: no new date yet ...")."""
    if fixture.status == Fixture.Status.POSTPONED:
        return f"{fixture.starts_words()}: its tables are scored once it is re-arranged."
    return f"{fixture.starts_words()}: its tables are scored once it has started."


def table_open(*, table: FixtureTable, by: Account) -> TableGame:
    """The first game at a table seated on the night (``leagues.services.seating``, which
    checked who may seat it, and only once the match has started): its scorer can start at
    once."""
    return _table_game_start(table=table, by=by if by is not None and by.is_authenticated else None)


def _due_table(link: ScoringLink) -> FixtureTable | None:
    """The fixture table ``link`` scores, when a game of it is due to begin: seated both sides,
    from the tables (not the score card), undecided, its fixture still to be played, and no
    game of it in progress, its latest won (or none yet). A table whose latest game was
    abandoned waits for a secretary's restart (``table_restart``)."""
    table = (
        FixtureTable.objects.select_related("fixture__division__season__league")
        .filter(scoring_link=link, source=FixtureTable.Source.HANDS, outcome="")
        .exclude(home_player_1=None)
        .exclude(away_player_1=None)
        .first()
    )
    if table is None:
        return None
    if table.fixture.status not in Fixture.TO_PLAY:
        return None
    latest = table.games.order_by("-number").values_list("game__status", flat=True).first()
    return table if latest in (None, GameStatus.WON) else None


@transaction.atomic
def table_link_opened(*, link: ScoringLink, by: Account = None) -> str:
    """A fixture table's scoring link opened with no game in progress on it: a game due at the
    table (``_due_table``: its first, or the next after one won before the match's start)
    begins once the match has started, and "" is returned; before then, nothing changes and
    the words say when its tables are scored (``not_started_words``). "" too for a link with
    nothing due. A table seated before the match starts has no game till then
    (``leagues.services.seating.table_seat``): its scorer, holding the live link (the
    permission to score the table), begins it by opening the link; the game's audit trail
    names who opened it (None: a scorer with no account), and so does the fixture's, as
    every other start of a table's game is written there (its seating, its restart): the
    entry, by the account or else the link, is the league's change that its cached lists
    ("In play") go with (``audit_log``). Registered with
    ``scoring.openers.register_link_opener``."""

    if not link.is_live or _due_table(link) is None:
        return ""
    lock_rows(FixtureTable.objects.filter(scoring_link=link))
    table = _due_table(link)  # read again under the lock: another phone may have begun it
    if table is None:
        return ""
    fixture = table.fixture
    # A postponed match is not played on the night it was set for: none begins till re-arranged.
    if fixture.status == Fixture.Status.POSTPONED or not fixture.has_started():
        return not_started_words(fixture)
    opener = by if by is not None and by.is_authenticated else None
    try:
        started = _table_game_start(table=table, by=opener)
    except ValidationError:  # every game of the table played: its page says so
        return ""
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=AuditEntry.Action.TABLE_STARTED,
        subject=f"Table {table.board} started: game {started.number}, on its scoring link",
        after={"table": table.board, "in_play": f"game {started.number}"},
        by=opener,
        link=link,
    )
    return ""


def _table_game_start(*, table: FixtureTable, by: Account) -> TableGame:
    from scoring.services import game_start

    # Locked first and read after (``config.locks`` says why): a link re-issued a moment ago is
    # read with the table, where a read that waited for the lock would see none and start the
    # game on a link of its own that the table's players do not hold.
    lock_rows(FixtureTable.objects.filter(pk=table.pk))
    table = FixtureTable.objects.select_related(
        "scoring_link",
        "fixture__division__season__league",
        "fixture__home",
        "fixture__away",
        "home_player_1",
        "home_player_2",
        "away_player_1",
        "away_player_2",
    ).get(pk=table.pk)
    fixture = table.fixture
    match_format = fixture.division.season.get_match_format()
    if table.outcome:
        raise ValidationError(f"Table {table.board} is already decided.")
    if fixture.status not in Fixture.TO_PLAY:
        raise ValidationError(f"{fixture} is {fixture.get_status_display().lower()}.")
    if not fixture.has_started():
        raise ValidationError(not_started_words(fixture))
    games = list(table.games.select_related("game"))
    if any(tg.game.status == GameStatus.IN_PROGRESS for tg in games):
        raise ValidationError(f"A game is still in progress at table {table.board}.")
    number = len(games) + 1
    if number > match_format.max_games_per_table + _abandoned(games):
        raise ValidationError(f"Table {table.board} has played all its games.")
    # The game's sides name the players as every page does: two of one name told apart.
    name_people(seated_players([table]))
    game = game_start(
        ruleset=fixture.division.season.get_ruleset(),
        sides=[
            (fixture.home.name, [p.label for p in table.home_pair]),
            (fixture.away.name, [p.label for p in table.away_pair]),
        ],
        first_dealer=HOME if number % 2 else AWAY,
        title=f"{fixture.home} v {fixture.away}, table {table.board}, game {number}",
        by=by,
        scoring_link=table.scoring_link,
        # The game's own trail names where it was begun from, as a phone's own start does.
        ip=request_address(),
    )
    return TableGame.objects.create(table=table, game=game, number=number)


def _abandoned(games: Sequence[TableGame]) -> int:
    return sum(1 for tg in games if tg.game.status == GameStatus.ABANDONED)


@transaction.atomic
def fixture_start(
    *, fixture: Fixture, pairs: Sequence[tuple[Pair, Pair]], by: Account = None
) -> list[TableGame]:
    """Seat the pairs and start the first game at every table: refused, seating nothing,
    before the match has started (``not_started_words``)."""
    require_secretary(by, fixture.division.season.league)
    fixture = lock_fixture(fixture)
    if not fixture.has_started():
        raise ValidationError(not_started_words(fixture))
    tables = fixture_tables_set(fixture=fixture, pairs=pairs, by=by)
    return [_table_game_start(table=table, by=by) for table in tables]


def _table_cards(fixture: Fixture) -> list[tuple[FixtureTable, match.TableCard]]:
    """Each table of the fixture with its card: the games finished at it, in order (a fixed
    number of queries), or the score card typed for it."""
    tables = list(
        fixture.tables.order_by("board").prefetch_related(
            Prefetch(
                "games",
                queryset=TableGame.objects.select_related("game")
                .prefetch_related(
                    Prefetch("game__sides", queryset=Side.objects.only("game", "label", "score"))
                )
                .order_by("number"),
            )
        )
    )
    hang_jacks: dict[tuple[int, str], int] = {
        (row["game__league_game__table"], row["side"]): row["n"]
        for row in Award.objects.filter(
            game__league_game__table__fixture=fixture,
            game__status=GameStatus.WON,
            category="hang_jack",
            counted=True,
        )
        .values("game__league_game__table", "side")
        .annotate(n=Count("id"))
    }
    cards = []
    for table in tables:
        if table.from_card:
            # Typed from the paper score card: the same engine adds it up.
            from leagues.services.cards import table_card

            cards.append((table, table_card(table.card)))
            continue
        games = []
        for table_game in table.games.all():
            if table_game.game.status != GameStatus.WON:
                continue
            pegs = {side.label: side.score for side in table_game.game.sides.all()}
            winner = match.HOME if table_game.game.winner == HOME else match.AWAY
            games.append(match.Game(pegs.get(HOME, 0), pegs.get(AWAY, 0), winner))
        card = match.TableCard(
            games=tuple(games),
            hang_jacks=(hang_jacks.get((table.pk, HOME), 0), hang_jacks.get((table.pk, AWAY), 0)),
        )
        cards.append((table, card))
    return cards


#: A table's figures as the engine gives them and the stored ``FixtureTable`` keeps them.
TABLE_FIGURES = (
    "home_games",
    "away_games",
    "home_pegs",
    "away_pegs",
    "home_hang_jacks",
    "away_hang_jacks",
    "outcome",
)


def _store_tables(tables: Sequence[FixtureTable], result: match.MatchResult) -> None:
    """Store each table's figures where the engine's differ from those kept."""
    for table, outcome in zip(tables, result.tables, strict=True):
        after = {name: getattr(outcome, name) for name in TABLE_FIGURES}
        if any(getattr(table, name) != value for name, value in after.items()):
            # Usually one table changes at a time: a plain update beats a bulk CASE update.
            FixtureTable.objects.filter(pk=table.pk).update(**after)


def result_store(
    *,
    fixture: Fixture,
    result: match.MatchResult,
    tables: Sequence[FixtureTable] = (),
    imported: bool = False,
) -> FixtureResult:
    """The one place a fixture's result is stored: the engine's figures, and what of them was
    recorded. ``tables``: the fixture's tables it adds up (its pegs are recorded unless every
    table's card gave the games alone, ``FixtureTable.has_pegs``); ``imported``: a result from
    the league's own records, its match points and games alone (``fixtures_import``), whose
    pegs, hang jacks and tables were not recorded. Called on the locked fixture, by the
    roll-up's steps 1 and 2 and by the import before its roll-up."""
    pegs_recorded = not imported and (not tables or any(table.has_pegs for table in tables))
    stored, _ = FixtureResult.objects.update_or_create(
        fixture=fixture,
        defaults=result.figures() | {"imported": imported, "pegs_recorded": pegs_recorded},
    )
    return stored


def table_game_of(game: Game) -> TableGame | None:
    """The fixture table ``game`` is played at, with its fixture and season; None for a game
    played elsewhere (no query for a game the scoring service's locked read found unattached)."""
    if not hasattr(game, "league_game"):
        return None
    return (
        TableGame.objects.select_related("table__fixture__division__season")
        .filter(game_id=game.pk)
        .first()
    )


def table_next_game(*, table_game: TableGame, fixture: Fixture) -> TableGame | None:
    """After a game at the table was won: its next game, when the table is still undecided, the
    won game was its latest, and the fixture is still to be played and has started (one
    re-arranged to a later night after its first game begins its next one then)."""
    table = table_game.table
    table.refresh_from_db()
    latest = table.games.order_by("-number").values_list("number", flat=True).first()
    still_to_play = fixture.has_started() and fixture.status in (
        Fixture.Status.SCHEDULED,
        Fixture.Status.POSTPONED,
    )
    if table.outcome or latest != table_game.number or not still_to_play:
        return None
    return _table_game_start(table=table, by=table_game.game.created_by)


def table_game_back_in_play(*, table_game: TableGame, actor: Actor) -> list[int]:
    """A won game at the table in play again (``GameChanged.back_in_play``): one game is in play
    at a table at a time, so the games started after it (``table_next_game`` started them when
    it was won) go, when no hand of them is recorded, with an audit entry naming them; the
    numbers of the games taken away. Once one has a hand, the change is refused
    (``later_games_go``).

    Called by the roll-up (``leagues.services.rollup.game_changed``) before it locks the
    fixture: a hand recorded in a later game locks that game first and the fixture after, so
    the later games are locked here in that order too."""
    later = TableGame.objects.filter(table_id=table_game.table_id, number__gt=table_game.number)
    gone = later_games_go(later, number=table_game.number, where="at this table")
    if gone:
        table = table_game.table
        fixture = table.fixture
        audit_log(
            league=fixture.division.season.league,
            fixture=fixture,
            action=AuditEntry.Action.GAME_TAKEN_AWAY,
            subject=f"Table {table.board}: "
            + taken_away_words(list(gone), game=table_game.game, number=table_game.number),
            before={"table": table.board, "in_play": f"game {max(gone)}"},
            after={"table": table.board, "in_play": f"game {table_game.number}"}
            | taken_away_named(gone),
            by=actor.user,
            link=actor.link,
        )
    return list(gone)


def later_games_go(later: QuerySet[Any], *, number: int, where: str) -> dict[int, int]:
    """Game ``number`` of a table (or a cup tie's race) is in play again: the games after it
    (``later``: its ``TableGame`` or ``TieGame`` rows numbered after it) go, with their sides
    and audit, when no hand of any is recorded (they were only started when game ``number``
    was won: nothing a scorer entered goes with them); each one's number and id, in order, for
    the caller's audit entry to name them (``taken_away_named``). Once one has a hand,
    ``GameMovedOn`` says which and what to do ("undo its hands first"), and the caller's
    transaction, the change that put game ``number`` back in play too, rolls back.

    The later games' rows are locked first and their hands counted after (``config.locks``):
    a hand recorded in one a moment ago is counted, never deleted under it."""
    ids = list(later.values_list("game_id", flat=True))
    if not ids:
        return {}
    lock_rows(Game.objects.filter(pk__in=ids))
    rows = list(
        later.order_by("number")
        .annotate(hands=Count("game__hands"))
        .values_list("number", "game_id", "game__status", "hands")
    )
    begun = [(n, status, hands) for n, _, status, hands in rows if hands]
    if begun:
        raise GameMovedOn(_begun_words(begun, number=number, where=where))
    Game.objects.filter(pk__in=[game_id for _, game_id, _, _ in rows]).delete()
    return {n: game_id for n, game_id, _, _ in rows}


def taken_away_named(gone: Mapping[int, int]) -> dict[str, dict[str, int]]:
    """What the audit entry of games taken away (each one's number and id: ``gone``) keeps in
    its ``after`` to name them, by id: how a game's page tells a game no longer kept from one
    that never was (``leagues.selectors.audit.game_taken_away``)."""
    return {TAKEN_AWAY: {str(game_id): n for n, game_id in gone.items()}}


def _begun_words(begun: Sequence[tuple[int, str, int]], *, number: int, where: str) -> str:
    """Why game ``number`` stays won: the later games ``begun`` (number, status, hands)."""
    change = f"the hand that won game {number}"
    abandoned = [(n, hands) for n, status, hands in begun if status == GameStatus.ABANDONED]
    if abandoned:
        n, hands = abandoned[0]
        return (
            f"Game {n} {where} was abandoned after {hands} hand{pluralize(hands)}, so {change} "
            "stands: ask the league secretary if it was wrong. Nothing was changed."
        )
    if len(begun) == 1:
        n, _, hands = begun[0]
        return (
            f"Game {n} {where} has begun ({hands} hand{pluralize(hands)}): undo its hands first "
            f"to change {change}. Nothing was changed."
        )
    last = begun[-1][0]
    each = ", ".join(f"game {n}: {hands} hand{pluralize(hands)}" for n, _, hands in begun)
    return (
        f"Games {_listed([str(n) for n, _, _ in begun])} {where} have begun ({each}): undo "
        f"their hands first, game {last}'s first, to change {change}. Nothing was changed."
    )


def _listed(items: Sequence[str]) -> str:
    """The items as a sentence lists them: 2; 2 and 3; 2, 3 and 4."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def gone_words(gone: Sequence[int]) -> str:
    """The audit's words for games taken away, by number: "game 2 taken away before a hand of
    it was recorded", "games 2 and 3 taken away before a hand of them was recorded"."""
    what = f"game {gone[0]}" if len(gone) == 1 else f"games {_listed([str(n) for n in gone])}"
    return f"{what} taken away before a hand of {'it' if len(gone) == 1 else 'them'} was recorded"


def taken_away_words(gone: Sequence[int], *, game: Game, number: int) -> str:
    """The audit's words for games taken away (``later_games_go``): "game 2 taken away before
    a hand of it was recorded: game 1 is back in play (hand 12 undone)"."""
    from scoring.models import HandRevision, RevisionAction

    done = (
        HandRevision.objects.filter(
            game=game, action__in=(RevisionAction.UNDO, RevisionAction.CORRECT)
        )
        .order_by("-pk")
        .values_list("action", "hand_number")
        .first()
    )
    how = ""
    if done is not None:
        action, hand = done
        how = f" (hand {hand} {'undone' if action == RevisionAction.UNDO else 'corrected'})"
    return f"{gone_words(gone)}: game {number} is back in play{how}"


def fixture_result_store(fixture: Fixture) -> FixtureResult | None:
    """Steps 1 and 2 of the roll-up (``leagues.services.rollup``), on the locked fixture: the
    match engine adds its tables up (or gives its walkover), and the result, each table's
    figures and whether the fixture is played are stored. A void fixture has no result."""
    return _recompute(fixture)


def _recompute(fixture: Fixture) -> FixtureResult | None:
    match_format = fixture.division.season.get_match_format()
    if fixture.status == Fixture.Status.VOID:
        # An imported result is kept (it counts no more: the fixture is void): it has no tables
        # to be added up from again, should the void be undone.
        FixtureResult.objects.filter(fixture=fixture, imported=False).delete()
        return None
    if fixture.status == Fixture.Status.WALKOVER:
        to = match.HOME if fixture.walkover_to == Fixture.Side.HOME else match.AWAY
        return result_store(fixture=fixture, result=match.walkover_result(match_format, to))

    tables = _table_cards(fixture)
    if not tables:
        imported = FixtureResult.objects.filter(fixture=fixture, imported=True).first()
        if imported is None:
            FixtureResult.objects.filter(fixture=fixture).delete()
            return None
        # An imported result stands as the league's records gave it (a void undone).
        if imported.is_final and fixture.status in Fixture.TO_PLAY:
            fixture.status = Fixture.Status.PLAYED
            fixture.save(update_fields=["status", "updated_at"])
        return imported
    result = match.match_result([card for _, card in tables], match_format)
    played = [table for table, _ in tables]
    _store_tables(played, result)
    stored = result_store(fixture=fixture, result=result, tables=played)

    if result.is_final and fixture.status in Fixture.TO_PLAY:
        fixture.status = Fixture.Status.PLAYED
        fixture.save(update_fields=["status", "updated_at"])
    elif not result.is_final and fixture.status == Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.SCHEDULED
        fixture.save(update_fields=["status", "updated_at"])
    return stored


@transaction.atomic
def table_link_reissue(*, table: FixtureTable, by: Account = None) -> FixtureTable:
    """A lost or leaked fixture card: the table's link is revoked and a new one issued; the
    table's games follow the new link. Refused for a table entered from the score card."""
    require_secretary(by, table.fixture.division.season.league)
    from scoring.services.links import _scoring_link_reissue

    # Locked first and read after (``config.locks`` says why): a re-issue posted twice
    # re-issues the link the first one made, where a read that waited for the lock would see no
    # link and make another, leaving the first one's working.
    lock_rows(FixtureTable.objects.filter(pk=table.pk))
    table = FixtureTable.objects.select_related(
        "scoring_link", "fixture__division__season__league", "fixture__home", "fixture__away"
    ).get(pk=table.pk)
    fixture = table.fixture
    if table.from_card:
        # Nobody scores it (entering the card revoked any link it had, ``leagues.services.cards``),
        # as nobody seats it (``leagues.services.seating``): a new link would wait for nothing.
        raise ValidationError(
            f"Table {table.board} is entered from the score card: it has no scoring link."
        )
    if table.scoring_link is None:
        table.scoring_link = _new_table_link(fixture, table.board, by=by)
    else:
        table.scoring_link = _scoring_link_reissue(link=table.scoring_link, by=by)
    table.save(update_fields=["scoring_link"])
    audit_log(
        league=fixture.division.season.league,
        fixture=fixture,
        action=AuditEntry.Action.LINK_REISSUED,
        subject=f"Scoring link of table {table.board} re-issued",
        by=by,
    )
    return table


def _table_link_follow(*, old: ScoringLink, new: ScoringLink) -> int:
    """Point the tables that held ``old`` at its re-issued ``new``; returns how many moved. A
    step of ``scoring.services.links._scoring_link_reissue``, whose callers check permission."""
    return FixtureTable.objects.filter(scoring_link=old).update(scoring_link=new)


@transaction.atomic
def table_link_revoke(*, table: FixtureTable, by: Account = None) -> FixtureTable:
    """Stop a table's link working without a replacement (re-issue when play resumes)."""
    require_secretary(by, table.fixture.division.season.league)
    from scoring.services.links import _scoring_link_revoke

    table = FixtureTable.objects.select_related(
        "scoring_link", "fixture__division__season__league"
    ).get(pk=table.pk)
    if table.scoring_link is not None:
        _scoring_link_revoke(link=table.scoring_link)
        audit_log(
            league=table.fixture.division.season.league,
            fixture=table.fixture,
            action=AuditEntry.Action.LINK_REVOKED,
            subject=f"Scoring link of table {table.board} revoked",
            by=by,
        )
    return table
