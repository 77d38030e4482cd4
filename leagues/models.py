"""Leagues: who plays whom, where and when, and the results their tables produce.

Writes go through ``leagues.services``; reads for pages through ``leagues.selectors``. The
derived figures (a table's games and pegs, a fixture's result) are stored so that standings
aggregate rows and never replay hands.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower, Upper
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from config.inputs import one_spaced
from config.paths import path_for
from leagues.days import day_beside, long_date, short_date
from leagues.embed import parse_sites, validate_embed_sites
from leagues.formats import STYLE_PRESETS
from leagues.match import MatchFormat
from leagues.nights_off import NightsOff, dates_off
from leagues.tiebreaks import (
    games_word,
    pegged_words,
    pegs_word,
    tiebreak_rule_text,
    validate_tiebreaks,
)
from leagues.zones import site_time_zone, starts_at, today_in, validate_time_zone, zone_words
from scoring.forms.words import signed

if TYPE_CHECKING:
    from scoring.rules import Ruleset


RESERVED_SLUGS = frozenset(
    {"new", "division", "fixture", "team", "player", "manage", "my-fixtures", "live", "requests"}
)
"""Words the leagues' own addresses start with (``leagues/urls.py``): no league may take one,
or its pages and ours would share an address."""


def validate_league_slug(value: str) -> None:
    if value.lower() in RESERVED_SLUGS:
        raise ValidationError(
            "“%(value)s” is a word the site's own addresses use; choose another web address "
            "for the league (e.g. add the town).",
            code="reserved",
            params={"value": value},
        )


def league_address(name: str, typed: str = "") -> str:
    """The web address (slug) of a league called ``name``: the one ``typed``, else made from
    the name. Refused, on the address, when the name has nothing to make one from ("!!!") or
    makes one of the site's own words ("Live"): a league asked for so could never be started."""
    slug = typed.strip() or slugify(name)
    if not slug:
        raise ValidationError(
            {
                "slug": "Give the league a web address (e.g. spen-valley): its name, "
                f"“{one_spaced(name)}”, has no letters (a to z) or digits to make one from."
            }
        )
    try:
        validate_league_slug(slug)
    except ValidationError as exc:
        raise ValidationError({"slug": exc.messages}) from None
    return slug


def name_address(name: str, what: str) -> str:
    """The web address (slug) of a season, division, venue or team (``what``) called ``name``,
    made from the name. Refused, on the name, when it has nothing to make one from ("---"), in
    words as ``league_address`` refuses a league's, not Django's "This field cannot be
    blank." of the address nobody typed."""
    slug = slugify(name)
    if not slug:
        raise ValidationError(
            {
                "name": f"Give the {what} a name with letters (a to z) or digits: "
                f"“{one_spaced(name)}” has none to make its web address from."
            }
        )
    return slug


class Weekday(models.IntegerChoices):
    MONDAY = 0, "Monday"
    TUESDAY = 1, "Tuesday"
    WEDNESDAY = 2, "Wednesday"
    THURSDAY = 3, "Thursday"
    FRIDAY = 4, "Friday"
    SATURDAY = 5, "Saturday"
    SUNDAY = 6, "Sunday"


class Withdrawal(models.TextChoices):
    """What happens to a withdrawn team's fixtures."""

    STAND = "stand", "Results stand; the rest are walkovers to the opponents"
    EXPUNGE = "expunge", "Expunge its results; the rest are void"


def league_name_taken(name: str, *, but: int | None = None) -> str:
    """Why a league may not be called ``name`` (another league is, case and spaces aside), or
    "". Two leagues of one name would be two lines alike on the list of leagues, and a captain
    invited to one could not tell it from the other."""
    name = one_spaced(name)
    if name and League.objects.filter(name__iexact=name).exclude(pk=but).exists():
        return (
            f"There is a league called {name} already: choose another name (its town or "
            "district, say)."
        )
    return ""


def league_address_taken(slug: str, *, but: int | None = None) -> str:
    """Why a league's web address may not be ``slug`` (another league's is), or "": said as
    the address a reader types, never as Django's "League with this Slug already exists"."""
    if slug and League.objects.filter(slug=slug).exclude(pk=but).exists():
        return (
            f"The web address /leagues/{slug}/ is another league's already: choose another "
            "(add the town, say)."
        )
    return ""


