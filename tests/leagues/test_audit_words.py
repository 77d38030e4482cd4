"""Every audit page (a league's, a fixture's, a tie's, a game's) shows what an entry changed as
words, a line per field ("Status: Scheduled → Postponed"), sides by name and cards with suit
symbols: never the stored JSON."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from cups.services.draws import draw_make
from cups.services.ties import tie_walkover
from leagues.days import long_date
from leagues.services.fixtures import fixture_postpone
from leagues.templatetags.audit_words import Change, changes, hand_changes
from scoring import services as scoring_services
from tests.cups.helpers import cup_world, pairs_cup
from tests.factories.scoring import GameFactory, plain_hand
from tests.leagues.test_access import build
from tests.leagues.test_audit_trail import spare_fixture

pytestmark = pytest.mark.django_db

SIDES = {"A": "Smith & Jones", "B": "Patel & Brown"}
#: A plain hand: A deals, turns up the five of diamonds, takes high and the jack; B low and game.
HAND = plain_hand("trinidad", "A", 1)


def test_ids_stored_beside_names_are_not_shown_as_changes():
    """A captain's account linked: the stored ids of the player and account are the operator's;
    the page says the account's name."""
    before = {"player": 12, "player_name": "Linda Dyson", "user": None, "username": None}
    after = {"player": 12, "player_name": "Linda Dyson", "user": 34, "username": "linda"}
    assert changes(before, after) == [Change("Username", "—", "linda")]
    # A name stored under one of those keys is words, and is shown.
    assert changes({"team": "Black Bull"}, {"team": "Red Lion"}) == [
        Change("Team", "Black Bull", "Red Lion")
    ]


def test_a_games_variant_reads_as_its_start_form_names_it():
    """A game started: "Variant: West Yorkshire", not the stored "west yorkshire"."""
    lines = changes(None, {"variant": "west_yorkshire", "target": 11})
    assert Change("Variant", None, "West Yorkshire") in lines
    assert changes({"variant": "trinidad"}, {"variant": "all_fives"}) == [
        Change("Variant", "Trinidad", "All Fives")
    ]


def test_a_change_reads_field_before_and_after_in_words():
    before = {"date": "2025-10-07", "status": "scheduled", "reason": "", "venue": 3}
    after = {**before, "status": "postponed", "reason": "Pub flooded"}
    assert changes(before, after) == [
        Change("Status", "Scheduled", "Postponed"),
        Change("Reason", "—", "Pub flooded"),
    ]
    assert changes({"score": [0, 0], "winner": ""}, {"score": [2, 1], "winner": "home"}) == [
        Change("Score", "0, 0", "2, 1"),
        Change("Winner", "—", "home"),
    ]


