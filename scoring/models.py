"""Games scored at the table: the facts entered hand by hand and the awards the engine derived.

Reading a game never runs the rules engine: every derived figure (awards, running totals, the
current score, the winner and the deciding point) is stored when a hand is recorded or corrected.
Writes go through `scoring.services`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from config.paths import path_for

if TYPE_CHECKING:
    from scoring.rules import Ruleset

SIDE_LABELS = ("A", "B", "C")


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    WON = "won", "Won"
    ABANDONED = "abandoned", "Abandoned"


class ScoringLink(models.Model):
    """A private scoring link: whoever holds its key may record and correct hands of its games.

    Scorers at a table have no account; the key (shown as a QR code on the fixture card, or on
    the phone that started a stand-alone game) is their permission. A stand-alone game has a link
    of its own; every game of a fixture table is attached to that table's link. A revoked link
    (re-issued under a new key) or a closed one (the fixture's result is confirmed) grants nothing.
    A re-issued link's successor names it (``replaces``): a phone still holding the old key is
    told the link was replaced, not only that it may no longer score.
    """

    key = models.CharField(max_length=64, unique=True, editable=False)
    label = models.CharField(max_length=160, blank=True)
    next_url = models.CharField(
        max_length=200,
        blank=True,
        help_text="Where the holder goes when the games are done (a fixture's result page).",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scoring_links_created",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    replaces = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="replaced_by",
        editable=False,
        help_text="The link this one was re-issued in place of (its key stopped working).",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(name="scoring_link_has_key", condition=~Q(key=""))]

    def __str__(self) -> str:
        return self.label or f"Scoring link {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("scoring:link_open", kwargs={"key": self.key})

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None and self.closed_at is None

    @property
    def state(self) -> str:
        """ "live", "closed" (its games' result confirmed: only a secretary scores them now,
        whether the link was also revoked or not, as a new key would be closed too) or
        "revoked" (stopped; re-issued or not): the one ranking every page and refusal tells a
        scorer holding the link."""
        if self.closed_at is not None:
            return "closed"
        if self.revoked_at is not None:
            return "revoked"
        return "live"


class Game(models.Model):
    """One race to the target, between two or three sides, under one frozen ruleset."""

    title = models.CharField(max_length=120, blank=True)
    # The ruleset spec (docs/rules.md section 7), frozen at creation: presets change, games do not.
    ruleset = models.JSONField()
    variant = models.CharField(max_length=40, help_text="The preset the ruleset started from.")
    first_dealer = models.CharField(max_length=1, default="A")
    next_dealer = models.CharField(max_length=1, blank=True)
    status = models.CharField(
        max_length=20, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    winner = models.CharField(max_length=1, blank=True)
    decided_hand = models.PositiveIntegerField(null=True, blank=True)
    decided_category = models.CharField(max_length=20, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scored_games",
    )
    scoring_link = models.ForeignKey(
        ScoringLink,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
        help_text="The private link whose holders may score this game.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="scoring_game_status_idx"),
            # The games list, newest first (``recent_games``).
            models.Index(fields=["created_at", "id"], name="scoring_game_created_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                name="scoring_game_winner_iff_won",
                condition=(
                    Q(
                        status=GameStatus.WON,
                        winner__in=SIDE_LABELS,
                        decided_hand__isnull=False,
                    )
                    & ~Q(decided_category="")
                )
                | (
                    ~Q(status=GameStatus.WON)
                    & Q(winner="", decided_hand__isnull=True, decided_category="")
                ),
            ),
            models.CheckConstraint(
                name="scoring_game_status_valid", condition=Q(status__in=GameStatus.values)
            ),
        ]

    def __str__(self) -> str:
        """Its title, else what it is, its number a reference: "Trinidad to 14 · game no.
        318" ("Game 318" read as the 318th game, where a league table's "Game 2" is its
        second), alike in the games list, on its page and in its tab."""
        return self.title or f"{self.rules.label} to {self.rules.target} · game no. {self.pk}"

    def get_absolute_url(self) -> str:
        return path_for("scoring:game", self.pk)

    @cached_property
    def rules(self) -> Ruleset:
        """The frozen ruleset as the engine's `Ruleset`."""
        from scoring.rules import ruleset_from_spec

        return ruleset_from_spec(self.ruleset)

    @property
    def in_progress(self) -> bool:
        return self.status == GameStatus.IN_PROGRESS

    @property
    def status_words(self) -> str:
        """Its status as the lists of games say it (the games page, a cup tie's page): "Not
        started" while in progress with no hand recorded (a cup tie's game readied for its
        scorer, a game started and not yet dealt), else the status's label. Reads the
        ``hand_count`` a list gave it, else counts its hands."""
        if self.status == GameStatus.IN_PROGRESS:
            hands = getattr(self, "hand_count", None)
            if hands is None:
                hands = self.hands.count()
            if not hands:
                return NOT_STARTED
        return self.get_status_display()


