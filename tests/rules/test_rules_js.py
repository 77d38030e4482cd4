"""The browser-side rules (static/scoring/rules, JavaScript) agree with scoring/rules (Python).

Every replay file in tests/rules/replays and well over 1,000 generated games per run (every
preset, every option, valid and refused hands, broken JSON) go through both: the JavaScript in
one node process (tests/rules/replay_batch.mjs), Python through what ``manage.py replay`` prints.
Any difference fails and prints the game.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rules_strategies import game_setups, hands, kick_wins

from scoring.management.commands.replay import error_line, replay_output
from scoring.rules import OPTIONS, PRESETS, InvalidFacts, score_game
from scoring.rules.export import GENERATED, render

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = Path(__file__).resolve().parent / "replays"
BATCH = Path(__file__).resolve().parent / "replay_batch.mjs"
CLI = ROOT / "static" / "scoring" / "replay.mjs"
NODE = shutil.which("node")  # `make test` installs Debian's nodejs when it is missing
EXAMPLES = 420  # each gives three games: as drawn, with one thing wrong, cut short


Outcome = tuple[int, str, str]


def python_outcome(text: str) -> Outcome:
    """(exit status, standard output, standard error) of ``manage.py replay`` for ``text``."""
    try:
        return 0, replay_output(text) + "\n", ""
    except InvalidFacts as exc:
        return 2, "", error_line(exc) + "\n"


def node_outcomes(texts: list[str]) -> list[Outcome]:
    assert NODE is not None, "node (Node.js 20 or later) is needed: apt-get install nodejs"
    done = subprocess.run(
        [NODE, str(BATCH)],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [(r["status"], r["stdout"], r["stderr"]) for r in json.loads(done.stdout)]


def assert_agree(texts: list[str]) -> None:
    disagreements = []
    for text, js in zip(texts, node_outcomes(texts), strict=True):
        py = python_outcome(text)
        if js != py:
            disagreements.append(f"game: {text}\n python: {py!r}\n node:   {js!r}")
    assert not disagreements, f"{len(disagreements)} of {len(texts)} disagree:\n\n" + "\n\n".join(
        disagreements[:5]
    )


# --- generated games ------------------------------------------------------------------------

JUNK: list[Any] = [
    None, "", "Z", "tie", "A", "B", 0, 1, -1, 2, 1.0, 1.5, -0.0, 1e16, math.inf, math.nan, True,
    False, [], ["JH"], ["XX"], ["JH", "JH"], ["4H", "9S"], {}, {"held_by": "A"}, {"won_by": "A"},
    {"A": 41, "B": 40}, {"A": -1, "B": 3}, "JH", "10S", "stand", "take_one", "run", "misdeal",
    "bunch", "pack_exhausted", "played", [{"kind": "renege"}], [{"kind": "points", "to": "A"}],
    [{"kind": "misdeal", "side": "B"}], [{"card": "5H", "side": "A"}], "  A ", "ß", "é\n\x00'\"",
    2**60, 2**70,
]  # fmt: skip
HAND_FACTS = ["dealer", "turn_ups", "beg", "outcome", "high", "low", "jack", "game", "penalties",
              "captures", "points"]  # fmt: skip
EXTRA_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "low": st.sampled_from(["held", "captured"]),
        "kick_values": st.dictionaries(
            st.sampled_from(["A", "K", "Q", "J", "10", "T", "6", "2"]), st.integers(0, 4)
        ),
        "renege_points": st.integers(0, 3),
        "under_trump_points": st.integers(0, 3),
        "misdeal_points": st.integers(0, 2),
        "early_look_points": st.integers(0, 4),
        "capture_values": st.dictionaries(
            st.sampled_from(["10", "5", "A", "K", "Q", "J", "9"]), st.integers(0, 10), min_size=1
        ),
    },
)
BAD_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "target": st.sampled_from([0, 1.5, True, "11", None, 2**70]),
        "players": st.sampled_from([0, 3, True, "2", 1.0]),
        "kick_values": st.sampled_from([[], {"X": 1}, {"J": -1}, {"J": 1.5}, "J"]),
        "kicks_on": st.sampled_from(["some", 1, None]),
        "gift_ends_hand": st.sampled_from([1, "yes", None]),
        "hang_jack_points": st.sampled_from([0, "3", 1.5]),
    },
)


def _mutate(rng: random.Random, game: dict[str, Any]) -> None:
    """Make one thing wrong (or odd) in a game: a fact, a key, the ruleset, the sides, scores."""
    where = rng.randrange(10)
    if where < 7 and game["hands"]:
        hand = rng.choice(game["hands"])
        key = rng.choice(HAND_FACTS)
        if rng.random() < 0.2 and key in hand:
            del hand[key]
        else:
            hand[key] = rng.choice(JUNK)
    elif where == 7:
        game["sides"] = rng.choice([["A"], ["A", "A"], ["A", "tie"], ["A", " "], "AB", None,
                                    list("ABCDEF"), ["2", "1"], [1, 2]])  # fmt: skip
    elif where == 8:
        game["scores"] = rng.choice([{"A": 99}, {"Z": 1}, {"A": -1}, {"A": 1.0}, [], None, {}])
    else:
        game[rng.choice(["venue", "ruleset"])] = rng.choice(JUNK)


def _as_text(rng: random.Random, game: dict[str, Any]) -> str:
    text = json.dumps(game, indent=rng.choice([None, None, 2]), ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.08:
        # Broken JSON: the reader's own refusals (line and column).
        cut = rng.randrange(len(text))
        text = rng.choice([text[:cut], text[:cut] + text[cut + 1 :], text[:cut] + "}" + text[cut:]])
    return text


def generate_games(count: int) -> tuple[list[str], set[str]]:
    """Three games per example, and the presets and options the valid ones covered."""
    texts: list[str] = []
    covered: set[str] = set()
    rng = random.Random()

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one(data: st.DataObject) -> None:
        ruleset, sides, start = data.draw(game_setups())
        extra = data.draw(EXTRA_OPTIONS)
        if extra:
            ruleset = ruleset.with_options(**extra)
        recorded: list[Any] = []
        for _ in range(data.draw(st.integers(0, 8))):
            so_far = score_game(ruleset=ruleset, sides=sides, hands=recorded, scores=start)
            if so_far.winner is not None:
                break
            recorded.append(data.draw(hands(ruleset, sides, so_far.scores)))
        spec: Any = ruleset.to_spec()
        if len(spec) == 1 and data.draw(st.booleans()):
            spec = spec["preset"]
        game: dict[str, Any] = {"ruleset": spec, "sides": list(sides), "hands": recorded}
        if any(start.values()) or data.draw(st.booleans()):
            game["scores"] = start
        if ruleset.with_options(players=ruleset.players) != PRESETS[ruleset.name].with_options(
            players=ruleset.players
        ):
            covered.add("players")
        covered.update([ruleset.name, *spec] if isinstance(spec, dict) else [spec])
        texts.append(_as_text(rng, game))
        wrong = json.loads(json.dumps(game))
        if isinstance(spec, dict) and data.draw(st.integers(0, 5)) == 0:
            wrong["ruleset"].update(data.draw(BAD_OPTIONS))
        else:
            _mutate(rng, wrong)
        texts.append(_as_text(rng, wrong))
        texts.append(_as_text(rng, {**game, "hands": recorded[: rng.randrange(len(recorded) + 1)]}))

    one()
    return texts, covered


def test_generated_games_agree() -> None:
    texts, covered = generate_games(EXAMPLES)
    assert len(texts) >= 1000
    wanted = {*PRESETS, *OPTIONS}
    assert covered >= wanted, f"not covered: {wanted - covered}"
    outcomes = [python_outcome(text) for text in texts]
    # The run covers both sides of the contract: scored games and refused ones.
    assert sum(1 for status, *_ in outcomes if status == 0) > 300
    assert sum(1 for status, *_ in outcomes if status == 2) > 150
    assert_agree(texts)


def test_games_won_by_a_kick_agree() -> None:
    """A hand whose kicks reach the target, with its play facts, without some or all of them,
    and with one thing wrong: the phone's rules accept and refuse as the server's do."""
    valid: list[str] = []
    wrong: list[str] = []
    rng = random.Random()

    @settings(
        max_examples=150,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(kick_wins())
    def one(drawn: Any) -> None:
        ruleset, sides, start, whole, cut = drawn
        for hand in (whole, cut):
            game = {"ruleset": ruleset.to_spec(), "sides": list(sides), "scores": start}
            valid.append(json.dumps({**game, "hands": [hand]}))
            mutated = json.loads(valid[-1])
            _mutate(rng, mutated)
            wrong.append(json.dumps(mutated))

    one()
    # Every hand won by its kicks is scored, with or without its play facts.
    assert [python_outcome(text)[0] for text in valid] == [0] * len(valid)
    assert_agree(valid + wrong)


def test_replay_files_agree() -> None:
    texts = [path.read_text(encoding="utf-8") for path in sorted(REPLAYS.glob("*.json"))]
    assert_agree(texts)


# --- the command line ------------------------------------------------------------------------

ODD_FILES: list[tuple[str, bytes]] = [
    ("byte-order mark", b"\xef\xbb\xbf" + (REPLAYS / "trinidad_game.json").read_bytes()),
    ("Windows line ends", (REPLAYS / "trinidad_game.json").read_bytes().replace(b"\n", b"\r\n")),
    ("not UTF-8", b'{"ruleset": "\xff"}'),
    ("cut UTF-8", b'{"ruleset": "\xe2\x82'),
    ("bad continuation", b'{"ruleset": "\xe2\x82("}'),
    ("broken JSON on line 3", b'{\n  "ruleset": "trinidad",\n  "sides": [A]\n}'),
    ("huge number", b'{"ruleset": {"preset": "trinidad", "target": ' + b"9" * 5000 + b"}}"),
    ("deep nesting", b"[" * 5000 + b"]" * 5000),
    ("empty", b""),
]


def _python_command(path: str, stdin: bytes | None = None) -> Outcome:
    import io
    import sys

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        call_command("replay", path, stdout=out, stderr=err)
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def _node_command(path: str, stdin: bytes | None = None) -> Outcome:
    assert NODE is not None, "node (Node.js 20 or later) is needed: apt-get install nodejs"
    done = subprocess.run(
        [NODE, str(CLI), path], input=stdin or b"", capture_output=True, timeout=60, check=False
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.parametrize(("content"), [row[1] for row in ODD_FILES], ids=[r[0] for r in ODD_FILES])
def test_command_line_matches_manage_py_replay(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert _node_command(str(path)) == _python_command(str(path))
    assert _node_command("-", content) == _python_command("-", content)


def test_command_line_on_a_missing_file(tmp_path: Path) -> None:
    for path in (str(tmp_path / "nope.json"), str(tmp_path)):
        assert _node_command(path) == _python_command(path)


@pytest.mark.parametrize("name", ["trinidad_game", "seven_up_three_handed", "invalid_take_one"])
def test_command_line_on_the_replay_files(name: str) -> None:
    path = str(REPLAYS / f"{name}.json")
    assert _node_command(path) == _python_command(path)


def test_generated_rules_data_is_up_to_date() -> None:
    """The presets reach the browser only through generated.mjs, written from presets.py."""
    assert GENERATED.read_text(encoding="utf-8") == render(), (
        "static/scoring/rules/generated.mjs is out of date: run manage.py export_rules"
    )
