"""FRD-11, FRD-15, FRD-19: a loopback, unspecified or link-local address is every local client's, so two players seen
on it at one table are not flagged for sharing a connection (a device they share still is)."""

from __future__ import annotations

import pytest

from compliance.detection.detector import Detector
from compliance.detection.records import ConnectionRecord
from compliance.detection.shared_connections import address_identifies
from tests.compliance.hands import START


def shared_connection_flags(connections: list[ConnectionRecord]) -> list[tuple[str, ...]]:
    detector = Detector()
    for connection in connections:
        detector.feed_connection(connection)
    return [flag.players for flag in detector.flags() if flag.indicator == "shared_connection"]


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "::1", "0.0.0.0", "fe80::1"])
def test_two_players_on_a_local_address_at_one_table_are_not_flagged(address: str) -> None:
    flags = shared_connection_flags(
        [
            ConnectionRecord("ann", "table:1", START, ip=address, device="laptop-a"),
            ConnectionRecord("bea", "table:1", START + 60, ip=address, device="laptop-b"),
        ]
    )
    assert flags == []


def test_a_device_shared_on_a_local_address_is_still_flagged() -> None:
    flags = shared_connection_flags(
        [
            ConnectionRecord("ann", "table:1", START, ip="127.0.0.1", device="phone-1"),
            ConnectionRecord("bea", "table:1", START + 60, ip="127.0.0.1", device="phone-1"),
        ]
    )
    assert flags == [("ann", "bea")]


@pytest.mark.parametrize(
    ("address", "identifies"),
    [("198.51.100.7", True), ("2001:db8::5", True), ("127.0.0.1", False), ("", False), (None, False)],
)
def test_which_addresses_tell_players_apart(address: str | None, identifies: bool) -> None:
    assert address_identifies(address) is identifies
