"""Cups: a league's knock-out (or groups then knock-out) competitions in a season.

A competition has entrants (teams, pairs of registered players, or single players), rounds with a
date or a deadline, and ties between two entrants.  A tie between teams in the league's match
format is played as a ``leagues.Fixture`` of kind "cup" (its tables, scoring links, confirmation
by both captains, walkover, postponement and audit are the league fixture's); a tie between pairs
or players is a race of games (best of N), each game scored through the tie's own scoring link;
its result (``TieResult``) counts once both sides agreed, or a secretary confirmed or settled
it, by the league's own rules (``leagues.services.agreement``).
The draw is made by ``cups.draw`` (pure) through ``cups.services.draws``; writes go through
``cups.services``, reads through ``cups.selectors``.
"""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from config.paths import path_for
from leagues.match import PLAYOFF_TO_COME, PLAYOFF_WON, level_words
from leagues.models import (
    NO_NIGHT_YET,
    Fixture,
    League,
    Player,
    ResultAgreement,
    Season,
    Team,
    Venue,
    agreement_constraints,
)

#: Who gives a level team tie's play-off game's score from the score card, as its pages say it
#: (``cups.permissions.can_give_playoff`` decides it).
PLAYOFF_GIVERS = "Either team's captain or a secretary"
#: A level team tie's play-off game being played at the table (``Tie.playoff_at_table``), as
#: its pages and the desk say it, and the score card's refusal of a score for it.
PLAYOFF_AT_TABLE = "the play-off game is being played at the table, scored on a phone"
#: A level team tie's play-off game won at the table, scored on a phone
#: (``Tie.playoff_won_at_table``): it stands when the tie's result is reopened, and decides the
#: tie once its match counts level again. As the score card says it in place of its play-off
#: boxes, and its refusal of a score for it (``cups.services.ties.take_playoff_from_card``).
PLAYOFF_WON_AT_TABLE = "the play-off game has been won at the table, scored on a phone"
PLAYOFF_WON_DECIDES = "its result decides the tie, and the card's play-off boxes are not needed"
#: How a knock-out tie's postponed fixture's reason begins when its round's night did not suit
#: it, its teams or pub already booked, or its round's deadline left it no league night with
#: both teams free and room at the pub (``cups.services.ties._make_fixture``): it
#: waits for the secretary to arrange its night, and the cup's manage page lists it. The
#: fixture's own words (``Fixture.awaits_night``) read the same beginning.
UNARRANGED = NO_NIGHT_YET
#: Why the score card gives no score for a play-off game a phone has scored hands of, as the
#: card's page and its refusal say it (``cups.services.ties.take_playoff_from_card``).
PLAYOFF_HANDS_STAND = (
    "its hands stand, so the score card gives no score for it (a secretary abandons that game "
    "first to give its score from the card)"
)


