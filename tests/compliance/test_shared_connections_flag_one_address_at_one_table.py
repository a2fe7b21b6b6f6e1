"""FRD-11, FRD-15, FRD-19: players sharing a device or an IP address at the same table or tournament are flagged."""

from __future__ import annotations

from compliance.detection.detector import Detector
from compliance.detection.records import ConnectionRecord
from tests.compliance.hands import START

HOUR = 3600.0


def flags_of(connections: list[ConnectionRecord]) -> list[tuple[tuple[str, ...], float, dict[str, object]]]:
    detector = Detector()
    for connection in connections:
        detector.feed_connection(connection)
    return [
        (flag.players, flag.score, dict(flag.evidence))
        for flag in detector.flags()
        if flag.indicator == "shared_connection"
    ]


def test_one_device_at_one_table_is_flagged_with_the_device_and_the_place() -> None:
    flags = flags_of(
        [
            ConnectionRecord("ann", "table:1", START, ip="198.51.100.7", device="phone-1"),
            ConnectionRecord("bea", "table:1", START + HOUR, ip="203.0.113.9", device="phone-1"),
        ]
    )
    assert flags == [
        (("ann", "bea"), 2.0, {"shared_devices": {"phone-1": ["table:1"]}, "shared_ips": {}, "places": ["table:1"]})
    ]


def test_one_address_at_one_tournament_is_flagged() -> None:
    flags = flags_of(
        [
            ConnectionRecord("bea", "tournament:9", START, ip="198.51.100.7", device="laptop-b"),
            ConnectionRecord("ann", "tournament:9", START + 2 * HOUR, ip="198.51.100.7", device="laptop-a"),
        ]
    )
    assert [(players, score) for players, score, _ in flags] == [(("ann", "bea"), 1.0)]


def test_one_address_at_different_places_or_far_apart_in_time_is_not_flagged() -> None:
    flags = flags_of(
        [
            ConnectionRecord("ann", "table:1", START, ip="198.51.100.7", device="a"),
            ConnectionRecord("bea", "table:2", START, ip="198.51.100.7", device="b"),
            ConnectionRecord("cid", "table:1", START + 20 * HOUR, ip="198.51.100.7", device="c"),
        ]
    )
    assert flags == []


def test_an_address_used_by_many_players_is_a_shared_public_address_and_is_ignored() -> None:
    connections = [
        ConnectionRecord(f"player{number}", "table:1", START + number, ip="100.64.0.1", device=f"device{number}")
        for number in range(7)
    ]
    assert flags_of(connections) == []
