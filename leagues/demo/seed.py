"""Two demo leagues, one of each style, with a season part-played through the real services.

Every played fixture is a true one: its pairs are seated, its games started and its hands
recorded through ``scoring.services`` from cards dealt by ``leagues.demo.deal``; the fixture's
result, the standings and the statistics are what the app derives from them. The season runs
either side of today, so there are results to read and fixtures to come. Seeded, so the same
date gives the same leagues.
"""

from __future__ import annotations

import datetime
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from leagues.demo.cards import card_tables
from leagues.demo.deal import deal_hand
from leagues.formats import STYLE_PRESETS
from leagues.match import MatchFormat
from leagues.models import (
    Division,
    Fixture,
    League,
    Player,
    Registration,
    Season,
    Team,
    Venue,
    Withdrawal,
)
from leagues.services.adjustments import points_adjust
from leagues.services.cards import fixture_card_enter
from leagues.services.confirmation import result_confirm, result_submit
from leagues.services.fixtures import (
    fixture_postpone,
    fixture_rearrange,
    fixture_void,
    fixture_walkover,
    fixtures_generate,
)
from leagues.services.registrations import player_register
from leagues.services.results import fixture_start
from leagues.services.seasons import next_season_placements, season_start_next
from leagues.services.seating import table_seat
from leagues.services.structure import (
    division_create,
    entry_set_captain,
    league_create,
    season_create,
    team_create,
    team_enter,
    venue_create,
)
from leagues.services.withdrawal import team_withdraw
from scoring import services as scoring_services
from scoring.actors import Actor
from scoring.forms.words import possessive
from scoring.models import Game, GameStatus
from scoring.rules import questions

#: The demo's secretaries' accounts, each with a person's name, as a real secretary's account
#: has (the pages name who acted on a result so: "Susan Booth (secretary)"): the secretary of
#: both leagues, whom ``seed_demo --accounts`` signs in as, and the one who types score cards.
SECRETARY = "demo-secretary"
CARD_SECRETARY = "demo-results-secretary"
SECRETARY_NAMES = {SECRETARY: ("Susan", "Booth"), CARD_SECRETARY: ("Colin", "Earnshaw")}


def demo_secretary(username: str = SECRETARY) -> Any:
    """A demo secretary's account (``SECRETARY_NAMES``), made with no usable password (nobody
    signs in to it until ``seed_demo --accounts`` gives it one) and with their name, given too
    to one a demo seeded before had made without it."""
    user, created = get_user_model().objects.get_or_create(username=username)
    changed = []
    if created:
        user.set_unusable_password()
        changed.append("password")
    if not user.get_full_name().strip():
        user.first_name, user.last_name = SECRETARY_NAMES[username]
        changed += ["first_name", "last_name"]
    if changed:
        user.save(update_fields=changed)
    return user


