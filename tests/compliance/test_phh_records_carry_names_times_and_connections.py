"""FRD-19: hand records from PHH files with player names; decision times, addresses and devices from the user-defined
fields ``_decision_milliseconds``, ``_ip_addresses`` and ``_device_ids``; the start from ``year``/``month``/``day``/
``time``."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from compliance.detection.phh_records import records_from_phh_file, records_from_phh_text
from games.engine.cards import parse_cards
from games.engine.phh import PhhError
from tests.compliance.phh_files import phh_hand, write_phhs

THREE_HANDED = {1: "ann", 2: "bea", 3: "cid"}


def three_handed(extra: dict[str, object] | None = None, raw: str = "") -> str:
    # Seat 3 is the button: ann (p1) posts the small blind, bea (p2) the big blind, cid (p3) acts first.
    return phh_hand(
        THREE_HANDED,
        hole={1: "AsKs", 2: "QhQc", 3: "7c2d"},
        board="2s5d9hJcQd",
        button=3,
        actions=[(3, "fold"), (1, "raise", 30), (2, "call"), (1, "bet", 40), (2, "fold")],
        extra=extra,
        raw=raw,
    )


def test_a_named_hand_becomes_a_record_with_players_cards_actions_and_results(tmp_path: Path) -> None:
    path = write_phhs(tmp_path / "session.phhs", [three_handed({"table": "Tallinn 1"})])
    records = records_from_phh_file(path)
    assert records.connections == []
    [record] = records.hands
    assert record.hand_id == f"{path}#1"
    assert record.table_id == "table:Tallinn 1"
    assert [(seat.seat, seat.player, seat.hole_cards) for seat in record.seats] == [
        (1, "ann", parse_cards("AsKs")),
        (2, "bea", parse_cards("QhQc")),
        (3, "cid", parse_cards("7c2d")),
    ]
    assert [(action.seat, action.street, action.kind, action.amount) for action in record.actions] == [
        (3, "preflop", "fold", 0),
        (1, "preflop", "raise", 25),
        (2, "preflop", "call", 20),
        (1, "flop", "bet", 40),
        (2, "flop", "fold", 0),
    ]
    assert [action.decision_ms for action in record.actions] == [None] * 5
    assert {seat.player: seat.net for seat in record.seats} == {"ann": 30, "bea": -30, "cid": 0}
    assert record.started_at is None


def test_decision_times_start_time_addresses_and_devices_are_read_from_the_optional_fields() -> None:
    text = three_handed(
        {
            "_decision_milliseconds": [800, 2400, 3100, -1, 5200],
            "_ip_addresses": ["198.51.100.7", "198.51.100.7", ""],
            "_device_ids": ["phone-a", "", "laptop-c"],
            "year": 2026,
            "month": 3,
            "day": 2,
        },
        raw="time = 12:30:00\n",
    )
    records = records_from_phh_text(text, source="upload")
    [record] = records.hands
    assert [action.decision_ms for action in record.actions] == [800, 2400, 3100, None, 5200]
    assert record.started_at == datetime(2026, 3, 2, 12, 30, tzinfo=UTC).timestamp()
    assert [(item.player, item.place, item.ip, item.device) for item in records.connections] == [
        ("ann", "file:upload", "198.51.100.7", "phone-a"),
        ("bea", "file:upload", "198.51.100.7", None),
        ("cid", "file:upload", None, "laptop-c"),
    ]


def test_unknown_hole_cards_stay_unknown_in_the_record() -> None:
    text = three_handed().replace("d dh p3 7c2d", "d dh p3 ????")
    [record] = records_from_phh_text(text, source="upload").hands
    assert record.seat_of(3).hole_cards == ()
    assert record.seat_of(1).hole_cards == parse_cards("AsKs")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda text: text.replace('players = ["ann", "bea", "cid"]\n', ""), "needs a 'players' field"),
        (lambda text: text.replace('"cid"', '"ann"'), "a name appears twice"),
        (lambda text: text + "_decision_milliseconds = [1, 2]\n", "one whole number per player action (5)"),
        (lambda text: text + '_ip_addresses = ["a"]\n', "_ip_addresses needs one text per player (3)"),
        (lambda text: text + "year = 2026\nmonth = 2\nday = 30\n", "not a date"),
        (lambda text: text + 'year = 2026\nmonth = 2\nday = 3\ntime_zone = "Mars/Olympus"\n', "unknown time_zone"),
    ],
)
def test_a_hand_that_cannot_be_scanned_is_refused_naming_the_hand(change: object, message: str) -> None:
    text = change(three_handed())  # type: ignore[operator]
    with pytest.raises(PhhError, match=re.escape(message)) as raised:
        records_from_phh_text(text, source="upload")
    assert raised.value.hand == 1
