"""Ties: readying them, rolling their results up, sending winners through, and the secretary's
walkovers, postponements, settlements and reversals.

A team tie is played as a ``leagues.Fixture`` of kind "cup": ``tie_fixture_changed`` follows its
status, result and confirmation (a result counts once both sides agreed, or as a walkover). A
race tie (pairs or players, best of N) is played game by game through the tie's scoring link:
``tie_game_changed`` counts the games won and starts the next game until one side has
⌈N/2⌉; then the tie's link puts the result forward (a ``TieResult``) and it counts once both
sides agreed or a secretary confirmed it (``cups.services.confirmation``), by the league's
own rules.  A drawn team match goes to the competition's decider (aggregate pegs, then hang
jacks, then a play-off game).

The winner goes through as soon as the result counts.  A later change of winner is refused
once the next round's tie has started (a game begun at it), unless the secretary reverses that
tie first (``tie_reverse``).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.text import capfirst

from config.locks import lock_rows
from cups.models import (
    PLAYOFF_HANDS_STAND,
    PLAYOFF_WON_AT_TABLE,
    PLAYOFF_WON_DECIDES,
    SETTLED,
    UNARRANGED,
    Competition,
    Entrant,
    Round,
    Tie,
    TieGame,
    TieResult,
)
from cups.permissions import can_give_playoff, can_manage_competition
from cups.services.results import TieTerms, race_figures
from leagues import match
from leagues.audit import audit_log
from leagues.days import long_date
from leagues.fragments import invalidate_league, invalidate_live
from leagues.models import (
    AuditEntry,
    Fixture,
    FixtureResult,
    Outcome,
    ResultSubmission,
    TeamEntry,
)
from leagues.schedule import league_nights
from leagues.selectors.fixtures import boards_begun
from leagues.selectors.people import name_people, person_name
from leagues.services import agreement
from leagues.services.fixtures import (
    nights_free_for,
    refuse_begun,
    refuse_clash,
    refuse_fixture_clash,
)
from leagues.services.results import (
    gone_words,
    later_games_go,
    taken_away_named,
    taken_away_words,
)
from scoring.actors import SYSTEM, Account, Actor
from scoring.models import Game, GameStatus, Hand, ScoringLink
from scoring.services import GameMovedOn

Status = Tie.Status
HOME, AWAY = Tie.Side.HOME, Tie.Side.AWAY


class WinnerLocked(GameMovedOn, ValidationError):
    """A change of a tie's winner after the next round's tie started: refused, nothing saved.

    Both a ``ValidationError`` (the leagues and cups pages show it) and a ``GameMovedOn`` (the
    scoring page shows it when the change came from a hand corrected at the table)."""

    def __init__(self, message: str) -> None:
        ValidationError.__init__(self, message)
        self.message = message
        self.game = None


def tie_state(tie: Tie) -> dict[str, Any]:
    """The tie as its audit entries record it; ``tie`` is how the tie's audit page finds them."""
    return {
        "tie": tie.pk,
        "home": tie.home_id,
        "away": tie.away_id,
        "status": tie.status,
        "score": [tie.home_score, tie.away_score],
        "winner": tie.winner,
        "decided_by": tie.decided_by,
        "playoff": None if tie.playoff_home is None else [tie.playoff_home, tie.playoff_away],
    }


def lock_tie(tie: Tie | int) -> Tie:
    """The tie, locked for the change (its row only), with what the services read of it.

    The row is locked first and read after (``config.locks`` says why): a winner sent through
    by another tie a moment ago is then read with its entrant, where a read that waited for
    the lock would see the new entrant's id but not the entrant."""
    pk = tie if isinstance(tie, int) else tie.pk
    lock_rows(Tie.objects.filter(pk=pk))
    return Tie.objects.select_related(
        "competition__league",
        "competition__season",
        "round",
        "home__team",
        "away__team",
        "home__player_1",
        "home__player_2",
        "away__player_1",
        "away__player_2",
        "fixture",
    ).get(pk=pk)


def _require_manager(tie: Tie, by: Account) -> None:
    if not can_manage_competition(by, tie.competition):
        raise PermissionDenied(f"Only the secretaries of {tie.competition.league} run its cups.")


def _audit(
    tie: Tie,
    action: str,
    subject: str,
    before: Any,
    by: Account,
    link: ScoringLink | None = None,
    *,
    said: str = "",
) -> None:
    """The tie's change in the league's audit trail; ``said``: what the notices of it say
    happened (``notices.notices``)."""
    audit_log(
        league=tie.competition.league,
        fixture=tie.fixture,
        action=action,
        subject=subject,
        before=before,
        after={**tie_state(tie), "said": said} if said else tie_state(tie),
        by=by,
        link=link,
    )


def entrants_known(tie: Tie) -> bool:
    """Whether the tie has two entrants to play: not a bye, and neither still to come."""
    return tie.status != Status.BYE and tie.home_id is not None and tie.away_id is not None


def _require_entrants(tie: Tie, doing: str) -> None:
    """Refuse ``doing`` (say "postpone") for a bye or a tie whose entrants are still to come."""
    if tie.status == Status.BYE:
        raise ValidationError(
            f"Cannot {doing}: {tie.home_name} has a bye into the next round, so there is no "
            "tie to play. Nothing was changed."
        )
    if not entrants_known(tie):
        raise ValidationError(
            f"Cannot {doing}: the entrants of this tie ({tie.home_name} v {tie.away_name}) are "
            "not known yet; it waits for the winners of the earlier ties. Nothing was changed."
        )


def tie_started(tie: Tie) -> bool:
    """Whether play has begun: a hand recorded, a game begun at a table, or a result given."""
    if tie.status in (Status.PLAYED, Status.WALKOVER):
        return True
    if tie.fixture_id is not None:
        fixture = tie.fixture
        assert fixture is not None
        return fixture.status in (Fixture.Status.PLAYED, Fixture.Status.WALKOVER) or bool(
            boards_begun(fixture)
        )
    return Hand.objects.filter(game__cup_game__tie=tie).exists()