class League(models.Model):
    class Style(models.TextChoices):
        YORKSHIRE = "yorkshire", "Yorkshire (pub tables, aggregate bonus)"
        TRINIDAD = "trinidad", "Trinidad (bullseyes and hang jacks)"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True, validators=[validate_league_slug])
    style = models.CharField(max_length=20, choices=Style.choices, default=Style.YORKSHIRE)
    ruleset = models.JSONField(
        default=dict,
        help_text='The ruleset its games use: {"preset": "west_yorkshire", "target": 15, ...}.',
    )
    match_format = models.JSONField(
        default=dict, help_text="Tables, games per table, match points and league points."
    )
    tiebreaks = models.JSONField(
        default=list,
        validators=[validate_tiebreaks],
        help_text="Metric keys in the order that separates teams, starting with points.",
    )
    league_night = models.PositiveSmallIntegerField(
        choices=Weekday.choices, default=Weekday.TUESDAY
    )
    start_time = models.TimeField(default=datetime.time(20, 0))
    time_zone = models.CharField(
        max_length=64,
        default=site_time_zone,
        validators=[validate_time_zone],
        help_text="Where the league plays: its fixtures' times are local times there "
        "(Europe/London, America/Port_of_Spain).",
    )
    description = models.TextField(blank=True)
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="leagues_as_secretary", blank=True
    )
    show_provisional = models.BooleanField(
        default=False,
        help_text="Show submitted results not yet confirmed in the tables, marked provisional.",
    )
    captains_register = models.BooleanField(
        default=True,
        verbose_name="captains add players on the night",
        help_text="A captain seating the pairs may add a player by name to their squad.",
    )
    withdrawal = models.CharField(
        max_length=8,
        choices=Withdrawal.choices,
        default=Withdrawal.STAND,
        verbose_name="when a team withdraws",
        help_text="The usual choice; the secretary may choose the other for one team.",
    )
    withdrawn_take_places = models.BooleanField(
        default=False,
        verbose_name="a withdrawn team takes a relegation place",
        help_text="A withdrawn team always goes down first; ticked, it is one of the division's "
        "relegation places (one fewer playing team goes down), otherwise it goes down as well.",
    )
    embed_sites = models.TextField(
        blank=True,
        validators=[validate_embed_sites],
        help_text="Websites that may show the league's tables in a frame, one a line "
        "(e.g. https://www.royal-oak.example).",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:league", kwargs={"slug": self.slug})

    def today(self) -> datetime.date:
        """Today where the league plays: what its pages take as today (tonight's fixtures,
        the next league night, results up to today)."""
        return today_in(self.time_zone)

    @property
    def time_zone_words(self) -> str:
        """ "Port of Spain time": how the pages and e-mails name the league's times."""
        return zone_words(self.time_zone)

    def clean(self) -> None:
        from scoring.rules import ruleset_from_spec
        from scoring.rules.errors import InvalidFacts

        errors: dict[str, list[str]] = {}
        # Two leagues of one name would be two lines alike on the list of leagues, and a
        # captain invited to one could not tell it from the other.
        taken = league_name_taken(self.name, but=self.pk)
        if taken:
            errors["name"] = [taken]
        # The address is checked here, in the site's words (``validate_unique`` leaves it
        # alone); one refusal when it is the taken name's own.
        address_taken = league_address_taken(self.slug, but=self.pk)
        if address_taken and not (taken and self.slug == slugify(self.name)):
            errors["slug"] = [address_taken]
        try:
            ruleset_from_spec(self.ruleset or STYLE_PRESETS[self.style].ruleset)
        except InvalidFacts as exc:
            errors["ruleset"] = [str(exc)]
        try:
            self.get_match_format()
        except ValidationError as exc:
            errors["match_format"] = exc.messages
        if errors:
            raise ValidationError(errors)

    def validate_unique(self, exclude: Any = None) -> None:
        """As Django's, but the web address: ``clean`` says when it is taken."""
        super().validate_unique(exclude={*(exclude or ()), "slug"})

    def get_ruleset(self) -> Ruleset:
        """The ruleset every game of this league starts with."""
        from scoring.rules import ruleset_from_spec

        return ruleset_from_spec(self.ruleset or STYLE_PRESETS[self.style].ruleset)

    def get_match_format(self) -> MatchFormat:
        if not self.match_format:
            return STYLE_PRESETS[self.style].match_format
        return MatchFormat.from_spec(self.match_format)

    def get_tiebreaks(self) -> list[str]:
        return list(self.tiebreaks or STYLE_PRESETS[self.style].tiebreaks)

    def tiebreak_rule_text(self) -> str:
        return tiebreak_rule_text(self.get_tiebreaks(), self.style)

    @property
    def games_word(self) -> str:
        """ "games" or "bullseyes", as the league says it."""
        return games_word(self.style)

    @property
    def pegs_word(self) -> str:
        """ "pegs" or "points scored", as the league says it."""
        return pegs_word(self.style)

    @property
    def pegged_words(self) -> str:
        """ "points pegged" or "points scored": the figure as a heading says it."""
        return pegged_words(self.style)

    def embed_origins(self) -> list[str]:
        """The websites allowed to frame the league's embed pages, as origins."""
        return parse_sites(self.embed_sites)


def validate_tiebreaks_or_empty(value: object) -> None:
    if value:
        validate_tiebreaks(value)


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60, help_text='e.g. "2025–26" or "Winter 2025".')
    slug = models.SlugField(max_length=60)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    # The season's own rules, copied from the league's when the season is made and editable
    # until its first fixture is played; past seasons keep theirs whatever the league changes.
    ruleset = models.JSONField(default=dict, blank=True, help_text="Empty: the league's.")
    match_format = models.JSONField(default=dict, blank=True, help_text="Empty: the league's.")
    tiebreaks = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_tiebreaks_or_empty],
        help_text="Empty: the league's.",
    )
    # The season's calendar: generation, regeneration and re-arrangement keep to it.
    league_night = models.PositiveSmallIntegerField(
        choices=Weekday.choices, null=True, blank=True, help_text="Empty: the league's night."
    )
    exclusions = models.JSONField(
        default=list,
        blank=True,
        help_text="Nights with no league (bank holidays, Christmas): named ranges of dates, "
        "those marked every year carried into the next season.",
    )
    venue_capacity = models.PositiveSmallIntegerField(
        default=1,
        help_text="Matches one venue can host on one night, unless the venue has its own "
        "number (Venue.matches_a_night).",
    )

    class Meta:
        ordering = ["league", "-starts_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "slug"],
                name="season_unique_slug",
                violation_error_message="The league already has a season of that name (or "
                "one at the same address): choose another name.",
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(venue_capacity__gte=1), name="season_venue_capacity_from_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"

    def get_ruleset(self) -> Ruleset:
        """The ruleset every game of this season starts with."""
        from scoring.rules import ruleset_from_spec

        return ruleset_from_spec(self.ruleset) if self.ruleset else self.league.get_ruleset()

    def get_match_format(self) -> MatchFormat:
        if not self.match_format:
            return self.league.get_match_format()
        return MatchFormat.from_spec(self.match_format)

    def get_tiebreaks(self) -> list[str]:
        return list(self.tiebreaks) if self.tiebreaks else self.league.get_tiebreaks()

    def tiebreak_rule_text(self) -> str:
        return tiebreak_rule_text(self.get_tiebreaks(), self.league.style)

    @property
    def dates_words(self) -> str:
        """When it runs, as the desk says it: "Fri 12 Jun 2026 to Fri 11 Sep 2026", or "from
        Fri 6 Nov 2026, no end set" (the end is optional: a season may start before its
        fixture list settles when it ends; nothing is held to an end until one is set)."""
        if self.ends_on is None:
            return f"from {long_date(self.starts_on)}, no end set"
        return f"{long_date(self.starts_on)} to {long_date(self.ends_on)}"

    @property
    def night(self) -> int:
        """The season's league night (the league's unless the season sets its own)."""
        return self.league.league_night if self.league_night is None else self.league_night

    @property
    def nights_off(self) -> list[NightsOff]:
        """The season's nights with no league, as ranges (``leagues.nights_off``)."""
        return [NightsOff.from_json(value) for value in self.exclusions]

    @property
    def excluded_dates(self) -> frozenset[datetime.date]:
        return dates_off(self.nights_off)

    def calendar_problem(self, day: datetime.date) -> str:
        """Why ``day`` is outside the season's calendar ("" when it is a fine night)."""
        if day < self.starts_on:
            return f"{long_date(day)} is before the season starts ({long_date(self.starts_on)})"
        if self.ends_on is not None and day > self.ends_on:
            return f"{long_date(day)} is after the season ends ({long_date(self.ends_on)})"
        for nights in self.nights_off:
            if nights.covers(day):
                named = f" ({nights.name})" if nights.name else ""
                return f"{long_date(day)} is a night with no league{named}"
        return ""


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60)
    rank = models.PositiveSmallIntegerField(default=1, help_text="1 is the top division.")
    promoted = models.PositiveSmallIntegerField(
        default=2, help_text="Teams promoted at the season's end (when a division is above)."
    )
    relegated = models.PositiveSmallIntegerField(
        default=2, help_text="Teams relegated at the season's end (when a division is below)."
    )

    class Meta:
        ordering = ["season", "rank", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "slug"],
                name="division_unique_slug",
                violation_error_message="The season already has a division of that name (or "
                "one at the same address): choose another name.",
            ),
            models.UniqueConstraint(
                fields=["season", "name"],
                name="division_unique_name",
                violation_error_message="The season already has a division of that name.",
            ),
            # The order the desk, the tables and promotion read: one division at each rank.
            models.UniqueConstraint(
                fields=["season", "rank"],
                name="division_unique_rank",
                violation_error_message="The season already has a division at that rank: "
                "give each division its own (1 is the top).",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season.name})"

    def get_absolute_url(self) -> str:
        return path_for("leagues:division", self.pk)


#: A venue's own number of matches a night (``Venue.matches_a_night``), as its page's field is
#: labelled and every refusal about a full venue names it.
VENUE_MATCHES_A_NIGHT = "Matches it can host a night"
#: A venue's dates it is closed (``Venue.closed``), as its page's field is labelled and its
#: refusals name it.
VENUE_CLOSED = "Closed on"
#: The season's number (``Season.venue_capacity``), as the season's page labels it.
SEASON_MATCHES_A_NIGHT = "Matches a venue can host a night"
#: The most matches a night a venue's number, or the season's, may say (its form's and the
#: import's bound).
MOST_MATCHES_A_NIGHT = 20


