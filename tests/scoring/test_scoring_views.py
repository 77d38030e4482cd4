"""View tests with the Django client: the pages as a scorer uses them, with and without htmx."""

import json
import re
import uuid

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.models import Game, GameStatus, Hand, HandRevision, RevisionAction
from scoring.rules import score_replay
from tests.factories.scoring import GameFactory, record_hands

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def hand_post(game: Game, number: int | None = None, key: uuid.UUID | None = None, /, **answers):
    """The form data a phone posts for one hand (tap answers, hidden key and number)."""
    data = {
        "entry_key": str(key or uuid.uuid4()),
        "expected_number": str(number or game.hands.count() + 1),
        "dealer": game.next_dealer,
        "outcome": "played",
    }
    if game.rules.trumps == "turn_up":
        data |= {"turn_ups": "4H", "beg": "stand"}
    data |= {name: str(value) for name, value in answers.items()}
    return data


def taps_for(game: Game, winner: str, number: int) -> dict:
    """Answers where `winner` takes high, low, jack and game (all fours)."""
    suit = "CDHS"[number % 4]
    answers = {"high": winner, "low": winner, "jack": f"{winner}-{winner}", "game": winner}
    if game.rules.trumps == "turn_up":
        answers["turn_ups"] = f"4{suit}"
    return answers


def open_link(client, game: Game) -> None:
    """Open the game's scoring link in this client, as the scorer's phone does."""
    response = client.get(game.scoring_link.get_absolute_url())
    assert response.status_code == 302


def record_url(game: Game) -> str:
    return reverse("scoring:hand_record", kwargs={"pk": game.pk})


# --- starting a game -----------------------------------------------------------------------------


def test_start_a_game_from_the_page(client):
    """The new-game form creates the game with the chosen variant, target, sides and dealer."""
    assert client.get(reverse("scoring:game_new")).status_code == 200
    response = client.post(
        reverse("scoring:game_new"),
        {
            "variant": "west_yorkshire",
            "target": "15",
            "side_a_name": "Black Bull",
            "side_a_player_1": "Smith",
            "side_a_player_2": "Jones",
            "side_b_name": "",
            "side_b_player_1": "Patel",
            "side_b_player_2": "Brown",
            "first_dealer": "B",
        },
    )
    game = Game.objects.get()
    # Straight to the game, holding its new scoring link: the phone that started it may score it.
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert "Record hand" in client.get(game.get_absolute_url()).content.decode()
    assert game.ruleset == {"preset": "west_yorkshire", "target": 15}
    assert game.next_dealer == "B"
    sides = [(s.label, s.name, s.players) for s in game.sides.all()]
    assert sides == [
        ("A", "Black Bull", ["Smith", "Jones"]),
        ("B", "Patel & Brown", ["Patel", "Brown"]),
    ]


def test_a_variant_played_by_one_player_a_side_asks_for_no_partner(client):
    client.post(
        reverse("scoring:game_new"),
        {
            "variant": "seven_up",
            "side_a_player_1": "Ann",
            "side_b_player_1": "Bob",
            "first_dealer": "A",
        },
    )
    game = Game.objects.get()
    assert [(s.name, s.players) for s in game.sides.all()] == [("Ann", ["Ann"]), ("Bob", ["Bob"])]


def test_start_refuses_a_side_count_the_variant_cannot_play(client):
    response = client.post(
        reverse("scoring:game_new"),
        {"variant": "trinidad", "three_sides": "on", "first_dealer": "A"},
    )
    assert response.status_code == 422
    assert "played by 2 sides" in response.content.decode()
    assert not Game.objects.exists()


def test_start_refuses_a_named_third_side_that_is_not_ticked(client):
    """Side C named but the box unticked: refused with a message, never a game without C."""
    response = client.post(
        reverse("scoring:game_new"),
        {"variant": "seven_up", "side_c_name": "Cat", "first_dealer": "A"},
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "Side C has a name or players, but “A third side plays” is not ticked" in page
    # The third side's panel is open, so the scorer sees the box to tick.
    assert re.search(r'<details class="card-panel side-fields side-c" open>', page)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("names", "field", "message"),
    [
        (("Us", "Us", ""), "side_b_name", "Side B has the same name as side A (“Us”)"),
        (("Us", " u S ", ""), "side_b_name", "Side B has the same name as side A (“Us”)"),
        (("Us", "Them", "THEM"), "side_c_name", "Side C has the same name as side B (“Them”)"),
    ],
)
def test_start_refuses_two_sides_of_one_name(client, names, field, message):
    """Both sides called "Us" made a game read "Us 0 | Us 0" and "deals: Us": refused by the
    later side's name, case and spaces ignored, as a player would hear them."""
    data = {"variant": "seven_up", "first_dealer": "A", "three_sides": "on"}
    data |= {f"side_{label}_name": name for label, name in zip("abc", names, strict=True)}
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 422
    page = response.content.decode()
    found = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', page, re.S)
    assert found and escape(message) in found.group(1), page
    assert "give each side a name of its own" in found.group(1)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("side_b_player_1", "Ann\u0008"), ("side_a_name", "x" * 500), ("side_c_player_2", "Ann\x00")],
)
def test_a_refused_name_says_why_next_to_its_field(client, field, value):
    """A side's name or player refused by the form is told by its field (the field points to
    the message), not left marked invalid with nothing said; the third side's panel opens."""
    data = {"variant": "seven_up", "first_dealer": "A", field: value}
    if field.startswith("side_c"):
        data["three_sides"] = "on"
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert f'aria-describedby="id_{field}_error"' in page
    message = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', page, re.S)
    assert message and "<li>" in message.group(1), page
    if field.startswith("side_c"):
        assert '<details class="card-panel side-fields side-c" open>' in page
    assert not Game.objects.exists()


