"""``python manage.py compliance_scan FILE.phh...``: run the fraud indicators over PHH hand histories (FRD-19).

Prints one JSON line per flag, keys sorted, flags ordered by indicator and then players::

    {"evidence": {...}, "hands": ["file.phhs#3", ...], "indicator": "chip_dumping", "players": ["loser", "winner"],
     "requirements": ["FRD-19", "FRD-14", "FRD-02"], "score": 4.2, "threshold": 3.0}

The hands need player names (PHH ``players``); see :mod:`compliance.detection.phh_records` for the optional
user-defined fields with decision times, IP addresses and devices. A summary and the indicators that had no data go to
stderr. Thresholds can be tuned with ``--set indicator.parameter=value`` (repeatable).

Needs no database: nothing is read or written but the files named. If any file or hand cannot be read or replayed,
every such problem is reported on stderr (file, hand, action), no flag is printed, and the command exits with status 2.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance.detection.detector import Detector
from compliance.detection.flags import StateError
from compliance.detection.phh_records import hand_record_from_phh
from compliance.detection.records import ConnectionRecord, HandRecord
from games.engine.phh import PhhError, load_phh_file

BAD_INPUT = 2
NO_DATA_HINTS = {
    "bot_timing": "the hands carry no decision times or start times (PHH _decision_milliseconds; year, month, day)",
    "shared_connection": "the hands carry no IP addresses or devices (PHH _ip_addresses, _device_ids)",
    "counter_use": "PHH files carry no ratholing or Banzai Reset counters",
    "chip_dumping": "no all-in or large-fold decisions with known cards",
    "soft_play": "no decisions aimed at one opponent",
}


class Command(BaseCommand):
    help = "Run the fraud indicators over PHH hand histories with player names and print one JSON line per flag."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files")
        parser.add_argument(
            "--set",
            action="append",
            default=[],
            dest="overrides",
            metavar="INDICATOR.PARAMETER=VALUE",
            help="override a threshold, e.g. --set chip_dumping.minimum_weak_decisions=2",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            detector = Detector(parameters_from_overrides(options["overrides"]))
        except StateError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from error
        hands, connections, problems = read_files(options["files"])
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(
                f"{len(problems)} file(s) or hand(s) could not be read; nothing was scanned", returncode=BAD_INPUT
            )
        for connection in sorted(connections, key=lambda record: record.at):
            detector.feed_connection(connection)
        detector.feed_hands(hands)
        flags = detector.flags()
        for flag in flags:
            self.stdout.write(json.dumps(flag.to_dict(), sort_keys=True))
        players = {seat.player for record in hands for seat in record.seats}
        self.stderr.write(
            f"scanned {len(hands)} hand(s) of {len(players)} player(s) in {len(options['files'])} file(s): "
            f"{len(flags)} flag(s)"
        )
        for name in detector.indicators_without_data():
            self.stderr.write(f"{name}: not judged: {NO_DATA_HINTS[name]}")


def parameters_from_overrides(overrides: list[str]) -> dict[str, dict[str, Any]]:
    """``["chip_dumping.threshold=2.5", ...]`` -> ``{"chip_dumping": {"threshold": 2.5}}``."""
    parameters: dict[str, dict[str, Any]] = {}
    for setting in overrides:
        name, equals, text = setting.partition("=")
        indicator, dot, parameter = name.strip().partition(".")
        if not equals or not dot or not indicator or not parameter:
            raise StateError(f"--set needs INDICATOR.PARAMETER=VALUE, not {setting!r}")
        try:
            value = json.loads(text)
        except ValueError as error:
            raise StateError(f"--set {name}: {text!r} is not a number") from error
        parameters.setdefault(indicator, {})[parameter] = value
    return parameters


def read_files(paths: list[str]) -> tuple[list[HandRecord], list[ConnectionRecord], list[str]]:
    """Every hand of every file as records, with the problems found (one line each, naming file and hand)."""
    hands: list[HandRecord] = []
    connections: list[ConnectionRecord] = []
    problems: list[str] = []
    for path in paths:
        try:
            numbered = load_phh_file(path)
        except PhhError as error:
            problems.append(f"{path}: {error}")
            continue
        for number, fields in numbered:
            try:
                record, hand_connections = hand_record_from_phh(fields, number=number, source=path)
            except PhhError as error:
                located = error if error.hand is not None else PhhError(error.reason, hand=number, action=error.action)
                problems.append(f"{path}: {located}")
                continue
            hands.append(record)
            connections.extend(hand_connections)
    return hands, connections, problems