def test_a_hand_reads_as_a_player_tells_it():
    """Each fact of a hand in a player's words, sides by name and cards with suit symbols:
    "Blues begged; the dealer ran the pack", "1 point to Blues", never "Beg: run" or
    "Points (to Blues, points 1)"."""
    corrected = {
        **HAND,
        "beg": "take_one",
        "jack": {"held_by": "A", "won_by": "B"},
        "outcome": "pack_exhausted",
        "penalties": [{"kind": "renege", "side": "B"}],
    }
    assert hand_changes(HAND, corrected, SIDES) == [
        Change("Beg", "Patel & Brown stood", "Patel & Brown begged; the dealer gave one"),
        Change("Outcome", "—", "Pack ran out (redeal)"),
        Change(
            "Jack of trumps",
            "Smith & Jones held it and won it",
            "Smith & Jones held it, Patel & Brown won it",
        ),
        Change("Penalties", "—", "Patel & Brown reneged"),
    ]
    recorded = hand_changes(None, HAND, SIDES)
    assert [(line.field, line.before) for line in recorded][:3] == [
        ("Dealer", None),
        ("Cards turned up", None),
        ("Beg", None),
    ]
    assert Change("Dealer", None, "Smith & Jones") in recorded
    assert Change("Cards turned up", None, "5♦") in recorded
    assert Change("Jack of trumps", None, "Smith & Jones held it and won it") in recorded
    assert hand_changes(HAND, dict(HAND), SIDES) == []
    assert hand_changes(HAND, None, SIDES)[0] == Change("Dealer", "Smith & Jones", "—")

    ran = {
        "dealer": "B",
        "turn_ups": ["4S", "9S", "6D"],
        "beg": "run",
        "high": None,
        "low": None,
        "jack": None,
        "game": {"A": 20, "B": 20},
        "penalties": [
            {"kind": "points", "to": "B", "points": 1},
            {"kind": "points", "to": "A", "points": 2, "note": "led out of turn"},
            {"kind": "renege_top_trump", "side": "A"},
        ],
    }
    assert [(line.field, line.after) for line in hand_changes(None, ran, SIDES)] == [
        ("Dealer", "Patel & Brown"),
        ("Cards turned up", "4♠, 9♠, 6♦"),
        ("Beg", "Smith & Jones begged; the dealer ran the pack"),
        ("High", "No trump in play"),
        ("Low", "No trump in play"),
        ("Jack of trumps", "Not out"),
        ("Game", "Smith & Jones 20, Patel & Brown 20"),
        (
            "Penalties",
            "1 point to Patel & Brown; 2 points to Smith & Jones (led out of turn); "
            "Smith & Jones reneged holding a top trump",
        ),
    ]
    assert hand_changes(None, {"dealer": "A", "game": "tie"}, SIDES)[1] == Change(
        "Game", None, "tied"
    )
    fives = {"dealer": "A", "captures": [{"card": "10H", "side": "A"}, {"card": "5H", "side": "B"}]}
    assert hand_changes(None, fives, SIDES)[1] == Change(
        "Trumps captured", None, "10♥ to Smith & Jones, 5♥ to Patel & Brown"
    )
    three = {"A": "Ann", "B": "Bob", "C": "Cy"}
    misdeal = {"dealer": "C", "outcome": "misdeal", "penalties": [{"kind": "misdeal", "side": "C"}]}
    assert [line.after for line in hand_changes(None, misdeal, three)] == [
        "Cy",
        "Misdeal",
        "Cy misdealt",
    ]
    begged = {"dealer": "C", "turn_ups": ["5H"], "beg": "stand"}
    assert hand_changes(None, begged, three)[2] == Change("Beg", None, "Ann stood")


def region(body: str, testid: str, end: str) -> str:
    start = body.index(f'data-testid="{testid}"')
    return body[start : body.index(end, start)]


def shown_as_words(part: str) -> str:
    assert "{" not in part and "}" not in part and "&quot;" not in part
    # A quote of stored text ('away'), not an apostrophe in a word ("Black Bull's captain").
    assert not re.search(r"(?<![A-Za-z])&#x27;|&#x27;(?![a-z])", part)
    assert "<code>" not in part
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", part)).split())


def test_the_league_and_fixture_audit_pages_show_what_changed():
    world = build(played=True)
    spare = spare_fixture(world)
    fixture_postpone(fixture=spare, reason="Pub flooded", by=world.users["secretary"])
    client = Client()
    client.force_login(world.users["secretary"])
    page = client.get(reverse("leagues:manage_fixture_audit", args=[spare.pk])).content.decode()
    entries = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Status: Scheduled → Postponed" in entries and "Reason: — → Pub flooded" in entries
    assert "<th>What changed</th>" in page and "<th>Before</th>" not in page
    played = world.fixture
    page = client.get(reverse("leagues:manage_fixture_audit", args=[played.pk])).content.decode()
    hands = shown_as_words(region(page, "audit-hands", "</table>"))
    sides = {side.name for side in world.table.games.first().game.sides.all()}
    assert any(f"Dealer: {name}" in hands for name in sides), hands[:2000]
    slug = world.league.slug
    page = client.get(reverse("leagues:manage_league_audit", args=[slug])).content.decode()
    rows = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Status: Scheduled → Postponed" in rows
    assert any(f"Dealer: {name}" in rows for name in sides)


