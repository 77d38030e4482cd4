"""A knock-out team tie typed from the paper score card that the tables leave level: the
card gives the play-off game's score and the tie is decided by it, as a play-off game scored on
a phone decides it; without it the tie waits for the play-off, and the desk says so."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.draws import draw_make
from cups.services.ties import tie_playoff_enter
from leagues.formats import STYLE_PRESETS
from leagues.models import AuditEntry, FixtureTable
from leagues.services.cards import CardRefused, CardTable, fixture_card_enter
from tests.cups.helpers import cup_world, team_cup

pytestmark = pytest.mark.django_db

#: Two tables, one each: tables 1–1, pegs 16–16, no hang jacks: level to a play-off game.
LEVEL = [CardTable(board=1, games=((11, 5),)), CardTable(board=2, games=((5, 11),))]
#: Tables 2–0 to the home side.
HOME_WINS = [CardTable(board=1, games=((11, 5),)), CardTable(board=2, games=((11, 9),))]


def _tie():
    world = cup_world(2)
    world.league.match_format = (
        STYLE_PRESETS["yorkshire"].match_format.with_options(tables=2).to_spec()
    )
    world.league.save(update_fields=["match_format"])
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    return world, cup, Tie.objects.get(competition=cup)


def test_a_level_card_with_its_play_off_score_decides_the_tie_for_the_side_that_won_it():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(7, 11), by=secretary
    )
    tie.refresh_from_db()
    cup.refresh_from_db()
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
    assert (tie.playoff_home, tie.playoff_away) == (7, 11)
    assert cup.winner_id == tie.away_id
    assert not tie.games.exists()  # no play-off game readied for a phone
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CARD_ENTERED, fixture=tie.fixture)
    assert entry.after["playoff"] == [7, 11] and entry.by == secretary
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CUP_TIE_DECIDED).exists()


def test_a_captains_level_card_with_its_play_off_decides_once_the_other_captain_agrees():
    from leagues.services import confirmation

    world, cup, tie = _tie()
    captains = {
        tie.fixture.home_id: world.users["home_captain"],
        tie.fixture.away_id: world.users["away_captain"],
    }
    submission = fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, playoff=(11, 4), by=captains[tie.fixture.home_id]
    )
    tie.refresh_from_db()
    assert tie.winner == ""
    confirmation.result_confirm(submission=submission, by=captains[tie.fixture.away_id])
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"


def test_a_level_card_without_its_play_off_waits_and_the_desk_lists_it_till_it_is_given():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    tie.refresh_from_db()
    assert tie.winner == "" and tie.level_words == "Level 3–3: a play-off game to come"
    client = Client()
    client.force_login(secretary)
    desk = client.get(reverse("leagues:manage_league", args=[world.league.slug])).content
    assert "Cup tie level: the play-off game's score is still to come" in desk.decode()
    # Its card page asks for the play-off game's score.
    card_url = reverse("leagues:score_card", args=[tie.fixture.pk])
    page = client.get(card_url).content.decode()
    assert 'name="playoff_home"' in page and 'name="playoff_away"' in page
    client.post(card_url, {"playoff_home": "11", "playoff_away": "8"})
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"
    assert not tie.games.filter(game__isnull=False).exists()  # the phone's game went
    desk = client.get(reverse("leagues:manage_league", args=[world.league.slug])).content
    assert "still to come" not in desk.decode()
    assert 'name="playoff_home"' not in client.get(card_url).content.decode()


def test_the_card_asks_for_no_play_off_when_the_tables_decide_the_match():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=HOME_WINS, signed=True, by=secretary)
    client = Client()
    client.force_login(secretary)
    page = client.get(reverse("leagues:score_card", args=[tie.fixture.pk])).content.decode()
    assert 'name="playoff_home"' not in page


@pytest.mark.parametrize(
    ("tables", "playoff", "said"),
    [
        (LEVEL, (11, 11), "Play-off game (11–11): both sides are at or past the target of 11"),
        (LEVEL, (9, 7), "Play-off game (9–7): neither side reached the target of 11"),
        (HOME_WINS, (11, 7), "The tables decide this match: there is no play-off game"),
    ],
)
def test_a_bad_play_off_score_is_refused_naming_what_was_wrong_with_nothing_saved(
    tables, playoff, said
):
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    with pytest.raises(CardRefused) as refused:
        fixture_card_enter(
            fixture=tie.fixture, tables=tables, signed=True, playoff=playoff, by=secretary
        )
    assert any(said in message for message in refused.value.messages)
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    assert not FixtureTable.objects.filter(fixture=tie.fixture).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CARD_ENTERED).exists()


def test_a_bad_play_off_score_given_later_is_refused_and_a_captain_may_not_give_it():
    from django.core.exceptions import PermissionDenied

    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    with pytest.raises(ValidationError, match="neither side reached the target of 11"):
        tie_playoff_enter(tie=tie, home=3, away=2, by=secretary)
    with pytest.raises(PermissionDenied):
        tie_playoff_enter(tie=tie, home=11, away=2, by=world.users["home_captain"])
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    tie_playoff_enter(tie=tie, home=2, away=11, by=secretary)
    tie.refresh_from_db()
    assert tie.winner == "away"
    with pytest.raises(ValidationError, match="not level waiting for a play-off game"):
        tie_playoff_enter(tie=tie, home=11, away=2, by=secretary)