YORKSHIRE_FIRST = [
    "Harold",
    "Albert",
    "Jack",
    "Wilf",
    "Norman",
    "Stan",
    "Derek",
    "Barry",
    "Keith",
    "Brian",
    "Mick",
    "Dave",
    "Pete",
    "Gary",
    "Trevor",
    "Malcolm",
    "Jean",
    "Margaret",
    "Brenda",
    "Sheila",
    "Doreen",
    "Maureen",
    "Pat",
    "Edna",
    "Clifford",
    "Ernest",
    "Walter",
    "Irene",
    "Joan",
    "Glenys",
    "Howard",
    "Roy",
]
YORKSHIRE_LAST = [
    "Sykes",
    "Haigh",
    "Crowther",
    "Brook",
    "Firth",
    "Ackroyd",
    "Hirst",
    "Sutcliffe",
    "Shaw",
    "Senior",
    "Lockwood",
    "Walker",
    "Dyson",
    "Ramsden",
    "Ibbotson",
    "Holroyd",
    "Greenwood",
    "Bottomley",
    "Armitage",
    "Schofield",
    "Hepworth",
    "Oldroyd",
    "Priestley",
    "Mitchell",
    "Binns",
    "Fearnley",
    "Wormald",
    "Jagger",
    "Illingworth",
    "Stead",
]
TRINIDAD_FIRST = [
    "Rajesh",
    "Kenrick",
    "Anil",
    "Curtis",
    "Marcia",
    "Indira",
    "Sean",
    "Dexter",
    "Nadia",
    "Vishnu",
    "Shaun",
    "Kamla",
    "Winston",
    "Keisha",
    "Ravi",
    "Learie",
    "Deon",
    "Afiya",
    "Hollis",
    "Sunil",
    "Merle",
    "Kwame",
    "Shiva",
    "Brent",
    "Lystra",
    "Ronald",
    "Kavita",
    "Jerome",
    "Rhonda",
    "Andy",
]
TRINIDAD_LAST = [
    "Ramdeen",
    "Mohammed",
    "Charles",
    "Joseph",
    "Baptiste",
    "Ali",
    "Persad",
    "Maharaj",
    "Singh",
    "Thomas",
    "Williams",
    "Lewis",
    "Granger",
    "Ramkissoon",
    "Boodoo",
    "Rampersad",
    "Phillip",
    "Alexander",
    "Mitchell",
    "Sookdeo",
    "Quashie",
    "Lalla",
    "Noel",
    "Khan",
    "Ramsaran",
    "Bisnath",
    "Francois",
    "Pierre",
    "Gopaul",
    "Jaggernauth",
]


@dataclass(frozen=True)
class TeamPlan:
    name: str
    venue: str  # a key of the league's venue list


@dataclass(frozen=True)
class DivisionPlan:
    name: str
    teams: tuple[TeamPlan, ...]


@dataclass(frozen=True)
class LeaguePlan:
    name: str
    slug: str
    style: str
    league_night: int
    start_time: datetime.time
    venues: dict[str, str]  # name -> town
    divisions: tuple[DivisionPlan, ...]
    first_names: Sequence[str]
    last_names: Sequence[str]
    legs: int
    description: str
    match_format: MatchFormat
    history: bool = False
    time_zone: str = ""
    """Where it plays (blank: the site's zone)."""
    """Build a finished previous season first (promotion and relegation applied to this one)
    and give this season a re-arrangement, a void fixture and a withdrawn team."""


def _teams(*pairs: tuple[str, str]) -> tuple[TeamPlan, ...]:
    return tuple(TeamPlan(name, venue) for name, venue in pairs)


HECKMONDWIKE = LeaguePlan(
    name="Heckmondwike & District All Fours League",
    slug="heckmondwike-district",
    style=League.Style.YORKSHIRE,
    league_night=1,
    start_time=datetime.time(20, 30),
    venues={
        "Black Bull": "Heckmondwike",
        "Old Hall": "Heckmondwike",
        "Shoulder of Mutton": "Liversedge",
        "Woolpack": "Batley",
        "Red Lion": "Cleckheaton",
        "Brown Cow": "Mirfield",
        "Golden Fleece": "Dewsbury",
        "Royal Oak": "Gomersal",
        "Flying Horse": "Ravensthorpe",
        "New Inn": "Roberttown",
        "Wellington": "Heckmondwike",
        "Swan": "Hightown",
    },
    divisions=(
        DivisionPlan(
            "Premier Division",
            _teams(
                ("Black Bull A", "Black Bull"),
                ("Black Bull B", "Black Bull"),
                ("Old Hall", "Old Hall"),
                ("Shoulder of Mutton", "Shoulder of Mutton"),
                ("Woolpack", "Woolpack"),
                ("Red Lion", "Red Lion"),
                ("Brown Cow", "Brown Cow"),
                ("Golden Fleece A", "Golden Fleece"),
            ),
        ),
        DivisionPlan(
            "First Division",
            _teams(
                ("Royal Oak", "Royal Oak"),
                ("Flying Horse", "Flying Horse"),
                ("Swan", "Swan"),
                ("New Inn", "New Inn"),
                ("Wellington", "Wellington"),
                ("Golden Fleece B", "Golden Fleece"),
            ),
        ),
    ),
    first_names=YORKSHIRE_FIRST,
    last_names=YORKSHIRE_LAST,
    legs=1,
    description=(
        "Pub league on Tuesday nights: four tables a match, one game to 11 a table, pitch for "
        "trumps; 2 points a table and 2 for the higher aggregate."
    ),
    match_format=STYLE_PRESETS["yorkshire"].match_format,
    history=True,
)