def offered_actions(tie: Tie) -> list[str]:
    """The secretary's decisions the tie's page offers, each one the services can take now: none
    for a bye or a tie still to come; a walkover while undecided, a postponement while still to
    play, a settlement for a race tie only (a team tie is settled on its fixture), a reversal
    once play began."""
    actions = []
    if entrants_known(tie):
        if not tie.is_decided:
            actions.append("walkover")
        if tie.status == Status.SCHEDULED:
            actions.append("postpone")
        if tie.fixture_id is None:
            actions.append("settle")
    if tie.status != Status.BYE and (tie.is_decided or tie_started(tie)):
        actions.append("reverse")
    return actions


# --- readying a tie --------------------------------------------------------------------------


def _make_fixture(tie: Tie, *, date: datetime.date | None = None) -> Fixture:
    """The league fixture (kind "cup") a team tie is played as, at the home team's pub, on a
    night that fits the season's calendar as re-arranging a fixture asks (``nights_free_for``,
    ``refuse_clash``: neither team already on that night, league or cup, the pub not full):

    - a group tie (``date``, its night in its group's round robin): on the first league night
      from then on which both teams are free and the pub has room, nights off skipped;
    - a knock-out tie of a round with a night: on it, when it fits; when it does not, the tie
      is not booked on top of the other match but waits for the secretary to arrange it: its
      fixture is postponed, no new date yet, its reason naming the clash (``UNARRANGED``), and
      the cup's manage page lists it (``ties_to_arrange``);
    - a knock-out tie of a round with only a deadline: on the first league night from today,
      on or before the deadline, on which both teams are free and the pub has room
      (``_night_by_deadline``); when there is none, it waits so, its reason saying why;
    - a round with neither: on the first league night from today (not before the season
      starts) on which both teams are free and the pub has room."""
    competition = tie.competition
    assert tie.home is not None and tie.away is not None
    home, away = tie.home.team, tie.away.team
    assert home is not None and away is not None
    season = competition.season
    entry = TeamEntry.objects.filter(team=home, season=season).select_related("division").first()
    if entry is None:
        raise ValidationError(f"{home} has not entered {season.name}.")
    venue = home.home_venue
    rnd = tie.round
    reason = ""
    if date is None and rnd is not None and rnd.date is not None:
        date = rnd.date
        reason = _round_night_unsuited(
            rnd, date, division=entry.division, home=home, away=away, venue=venue
        )
    elif date is None and rnd is not None and rnd.deadline is not None:
        night, why = _night_by_deadline(rnd, home=home, away=away, venue=venue)
        date, reason = (night, "") if night is not None else (rnd.deadline, _waiting(why))
    else:
        date = nights_free_for(
            season=season,
            home=home.pk,
            away=away.pk,
            venue=venue.pk,
            start=season.starts_on if date is None else date,
        )[0]
    return Fixture.objects.create(
        division_id=entry.division_id,
        kind=Fixture.Kind.CUP,
        home=home,
        away=away,
        date=date,
        time=competition.league.start_time,
        venue=venue,
        note=f"{competition.name}, {_round_name(tie)}",  # as its calendar event says it
        **(
            {"status": Fixture.Status.POSTPONED, "original_date": date, "reason": reason}
            if reason
            else {}
        ),
    )


def _round_night_unsuited(
    rnd: Round,
    date: datetime.date,
    *,
    division: Any,
    home: Any,
    away: Any,
    venue: Any,
    exclude: int | None = None,
) -> str:
    """Why a tie of ``rnd`` (``home`` v ``away`` at ``venue``, its fixture ``exclude`` when it
    has one) cannot be booked on the round's night ``date``, as re-arranging a fixture onto it
    would be refused (``refuse_clash``), as its postponed fixture's reason says it: "No night
    yet: the Semi-finals night, Tue 8 Dec 2026, does not suit it. Woolpack is already on that
    night (…). The secretary arranges its night."; "" when it fits."""
    try:
        refuse_clash(
            division=division,
            date=date,
            home=home,
            away=away,
            venue=venue,
            exclude=exclude,
            kind=Fixture.Kind.CUP,
        )
    except ValidationError as exc:
        return (
            f"{UNARRANGED}: the {rnd.name} night, {long_date(date)}, does not suit it. "
            f"{' '.join(exc.messages)} The secretary arranges its night."
        )
    return ""


def _night_by_deadline(
    rnd: Round, *, home: Any, away: Any, venue: Any, moving: int | None = None
) -> tuple[datetime.date | None, str]:
    """The night a tie of ``rnd``, a round with only a deadline, is played on (``home`` v
    ``away`` at ``venue``, its fixture ``moving`` left out when it has one): the first league
    night from today, on or before the deadline, on which both teams are free and the pub has
    room (``nights_free_for``, the check a re-arrangement makes), with "". None when there is
    no such night, with why, as a clause: "the Quarter-finals deadline, Sun 22 Nov 2026, has
    passed"; "there is no league night by the Quarter-finals deadline, Mon 9 Nov 2026";
    "no league night by the Quarter-finals deadline, Tue 8 Dec 2026, has both teams free and
    room at Woolpack (the first that has is Tue 15 Dec 2026)"."""
    season = rnd.competition.season
    deadline = rnd.deadline
    assert deadline is not None
    where = {"home": home.pk, "away": away.pk, "venue": venue.pk}
    night = nights_free_for(season=season, start=season.starts_on, moving=moving, **where)[0]
    if night <= deadline:
        return night, ""
    set_as = f"the {rnd.name} deadline, {long_date(deadline)}"
    today = season.league.today()
    if deadline < today:
        return None, f"{set_as}, has passed"
    first = next(league_nights(max(today, season.starts_on), season.night, season.excluded_dates))
    if first > deadline:
        return None, f"there is no league night by {set_as}"
    return None, (
        f"no league night by {set_as}, has both teams free and room at {venue} (the first "
        f"that has is {long_date(night)})"
    )