def test_a_third_side_plays_when_ticked(client):
    client.post(
        reverse("scoring:game_new"),
        {"variant": "seven_up", "three_sides": "on", "side_c_name": "Cat", "first_dealer": "C"},
    )
    game = Game.objects.get()
    assert [s.name for s in game.sides.all()] == ["Side A", "Side B", "Cat"]
    assert game.next_dealer == "C"


# --- the game page -------------------------------------------------------------------------------


def test_the_game_page_asks_only_what_the_variant_asks(client):
    """Trinidad asks for the turn-up, beg and hang jack; West Yorkshire asks neither."""
    games = [GameFactory(), GameFactory(west_yorkshire=True), GameFactory(all_fives=True)]
    for game in games:
        open_link(client, game)
    trinidad = client.get(games[0].get_absolute_url()).content.decode()
    assert 'name="turn_ups"' in trinidad and 'name="beg"' in trinidad
    assert "hangs (+3)" in trinidad
    assert 'name="captures"' not in trinidad
    yorkshire = client.get(games[1].get_absolute_url()).content.decode()
    assert 'name="turn_ups"' not in yorkshire and 'name="beg"' not in yorkshire
    assert "hangs" not in yorkshire
    assert "Early look" in yorkshire
    fives = client.get(games[2].get_absolute_url()).content.decode()
    assert 'name="captures"' in fives and 'name="high"' not in fives


def test_the_dealers_part_names_only_what_the_variant_asks(client):
    """The folded dealer's part says what it holds: a pitch game has no beg and no redeal
    (West Yorkshire's opens on the dealer and Played or Misdeal), Trinidad has both."""
    trinidad, yorkshire = GameFactory(), GameFactory(west_yorkshire=True)
    for game in (trinidad, yorkshire):
        open_link(client, game)
    toggle = re.compile(r'<summary data-testid="more-toggle">([^<]*)</summary>')
    page = client.get(trinidad.get_absolute_url()).content.decode()
    assert toggle.findall(page) == ["Dealer, beg, redeal or misdeal"]
    page = client.get(yorkshire.get_absolute_url()).content.decode()
    assert toggle.findall(page) == ["Dealer or misdeal"]
    assert "Bunch (redeal)" not in page and 'name="beg"' not in page


def test_the_next_dealer_is_suggested_and_the_form_carries_a_one_time_key(client):
    game = GameFactory(hands=1)
    open_link(client, game)
    body = client.get(game.get_absolute_url()).content.decode()
    assert re.search(r'name="dealer" value="B"[^>]*checked', body)
    assert re.search(r'name="expected_number" value="2"', body)
    keys = re.findall(r'name="entry_key" value="([0-9a-f-]{36})"', body)
    again = client.get(game.get_absolute_url()).content.decode()
    assert keys and set(keys).isdisjoint(
        re.findall(r'name="entry_key" value="([0-9a-f-]{36})"', again)
    )


@pytest.mark.parametrize("variant", ["trinidad", "west_yorkshire"])
def test_record_hands_to_a_win(client, variant):
    """Posting hands one by one (plain posts, PRG) ends with the winner banner."""
    game = GameFactory(**{variant: True})
    open_link(client, game)
    for number in range(1, 30):
        game.refresh_from_db()
        if game.status == GameStatus.WON:
            break
        winner = "A" if number % 3 else "B"
        response = client.post(record_url(game), hand_post(game, **taps_for(game, winner, number)))
        assert response.status_code == 302, response.content.decode()[:2000]
        assert response["Location"].startswith(game.get_absolute_url())
    game.refresh_from_db()
    assert game.status == GameStatus.WON and game.winner == "A"
    page = client.get(game.get_absolute_url()).content.decode()
    banner = re.search(r'id="winner-banner".*?</section>', page, re.S).group(0)
    assert f"won {game.sides.get(label='A').score}–" in banner
    assert f"on hand {game.decided_hand} with {game.decided_category}" in banner
    assert 'id="hand-form"' not in page  # no more hands


def test_invalid_facts_are_shown_next_to_the_fact_and_nothing_is_saved(client):
    """A turned-up jack with the jack in play: 422, the error by the jack question, no hand."""
    game = GameFactory()
    open_link(client, game)
    response = client.post(
        record_url(game),
        hand_post(game, turn_ups="JH", high="A", low="B", jack="A-A", game="B"),
    )
    assert response.status_code == 422
    body = response.content.decode()
    error = re.search(r'id="errors-jack"[^>]*>(.*?)</ul>', body, re.S)
    assert error and "J♥ was turned up" in error.group(1)
    assert 'value="JH"' in body  # what was entered is kept
    assert Hand.objects.count() == 0


def test_a_missing_answer_is_asked_for(client):
    game = GameFactory(west_yorkshire=True)
    open_link(client, game)
    response = client.post(record_url(game), hand_post(game, high="A", low="B", jack="none"))
    assert response.status_code == 422
    assert re.search(r'id="errors-game".*Tap who made game', response.content.decode(), re.S)
    assert Hand.objects.count() == 0


def test_game_counts_can_be_entered_instead_of_a_tap(client):
    game = GameFactory()
    open_link(client, game)
    client.post(
        record_url(game),
        hand_post(game, high="A", low="B", jack="none", game_A=30, game_B=41),
    )
    assert game.hands.get().facts["game"] == {"A": 30, "B": 41}


