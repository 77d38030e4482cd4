"""Reads for the cup pages: a competition with its rounds and ties, the bracket's drawing, the
group tables, a tie with its games, and the roll of honour across seasons."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
)

from cups.models import Competition, Entrant, Group, Round, Tie, TieGame, TieResult
from leagues import match
from leagues.days import long_date, short_date
from leagues.models import (
    AuditEntry,
    Fixture,
    League,
    Player,
    ResultSubmission,
    Team,
)
from leagues.selectors.audit import entries_about, hands_of
from leagues.selectors.counting import result_words
from leagues.selectors.fixtures import boards_begun, playoff_at_table_q, playoff_to_come_q
from leagues.selectors.live import NO_RESULT_WORDS, mark_stopped, status_words, waiting_words
from leagues.selectors.statistics import CATEGORY_FIGURE, OTHER, PlayFigures, add_figures
from leagues.services.seating import mark_abandoned
from leagues.zones import date_in
from scoring.actors import Account
from scoring.matches import GameMatch
from scoring.models import Award, GameStatus, Hand, HandRevision, Side
from scoring.services.compiled import CompiledRead

TIE_RELATED = (
    "home",
    "away",
    "round",
    "group",
    "fixture__result",
)


#: A race tie as a player's or captain's list reads it: its cup, round or group, and its pairs.
RACE_TIE_RELATED = (
    "competition__league",
    "competition__season",
    "round",
    "group",
    "home__player_1",
    "home__player_2",
    "away__player_1",
    "away__player_2",
)


def competition_get(*, pk: int) -> Competition:
    return Competition.objects.select_related("league", "season__league", "winner").get(pk=pk)


def teams_to_enter(*, competition: Competition) -> QuerySet[Team]:
    """The teams of the league playing the cup's season (not withdrawn) that are not in it yet,
    by name: the teams the form to enter one offers and the ones Enter all enters."""
    return (
        Team.objects.filter(
            league=competition.league_id,
            entries__season=competition.season_id,
            entries__withdrawn_on__isnull=True,
        )
        .exclude(cup_entries__competition=competition)
        .order_by("name")
    )


def _league_competitions_shape(league_id: int) -> QuerySet[Competition]:
    return Competition.objects.filter(league=league_id).select_related("season", "winner")


#: By a query built once per connection (``scoring.services.compiled``): the league's home
#: lists its cups on every render.
_league_competitions_read = CompiledRead(_league_competitions_shape)


def league_competitions(*, league: League) -> list[Competition]:
    """The league's cups, latest season first, each with its season and winner."""
    return _league_competitions_read.rows(league.pk)


#: Each tie's result still waiting for the sides (``tie.open_results``): played, to agree.
OPEN_RESULTS = Prefetch(
    "results",
    queryset=TieResult.objects.filter(status__in=TieResult.OPEN_STATUSES),
    to_attr="open_results",
)
#: A team tie's result, submitted on its fixture and waiting for the other captain
#: (``tie.fixture.open_submissions``): played, to agree. No query for a cup of pairs.
OPEN_SUBMISSIONS = Prefetch(
    "fixture__submissions",
    queryset=ResultSubmission.objects.filter(status__in=ResultSubmission.OPEN_STATUSES),
    to_attr="open_submissions",
)


#: A team tie's fixture's tables and their games: where its match stands (``match_progress``).
FIXTURE_TABLES = "fixture__tables__games"


def tie_status_words(tie: Tie, today: datetime.date) -> str:
    """Where the tie stands, as every page says it (its page, its card on the bracket, a
    player's My fixtures), ``today`` the league's. A team tie to play or played is its
    fixture, and reads as the fixture's pages read it (``leagues.selectors.live.status_words``:
    "Result not in yet" once its night has passed with no game, "Result disputed");
    a drawn team match waiting for its play-off game "Level 5–5: a play-off game to come"
    (``Tie.level_words``); a race tie's result waiting for the sides reads as a fixture's does
    ("Result submitted, awaiting confirmation", "Result disputed": ``waiting_words``), a race
    tie to play with a game won "In play", and with none once its round's night (or the day to
    play it by) has passed "Result not in yet", as a fixture's; else its status. Reads the
    tie's prefetched ``open_results`` (``OPEN_RESULTS``) and its fixture's
    ``open_submissions`` and tables (``OPEN_SUBMISSIONS``, ``FIXTURE_TABLES``) when it has
    them."""
    if tie.level_words:
        return tie.level_words
    undecided = (Tie.Status.SCHEDULED, Tie.Status.POSTPONED)
    if tie.fixture is not None and (tie.status in undecided or tie.status == Tie.Status.PLAYED):
        return status_words(tie.fixture, today)
    if tie.competition.tie_format == Competition.TieFormat.RACE and tie.status in (
        *undecided,
        Tie.Status.PLAYED,
    ):
        waiting = getattr(tie, "open_results", None)
        if waiting is None:
            waiting = list(tie.results.filter(status__in=TieResult.OPEN_STATUSES)[:1])
        if waiting:
            return waiting_words(waiting[0].status)
    if tie.status == Tie.Status.SCHEDULED and tie.home_score + tie.away_score:
        return "In play"
    if tie.status == Tie.Status.SCHEDULED and _night_passed(tie, today):
        return NO_RESULT_WORDS  # as a team tie's fixture reads once its night has passed
    return tie.get_status_display()