class Venue(models.Model):
    """A pub (or club or house) where home fixtures are played, kept by one league.

    Two leagues that meet at the same pub each keep their own venue, so one league's secretary
    never renames another's. A venue without a league is the site operator's (the admin).
    """

    league = models.ForeignKey(
        League,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="venues",
        help_text="The league that keeps it; empty for the site operator's own.",
    )
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    address = models.TextField(blank=True)
    town = models.CharField(max_length=80, blank=True)
    matches_a_night = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Matches it can host on one night (a club with two rooms: 2). Empty: the "
        "season's setting.",
    )
    closed = models.JSONField(
        default=list,
        blank=True,
        help_text="The dates it is closed, as ranges (leagues.nights_off, as a season's nights "
        "with no league are stored): no match is arranged there on them.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(matches_a_night__isnull=True) | Q(matches_a_night__gte=1),
                name="venue_matches_a_night_from_one",
            ),
            # One venue of a name and town in a league, case aside, as the venue services
            # refuse a second (names and towns are stored one-spaced; iexact compares in
            # upper case). The site operator's own (no league) are not held to it.
            models.UniqueConstraint(
                "league",
                Upper("name"),
                Upper("town"),
                name="venue_unique_name",
                violation_error_message="The league already has a venue of that name (and "
                "town): use it, or give this one another name.",
            ),
        ]

    def __str__(self) -> str:
        return venue_words(self.name, self.town)

    def matches_in(self, season: Season) -> int:
        """How many matches it can host on one night of ``season``: its own number, where it
        has one, else the season's (``Season.venue_capacity``)."""
        return self.matches_a_night or season.venue_capacity

    @property
    def closed_ranges(self) -> list[NightsOff]:
        """The dates it is closed, as ranges ("Refurbishment (Thu 14 Jan 2027)")."""
        return [NightsOff.from_json(value) for value in self.closed]


def venue_words(name: str, town: str) -> str:
    """A venue as every page and list names it (``Venue.__str__``, a list's ``ListedVenue``,
    the CSV, the league's home): "Black Bull, Mirfield", its town beside its name where it has
    one, so two venues of the league that share a name are told apart wherever either is
    named; "Black Bull" where no town is kept."""
    return f"{name}, {town}" if town else name