def test_a_hung_jack_and_a_penalty_are_recorded(client):
    game = GameFactory()
    open_link(client, game)
    client.post(
        record_url(game),
        hand_post(
            game,
            high="A",
            low="B",
            jack="B-A",
            game="A",
            penalties="renege:B",
        ),
    )
    hand = game.hands.get()
    assert hand.facts["jack"] == {"held_by": "B", "won_by": "A"}
    assert hand.facts["penalties"] == [{"kind": "renege", "side": "B"}]
    assert [(a.side, a.category, a.points) for a in hand.awards.all()] == [
        ("A", "penalty", 1),
        ("A", "high", 1),
        ("B", "low", 1),
        ("A", "hang_jack", 3),
        ("A", "game", 1),
    ]


def test_a_redeal_needs_no_play_facts(client):
    game = GameFactory()
    open_link(client, game)
    client.post(
        record_url(game),
        hand_post(game, turn_ups="4H 9H JH", beg="run", outcome="pack_exhausted"),
    )
    hand = game.hands.get()
    assert hand.facts["outcome"] == "pack_exhausted"
    game.refresh_from_db()
    assert game.next_dealer == "A"  # the same dealer deals again
    assert {s.label: s.score for s in game.sides.all()} == {"A": 3, "B": 0}  # the jack kicked