def _round_night(tie: Tie) -> datetime.date | None:
    """When a race tie's round is to be played: its night, else the day to play it by; None
    for a group's tie, which has neither. Reads its round."""
    round_ = tie.round
    return None if round_ is None else round_.date or round_.deadline


def _night_passed(tie: Tie, today: datetime.date) -> bool:
    """Whether a race tie's round was to be played before ``today`` (the league's)."""
    night = _round_night(tie)
    return night is not None and night < today


def _mark_stopped(ties: list[Tie]) -> None:
    """The tables of the team ties' fixtures in play, read with them (``FIXTURE_TABLES``),
    marked where their play stopped (``mark_stopped``): one query while one is in play."""
    mark_stopped(
        tie.fixture
        for tie in ties
        if tie.fixture is not None
        and "tables" in getattr(tie.fixture, "_prefetched_objects_cache", {})
    )


def _worded(ties: list[Tie], today: datetime.date, *, marked: bool = False) -> list[Tie]:
    """Each tie with its ``words`` (``tie_status_words``) for the pages' templates: a team
    tie's fixture in play has its tables (prefetched, ``FIXTURE_TABLES``) marked where its play
    stopped first (``mark_stopped``: one query while one is in play), unless ``marked``
    already."""
    if not marked:
        _mark_stopped(ties)
    for tie in ties:
        tie.words = tie_status_words(tie, today)  # type: ignore[attr-defined]
    return ties


@dataclass(frozen=True)
class TiesToSeeTo:
    """The league's race ties its secretary's desk lists beside its fixtures, each with its
    ``words`` (``tie_status_words``) and ``night``, its round's night or the day to play it
    by (None for a group's), oldest first."""

    waiting: list[Tie]  # its result waits for the sides: to confirm, or disputed to settle
    missing: list[Tie]  # its round's night has passed with no result ("Result not in yet")


def ties_to_see_to(*, league: League) -> TiesToSeeTo:
    """The league's pairs' and singles' (race) ties undecided with both sides known, split as
    the desk lists its fixtures by where each stands as every page says it
    (``tie_status_words``): a result waiting for the sides, or none in once its night has
    passed. A team tie is its fixture, listed with the league's. Two queries."""
    ties = list(
        Tie.objects.filter(
            competition__league=league,
            competition__tie_format=Competition.TieFormat.RACE,
            status__in=[Tie.Status.SCHEDULED, Tie.Status.POSTPONED, Tie.Status.PLAYED],
            home__isnull=False,
            away__isnull=False,
        )
        .select_related("competition", "round", "group", "home", "away")
        .prefetch_related(OPEN_RESULTS)
        .order_by("competition", "round__number", "group__position", "position")
    )
    _worded(ties, league.today())
    for tie in ties:
        tie.night = _round_night(tie)  # type: ignore[attr-defined]

    def oldest_first(listed: list[Tie]) -> list[Tie]:
        return sorted(listed, key=lambda tie: tie.night or datetime.date.max)  # type: ignore[attr-defined]

    return TiesToSeeTo(
        waiting=oldest_first([tie for tie in ties if tie.open_results]),  # type: ignore[attr-defined]
        missing=oldest_first([tie for tie in ties if tie.words == NO_RESULT_WORDS]),  # type: ignore[attr-defined]
    )


