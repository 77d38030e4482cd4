"""``manage.py export_rules``: write the presets and option names for the browser-side rules."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.rules.export import GENERATED, render


class Command(BaseCommand):
    help = "Write static/scoring/rules/generated.mjs from scoring/rules (presets, options)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="exit 1 if the file is out of date"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = render()
        current = GENERATED.read_text(encoding="utf-8") if GENERATED.exists() else ""
        if options["check"]:
            if current != text:
                self.stderr.write(f"{GENERATED} is out of date: run manage.py export_rules")
                raise SystemExit(1)
            return
        if current != text:
            GENERATED.write_text(text, encoding="utf-8")
        self.stdout.write(f"wrote {GENERATED}")