def test_the_tie_audit_page_shows_what_changed():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=5, by=world.users["secretary"])
    tie = cup.ties.filter(round__number=1).first()
    tie_walkover(tie=tie, to="away", reason="No pair", by=world.users["secretary"])
    client = Client()
    client.force_login(world.users["secretary"])
    page = client.get(reverse("cups:tie_audit", args=[tie.pk])).content.decode()
    entries = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Status: Scheduled → Walkover" in entries
    assert f"Winner: — → {tie.away_name}" in entries and "→ away" not in entries


def test_the_game_audit_page_shows_what_changed():
    game = GameFactory(hands=2, west_yorkshire=True)
    hand = game.hands.get(number=1)
    facts = {**hand.facts, "dealer": "B"}
    scoring_services.hand_correct(
        game=game.pk, number=1, facts=facts, entry_key=uuid.uuid4(), reason="checked"
    )
    page = Client().get(reverse("scoring:game_audit", args=[game.pk])).content.decode()
    trail = shown_as_words(region(page, "audit-trail", "</ol>"))
    assert "Dealer: Smith & Jones → Patel & Brown" in trail
    assert "Sides: Smith & Jones (players Smith, Jones), Patel & Brown" in trail  # its start

    # A hand's facts as a player tells them.
    game = GameFactory(hands=2)
    hand = game.hands.get(number=1)
    facts = {
        **hand.facts,
        "turn_ups": ["4S", "9S", "6D"],
        "beg": "run",
        "penalties": [{"kind": "points", "to": "B", "points": 1, "note": "slow play"}],
    }
    scoring_services.hand_correct(
        game=game.pk, number=1, facts=facts, entry_key=uuid.uuid4(), reason="checked"
    )
    page = Client().get(reverse("scoring:game_audit", args=[game.pk])).content.decode()
    trail = shown_as_words(region(page, "audit-trail", "</ol>"))
    assert "Beg: Patel & Brown stood → Patel & Brown begged; the dealer ran the pack" in trail
    assert "Penalties: — → 1 point to Patel & Brown (slow play)" in trail
    assert "Points (to" not in trail and "Beg: run" not in trail


def test_a_score_card_and_its_result_read_in_words_not_numbers():
    """The audit trail read a score card as "1 home: 163, 165" (the pair's record numbers),
    "1 card games: 14, 9, 6, 14" and "Figures home tables: 1": a table reads by its number,
    the pair by name and each score as the card gives it."""
    from leagues.services.cards import CardTable, fixture_card_enter
    from tests.leagues.helpers import squad
    from tests.leagues.test_score_card import _fixture

    fixture, users = _fixture("trinidad")
    home = squad(fixture.home, fixture.division.season)[:2]
    tables = [
        CardTable(board=1, home=home, games=((14, 9), (6, 14)), bullseyes=(1, 1)),
        CardTable(board=2, bullseyes=(2, 0), hang_jacks=(1, 0)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    client = Client()
    client.force_login(users["secretary"])
    page = client.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])).content.decode()
    entries = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Table 1 source: from the score card" in entries
    assert "Table 1 games: 14–9, 6–14" in entries and "Table 2 bullseyes: 2–0" in entries
    assert f"Table 1 {fixture.home.name}: {home[0].name}, {home[1].name}" in entries
    assert "Table 2 hang jacks: 1–0" in entries
    assert "Home tables: 1" in entries and "Figures" not in entries
    # The fixture is dated as every list and sentence dates a day, not "Tue 09 Sep 2025".
    assert f"Score card of {fixture.home} v {fixture.away}, {long_date(fixture.date)}" in entries
    assert not re.search(r"(?<!Table )\b\d+ (card|home|source)\b", entries), entries