def _waiting(why: str) -> str:
    """The reason of a tie's fixture waiting for a night (``UNARRANGED``), ``why`` being a
    clause of ``_night_by_deadline``'s."""
    return f"{UNARRANGED}: {why}. The secretary arranges its night."


def _race_game_start(tie: Tie, *, by: Account = None, playoff: bool = False) -> TieGame:
    from scoring.services import game_start
    from scoring.services.links import _scoring_link_create

    competition = tie.competition
    assert tie.home is not None and tie.away is not None
    if tie.scoring_link is None:
        tie.scoring_link = _scoring_link_create(
            label=f"{competition.name}: {tie.home.name} v {tie.away.name}",
            next_url=reverse("cups:tie", kwargs={"pk": tie.pk}),
            by=by,
        )
        Tie.objects.filter(pk=tie.pk).update(scoring_link=tie.scoring_link)
    number = tie.games.count() + 1
    title = f"{competition.name}: {tie.home.name} v {tie.away.name}, " + (
        "play-off game" if playoff else f"game {number}"
    )
    # The players as every page names them: two of one name told apart.
    name_people([*tie.home.players, *tie.away.players])
    game = game_start(
        ruleset=competition.league.get_ruleset(),
        sides=[
            (tie.home.name, [p.label for p in tie.home.players]),
            (tie.away.name, [p.label for p in tie.away.players]),
        ],
        first_dealer="A" if number % 2 else "B",
        title=title,
        by=by,
        scoring_link=tie.scoring_link,
    )
    return TieGame.objects.create(
        tie=tie, game=game, number=number, is_playoff=playoff, started_by=by
    )


def _ready(tie: Tie, *, by: Account = None, date: datetime.date | None = None) -> None:
    """Both entrants known: the tie is to play (a cup fixture, or a race's first game);
    ``date``, a group tie's night in its group's round robin."""
    tie.status = Status.SCHEDULED
    tie.save(update_fields=["status", "updated_at"])
    if tie.competition.tie_format == Competition.TieFormat.MATCH:
        if tie.fixture_id is None:
            tie.fixture = _make_fixture(tie, date=date)
            tie.save(update_fields=["fixture", "updated_at"])
        if tie.fixture.status == Fixture.Status.POSTPONED:  # no night for it yet
            tie.status, tie.reason = Status.POSTPONED, tie.fixture.reason
            tie.save(update_fields=["status", "reason", "updated_at"])
    elif not tie.games.exists():
        _race_game_start(tie, by=by)


def _unready(tie: Tie, *, by: Account) -> None:
    """An entrant changed before play began: drop the fixture or the unplayed games."""
    if tie.fixture_id is not None:
        fixture = tie.fixture
        tie.fixture = None
        tie.save(update_fields=["fixture", "updated_at"])
        assert fixture is not None
        fixture.delete()
    _drop_unplayed_games(tie, why="an entrant changed before play began", by=by)


def _drop_unplayed_games(
    tie: Tie, *, why: str, by: Account, games: QuerySet[TieGame] | None = None
) -> None:
    """A race tie that will not be played as it stands (its entrant changed, or a walkover
    given before a hand was recorded): its games (``games``: those of them), none begun, go,
    with an audit entry naming them (a phone still on one is told it is no longer kept), and
    its scoring link stops working; a reversal readies it again (a new game 1, a new link)."""
    games = tie.games.all() if games is None else games
    gone = dict(games.order_by("number").values_list("number", "game_id"))
    Game.objects.filter(pk__in=gone.values()).delete()
    if gone:
        audit_log(
            league=tie.competition.league,
            fixture=tie.fixture,
            action=AuditEntry.Action.GAME_TAKEN_AWAY,
            subject=f"{tie}: {gone_words(list(gone))}: {why}",
            before={"tie": tie.pk, "in_play": f"game {max(gone)}"},
            after={"tie": tie.pk, "in_play": ""} | taken_away_named(gone),
            by=by,
        )
    if tie.scoring_link_id is not None:
        from scoring.services.links import _scoring_link_revoke

        _scoring_link_revoke(link=tie.scoring_link)  # type: ignore[arg-type]
        tie.scoring_link = None
        tie.save(update_fields=["scoring_link", "updated_at"])


def _next_tie(tie: Tie) -> tuple[Tie, str] | None:
    if tie.round is None:
        return None
    nxt = (
        Tie.objects.filter(
            competition=tie.competition_id,
            round__number=tie.round.number + 1,
            position=tie.position // 2,
        )
        .select_related("competition__league", "competition__season", "round", "fixture")
        .first()
    )
    if nxt is None:
        return None
    return lock_tie(nxt), HOME if tie.position % 2 == 0 else AWAY


def _round_name(tie: Tie) -> str:
    return tie.round.name if tie.round else str(tie.group)


def _send_through(tie: Tie, *, by: Account = None) -> None:
    """Put the tie's winner (or nobody, if undecided) into its place in the next round."""
    entrant = tie.winning_entrant
    found = _next_tie(tie)
    competition = tie.competition
    if found is None:
        if tie.round is None:
            return
        winner_id = entrant.pk if entrant else None
        if competition.winner_id != winner_id:
            competition.winner = entrant
            competition.stage = (
                Competition.Stage.FINISHED if entrant else Competition.Stage.KNOCKOUT
            )
            competition.save(update_fields=["winner", "stage"])
        return
    nxt, side = found
    current = getattr(nxt, f"{side}_id")
    wanted = entrant.pk if entrant else None
    if current == wanted:
        return
    if tie_started(nxt):
        raise WinnerLocked(
            f"That would change who goes through from {tie.home_name} v {tie.away_name}, but "
            f"the next tie ({nxt.home_name} v {nxt.away_name}, {_round_name(nxt)}) "
            "has started: the secretary reverses that tie first. Nothing was changed."
        )
    _unready(nxt, by=by)
    setattr(nxt, side, entrant)
    nxt.status = Status.WAITING
    nxt.winner = ""
    nxt.home_score = nxt.away_score = 0
    nxt.decided_by = ""
    nxt.save()
    if nxt.home_id is not None and nxt.away_id is not None:
        _ready(nxt, by=by)
    # Its winner (none now) follows on.
    _send_through(nxt, by=by)


