"""The fresh hand form kept per process (scoring/fresh_form.py) is the template's own output."""

from __future__ import annotations

import re

import pytest
from django.template.loader import get_template
from django.test import RequestFactory
from django.urls import reverse

from scoring import fresh_form
from scoring.models import Game
from tests.factories.scoring import GameFactory

pytestmark = pytest.mark.django_db

#: What differs per request and per form: the masked CSRF token and the one-time key.
PER_REQUEST = re.compile(r'(name="(?:csrfmiddlewaretoken|entry_key)" value=")[^"]*"')


def rendered(game: Game, number: int) -> str:
    """The hand form rendered from the template, as it was before it was kept."""
    sides = list(game.sides.order_by("position"))
    dealer = game.next_dealer or game.first_dealer
    context = {
        "form": fresh_form.hand_form(game, sides, dealer=dealer, number=number),
        "action": reverse("scoring:hand_record", kwargs={"pk": game.pk}),
        "submit_label": "Record hand",
        "htmx": True,
        "fresh": True,
    }
    return get_template("scoring/_hand_form.html").render(context, RequestFactory().get("/"))


@pytest.mark.parametrize(
    "kind",
    [{}, {"west_yorkshire": True}, {"all_fives": True}, {"seven_up": True}],
    ids=["trinidad", "west yorkshire", "all fives", "seven up"],
)
def test_the_kept_form_is_byte_for_byte_the_rendered_one(kind):
    game = GameFactory(hands=0 if kind.get("all_fives") else 3, **kind)
    sides = list(game.sides.order_by("position"))
    fresh_form._kept.clear()
    for _ in range(2):  # rendered, then kept
        kept = fresh_form.fresh_form_html(csrf_token="t0ken", game=game, sides=sides, number=4)
        assert PER_REQUEST.sub(r"\1…", kept) == PER_REQUEST.sub(r"\1…", rendered(game, 4))
    assert 'name="expected_number" value="4"' in kept
    assert re.search(rf'name="dealer" value="{game.next_dealer}"[^>]*checked', kept)


def test_games_of_one_ruleset_share_one_kept_form_with_their_own_names_and_address(monkeypatch):
    """A league night's games (each table its own teams) render the form once between them,
    and each still gets its own sides' names (escaped, possessive too) and its own address."""
    fresh_form._kept.clear()
    renders = []
    render = fresh_form._render
    monkeypatch.setattr(fresh_form, "_render", lambda *a, **k: renders.append(1) or render(*a, **k))
    names = [("Reds", "Blues"), ("Patel & Sons", "Smith's <Arms>"), ("Bull", "O'Neills")]
    for home, away in names:
        game = GameFactory(hands=0, side_names=(home, away))
        sides = list(game.sides.order_by("position"))
        kept = fresh_form.fresh_form_html(csrf_token="t0ken", game=game, sides=sides, number=1)
        assert PER_REQUEST.sub(r"\1…", kept) == PER_REQUEST.sub(r"\1…", rendered(game, 1))
        assert f'action="/games/{game.pk}/hands/"' in kept
    assert len(fresh_form._kept) == 1 and len(renders) == 1


def test_each_form_gets_its_own_key_and_token_and_the_dealer_of_its_hand():
    game = GameFactory(hands=1)
    sides = list(game.sides.order_by("position"))
    first, second = (
        fresh_form.fresh_form_html(csrf_token="t0ken", game=game, sides=sides, number=2)
        for _ in range(2)
    )
    keys = [re.search(r'name="entry_key" value="([^"]+)"', html) for html in (first, second)]
    assert keys[0] and keys[1] and keys[0].group(1) != keys[1].group(1)
    assert fresh_form.CSRF not in first and fresh_form.ENTRY_KEY not in first
    game.next_dealer = "B" if game.next_dealer == "A" else "A"
    other = fresh_form.fresh_form_html(csrf_token="t0ken", game=game, sides=sides, number=2)
    assert re.search(rf'name="dealer" value="{game.next_dealer}"[^>]*checked', other)


def test_a_reply_carries_one_csrf_token_for_all_its_forms(client):
    """The hand form and the undo form carry the same token: one random string compresses once."""
    game = GameFactory(hands=2)
    client.get(game.scoring_link.get_absolute_url())
    for page in (
        client.get(game.get_absolute_url()),
        client.post(
            reverse("scoring:hand_undo", kwargs={"pk": game.pk}),
            {"expected_number": "2", "entry_key": "1f0e7b3c-2c1a-4d5e-9f00-0a1b2c3d4e5f"},
            HTTP_HX_REQUEST="true",
        ),
    ):
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
        assert len(tokens) >= 2 and len(set(tokens)) == 1, tokens


def test_a_form_that_shows_a_mark_some_other_way_is_rendered_for_its_game(monkeypatch):
    """Were the template to show a name or the address some other way than the values filled in
    (a mark left in the text between them), the form is rendered for each game instead."""
    assert fresh_form._pieces(f'<a data-game="{fresh_form.GAME}">', ["A", "B"]) is None
    monkeypatch.setattr(fresh_form, "_pieces", lambda html, labels: None)
    monkeypatch.setattr(fresh_form, "_kept", {})
    game = GameFactory(hands=2)
    sides = list(game.sides.order_by("position"))
    for _ in range(2):
        kept = fresh_form.fresh_form_html(csrf_token="t0ken", game=game, sides=sides, number=3)
        assert PER_REQUEST.sub(r"\1…", kept) == PER_REQUEST.sub(r"\1…", rendered(game, 3))
        assert 'name="expected_number" value="3"' in kept and fresh_form._MARK not in kept
