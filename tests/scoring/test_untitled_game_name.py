"""A stand-alone game started with no title is named by what it is, its number a reference:
"Trinidad to 14 · game no. 318", alike in the games list, its page's heading and its tab's
title. "Game 318" read as the 318th game, where at a league table "Game 2" is the table's
second game."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.factories.scoring import GameFactory

pytestmark = pytest.mark.django_db


def _words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_a_game_with_no_title_is_named_by_its_game_and_its_number(client) -> None:
    game = GameFactory(trinidad=True, title="")
    name = f"Trinidad to 14 · game no. {game.pk}"
    assert str(game) == name
    page = client.get(game.get_absolute_url()).content.decode()
    assert re.search(r"<title>([^<]*)</title>", page).group(1) == f"{name} · All Fours"
    heading = re.search(r'<p class="game-title">(.*?)</p>', page, re.S).group(1)
    assert _words(heading) == name
    assert f"Game {game.pk}" not in _words(page)
    listed = client.get(reverse("scoring:game_list")).content.decode()
    assert f">{name}</a>" in unescape(listed)


def test_a_titled_game_keeps_its_title_before_what_it_is(client) -> None:
    game = GameFactory(trinidad=True, title="Friday at the Fleece")
    assert str(game) == "Friday at the Fleece"
    page = client.get(game.get_absolute_url()).content.decode()
    heading = re.search(r'<p class="game-title">(.*?)</p>', page, re.S).group(1)
    assert _words(heading) == "Friday at the Fleece · Trinidad to 14"
