"""``manage.py replay`` scores a replay file (docs/rules.md section 7) or refuses it: exit 2."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = Path(__file__).resolve().parent / "rules" / "replays"
VALID = ["trinidad_game", "seven_up_three_handed"]

TAKE_ONE = "hand 3: take one not allowed: it would give A the target (13 + 1 = 14)"

# id, file text, the stderr line (or a fragment of it)
INVALID = [
    ("malformed JSON", '{"ruleset": "trinidad", ', "the file is not valid JSON"),
    ("not an object", "[1, 2]", "a replay file is a JSON object"),
    (
        "unknown preset",
        '{"ruleset": "bridge", "sides": ["A", "B"], "hands": []}',
        "unknown ruleset 'bridge'",
    ),
    (
        "unknown ruleset option",
        '{"ruleset": {"preset": "trinidad", "trump": "H"}, "sides": ["A", "B"], "hands": []}',
        "unknown ruleset option 'trump'",
    ),
    (
        "unknown key in the file",
        '{"ruleset": "trinidad", "sides": ["A", "B"], "hands": [], "venue": "Red Lion"}',
        "unknown key 'venue' in the file",
    ),
    (
        "unknown key in a hand",
        '{"ruleset": "trinidad", "sides": ["A", "B"], "hands": [{"dealer": "A", "turn_ups": ["4H"],'
        ' "high": null, "low": null, "game": "tie", "points": 3}]}',
        "hand 1: unknown fact 'points'",
    ),
    (
        "wrong type",
        '{"ruleset": "trinidad", "sides": "AB", "hands": []}',
        "sides must be a list of side labels",
    ),
    ("missing hands", '{"ruleset": "trinidad", "sides": ["A", "B"]}', "the file has no 'hands'"),
    ("invalid hand", (REPLAYS / "invalid_take_one.json").read_text(), TAKE_ONE),
]


def expected(name: str) -> object:
    return json.loads((REPLAYS / f"{name}.expected.json").read_text())


# --- through call_command -------------------------------------------------------------------


@pytest.mark.parametrize("name", VALID)
def test_replay_prints_the_result(name: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(REPLAYS / f"{name}.json"), stdout=out, stderr=err)
    assert json.loads(out.getvalue()) == expected(name)
    assert err.getvalue() == ""


def test_replay_result_of_the_trinidad_game() -> None:
    """The sample game: A wins 14-9 on low in hand 5; later awards are not counted."""
    result = expected("trinidad_game")
    assert isinstance(result, dict)
    assert result["scores"] == {"A": 14, "B": 9}
    assert result["winner"] == "A"
    assert result["decided_by"] == {"hand": 5, "category": "low"}
    last = result["hands"][-1]["awards"]
    assert [(a["category"], a["counted"]) for a in last] == [
        ("high", True),
        ("low", True),
        ("jack", False),
        ("game", False),
    ]


def test_replay_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPLAYS / "seven_up_three_handed.json").read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    out = io.StringIO()
    call_command("replay", "-", stdout=out, stderr=io.StringIO())
    assert json.loads(out.getvalue()) == expected("seven_up_three_handed")


@pytest.mark.parametrize(
    ("text", "message"), [row[1:] for row in INVALID], ids=[row[0] for row in INVALID]
)
def test_replay_refuses_an_invalid_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("replay", str(path), stdout=out, stderr=err)
    assert caught.value.code == 2
    assert out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    assert message in lines[0]
    assert not lines[0].startswith("CommandError")


def test_replay_refuses_a_missing_file(tmp_path: Path) -> None:
    err = io.StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("replay", str(tmp_path / "nope.json"), stdout=io.StringIO(), stderr=err)
    assert caught.value.code == 2
    assert err.getvalue().startswith("cannot read ")


# --- as a subprocess ------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_subprocess_valid_file() -> None:
    done = run(str(REPLAYS / "trinidad_game.json"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected("trinidad_game")
    assert done.stderr == ""


def test_subprocess_standard_input() -> None:
    done = run("-", stdin=(REPLAYS / "trinidad_game.json").read_text())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected("trinidad_game")


def test_subprocess_invalid_file_on_stdin() -> None:
    """A refused file exits 2 with one line on standard error (every refusal's wording is
    checked in-process above)."""
    text, message = next(row[1:] for row in INVALID if row[0] == "unknown key in a hand")
    done = run("-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert message in done.stderr


def test_subprocess_invalid_hand_names_the_hand_and_the_fact() -> None:
    done = run(str(REPLAYS / "invalid_take_one.json"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == TAKE_ONE + "\n"


# --- files that break the JSON reader itself ------------------------------------------------

HUGE_NUMBER = (
    '{"ruleset": {"preset": "trinidad", "target": '
    + "9" * 5000
    + '}, "sides": ["A", "B"], "hands": []}'
)
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("text", "message"),
    [(HUGE_NUMBER, "the file is not valid JSON"), (DEEP, "nested too deeply")],
    ids=["a 5,000-digit number", "100,000 nested arrays"],
)
def test_refuses_json_the_parser_cannot_take(
    monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    """A number too long for Python or nesting too deep exits 2 with one line, not a traceback."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("replay", "-", stdout=out, stderr=err)
    assert caught.value.code == 2
    assert out.getvalue() == ""
    assert err.getvalue().count("\n") == 1
    assert message in err.getvalue()


def test_subprocess_refuses_standard_input_that_is_not_utf8() -> None:
    """A stray byte on standard input is named in one line whatever the terminal's encoding."""
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", "-"],
        cwd=ROOT,
        input=b'{"ruleset": "\xff"}',
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert done.stderr.decode().count("\n") == 1
    assert "not UTF-8" in done.stderr.decode()


def test_replay_accepts_a_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    """A replay file saved by Windows Notepad (UTF-8 with BOM) is read like any other."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + (REPLAYS / "trinidad_game.json").read_bytes())
    out = io.StringIO()
    call_command("replay", str(path), stdout=out, stderr=io.StringIO())
    assert json.loads(out.getvalue()) == expected("trinidad_game")