#: A game in progress with no hand recorded, as the lists say it (``Game.status_words``).
NOT_STARTED = "Not started"


class Side(models.Model):
    """A single player or a partnership; `position` is the play order (the way the deal passes)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides")
    label = models.CharField(max_length=1)
    name = models.CharField(max_length=80)
    players = models.JSONField(default=list, blank=True)
    position = models.PositiveSmallIntegerField()
    start_score = models.PositiveIntegerField(default=0)
    score = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "label"], name="scoring_side_label_unique"),
            models.UniqueConstraint(
                fields=["game", "position"], name="scoring_side_position_unique"
            ),
            models.CheckConstraint(
                name="scoring_side_label_valid", condition=Q(label__in=SIDE_LABELS)
            ),
            models.CheckConstraint(
                name="scoring_side_scores_not_negative",
                condition=Q(start_score__gte=0, score__gte=0),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """`A (Smith & Jones)`-style name used in banners and the score sheet."""
        players = " & ".join(p for p in self.players if p)
        if players and players != self.name:
            return f"{self.name} ({players})"
        return self.name


def names_by_label(sides: Iterable[Side]) -> dict[str, str]:
    """The sides' names by their label (``{"A": "The Fleece", "B": ...}``): how the rules'
    refusals and the audit trail name the sides in the page's words."""
    return {side.label: side.name for side in sides}


class Hand(models.Model):
    """One deal as entered: `facts` is exactly a replay-file hand (docs/rules.md section 7)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    facts = models.JSONField()
    # Derived by the engine when recorded or corrected, stored so reading never re-scores.
    dealer = models.CharField(max_length=1)
    trump = models.CharField(max_length=1, blank=True)
    outcome = models.CharField(max_length=20, default="played")
    all_fours = models.CharField(max_length=1, blank=True)
    scores = models.JSONField(default=dict, help_text="Running totals after this hand.")
    # The one-time key of the form that recorded it: a resubmitted form finds this hand again.
    entry_key = models.UUIDField(unique=True)
    revision = models.PositiveIntegerField(default=0, help_text="Corrections so far.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entered_hands",
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    corrected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="scoring_hand_number_unique"),
            models.CheckConstraint(name="scoring_hand_number_positive", condition=Q(number__gte=1)),
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number}"

    def get_correct_url(self) -> str:
        return path_for("scoring:hand_correct", self.game_id, self.number)


class Award(models.Model):
    """One point-scoring event of a hand, in strict order; `counted` is false once the game is won
    (or for a game point a renege forfeits)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="awards")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="awards")
    position = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=1)
    # kick, gift, penalty, high, low, jack, hang_jack, game (the game point), capture.
    category = models.CharField(max_length=20)
    points = models.PositiveIntegerField()
    detail = models.CharField(max_length=120, blank=True)
    counted = models.BooleanField(default=True)

    class Meta:
        ordering = ["hand", "position"]
        indexes = [models.Index(fields=["game", "category"], name="scoring_award_category_idx")]
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "position"], name="scoring_award_position_unique"
            ),
            models.CheckConstraint(
                name="scoring_award_points_not_negative", condition=Q(points__gte=0)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.category} {self.points}"


class RevisionAction(models.TextChoices):
    START = "start", "Started"
    RECORD = "record", "Recorded"
    CORRECT = "correct", "Corrected"
    UNDO = "undo", "Undone"
    ABANDON = "abandon", "Abandoned"
    REISSUE = "reissue", "Scoring link re-issued"
    REVOKE = "revoke", "Scoring link revoked"


#: Revisions about the whole game rather than one hand: they carry no hand number.
GAME_ACTIONS = (
    RevisionAction.START,
    RevisionAction.ABANDON,
    RevisionAction.REISSUE,
    RevisionAction.REVOKE,
)


class HandRevision(models.Model):
    """The audit trail: every write to a game, with the facts before and after.

    Starting the game, abandoning it, and re-issuing or revoking its scoring link are recorded
    too, without a hand number (`GAME_ACTIONS`).

    Nothing entered is ever lost: an undone hand's facts stay here after its row is deleted.
    `entry_key` is the one-time key of the form that caused the write, so a resubmitted form is
    recognised and not applied twice.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="revisions")
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    action = models.CharField(max_length=10, choices=RevisionAction.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    scores_before = models.JSONField(default=dict, blank=True)
    scores_after = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hand_revisions",
    )
    # Who else: the scoring link the change came through (scorers have no account), and from where.
    link = models.ForeignKey(
        ScoringLink,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="revisions",
    )
    ip = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    entry_key = models.UUIDField(unique=True, null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["game", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                name="scoring_revision_action_valid", condition=Q(action__in=RevisionAction.values)
            ),
            models.CheckConstraint(
                name="scoring_revision_hand_number",
                condition=Q(action__in=GAME_ACTIONS) | Q(hand_number__gte=1),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.action} hand {self.hand_number}"