def test_double_post_of_the_same_form_records_one_hand(client):
    """The same form posted twice: one hand, and the second post shows the same result."""
    game = GameFactory()
    open_link(client, game)
    data = hand_post(game, high="A", low="B", jack="none", game="B")
    first = client.post(record_url(game), data)
    second = client.post(record_url(game), data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert game.hands.count() == 1
    assert HandRevision.objects.filter(action=RevisionAction.RECORD).count() == 1
    page = client.get(second["Location"]).content.decode()
    assert page.count("Hand 1 recorded.") == 1


def test_a_stale_form_is_refused_with_a_message_and_the_current_state(client):
    """Phone 2 posts hand 1 after phone 1 did: 409, a message, the hand phone 1 entered."""
    game = GameFactory()
    open_link(client, game)
    phone_one = hand_post(game, high="A", low="A", jack="none", game="A")
    phone_two = hand_post(game, high="B", low="B", jack="none", game="B")
    assert client.post(record_url(game), phone_one).status_code == 302
    response = client.post(record_url(game), phone_two)
    assert response.status_code == 409
    body = response.content.decode()
    assert "the game has moved on" in body
    assert 'data-testid="hand-row-1"' in body
    assert re.search(r'name="expected_number" value="2"', body)  # a fresh form for hand 2
    assert game.hands.get().facts["high"] == "A"


def test_htmx_record_returns_the_game_fragment(client):
    game = GameFactory()
    open_link(client, game)
    response = client.post(
        record_url(game), hand_post(game, high="A", low="B", jack="none", game="B"), **HTMX
    )
    assert response.status_code == 200
    body = response.content.decode()
    # Only what changed: the form, the new row, the scoreboard, the undo button.
    assert body.lstrip().startswith('<section id="entry"')
    assert "<html" not in body
    assert 'id="score-chart"' not in body
    assert 'id="scoring-link' not in body
    assert "Hand 1 recorded." in body
    assert 'data-testid="hand-row-1"' in body


def test_htmx_refusals_return_the_fragment_with_their_status(client):
    """422 (errors by the facts) and 409 (stale) come back as fragments htmx is told to swap."""
    game = GameFactory()
    open_link(client, game)
    bad = client.post(record_url(game), hand_post(game, high="A", low="B", jack="none"), **HTMX)
    assert bad.status_code == 422
    assert bad.content.decode().lstrip().startswith('<div id="game"')
    assert "Tap who made game" in bad.content.decode()
    client.post(record_url(game), hand_post(game, high="A", low="B", jack="none", game="B"))
    stale = client.post(
        record_url(game), hand_post(game, 1, high="A", low="B", jack="none", game="A"), **HTMX
    )
    assert stale.status_code == 409
    assert 'id="game-notice"' in stale.content.decode()


def test_the_card_picker_works_without_javascript(client):
    """Tapping a card posts the form with add_card: it comes back with the card, unsaved."""
    game = GameFactory()
    open_link(client, game)
    data = hand_post(game, turn_ups="4H", high="A") | {"add_card": "9H"}
    response = client.post(record_url(game), data)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'value="4H 9H"' in body
    assert re.search(r'name="beg" value="run"[^>]*checked', body)  # two cards: the pack was run
    assert re.search(r'name="high" value="A"[^>]*checked', body)  # other answers kept
    assert game.hands.count() == 0


def test_without_javascript_a_card_taken_back_takes_back_the_run_the_cards_made(client):
    """A second card moves the beg to "run the pack"; ⌫ back to one card left it on run, and
    the hand was refused ("… turns up at least two cards") until the scorer tapped Stand. The
    run the cards made goes back with them; a run the scorer chose stays."""
    game = GameFactory()
    open_link(client, game)

    def beg_after(data: dict) -> tuple[str, str]:
        body = client.post(record_url(game), data).content.decode()
        beg = re.search(r'name="beg" value="(\w+)"[^>]*checked', body)
        mark = re.search(r'name="beg_by_cards" value="(\w*)"', body)
        assert beg is not None and mark is not None
        return beg.group(1), mark.group(1)

    assert beg_after(hand_post(game, turn_ups="4H") | {"add_card": "9H"}) == ("run", "1")
    two = hand_post(game, turn_ups="4H 9H", beg="run", beg_by_cards="1")
    assert beg_after(two | {"drop_card": "1"}) == ("stand", "")
    assert beg_after(two | {"clear_cards": "1"}) == ("stand", "")
    chosen = hand_post(game, turn_ups="4H 9H", beg="run")
    assert beg_after(chosen | {"drop_card": "1"}) == ("run", "")
    assert game.hands.count() == 0


# --- undo, correct, audit, abandon, export -------------------------------------------------------


def test_undo_the_last_hand(client):
    game = GameFactory(hands=3)
    open_link(client, game)
    url = reverse("scoring:hand_undo", kwargs={"pk": game.pk})
    data = {"expected_number": "3", "entry_key": str(uuid.uuid4())}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # a double tap undoes one hand
    assert game.hands.count() == 2
    stale = client.post(url, {"expected_number": "3", "entry_key": str(uuid.uuid4())})
    assert stale.status_code == 409
    assert "Nothing was undone" in stale.content.decode()
    assert game.hands.count() == 2


def test_undos_question_has_a_way_back_that_keeps_the_hand(client):
    """Undo's question offered only "Yes, undo hand 3": a phone user looks for "No". "No, keep
    it" is in the question, a link to the game (scoring.js closes the question in place), which
    opens with the question closed and the hand kept, in the answer to an undo too."""
    game = GameFactory(hands=3)
    open_link(client, game)
    page = client.get(game.get_absolute_url()).content.decode()
    question = re.search(r'<details class="undo" id="undo">(.*?)</details>', page, re.S)
    assert question is not None
    keep = re.search(
        r'<a class="button" href="([^"]+)" data-undo-keep[^>]*>No, keep it</a>', question.group(1)
    )
    assert keep is not None and keep.group(1) == game.get_absolute_url()
    assert question.group(1).index("Yes, undo hand") < question.group(1).index("No, keep it")
    back = client.get(keep.group(1))
    assert back.status_code == 200 and game.hands.count() == 3
    assert '<details class="undo" id="undo">' in back.content.decode()  # closed
    answer = client.post(
        reverse("scoring:hand_undo", kwargs={"pk": game.pk}),
        {"expected_number": "3", "entry_key": str(uuid.uuid4())},
        **HTMX,
    )
    assert 'data-testid="undo-keep"' in answer.content.decode()


def test_undo_with_htmx_returns_the_fragment(client):
    game = GameFactory(hands=2)
    open_link(client, game)
    response = client.post(
        reverse("scoring:hand_undo", kwargs={"pk": game.pk}),
        {"expected_number": "2", "entry_key": str(uuid.uuid4())},
        **HTMX,
    )
    assert response.status_code == 200
    assert "Hand 2 undone" in response.content.decode()
    assert 'data-testid="hand-row-2"' not in response.content.decode()


def test_a_game_no_longer_kept_says_so_with_the_links_this_phone_holds(client):
    """A game taken away before a hand of it was recorded (a table's next game when the game
    before it came back into play): its page, its hand form (with htmx too: a 404 would not
    be shown, the tap would do nothing) and its undo say so (410), with the link this phone
    opened to go on with the game in play. A missing hand of a game that is kept is not found."""
    from tests.factories.leagues import take_away

    kept, gone = GameFactory(hands=1), GameFactory()
    open_link(client, kept)
    open_link(client, gone)
    pk = gone.pk
    take_away(gone)
    page = client.get(reverse("scoring:game", kwargs={"pk": pk}))
    assert page.status_code == 410
    words = page.content.decode()
    assert 'data-testid="game-gone"' in words and "Nothing was saved" not in words
    links = re.findall(r'href="([^"]+)" data-testid="game-in-play"', words)
    assert links == [gone.scoring_link.get_absolute_url(), kept.scoring_link.get_absolute_url()]
    posted = {"entry_key": str(uuid.uuid4()), "expected_number": "1"}
    for url in (
        reverse("scoring:hand_record", kwargs={"pk": pk}),
        reverse("scoring:hand_undo", kwargs={"pk": pk}),
    ):
        for headers in ({}, HTMX):
            response = client.post(url, posted, **headers)
            assert response.status_code == 410, url
            assert "Nothing was saved." in response.content.decode()
    missing = reverse("scoring:hand_correct", kwargs={"pk": kept.pk, "number": 2})
    assert client.get(missing).status_code == 404


def test_correct_a_hand(client):
    """The correction page shows the hand's facts; saving re-scores the game."""
    game = GameFactory(hands=3)
    open_link(client, game)
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 2})
    page = client.get(url).content.decode()
    assert re.search(r'name="high" value="B"[^>]*checked', page)
    assert re.search(r'name="expected_revision" value="0"', page)
    data = hand_post(game, 2, **taps_for(game, "A", 2)) | {
        "dealer": "B",
        "expected_revision": "0",
        "reason": "A had the jack",
    }
    response = client.post(url, data)
    assert response.status_code == 302
    hand = game.hands.get(number=2)
    assert hand.facts["high"] == "A" and hand.revision == 1
    game.refresh_from_db()
    assert {s.label: s.score for s in game.sides.all()} == {"A": 8, "B": 4}
    # The same form again (double tap) changes nothing more; an old form is refused.
    client.post(url, data)
    assert game.hands.get(number=2).revision == 1
    stale = client.post(url, data | {"entry_key": str(uuid.uuid4())}, follow=True)
    assert "changed on another phone" in stale.content.decode()


def test_a_correction_with_invalid_facts_is_refused_by_the_fact(client):
    game = GameFactory(hands=2)
    open_link(client, game)
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 1})
    data = hand_post(game, 1, turn_ups="JS", high="A", low="B", jack="A-A", game="B") | {
        "dealer": "A",
        "expected_revision": "0",
    }
    response = client.post(url, data)
    assert response.status_code == 422
    assert re.search(r'id="errors-jack".*J♠ was turned up', response.content.decode(), re.S)
    assert game.hands.get(number=1).revision == 0