class Player(models.Model):
    name = models.CharField(max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        help_text="The player's own account, if they have one.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    #: Set by ``leagues.selectors.people.name_people`` when the player shares their name with
    #: someone else in their league (not a column).
    distinguished: str | None = None

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return path_for("leagues:player", self.pk)

    @property
    def label(self) -> str:
        """How pages and exports show the player: the name, told apart from a namesake in the
        league ("Linda Dyson (Black Bull)") once ``name_people`` has read them."""
        return self.distinguished or self.name


class Team(models.Model):
    """A club or pub house team; it enters a division each season (``TeamEntry``)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    short_name = models.CharField(max_length=30, blank=True)
    # RESTRICT: a venue in use cannot be deleted on its own, but its league (with its teams,
    # fixtures and venues) can.
    home_venue = models.ForeignKey(Venue, on_delete=models.RESTRICT, related_name="home_teams")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "slug"],
                name="team_unique_slug",
                violation_error_message="The league already has a team of that name (or one "
                "at the same address): choose another name.",
            ),
            models.UniqueConstraint(
                fields=["league", "name"],
                name="team_unique_name",
                violation_error_message="The league already has a team of that name.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return path_for("leagues:team", self.pk)


class TeamEntry(models.Model):
    """A team's place in one division for one season, with that season's captain."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="entries")
    captain = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captaincies",
    )
    captain_contact = models.CharField(
        max_length=200,
        blank=True,
        help_text="The captain's phone or email: for the secretaries, never on a public page.",
    )
    name = models.CharField(
        max_length=120,
        blank=True,
        help_text="The team's name that season (past seasons keep theirs when it is renamed).",
    )
    withdrawn_on = models.DateField(
        null=True, blank=True, help_text="The day the team withdrew from the season."
    )
    withdrawal = models.CharField(
        max_length=8, choices=Withdrawal.choices, blank=True, help_text="Empty unless withdrawn."
    )
    withdrawal_reason = models.TextField(blank=True)
    withdrawal_settled = models.JSONField(
        default=list,
        blank=True,
        help_text="The fixtures the withdrawal settled, as they were (to reinstate the team).",
    )

    class Meta:
        ordering = ["division", "team__name"]
        verbose_name_plural = "team entries"
        constraints = [
            models.UniqueConstraint(
                fields=["team", "season"],
                name="entry_one_division_a_season",
                violation_error_message="That team is already entered in a division this season.",
            ),
            models.CheckConstraint(
                condition=(Q(withdrawn_on__isnull=True) & Q(withdrawal=""))
                | (Q(withdrawn_on__isnull=False) & ~Q(withdrawal="")),
                name="entry_withdrawal_has_date_and_choice",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} in {self.division}"

    @property
    def display_name(self) -> str:
        return self.name or self.team.name

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_on is not None

    @property
    def is_expunged(self) -> bool:
        return self.withdrawal == Withdrawal.EXPUNGE


class Registration(models.Model):
    """A player registered to play for a team in a season: one team per season per league."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="registrations")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="registrations")
    registered_on = models.DateField(default=datetime.date.today)

    class Meta:
        ordering = ["season", "team", "player__name"]
        constraints = [
            # A season belongs to one league, so this is "one team per season per league".
            models.UniqueConstraint(
                fields=["player", "season"],
                name="registration_one_team_a_season",
                violation_error_message="That player is already registered to a team this season.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.team} ({self.season.name})"


class FixtureStatus(models.TextChoices):
    """Where a fixture stands: to play (``TO_PLAY``), played, given as a walkover, or void."""

    SCHEDULED = "scheduled", "Scheduled"
    POSTPONED = "postponed", "Postponed"
    PLAYED = "played", "Played"
    WALKOVER = "walkover", "Walkover"
    VOID = "void", "Void"


#: A fixture still to be played: its tables may be seated and scored, its date moved.
TO_PLAY = (FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED)

#: A postponed fixture's status as the pages say it: it has no date until it is re-arranged.
POSTPONED_WORDS = "Postponed: no new date yet"
#: How a cup tie's postponed fixture's reason begins when its knock-out round's night did not
#: suit it, or its deadline left it no free league night (``cups.services.ties._make_fixture``):
#: it was never set for the night its date holds, and waits for the secretary to arrange one
#: (``Fixture.awaits_night``).
NO_NIGHT_YET = "No night yet"


class FixtureKind(models.TextChoices):
    """What a fixture is for: only league fixtures count in the standings."""

    LEAGUE = "league", "League"
    CUP = "cup", "Cup"
    PLAYOFF = "playoff", "Play-off"
    FRIENDLY = "friendly", "Friendly"


def withdrew_words(team: Any, reason: str) -> str:
    """The reason a withdrawn team's remaining fixture gives (``leagues.services.withdrawal``):
    "Red Lion withdrew: the pub has closed" (words as they were that day: whether a fixture is
    a withdrawal's is ``Fixture.withdrew``)."""
    return f"{team} withdrew: {reason}"


class FixtureWords:
    """What a list prints of a fixture, from its own columns and its teams: the words of the
    model (``Fixture``) and of a list's rows (``leagues.selectors.fixtures.ListedFixture``), which
    carry the same names (``kind``, ``status``, ``walkover_to``, ``walkover_pending``,
    ``withdrew``, ``date``, ``home``, ``away``, ``division``)."""

    kind: str
    status: str
    walkover_to: str
    walkover_pending: bool
    withdrew: str
    reason: str
    date: datetime.date
    original_date: datetime.date | None
    home: Any
    away: Any
    division: Any

    @property
    def listed_under(self) -> str:
        """What a list of fixtures names it by: a league fixture's division, else its kind
        ("Cup": a cup tie is a fixture of its teams' division, but not the division's match)."""
        if self.kind == FixtureKind.LEAGUE:
            return self.division.name
        return FixtureKind(self.kind).label

    @property
    def awaits_night(self) -> bool:
        """Whether it is a cup tie waiting for a night (``NO_NIGHT_YET``): postponed because
        its round's night did not suit it, so never set for the night its date holds (the
        round's, kept for the lists' order). No page reads it as set for that night, and
        there is no postponement of it to undo: it is re-arranged onto a night."""
        return (
            self.status == FixtureStatus.POSTPONED
            and self.kind == FixtureKind.CUP
            and self.reason.startswith(NO_NIGHT_YET)
        )

    @property
    def postponed_words(self) -> str:
        """A postponed fixture's status as the pages and lists say it: "Postponed: no new
        date yet" (``POSTPONED_WORDS``), or a cup tie waiting for its first night's "No night
        yet" (``awaits_night``)."""
        return NO_NIGHT_YET if self.awaits_night else POSTPONED_WORDS

    @property
    def first_set_for(self) -> str:
        """The day a re-arranged fixture was first set for, as the lists write a day ("Tue 22
        Dec"; "Tue 22 Dec 2026" when it moved into another year); "" when it is on that day
        still."""
        if self.original_date is None or self.original_date == self.date:
            return ""
        return day_beside(self.original_date, self.date)

    @property
    def walkover_winner(self) -> Any:
        """The team given the walkover (None when it is not one)."""
        if self.status != Fixture.Status.WALKOVER or not self.walkover_to:
            return None
        return self.home if self.walkover_to == Fixture.Side.HOME else self.away

    @property
    def walkover_loser(self) -> Any:
        """The team the walkover was given against (None when it is not one)."""
        winner = self.walkover_winner
        if winner is None:
            return None
        return self.away if self.walkover_to == Fixture.Side.HOME else self.home

    @property
    def withdrawn_team(self) -> Any:
        """The team whose withdrawal settled the fixture (None when none did)."""
        if not self.withdrew:
            return None
        return self.home if self.withdrew == Fixture.Side.HOME else self.away

    @property
    def walkover_withdrew(self) -> bool:
        """Whether the walkover is one of a withdrawn team's remaining fixtures (``withdrew``),
        not one the secretary gave (the loser conceded)."""
        return self.walkover_winner is not None and bool(self.withdrew)

    @property
    def walkover_words(self) -> str:
        """A walkover as a league player reads it: "Walkover to Black Bull", and for one given
        ahead of its night (it counts on that night), "Walkover to Black Bull on Tue 9 Dec (Red
        Lion withdrew)" for a withdrawn team's, "... (Red Lion conceded)" for one the secretary
        gave."""
        winner = self.walkover_winner
        if winner is None:
            return ""
        if not self.walkover_pending:
            return f"Walkover to {winner}"
        why = "withdrew" if self.walkover_withdrew else "conceded"
        return f"Walkover to {winner} on {short_date(self.date)} ({self.walkover_loser} {why})"


#: From when a match's start is said to be "tonight" (before: "today", an afternoon match),
#: and from when, by the league's own clock, its day's matches are tonight's (``day_word``).
EVENING = datetime.time(17, 0)


def day_word(at: datetime.time) -> str:
    """ "tonight" from ``EVENING`` (17:00), "today" before it, ``at`` being a time of day in a
    league's own zone: a match's start ("This match starts at 12:00 London time today"), or the
    league's clock now, for its day's matches (My fixtures' "Today" at noon, the league home's
    "follow today's matches live"). The one rule for saying which."""
    return "tonight" if at >= EVENING else "today"


class Fixture(FixtureWords, models.Model):
    Status = FixtureStatus
    #: Still to be played (scheduled or postponed).
    TO_PLAY = TO_PLAY

    class Side(models.TextChoices):
        HOME = "home", "Home"
        AWAY = "away", "Away"

    Kind = FixtureKind

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Round of the generated fixture list; empty if added."
    )
    # RESTRICT, not PROTECT: a team with fixtures cannot be deleted on its own, but deleting
    # the whole league (which deletes the fixtures too) is allowed.
    home = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="home_fixtures")
    away = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="away_fixtures")
    kind = models.CharField(
        max_length=10,
        choices=Kind.choices,
        default=Kind.LEAGUE,
        help_text="Only league fixtures count in the standings.",
    )
    date = models.DateField()
    time = models.TimeField(
        default=datetime.time(20, 0), help_text="Local time at the venue, in the league's zone."
    )
    venue = models.ForeignKey(Venue, on_delete=models.RESTRICT, related_name="fixtures")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    walkover_to = models.CharField(
        max_length=4, choices=Side.choices, blank=True, help_text="Who was given the walkover."
    )
    walkover_pending = models.BooleanField(
        default=False,
        help_text="A walkover given ahead of its night (a withdrawn team's remaining fixture): "
        "it counts once its date has come (leagues.services.withdrawal.settle_due_walkovers).",
    )
    withdrew = models.CharField(
        max_length=4,
        choices=Side.choices,
        blank=True,
        help_text="The side whose withdrawal settled it (its walkover or void, put back by "
        "reinstating the team); empty when the secretary did.",
    )
    original_date = models.DateField(
        null=True, blank=True, help_text="The date first scheduled, once postponed or moved."
    )
    reason = models.TextField(blank=True, help_text="Why it was postponed, voided or conceded.")
    note = models.TextField(blank=True, help_text="Scheduling notes, e.g. a move for a venue.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["date", "time", "pk"]
        indexes = [
            # A division's lists in their order: its latest results and next fixtures (the
            # league's home, for a season of one division) are the first few read along it,
            # not the first few of every league's read along the next index (under the plan
            # PostgreSQL keeps for a prepared read, ``config.settings``, it chose that one).
            models.Index(
                fields=["division", "date", "time", "id"], name="fixture_division_list_order"
            ),
            # A division's nights (``division_nights``: each night's kinds, and the night a
            # re-arranged fixture was first arranged for) read from the index alone, in order,
            # each distinct night once: not every fixture's row fetched, hashed and sorted (a
            # 100-team division has 9,900 fixtures on 198 nights).
            models.Index(
                fields=["division", "date", "kind", "original_date"],
                name="fixture_division_nights",
            ),
            # In the lists' order: a league's latest results and next fixtures (its home page)
            # are the first few read along it, not all of a season's sorted for eight.
            models.Index(fields=["date", "time", "id"], name="fixture_list_order"),
            # The fixtures still to play, in the lists' order: a league's next fixtures are the
            # first few from today along it, however many fixtures every league has played (a
            # season with none left to play found that out by reading the whole table).
            models.Index(
                fields=["date", "time", "id"],
                condition=Q(status__in=TO_PLAY),
                name="fixture_to_play_order",
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="fixture_home_not_away"),
            models.UniqueConstraint(
                fields=["division", "round", "home"],
                condition=Q(round__isnull=False),
                name="fixture_home_once_a_round",
            ),
            models.UniqueConstraint(
                fields=["division", "round", "away"],
                condition=Q(round__isnull=False),
                name="fixture_away_once_a_round",
            ),
            models.CheckConstraint(
                condition=(Q(status="walkover") & ~Q(walkover_to=""))
                | (~Q(status="walkover") & Q(walkover_to="")),
                name="fixture_walkover_has_winner",
            ),
            models.CheckConstraint(
                condition=Q(walkover_pending=False) | Q(status="walkover"),
                name="fixture_pending_is_walkover",
            ),
            # A withdrawal gives the fixture to the other side, or voids it.
            models.CheckConstraint(
                condition=Q(withdrew="")
                | Q(withdrew__in=["home", "away"], status="void")
                | (
                    Q(withdrew__in=["home", "away"], status="walkover")
                    & ~Q(walkover_to=F("withdrew"))
                ),
                name="fixture_withdrawal_settles_it",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=FixtureKind.values),
                name="fixture_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home} v {self.away}, {long_date(self.date)}"

    def get_absolute_url(self) -> str:
        return path_for("leagues:fixture", self.pk)

    @property
    def league(self) -> League:
        """Its division's season's league (select it with the fixture): whose style and rules
        its result is read by. A list's row (``ListedFixture``) is given its list's."""
        return self.division.season.league

    def has_started(self) -> bool:
        """Whether the match has started: its date and time have come where its league plays
        (``starts_at``). Its score card is entered from then on, not while it is still to be
        played that night."""
        return timezone.now() >= self.starts_at

    def starts_words(self) -> str:
        """When the match starts, in its league's own time, as what waits for it says so:
        "This match starts at 20:00 Port of Spain time tonight" on its day ("today" for an
        afternoon match), "This match is on Tue 9 Sep 2025 at 20:00 London time" before it: the
        zone named as the pages name a fixture's time (``League.time_zone_words``). Its score
        card's refusal and its tables' (``leagues.services.cards``, ``.results``) go on from
        it. A postponed match is not played on its date, and has no other until it is
        re-arranged: "Postponed: no new date yet (it was set for Tue 9 Sep 2025 at 20:00 London
        time)"."""
        at = f"{self.time:%H:%M} {self.league.time_zone_words}"
        if self.awaits_night:
            return f"{NO_NIGHT_YET}: the secretary arranges its night"
        if self.status == self.Status.POSTPONED:
            return f"{POSTPONED_WORDS} (it was set for {long_date(self.date)} at {at})"
        if self.date == self.league.today():
            return f"This match starts at {at} {day_word(self.time)}"
        return f"This match is on {long_date(self.date)} at {at}"

    @property
    def starts_at(self) -> datetime.datetime:
        """When it starts, as an instant: its date and time in its league's zone (read
        through ``division__season__league``; select it with the fixture)."""
        return starts_at(self.date, self.time, self.division.season.league.time_zone)

    @property
    def is_settled(self) -> bool:
        """Whether its result is final: played to the end or given as a walkover."""
        return self.status in (self.Status.PLAYED, self.Status.WALKOVER)


class Outcome(models.TextChoices):
    HOME = "home", "Home win"
    AWAY = "away", "Away win"
    DRAW = "draw", "Draw"


class FixtureTable(models.Model):
    """One board of a fixture: the pair each side fielded and the figures its games gave."""

    class TableOutcome(models.TextChoices):
        HOME = "home", "Home"
        AWAY = "away", "Away"
        HALVED = "halved", "Halved"

    class Source(models.TextChoices):
        HANDS = "hands", "scored hand by hand"
        CARD = "card", "from the score card"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="tables")
    board = models.PositiveSmallIntegerField()
    # The table's private scoring link: every game played at the table is attached to it.
    scoring_link = models.ForeignKey(
        "scoring.ScoringLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fixture_tables",
    )
    home_player_1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="home_seats_1"
    )
    home_player_2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="home_seats_2"
    )
    away_player_1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="away_seats_1"
    )
    away_player_2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="away_seats_2"
    )
    # Who seated each side's pair (the account; None: not known, or no one's): another
    # side's captain or a secretary is asked to confirm before replacing a pair its own captain
    # seated (``leagues.services.seating.table_seat``).
    home_seated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    away_seated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Where the table's figures come from: its games scored hand by hand at the table, or the
    # paper score card as typed (``card``: what the card says, ``leagues.services.cards``).
    source = models.CharField(max_length=5, choices=Source.choices, default=Source.HANDS)
    card = models.JSONField(
        default=dict,
        blank=True,
        help_text='The score card as typed: {"games": [[11, 7]], "bullseyes": [2, 1], '
        '"hang_jacks": [1, 0]}.',
    )
    # Derived from the table's games (or its card) by ``leagues.services.results``.
    home_games = models.PositiveSmallIntegerField(default=0)
    away_games = models.PositiveSmallIntegerField(default=0)
    home_pegs = models.PositiveIntegerField(default=0)
    away_pegs = models.PositiveIntegerField(default=0)
    home_hang_jacks = models.PositiveSmallIntegerField(default=0)
    away_hang_jacks = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(
        max_length=6, choices=TableOutcome.choices, blank=True, help_text="Empty until decided."
    )

    class Meta:
        ordering = ["fixture", "board"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "board"], name="table_unique_board"),
            models.CheckConstraint(condition=Q(board__gte=1), name="table_board_from_one"),
            models.CheckConstraint(
                condition=Q(source__in=["hands", "card"]), name="table_source_valid"
            ),
            models.CheckConstraint(
                condition=Q(home_player_1__isnull=True)
                | Q(home_player_2__isnull=True)
                | ~Q(home_player_1=F("home_player_2")),
                name="table_home_pair_distinct",
            ),
            models.CheckConstraint(
                condition=Q(away_player_1__isnull=True)
                | Q(away_player_2__isnull=True)
                | ~Q(away_player_1=F("away_player_2")),
                name="table_away_pair_distinct",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.fixture}, table {self.board}"

    @property
    def home_pair(self) -> list[Player]:
        return [p for p in (self.home_player_1, self.home_player_2) if p is not None]

    @property
    def away_pair(self) -> list[Player]:
        return [p for p in (self.away_player_1, self.away_player_2) if p is not None]

    abandoned = False
    """Whether its game was abandoned at the table and nothing since, as
    ``leagues.services.seating.mark_abandoned`` marks the tables a page shows (False where it
    was not asked): its result comes from the score card, or a secretary starts it again."""
    abandoned_at = ""
    """The score its abandoned game stopped at, home first ("5–3"), where ``abandoned``."""

    @property
    def from_card(self) -> bool:
        return self.source == self.Source.CARD

    @property
    def nothing_finished(self) -> bool:
        """Whether the table is still being played with none of its games finished (no
        outcome, no card): its figures are none yet, not 0–0."""
        return not (self.outcome or self.from_card or self.home_games or self.away_games)

    @property
    def has_pegs(self) -> bool:
        """Whether the table's pegs are known: not when its card gave the games (bullseyes)
        alone, without their scores (its pegs are then 0–0, which nobody pegged)."""
        return not (self.from_card and not self.card.get("games"))