def test_a_record_stored_by_id_beside_its_name_reads_by_name():
    """A fixture moved to another pub read "Venue: 19 → 23" beside "Venue name: Crown → Red
    Lion": the name reads as the field, the id is not shown."""
    before = {"date": "2025-10-07", "venue": 19, "venue_name": "Crown", "status": "scheduled"}
    after = {"date": "2025-10-14", "venue": 23, "venue_name": "Red Lion", "status": "scheduled"}
    assert changes(before, after) == [
        Change("Date", "7 Oct 2025", "14 Oct 2025"),
        Change("Venue", "Crown", "Red Lion"),
    ]
    team = {"team": 4, "name": "Crown A", "home_venue": 19, "home_venue_name": "Crown"}
    assert changes(None, team) == [
        Change("Name", None, "Crown A"),
        Change("Home venue", None, "Crown"),
    ]
    # A name with no id beside it keeps its words.
    assert changes(None, {"player_name": "Linda Dyson"}) == [
        Change("Player name", None, "Linda Dyson")
    ]


def test_a_rearranged_fixture_reads_its_venues_by_name_on_the_audit_page():
    from leagues.services.fixtures import fixture_rearrange
    from tests.factories.leagues import VenueFactory

    world = build(played=True)
    spare = spare_fixture(world)
    was = spare.venue
    moved = VenueFactory(league=world.league, name="Red Lion")
    fixture_rearrange(
        fixture=spare,
        venue=moved,
        reason="Crown closed",
        outside_calendar=True,
        by=world.users["secretary"],
    )
    client = Client()
    client.force_login(world.users["secretary"])
    page = client.get(reverse("leagues:manage_fixture_audit", args=[spare.pk])).content.decode()
    entries = shown_as_words(region(page, "audit-entries", "</table>"))
    assert f"Venue: {was} → {moved}" in entries, entries
    assert "Venue name" not in entries and f"{moved.pk}" not in entries.split("Venue:")[1][:20]


def test_a_yorkshire_card_leaves_out_the_hang_jacks_its_ruleset_has_not():
    """Every Yorkshire score card's entry read "Table 1 hang jacks: 0–0" (and a result's "Home
    hang jacks: 0"): Yorkshire has no hang jack, so its entries leave them out; a Trinidad
    card keeps them (``test_a_score_card_and_its_result_read_in_words_not_numbers``)."""
    from leagues.services.cards import fixture_card_enter
    from leagues.services.confirmation import result_confirm
    from tests.leagues.test_score_card import _fixture, _yorkshire_card

    fixture, users = _fixture("yorkshire")
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    result_confirm(submission=submission, by=users["away"])
    client = Client()
    client.force_login(users["secretary"])
    page = client.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])).content.decode()
    entries = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Table 1 games: 11–7" in entries
    assert "hang jacks" not in entries.lower(), entries
    slug = fixture.division.season.league.slug
    page = client.get(reverse("leagues:manage_league_audit", args=[slug])).content.decode()
    rows = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Table 1 games: 11–7" in rows
    assert "hang jacks" not in rows.lower(), rows


NIGHT_NAMES = [
    *("Roy Stead", "Jim Ward", "Pat Hey", "Len Firth"),
    *("Ann Cole", "Bob Lee", "Sheila Walker", "Tom Hird"),
]


