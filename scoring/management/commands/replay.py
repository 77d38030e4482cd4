"""``manage.py replay FILE.json`` (or ``-`` for standard input): score a recorded game.

Prints the result as JSON (RULES.md section 7) and exits 0. An invalid file exits with status 2
and one line on standard error naming the hand and the fact; nothing goes to standard output.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.rules import InvalidFacts, score_replay


class Command(BaseCommand):
    help = "Score a recorded game from a replay file (JSON) and print the result as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the replay file, or - to read standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else self._read(path)
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InvalidFacts(
                    None,
                    "file",
                    f"the file is not valid JSON: {exc.msg} "
                    f"(line {exc.lineno}, column {exc.colno})",
                ) from exc
            result = score_replay(data)
        except InvalidFacts as exc:
            self._fail(str(exc))
        self.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False))

    def _read(self, path: str) -> str:
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            raise InvalidFacts(None, "file", f"cannot read {path}: {reason}") from exc

    def _fail(self, message: str) -> None:
        # One plain line (no "CommandError:" prefix, no colour), then exit status 2.
        line = " ".join(message.split())
        self.stderr.write(line, style_func=lambda text: text)
        raise SystemExit(2)
