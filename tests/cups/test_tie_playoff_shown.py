"""A level cup tie's result submitted with its play-off game's score from the card shows that
score beside the tables' figures wherever the result is shown: the result page (where the
other captain confirms or disputes it), to everyone who can see it; the other captain's My
fixtures, whose Confirm agrees it; and the fixture's page once it counts. Before, only the
tables' figures were shown, and the other captain agreed a play-off score they never saw."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from leagues.services import confirmation
from leagues.services.cards import fixture_card_enter
from tests.cups.test_tie_playoff_card import LEVEL, _captains, _tie
from tests.leagues.helpers import page_words

pytestmark = pytest.mark.django_db


def _read(client, url):
    return page_words(client.get(url)).replace("&#x27;", "'")


def _section(page: str, testid: str) -> str:
    """The page's element marked ``data-testid=testid``, to its section's end."""
    start = page.index(f'data-testid="{testid}"')
    return page[start : page.index("</section>", start)]


def test_the_result_page_shows_the_play_off_score_submitted_with_the_result_to_everyone():
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    fixture = tie.fixture
    fixture_card_enter(fixture=fixture, tables=LEVEL, playoff=(11, 7), by=captains["home"])
    said = f"Play-off game: {fixture.home.name} 11–7 {fixture.away.name}"
    url = reverse("leagues:fixture_result", args=[fixture.pk])
    for who in ("away_captain", "home_captain", "secretary", "stranger", None):
        client = Client()
        if who is not None:
            client.force_login(world.users[who])
        page = _read(client, url)
        assert said in _section(page, "result-figures"), who
    # The captain it waits for reads it above their Confirm.
    client = Client()
    client.force_login(captains["away"])
    page = _read(client, url)
    assert page.index(said) < page.index('data-testid="confirm-result"')


def test_my_fixtures_shows_the_play_off_score_beside_the_tables_to_the_captain_who_confirms():
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    fixture = tie.fixture
    fixture_card_enter(fixture=fixture, tables=LEVEL, playoff=(6, 11), by=captains["home"])
    client = Client()
    client.force_login(captains["away"])
    page = _read(client, reverse("leagues:my_fixtures"))
    row = page[page.index(f'data-testid="my-fixture-{fixture.pk}"') :]
    row = row[: row.index("</form>")]  # to its Confirm (its tables are a list of their own)
    said = f"Play-off game: {fixture.home.name} 6–11 {fixture.away.name}."
    assert said in row
    assert row.index(said) < row.index(f'data-testid="my-confirm-{fixture.pk}"')


def test_the_fixture_page_shows_the_play_off_score_once_the_result_counts():
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    fixture = tie.fixture
    submission = fixture_card_enter(
        fixture=fixture, tables=LEVEL, playoff=(11, 7), by=captains["home"]
    )
    row = re.compile(
        r'data-testid="playoff-score"><th scope="row">Play-off game</th>'
        r'<td class="num">11</td><td class="num">7</td>'
    )
    assert not row.search(_read(Client(), fixture.get_absolute_url()))
    confirmation.result_confirm(submission=submission, by=captains["away"])
    page = _read(Client(), fixture.get_absolute_url())
    assert row.search(page)
    tie.refresh_from_db()
    assert f"{tie.through_words}." in page


def test_a_tie_with_no_play_off_score_shows_none():
    world, cup, tie = _tie()
    fixture = tie.fixture
    fixture_card_enter(fixture=fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    client = Client()
    for url in (reverse("leagues:fixture_result", args=[fixture.pk]), fixture.get_absolute_url()):
        page = _read(client, url)
        assert 'data-testid="playoff-score"' not in page and "Play-off game:" not in page
