"""``manage.py export_rules``: write the rules' data and the page's words for the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.forms import export as words
from scoring.rules import export as rules

#: Each generated file and what writes its text.
FILES = ((rules.GENERATED, rules.render), (words.GENERATED, words.render))


class Command(BaseCommand):
    help = (
        "Write static/scoring/rules/generated.mjs from scoring/rules (presets, options) and "
        "static/scoring/offline/words.mjs from scoring/forms/words.py (the page's words)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="exit 1 if a file is out of date")

    def handle(self, *args: Any, **options: Any) -> None:
        texts = [(path, render()) for path, render in FILES]
        stale = [(path, text) for path, text in texts if _current(path) != text]
        if options["check"]:
            for path, _ in stale:
                self.stderr.write(f"{path} is out of date: run manage.py export_rules")
            if stale:
                raise SystemExit(1)
            return
        for path, text in stale:
            path.write_text(text, encoding="utf-8")
        for path, _ in texts:
            self.stdout.write(f"wrote {path}")


def _current(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""