def tie_night_words(tie: Tie, league: League | None) -> str:
    """When a team tie is played, as the pages name a fixture's night: its fixture's date and
    time in ``league``'s words ("Tue 12 Jan 2027, 20:00 London time"), or without the year
    and the zone when ``league`` is None (the bracket's box: "Tue 12 Jan, 20:00"); "" for a
    race tie, and for a tie whose fixture is postponed or void (no night to play it on). No
    query."""
    fixture = tie.fixture
    if fixture is None or fixture.status in (Fixture.Status.POSTPONED, Fixture.Status.VOID):
        return ""
    if league is None:
        return f"{short_date(fixture.date)}, {fixture.time:%H:%M}"
    return f"{long_date(fixture.date)}, {fixture.time:%H:%M} {league.time_zone_words}"


def _play_begun(tie: Tie) -> bool:
    """Whether the tie's score means anything yet: it is played or has a score, or play has
    begun (a team tie: a game or a score card at its fixture's tables, ``boards_begun``; a race
    tie: a game). Before, "0–0 in match points" would read as a result. Reads the tables and
    games the selectors prefetch (``FIXTURE_TABLES``)."""
    if tie.status == Tie.Status.PLAYED or tie.home_score or tie.away_score:
        return True
    if tie.fixture is None:
        return bool(tie.games.all())
    return bool(boards_begun(tie.fixture))


def competition_rounds(*, competition: Competition) -> list[Round]:
    """The knock-out rounds, each with its ties in bracket order (``round.tie_list``), each
    tie with its ``words`` (``tie_status_words``)."""
    rounds = list(
        Round.objects.filter(competition=competition).prefetch_related(
            Prefetch(
                "ties",
                queryset=Tie.objects.select_related(*TIE_RELATED)
                .prefetch_related(OPEN_RESULTS, OPEN_SUBMISSIONS, FIXTURE_TABLES)
                .order_by("position"),
                to_attr="tie_list",
            )
        )
    )
    today = competition.league.today()
    _mark_stopped([tie for rnd in rounds for tie in rnd.tie_list])  # every round's at once
    for rnd in rounds:
        for tie in rnd.tie_list:
            tie.competition = competition
            tie.night = tie_night_words(tie, competition.league)  # type: ignore[attr-defined]
        _worded(rnd.tie_list, today, marked=True)
    return rounds


@dataclass
class GroupRow:
    entrant: Entrant
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    score_for: int = 0
    score_against: int = 0

    @property
    def points(self) -> int:
        return match.group_points(self.won, self.drawn)

    @property
    def difference(self) -> int:
        return self.score_for - self.score_against


@dataclass
class GroupTable:
    group: Group
    rows: list[GroupRow] = field(default_factory=list)
    ties: list[Tie] = field(default_factory=list)


def group_tables(*, competition: Competition) -> list[GroupTable]:
    """Each group's table: 2 points a win, 1 a draw; then the difference and the score for
    (games in a race, match points in a team match); then the name."""
    groups = list(Group.objects.filter(competition=competition).prefetch_related("entrants"))
    ties = list(
        Tie.objects.filter(competition=competition, group__isnull=False)
        .select_related(*TIE_RELATED)
        .prefetch_related(OPEN_RESULTS, OPEN_SUBMISSIONS, FIXTURE_TABLES)
    )
    for tie in ties:
        tie.competition = competition
        tie.night = tie_night_words(tie, competition.league)  # type: ignore[attr-defined]
    _worded(ties, competition.league.today())
    tables = []
    for group in groups:
        rows = {e.pk: GroupRow(entrant=e) for e in group.entrants.all()}
        group_ties = [t for t in ties if t.group_id == group.pk]
        for tie in group_ties:
            if tie.status not in (Tie.Status.PLAYED, Tie.Status.WALKOVER):
                continue
            home, away = rows.get(tie.home_id or 0), rows.get(tie.away_id or 0)
            if home is None or away is None:
                continue
            for row, mine, theirs, side in (
                (home, tie.home_score, tie.away_score, Tie.Side.HOME),
                (away, tie.away_score, tie.home_score, Tie.Side.AWAY),
            ):
                row.played += 1
                row.score_for += mine
                row.score_against += theirs
                if not tie.winner:
                    row.drawn += 1
                elif tie.winner == side:
                    row.won += 1
                else:
                    row.lost += 1
        ordered = sorted(
            rows.values(),
            key=lambda r: match.group_order(r.points, r.score_for, r.score_against, r.entrant.name),
        )
        tables.append(GroupTable(group=group, rows=ordered, ties=group_ties))
    return tables


