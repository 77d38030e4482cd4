"""The table page's words, its light reply and playing again, through the Django client."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from backports import zstd
from django.urls import reverse

from scoring import selectors, views
from scoring.models import Game, GameStatus
from scoring.offline import game_state
from scoring.rules import PRESETS, Category, questions
from scoring.sheet import build_page
from tests.factories.scoring import GameFactory, record_hands

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REDS = (("Reds", ("Ann", "Ben")), ("Blues", ("Cy", "Di")))


def _game(**kwargs) -> Game:
    names, players = zip(*REDS, strict=True)
    return GameFactory(side_names=names, players=players, **kwargs)


def _page(client, game: Game) -> str:
    client.get(game.scoring_link.get_absolute_url())
    return client.get(game.get_absolute_url()).content.decode()


def _row(page: str, number: int) -> str:
    match = re.search(rf'<tr id="hand-{number}".*?</tr>', page, re.S)
    assert match is not None
    return match.group(0)


def _plain(dealer: str, **facts) -> dict:
    return {"dealer": dealer, "turn_ups": ["5H"], "beg": "stand", "high": "A", "low": "B",
            "jack": None, "game": "B"} | facts  # fmt: skip


def _ran_out(dealer: str) -> dict:
    """A hand whose pack was run until it ran out (4♣, 9♣, 2♣): a redeal."""
    return {"dealer": dealer, "turn_ups": ["4C", "9C", "2C"], "beg": "run",
            "outcome": "pack_exhausted"}  # fmt: skip


def test_sheet_columns_and_penalties_read_as_a_player_says_them(client):
    game = _game()
    record_hands(game, [_plain("A", penalties=[{"kind": "renege", "side": "B"}])])
    page = _page(client, game)
    assert re.search(r'data-testid="sheet-head-A" title="Reds">Reds<', page)
    assert re.search(r'data-testid="sheet-head-B" title="Blues">Blues<', page)
    row = _row(page, 1)
    assert "Blues renege → Reds +1" in row
    assert "Reds high +1" in row
    assert "penalty renege" not in row


def test_a_take_one_reads_as_the_table_says_it(client):
    """The beggar's side "took one", where the sheet said "gift"; three-handed, the dealer gives
    one to each opponent: the side after the beggar was "given one". The awards keep the strict
    order (kicks, gift, penalties, high, …)."""
    game = _game()
    record_hands(game, [_plain("A", turn_ups=["JH"], beg="take_one")])
    row = _row(_page(client, game), 1)
    assert "gift" not in row
    assert '<span class="turned">turned J♥</span>' in row  # as the two-phone panel says it
    texts = re.findall(r'<span class="award[^"]*">([^<]*)<', row)
    assert texts == ["Reds kick J♥ +3", "Blues took one +1", "Reds high +1", "Blues low +1",
                     "Blues game +1"]  # fmt: skip

    three = GameFactory(
        seven_up=True, side_names=("Ann", "Bob", "Cy"), players=(("Ann",), ("Bob",), ("Cy",))
    )
    record_hands(three, [_plain("B", turn_ups=["5H"], beg="take_one", low="A")])
    texts = re.findall(r'<span class="award[^"]*">([^<]*)<', _row(_page(client, three), 1))
    assert texts[:2] == ["Cy took one +1", "Ann given one +1"]


def test_a_run_pack_says_who_begged_and_what_was_turned(client):
    """A run reads as the table saw it: who begged, every card turned in order, and the one
    whose suit stood as trumps; a pack that ran out turned no new suit."""
    game = _game()
    record_hands(
        game,
        [
            _plain("A", turn_ups=["4S", "9S", "6D"], beg="run"),
            _ran_out("B"),
        ],
    )
    page = _page(client, game)
    ran = _row(page, 1)
    assert '<span class="run">Blues begged; the pack was run: 4♠, 9♠, then 6♦ stood</span>' in ran
    assert 'title="trumps: diamonds">♦</span>' in ran
    assert 'class="turned"' not in ran  # the run's words name every card
    out = _row(page, 2)
    assert '<span class="run">Reds begged; the pack was run: 4♣, 9♣, 2♣</span>' in out
    assert "pack ran out: redeal" in out
    standing = GameFactory()
    record_hands(standing, [_plain("A")])
    assert 'class="run"' not in _row(_page(client, standing), 1)


#: Blues deal, turn up 5♥ and take high, low, the jack and the most card points.
ALL_FOURS_TO_BLUES = _plain(
    "B", high="B", low="B", jack={"held_by": "B", "won_by": "B"}, game={"A": 10, "B": 30}
)

#: What the phone's score sheet draws (static/scoring/offline/sheet.mjs), run by Node.js.
SHEET_BATCH = Path(__file__).resolve().parent / "sheet_batch.mjs"


def test_the_phone_words_a_hands_row_as_the_server_does():
    """The offline sheet says what the server's says: a take one two- and three-handed, a run
    (found a new suit, or ran out), a renege, a tie."""
    node = shutil.which("node")
    assert node is not None, "node (Node.js 20 or later) is needed: apt-get install nodejs"
    two = _game()
    record_hands(
        two,
        [
            _plain("A", turn_ups=["JH"], beg="take_one"),
            _plain("B", turn_ups=["4S", "9S", "6D"], beg="run", game={"A": 20, "B": 20}),
            _ran_out("A"),
            _plain("A", penalties=[{"kind": "renege", "side": "A"}]),
            # Blues take high, low, jack and the most card points, but reneged: no game point,
            # so no all fours; then the same without the renege.
            ALL_FOURS_TO_BLUES | {"penalties": [{"kind": "renege", "side": "B"}]},
            ALL_FOURS_TO_BLUES,
        ],
    )
    three = GameFactory(
        seven_up=True, side_names=("Ann", "Bob", "Cy"), players=(("Ann",), ("Bob",), ("Cy",))
    )
    record_hands(three, [_plain("B", turn_ups=["5H"], beg="take_one", low="A")])
    games = [selectors.game_for_page(game.pk) for game in (two, three)]
    server = [
        [
            {
                "awards": [award.text for award in row.awards],
                "turned": row.turned,
                "run": row.run,
                "all_fours": row.all_fours and row.all_fours.label,
            }
            for row in build_page(game).rows
        ]
        for game in games
    ]
    done = subprocess.run(
        [node, str(SHEET_BATCH)],
        input=json.dumps([game_state(game) for game in games]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == server
    assert server[0][0]["awards"][1] == "Blues took one +1"
    assert server[0][0]["turned"] == "turned J♥"
    assert server[0][1]["turned"] == ""
    assert server[0][1]["run"] == "Reds begged; the pack was run: 4♠, 9♠, then 6♦ stood"
    assert server[1][0]["awards"][:2] == ["Cy took one +1", "Ann given one +1"]
    assert [hand["all_fours"] for hand in server[0][-2:]] == [None, "B"]


def test_a_tied_game_shows_as_the_variant_scores_it(client):
    trinidad = _game()
    record_hands(trinidad, [_plain("A", game={"A": 20, "B": 20})])
    row = re.sub(r"<[^>]+>", "", _row(_page(client, trinidad), 1))
    assert "game tied 20–20: nobody" in row

    seven_up = GameFactory(seven_up=True)  # a tie goes to the first tied side after the dealer
    record_hands(seven_up, [_plain("A", game="tie")])
    assert "game tied to Bob, non-dealer +1" in _row(_page(client, seven_up), 1)


def test_the_win_banner_cites_only_categories_the_variant_has(client):
    game = GameFactory(west_yorkshire=True, start_scores={"A": 10})
    record_hands(game, [{"dealer": "A", "high": "A", "low": "B", "jack": None, "game": "B"}])
    banner = re.search(r'data-testid="winner-banner">(.*?)</section>', _page(client, game), re.S)
    assert banner is not None
    text = banner.group(1)
    assert "(strict order: penalties, high, low, jack, game)" in text
    assert "kick" not in text and "gift" not in text and "hang" not in text


def test_possessives_and_no_engine_words(client):
    game = _game()
    page = _page(client, game)
    assert "Reds hangs (+3) Blues&#x27; jack" in page
    assert "s&#x27;s" not in page
    data = {
        "entry_key": str(uuid.uuid4()),
        "expected_number": "1",
        "dealer": "A",
        "outcome": "played",
        "beg": "stand",
        "turn_ups": "JH",
        "high": "A",
        "low": "A",
        "jack": "A-A",
        "game": "A",
    }
    refused = client.post(reverse("scoring:hand_record", kwargs={"pk": game.pk}), data)
    assert refused.status_code == 422
    errors = re.search(r'id="errors-jack".*?</ul>', refused.content.decode(), re.S)
    assert errors is not None
    assert "null" not in errors.group(0)
    assert "“Not out”" in errors.group(0)


@pytest.mark.parametrize("hands", [0, 59], ids=["hand 1", "hand 60"])
def test_the_reply_to_a_hand_is_light_and_does_not_grow(client, hands):
    game = GameFactory(hands=hands, overrides={"target": 500})
    client.get(game.scoring_link.get_absolute_url())
    data = {
        "entry_key": str(uuid.uuid4()),
        "expected_number": str(hands + 1),
        "dealer": game.next_dealer,
        "outcome": "played",
        "beg": "stand",
        "turn_ups": "5H",
        "high": "A",
        "low": "B",
        "jack": "none",
        "game": "B",
    }
    response = client.post(
        reverse("scoring:hand_record", kwargs={"pk": game.pk}),
        data,
        HTTP_ACCEPT_ENCODING="gzip, deflate, br, zstd",  # as Chrome on a phone
        **HTMX,
    )
    assert response.status_code == 200
    assert response["Content-Encoding"] == "zstd"
    assert len(response.content) <= 6000, len(response.content)
    body = zstd.decompress(response.content).decode()
    assert body.count('<tr id="hand-') == 1  # the new row only, not the sheet
    assert 'id="score-chart"' not in body and 'id="scoring-link' not in body


def test_the_qr_code_is_made_once_per_link_key(client):
    game = GameFactory()
    views.qr_svg.cache_clear()
    _page(client, game)
    client.get(game.get_absolute_url())
    info = views.qr_svg.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_undo_asks_before_it_acts(client):
    game = GameFactory(hands=2)
    page = _page(client, game)
    # On the score bar: "Undo…" (to a screen reader "Undo hand 2…") opens the question.
    summary = re.search(r"<summary[^>]*data-testid=\"undo\">(.*?)</summary>", page)
    assert summary and re.sub(r"<[^>]+>", "", summary.group(1)) == "Undo hand 2…"
    assert html.unescape(re.sub(r"<[^>]+>", "", page)).count("Yes, undo hand\xa02") == 1
    fix = re.search(
        r'<a class="button fix" href="([^"]+)"[^>]*data-testid="fix-last">(.*?)</a>', page
    )
    assert fix and fix.group(1).endswith("/hands/2/correct/")
    assert re.sub(r"<[^>]+>", "", fix.group(2)) == "Fix hand 2"


def test_play_again_keeps_sides_players_and_rules_and_passes_the_deal(client):
    game = _game(won=True)
    assert game.status == GameStatus.WON
    page = _page(client, game)
    assert 'data-testid="play-again"' in page
    response = client.post(reverse("scoring:game_again", kwargs={"pk": game.pk}))
    again = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response["Location"] == again.get_absolute_url()
    assert again.ruleset == game.ruleset
    assert again.scoring_link_id == game.scoring_link_id
    assert [(s.name, s.players) for s in again.sides.order_by("position")] == [
        (s.name, s.players) for s in game.sides.order_by("position")
    ]
    # The engine's next dealer after the last hand deals first.
    assert again.first_dealer == game.next_dealer
    assert again.status == GameStatus.IN_PROGRESS and not again.hands.exists()


def test_play_again_refuses_a_game_in_progress(client):
    game = GameFactory(hands=1)
    client.get(game.scoring_link.get_absolute_url())
    client.post(reverse("scoring:game_again", kwargs={"pk": game.pk}))
    assert Game.objects.count() == 1


def test_the_engine_answers_the_rules_questions():
    trinidad, yorkshire = PRESETS["trinidad"], PRESETS["west_yorkshire"]
    original = PRESETS["original"]
    asked = ("dealer", "outcome", "high", "low", "jack", "game", "penalties")
    assert questions.hand_questions(yorkshire) == asked
    assert "early_look" in questions.penalty_kinds(yorkshire, 2)
    assert "early_look" not in questions.penalty_kinds(trinidad, 2)
    assert "renege_top_trump" not in questions.penalty_kinds(yorkshire, 3)
    assert Category.KICK not in questions.categories(yorkshire)
    assert Category.HANG_JACK in questions.categories(trinidad)
    # A take one that ends the hand: the same dealer deals again (the demo asks this too).
    take_one = {"dealer": "A", "outcome": "played", "beg": "take_one"}
    assert questions.next_dealer(original, "AB", **take_one) == "A"
    assert questions.next_dealer(trinidad, "AB", **take_one) == "B"
    assert not questions.hand_is_played(original, outcome="played", beg="take_one")
