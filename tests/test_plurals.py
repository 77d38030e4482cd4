"""A plural is said one way: Django's ``pluralize``, in the templates and in the Python."""

import re
import subprocess
from pathlib import Path

from django.conf import settings
from django.template.defaultfilters import pluralize

ROOT = Path(settings.BASE_DIR)
#: An "s" written by hand: ``{'s' if n != 1 else ''}``, ``{'' if n == 1 else 's'}``,
#: ``{% if n != 1 %}s{% endif %}``.
BY_HAND = re.compile(
    r"""\{\s*(['"])s\1 if [^{}]+ else (['"])\2\s*\}"""
    r"""|\{\s*(['"])\3 if [^{}]+ else (['"])s\4\s*\}"""
    r"""|\{%\s*if [^%]+%\}s\{%\s*endif\s*%\}"""
)
#: The pure modules import no Django: the cup draw counts its groups itself.
PURE = {"cups/draw.py"}


def test_no_plural_is_written_by_hand() -> None:
    """Messages, audit entries and pages said "1 table" / "2 tables" three ways by hand
    (``!= 1``, ``== 1``, ``> 1``): they all say it with ``pluralize``."""
    tracked = subprocess.run(
        ["git", "ls-files", "*.py", "*.html", "*.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    found = [
        f"{name}:{number}"
        for name in tracked
        if not name.startswith("tests/") and name not in PURE and (ROOT / name).is_file()
        for number, line in enumerate((ROOT / name).read_text().splitlines(), start=1)
        if BY_HAND.search(line)
    ]
    assert found == []


def test_pluralize_says_what_the_hand_written_ones_did() -> None:
    assert [f"{n} table{pluralize(n)}" for n in (0, 1, 2)] == ["0 tables", "1 table", "2 tables"]
    assert [pluralize(n, "has,have") for n in (1, 3)] == ["has", "have"]