class TableGame(models.Model):
    """A ``scoring.Game`` played at a fixture table (side A home, side B away)."""

    table = models.ForeignKey(FixtureTable, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(
        "scoring.Game", on_delete=models.CASCADE, related_name="league_game"
    )
    number = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="table_game_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_game_number_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, game {self.number}"


class PairFigures(models.Model):
    """One side's figures at a fixture table, from the table's finished games' stored hands
    (a table from the score card: its games and hang jacks): what the player and pair
    statistics add up (``leagues.selectors.statistics``), stored by the roll-up
    (``leagues.services.figures``) in the transaction of every change to the fixture's games,
    so that a page sums a few rows instead of counting every award. Whether they count is read
    from the fixture at the time (``leagues.selectors.counting``). A side with no finished
    game, or no player known, has no row."""

    table = models.ForeignKey(FixtureTable, on_delete=models.CASCADE, related_name="figures")
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="pair_figures")
    side = models.CharField(max_length=1, help_text="A: the home pair; B: the away pair.")
    # The pair, the lower id first (a side of one player has no second).
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    highs = models.PositiveIntegerField(default=0)
    lows = models.PositiveIntegerField(default=0)
    jacks = models.PositiveIntegerField(default=0)
    hang_jacks_taken = models.PositiveIntegerField(default=0)
    hang_jacks_given = models.PositiveIntegerField(default=0)
    game_points = models.PositiveIntegerField(default=0)
    kicks = models.PositiveIntegerField(default=0)
    all_fours = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "side"], name="pair_figures_unique_side"),
            models.CheckConstraint(condition=Q(side__in=["A", "B"]), name="pair_figures_side"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, side {self.side}"


class FixtureResult(models.Model):
    """A fixture's result, derived from its tables (or the walkover score); one per fixture.

    Kept apart from ``Fixture`` so that submission and confirmation can be added around it.
    Standings count only final results of played or walked-over fixtures.
    """

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="result")
    is_final = models.BooleanField(default=False, help_text="Every table decided, or walkover.")
    is_walkover = models.BooleanField(default=False)
    outcome = models.CharField(
        max_length=4, choices=Outcome.choices, blank=True, help_text="Empty until final."
    )
    home_tables = models.PositiveSmallIntegerField(default=0)
    away_tables = models.PositiveSmallIntegerField(default=0)
    tables_halved = models.PositiveSmallIntegerField(default=0)
    home_games = models.PositiveSmallIntegerField(default=0)
    away_games = models.PositiveSmallIntegerField(default=0)
    home_pegs = models.PositiveIntegerField(default=0)
    away_pegs = models.PositiveIntegerField(default=0)
    home_hang_jacks = models.PositiveSmallIntegerField(default=0)
    away_hang_jacks = models.PositiveSmallIntegerField(default=0)
    home_match_points = models.PositiveSmallIntegerField(default=0)
    away_match_points = models.PositiveSmallIntegerField(default=0)
    home_points = models.PositiveSmallIntegerField(
        default=0, help_text="Points to the league table: league points (+ match points)."
    )
    away_points = models.PositiveSmallIntegerField(default=0)
    # What was recorded of it, stored with its figures by the result pipeline
    # (``leagues.services.results.result_store``): a figure nobody recorded is stored 0, which
    # is not a score (``leagues.selectors.fixtures.not_recorded``).
    imported = models.BooleanField(
        default=False,
        help_text="Imported from the league's own records with its match points and games "
        "alone (no tables): its pegs, hang jacks and, where the games do not say them, tables "
        "won were not recorded.",
    )
    pegs_recorded = models.BooleanField(
        default=True,
        help_text="Some table's pegs are known: not an imported result's, nor one whose every "
        "table's score card gave the games without their scores.",
    )
    # How the result stands, as ``leagues.selectors.counting`` defines it from the fixture's
    # submissions and the teams' entries, stored with every change to either
    # (``leagues.services.standings.store_result_standing``) so that every list and table reads
    # four columns, not a search of every submission.
    confirmed = models.BooleanField(
        default=False, help_text="A submission of it was confirmed or settled."
    )
    submitted = models.BooleanField(
        default=False,
        help_text="A side has submitted it (a submission stands, confirmed or not): before "
        "that it waits for a captain to submit it, not for a confirmation.",
    )
    expunged = models.BooleanField(
        default=False, help_text="Either team withdrew with its results expunged."
    )
    disputed = models.BooleanField(
        default=False,
        help_text="The other side disputes its submission: it waits for a secretary to settle "
        "it, not for a confirmation.",
    )
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # The results played to the end and not yet agreed (nor expunged): the few a
            # league that counts only agreed results awaits (its home's "Awaiting results",
            # ``leagues.selectors.fixtures.awaiting_query``), found without reading every
            # result there is.
            models.Index(
                fields=["fixture"],
                condition=Q(is_final=True, confirmed=False, expunged=False),
                name="result_to_agree",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    home_tables__gte=0,
                    away_tables__gte=0,
                    home_games__gte=0,
                    away_games__gte=0,
                    home_pegs__gte=0,
                    away_pegs__gte=0,
                    home_match_points__gte=0,
                    away_match_points__gte=0,
                    home_points__gte=0,
                    away_points__gte=0,
                ),
                name="result_non_negative",
            ),
            models.CheckConstraint(
                condition=Q(is_final=False, outcome="") | (Q(is_final=True) & ~Q(outcome="")),
                name="result_outcome_when_final",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.fixture}: {self.home_match_points}–{self.away_match_points}"


