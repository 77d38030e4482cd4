"""A decided tie's heading names the side through in plain emphasised words, not styled as a
link it is not (it was underlined in the links' colour): no name in the heading is a link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils.html import escape

from cups.models import Tie
from cups.services.draws import draw_make
from tests.cups.helpers import cup_world, pairs_cup, play_race

pytestmark = pytest.mark.django_db


def heading(page: str) -> str:
    return page[page.index('<h1 class="tie-heading">') :].split("</h1>")[0]


def test_the_side_through_reads_emphasised_not_as_a_link():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    tie = cup.ties.filter(round__number=1).first()
    play_race(tie, "BB")
    tie = Tie.objects.get(pk=tie.pk)
    head = heading(Client().get(tie.get_absolute_url()).content.decode())
    assert "<a " not in head
    winner = escape(tie.away.name)
    assert f'<strong class="won" data-testid="tie-winner">{winner}</strong>' in head
    assert f'<span class="lost">{escape(tie.home.name)}</span>' in head
    css = Path(settings.BASE_DIR, "static/cups/cups.css").read_text()
    styled = " ".join(re.findall(r"\.tie-heading \.won \{([^}]*)\}", css))
    assert "underline" not in styled and "accent" not in styled


def test_an_undecided_tie_names_both_sides_alike():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    tie = cup.ties.filter(round__number=1).first()
    head = heading(Client().get(tie.get_absolute_url()).content.decode())
    assert "won" not in head and "lost" not in head