class Competition(models.Model):
    class Format(models.TextChoices):
        KNOCKOUT = "knockout", "Knock-out"
        GROUPS = "groups", "Groups then knock-out"

    class EntrantKind(models.TextChoices):
        TEAMS = "teams", "Teams"
        PAIRS = "pairs", "Pairs"
        PLAYERS = "players", "Single players"

    class TieFormat(models.TextChoices):
        MATCH = "match", "The league's match format"
        RACE = "race", "Best of N games"

    class Decider(models.TextChoices):
        PEGS = "pegs", "Aggregate pegs, then hang jacks, then a play-off game"
        HANG_JACKS = "hang_jacks", "Hang jacks, then a play-off game"
        PLAYOFF = "playoff", "A play-off game"

    class DrawMethod(models.TextChoices):
        RANDOM = "random", "Random (seeded, reproducible)"
        RANKING = "ranking", "By ranking (seed 1 first)"

    class Stage(models.TextChoices):
        ENTRIES = "entries", "Taking entries"
        GROUPS = "groups", "Group stage"
        KNOCKOUT = "knockout", "Knock-out"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="competitions")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(max_length=120)
    slug = models.SlugField(
        max_length=120, help_text="The same across seasons: the roll of honour follows it."
    )
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.KNOCKOUT)
    entrant_kind = models.CharField(
        max_length=10, choices=EntrantKind.choices, default=EntrantKind.TEAMS
    )
    tie_format = models.CharField(max_length=10, choices=TieFormat.choices, default=TieFormat.MATCH)
    best_of = models.PositiveSmallIntegerField(
        default=3, help_text="Games in a tie of pairs or players: first to more than half."
    )
    decider = models.CharField(max_length=12, choices=Decider.choices, default=Decider.PEGS)
    draw_method = models.CharField(
        max_length=10, choices=DrawMethod.choices, default=DrawMethod.RANDOM
    )
    draw_seed = models.BigIntegerField(
        null=True, blank=True, help_text="The random draw's seed: the same seed, the same draw."
    )
    protect_clubs = models.BooleanField(
        default=True, help_text="Keep two entrants of the same pub apart in round one."
    )
    groups = models.PositiveSmallIntegerField(default=0, help_text="Groups before the knock-out.")
    qualifiers = models.PositiveSmallIntegerField(
        default=2, help_text="Entrants of each group who go through to the knock-out."
    )
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.ENTRIES)
    winner = models.ForeignKey(
        "Entrant", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["league", "-season__starts_on", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "slug"],
                name="competition_unique_slug",
                violation_error_message="The season already has a competition of that name (or "
                "one at the same address): choose another name.",
            ),
            models.CheckConstraint(
                condition=Q(best_of__gte=1, best_of__lte=15) & Q(best_of__in=range(1, 16, 2)),
                name="competition_best_of_odd",
            ),
            models.CheckConstraint(
                condition=~Q(entrant_kind="teams") | Q(tie_format="match"),
                name="competition_teams_play_the_match_format",
            ),
            models.CheckConstraint(
                condition=Q(entrant_kind="teams") | Q(tie_format="race"),
                name="competition_pairs_race",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season.name})"

    def get_absolute_url(self) -> str:
        return path_for("cups:competition", self.pk)

    @property
    def stage_words(self) -> str:
        """Where it stands, in the words of the league's list of cups beside its format ("a
        knock-out · under way", not "knock-out · knock-out")."""
        if self.stage == self.Stage.KNOCKOUT:
            return "under way" if self.format == self.Format.KNOCKOUT else "knock-out stage"
        return self.get_stage_display().lower()

    @property
    def games_to_win(self) -> int:
        from leagues.match import games_to_win

        return games_to_win(self.best_of)


class Group(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="group_set")
    name = models.CharField(max_length=4)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["competition", "position"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "position"], name="group_unique_place")
        ]

    def __str__(self) -> str:
        return f"Group {self.name}"


class Entrant(models.Model):
    """A team, a pair of registered players (of one team) or a single player in a competition."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    team = models.ForeignKey(
        Team, on_delete=models.RESTRICT, related_name="cup_entries", null=True, blank=True
    )
    player_1 = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="cup_entries_1", null=True, blank=True
    )
    player_2 = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="cup_entries_2", null=True, blank=True
    )
    name = models.CharField(max_length=200)
    club = models.ForeignKey(
        Venue,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Its pub: two of one pub are kept apart in round one when asked.",
    )
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Its ranking for a seeded draw (1 is the best)."
    )
    group = models.ForeignKey(
        Group, on_delete=models.SET_NULL, null=True, blank=True, related_name="entrants"
    )

    class Meta:
        ordering = ["competition", "seed", "name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "team"],
                condition=Q(team__isnull=False, player_1__isnull=True),
                name="entrant_team_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "player_1"],
                condition=Q(player_1__isnull=False),
                name="entrant_player_1_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "player_2"],
                condition=Q(player_2__isnull=False),
                name="entrant_player_2_once",
            ),
            models.CheckConstraint(
                condition=Q(player_2__isnull=True) | ~Q(player_1=F("player_2")),
                name="entrant_pair_distinct",
            ),
            models.CheckConstraint(
                condition=Q(team__isnull=False) | Q(player_1__isnull=False),
                name="entrant_is_someone",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> list[Player]:
        return [p for p in (self.player_1, self.player_2) if p is not None]

    @property
    def goes_through(self) -> str:
        """It won its tie, said of it: "Black Bull goes through", and of a pair "Nadia Charles
        & Ronald Singh go through"."""
        return f"{self.name} {'go' if self.player_2_id is not None else 'goes'} through"