# --- rolling results up ----------------------------------------------------------------------


def _decide_drawn_match(tie: Tie, result: FixtureResult) -> tuple[str, str]:
    """The competition's decider for a drawn team match (the match engine's): (winner or "",
    how). A play-off game is started when the decider comes to one and none is under way."""
    playoff = tie.games.filter(is_playoff=True).select_related("game").first()
    playoff_won = playoff is not None and playoff.game.status == GameStatus.WON
    winner: match.Side | None = None
    if tie.playoff_home is not None and tie.playoff_away is not None:
        # Typed from the score card (``tie_playoff_enter``): its higher score won it.
        winner = match.HOME if tie.playoff_home > tie.playoff_away else match.AWAY
    elif playoff is not None and playoff_won:
        winner = match.HOME if playoff.game.winner == "A" else match.AWAY
    decision = match.decide_drawn_match(
        tie.competition.decider,
        pegs=(result.home_pegs, result.away_pegs),
        hang_jacks=(result.home_hang_jacks, result.away_hang_jacks),
        playoff_winner=winner,
    )
    if decision.playoff_needed and (playoff is None or playoff.game.status == GameStatus.ABANDONED):
        _race_game_start(tie, playoff=True)
    return decision.winner, decision.how


def playoff_due(tie: Tie, result: FixtureResult | None) -> bool:
    """Whether the tie's match as ``result`` adds it up is level and its competition's decider
    comes to a play-off game (the match engine's ``decide_drawn_match``): a knock-out team
    tie only, a group match staying drawn."""
    if tie.round is None or result is None or result.outcome != Outcome.DRAW:
        return False
    return match.decide_drawn_match(
        tie.competition.decider,
        pegs=(result.home_pegs, result.away_pegs),
        hang_jacks=(result.home_hang_jacks, result.away_hang_jacks),
    ).playoff_needed


def playoff_problems(tie: Tie, *, home: int, away: int) -> list[str]:
    """What is wrong with a play-off game's final score typed from the card, checked as a
    table's game is (``Ruleset.final_score_problems``): one side at the target, no draw."""
    assert tie.fixture is not None
    ruleset = tie.fixture.division.season.get_ruleset()
    return [f"Play-off game ({home}–{away}): {p}" for p in ruleset.final_score_problems(home, away)]


def take_playoff_from_card(tie: Tie, score: tuple[int, int] | None, *, by: Account) -> None:
    """Keep the play-off game's score from the card on the (locked) tie, its score checked by
    the caller (``playoff_problems``). A play-off game readied for a phone and not begun goes
    (its link stops working); one with a hand scored on a phone is refused: it stands, and
    one won at the table (``Tie.playoff_won_at_table``: its result reopened) decides the tie.
    ``score`` None, the card's play-off boxes left blank: it carries no play-off score, and
    one kept from before goes (``_playoff_withdraw``)."""
    if score is None:
        if tie.playoff_home is not None:
            _playoff_withdraw(
                tie, why="the score card was entered with its play-off boxes blank", by=by
            )
        return
    if tie.playoff_won_at_table:
        raise ValidationError(
            f"{capfirst(PLAYOFF_WON_AT_TABLE)}: {PLAYOFF_WON_DECIDES}. Nothing was changed."
        )
    phone = tie.games.filter(is_playoff=True).exclude(game__status=GameStatus.ABANDONED)
    if Hand.objects.filter(game__cup_game__in=phone).exists():
        raise ValidationError(
            f"A phone has scored hands of the play-off game: {PLAYOFF_HANDS_STAND}. "
            "Nothing was changed."
        )
    _drop_unplayed_games(tie, why="the score card gives the play-off game", by=by, games=phone)
    tie.playoff_home, tie.playoff_away = score
    tie.save(update_fields=["playoff_home", "playoff_away", "updated_at"])


def _playoff_withdraw(tie: Tie, *, why: str, by: Account, link: ScoringLink | None = None) -> None:
    """The play-off score kept from the card on the (locked) tie no longer stands (``why``):
    it goes, audited (``playoff_withdrawn``: the captains and the secretaries are told when it
    had decided the tie); the caller's roll-up then moves the tie on without it."""
    before = tie_state(tie)
    home, away = tie.playoff_home, tie.playoff_away
    tie.playoff_home = tie.playoff_away = None
    tie.save(update_fields=["playoff_home", "playoff_away", "updated_at"])
    _audit(
        tie,
        AuditEntry.Action.PLAYOFF_WITHDRAWN,
        f"{tie}: play-off game {home}–{away} withdrawn: {why}",
        before,
        by,
        link,
        said=f"The play-off game's score, {home}–{away}, no longer stands: {why}",
    )


def _playoff_stands_why_not(tie: Tie) -> str:
    """Why the play-off score kept from the card on the tie no longer stands, or "" while it
    does: it stands with the result it was given with (submitted, agreed or counted), while
    that result leaves the match level to a play-off game (``playoff_due``)."""
    fixture = tie.fixture
    assert fixture is not None
    if fixture.status != Fixture.Status.PLAYED:
        return f"the match is {fixture.get_status_display().lower()}"
    submissions = ResultSubmission.objects.filter(fixture=fixture)
    standing = [*ResultSubmission.OPEN_STATUSES, *ResultSubmission.CONFIRMED_STATUSES]
    if not submissions.filter(status__in=standing).exists():
        latest = submissions.order_by("-pk").first()
        if latest is not None and latest.confirmed_at is not None:
            return "its result was reopened"
        return "the result it came with was withdrawn"
    if not playoff_due(tie, FixtureResult.objects.filter(fixture=fixture).first()):
        return "the match no longer goes to a play-off game"
    return ""


