"""A race tie's result for the league's agreement rules (``leagues.services.agreement``): the
figures its games give and who speaks for each side. Used by ``cups.services.ties`` (the table
puts the result forward when the deciding game is won) and ``cups.services.confirmation`` (the
sides agree or dispute it, a secretary confirms, settles or reopens it)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from cups.models import Tie, TieResult
from cups.permissions import tie_sides
from leagues import match
from leagues.audit import audit_log
from leagues.models import ConfirmedAs
from leagues.services import agreement
from scoring.actors import Account
from scoring.models import GameStatus, ScoringLink


def race_figures(tie: Tie) -> dict[str, Any]:
    """The tie as its finished games give it: games won by each side, the side with enough
    (or ""), and each game's number, winner and score (what both sides agree to)."""
    games = [
        tg
        for tg in tie.games.select_related("game").prefetch_related("game__sides")
        if not tg.is_playoff and tg.game.status == GameStatus.WON
    ]
    home = sum(1 for tg in games if tg.game.winner == "A")
    away = sum(1 for tg in games if tg.game.winner == "B")
    winner = match.race_winner(home, away, tie.competition.games_to_win)
    played = []
    for tg in sorted(games, key=lambda tg: tg.number):
        scores = {side.label: side.score for side in tg.game.sides.all()}
        played.append([tg.number, tg.game.winner, scores.get("A", 0), scores.get("B", 0)])
    return {"home": home, "away": away, "winner": str(winner), "games": played}


def about_tie(tie: Tie, after: Any) -> dict[str, Any]:
    """An audit entry's ``after`` naming its tie (``"tie": pk``), as ``tie_state`` does: the
    tie's audit page (``cups.selectors.tie_audit``) finds its entries by it."""
    if isinstance(after, dict):
        return {"tie": tie.pk} | after
    return {"tie": tie.pk} if after is None else {"tie": tie.pk, "state": after}


class TieTerms(agreement.Terms):
    """A race tie, for the shared rules: a player of each side (or its team's captain) agrees
    for it; the tie's scoring link closes while its result counts."""

    agreed_as = ConfirmedAs.SIDES
    agreer = "player (or team captain) of a side"

    def __init__(self, tie: Tie) -> None:
        self.tie = tie
        self.league = tie.competition.league

    def __str__(self) -> str:
        return f"{self.tie.competition.name}: {self.tie.home_name} v {self.tie.away_name}"

    def sides_of(self, user: Account) -> set[str]:
        return tie_sides(user, self.tie)

    def side_label(self, side: str) -> str:
        return self.tie.home_name if side == Tie.Side.HOME else self.tie.away_name

    def figures(self) -> dict[str, Any]:
        return race_figures(self.tie)

    def submissions(self) -> QuerySet[TieResult]:
        return TieResult.objects.filter(tie=self.tie)

    def create(self, **fields: Any) -> TieResult:
        return TieResult.objects.create(tie=self.tie, **fields)

    def links(self) -> QuerySet[ScoringLink]:
        return ScoringLink.objects.filter(pk=self.tie.scoring_link_id)

    def audit(
        self,
        *,
        action: str,
        subject: str,
        before: Any,
        after: Any,
        by: Account,
        link: ScoringLink | None,
    ) -> None:
        audit_log(
            league=self.league,
            action=action,
            subject=subject,
            before=before,
            after=about_tie(self.tie, after),
            by=by,
            link=link,
        )