class PointAdjustment(models.Model):
    """Points taken from (negative) or given to (positive) a team's entry, with the reason."""

    entry = models.ForeignKey(TeamEntry, on_delete=models.CASCADE, related_name="adjustments")
    points = models.SmallIntegerField(help_text="Negative for a deduction.")
    reason = models.TextField()
    fixture = models.ForeignKey(
        Fixture,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="adjustments",
        help_text="The fixture it arose from, if any.",
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="point_adjustments_made",
    )
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["made_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(points=0), name="adjustment_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        kind = "deduction" if self.points < 0 else "award"
        return f"{self.entry.team}: {signed(self.points)} ({kind}) — {self.reason}"


class DivisionTable(models.Model):
    """A division's league table as its results stand, stored: kept in step by
    ``leagues.services.standings.refresh_division_table`` in the transaction of every change to
    what counts (``leagues.selectors.counting``), so that a page reads it instead of adding up
    every result. ``manage.py rebuild_standings`` works every table out again from the results.
    """

    division = models.OneToOneField(
        Division, on_delete=models.CASCADE, primary_key=True, related_name="table"
    )
    counted = models.PositiveIntegerField(default=0, help_text="League fixtures that count.")
    remaining = models.JSONField(
        default=list,
        blank=True,
        help_text="The league fixtures (not void) still to count, as [home team id, away team "
        "id] pairs: who can still win it reads them.",
    )
    nights = models.JSONField(
        default=list,
        blank=True,
        help_text="The league nights with a counted result, in order (ISO dates): each row's "
        "nights are its points on these.",
    )
    adjusted = models.PositiveIntegerField(
        default=0,
        help_text="Point adjustments made in the division: its pages read them only when there "
        "are some.",
    )
    band = models.JSONField(
        default=list,
        blank=True,
        help_text="In a division of more than 20 teams (leagues.progression.BAND_ABOVE), the "
        "chart's grey band: [ISO date, lowest, highest] of its teams' points after each day the "
        "chart runs over (empty in a smaller division: the page reads every team's points).",
    )
    refreshed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Table of {self.division}"


class TableRow(models.Model):
    """One team's line of a stored division table: every figure its tie-breaks and pages
    read, its place (the league's tie-breaks applied, head-to-head included), its last five
    results and the points it gained on each league night (the chart)."""

    table = models.ForeignKey(DivisionTable, on_delete=models.CASCADE, related_name="rows")
    entry = models.OneToOneField(TeamEntry, on_delete=models.CASCADE, related_name="table_row")
    position = models.PositiveIntegerField()
    tied = models.BooleanField(default=False)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    games_for = models.PositiveIntegerField(default=0)
    games_against = models.PositiveIntegerField(default=0)
    tables_won = models.PositiveIntegerField(default=0)
    pegs_for = models.PositiveIntegerField(default=0)
    pegs_against = models.PositiveIntegerField(default=0)
    hang_jacks_for = models.PositiveIntegerField(default=0)
    hang_jacks_against = models.PositiveIntegerField(default=0)
    match_points = models.PositiveIntegerField(default=0)
    result_points = models.IntegerField(default=0)
    adjustments = models.IntegerField(default=0)
    head_to_head = models.IntegerField(
        null=True, blank=True, help_text="Points against the teams it was level with, if needed."
    )
    provisional = models.PositiveIntegerField(default=0)
    form = models.CharField(max_length=5, blank=True, help_text="Last five results, oldest first.")
    nights = models.JSONField(
        default=list,
        blank=True,
        help_text="Points gained on each of the table's league nights (its nights), in order.",
    )

    class Meta:
        ordering = ["table", "position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(played=F("won") + F("drawn") + F("lost")),
                name="table_row_played_is_won_drawn_lost",
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="table_row_position"),
            models.CheckConstraint(
                condition=Q(provisional__lte=F("played")), name="table_row_provisional_played"
            ),
            models.CheckConstraint(
                condition=Q(form__regex=r"^[WDL]{0,5}$"), name="table_row_form_marks"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.division}: {self.position}. {self.entry}"


class SubmissionStatus(models.TextChoices):
    SUBMITTED = "submitted", "Submitted, awaiting confirmation"
    CONFIRMED = "confirmed", "Confirmed"
    DISPUTED = "disputed", "Disputed"
    SETTLED = "settled", "Settled by the secretary"
    WITHDRAWN = "withdrawn", "Withdrawn"


class ConfirmedAs(models.TextChoices):
    CAPTAINS = "captains", "Agreed by both captains"
    SIDES = "sides", "Agreed by both sides"
    SECRETARY = "secretary", "Confirmed by a secretary"
    IMPORTED = "imported", "Imported from the league's own records"


class ResultAgreement(models.Model):
    """A result put forward by one side (or the table) and agreed by both sides, or confirmed
    or settled by a secretary: the one shape of a league fixture's submission
    (``ResultSubmission``) and a cup race tie's (``cups.TieResult``). Their rules are one
    service, ``leagues.services.agreement``; their database rules are ``agreement_constraints``.

    A result counts only when both sides agreed (``home_agreed_by`` and ``away_agreed_by``, two
    accounts), or a secretary who did not submit it confirmed or settled it. ``figures`` is the
    result as submitted; agreeing checks it still matches the games.
    """

    Status = SubmissionStatus
    ConfirmedAs = ConfirmedAs

    #: The statuses that make a result count.
    CONFIRMED_STATUSES = (Status.CONFIRMED, Status.SETTLED)
    #: The statuses still waiting for someone.
    OPEN_STATUSES = (Status.SUBMITTED, Status.DISPUTED)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUBMITTED)
    figures = models.JSONField(default=dict, help_text="The result as submitted.")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_by_link = models.ForeignKey(
        "scoring.ScoringLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    submitted_at = models.DateTimeField(default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Each side's agreement: the account that agreed for it (the submitter's own side when one
    # side submits; a table link's or a secretary's submission belongs to neither side).
    home_agreed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    away_agreed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_as = models.CharField(
        max_length=10,
        choices=ConfirmedAs.choices,
        blank=True,
        help_text="How it came to count (empty until it does).",
    )
    dispute_reason = models.TextField(blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    settlement = models.TextField(blank=True, help_text="How the secretary settled the dispute.")

    class Meta:
        abstract = True

    @property
    def is_confirmed(self) -> bool:
        return self.status in self.CONFIRMED_STATUSES

    @property
    def submitter_label(self) -> str:
        if self.submitted_by is not None:
            return self.submitted_by.get_username()
        return f"scoring link “{self.submitted_by_link}”"


def agreement_constraints(prefix: str, owner: str) -> list[models.BaseConstraint]:
    """The database's rules for a ``ResultAgreement`` about ``owner`` (its foreign key's name):
    the confirmer and the settler are never the submitter, but as a secretary (whom the service
    lets judge what they submitted only as the league's only secretary, or typing the card both
    captains signed: ``agreement.judges``), a counted result says how it came to count, one
    agreed by both sides has two accounts' agreement, and an owner has at most one counted and
    one open result."""
    counted = ["confirmed", "settled"]
    return [
        models.CheckConstraint(
            name=f"{prefix}_status_valid", condition=Q(status__in=SubmissionStatus.values)
        ),
        models.CheckConstraint(
            name=f"{prefix}_has_submitter",
            condition=Q(submitted_by__isnull=False)
            | Q(submitted_by_link__isnull=False)
            | Q(confirmed_as=ConfirmedAs.IMPORTED),
        ),
        models.CheckConstraint(
            name=f"{prefix}_confirmer_not_submitter",
            condition=Q(confirmed_by__isnull=True)
            | Q(submitted_by__isnull=True)
            | ~Q(confirmed_by=F("submitted_by"))
            | Q(confirmed_as=ConfirmedAs.SECRETARY),
        ),
        models.CheckConstraint(
            name=f"{prefix}_settler_not_submitter",
            condition=Q(settled_by__isnull=True)
            | Q(submitted_by__isnull=True)
            | ~Q(settled_by=F("submitted_by"))
            | Q(confirmed_as=ConfirmedAs.SECRETARY)
            | Q(status=SubmissionStatus.WITHDRAWN),
        ),
        models.CheckConstraint(
            name=f"{prefix}_confirmed_has_confirmer",
            condition=~Q(status__in=counted)
            | Q(confirmed_by__isnull=False, confirmed_at__isnull=False)
            | Q(confirmed_as=ConfirmedAs.IMPORTED, confirmed_at__isnull=False),
        ),
        models.CheckConstraint(
            name=f"{prefix}_confirmed_says_how",
            condition=~Q(status__in=counted) | Q(confirmed_as__in=ConfirmedAs.values),
        ),
        models.CheckConstraint(
            name=f"{prefix}_both_sides_agreed",
            condition=Q(confirmed_as__in=["", ConfirmedAs.SECRETARY, ConfirmedAs.IMPORTED])
            | (
                Q(home_agreed_by__isnull=False, away_agreed_by__isnull=False)
                & ~Q(home_agreed_by=F("away_agreed_by"))
            ),
        ),
        models.CheckConstraint(
            name=f"{prefix}_settled_by_secretary",
            condition=~Q(status="settled") | Q(confirmed_as=ConfirmedAs.SECRETARY),
        ),
        models.CheckConstraint(
            name=f"{prefix}_dispute_has_reason",
            condition=~Q(status="disputed") | ~Q(dispute_reason=""),
        ),
        models.UniqueConstraint(
            fields=[owner],
            condition=Q(status__in=counted),
            name=f"{prefix}_one_confirmed_a_{owner}",
        ),
        models.UniqueConstraint(
            fields=[owner],
            condition=Q(status__in=["submitted", "disputed"]),
            name=f"{prefix}_one_open_a_{owner}",
        ),
    ]


class ResultSubmission(ResultAgreement):
    """A league fixture's result: a captain's submission is their team's agreement, a table
    link's (or a secretary's) belongs to neither team, and each side's captain agrees in turn;
    or a secretary who did not submit it confirms (or settles) it."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="submissions")
    signed_card = models.BooleanField(
        default=False,
        help_text="Confirmed from the score card both captains signed, as a secretary typed it.",
    )
    settled_with_card = models.BooleanField(
        default=False,
        help_text="Settled with the score card the secretary entered: the figures are theirs.",
    )

    class Meta:
        ordering = ["fixture", "-submitted_at", "-pk"]
        constraints = agreement_constraints("submission", "fixture")

    def __str__(self) -> str:
        return f"{self.fixture}: {self.get_status_display()}"


class AuditEntry(models.Model):
    """One change to a league's results, adjustments or registrations: who, when, from where,
    before and after. Written by the services in the same transaction as the change."""

    class Action(models.TextChoices):
        """What was done: one of these (``leagues.audit.audit_log`` refuses another), so the
        notices and the pages that read an entry's action know every one."""

        ACCOUNT_CREATED = "account_created", "Account created"
        ADJUSTMENT_MADE = "adjustment_made", "Points adjusted"
        ADJUSTMENT_WITHDRAWN = "adjustment_withdrawn", "Points adjustment withdrawn"
        CAPTAIN_ACCOUNT_LINKED = "captain_account_linked", "Captain's account linked"
        CAPTAIN_ACCOUNT_UNLINKED = "captain_account_unlinked", "Captain's account unlinked"
        CAPTAIN_CHANGED = "captain_changed", "Captain changed"
        CAPTAIN_CONTACT_CHANGED = "captain_contact_changed", "Captain's contact details changed"
        CARD_ENTERED = "card_entered", "Score card entered"
        CONFIRMED_RESULT_CHANGED = "confirmed_result_changed", "Confirmed result changed"
        CUP_CHANGED = "cup_changed", "Cup changed"
        CUP_CREATED = "cup_created", "Cup created"
        CUP_DRAWN = "cup_drawn", "Cup drawn"
        CUP_ENTRANT_ADDED = "cup_entrant_added", "Cup entrant added"
        CUP_ENTRANT_REMOVED = "cup_entrant_removed", "Cup entrant removed"
        CUP_POSTPONED = "cup_postponed", "Cup tie postponed"
        CUP_REVERSED = "cup_reversed", "Cup tie reversed"
        CUP_ROUND_DATED = "cup_round_dated", "Cup round dated"
        CUP_SETTLED = "cup_settled", "Cup tie settled"
        CUP_TIE_DECIDED = "cup_tie_decided", "Cup tie decided"
        CUP_TIE_UNDECIDED = "cup_tie_undecided", "Cup tie no longer decided"
        CUP_WALKOVER = "cup_walkover", "Cup tie walkover"
        DIVISION_ADDED = "division_added", "Division added"
        DIVISION_UPDATED = "division_updated", "Division changed"
        FIXTURE_ADDED = "fixture_added", "Fixture added"
        FIXTURE_POSTPONED = "fixture_postponed", "Fixture postponed"
        FIXTURE_REARRANGED = "fixture_rearranged", "Fixture re-arranged"
        FIXTURE_REINSTATED = "fixture_reinstated", "Fixture reinstated"
        FIXTURE_SETTLED_BY_WITHDRAWAL = "fixture_settled_by_withdrawal", "Settled by a withdrawal"
        FIXTURE_UNDONE = "fixture_undone", "Walkover or void undone"
        FIXTURES_GENERATED = "fixtures_generated", "Fixture list generated"
        GAME_TAKEN_AWAY = "game_taken_away", "Next game taken away"
        INVITATION_ACCEPTED = "invitation_accepted", "Invitation accepted"
        INVITATION_RESENT = "invitation_resent", "Invitation sent again"
        INVITATION_SENT = "invitation_sent", "Invitation sent"
        INVITATION_WITHDRAWN = "invitation_withdrawn", "Invitation withdrawn"
        LEAGUE_CREATED = "league_created", "League started"
        LEAGUE_EMBED_SITES = "league_embed_sites", "Websites showing the tables changed"
        LEAGUE_IMPORTED = "league_imported", "League imported"
        LEAGUE_RESTORED = "league_restored", "League restored"
        LEAGUE_UPDATED = "league_updated", "League changed"
        LINK_REISSUED = "link_reissued", "Scoring link re-issued"
        LINK_REVOKED = "link_revoked", "Scoring link revoked"
        PLAYOFF_GIVEN = "playoff_given", "Play-off game's score given"
        PLAYOFF_WITHDRAWN = "playoff_withdrawn", "Play-off game's score withdrawn"
        REGISTRATION_ADDED = "registration_added", "Player registered"
        REGISTRATION_CANCELLED = "registration_cancelled", "Registration cancelled"
        RESULT_AGREED = "result_agreed", "Result agreed"
        RESULT_CONFIRMED = "result_confirmed", "Result confirmed"
        RESULT_DISPUTED = "result_disputed", "Result disputed"
        RESULT_IMPORTED = "result_imported", "Result imported"
        RESULT_REJECTED = "result_rejected", "Dispute settled, the result set aside"
        RESULT_REOPENED = "result_reopened", "Result reopened"
        RESULT_SETTLED = "result_settled", "Dispute settled"
        RESULT_SUBMITTED = "result_submitted", "Result submitted"
        SEASON_ADDED = "season_added", "Season added"
        SEASON_STARTED_NEXT = "season_started_next", "Next season started"
        SEASON_UPDATED = "season_updated", "Season changed"
        SECRETARY_ADDED = "secretary_added", "Secretary added"
        SECRETARY_REMOVED = "secretary_removed", "Secretary removed"
        SUBMISSION_WITHDRAWN = "submission_withdrawn", "Submitted result withdrawn"
        TABLE_RESTARTED = "table_restarted", "Table started again"
        TABLE_SEATED = "table_seated", "Table seated"
        TABLE_STARTED = "table_started", "Table started"
        TABLES_SET = "tables_set", "Pairs seated"
        TEAM_ADDED = "team_added", "Team added"
        TEAM_ENTERED = "team_entered", "Team entered"
        TEAM_MOVED = "team_moved", "Team moved"
        TEAM_REINSTATED = "team_reinstated", "Team reinstated"
        TEAM_UPDATED = "team_updated", "Team changed"
        TEAM_WITHDRAWN = "team_withdrawn", "Team withdrawn"
        VENUE_ADDED = "venue_added", "Venue added"
        VENUE_UPDATED = "venue_updated", "Venue changed"
        VOID = "void", "Fixture made void"
        WALKOVER = "walkover", "Walkover given"
        WALKOVER_COUNTED = "walkover_counted", "Walkover counted"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit_entries")
    fixture = models.ForeignKey(
        Fixture, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    action = models.CharField(max_length=40, choices=Action.choices)
    subject = models.CharField(max_length=200, help_text="What was changed, in words.")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_audit_entries",
    )
    link = models.ForeignKey(
        "scoring.ScoringLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_audit_entries",
    )
    ip = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["league", "-at"]), models.Index(fields=["fixture", "-at"])]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.subject}"