def tie_detail(*, pk: int) -> Tie:
    """The tie with what its page reads, and its ``words`` (``tie_status_words``)."""
    tie = (
        Tie.objects.select_related(
            "competition__league",
            "competition__season",
            "home__player_1",
            "home__player_2",
            "away__player_1",
            "away__player_2",
            "round",
            "group",
            "fixture__result",
            "scoring_link",
        )
        .prefetch_related(
            Prefetch(
                "games",
                queryset=TieGame.objects.select_related("game")
                .prefetch_related("game__sides")
                .annotate(hand_count=Count("game__hands")),
            ),
            OPEN_RESULTS,
            OPEN_SUBMISSIONS,
            FIXTURE_TABLES,
        )
        .get(pk=pk)
    )
    for tie_game in tie.games.all():
        tie_game.game.hand_count = tie_game.hand_count  # its ``status_words``: "Not started"
    if tie.fixture is not None:
        # A table abandoned and none other being played: its words say so, not "In play".
        mark_abandoned(list(tie.fixture.tables.all()))
    _worded([tie], tie.competition.league.today(), marked=True)
    tie.night = tie_night_words(tie, tie.competition.league)  # type: ignore[attr-defined]
    tie.play_begun = _play_begun(tie)  # type: ignore[attr-defined]
    return tie


def knockout_tie(*, fixture: Fixture) -> Tie | None:
    """The knock-out cup tie played as ``fixture``, whose level match goes to a play-off game
    (a group's match stays drawn), with ``fixture`` as its own; None for any other fixture
    (no query for a league one), and its competition (whose decider the card names)."""
    if fixture.kind != Fixture.Kind.CUP:
        return None
    ties = Tie.objects.filter(fixture=fixture, round__isnull=False)
    tie = ties.select_related("competition").first()
    if tie is not None:
        tie.fixture = fixture  # read already, with its teams, division, season and league
    return tie


def ties_waiting_for_playoff(*, competition: Competition) -> list[Tie]:
    """The competition's team ties whose counted match is level, waiting for the play-off
    game's score (``Tie.playoff_to_come``, asked of the database), in bracket order, each with
    its fixture and teams and whether its play-off game is being played at the table
    (``Tie.playoff_at_table``): one query."""
    return list(
        Tie.objects.filter(playoff_to_come_q(), competition=competition)
        .annotate(playoff_at_table=playoff_at_table_q())
        .select_related("round", "home", "away", "fixture__home", "fixture__away")
    )


def ties_to_arrange(*, league: League, competition: Competition | None = None) -> list[Tie]:
    """The league's team ties (``competition``'s only, when given) waiting for a night: their
    fixture postponed, no new date yet (put off, or a knock-out tie whose round's night did
    not suit it: its reason names why, ``cups.services.ties._make_fixture``), cup by cup in
    bracket order, each with its cup, stage, fixture and teams, as the cup's manage page and
    the secretary's desk list them: one query."""
    ties = Tie.objects.filter(competition__league=league, fixture__status=Fixture.Status.POSTPONED)
    if competition is not None:
        ties = ties.filter(competition=competition)
    return list(
        ties.select_related(
            "competition", "round", "group", "home", "away", "fixture__home", "fixture__away"
        )
    )


def tie_current_result(*, tie: Tie) -> TieResult | None:
    """A race tie's result as it stands: open (submitted or disputed) or counted; none before
    the deciding game is won or after it was withdrawn."""
    return (
        TieResult.objects.filter(tie=tie)
        .exclude(status=TieResult.Status.WITHDRAWN)
        .select_related("submitted_by", "submitted_by_link", "confirmed_by", "settled_by")
        .first()
    )


@dataclass(frozen=True)
class Honour:
    competition: Competition
    winner: Entrant | None
    runner_up: Entrant | None


def roll_of_honour(*, competition: Competition) -> list[Honour]:
    """Every season's edition of this competition (same league, same slug), newest first, with
    its winner and runner-up."""
    editions = list(
        Competition.objects.filter(league=competition.league_id, slug=competition.slug)
        .select_related("season", "winner")
        .order_by("-season__starts_on")
    )
    finals = {
        t.competition_id: t
        for t in Tie.objects.filter(competition__in=editions, round__isnull=False)
        .select_related("home", "away", "round")
        .order_by("competition", "-round__number")
        if t.round is not None and t.round.name == "Final"
    }
    honours = []
    for edition in editions:
        final = finals.get(edition.pk)
        runner_up = None
        if final is not None and final.winner:
            runner_up = final.away if final.winner == Tie.Side.HOME else final.home
        honours.append(Honour(competition=edition, winner=edition.winner, runner_up=runner_up))
    return honours


