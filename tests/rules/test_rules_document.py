"""docs/rules.md is the rules' one description: its replay example scores to the output it
shows, and nothing in the repository points outside it for the rules."""

from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path

from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"


def _section_7_blocks() -> list[str]:
    text = DOC.read_text()
    section = text[text.index("## 7. The replay file") :]
    return re.findall(r"```json\n(.*?)\n```", section, flags=re.DOTALL)


def test_the_documented_example_replays_to_the_documented_output(tmp_path: Path) -> None:
    example, expected = _section_7_blocks()
    path = tmp_path / "example.json"
    path.write_text(example)
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(path), stdout=out, stderr=err)
    assert err.getvalue() == ""
    assert json.loads(out.getvalue()) == json.loads(expected)


def test_the_example_turns_up_the_jack_and_so_records_no_jack_in_play() -> None:
    """The case the example is there to show: a turned-up jack belongs to no hand."""
    example = json.loads(_section_7_blocks()[0])
    first = example["hands"][0]
    assert first["turn_ups"] == ["JH"] and first["jack"] is None


def test_nothing_in_the_repository_points_outside_it_for_the_rules() -> None:
    """The README, docstrings and comments cite docs/rules.md, never a file beside the repo."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    outside = re.compile(r"\.\./shared|/work/|RULES\.md")
    offenders = [
        f"{name}:{number}"
        for name in tracked
        if name != "tests/rules/test_rules_document.py"
        and (ROOT / name).is_file()
        and name.endswith((".py", ".md", ".html", ".toml", ".js", ".mjs", ".txt", "Makefile"))
        for number, line in enumerate((ROOT / name).read_text().splitlines(), start=1)
        if outside.search(line)
    ]
    assert offenders == []
