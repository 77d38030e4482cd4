"""Every audit page (a league's, a fixture's, a tie's, a game's) shows what an entry changed as
words, a line per field ("Status: scheduled → postponed"), sides by name and cards with suit
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
from leagues.templatetags.audit_words import Change, changes
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


def test_a_change_reads_field_before_and_after_in_words():
    before = {"date": "2025-10-07", "status": "scheduled", "reason": "", "venue": 3}
    after = {**before, "status": "postponed", "reason": "Pub flooded"}
    assert changes(before, after) == [
        Change("Status", "scheduled", "postponed"),
        Change("Reason", "—", "Pub flooded"),
    ]
    assert changes({"score": [0, 0], "winner": ""}, {"score": [2, 1], "winner": "home"}) == [
        Change("Score", "0, 0", "2, 1"),
        Change("Winner", "—", "home"),
    ]


def test_a_hand_reads_with_the_sides_names_and_the_cards_suits():
    corrected = {
        **HAND,
        "beg": "take_one",
        "jack": {"held_by": "A", "won_by": "B"},
        "outcome": "pack_exhausted",
        "penalties": [{"kind": "renege", "side": "B"}],
    }
    assert changes(HAND, corrected, SIDES) == [
        Change("Beg", "stand", "take one"),
        Change("Jack won by", "Smith & Jones", "Patel & Brown"),
        Change("Outcome", "—", "Pack ran out (redeal)"),
        Change("Penalties", "—", "Renege (side Patel & Brown)"),
    ]
    recorded = changes(None, HAND, SIDES)
    assert Change("Dealer", None, "Smith & Jones") in recorded
    assert Change("Cards turned up", None, "5♦") in recorded
    assert Change("Jack held by", None, "Smith & Jones") in recorded
    assert [line.field for line in changes(HAND, None, SIDES)][:2] == ["Dealer", "Cards turned up"]
    assert changes(HAND, dict(HAND), SIDES) == []


def region(body: str, testid: str, end: str) -> str:
    start = body.index(f'data-testid="{testid}"')
    return body[start : body.index(end, start)]


def shown_as_words(part: str) -> str:
    assert "{" not in part and "}" not in part and "&quot;" not in part and "&#x27;" not in part
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
    assert "Status: scheduled → postponed" in entries and "Reason: — → Pub flooded" in entries
    assert "<th>What changed</th>" in page and "<th>Before</th>" not in page
    played = world.fixture
    page = client.get(reverse("leagues:manage_fixture_audit", args=[played.pk])).content.decode()
    hands = shown_as_words(region(page, "audit-hands", "</table>"))
    sides = {side.name for side in world.table.games.first().game.sides.all()}
    assert any(f"Dealer: {name}" in hands for name in sides), hands[:2000]
    slug = world.league.slug
    page = client.get(reverse("leagues:manage_league_audit", args=[slug])).content.decode()
    rows = shown_as_words(region(page, "audit-entries", "</table>"))
    assert "Status: scheduled → postponed" in rows
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
    assert "Status: scheduled → walkover" in entries and "Winner: — → away" in entries


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
    assert f"Table 1 home: {home[0].name}, {home[1].name}" in entries
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
        Change("Date", "2025-10-07", "2025-10-14"),
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