PORT_OF_SPAIN = LeaguePlan(
    name="Port of Spain All Fours Association",
    slug="port-of-spain",
    style=League.Style.TRINIDAD,
    league_night=4,
    start_time=datetime.time(19, 30),
    time_zone="America/Port_of_Spain",
    venues={
        "Belmont Sports Club": "Belmont",
        "Woodbrook Community Centre": "Woodbrook",
        "St James Recreation Club": "St James",
        "Laventille Hall": "Laventille",
        "Morvant Pavilion": "Morvant",
        "Maraval Social Club": "Maraval",
    },
    divisions=(
        DivisionPlan(
            "Championship",
            _teams(
                ("Belmont Kings", "Belmont Sports Club"),
                ("Woodbrook Jacks", "Woodbrook Community Centre"),
                ("St James Bullseyes", "St James Recreation Club"),
                ("Laventille Hang Jack", "Laventille Hall"),
                ("Morvant All Stars", "Morvant Pavilion"),
                ("Maraval Hi-Lo", "Maraval Social Club"),
            ),
        ),
    ),
    first_names=TRINIDAD_FIRST,
    last_names=TRINIDAD_LAST,
    legs=1,
    description=(
        "Friday nights: four tables a match, two games to 14 at each; a game won is a bullseye. "
        "2 points for a win, 1 for a draw."
    ),
    match_format=STYLE_PRESETS["trinidad"].match_format.with_options(tables=4),
)

PLANS = (HECKMONDWIKE, PORT_OF_SPAIN)


@dataclass
class SeedReport:
    leagues: list[str]
    skipped: list[str]
    fixtures_played: int = 0
    card_fixtures: int = 0
    hands: int = 0


def demo_leagues() -> list[League]:
    return list(League.objects.filter(slug__in=[plan.slug for plan in PLANS]))


@transaction.atomic
def reset() -> None:
    """Remove the demo leagues with everything in them (games, players, venues)."""
    leagues = demo_leagues()
    Game.objects.filter(league_game__table__fixture__division__season__league__in=leagues).delete()
    Game.objects.filter(cup_game__tie__competition__league__in=leagues).delete()
    player_ids = set(
        Registration.objects.filter(season__league__in=leagues).values_list("player", flat=True)
    )
    venue_ids = set(Team.objects.filter(league__in=leagues).values_list("home_venue", flat=True))
    for league in leagues:
        league.delete()
    Player.objects.filter(pk__in=player_ids, registrations__isnull=True).delete()
    Venue.objects.filter(pk__in=venue_ids, home_teams__isnull=True, fixtures__isnull=True).delete()


def seed(
    *,
    seed: int = 1874,
    today: datetime.date | None = None,
    log: Callable[[str], None] = lambda line: None,
) -> SeedReport:
    """Create each demo league that does not exist yet; existing ones are left alone. Each
    season runs either side of ``today``, by default the league's own (where it plays)."""
    report = SeedReport(leagues=[], skipped=[])
    for index, plan in enumerate(PLANS):
        if League.objects.filter(slug=plan.slug).exists():
            report.skipped.append(plan.name)
            log(f"{plan.name}: already there (use --reset to build it again)")
            continue
        rng = random.Random(seed * 100 + index)
        with transaction.atomic():
            _Builder(plan, rng, today, report, log).build()
        report.leagues.append(plan.name)
    return report