@pytest.mark.parametrize(
    "revision",
    [None, "abc", "-1", "9" * 23],
    ids=["missing", "not a number", "negative", "longer than an id"],
)
def test_a_correction_form_without_its_revision_says_it_is_incomplete(client, revision):
    """A correction whose hidden revision is missing or garbled is refused with a message."""
    game = GameFactory(hands=2)
    open_link(client, game)
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 1})
    data = hand_post(game, 1, **taps_for(game, "A", 1)) | {"dealer": "A"}
    if revision is not None:
        data["expected_revision"] = revision
    response = client.post(url, data)
    assert response.status_code == 422
    assert "This form is incomplete: reload the page" in response.content.decode()
    assert game.hands.get(number=1).revision == 0


def test_the_audit_trail_shows_records_corrections_and_undos(client):
    game = GameFactory(hands=2)
    open_link(client, game)
    hand = game.hands.get(number=1)
    from scoring import services

    services.hand_correct(
        game=hand.game_id,
        number=hand.number,
        facts=hand.facts,
        entry_key=uuid.uuid4(),
        reason="checked",
    )
    services.hand_undo(game=game, expected_number=2)
    body = client.get(reverse("scoring:game_audit", kwargs={"pk": game.pk})).content.decode()
    for testid in ("audit-record-1", "audit-record-2", "audit-correct-1", "audit-undo-2"):
        assert f'data-testid="{testid}"' in body
    assert "Reason: checked" in body


def test_abandon_a_game(client):
    game = GameFactory(hands=1)
    open_link(client, game)
    url = reverse("scoring:game_abandon", kwargs={"pk": game.pk})
    assert client.get(url).status_code == 200
    assert client.post(url, {"reason": "closing time"}).status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="abandoned-banner"' in page and 'id="hand-form"' not in page


def test_the_replay_export_is_valid_input_for_the_engine(client):
    game = GameFactory(won=True, start_scores={"A": 2, "B": 5})
    response = client.get(reverse("scoring:game_replay", kwargs={"pk": game.pk}))
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert set(data) == {"ruleset", "sides", "scores", "hands"}
    result = score_replay(data)
    assert result.winner == game.winner == "A"
    assert result.scores == {s.label: s.score for s in game.sides.all()}


def test_the_game_list_shows_recent_games(client):
    GameFactory(title="Friday at the Bull", hands=2)
    GameFactory(title="Cup final", won=True)
    body = client.get(reverse("scoring:game_list")).content.decode()
    assert "Friday at the Bull" in body and "Cup final" in body
    assert "Won by Smith &amp; Jones" in body


def test_the_listed_games_sides_read_once_per_connection_are_the_querysets():
    """The list's sides are read by a query built once per connection and number of games:
    each game's sides in seat order with its number of hands, as the queryset gives them."""
    from django.forms.models import model_to_dict

    from scoring import selectors

    made = [GameFactory(hands=hands) for hands in (0, 1, 3)]
    games, older = selectors.recent_games()
    assert not older and [game.pk for game in games] == [game.pk for game in reversed(made)]
    assert [game.hand_count for game in games] == [3, 1, 0]
    ids = [game.pk for game in games]
    for some in (ids, ids[:1], ids[1:]):
        read = selectors._listed_sides_read.rows(some)
        expected = selectors._listed_sides_read.shape(some)
        assert [(model_to_dict(side), side.hand_count) for side in read] == [
            (model_to_dict(side), side.hand_count) for side in expected
        ]


def test_the_chart_has_a_line_per_side_and_the_target(client):
    game = GameFactory(hands=4)
    body = client.get(game.get_absolute_url()).content.decode()
    chart = re.search(r"<svg.*?</svg>", body, re.S).group(0)
    assert chart.count("<polyline") == 2
    assert 'data-testid="chart-target"' in chart
    points = re.search(r'data-testid="chart-line-A"', chart)
    assert points
    assert (
        len(re.search(r'points="([^"]+)"[^>]*data-testid="chart-line-A"', chart).group(1).split())
        == 5
    )


# --- refusals of the number boxes are shown where the scorer looks --------------------------------


@pytest.mark.parametrize(
    ("counts", "shown"),
    [
        (
            {"game_A": "-1", "game_B": "30"},
            "card points must be a whole number from 0 to 80 (got -1)",
        ),
        (
            {"game_A": "81", "game_B": "0"},
            "card points must be a whole number from 0 to 80 (got 81)",
        ),
        ({"game_A": "abc", "game_B": "0"}, "card points must be a whole number from 0 to 80."),
        ({"game_A": "1e9", "game_B": "0"}, "card points must be a whole number from 0 to 80."),
    ],
    ids=["negative", "above 80", "not a number", "1e9"],
)
def test_a_refused_card_point_total_is_named_with_the_game_question(client, counts, shown):
    """A bad card-point box shows its error under the game question; nothing is saved."""
    game = GameFactory()
    open_link(client, game)
    response = client.post(
        record_url(game), hand_post(game, high="A", low="B", jack="none", **counts)
    )
    assert response.status_code == 422
    page = response.content.decode()
    errors = re.search(r'id="errors-game".*?</ul>', page, re.S)
    assert errors is not None
    name = game.sides.get(label="A").name
    assert f"{escape(name)}&#x27; {shown}" in errors.group(0)  # "Jones'", not "Jones's"
    assert re.search(r'<details class="more counts" open>', page)
    assert Hand.objects.count() == 0


