"""``python manage.py compliance_scan FILE.phh...``: run the fraud indicators over PHH hand histories (FRD-19).

Prints one JSON line per flag, keys sorted, flags ordered by indicator and then players::

    {"evidence": {...}, "hands": ["file.phhs#3", ...], "indicator": "chip_dumping", "players": ["loser", "winner"],
     "requirements": ["FRD-19", "FRD-14", "FRD-02"], "score": 4.2, "threshold": 3.0}

The hands need player names (PHH ``players``); see :mod:`compliance.detection.phh_records` for the optional
user-defined fields with decision times, IP addresses and devices. A summary and the indicators that had no data go to
stderr. Thresholds can be tuned with ``--set indicator.parameter=value`` (repeatable).

Needs no database: nothing is read or written but the files named. A file or hand that cannot be read or replayed is
refused and the rest are scanned, so one bad hand in a year of histories hides nothing else: every refusal is listed on
stderr (file, hand, action), the flags of the hands read are printed, and the command exits with status 2. A
multi-hand file whose TOML is broken in one hand is read hand by hand, so only that hand is lost.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance.detection.detector import Detector
from compliance.detection.flags import StateError
from compliance.detection.phh_records import hand_record_from_phh
from compliance.detection.records import ConnectionRecord, HandRecord
from games.engine.phh import PhhError, load_phh_file, loads_phh

BAD_INPUT = 2
NO_DATA_HINTS = {
    "bot_timing": "the hands carry no decision times or start times (PHH _decision_milliseconds; year, month, day)",
    "shared_connection": "the hands carry no IP addresses or devices (PHH _ip_addresses, _device_ids)",
    "counter_use": "PHH files carry no ratholing or Banzai Reset counters",
    "chip_dumping": "no all-in or large-fold decisions with known cards",
    "soft_play": "no decisions aimed at one opponent",
    "giving_way": "no decisions in pots of three or more with known cards where an opponent held the better hand",
    "net_flow": "no hands with two or more players",
    "coordinated_entry": "the hands carry no connections to cash tables (PHH _ip_addresses, _device_ids)",
    "pair_evidence": "no pair with data for soft play, giving way, chip dumping or net flow",
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
            self.stderr.write(f"refused: {problem}")
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
        if problems:
            raise CommandError(
                f"{len(problems)} file(s) or hand(s) could not be read and were not scanned (listed above as"
                " 'refused'); the flags printed are those of the hands read",
                returncode=BAD_INPUT,
            )


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
            numbered, unreadable = hands_one_by_one(path)
            if not numbered and not unreadable:
                problems.append(f"{path}: {error}")
                continue
            problems.extend(f"{path}: {problem}" for problem in unreadable)
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


HAND_HEADER = re.compile(r"^\[(\d+)\]\s*$", re.MULTILINE)


def hands_one_by_one(path: str) -> tuple[list[tuple[int | str, dict[str, Any]]], list[str]]:
    """A multi-hand file whose TOML does not parse as a whole, read one ``[n]`` table at a time: the hands that parse,
    and a problem line for each that does not. Nothing (two empty lists) when the file has no ``[n]`` tables or cannot
    be read at all."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return [], []
    headers = list(HAND_HEADER.finditer(text))
    if not headers:
        return [], []
    hands: list[tuple[int | str, dict[str, Any]]] = []
    problems: list[str] = []
    for index, header in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
        number = int(header.group(1))
        try:
            parsed = loads_phh(text[header.start() : end])
        except PhhError as error:
            problems.append(f"hand {number}: {error}")
            continue
        hands.extend(parsed)
    return hands, problems