@transaction.atomic
def tie_playoff_enter(*, tie: Tie, home: int, away: int, by: Account) -> Tie:
    """A captain of either team, or a secretary (``can_give_playoff``), types the play-off
    game's score from the score card of a team tie whose match counts and is level, waiting
    for its play-off game: the tie is decided by it, as a play-off game scored on a phone
    decides it (audited, by whom). Refused, naming what was wrong, with nothing changed: anyone
    else, a score no game finishes on, a tie not waiting for a play-off game, a play-off game
    already being scored on a phone."""
    tie = lock_tie(tie)
    if not can_give_playoff(by, tie):
        raise PermissionDenied(
            "Only a captain of one of the two teams or a secretary gives the play-off game's "
            "score. Nothing was changed."
        )
    if not tie.playoff_to_come:
        raise ValidationError(
            f"{tie} is not level waiting for a play-off game: there is no play-off score to "
            "give. Nothing was changed."
        )
    problems = playoff_problems(tie, home=home, away=away)
    if problems:
        raise ValidationError([f"{p}. Nothing was changed." for p in problems])
    before = tie_state(tie)
    take_playoff_from_card(tie, (home, away), by=by)
    # The higher score won the game (``playoff_problems``: one side reached the target).
    through = tie.home_name if home > away else tie.away_name
    _audit(
        tie,
        AuditEntry.Action.PLAYOFF_GIVEN,
        f"Score card of {tie}: play-off game {home}–{away} entered",
        before,
        by,
        said=f"{person_name(by)} gave the play-off game's score, {home}–{away}: {through} "
        "go through",
    )
    _refresh(tie, by=by)
    return tie


def _team_outcome(tie: Tie) -> tuple[str, str, int, int]:
    """(winner, how decided, home score, away score) from the tie's fixture as it counts now."""
    fixture = tie.fixture
    assert fixture is not None
    result = FixtureResult.objects.filter(fixture=fixture).first()
    home_score = result.home_match_points if result else 0
    away_score = result.away_match_points if result else 0
    if fixture.status == Fixture.Status.WALKOVER:
        return fixture.walkover_to, "walkover", home_score, away_score
    counts = (
        fixture.status == Fixture.Status.PLAYED
        and result is not None
        and result.is_final
        and ResultSubmission.objects.filter(
            fixture=fixture, status__in=ResultSubmission.CONFIRMED_STATUSES
        ).exists()
    )
    if not counts:
        return "", "", home_score, away_score
    assert result is not None
    if result.outcome == Outcome.HOME:
        return HOME, "", home_score, away_score
    if result.outcome == Outcome.AWAY:
        return AWAY, "", home_score, away_score
    if tie.round is None:
        return "", "draw", home_score, away_score  # a drawn group match stays drawn
    winner, how = _decide_drawn_match(tie, result)
    return winner, how, home_score, away_score


#: A race tie's figures as its games give them, and whether its result counts.
RaceState = tuple[dict[str, Any], bool]


def _race_outcome(tie: Tie, race: RaceState | None) -> tuple[str, int, int]:
    """(winner, home games, away games): the winner only once its result counts."""
    if race is None:
        counts = TieResult.objects.filter(tie=tie, status__in=TieResult.CONFIRMED_STATUSES)
        race = race_figures(tie), counts.exists()
    figures, counted = race
    return figures["winner"] if counted else "", figures["home"], figures["away"]


def _apply(
    tie: Tie, *, winner: str, status: str, home: int, away: int, how: str, by: Account
) -> bool:
    """Store the tie's figures; send the winner through if it changed.  True if anything did."""
    before = (tie.winner, tie.status, tie.home_score, tie.away_score, tie.decided_by)
    after = (winner, status, home, away, how)
    if before == after:
        return False
    winner_changed = tie.winner != winner
    tie.winner, tie.status, tie.home_score, tie.away_score, tie.decided_by = after
    tie.save()
    # The league's cached pages (a player's cup figures) are out of date.
    invalidate_league(tie.competition.league_id)
    if winner_changed:
        _send_through(tie, by=by)
    return True


def _refresh(
    tie: Tie, *, by: Account = None, link: ScoringLink | None = None, race: RaceState | None = None
) -> bool:
    """The tie follows its games or its fixture; whether it changed."""
    if tie.status == Status.BYE:
        return False
    if tie.competition.tie_format == Competition.TieFormat.MATCH:
        if tie.fixture_id is None:
            return False
        assert tie.fixture is not None
        tie.fixture.refresh_from_db()
        # A play-off score from the card goes with the result it was given with.
        why = _playoff_stands_why_not(tie) if tie.playoff_home is not None else ""
        if why:
            _playoff_withdraw(tie, why=why, by=by, link=link)
        winner, how, home, away = _team_outcome(tie)
        if tie.fixture.status == Fixture.Status.POSTPONED:
            status = Status.POSTPONED
        elif tie.fixture.status == Fixture.Status.WALKOVER:
            status = Status.WALKOVER
        elif winner or how == "draw":
            status = Status.PLAYED
        else:
            status = Status.SCHEDULED
    else:
        if tie.status == Status.WALKOVER or tie.decided_by == SETTLED:
            return False
        winner, home, away = _race_outcome(tie, race)
        how = ""
        if winner:
            status = Status.PLAYED
        elif tie.status == Status.POSTPONED:
            status = Status.POSTPONED
        else:
            status = Status.SCHEDULED
    before = tie_state(tie)
    changed = _apply(tie, winner=winner, status=status, home=home, away=away, how=how, by=by)
    if changed and before["winner"] != tie.winner:
        _audit(
            tie,
            "cup_tie_decided" if tie.winner else "cup_tie_undecided",
            f"{tie}: "
            + (tie.winning_entrant.goes_through if tie.winning_entrant else "no longer decided"),
            before,
            by,
            link,
        )
    return changed


