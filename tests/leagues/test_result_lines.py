"""A result's figures in a line add up: the Yorkshire line gives the bonus for the higher
aggregate that its league points include, and My fixtures tells one Trinidad table's figures
from the next."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues.services.cards import CardTable, fixture_card_enter
from tests.leagues.helpers import page_words
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _seen_by(user, url: str) -> str:
    client = Client()
    client.force_login(user)
    return unescape(re.sub(r"<[^>]+>", "", page_words(client.get(url))))


def test_the_yorkshire_line_gives_the_bonus_its_league_points_include():
    """Two tables each, the away side pegging more: 2 a table won, and the away side's 2 for
    the higher aggregate, make 4–6."""
    fixture, users = _fixture()
    card = _yorkshire_card(((11, 7), (9, 11), (11, 10), (5, 11)))
    fixture_card_enter(fixture=fixture, tables=card, by=users["home"])
    page = _seen_by(users["away"], reverse("leagues:fixture_result", args=[fixture.pk]))
    assert (
        "Tables 2–2 · games 2–2 · pegs 36–39 · bonus for the higher aggregate 0–2 · "
        "league points 4–6" in page
    )


def test_the_trinidad_line_gives_no_bonus_where_its_format_has_none():
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, games=((14, 9), (14, 6)), bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((14, 9), (6, 14)), bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    page = _seen_by(users["home"], reverse("leagues:fixture_result", args=[fixture.pk]))
    assert "hang jacks 1–2 · league points" in page and "bonus" not in page


def test_my_fixtures_tells_one_trinidad_table_from_the_next():
    """One table a line, each with its games as the card gives them; within a table its
    figures are joined by "·" (its bullseyes, its hang jacks)."""
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, games=((14, 9), (14, 6)), bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((14, 9), (6, 14)), bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    page = _seen_by(users["home"], reverse("leagues:my_fixtures"))
    assert f"The tables, {fixture.home.name} first: " in page
    words = " ".join(page.split())
    assert "Table 1: 14–9, 14–6 · bullseyes 2–0 · hang jacks 1–0 Table 2:" in words
    assert "Table 2: 14–9, 6–14 · bullseyes 1–1 · hang jacks 0–2 Confirm" in words


def test_the_fixture_pages_figures_give_the_bonus_between_the_pegs_and_the_match_points():
    """The fixture's page adds up as the card does: tables 2–2 give 4–4, and the bonus for the
    higher aggregate 0–2 makes the match points 4–6."""
    fixture, users = _fixture()
    card = _yorkshire_card(((11, 7), (9, 11), (11, 10), (5, 11)))
    fixture_card_enter(fixture=fixture, tables=card, by=users["home"])
    client = Client()
    client.force_login(users["away"])
    page = page_words(client.get(fixture.get_absolute_url()))
    rows = re.findall(
        r'<tr[^>]*><th scope="row">([^<]*)</th>'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td>',
        page,
    )
    assert rows[-4:] == [
        ("Points pegged", "36", "39"),
        ("Bonus for the higher aggregate", "0", "2"),
        ("Match points", "4", "6"),
        ("League points", "4", "6"),
    ]


def test_my_fixtures_gives_the_bonus_the_score_to_confirm_includes():
    """The confirming captain sees 4–6 beside tables 2–2: the away side's 2 for the higher
    aggregate is said there, as on the result page."""
    fixture, users = _fixture()
    card = _yorkshire_card(((11, 7), (9, 11), (11, 10), (5, 11)))
    fixture_card_enter(fixture=fixture, tables=card, by=users["home"])
    page = _seen_by(users["away"], reverse("leagues:my_fixtures"))
    assert f"{fixture.home.name} 4–6 {fixture.away.name}" in page
    assert "Bonus for the higher aggregate 0–2." in page