def _night():
    """Black Bull v Old Hall on two tables, both captained by accounts, each side's four players
    named as a secretary knows them (no number in a name: none is a record's)."""
    from leagues.formats import YORKSHIRE_FORMAT
    from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
    from tests.leagues.helpers import captained_teams, squad

    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=4)
    fixture = FixtureFactory(division=division, home=home, away=away)
    ours, theirs = squad(home, division.season), squad(away, division.season)
    for player, name in zip([*ours, *theirs], NIGHT_NAMES, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    return fixture, users, ours, theirs


def _audit_pages(fixture, user) -> tuple[str, str]:
    """The fixture's audit page and its league's, as their secretary ``user`` reads them."""
    client = Client()
    client.force_login(user)
    slug = fixture.division.season.league.slug
    return (
        client.get(reverse("leagues:manage_fixture_audit", args=[fixture.pk])).content.decode(),
        client.get(reverse("leagues:manage_league_audit", args=[slug])).content.decode(),
    )


def test_a_table_seated_on_the_night_reads_who_sat_where_not_record_numbers():
    """A table seated on the night read "Away: 5 (name Ann Cole), 6 (name Bob Lee) → 7 (name
    Sheila Walker), …", "Replaced: — → away", "Board: — → 2": each side whose pair changed is
    a sentence of its table, its team and its players, who changed another side's pair and
    the pair it was. A row with no address says nothing of where it came from (no
    "From: —")."""
    from leagues.services.seating import table_seat

    fixture, users, home, away = _night()
    table_seat(fixture=fixture, board=2, away=away[:2], by=users["away"])
    table_seat(
        fixture=fixture,
        board=2,
        home=home[:2],
        away=away[2:],
        by=users["home"],
        replace_confirmed=[p.pk for p in away[:2]],  # as the night page asks first
    )
    table_seat(fixture=fixture, board=1, home=home[2:], by=users["home"])
    for page in _audit_pages(fixture, users["secretary"]):
        entries = shown_as_words(region(page, "audit-entries", "</table>"))
        assert "Table 2, Old Hall: Ann Cole and Bob Lee seated" in entries, entries
        assert (
            "Table 2, Old Hall: Sheila Walker and Tom Hird seated by Black Bull's captain, "
            "Black Bull captain (were Ann Cole and Bob Lee)"
        ) in entries, entries
        assert "Table 2, Black Bull: Roy Stead and Jim Ward seated" in entries
        assert "Table 1, Black Bull: Pat Hey and Len Firth seated" in entries
        assert "Table 1, Old Hall" not in entries  # not seated yet: not changed
        for stored in ("(name", "Replaced", "Board", "Changed by", "Home:", "Away:"):
            assert stored not in entries, entries
        assert not re.search(r"\b\d+ \(", entries), entries
        # The services were called with no request: no address, and no "From: —".
        assert 'data-label="From">—' not in page and 'data-label="From"></td>' in page
    hands = region(_audit_pages(fixture, users["secretary"])[0], "audit-hands", "</table>")
    assert "Started" in hands and 'data-label="From"></td>' in hands


def test_every_table_seated_by_a_secretary_reads_by_name():
    """A secretary's seating of every table stored each pair as its players' record numbers
    and read "1 (home 163, 164, away 171, 172)": it reads a table a line, the pairs by name
    with their teams."""
    from leagues.services.results import fixture_tables_set

    fixture, users, home, away = _night()
    pairs = [(home[:2], away[:2]), (home[2:], away[2:])]
    fixture_tables_set(fixture=fixture, pairs=pairs, by=users["secretary"])
    for page in _audit_pages(fixture, users["secretary"]):
        entries = shown_as_words(region(page, "audit-entries", "</table>"))
        assert (
            "Table 1: Roy Stead and Jim Ward (Black Bull) v Ann Cole and Bob Lee (Old Hall)"
        ) in entries, entries
        assert (
            "Table 2: Pat Hey and Len Firth (Black Bull) v Sheila Walker and Tom Hird (Old Hall)"
        ) in entries, entries
        assert not re.search(r"\b\d+ \(", entries), entries


def test_a_seating_entry_reads_in_words_whatever_it_stored():
    """A pair taken off a table, an entry from before the table's number was stored, one whose
    fixture is gone, the same pair seated again and a seating stored by record number alone
    (a league file restored from before names were stored) each read as words, never ids."""
    from leagues.templatetags.audit_words import audit_changes

    def said(action, before, after):
        return [line.after for line in audit_changes(before, after, action=action)["lines"]]

    ann, bob = {"id": 5, "name": "Ann Cole"}, {"id": 6, "name": "Bob Lee"}
    assert said(
        "table_seated", {"home": [ann, bob], "away": []}, {"home": [], "away": [], "board": 3}
    ) == ["Table 3, the home side: Ann Cole and Bob Lee no longer seated"]
    assert said("table_seated", {"home": [], "away": []}, {"home": [], "away": [ann]}) == [
        "the away side: Ann Cole seated"
    ]
    assert said(
        "table_seated", {"home": [ann], "away": []}, {"home": [bob], "away": [], "board": 1}
    ) == ["Table 1, the home side: Bob Lee seated (was Ann Cole)"]
    assert said("table_seated", {"home": [ann]}, {"home": [ann], "board": 1}) == [
        "The same pairs seated again"
    ]
    assert said("tables_set", None, [{"board": 1, "home": [5, 6], "away": [7, 8]}]) == [
        "Table 1: the home side's pair v the away side's pair"
    ]


def test_days_and_moments_read_as_the_pages_write_them():
    """An invitation's entry read "Expires at: 2026-12-12T20:45:29.123456+00:00" on a page
    whose times are the league's: a stored moment reads in the league's zone, a day as a day."""
    after = {"expires_at": "2026-12-12T20:45:29.123456+00:00", "starts_on": "2026-09-01"}
    assert changes(None, after, zone="America/Port_of_Spain") == [
        Change("Expires at", None, "12 Dec 2026 16:45"),
        Change("Starts on", None, "1 Sep 2026"),
    ]
    assert changes(None, after, zone="Europe/London")[0].after == "12 Dec 2026 20:45"
    # Text that only looks like a day at its start keeps its words.
    assert changes(None, {"reason": "2026-09-01 was a bank holiday"})[0].after == (
        "2026-09-01 was a bank holiday"
    )


def test_a_generated_fixture_list_reads_by_names_not_database_numbers():
    """The fixture-generation entry read "Moved: — → 113, 3 Dec 2026, …", "League night: — →
    3", "Division: — → 6", "Created: — → 0". It names the division, counts the fixtures
    created, names each fixture moved with both nights and the weekday in words."""
    import datetime

    from leagues.models import AuditEntry, Division
    from leagues.services.fixtures import fixtures_generate
    from tests.factories.leagues import DivisionFactory, LeagueFactory
    from tests.leagues.helpers import entered_teams

    division = DivisionFactory(season__league=LeagueFactory(league_night=1), name="Premier")
    entered_teams(division, ["Black Bull A", "Old Hall", "Crown", "Anchor"])
    secretary = world_secretary(division)
    fixtures_generate(division=division, start=datetime.date(2025, 9, 1), by=secretary)
    first = division.fixtures.order_by("date", "pk").first()
    fixtures_generate(
        division=division,
        start=datetime.date(2025, 9, 1),
        league_night=3,
        exclusions=[datetime.date(2025, 9, 11)],
        by=secretary,
    )
    first.refresh_from_db()
    client = Client()
    client.force_login(secretary)
    slug = division.season.league.slug
    page = client.get(reverse("leagues:manage_league_audit", args=[slug])).content.decode()
    rows = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Division: Premier" in rows and "6 fixtures created" in rows
    assert "0 fixtures created" in rows  # the second: every fixture moved, none new
    assert (
        f"Moved: {first.home} v {first.away}: Tue 2 Sep 2025 → {long_date(first.date)}" in rows
    ), rows
    assert "League night: Tuesday → Thursday" in rows and "League night: Tuesday" in rows
    assert "Nights with no league: Thu 11 Sep 2025" in rows
    assert "Division: — →" not in rows and "Created:" not in rows
    assert f"→ {Division.objects.get().pk}," not in rows
    assert AuditEntry.objects.filter(action="fixtures_generated").count() == 2


def world_secretary(division):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("susan", password="pw-secret-9")
    division.season.league.secretaries.add(user)
    return user