@transaction.atomic
def tie_result_counted(*, tie: Tie, by: Account = None) -> None:
    """A race tie's result came to count or stopped counting (``cups.services.confirmation``):
    its winner goes through, or comes back (refused once the next tie has started)."""
    _refresh(lock_tie(tie), by=by)


def _race_result_follows(tie: Tie, *, by: Account, link: ScoringLink | None) -> RaceState:
    """The tie's games changed: an open result that no longer describes them is withdrawn (a
    counted one changed by a secretary keeps counting, logged), and once one side has enough
    games the tie's scoring link puts the result forward for both sides to agree."""
    terms = TieTerms(tie)
    figures = race_figures(tie)
    results = list(TieResult.objects.filter(tie=tie).exclude(status=TieResult.Status.WITHDRAWN))
    if results and results[0].figures != figures:
        agreement.result_changed(terms, before=results[0].figures, after=figures, by=by, link=link)
    if figures["winner"] and not results:
        user = agreement.account(by)
        if tie.scoring_link is not None:
            agreement.submit(terms, link=tie.scoring_link)
        elif user is not None:
            agreement.submit(terms, by=user)
    # Withdrawing an open result (the games changed) never touches a counted one.
    return figures, any(result.is_confirmed for result in results)


@transaction.atomic
def tie_fixture_changed(*, fixture_id: int, actor: Actor = SYSTEM) -> bool:
    """A cup fixture's status, result or confirmation changed, by ``actor``: its tie follows.
    Whether the tie changed (its score, status or winner)."""
    tie_id = Tie.objects.filter(fixture_id=fixture_id).values_list("pk", flat=True).first()
    if tie_id is None:
        return False
    return _refresh(lock_tie(tie_id), by=actor.user, link=actor.link)


def tie_playoff_changed(*, tie_id: int) -> None:
    """A hand of a team tie's play-off game was scored, undone or corrected, or the game
    finished: its fixture's page, which says whether the game is being played at the table
    (``Tie.playoff_at_table``), is out of date."""
    found = Tie.objects.filter(pk=tie_id, fixture__isnull=False)
    for fixture_id, league_id in found.values_list("fixture_id", "competition__league_id"):
        invalidate_live(league_id, fixture_id)


@transaction.atomic
def tie_game_changed(*, game: Game, actor: Actor) -> None:
    """A finished game of a race tie (or a team tie's play-off) changed, by ``actor`` (its
    account or the link it scored through: ``leagues.services.rollup.game_changed``): count the
    games again and, when a game was won and the tie is not decided, start the next one.

    A won game back in play (its winning hand undone or corrected) is the tie's one game in
    play: the games started after it go, before the tie is locked (a hand in one of them locks
    it first, then the tie), and the tie's audit says so; refused (``GameMovedOn``, nothing
    changed) once one has a hand (``leagues.services.results.later_games_go``)."""
    by, link = actor.user, actor.link
    number = game.cup_game.number
    gone: dict[int, int] = {}
    if game.status == GameStatus.IN_PROGRESS:  # a finished game's change: it was won
        later = TieGame.objects.filter(tie_id=game.cup_game.tie_id, number__gt=number)
        gone = later_games_go(later, number=number, where="of this tie")
    tie = lock_tie(game.cup_game.tie_id)
    if gone:
        audit_log(
            league=tie.competition.league,
            fixture=tie.fixture,
            action=AuditEntry.Action.GAME_TAKEN_AWAY,
            subject=f"{tie}: " + taken_away_words(list(gone), game=game, number=number),
            before={"tie": tie.pk, "in_play": f"game {max(gone)}"},
            after={"tie": tie.pk, "in_play": f"game {number}"} | taken_away_named(gone),
            by=by,
            link=link,
        )
    race = tie.competition.tie_format == Competition.TieFormat.RACE
    # A walkover or a secretary's settlement decides the tie, not its games.
    by_games = race and tie.status != Status.WALKOVER and tie.decided_by != SETTLED
    race = _race_result_follows(tie, by=by, link=link) if by_games else None
    _refresh(tie, by=by, link=link, race=race)
    if race is None or race[0]["winner"]:
        return
    if game.status == GameStatus.WON and tie.status in (Status.SCHEDULED, Status.POSTPONED):
        latest = tie.games.order_by("-number").first()
        if latest is not None and latest.game_id == game.pk:
            _race_game_start(tie, by=game.created_by)


# --- the secretary's decisions ---------------------------------------------------------------


@transaction.atomic
def tie_walkover(*, tie: Tie, to: str, reason: str, by: Account) -> Tie:
    """Give the tie to ``to`` ("home" or "away") without play; the winner goes through."""
    tie = lock_tie(tie)
    _require_manager(tie, by)
    _require_entrants(tie, "give a walkover")
    if to not in (HOME, AWAY):
        raise ValidationError("Say which side the walkover goes to.")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give the reason for the walkover.")
    if tie.is_decided:
        raise ValidationError(f"{tie} is already decided; reverse it first.")
    if tie.fixture is not None:
        from leagues.services.fixtures import fixture_walkover

        fixture_walkover(fixture=tie.fixture, to=to, reason=reason, by=by)
        return lock_tie(tie)
    if tie_started(tie):
        raise ValidationError(
            f"Hands have been recorded in {tie}: settle its score or reverse it instead. "
            "Nothing was changed."
        )
    before = tie_state(tie)
    # Its game readied for the scorer was never begun: no game of it stays in progress.
    _drop_unplayed_games(tie, why="a walkover was given", by=by)
    tie.reason = reason
    tie.save(update_fields=["reason"])
    _apply(tie, winner=to, status=Status.WALKOVER, home=0, away=0, how="walkover", by=by)
    _audit(tie, "cup_walkover", f"Walkover to {tie.winning_entrant} in {tie}: {reason}", before, by)
    return tie


