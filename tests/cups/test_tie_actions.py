"""A tie's secretary actions: only those that can apply are offered (none for a bye or a tie
still to come, no settlement of a team tie); posted anyway, the services refuse them by name and
change nothing; a bad number names the field it was given in."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.draws import draw_make
from cups.services.ties import tie_postpone, tie_settle, tie_walkover
from leagues.models import AuditEntry
from tests.cups.helpers import cup_world, pairs_cup, team_cup

pytestmark = pytest.mark.django_db

POSTED = {
    "walkover": {"action": "walkover", "to": "home", "reason": "Agreed"},
    "postpone": {"action": "postpone", "reason": "Agreed"},
    "settle": {"action": "settle", "home": 2, "away": 0, "reason": "Agreed"},
}


def secretary(world) -> Client:
    client = Client()
    client.force_login(world.users["secretary"])
    return client


def page(client: Client, tie: Tie) -> str:
    return html.unescape(client.get(tie.get_absolute_url()).content.decode())


def state(tie: Tie) -> tuple:
    tie.refresh_from_db()
    return (tie.status, tie.winner, tie.home_score, tie.away_score, tie.reason, tie.fixture_id)


@pytest.fixture
def three_pairs():
    """Three pairs: a bye and a tie to play in round one; the final's away side to come."""
    world = cup_world(3)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    bye = cup.ties.get(round__number=1, status=Tie.Status.BYE)
    final = cup.ties.get(round__number=2)
    assert final.home_id is not None and final.away_id is None
    return world, bye, final


def test_a_bye_and_a_tie_to_come_offer_no_walkover_postponement_or_settlement(three_pairs):
    world, bye, final = three_pairs
    client = secretary(world)
    shown = page(client, bye)
    assert f"{bye.home_name} has a bye into the next round" in shown
    for tie, body in ((bye, shown), (final, page(client, final))):
        assert 'data-testid="tie-audit-link"' in body
        for action in ("walkover", "postpone", "settle"):
            assert f'value="{action}"' not in body, (tie, action)
        assert 'data-testid="tie-actions"' not in body
    assert "Its entrants are not known yet" in page(client, final)


@pytest.mark.parametrize("action", sorted(POSTED))
def test_posted_anyway_a_bye_or_a_tie_to_come_is_refused_by_name(three_pairs, action):
    world, bye, final = three_pairs
    client = secretary(world)
    for tie, words in ((bye, "has a bye into the next round"), (final, "not known yet")):
        before, entries = state(tie), AuditEntry.objects.count()
        response = client.post(reverse("cups:tie_manage", args=[tie.pk]), POSTED[action])
        said = html.unescape(client.get(response["Location"]).content.decode())
        doing = {"walkover": "give a walkover", "postpone": "postpone", "settle": "settle"}
        assert f"Cannot {doing[action]}" in said and words in said, (tie, action)
        assert "Nothing was changed" in said
        assert state(tie) == before and AuditEntry.objects.count() == entries


def test_the_services_refuse_a_bye_by_name():
    world = cup_world(3)
    cup = pairs_cup(world, best_of=3)
    sec = world.users["secretary"]
    draw_make(competition=cup, seed=3, by=sec)
    bye = cup.ties.get(round__number=1, status=Tie.Status.BYE)
    before = state(bye)
    with pytest.raises(ValidationError, match=f"Cannot give a walkover: {bye.home_name} has a bye"):
        tie_walkover(tie=bye, to="home", reason="x", by=sec)
    with pytest.raises(ValidationError, match="Cannot postpone: .* has a bye"):
        tie_postpone(tie=bye, reason="x", by=sec)
    with pytest.raises(ValidationError, match="Cannot settle the score: .* has a bye"):
        tie_settle(tie=bye, home=2, away=0, note="x", by=sec)
    assert state(bye) == before


def test_a_team_tie_offers_no_settlement_and_says_where_it_is_settled():
    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=5, by=world.users["secretary"])
    tie = cup.ties.filter(round__number=1).first()
    client = secretary(world)
    body = page(client, tie)
    assert 'value="walkover"' in body and 'value="postpone"' in body
    assert 'value="settle"' not in body and 'name="home"' not in body
    result_page = reverse("leagues:fixture_result", args=[tie.fixture_id])
    assert f'href="{result_page}"' in body
    before = state(tie)
    response = client.post(reverse("cups:tie_manage", args=[tie.pk]), POSTED["settle"])
    said = html.unescape(client.get(response["Location"]).content.decode())
    assert "settle it on its fixture's result page" in said and "Nothing was changed" in said
    assert state(tie) == before


def test_a_bad_settle_number_names_the_field_it_was_given_in():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=5, by=world.users["secretary"])
    tie = cup.ties.filter(round__number=1).first()
    client = secretary(world)
    url = reverse("cups:tie_manage", args=[tie.pk])
    body = page(client, tie)
    assert f"Settle: {tie.home_name} games" in body and 'value="settle"' in body
    before = state(tie)
    response = client.post(url, {**POSTED["settle"], "home": "99"})
    said = html.unescape(client.get(response["Location"]).content.decode())
    assert f"Settle: {tie.home_name} games: At most 15 games." in said
    assert "Choose what to do" not in said and "Nothing was changed" in said
    response = client.post(url, {**POSTED["settle"], "away": "two"})
    said = html.unescape(client.get(response["Location"]).content.decode())
    assert f"Settle: {tie.away_name} games: A whole number of games." in said
    response = client.post(url, {"action": "settle", "reason": "Agreed"})
    said = html.unescape(client.get(response["Location"]).content.decode())
    assert "Give both sides' games." in said
    assert state(tie) == before


def test_a_walkover_is_given_to_a_side_chosen_by_its_name():
    """The walkover's choice named the sides "Home" and "Away" beside a button "Do it"; the
    page names them as the tie does."""
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    (tie,) = cup.ties.all()
    shown = page(secretary(world), tie)
    assert f'<option value="home">{tie.home_name}</option>' in shown
    assert f'<option value="away">{tie.away_name}</option>' in shown
    assert ">Home</option>" not in shown and ">Do it<" not in shown
    assert ">Decide the tie<" in shown
