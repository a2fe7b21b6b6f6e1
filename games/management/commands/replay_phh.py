"""``python manage.py replay_phh FILE...``: replay Poker Hand History files in the engine.

Prints one JSON line per hand, ``{"file": ..., "hand": N, "finishing_stacks": [...]}`` (stacks in PHH player order).
A file or hand that cannot be read or replayed prints an error naming the file, the hand and the action to stderr; the
other hands are still replayed, and the command exits with a non-zero status at the end.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.phh import PhhError, load_phh_file, replay_phh


class Command(BaseCommand):
    help = "Replay PHH hand histories (.phh, .phhs; NT and PO) and print each hand's finishing stacks as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files")

    def handle(self, *args: Any, **options: Any) -> None:
        failures = 0
        for path in options["files"]:
            try:
                hands = load_phh_file(path)
            except PhhError as error:
                failures += 1
                self.stderr.write(f"{path}: {error}")
                continue
            for number, fields in hands:
                try:
                    replayed = replay_phh(fields, number=number)
                except PhhError as error:
                    failures += 1
                    self.stderr.write(f"{path}: {error}")
                    continue
                line = {"file": path, "hand": number, "finishing_stacks": replayed.finishing_stacks}
                self.stdout.write(json.dumps(line))
        if failures:
            raise CommandError(f"{failures} hand(s) or file(s) could not be replayed")