@transaction.atomic
def tie_postpone(*, tie: Tie, reason: str, by: Account) -> Tie:
    """Put a tie off; the round's date or deadline still stands for the others."""
    tie = lock_tie(tie)
    _require_manager(tie, by)
    _require_entrants(tie, "postpone")
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give the reason for the postponement.")
    if tie.fixture is not None:
        from leagues.services.fixtures import fixture_postpone

        fixture_postpone(fixture=tie.fixture, reason=reason, by=by)
        return lock_tie(tie)
    if tie.status != Status.SCHEDULED:
        raise ValidationError(f"Only a tie still to play is postponed; {tie} is {tie.status}.")
    if TieResult.objects.filter(tie=tie, status__in=TieResult.OPEN_STATUSES).exists():
        raise ValidationError(
            f"{tie} has been played: its result is waiting for both sides' agreement."
        )
    before = tie_state(tie)
    tie.status = Status.POSTPONED
    tie.reason = reason
    tie.save(update_fields=["status", "reason", "updated_at"])
    _audit(tie, "cup_postponed", f"{tie} postponed: {reason}", before, by)
    return tie


@transaction.atomic
def tie_settle(*, tie: Tie, home: int | None, away: int | None, note: str, by: Account) -> Tie:
    """The secretary decides a race tie's score (games played away from the app, a dispute):
    one side has ⌈N/2⌉ games, the other fewer.  A team tie is settled on its fixture's page."""
    tie = lock_tie(tie)
    _require_manager(tie, by)
    _require_entrants(tie, "settle the score")
    if tie.fixture is not None:
        raise ValidationError(
            "A team tie's score is not settled here: settle it on its fixture's result page, "
            "as in the league. Nothing was changed."
        )
    if home is None or away is None:
        raise ValidationError("Give both sides' games.")
    need = tie.competition.games_to_win
    valid = isinstance(home, int) and isinstance(away, int)
    if not valid or not match.race_final_score(home, away, need):
        raise ValidationError(
            f"A best of {tie.competition.best_of} tie ends when one side has {need} games and "
            f"the other fewer; {home}–{away} is not such a score."
        )
    note = note.strip()
    if not note:
        raise ValidationError("Say how the tie was settled: both sides read it.")
    if TieResult.objects.filter(tie=tie, status__in=TieResult.CONFIRMED_STATUSES).exists():
        raise ValidationError(
            f"The result of {tie} counts already (agreed or confirmed): reopen it first, "
            "or reverse the tie."
        )
    before = tie_state(tie)
    agreement.withdraw_open(
        TieTerms(tie), why="the secretary settled the tie", after=None, by=by, link=None
    )
    tie.reason = note
    tie.save(update_fields=["reason"])
    _apply(
        tie,
        winner=HOME if home > away else AWAY,
        status=Status.PLAYED,
        home=home,
        away=away,
        how=SETTLED,
        by=by,
    )
    for tie_game in tie.games.select_related("game").filter(game__status=GameStatus.IN_PROGRESS):
        from scoring.services import game_abandon

        game_abandon(game=tie_game.game, actor=Actor.of(by))
    _audit(tie, "cup_settled", f"{tie} settled {home}–{away}: {note}", before, by)
    return lock_tie(tie)


@transaction.atomic
def tie_reverse(*, tie: Tie, reason: str, by: Account) -> Tie:
    """Take a tie back to the start (its games set aside, its fixture voided), so that a
    corrected result of an earlier round can change who plays in it."""
    tie = lock_tie(tie)
    _require_manager(tie, by)
    reason = reason.strip()
    if not reason:
        raise ValidationError("Give the reason for reversing the tie.")
    if tie.status == Status.BYE or not (tie_started(tie) or tie.is_decided):
        raise ValidationError(f"{tie} has not started: there is nothing to reverse.")
    found = _next_tie(tie)
    if found is not None and tie_started(found[0]) and tie.winner:
        raise ValidationError(f"The next tie ({found[0]}) has started too: reverse that one first.")
    before = tie_state(tie)
    if tie.playoff_home is not None:
        # Its match is to be played again: the play-off score from its card goes with it.
        _playoff_withdraw(tie, why=f"the tie was reversed: {reason}", by=by)
    if tie.fixture is not None:
        fixture = tie.fixture
        tie.fixture = None
        tie.save(update_fields=["fixture"])
        if fixture.status != Fixture.Status.VOID:
            from leagues.services.fixtures import fixture_void

            fixture_void(fixture=fixture, reason=f"Cup tie reversed: {reason}", by=by)
    from scoring.services import game_abandon
    from scoring.services.links import _scoring_link_revoke

    for tie_game in tie.games.select_related("game"):
        if tie_game.game.status == GameStatus.IN_PROGRESS:
            game_abandon(game=tie_game.game, actor=Actor.of(by))
    # Its result stops counting (or waiting): the tie is to be played again.
    agreement.withdraw_open(
        TieTerms(tie),
        why="the tie was reversed",
        after=None,
        by=by,
        link=None,
        statuses=(*TieResult.OPEN_STATUSES, *TieResult.CONFIRMED_STATUSES),
    )
    # The games stay on record (and in the audit) as games of their own, no longer the tie's.
    tie.games.all().delete()
    if tie.scoring_link is not None:
        _scoring_link_revoke(link=tie.scoring_link)
        tie.scoring_link = None
    tie.reason = reason
    tie.save(update_fields=["scoring_link", "reason"])
    _apply(tie, winner="", status=Status.WAITING, home=0, away=0, how="", by=by)
    if tie.home_id is not None and tie.away_id is not None:
        _ready(tie, by=by)
    _audit(tie, "cup_reversed", f"{tie} reversed: {reason}", before, by)
    return lock_tie(tie)