def race_counts_q(prefix: str = "") -> Q:
    """The race ties whose results count, for a query reaching ``Tie`` through ``prefix``: as
    the league's (``leagues.selectors.counting``), a result both sides agreed or a secretary
    confirmed (the tie is then played, with its winner), the secretary's settlement, or a
    walkover; and in a league that shows provisional results, one put forward and not yet
    agreed (submitted or disputed: ``race_provisional_q``). Never a tie still in play, nor one
    whose result waits for agreement in a league that does not show provisional results."""
    decided = Q(**{f"{prefix}status__in": (Tie.Status.PLAYED, Tie.Status.WALKOVER)}) & ~Q(
        **{f"{prefix}winner": ""}
    )
    provisional = Q(**{f"{prefix}competition__league__show_provisional": True}) & Q(
        _open_result(prefix)
    )
    return decided | provisional


def race_provisional_q(prefix: str = "") -> Q:
    """A counted race tie (``race_counts_q``) whose result is not yet agreed: it has no
    winner yet (agreed, confirmed, settled or walked over, it has one)."""
    return Q(**{f"{prefix}winner": ""})


def _open_result(prefix: str) -> Exists:
    return Exists(
        TieResult.objects.filter(tie=OuterRef(f"{prefix}pk"), status__in=TieResult.OPEN_STATUSES)
    )


def _played_by(player: Player, prefix: str = "") -> Q:
    """The ties (through ``prefix``) either of whose entrants ``player`` is, or is one of."""
    q = Q()
    for entrant in ("home", "away"):
        for seat in ("player_1", "player_2"):
            q |= Q(**{f"{prefix}{entrant}__{seat}": player})
    return q


@dataclass
class PlayedTie:
    """A race tie on a player's page: the tie (with its competition, round or group and
    entrants), the player's side of its games ("A" home, "B" away), their pair (``players``,
    the player first), the date it was played, its finished games and whether its result is
    still to agree (counted only as a provisional result)."""

    tie: Tie
    side: str
    players: tuple[Player, ...]
    date: datetime.date | None
    games: list[TieGame]
    provisional: bool

    @property
    def partners(self) -> tuple[Player, ...]:
        return self.players[1:]

    @property
    def opponents(self) -> str:
        return self.tie.away_name if self.side == "A" else self.tie.home_name

    @property
    def pair(self) -> tuple[int, ...]:
        """The pair's key, as the league's figures have it (the players' ids, sorted)."""
        return tuple(sorted(p.pk for p in self.players))


@dataclass
class RaceRecord:
    """A player's race ties whose results count, latest first, and their figures by pair
    (sorted player ids, as ``leagues.selectors.statistics`` keys pairs)."""

    ties: list[PlayedTie]
    pairs: dict[tuple[int, ...], PlayFigures]

    @property
    def players(self) -> list[Player]:
        """Everyone of the ties' pairs, for ``name_people``."""
        return [p for played in self.ties for p in played.players]


def player_race_record(*, player: Player) -> RaceRecord:
    """The ties played as races (pairs or single players) the player played in whose results
    count (``race_counts_q``), latest first, with their finished games, and the figures of
    those games by pair, in the same terms as the league's player statistics: five queries
    (the ties, their games, the games' scores, the awards, the all-fours hands), one when
    there are none."""
    rows = list(
        Tie.objects.filter(_played_by(player), race_counts_q())
        .annotate(provisional=ExpressionWrapper(race_provisional_q(), output_field=BooleanField()))
        .select_related(*RACE_TIE_RELATED)
        .prefetch_related(
            Prefetch(
                "games",
                queryset=TieGame.objects.filter(game__status=GameStatus.WON)
                .select_related("game")
                .prefetch_related(
                    Prefetch("game__sides", queryset=Side.objects.order_by("position"))
                ),
                to_attr="won_games",
            )
        )
    )
    played, sides = [], {}
    for tie in rows:
        assert tie.home is not None and tie.away is not None  # a counted tie has both
        side = "A" if player in tie.home.players else "B"
        entrant = tie.home if side == "A" else tie.away
        players = (player, *(p for p in entrant.players if p != player))
        games = sorted(tie.won_games, key=lambda tg: tg.number)
        if not games and tie.status == Tie.Status.WALKOVER:
            continue  # given without play: no game of theirs
        moments = [tg.game.ended_at or tg.game.created_at for tg in games]
        zone = tie.competition.league.time_zone
        date = date_in(max(moments), zone) if moments else (tie.round and tie.round.date)
        played.append(PlayedTie(tie, side, players, date, games, tie.provisional))
        sides[tie.pk] = side
    played.sort(key=lambda p: (p.date or datetime.date.min, p.tie.pk), reverse=True)
    return RaceRecord(ties=played, pairs=_race_pairs(played, sides))