#: An invitation not yet answered: neither accepted nor withdrawn. An expired one still is (it
#: is sent again, with a new link, not made anew): one such an address, role and team.
INVITATION_UNANSWERED = Q(accepted_at__isnull=True, withdrawn_at__isnull=True)


class Invitation(models.Model):
    """An e-mail asking someone to become a secretary of a league, or to log in as a team's
    captain: its link lets them set their own password (or use an account they have) until it
    expires. Resending renews the link (the old one stops working); withdrawing ends it. An
    address has one unanswered invitation to be a league's secretary, and one to be a team's
    captain (that player): a second would be a second link that works."""

    class Role(models.TextChoices):
        SECRETARY = "secretary", "Secretary"
        CAPTAIN = "captain", "Captain"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        help_text="The captain invited (empty for a secretary).",
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    email = models.EmailField()
    nonce = models.CharField(max_length=32, help_text="Changes on each sending: old links die.")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_sent",
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_accepted",
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role="secretary", player__isnull=True)
                | Q(role="captain", player__isnull=False, team__isnull=False),
                name="invitation_captain_names_player",
            ),
            models.UniqueConstraint(
                "league",
                Lower("email"),
                condition=Q(role="secretary") & INVITATION_UNANSWERED,
                name="invitation_one_unanswered_a_secretary",
                violation_error_message="An invitation to this address to be a secretary of "
                "the league is already waiting.",
            ),
            models.UniqueConstraint(
                "team",
                "player",
                Lower("email"),
                condition=Q(role="captain") & INVITATION_UNANSWERED,
                name="invitation_one_unanswered_a_captain",
                violation_error_message="An invitation to this address for the team's captain "
                "is already waiting.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} of {self.league}: {self.email}"

    @property
    def is_open(self) -> bool:
        return (
            self.accepted_at is None
            and self.withdrawn_at is None
            and self.expires_at > timezone.now()
        )

    @property
    def is_unanswered(self) -> bool:
        """Neither accepted nor withdrawn (``INVITATION_UNANSWERED``): waiting, or expired, to
        send again or withdraw."""
        return self.accepted_at is None and self.withdrawn_at is None

    @property
    def state(self) -> str:
        if self.accepted_at is not None:
            return "accepted"
        if self.withdrawn_at is not None:
            return "withdrawn"
        if self.expires_at <= timezone.now():
            return "expired"
        return "waiting"


class LeagueRequest(models.Model):
    """A league someone asked to start while open sign-up is off: it waits for the site's
    operator, who approves it (the league is created, its asker its first secretary) or
    refuses it with a reason."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    name = models.CharField(max_length=120)
    slug = models.SlugField(
        max_length=120,
        db_index=False,
        help_text="The web address asked for: the one typed, else the name's.",
    )
    form_data = models.JSONField(help_text="The league's form as it was sent.")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_requests"
    )
    asked_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    league = models.ForeignKey(
        League, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.TextField(blank=True, help_text="Why it was refused.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-asked_at", "-pk"]
        # One request waiting a name and a web address, also for two asked at the same
        # instant (the service's check, which words the refusal, cannot see the other's yet).
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                condition=Q(status="waiting"),
                name="league_request_one_waiting_a_name",
                violation_error_message="Another league of this name is asked for and waits "
                "for the site's operator.",
            ),
            models.UniqueConstraint(
                fields=["slug"],
                condition=Q(status="waiting"),
                name="league_request_one_waiting_an_address",
                violation_error_message="Another league at this web address is asked for and "
                "waits for the site's operator.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"