@transaction.atomic
def round_set_dates(
    *,
    round: Round,
    date: datetime.date | None,
    deadline: datetime.date | None,
    by: Account,
) -> Round:
    """Set a round's night (or its deadline, or both: a night no later than the deadline).

    With a night, its cup fixtures not yet played move to it. With only a deadline, those
    booked after it move to the first league night by it on which both teams are free and the
    pub has room (``_night_by_deadline``); those on a night by it stay there. Either way a
    fixture that does not fit is refused, each named, and nothing changes; and its ties waiting
    for a night go on the new night, or the first free one by the deadline, when there is one
    (``_book_waiting``)."""
    rnd = Round.objects.select_for_update().select_related("competition__league").get(pk=round.pk)
    if not can_manage_competition(by, rnd.competition):
        raise PermissionDenied(f"Only the secretaries of {rnd.competition.league} run its cups.")
    season = rnd.competition.season
    for value in (date, deadline):
        if value is not None and value < season.starts_on:
            raise ValidationError(f"{value:%d %b %Y} is before {season.name} starts.")
    if date is not None and deadline is not None and date > deadline:
        raise ValidationError(
            f"The {rnd.name} night, {long_date(date)}, is after its deadline, "
            f"{long_date(deadline)}: a round's ties are played by its deadline. Set a night on "
            "or before the deadline, or a later deadline. Nothing was changed."
        )
    before = {"date": str(rnd.date or ""), "deadline": str(rnd.deadline or "")}
    rnd.date, rnd.deadline = date, deadline
    rnd.save(update_fields=["date", "deadline"])
    if date is not None or deadline is not None:
        moving = Fixture.objects.filter(cup_tie__round=rnd, status=Fixture.Status.SCHEDULED)
        if date is None:  # only a deadline: the ties booked by it stay where they are
            moving = moving.filter(date__gt=deadline)
        _move_round_ties(rnd, list(moving.select_related(*_CLASH_RELATED)), date=date)
        waiting = Fixture.objects.filter(
            cup_tie__round=rnd, status=Fixture.Status.POSTPONED, reason__startswith=UNARRANGED
        )
        for fixture in waiting.select_related(*_CLASH_RELATED):
            _book_waiting(fixture, rnd, by=by)
    audit_log(
        league=rnd.competition.league,
        action=AuditEntry.Action.CUP_ROUND_DATED,
        subject=f"{rnd.competition}: {rnd.name} " + (rnd.when or "undated"),
        before=before,
        after={"date": str(rnd.date or ""), "deadline": str(rnd.deadline or "")},
        by=by,
    )
    return rnd


_CLASH_RELATED = ("division__season", "home", "away", "venue")


def _book_waiting(fixture: Fixture, rnd: Round, *, by: Account) -> None:
    """A tie of ``rnd`` waiting for a night (none suited it) goes on the round's new night if it
    suits it now, or with only a deadline, on the first league night by it on which both teams
    are free and the pub has room (``_night_by_deadline``), re-arranged onto it as the
    secretary would (``fixture_rearrange``: audited, its tie following); if not, it keeps
    waiting, its reason saying why as of the round's new night or deadline."""
    from leagues.services.fixtures import fixture_rearrange

    if rnd.date is not None:
        night: datetime.date | None = rnd.date
        reason = _round_night_unsuited(
            rnd,
            rnd.date,
            division=fixture.division,
            home=fixture.home,
            away=fixture.away,
            venue=fixture.venue,
            exclude=fixture.pk,
        )
        moved_to = f"the {rnd.name} night"
    else:
        night, unsuited = _night_by_deadline(
            rnd, home=fixture.home, away=fixture.away, venue=fixture.venue, moving=fixture.pk
        )
        reason = "" if night is not None else _waiting(unsuited)
        moved_to = f"the first league night by the {rnd.name} deadline with both teams free"
    if night is None or reason:
        Fixture.objects.filter(pk=fixture.pk).update(reason=reason)
        Tie.objects.filter(fixture=fixture).update(reason=reason)
        return
    # The round's night is the secretary's, as it is for the round's ties it moves.
    fixture_rearrange(fixture=fixture, date=night, reason=moved_to, outside_calendar=True, by=by)


def _move_round_ties(rnd: Round, fixtures: list[Fixture], *, date: datetime.date | None) -> None:
    """Move ``fixtures``, ties of ``rnd`` not yet played, onto its new night ``date``; with only
    its deadline (no ``date``), each to the first league night by it on which both teams are
    free and the pub has room (``_night_by_deadline``). Refuse the round's night or deadline
    when one of them does not fit the season's calendar (a team already playing that night,
    league or cup; the pub full; no such night by the deadline), or its match has begun at its
    tables, as re-arranging a fixture is refused (``refuse_clash``, ``refuse_begun``): every
    tie's reasons at once, each named, nothing changed."""
    problems: list[str] = []
    for fixture in fixtures:
        try:
            refuse_begun(fixture, "moved")
            if date is not None:
                refuse_fixture_clash(fixture, date=date)  # a tie's fixture: of kind cup
                continue
            night, why = _night_by_deadline(
                rnd, home=fixture.home, away=fixture.away, venue=fixture.venue, moving=fixture.pk
            )
            if night is None:
                raise ValidationError(f"{capfirst(why)}.")
            # Each on its night before the next is looked at: two at one pub leave it full.
            Fixture.objects.filter(pk=fixture.pk).update(date=night)
        except ValidationError as exc:
            problems += [f"{fixture.home} v {fixture.away}: {message}" for message in exc.messages]
    if problems:
        other = "another night" if date is not None else "a later deadline"
        raise ValidationError(
            [*problems, f"Nothing was changed: choose {other}, or re-arrange those first."]
        )
    if date is not None:
        Fixture.objects.filter(pk__in=[fixture.pk for fixture in fixtures]).update(date=date)


def entrant_label(entrant: Entrant | None) -> str:
    return entrant.name if entrant else "to come"