@pytest.mark.parametrize(
    ("row", "shown"),
    [
        (
            {"penalties": "points:A:-3"},
            "Penalty 1: the points must be a whole number from 1 to 100 (got -3)",
        ),
        (
            {"penalties": "points:A:abc"},
            "Penalty 1: the points must be a whole number from 1 to 100 (got abc)",
        ),
        (
            # A digit to Python's str.isdigit() that int() refuses: once a 500.
            {"penalties": "points:A:²"},
            "Penalty 1: the points must be a whole number from 1 to 100 (got ²)",
        ),
        (
            {"penalties": "bogus:A"},
            "Penalty 1: “bogus” is not a penalty in Trinidad",
        ),
    ],
    ids=["negative points", "points not a number", "superscript digit", "unknown kind"],
)
def test_a_refused_penalty_row_is_shown_in_the_open_penalties(client, row, shown):
    """A bad penalty row shows its error in the penalties section, opened; nothing is saved."""
    game = GameFactory()
    open_link(client, game)
    response = client.post(
        record_url(game), hand_post(game, high="A", low="B", jack="none", game="A", **row)
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert '<details class="more" id="penalties" open>' in page
    section = page.split('id="penalties"', 1)[1].split("</details>", 1)[0]
    assert shown in section
    assert Hand.objects.count() == 0


def test_all_fives_verdict_states_the_all_fives_order(client):
    """All Fives scores captures in trick order, not high, low, jack, game: the banner says so."""
    game = GameFactory(all_fives=True, start_scores={"A": 50})
    record_hands(
        game,
        [
            {
                "dealer": "A",
                "turn_ups": ["4H"],
                "captures": [
                    {"card": "10H", "side": "A"},
                    {"card": "AH", "side": "A"},
                    {"card": "5H", "side": "B"},
                ],
            }
        ],
    )
    page = client.get(game.get_absolute_url()).content.decode()
    banner = re.search(r'data-testid="winner-banner">(.*?)</section>', page, re.S)
    assert banner is not None
    assert "(strict order: kicks, gift, penalties, captures in trick order)" in banner.group(1)
    assert "high, low, jack, game" not in banner.group(1)


def test_a_refused_hand_lists_the_questions_to_check_at_the_top(client):
    """The refusals sit by their questions, far down a phone's screen: the top of the form says
    nothing was saved and links to each question to check, in page order."""
    game = GameFactory()
    open_link(client, game)
    data = hand_post(
        game, turn_ups="JH", high="A", low="B", jack="A-A", game_A="-1", game_B="30"
    ) | {"penalties": "points:A:0"}
    response = client.post(record_url(game), data)
    assert response.status_code == 422
    page = response.content.decode()
    summary = re.search(r'data-testid="error-summary".*?</div>', page, re.S)
    assert summary is not None
    assert "Nothing was saved" in summary.group(0)
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', summary.group(0))
    assert links == [("fs-game", "Game (most card points)"), ("penalties", "Penalties")]
    assert page.index('data-testid="error-summary"') < page.index('id="fs-dealer"')
    assert Hand.objects.count() == 0


def test_an_engine_refusal_is_listed_at_the_top_too(client):
    game = GameFactory()
    open_link(client, game)
    data = hand_post(game, turn_ups="JH", high="A", low="B", jack="A-A", game="A")
    response = client.post(record_url(game), data)
    assert response.status_code == 422
    summary = re.search(r'data-testid="error-summary".*?</div>', response.content.decode(), re.S)
    assert summary is not None
    assert '<a href="#fs-jack">Jack of trumps</a>' in summary.group(0)


def test_a_recorded_hand_shows_no_error_summary(client):
    game = GameFactory()
    open_link(client, game)
    response = client.get(game.get_absolute_url())
    assert 'data-testid="error-summary"' not in response.content.decode()


@pytest.mark.parametrize("button", ["add_card", "add_penalty"])
def test_a_form_button_on_a_finished_game_shows_no_hand_form(client, button):
    """A phone still filling in a hand after another won the game: tapping a card (without
    JavaScript) or 'Another penalty' shows the finished game, not a form for hand N + 1."""
    game = GameFactory(won=True)
    open_link(client, game)
    data = hand_post(game) | {button: "5S" if button == "add_card" else "renege:A"}
    for headers in ({}, HTMX):
        response = client.post(record_url(game), data, **headers)
        assert response.status_code == 409
        page = response.content.decode()
        assert 'id="hand-form"' not in page
        assert "The game is over, so no more hands can be entered. Nothing was saved." in page
        assert 'data-testid="winner-banner"' in page


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("garbage", "Capture 1 is “GARBAGE”: write the side, a colon, then the card"),
        ("A:10 A:", "Capture 2 is “A:”: write the side, a colon, then the card"),
        (":5", "Capture 1 is “:5”: write the side, a colon, then the card"),
        ("A:ZZ", "“ZZ” is not a card"),
    ],
    ids=["no colon", "no card", "no side", "not a rank"],
)
def test_malformed_captures_name_what_was_typed(client, typed, shown):
    """All Fives captures typed wrongly are refused naming the token, never as an empty card."""
    game = GameFactory(all_fives=True)
    open_link(client, game)
    response = client.post(record_url(game), hand_post(game, captures=typed))
    assert response.status_code == 422
    errors = re.search(r'id="errors-captures".*?</ul>', response.content.decode(), re.S)
    assert errors is not None
    assert shown in errors.group(0)
    assert "&#x27;&#x27; is not a card" not in errors.group(0)
    assert Hand.objects.count() == 0


def test_captures_by_rank_take_the_trump_suit(client):
    game = GameFactory(all_fives=True)
    open_link(client, game)
    client.post(record_url(game), hand_post(game, captures="A:10 b:5 A:JH"))
    assert game.hands.get().facts["captures"] == [
        {"card": "10H", "side": "A"},
        {"card": "5H", "side": "B"},
        {"card": "JH", "side": "A"},
    ]