class Round(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    date = models.DateField(null=True, blank=True, help_text="The night it is played.")
    deadline = models.DateField(null=True, blank=True, help_text="Or: the day to play it by.")

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def when(self) -> str:
        if self.date:
            return f"{self.date:%a %-d %b %Y}"
        if self.deadline:
            return f"by {self.deadline:%a %-d %b %Y}"
        return ""


#: How a race tie settled by the secretary reads on the bracket: its games no longer decide it.
SETTLED = "settled by the secretary"


class Tie(models.Model):
    """Two entrants (either may still be to come from an earlier tie) in a round or a group."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for its entrants"
        # Not yet played: the league's word for its fixtures still to play, on every cup page
        # (a team tie reads its fixture's status, a pairs tie its own).
        SCHEDULED = "scheduled", Fixture.Status.SCHEDULED.label
        POSTPONED = "postponed", "Postponed"
        PLAYED = "played", "Played"
        WALKOVER = "walkover", "Walkover"
        BYE = "bye", "Bye"

    #: A side of a tie is a side of a fixture.
    Side = Fixture.Side

    #: The statuses of a tie whose winner goes through.
    DECIDED = (Status.PLAYED, Status.WALKOVER, Status.BYE)

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="ties")
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="ties", null=True, blank=True
    )
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="ties", null=True, blank=True
    )
    position = models.PositiveSmallIntegerField(help_text="Its place in the round, from 0.")
    home = models.ForeignKey(
        Entrant, on_delete=models.RESTRICT, related_name="home_ties", null=True, blank=True
    )
    away = models.ForeignKey(
        Entrant, on_delete=models.RESTRICT, related_name="away_ties", null=True, blank=True
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    fixture = models.OneToOneField(
        Fixture, on_delete=models.SET_NULL, null=True, blank=True, related_name="cup_tie"
    )
    scoring_link = models.ForeignKey(
        "scoring.ScoringLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="cup_ties",
    )
    home_score = models.PositiveSmallIntegerField(default=0, help_text="Games (or match points).")
    away_score = models.PositiveSmallIntegerField(default=0)
    winner = models.CharField(max_length=4, choices=Side.choices, blank=True)
    decided_by = models.CharField(
        max_length=120, blank=True, help_text="How a drawn match was decided, for the bracket."
    )
    reason = models.TextField(blank=True, help_text="Why it was postponed or walked over.")
    playoff_home = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The play-off game's home score, from the score card."
    )
    playoff_away = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The play-off game's away score, from the score card."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["competition", "round__number", "group__position", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "position"],
                condition=Q(round__isnull=False),
                name="tie_unique_place",
            ),
            models.CheckConstraint(
                condition=Q(round__isnull=False) ^ Q(group__isnull=False),
                name="tie_in_a_round_or_a_group",
            ),
            models.CheckConstraint(
                condition=Q(home__isnull=True) | Q(away__isnull=True) | ~Q(home=F("away")),
                name="tie_home_not_away",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["played", "walkover", "bye"]) | Q(winner=""),
                name="tie_winner_when_decided",
            ),
            models.CheckConstraint(
                condition=Q(playoff_home__isnull=True, playoff_away__isnull=True)
                | Q(playoff_home__isnull=False, playoff_away__isnull=False),
                name="tie_playoff_both_scores",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home_name} v {self.away_name}"

    def get_absolute_url(self) -> str:
        return path_for("cups:tie", self.pk)

    @property
    def is_knockout(self) -> bool:
        """A knock-out round's tie, whose level match goes to the cup's decider (a play-off
        game at the last), not a group's, whose match stays drawn."""
        return self.round_id is not None

    @property
    def cup_and_stage(self) -> str:
        """The cup and where in it the tie is, as a fixture's card, list and calendar name it
        ("League Cup, Quarter-final"; "League Cup, Group A"), the cup alone where neither is
        set. Its competition, round and group read with it."""
        stage = self.round or self.group
        return f"{self.competition.name}, {stage}" if stage else self.competition.name

    @property
    def decided_words(self) -> str:
        """How the tie was (or is to be) decided, as the bracket and the tie's page say it
        after the winner's name: "on pegs", "settled by the secretary"; "" for a walkover or a
        tie its games decide."""
        if self.decided_by in ("", "walkover", PLAYOFF_TO_COME):
            return ""  # a play-off to come: the tie's status says it (``level_words``)
        if self.decided_by == SETTLED or not self.winner:
            return self.decided_by
        return f"on {self.decided_by}"

    @property
    def playoff_to_come(self) -> bool:
        """Whether the tie is undecided, its match level and waiting for its play-off game
        (a query asks it as ``leagues.selectors.fixtures.playoff_to_come_q``)."""
        return not self.winner and self.decided_by == PLAYOFF_TO_COME

    @property
    def level_words(self) -> str:
        """ "Level 5–5: a play-off game to come": a drawn team match waiting for its play-off
        game (``playoff_to_come``), as its status reads on the tie's page, its card and its
        fixture's page; "" otherwise."""
        return level_words(self.home_score, self.away_score) if self.playoff_to_come else ""

    @cached_property
    def playoff_at_table(self) -> bool:
        """Whether it waits for its play-off game (``playoff_to_come``) while the game is being
        played at the table: a hand of it scored on a phone, the game neither won nor
        abandoned. Its pages say so and offer no play-off boxes, which the card would refuse
        (``cups.services.ties.take_playoff_from_card``). One query, asked once; a list of ties
        asks it of the database (``leagues.selectors.fixtures.playoff_at_table_q``) and sets
        it."""
        from leagues.selectors.fixtures import playoff_at_table_q

        if not self.playoff_to_come:
            return False
        return Tie.objects.filter(playoff_at_table_q(), pk=self.pk).exists()

    @cached_property
    def playoff_won_at_table(self) -> bool:
        """Whether its play-off game was won at the table, scored on a phone
        (``PLAYOFF_WON_AT_TABLE``): its result reopened, the game stands, and the score card
        takes no play-off score for it. One query, asked once."""
        from scoring.models import GameStatus

        return self.games.filter(is_playoff=True, game__status=GameStatus.WON).exists()

    @property
    def playoff_from_card(self) -> bool:
        """Whether its play-off game's score is to come from the score card now: it waits for
        it (``playoff_to_come``), and the game is not being played at the table
        (``playoff_at_table``). Its pages offer the card's play-off boxes only then."""
        return self.playoff_to_come and not self.playoff_at_table

    @property
    def playoff_words(self) -> str:
        """ "The tie is level 3–3: the play-off game's score is still to come. Either team's
        captain or a secretary gives it from the score card.": a team tie waiting for its
        play-off game (``playoff_to_come``), as its result page, its fixture's page, its card
        and the cup's manage page say it, naming who may give it
        (``cups.permissions.can_give_playoff``); while the game is being played at the table
        (``playoff_at_table``), "The tie is level 3–3: the play-off game is being played at the
        table, scored on a phone, and whoever wins it goes through."; "" otherwise."""
        if not self.playoff_to_come:
            return ""
        level = f"The tie is level {self.home_score}–{self.away_score}: "
        if self.playoff_at_table:
            return f"{level}{PLAYOFF_AT_TABLE}, and whoever wins it goes through."
        return (
            f"{level}the play-off game's score is still to come. {PLAYOFF_GIVERS} gives it from "
            "the score card."
        )

    @property
    def playoff_score_words(self) -> str:
        """ "Play-off game: Black Bull 11–7 New Inn": the play-off game's score given from the
        score card (``playoff_home``, kept with the result it came with), home team first as
        a match's score reads, as the result page and My fixtures say it beside the tables'
        figures; "" without one. Reads its fixture's teams."""
        if self.playoff_home is None or self.playoff_away is None or self.fixture is None:
            return ""
        return (
            f"Play-off game: {self.fixture.home.name} {self.playoff_home}–{self.playoff_away} "
            f"{self.fixture.away.name}"
        )

    @cached_property
    def playoff_played_words(self) -> str:
        """ "Play-off game: Black Bull 7–11 New Inn": the score of the play-off game that
        decided the tie, given from the score card (``playoff_score_words``) or won at the table
        on a phone (its game, side A home: one query, asked only of a tie a play-off game
        decided without a card's score), as its fixture's page says it under who went through;
        "" for a tie no play-off game decided."""
        from scoring.models import GameStatus, Side

        if not self.winner or self.fixture is None or self.decided_by != PLAYOFF_WON:
            return ""
        if self.playoff_home is not None:
            return self.playoff_score_words
        scores = dict(
            Side.objects.filter(
                game__cup_game__tie=self,
                game__cup_game__is_playoff=True,
                game__status=GameStatus.WON,
            ).values_list("label", "score")
        )
        if set(scores) != {"A", "B"}:
            return ""
        home, away = self.fixture.home.name, self.fixture.away.name
        return f"Play-off game: {home} {scores['A']}–{scores['B']} {away}"

    @property
    def through_words(self) -> str:
        """ "Swan goes through on a play-off game": the winner and how it was decided, as the
        tie's page and its fixture's page say it; "" while it is undecided."""
        entrant = self.winning_entrant
        if entrant is None:
            return ""
        how = self.decided_words
        if not how:
            return entrant.goes_through
        return f"{entrant.goes_through}{', ' if self.decided_by == SETTLED else ' '}{how}"

    @property
    def home_name(self) -> str:
        return self.home.name if self.home else "to come"

    @property
    def away_name(self) -> str:
        if self.status == self.Status.BYE:
            return "bye"
        return self.away.name if self.away else "to come"

    @property
    def is_decided(self) -> bool:
        return self.status in self.DECIDED and bool(self.winner)

    @property
    def winning_entrant(self) -> Entrant | None:
        if self.winner == self.Side.HOME:
            return self.home
        if self.winner == self.Side.AWAY:
            return self.away
        return None


class TieGame(models.Model):
    """A ``scoring.Game`` of a race tie (side A home, side B away), or a team tie's play-off."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("scoring.Game", on_delete=models.CASCADE, related_name="cup_game")
    number = models.PositiveSmallIntegerField()
    is_playoff = models.BooleanField(default=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tie", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tie", "number"], name="tie_game_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tie}, game {self.number}"


class TieResult(ResultAgreement):
    """A race tie's result: put forward by the tie's scoring link when the deciding game is won
    (or by a side or a secretary), agreed by each side in turn, or disputed for a secretary to
    settle. A player of the pair (their own account) or the captain of the pair's team that
    season agrees for the pair, as a team's captain signs for its pairs in a league."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="results")

    class Meta:
        ordering = ["tie", "-submitted_at", "-pk"]
        constraints = agreement_constraints("tie_result", "tie")

    def __str__(self) -> str:
        return f"{self.tie}: {self.get_status_display()}"
