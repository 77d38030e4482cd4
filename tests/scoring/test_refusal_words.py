"""Every refusal the hand form (and the correction form) can provoke reads in the page's words,
on the server and in the browser alike.

The engine's messages are the replay contract's text ("jack must be null", "pack_exhausted needs
beg run (got stand)"); the page shows them through one table (scoring/forms/words.py REFUSALS),
which the browser reads from static/scoring/offline/words.mjs. Each refusal below is a real one,
made by the engine (or, for a correction, by the service), with the page's words it must give.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from scoring import services
from scoring.forms.export import GENERATED, render
from scoring.forms.words import plain_message
from scoring.rules import PRESETS, InvalidFacts, ruleset_from_spec, score_game
from scoring.rules.ruleset import Ruleset
from tests.factories.scoring import GameFactory, record_hands

BATCH = Path(__file__).resolve().parent / "refusal_batch.mjs"
NODE = shutil.which("node")  # `make test` installs Debian's nodejs when it is missing
NAMES = {"A": "Smith & Jones", "B": "Patel & Brown"}
SMITHS, PATELS = NAMES["A"], NAMES["B"]

PLAYED = {"dealer": "A", "turn_ups": ["4H"], "high": "A", "low": "B", "jack": None, "game": "A"}
FIVES = {"dealer": "A", "turn_ups": ["4H"]}
RUN, PACK_OUT = "“Beg → run the pack”", "“Pack ran out (redeal)”"


def hand(base: dict[str, Any] = PLAYED, **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def called(kind: str, side: str = "B") -> list[dict[str, str]]:
    return [{"kind": kind, "side": side}]


# id, ruleset, hands, start scores, words the scorer reads
CASES: list[tuple[str, str | Ruleset, list[dict[str, Any]], dict[str, int] | None, str]] = [
    (
        "jack turned up and in play",
        "trinidad",
        [hand(turn_ups=["JH"], jack={"held_by": "A", "won_by": "A"})],
        None,
        "J♥ was turned up, so the jack of trumps was not in play: tap “Not out”.",
    ),
    (
        "jack in play with no trump in play",
        "trinidad",
        [hand(high=None, low=None, jack={"held_by": "A", "won_by": "B"})],
        None,
        "High is “No trump in play”, so the jack of trumps was not in play either: tap "
        "“Not out”, or tap who held high.",
    ),
    (
        "low without high",
        "trinidad",
        [hand(high=None, low="B")],
        None,
        f"Low is {PATELS} but high is “No trump in play”: tap who held high",
    ),
    (
        "high without low",
        "trinidad",
        [hand(low=None)],
        None,
        f"High is {SMITHS}, so a trump was in play: tap a side for low too",
    ),
    (
        "stand with two cards",
        "trinidad",
        [hand(turn_ups=["4H", "9S"], beg="stand")],
        None,
        f"With “Stand” only one card is turned up, not 2 (4♥, 9♠): tap {RUN} if the pack was run",
    ),
    (
        "take one with two cards",
        "trinidad",
        [hand(turn_ups=["4H", "9S"], beg="take_one")],
        None,
        "With “Beg → take one” only one card is turned up, not 2 (4♥, 9♠)",
    ),
    (
        "pack ran out after a take one",
        "trinidad",
        [{"dealer": "A", "turn_ups": ["4H"], "beg": "take_one", "outcome": "pack_exhausted"}],
        None,
        f"{PACK_OUT} needs {RUN}: the pack runs out only when it is run.",
    ),
    (
        "pack ran out after a stand",
        "trinidad",
        [{"dealer": "A", "turn_ups": ["4H"], "beg": "stand", "outcome": "pack_exhausted"}],
        None,
        f"{PACK_OUT} needs {RUN}, not “Stand”: the pack runs out only when it is run.",
    ),
    (
        "run with one card",
        "trinidad",
        [hand(beg="run")],
        None,
        f"{RUN} turns up at least two cards, not 1 (4♥)",
    ),
    (
        "more turn-ups than the pack allows",
        "trinidad",
        [hand(beg="run", turn_ups=["4H", "9H", "2H", "KS"])],
        None,
        "4 cards turned up (4♥, 9♥, 2♥, K♠), but with 4 players the pack allows at most 3",
    ),
    (
        "pack ran out with a new suit",
        "trinidad",
        [{"dealer": "A", "turn_ups": ["4H", "9S"], "beg": "run", "outcome": "pack_exhausted"}],
        None,
        "every card turned up is of the first suit, hearts, but 9♠ is not (4♥, 9♠)",
    ),
    (
        "pack ran out too soon",
        "trinidad",
        [{"dealer": "A", "turn_ups": ["4H", "9H"], "beg": "run", "outcome": "pack_exhausted"}],
        None,
        "The pack runs out after 3 cards turned up with 4 players, not 2 (4♥, 9♥)",
    ),
    (
        "a new suit before the last card",
        "trinidad",
        [hand(beg="run", turn_ups=["4H", "9S", "2H"])],
        None,
        "so 9♠ (a new suit) must be the last card turned up (4♥, 9♠, 2♥).",
    ),
    (
        "a run that found no new suit",
        "trinidad",
        [hand(beg="run", turn_ups=["4H", "9H"])],
        None,
        f"not hearts, the suit begged (4♥, 9♥); if the pack ran out, tap {PACK_OUT}.",
    ),
    (
        "a card turned up twice",
        "trinidad",
        [hand(turn_ups=["4H", "4H"], beg="run")],
        None,
        "4♥ is turned up twice.",
    ),
    (
        "a typed turn-up that is not a card",
        "trinidad",
        [hand(turn_ups=["XX"])],
        None,
        "“XX” is not a card: write the rank, then the suit",
    ),
    (
        "a renege in a misdeal",
        "trinidad",
        [{"dealer": "A", "outcome": "misdeal", "penalties": called("renege")}],
        None,
        "“Renege” needs a hand that was played, and “Misdeal” has no play",
    ),
    (
        "a renege holding a top trump in a misdeal",
        "trinidad",
        [{"dealer": "A", "outcome": "misdeal", "penalties": called("renege_top_trump")}],
        None,
        "“Renege holding a top trump” needs a hand that was played",
    ),
    (
        "an under-trump in a bunch",
        "trinidad",
        [
            {
                "dealer": "A",
                "turn_ups": ["4H"],
                "outcome": "bunch",
                "penalties": called("under_trump"),
            }
        ],
        None,
        "“Under-trump” needs a hand that was played, and “Bunch (redeal)” has no play",
    ),
    (
        "a renege when the pack ran out",
        "trinidad",
        [
            {
                "dealer": "A",
                "turn_ups": ["4H", "9H", "2H"],
                "beg": "run",
                "outcome": "pack_exhausted",
                "penalties": called("renege"),
            }
        ],
        None,
        f"“Renege” needs a hand that was played, and {PACK_OUT} has no play",
    ),
    (
        "a renege after a take one that ends the hand",
        "original",
        [{"dealer": "A", "turn_ups": ["4H"], "beg": "take_one", "penalties": called("renege")}],
        None,
        "and in this game “Beg → take one” ends the hand (the same dealer deals again)",
    ),
    (
        "an early look in a misdeal",
        "west_yorkshire",
        [{"dealer": "A", "outcome": "misdeal", "penalties": called("early_look")}],
        None,
        "“Early look” needs a hand that was played",
    ),
    (
        "card points over 80",
        "trinidad",
        [hand(game={"A": 50, "B": 40})],
        None,
        "The card points add up to 90, more than the 80 in the pack.",
    ),
    (
        "card points below 0 (typed on the phone)",
        "trinidad",
        [hand(game={"A": -1, "B": 40})],
        None,
        f"{SMITHS}' card points must be a whole number of 0 or more, not -1.",
    ),
    (
        "take one giving the target",
        "trinidad",
        [hand(beg="take_one")],
        {"A": 0, "B": 13},
        f"“Beg → take one” is not allowed: it would give {PATELS} the target (13 + 1 = 14).",
    ),
    (
        "a hand after the game was won",
        "trinidad",
        [hand(), hand()],
        {"A": 13, "B": 0},
        f"{SMITHS} already won the game in hand 1; no hand can follow.",
    ),
    (
        "a capture by no side",
        "all_fives",
        [hand(FIVES, captures=[{"card": "10H", "side": "C"}])],
        None,
        f"Capture 1: “C” is not a side in this game (write A for {SMITHS}, B for {PATELS}).",
    ),
    (
        "a capture of no trump",
        "all_fives",
        [hand(FIVES, captures=[{"card": "10S", "side": "A"}])],
        None,
        "10♠ is not a trump (trumps are hearts), so it does not score.",
    ),
    (
        "a capture of a turned-up card",
        "all_fives",
        [hand(FIVES, turn_ups=["JH"], captures=[{"card": "JH", "side": "A"}])],
        None,
        "J♥ was turned up, so it is not in play and cannot be captured.",
    ),
    (
        "a card captured twice",
        "all_fives",
        [hand(FIVES, captures=[{"card": "10H", "side": "A"}, {"card": "10H", "side": "B"}])],
        None,
        "10♥ is captured twice.",
    ),
    (
        "a capture that does not score",
        "all_fives",
        [hand(FIVES, captures=[{"card": "3H", "side": "A"}])],
        None,
        "3♥ does not score when captured",
    ),
    (
        "a beg where there is no begging",
        dataclasses.replace(PRESETS["trinidad"], begging=False),
        [hand(beg="run", turn_ups=["4H", "9S"])],
        None,
        f"This game has no begging, so {RUN} cannot be recorded.",
    ),
]


#: Refusals the form cannot provoke (its buttons never send these facts), worded by the table's
#: swaps: still no engine word, and the same in the browser.
UNREACHABLE: list[tuple[str, list[dict[str, Any]]]] = [
    ("a misdeal penalty in a played hand", [hand(penalties=called("misdeal", "A"))]),
    ("a turn-up in a misdeal", [{"dealer": "A", "outcome": "misdeal", "turn_ups": ["4H"]}]),
    ("a jack that is not a side", [hand(jack=5)]),
]


def refusal(ruleset: str | Ruleset, hands: list[dict[str, Any]], scores: Any) -> InvalidFacts:
    rules = ruleset if isinstance(ruleset, Ruleset) else ruleset_from_spec(ruleset)
    with pytest.raises(InvalidFacts) as refused:
        score_game(ruleset=rules, sides=("A", "B"), hands=hands, scores=scores)
    return refused.value


def assert_plain(words: str) -> None:
    """No engine word: no null, no replay key, no engine repr, no side label for a name (but "A"
    opening a sentence, the ranks, and the labels a scorer types for the sides: "A for …")."""
    assert "null" not in words and "_" not in words and "(got" not in words, words
    ranks = re.sub(r"\(scoring trumps: [^)]*\)", "", words.replace("ranks A K", ""))
    assert not re.search(r"(?<!^)\b[AB]\b(?! for )", ranks), words


def assert_cards_as_shown(words: str) -> None:
    """A card as the page writes it, "J♣", never the replay format's "JC" (but in how to type
    one: "e.g. JH, 10S")."""
    assert not re.search(r"\b(10|[2-9AKQJ])[CDHS]\b", words.split("(e.g.")[0]), words


@pytest.mark.parametrize(
    ("ruleset", "hands", "scores", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_refusal_reads_in_the_pages_words(
    ruleset: str | Ruleset, hands: list[dict[str, Any]], scores: Any, expected: str
) -> None:
    exc = refusal(ruleset, hands, scores)
    words = plain_message(exc.message, exc.fact, NAMES)
    assert expected in words
    assert_plain(words)
    assert_cards_as_shown(words)


@pytest.mark.django_db
def test_a_refused_correction_reads_in_the_pages_words() -> None:
    """The service wraps the engine's refusal of a later hand: both parts read as the page's."""
    exc = _refused_correction()
    words = plain_message(exc.message, exc.fact, NAMES)
    assert words == (
        f"With this correction, hand 2 is refused: {SMITHS} already won the game in hand 1; "
        "no hand can follow. Undo the hands after hand 1 first if this correction is right."
    )
    assert_plain(words)


@pytest.mark.django_db
def test_the_browser_shows_the_same_words_for_every_refusal() -> None:
    assert NODE is not None, "node (Node.js 20 or later) is needed: apt-get install nodejs"
    refusals = [refusal(*case[1:4]) for case in CASES] + [_refused_correction()]
    refusals += [refusal("trinidad", hands, None) for _, hands in UNREACHABLE]
    cases = [[exc.message, exc.fact, NAMES] for exc in refusals]
    done = subprocess.run(
        [NODE, str(BATCH)], input=json.dumps(cases), capture_output=True, text=True, check=True
    )
    browser = json.loads(done.stdout)
    server = [plain_message(exc.message, exc.fact, NAMES) for exc in refusals]
    assert browser == server
    for words in server:
        assert_plain(words)


@pytest.mark.django_db
def test_the_hand_form_shows_a_refusal_by_its_fact_in_the_pages_words(client: Any) -> None:
    """Through the hand form: the outcome's refusal sits by the outcome, in the buttons' words;
    a take one that would give the target names the side."""
    game = GameFactory(start_scores={"B": 13})
    client.get(game.scoring_link.get_absolute_url())
    form = {"entry_key": str(uuid.uuid4()), "expected_number": "1", "dealer": "A",
            "turn_ups": "4H", "high": "A", "low": "B", "jack": "none", "game": "A"}  # fmt: skip
    for changes, fact, words in [
        (
            {"beg": "stand", "outcome": "pack_exhausted"},
            "outcome",
            f"{PACK_OUT} needs {RUN}, not “Stand”",
        ),
        (
            {"beg": "take_one", "outcome": "played"},
            "beg",
            f"“Beg → take one” is not allowed: it would give {PATELS} the target",
        ),
        (
            {"turn_ups": "JC", "jack": "A-A", "beg": "stand", "outcome": "played"},
            "jack",
            "J♣ was turned up, so the jack of trumps was not in play: tap “Not out”.",
        ),
    ]:
        url = reverse("scoring:hand_record", kwargs={"pk": game.pk})
        refused = client.post(url, {**form, **changes})
        assert refused.status_code == 422
        errors = re.search(rf'id="errors-{fact}".*?</ul>', refused.content.decode(), re.S)
        assert errors is not None
        shown = errors.group(0).replace("&amp;", "&").replace("&#x27;", "'")
        assert words in shown
        assert "null" not in shown and "_" not in shown


def test_the_words_module_is_up_to_date() -> None:
    """The browser reads the page's words only from words.mjs, written from words.py."""
    assert GENERATED.read_text(encoding="utf-8") == render(), (
        "static/scoring/offline/words.mjs is out of date: run manage.py export_rules"
    )


def _refused_correction() -> InvalidFacts:
    """A correction that would win the game before a hand that follows it (the service's
    refusal wraps the engine's)."""
    game = GameFactory(start_scores={"A": 13})
    lost = hand(high="B", low="B", game="B")
    record_hands(game, [lost, hand(lost, dealer="B")])
    with pytest.raises(InvalidFacts) as refused:
        services.hand_correct(game=game, number=1, facts=PLAYED, entry_key=uuid.uuid4())
    return refused.value


@pytest.mark.parametrize(
    ("items", "words"),
    [([], ""), (["1"], "1"), (["1", "2"], "1 and 2"), (["1", "2", "3"], "1, 2 and 3")],
)
def test_items_in_a_sentence(items, words):
    """ "Tables 1, 2 and 3 abandoned", not "Tables 1 and 2 and 3"."""
    from scoring.sheet import join_words

    assert join_words(items) == words