def test_a_points_penalty_without_points_asks_how_many(client):
    """Points to a side called with the points box left empty asks for them by the box."""
    game = GameFactory()
    open_link(client, game)
    called = client.post(record_url(game), hand_post(game) | {"add_penalty": "points:A"})
    assert called.status_code == 200
    assert 'name="penalties" value="points:A:0"' in called.content.decode()
    data = hand_post(game, high="A", low="B", jack="none", game="A") | {
        "penalties": "points:A:0",
    }
    response = client.post(record_url(game), data)
    assert response.status_code == 422
    section = response.content.decode().split('id="penalties"', 1)[1].split("</details>", 1)[0]
    assert "how many points?" in section
    assert "(got 0)" not in response.content.decode()
    assert Hand.objects.count() == 0


# --- the outcome decides which questions count ---------------------------------------------------

PLAY_TAPS = {"high": "A", "low": "A", "jack": "A-A", "game": "A"}


def test_a_misdeal_ignores_the_taps_made_before_it_was_chosen(client):
    """The scorer tapped the turn-up, high, low, jack and game, then found it was a misdeal: a
    radio button cannot be un-tapped, so the misdeal is recorded without them."""
    game = GameFactory()
    open_link(client, game)
    response = client.post(record_url(game), hand_post(game, outcome="misdeal", **PLAY_TAPS))
    assert response.status_code == 302
    assert game.hands.get().facts == {"dealer": "A", "outcome": "misdeal"}


def test_a_redeal_keeps_its_turn_up_and_ignores_play_taps(client):
    game = GameFactory()
    open_link(client, game)
    data = hand_post(game, outcome="bunch", turn_ups="JH", **PLAY_TAPS)
    assert client.post(record_url(game), data).status_code == 302
    assert game.hands.get().facts == {
        "dealer": "A",
        "turn_ups": ["JH"],
        "beg": "stand",
        "outcome": "bunch",
    }
    game.refresh_from_db()
    assert {s.label: s.score for s in game.sides.all()} == {"A": 3, "B": 0}  # the kick stands


def test_a_take_one_that_ends_the_hand_ignores_play_taps(client):
    game = GameFactory(variant="original", side_names=("Ann", "Bob"), players=(("Ann",), ("Bob",)))
    open_link(client, game)
    data = hand_post(game, beg="take_one", **PLAY_TAPS)
    assert client.post(record_url(game), data).status_code == 302
    assert game.hands.get().facts == {"dealer": "A", "turn_ups": ["4H"], "beg": "take_one"}


def test_a_played_hand_can_be_corrected_into_a_misdeal(client):
    """The correction form starts with the hand's taps; choosing Misdeal must be enough."""
    game = GameFactory(hands=2)
    open_link(client, game)
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 2})
    data = hand_post(game, 2, outcome="misdeal", **PLAY_TAPS) | {
        "dealer": "B",
        "expected_revision": "0",
    }
    response = client.post(url, data)
    assert response.status_code == 302
    assert game.hands.get(number=2).facts == {"dealer": "B", "outcome": "misdeal"}


def test_the_game_list_shows_a_page_of_games_and_leads_to_the_older_ones(client):
    from scoring.selectors import GAMES_A_PAGE

    games = [GameFactory(title=f"Night {n:02}") for n in range(GAMES_A_PAGE + 2)]
    url = reverse("scoring:game_list")
    first = client.get(url).content.decode()
    assert f"Night {GAMES_A_PAGE + 1:02}" in first and "Night 01" not in first
    assert 'href="/games/?page=2"' in first and "Newer games" not in first
    second = client.get(url, {"page": "2"}).content.decode()
    assert "Night 00" in second and "Night 01" in second and "Night 02" not in second
    assert "Older games" not in second and f'href="{url}" rel="prev"' in second
    assert len(games) == GAMES_A_PAGE + 2
    # A page number that is not one shows the first page; a page after the last is not found.
    garbled = client.get(url, {"page": "²"})
    assert garbled.status_code == 200
    assert f"Night {GAMES_A_PAGE + 1:02}" in garbled.content.decode()
    assert client.get(url, {"page": "3"}).status_code == 404
    assert client.get(url, {"page": "9" * 18}).status_code == 404


def test_the_light_reply_sends_the_banner_and_actions_only_when_the_status_moves(client):
    """A hand that leaves the game in play answers without the winner's banner and the game's
    actions (the page shows them as they are); the winning hand, and its undo, with both."""
    game = GameFactory()
    open_link(client, game)
    for number in range(1, 30):
        response = client.post(
            record_url(game), hand_post(game, **taps_for(game, "A", number)), **HTMX
        )
        assert response.status_code == 200, response.content.decode()[:2000]
        body = response.content.decode()
        game.refresh_from_db()
        if game.status == GameStatus.WON:
            break
        assert 'id="banner"' not in body and 'id="game-actions"' not in body
    assert game.status == GameStatus.WON
    assert 'id="banner" hx-swap-oob="true"' in body and 'id="winner-banner"' in body
    assert 'id="game-actions"' in body and 'id="abandon-link"' not in body
    undo = {"expected_number": str(number), "entry_key": str(uuid.uuid4())}
    body = client.post(reverse("scoring:hand_undo", kwargs={"pk": game.pk}), undo, **HTMX)
    body = body.content.decode()
    assert 'id="banner" hx-swap-oob="true"' in body and 'id="winner-banner"' not in body
    assert 'id="game-actions"' in body and 'id="abandon-link"' in body