class _Builder:
    today: datetime.date
    """The league's today: its season runs either side of it."""

    def __init__(
        self,
        plan: LeaguePlan,
        rng: random.Random,
        today: datetime.date | None,
        report: SeedReport,
        log: Callable[[str], None],
    ) -> None:
        self.plan = plan
        self.rng = rng
        self.given_today = today
        self.report = report
        self.log = log
        self.used_names: set[str] = set()
        self.mixed_played = False
        # The cards' own figures: the games played on phones keep the demo's usual deals.
        self.card_rng = random.Random(f"{plan.slug} score cards")

    def build(self) -> None:
        plan = self.plan
        preset = STYLE_PRESETS[plan.style]
        league = league_create(
            name=plan.name,
            slug=plan.slug,
            style=plan.style,
            ruleset=preset.ruleset,
            match_format=plan.match_format,
            tiebreaks=preset.tiebreaks,
            league_night=plan.league_night,
            start_time=plan.start_time,
            time_zone=plan.time_zone,
            description=plan.description,
        )
        # Today where the league plays: at 22:00 in Port of Spain tonight's fixtures are still
        # to play, though London's date is the next day.
        self.today = self.given_today or league.today()
        # Start the season so that its first half lies before today.
        rounds = plan.legs * max(len(d.teams) - 1 + len(d.teams) % 2 for d in plan.divisions)
        weeks_back = rounds // 2
        start = self.today - datetime.timedelta(weeks=weeks_back)
        venues = {
            name: venue_create(name=name, town=town, league=league)
            for name, town in sorted(plan.venues.items())
        }
        if plan.history:
            previous = self._previous_season(league, venues, start, rounds)
            season = self._next_season(previous, start)
            divisions = list(season.divisions.order_by("rank"))
        else:
            season = season_create(
                league=league,
                name=f"{start.year}–{(start.year + 1) % 100:02d}",
                slug=f"{start.year}-{(start.year + 1) % 100:02d}",
                starts_on=start,
            )
            divisions = self._divisions(league, season, venues, start)
        # Each list is made as on the season's first day, before any of its nights had passed.
        for division in divisions:
            report = fixtures_generate(
                division=division,
                start=start,
                legs=plan.legs,
                exclusions=self._exclusions(start),
                today=start,
            )
            for note in report.notes:
                self.log(f"  {division.name}: {note}")
        for division in divisions:
            self._play(division)
        self._incidents(divisions)
        if plan.history:
            self._season_edges(divisions)
        self._cup(league, season)
        self.log(f"{plan.name}: built")

    def _divisions(
        self, league: League, season: Season, venues: dict[str, Venue], start: datetime.date
    ) -> list[Division]:
        """The plan's divisions, teams (made once, for the league) and squads, entered."""
        divisions = []
        for rank, division_plan in enumerate(self.plan.divisions, start=1):
            division = division_create(season=season, name=division_plan.name, rank=rank)
            for team_plan in division_plan.teams:
                team = Team.objects.filter(league=league, name=team_plan.name).first()
                if team is None:
                    team = team_create(
                        league=league, name=team_plan.name, home_venue=venues[team_plan.venue]
                    )
                entry = team_enter(team=team, division=division)
                squad = [
                    player_register(
                        name=self._name(), team=team, season=season, registered_on=start
                    ).player
                    for _ in range(2 * season.get_match_format().tables)
                ]
                entry_set_captain(entry=entry, captain=squad[0])
            divisions.append(division)
        return divisions

    def _previous_season(
        self, league: League, venues: dict[str, Venue], start: datetime.date, rounds: int
    ) -> Season:
        """Last season: the same teams, every fixture played and confirmed, its end passed."""
        begin = start - datetime.timedelta(weeks=rounds + 14)
        ends = begin + datetime.timedelta(weeks=rounds + 6)
        season = season_create(
            league=league,
            name=f"{begin:%B}–{ends:%B %Y}",
            slug=f"{begin:%Y-%m}",
            starts_on=begin,
            ends_on=ends,
        )
        divisions = self._divisions(league, season, venues, begin)
        for division in divisions:
            fixtures_generate(division=division, start=begin, legs=self.plan.legs, today=begin)
            self._play(division)
        self.log(f"  {season.name}: finished")
        return season

    def _next_season(self, previous: Season, start: datetime.date) -> Season:
        """This season, started from the last one's final tables: promotion and relegation
        applied, squads and captains carried over (``leagues.services.seasons``)."""
        placements = {p.team.pk: p.to_rank for p in next_season_placements(season=previous)}
        return season_start_next(
            season=previous,
            name=f"{start.year}–{(start.year + 1) % 100:02d}",
            starts_on=start,
            placements=placements,
        )

    def _season_edges(self, divisions: list[Division]) -> None:
        """A re-arrangement, a void fixture and a withdrawn team in this season."""
        top, last = divisions[0], divisions[-1]
        upcoming = (
            Fixture.objects.filter(division=top, date__gte=self.today, status="scheduled")
            .order_by("-date", "pk")
            .first()
        )
        if upcoming is not None:
            fixture_rearrange(
                fixture=upcoming,
                reason=f"{possessive(upcoming.home.name)} room is booked for a wedding that night.",
            )
        played = (
            Fixture.objects.filter(division=top, status="played").order_by("date", "pk").first()
        )
        if played is not None:
            fixture_void(
                fixture=played,
                reason="Played at the wrong venue; the committee ordered it replayed.",
            )
        leaving = last.entries.select_related("team").order_by("team__name").first()
        if leaving is not None:
            team_withdraw(
                entry=leaving,
                withdrawal=Withdrawal.STAND,
                reason=f"{possessive(leaving.team.name)} pub has closed.",
            )

    def _cup(self, league: League, season: Season) -> None:
        """The league's demo cup (``cups.demo``), part played."""
        from cups.demo import seed_cup

        seed_cup(builder=self, league=league, season=season, today=self.today)

    def _name(self) -> str:
        while True:
            name = (
                f"{self.rng.choice(self.plan.first_names)} {self.rng.choice(self.plan.last_names)}"
            )
            if name not in self.used_names:
                self.used_names.add(name)
                return name

    @staticmethod
    def _exclusions(start: datetime.date) -> list[datetime.date]:
        """Christmas week and New Year, as a secretary would skip them: those of the season
        that starts on ``start`` (a season seeded in spring starts after last Christmas, and a
        night off before the season starts is refused)."""
        return [
            day
            for year in (start.year - 1, start.year)
            for day in (datetime.date(year, 12, 24) + datetime.timedelta(days=d) for d in range(9))
            if day >= start
        ]

    def _play(self, division: Division) -> None:
        fixtures = list(
            Fixture.objects.filter(division=division, date__lt=self.today)
            .select_related("home", "away")
            .order_by("date", "pk")
        )
        season = division.season
        current = season.ends_on is None or season.ends_on >= self.today
        for index, fixture in enumerate(fixtures):
            pairs = [
                (home_pair, away_pair)
                for home_pair, away_pair in zip(
                    self._pairs(fixture.home, season),
                    self._pairs(fixture.away, season),
                    strict=True,
                )
            ]
            if current and index == 1 and not self.mixed_played:
                # One fixture mixes phones and paper: half its tables scored on phones.
                self.mixed_played = True
                self._from_card(fixture, pairs, on_phones=len(pairs) // 2)
            elif current and index % 4 == 3:
                # A league moving to phones: every fourth night this season still comes from
                # the card (last season's were all played on phones: its final tables, and so
                # this season's divisions, stay as the demo always had them).
                self._from_card(fixture, pairs, on_phones=0)
            else:
                for table_game in fixture_start(fixture=fixture, pairs=pairs):
                    self._play_table(table_game.table)
                self._confirm(fixture)
            self.report.fixtures_played += 1

    def _from_card(
        self, fixture: Fixture, pairs: list[tuple[list[Player], list[Player]]], on_phones: int
    ) -> None:
        """The first ``on_phones`` tables seated and scored hand by hand, the rest typed from
        the score card by one secretary and confirmed by the other."""
        season = fixture.division.season
        for board, (home, away) in enumerate(pairs[:on_phones], start=1):
            self._play_table(
                table_seat(fixture=fixture, board=board, home=home, away=away, by=None)
            )
        boards = range(on_phones + 1, len(pairs) + 1)
        tables = card_tables(
            self.card_rng,
            ruleset=season.get_ruleset(),
            fmt=season.get_match_format(),
            boards=boards,
            pairs=dict(enumerate(pairs, start=1)),
        )
        league = season.league
        clerk = self._secretary(league, username=CARD_SECRETARY)
        submission = fixture_card_enter(fixture=fixture, tables=tables, by=clerk)
        result_confirm(submission=submission, by=self._secretary(league))
        self.report.card_fixtures += 1

    def _confirm(self, fixture: Fixture) -> None:
        """Submitted from table 1's scoring link and confirmed by the league's demo secretary."""
        fixture.refresh_from_db()
        if fixture.status != Fixture.Status.PLAYED:
            return
        link = fixture.tables.order_by("board").first().scoring_link
        submission = result_submit(fixture=fixture, actor=Actor.of(None, link=link))
        result_confirm(submission=submission, by=self._secretary(fixture.division.season.league))

    def _secretary(self, league: League, username: str = SECRETARY) -> Any:
        """A demo secretary of ``league`` (``demo_secretary``)."""
        user = demo_secretary(username)
        league.secretaries.add(user)
        return user

    def _pairs(self, team: Team, season: Season) -> list[list[Player]]:
        squad = list(
            Player.objects.filter(registrations__team=team, registrations__season=season).order_by(
                "pk"
            )
        )
        self.rng.shuffle(squad)
        return [squad[i : i + 2] for i in range(0, len(squad), 2)]

    def _play_table(self, table) -> None:
        while True:
            table_game = table.games.order_by("-number").select_related("game").first()
            game = table_game.game
            if game.status != GameStatus.IN_PROGRESS:
                return
            self._play_game(game)

    def _play_game(self, game: Game) -> None:
        rules = game.rules
        dealer = game.first_dealer
        scores = {side: 0 for side in ("A", "B")}
        number = 0
        while max(scores.values()) < rules.target:
            number += 1
            facts = deal_hand(self.rng, ruleset=rules, dealer=dealer, scores=scores)
            hand = scoring_services.hand_record(
                game=game,
                facts=facts,
                entry_key=uuid.UUID(int=self.rng.getrandbits(128)),
                expected_number=number,
            ).hand
            scores = dict(hand.scores)
            # Who deals next is the engine's answer (a take one may end the hand: same dealer).
            dealer = questions.next_dealer(
                rules,
                ("A", "B"),
                dealer=facts["dealer"],
                outcome=facts.get("outcome") or "played",
                beg=facts.get("beg"),
            )
            self.report.hands += 1

    def _incidents(self, divisions: list[Division]) -> None:
        """A postponement, a walkover and a deduction, so every page has one to show."""
        top = divisions[0]
        upcoming = (
            Fixture.objects.filter(division=top, date__gte=self.today, status="scheduled")
            .order_by("date", "pk")
            .first()
        )
        if upcoming is not None:
            fixture_postpone(
                fixture=upcoming,
                reason=f"{upcoming.venue.name} closed for repairs after a burst pipe.",
            )
        last = divisions[-1]
        walkover = (
            Fixture.objects.filter(division=last, date__gte=self.today, status="scheduled")
            .order_by("date", "pk")
            .first()
        )
        if walkover is not None:
            fixture_walkover(
                fixture=walkover,
                to=Fixture.Side.HOME,
                reason=f"{walkover.away.name} could not raise a side and conceded.",
            )
        entry = top.entries.select_related("team").order_by("team__name").last()
        points_adjust(
            entry=entry,
            points=-2,
            reason="Fielded a player registered to another team.",
        )