def _race_pairs(
    played: list[PlayedTie], sides: dict[int, str]
) -> dict[tuple[int, ...], PlayFigures]:
    """The figures of the ties' games by the player's pair (two queries, none for no games)."""
    by_tie = {p.tie.pk: PlayFigures() for p in played}
    games = [tg.game_id for p in played for tg in p.games]
    for p in played:
        figures = by_tie[p.tie.pk]
        figures.games_played = figures.hand_games = len(p.games)  # each scored hand by hand
        figures.games_won = sum(1 for tg in p.games if tg.game.winner == p.side)
    if games:
        awards = (
            Award.objects.filter(game__in=games, counted=True, category__in=list(CATEGORY_FIGURE))
            .values_list("game__cup_game__tie", "side", "category")
            .annotate(n=Count("id"))
            .order_by()
        )
        for tie_id, side, category, n in awards:
            figures, mine = by_tie[tie_id], sides[tie_id]
            if side == mine:
                name = CATEGORY_FIGURE[category]
                setattr(figures, name, getattr(figures, name) + n)
            elif category == "hang_jack" and side == OTHER[mine]:
                figures.hang_jacks_given += n
        hands = (
            Hand.objects.filter(game__in=games)
            .exclude(all_fours="")
            .values_list("game__cup_game__tie", "all_fours")
            .annotate(n=Count("id"))
            .order_by()
        )
        for tie_id, side, n in hands:
            if side == sides[tie_id]:
                by_tie[tie_id].all_fours += n
    pairs: dict[tuple[int, ...], PlayFigures] = {}
    for p in played:
        add_figures(pairs.setdefault(p.pair, PlayFigures()), by_tie[p.tie.pk])
    return pairs


def player_race_figures(*, player: Player) -> PlayFigures:
    """A player's figures from the finished games of the race ties whose results count
    (``player_race_record``), in the same terms as the league's player statistics."""
    figures = PlayFigures()
    for part in player_race_record(player=player).pairs.values():
        add_figures(figures, part)
    return figures


# --- the bracket as a drawing ----------------------------------------------------------------

BOX_W, BOX_H, GAP_X, GAP_Y, PAD = 200, 56, 36, 12, 8


#: Where a box's lines go: a name from ``TEXT_X`` to the right, a score ending at ``SCORE_END``
#: (both from the box's left edge), at least ``TEXT_GAP`` apart.
TEXT_X, SCORE_END, TEXT_GAP = 6, BOX_W - 6, 8
NAME_SIZE, NOTE_SIZE = 13, 11

#: Advance widths (in em), a little over those of DejaVu Sans Bold (the face Chromium picks for
#: ``system-ui, sans-serif`` on Debian, and wider than the system faces of phones, Macs and
#: Windows): text cut to fit by them never runs further than its room, bold or not.
_EM = {
    **dict.fromkeys("mMW@%", 1.1),
    "w": 0.95,
    **dict.fromkeys("ABCDEFGHKLNOPQRSTUVXYZ#&+<=>^~", 0.88),
    **dict.fromkeys('frt()[]!"*-_`', 0.55),
    **dict.fromkeys("ijlIJ'.,:;/\\| ", 0.42),
}


def _em(char: str) -> float:
    if not char.isascii():
        return 1.1
    return _EM.get(char, 0.75)


#: The regular face against the bold: DejaVu Sans Book's letters are 0.87 to 0.93 of its Bold's.
REGULAR = 0.94


def text_width(text: str, size: int, *, bold: bool = True) -> float:
    """An upper bound of ``text``'s width in pixels at ``size`` px (any sans-serif)."""
    return sum(_em(char) for char in text) * size * (1 if bold else REGULAR)


def fit(text: str, room: float, size: int, *, bold: bool = True) -> str:
    """``text``, or as much of it as fits ``room`` pixels at ``size`` px with "…" after it."""
    if text_width(text, size, bold=bold) <= room:
        return text
    room -= text_width("…", size, bold=bold)
    kept = ""
    for char in text:
        if text_width(kept + char, size, bold=bold) > room:
            break
        kept += char
    return kept.rstrip() + "…"