DRAWN = {**HTMX, "HTTP_X_LIGHT_REPLY": "json"}


def test_a_page_that_draws_the_reply_is_sent_what_the_rendered_reply_shows(client):
    """A page that draws the reply itself (scoring.js asks for data) gets, for a hand that
    leaves the game in play, what the rendered reply shows: the hand's row as the game page
    writes it, the scores, the notice, who deals next, fresh one-time keys for the next hand
    and the undo, the last hand's correction address and what the phone keeps offline."""
    game = GameFactory()
    open_link(client, game)
    response = client.post(record_url(game), hand_post(game, **taps_for(game, "A", 1)), **DRAWN)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    reply = response.json()
    game.refresh_from_db()
    sides = {side.label: side for side in game.sides.all()}
    page = client.get(game.get_absolute_url()).content.decode()
    row = re.search(r'<tr id="hand-1".*?</tr>', page, re.S).group(0)
    assert reply["hand"] == 1 and reply["row"].strip() == row
    assert reply["scores"] == {label: side.score for label, side in sides.items()}
    assert reply["scores"]["A"] > 0 and reply["notice"] == "Hand 1 recorded."
    dealer = sides[game.next_dealer]
    assert reply["next"]["number"] == 2
    assert (reply["next"]["dealer"], reply["next"]["dealer_name"]) == (dealer.label, dealer.name)
    keys = {uuid.UUID(reply["next"]["entry_key"]), uuid.UUID(reply["undo"]["entry_key"])}
    assert len(keys) == 2
    assert reply["undo"]["number"] == 1
    assert reply["undo"]["fix_url"] == reverse(
        "scoring:hand_correct", kwargs={"pk": game.pk, "number": 1}
    )
    update = reply["offline_update"]
    assert (update["game"], update["count"], update["status"]) == (game.pk, 1, "in_progress")
    assert update["hands"] == [{"number": 1, "facts": game.hands.get().facts, "revision": 0}]
    # Its next hand is recorded with the keys it sent.
    data = hand_post(game, 2, uuid.UUID(reply["next"]["entry_key"]), **taps_for(game, "A", 2))
    assert client.post(record_url(game), data, **DRAWN).json()["hand"] == 2


def test_the_hand_that_wins_is_answered_with_the_rendered_reply_even_when_asked_for_data(client):
    """The winner's banner and the game's actions come from the server's page: the winning
    hand's reply is rendered, whatever the page asked for."""
    game = GameFactory()
    open_link(client, game)
    for number in range(1, 30):
        response = client.post(
            record_url(game), hand_post(game, **taps_for(game, "A", number)), **DRAWN
        )
        game.refresh_from_db()
        if game.status == GameStatus.WON:
            break
        assert response.json()["hand"] == number
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert 'id="winner-banner"' in body and 'id="game-actions"' in body


def _page_version(client, game: Game) -> str:
    """The version of the game its page shows (its ``#offline-state``), as the phone sends it."""
    page = client.get(game.get_absolute_url()).content.decode()
    return re.search(r'"version":\s*(\d+)', page).group(1)


@pytest.mark.parametrize("action", ["record", "undo"])
def test_a_page_that_missed_another_phones_correction_is_sent_the_whole_game(client, action):
    """Another phone corrected hand 1 after this page was shown: a hand recorded (or undone)
    from it is answered with the whole game, hand 1 as corrected, not only what this hand
    changed (the page kept the old hand 1, and its version moved past the correction); a page
    that missed nothing gets the light reply."""
    from scoring import services

    game = GameFactory(overrides={"target": 500})
    open_link(client, game)
    for number in (1, 2):
        client.post(record_url(game), hand_post(game, **taps_for(game, "A", number)), **DRAWN)
    game.refresh_from_db()
    shown = _page_version(client, game)
    hand = game.hands.get(number=1)
    corrected = {**hand.facts, "game": "B"}
    services.hand_correct(game=game.pk, number=1, facts=corrected, entry_key=uuid.uuid4())
    game.refresh_from_db()
    stale = {**DRAWN, "HTTP_X_GAME_VERSION": shown}
    if action == "record":
        data = hand_post(game, **taps_for(game, "A", 3))
        response = client.post(record_url(game), data, **stale)
    else:
        undo = {"expected_number": "2", "entry_key": str(uuid.uuid4())}
        response = client.post(reverse("scoring:hand_undo", kwargs={"pk": game.pk}), undo, **stale)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#game" and response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert 'id="sheet-rows"' in body and 'id="offline-state"' in body
    row = re.search(r'<tr id="hand-1".*?</tr>', body, re.S).group(0)
    assert "Patel &amp; Brown game" in row
    # Shown as it is now, the next hand gets the light reply.
    game.refresh_from_db()
    current = {**DRAWN, "HTTP_X_GAME_VERSION": _page_version(client, game)}
    data = hand_post(game, **taps_for(game, "A", game.hands.count() + 1))
    assert client.post(record_url(game), data, **current)["Content-Type"] == "application/json"


@pytest.mark.parametrize("number", ["abc", "0", "9" * 19, "9" * 23])
def test_a_hand_form_with_a_garbled_hand_number_says_it_is_incomplete(client, number):
    """A hand whose hidden number is garbled, or longer than a page accepts an id, is refused
    with a message naming what to do, and nothing is recorded."""
    game = GameFactory()
    open_link(client, game)
    data = hand_post(game, 1, **taps_for(game, "A", 1)) | {"expected_number": number}
    response = client.post(record_url(game), data, **HTMX)
    assert response.status_code == 422
    assert "This form is incomplete: reload the page" in response.content.decode()
    assert game.hands.count() == 0
