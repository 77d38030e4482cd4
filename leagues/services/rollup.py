"""What follows a change to a fixture's games, status or agreement: one function, in order.

::

    hand recorded, corrected, undone    scoring.services.hands ─► GameChanged ─► game_changed
    game abandoned                      scoring.services.games ─┘      │ a cup tie's game:
                                                                        │   cups.services.ties
                                                                        │ a table's won game
                                                                        │   back in play: the
                                                                        │   games after it go
                                                                        │   (refused once one
                                                                        │   has a hand)
    walkover, void, withdrawal          leagues.services.fixtures,     ▼
    result submitted, agreed, settled   .withdrawal, .confirmation ─► roll_up(FixtureChanged)
                                                                        1. match engine
                                                                        2. stored result,
                                                                           pairs' figures
                                                                        3. agreement
                                                                        4. the table's next game
                                                                        5. cup tie progress
                                                                        6. stored standings
                                                                        7. cache versions
                                                                        8. notices, after commit
                                                                        ─► RolledUp: what changed

Each step is one call into the module that owns it; nothing here is done by a signal or a
``save()``. Everything runs inside the caller's transaction, with the fixture's row locked.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from leagues.fragments import invalidate_league, invalidate_live
from leagues.models import Fixture, FixtureResult, TableGame
from leagues.services import confirmation, figures, results, standings
from scoring.actors import SYSTEM, Actor
from scoring.changes import GameChanged


@dataclass(frozen=True)
class FixtureChanged:
    """A fixture changed: ``recount`` when its games or its status did (the engine adds its
    tables up again), not when only the agreement did; ``table_game`` the game at one of its
    tables that was won (the table may start its next game); ``actor`` who changed the games
    or the agreement (an account, a table's scoring link, or the system), as the audit entries
    the roll-up writes name them (a recount's, a cup tie's); ``settling`` when a secretary
    settling a dispute with the score card changed the games: the disputed result gives way to
    the settled one (``confirmation.result_settle_with_card``, one audit entry and one notice
    saying so), and is not withdrawn here on its own as if the games had changed under it;
    ``why`` what changed the games, in words ("a hand was corrected at table 2"): why a result
    they no longer give is withdrawn, as its captains are told it ("the games changed" when
    not given)."""

    fixture: Fixture
    actor: Actor = SYSTEM
    recount: bool = True
    table_game: TableGame | None = None
    settling: bool = False
    why: str = ""


def game_changed(change: GameChanged) -> None:
    """A scored game changed (the scoring services call this inside their transaction): a game
    at a fixture's table rolls its fixture up; a cup tie's game moves its tie on. A hand in the
    middle of a game changes no result: only the pages that show games as they stand go (a
    team tie's play-off game's: its fixture's page, which says it is being played).

    A table's won game back in play (its winning hand undone or corrected) is the table's one
    game in play: the games started after it go first, before the fixture is locked
    (``results.table_game_back_in_play``: ``GameMovedOn``, and nothing changed, once one of
    them has a hand)."""
    table_game = results.table_game_of(change.game)
    if table_game is not None:
        fixture = table_game.table.fixture
        if not change.finished_game_changed:
            invalidate_live(fixture.division.season.league_id, fixture.pk)
            return
        if change.back_in_play:
            results.table_game_back_in_play(table_game=table_game, actor=change.actor)
        roll_up(
            FixtureChanged(
                fixture=fixture,
                actor=change.actor,
                table_game=table_game if change.game.status == "won" else None,
                why=f"{change.what} at table {table_game.table.board}" if change.what else "",
            )
        )
    elif hasattr(change.game, "cup_game"):
        from cups.services.ties import tie_game_changed, tie_playoff_changed

        if change.game.cup_game.is_playoff:
            # Its tie's fixture page says whether it is being played at the table.
            tie_playoff_changed(tie_id=change.game.cup_game.tie_id)
        if change.finished_game_changed:
            tie_game_changed(game=change.game, actor=change.actor)


@dataclass(frozen=True)
class RolledUp:
    """What a fixture's roll-up changed: ``result`` the stored result now (None: none, as for
    a void fixture); ``result_changed`` whether the figures the engine gives moved (False when
    the games were not added up again); ``next_game`` the game a table started;
    ``tie_changed`` whether the cup tie played as the fixture moved (score, status, winner);
    ``standings_refreshed`` whether the division's stored table was refreshed;
    ``entries_logged`` the audit entries the agreement step wrote, each of which sends its
    notices once the transaction commits."""

    fixture: Fixture
    result: FixtureResult | None
    result_changed: bool = False
    next_game: TableGame | None = None
    tie_changed: bool = False
    standings_refreshed: bool = False
    entries_logged: int = 0


@transaction.atomic
def roll_up(change: FixtureChanged) -> RolledUp:
    """Everything a fixture's change moves, in this order; what it changed."""
    fixture = results.lock_fixture(change.fixture)
    stored = FixtureResult.objects.filter(fixture=fixture).first()
    was_final = stored is not None and stored.is_final
    result_changed, next_game, logged = False, None, 0
    if change.recount:
        before = confirmation.result_figures(stored)
        # 1–2. The match engine adds the tables up; the result and the tables are stored.
        stored = results.fixture_result_store(fixture)
        after = confirmation.result_figures(stored)
        #    Each pair's figures at the tables, which the player statistics add up.
        figures.store_figures(fixtures=[fixture.pk])
        result_changed = before != after
        # 3. An open submission that no longer describes the games is withdrawn; a counted
        #    result a secretary changed keeps counting, logged. A dispute settled with the
        #    card: the settlement replaces the disputed result (``settling``).
        if not change.settling:
            logged = confirmation.result_changed(
                fixture=fixture, before=before, after=after, actor=change.actor, why=change.why
            )
        # 4. A table still undecided starts its next game.
        if change.table_game is not None:
            next_game = results.table_next_game(table_game=change.table_game, fixture=fixture)
    # 5. A cup tie played as this fixture follows it (its winner goes through once it counts).
    tie_changed = False
    if fixture.kind == Fixture.Kind.CUP:
        from cups.services.ties import tie_fixture_changed

        tie_changed = tie_fixture_changed(fixture_id=fixture.pk, actor=change.actor)
    # 6. Stored standings: the division's table follows, in this transaction, when what
    #    counts may have moved (a result that is or was final, a fixture voided, or the
    #    agreement or the status changed); a game won in a match still in play moves nothing.
    refresh = (
        change.recount is False
        or fixture.status == Fixture.Status.VOID
        or was_final
        or (stored is not None and stored.is_final)
    )
    if refresh:
        standings.refresh_fixture_table(fixture=fixture)
    # 7. Every cached page of the league is out of date.
    invalidate_league(fixture.division.season.league_id)
    # 8. Notices: whoever an audit entry written above concerns is emailed once this
    #    transaction commits (``leagues.audit.audit_log`` schedules it with the entry).
    return RolledUp(
        fixture=fixture,
        result=stored,
        result_changed=result_changed,
        next_game=next_game,
        tie_changed=tie_changed,
        standings_refreshed=refresh,
        entries_logged=logged,
    )