@dataclass(frozen=True)
class BoxLine:
    name: str
    score: str
    won: bool

    @property
    def label(self) -> str:
        """The name as the box prints it: cut, with "…", where the full name would reach the
        score (the box's title and the tie's page give it whole)."""
        room = SCORE_END - TEXT_X - TEXT_GAP - text_width(self.score, NAME_SIZE, bold=self.won)
        return fit(self.name, room, NAME_SIZE, bold=self.won)


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    lines: tuple[BoxLine, BoxLine]
    url: str
    note: str

    @property
    def note_label(self) -> str:
        """The note (how the tie was decided), cut to the box's width."""
        return fit(self.note, BOX_W - 2 * TEXT_X, NOTE_SIZE, bold=False)

    @property
    def title(self) -> str:
        """The tie in full, for the box's title (a screen reader, a pointer's tooltip)."""
        home, away = self.lines
        return f"{home.name} v {away.name}" + (f", {self.note}" if self.note else "")


@dataclass(frozen=True)
class Connector:
    points: str


@dataclass(frozen=True)
class Bracket:
    width: int
    height: int
    boxes: tuple[Box, ...]
    connectors: tuple[Connector, ...]
    headings: tuple[tuple[int, str], ...]
    box_w: int = BOX_W
    box_h: int = BOX_H
    score_end: int = SCORE_END


def _score(tie: Tie, side: str) -> str:
    if tie.status == Tie.Status.WALKOVER:
        return "w/o" if tie.winner == side else ""
    if tie.status in (Tie.Status.PLAYED,) or tie.home_score or tie.away_score:
        return str(tie.home_score if side == Tie.Side.HOME else tie.away_score)
    return ""


def _note(tie: Tie) -> str:
    """How a drawn match was (or is to be) decided, for the bracket; else a team tie's night
    (``tie_night_words``) while it is still to be decided."""
    if tie.decided_words:
        return tie.decided_words
    return "" if tie.is_decided else tie_night_words(tie, None)


def bracket(rounds: list[Any]) -> Bracket:
    """Lay the knock-out out as boxes and elbow connectors (server-rendered SVG)."""
    if not rounds:
        return Bracket(width=0, height=0, boxes=(), connectors=(), headings=())
    first = len(rounds[0].tie_list)
    height = PAD * 2 + 24 + first * (BOX_H + GAP_Y)
    boxes: list[Box] = []
    connectors: list[Connector] = []
    headings: list[tuple[int, str]] = []
    centres: list[list[float]] = []
    for r, rnd in enumerate(rounds):
        x = PAD + r * (BOX_W + GAP_X)
        headings.append((x, rnd.name))
        these: list[float] = []
        for i, tie in enumerate(rnd.tie_list):
            if r == 0:
                centre = PAD + 24 + i * (BOX_H + GAP_Y) + BOX_H / 2
            else:
                centre = (centres[r - 1][2 * i] + centres[r - 1][2 * i + 1]) / 2
                px = x - GAP_X
                mid = x - GAP_X // 2
                for child in (centres[r - 1][2 * i], centres[r - 1][2 * i + 1]):
                    connectors.append(
                        Connector(
                            f"{px},{child:.0f} {mid},{child:.0f} {mid},{centre:.0f} "
                            f"{x},{centre:.0f}"
                        )
                    )
            these.append(centre)
            lines = (
                BoxLine(tie.home_name, _score(tie, Tie.Side.HOME), tie.winner == Tie.Side.HOME),
                BoxLine(tie.away_name, _score(tie, Tie.Side.AWAY), tie.winner == Tie.Side.AWAY),
            )
            boxes.append(
                Box(
                    x=x,
                    y=int(centre - BOX_H / 2),
                    lines=lines,
                    url=tie.get_absolute_url(),
                    note=_note(tie),
                )
            )
        centres.append(these)
    width = PAD * 2 + len(rounds) * BOX_W + (len(rounds) - 1) * GAP_X
    return Bracket(
        width=width,
        height=int(height),
        boxes=tuple(boxes),
        connectors=tuple(connectors),
        headings=tuple(headings),
    )


