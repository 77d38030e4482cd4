"""The captain who confirms a result reads each table's games as the paper score card gives
them, beside Confirm (My fixtures) and on the result page: "Table 1: 14–9, 14–12 · bullseyes
2–0 · hang jacks 1–0", not the table's totals ("28–21 (bullseyes 2–0)"), which had to be added
up from the card's games to be checked."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import Fixture
from leagues.services.cards import CardTable, fixture_card_enter
from tests.leagues.test_score_card import _fixture

pytestmark = pytest.mark.django_db


def _lines(html: str) -> list[str]:
    """Each list item's words, as a reader reads them."""
    items = re.findall(r"<li[^>]*>(.*?)</li>", html, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]


def _entered(style: str, tables: list[CardTable]) -> tuple[Fixture, Client, list[str]]:
    """The away captain entered the card: the home captain's client, and the tables beside
    Confirm on their My fixtures."""
    fixture, users = _fixture(style)
    fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    client = Client()
    client.force_login(users["home"])
    mine = client.get(reverse("leagues:my_fixtures")).content.decode()
    listed = mine.split(f'data-testid="my-tables-{fixture.pk}"')[1].split("</ul>")[0]
    assert mine.index(listed) < mine.index(f'data-testid="my-confirm-{fixture.pk}"')
    return fixture, client, _lines(listed)


def test_the_captain_confirming_a_trinidad_card_reads_its_games_as_on_the_card() -> None:
    tables = [
        CardTable(board=1, games=((14, 9), (14, 12)), bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((8, 14), (14, 11)), bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    fixture, client, listed = _entered("trinidad", tables)
    assert listed == [
        "Table 1: 14–9, 14–12 · bullseyes 2–0 · hang jacks 1–0",
        "Table 2: 8–14, 14–11 · bullseyes 1–1 · hang jacks 0–2",
    ]
    page = client.get(reverse("leagues:fixture_result", args=[fixture.pk])).content.decode()
    sources = page.split('data-testid="table-sources"')[1].split("</ul>")[0]
    assert _lines(sources) == [
        "Table 1: 14–9, 14–12 · bullseyes 2–0 · hang jacks 1–0 · from the score card",
        "Table 2: 8–14, 14–11 · bullseyes 1–1 · hang jacks 0–2 · from the score card",
    ]


def test_a_card_of_bullseyes_alone_still_reads_as_bullseyes() -> None:
    """A table whose card gave no game scores has none to list: its bullseyes, as before."""
    tables = [
        CardTable(board=1, bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((8, 14), (14, 11)), bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    _, _, listed = _entered("trinidad", tables)
    assert listed == [
        "Table 1: bullseyes 2–0 (no game scores on the card) · hang jacks 1–0",
        "Table 2: 8–14, 14–11 · bullseyes 1–1 · hang jacks 0–2",
    ]


def test_a_yorkshire_card_of_one_game_a_table_reads_its_score() -> None:
    scores = ((11, 7), (9, 11), (11, 4), (11, 10))
    tables = [CardTable(board=b, games=(s,)) for b, s in enumerate(scores, start=1)]
    _, _, listed = _entered("yorkshire", tables)
    assert listed == ["Table 1: 11–7", "Table 2: 9–11", "Table 3: 11–4", "Table 4: 11–10"]