@dataclass(frozen=True)
class MyTie:
    """A race tie on a player's "My fixtures" page and the step they can take."""

    tie: Tie
    result: TieResult | None
    action: str  # "agree" (agree or dispute), "wait" (for the other side), or ""

    @property
    def waits_for_you(self) -> bool:
        """Its result waits for this player (or captain) to agree or dispute it: listed under
        "Waiting for you" with the league fixtures waiting for them."""
        return self.action == "agree"

    @property
    def result_words(self) -> str:
        """Where its result stands, as every page says a result's standing (``result_words``):
        "Result submitted, awaiting confirmation", "Result confirmed"; "" with none."""
        return result_words(self.result.status) if self.result is not None else ""

    @property
    def date(self) -> datetime.date | None:
        """The tie's night as My fixtures orders it among the league fixtures: its round's
        date, else the day its result was put forward (the league's day), else its round's
        deadline; None when it has none of these."""
        round_ = self.tie.round
        if round_ is not None and round_.date is not None:
            return round_.date
        if self.result is not None:
            return date_in(self.result.submitted_at, self.tie.competition.league.time_zone)
        return round_.deadline if round_ is not None else None


def my_ties(*, user: Account) -> list[MyTie]:
    """The race ties to play, waiting for agreement or decided, of the pairs ``user`` plays in
    or captains the team of, in competitions not yet finished, by round."""
    from cups.services.results import TieTerms
    from leagues.services import agreement

    if not getattr(user, "is_authenticated", False):
        return []
    mine = Q()
    for side in ("home", "away"):
        mine |= Q(**{f"{side}__player_1__user": user}) | Q(**{f"{side}__player_2__user": user})
        mine |= Q(
            **{
                f"{side}__team__entries__captain__user": user,
                f"{side}__team__entries__season": F("competition__season"),
            }
        )
    open_or_counted = TieResult.objects.exclude(status=TieResult.Status.WITHDRAWN)
    ties = list(
        Tie.objects.filter(mine, competition__tie_format=Competition.TieFormat.RACE)
        .exclude(competition__stage=Competition.Stage.FINISHED)
        .filter(status__in=[Tie.Status.SCHEDULED, Tie.Status.POSTPONED, Tie.Status.PLAYED])
        .select_related(*RACE_TIE_RELATED)
        .prefetch_related(
            Prefetch("results", queryset=open_or_counted, to_attr="live_results"), OPEN_RESULTS
        )
        .distinct()
        .order_by("competition", "round__number", "position")
    )
    today: dict[int, datetime.date] = {}  # each league's, asked once
    for tie in ties:
        league = tie.competition.league
        if league.pk not in today:
            today[league.pk] = league.today()
        _worded([tie], today[league.pk])
    rows = []
    for tie in ties:
        result = next(iter(tie.live_results), None)
        action = ""
        if result is not None and result.status == TieResult.Status.SUBMITTED:
            mine_to_agree = agreement.sides_to_agree(TieTerms(tie), result, user)
            action = "agree" if mine_to_agree else "wait"
        rows.append(MyTie(tie=tie, result=result, action=action))
    return rows


def tie_audit(*, tie: Tie) -> tuple[list[AuditEntry], list[HandRevision]]:
    """A tie's audit trail, newest first: the league's entries about it (a race tie's names it
    in ``after``, see ``cups.services.results.about_tie``; a team tie's are its fixture's) and
    every hand-level change to its games."""
    about = Q(after__tie=tie.pk)
    games = Q(game__cup_game__tie=tie)
    if tie.fixture_id is not None:
        about |= Q(fixture_id=tie.fixture_id)
        games |= Q(game__league_game__table__fixture_id=tie.fixture_id)
    return entries_about(about & Q(league=tie.competition.league_id)), hands_of(games)


#: What ``tie_game_match`` reads, from the game.
TIE_GAME_RELATED = ("cup_game__tie__home", "cup_game__tie__away", "cup_game__tie__competition")


def tie_game_match(game: Any) -> GameMatch | None:
    """Registered with ``scoring.matches``: a cup tie's game (a race tie's, a team tie's
    play-off) is played for its tie ("League Cup: Ann and Bob v Cy and Di", game 2). No
    query: it reads ``TIE_GAME_RELATED``, read with the game
    (``scoring.selectors.game_for_page``); None for a game that is not a tie's."""
    try:
        tie_game = game.cup_game
    except ObjectDoesNotExist:
        return None
    tie = tie_game.tie
    return GameMatch(
        title=f"{tie.competition.name}: {tie}",
        url=tie.get_absolute_url(),
        game="Play-off game" if tie_game.is_playoff else f"Game {tie_game.number}",
    )
