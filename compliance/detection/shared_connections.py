"""Shared IP address or device at the same table or tournament (FRD-11, FRD-15, FRD-01; indicator of FRD-19).

Fed with connection records (``player``, ``place``, ``at``, ``ip``, ``device``: recorded at log-in and at every socket
connect to a table or tournament). Two different players connected to the same place within ``window_hours`` of each
other from the same device, or from the same IP address, share it there. An IP address that more than
``maximum_players_per_ip`` players have used anywhere (a carrier's or a campus's shared address) is ignored: it says
nothing about who sits behind it, and so is a loopback, unspecified or link-local address (every client on the
server's own machine, or none known, has it: :func:`address_identifies`).

Score per pair: ``device_weight`` per place shared through a device plus ``ip_weight`` per place shared through an IP
address; flagged from ``threshold`` (default: any shared device or address at one table). The hands of the pair at the
shared places (as they are fed afterwards) are the evidence.

State (JSON): ``{"format": 1, "fed": n, "newest": t, "places": {place: {"ip:<a>" or "device:<d>": {player: t}}},
"ip_players": {ip: [players]}, "pairs": [[A, B, {"ips": {ip: [places]}, "devices": {device: [places]}, "hands":
[ids]}], ...]}``. Place buckets older than the window are pruned every 1,000 records.

Standard library and the engine only.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from compliance.detection.analysis import AnalysedHand
from compliance.detection.flags import STATE_FORMAT, Flag, Indicator, StateError, keep_last, require_format
from compliance.detection.records import ConnectionRecord

PRUNE_EVERY = 1_000
EVIDENCE_PLACES = 10


@dataclass(frozen=True)
class SharedConnectionParameters:
    threshold: float = 1.0
    """Score from which a pair is flagged."""
    device_weight: float = 2.0
    """Score per place shared through a device."""
    ip_weight: float = 1.0
    """Score per place shared through an IP address."""
    maximum_players_per_ip: int = 6
    """An address used by more players than this is a shared public address and is ignored (at most 50)."""
    window_hours: float = 12.0
    """Accumulation: connections to the same place this close in time count as being there together."""
    evidence_hands: int = 25
    """How many hands of the pair at the shared places are kept (the most recent)."""


@dataclass
class _Pair:
    ips: dict[str, list[str]] = field(default_factory=dict)
    devices: dict[str, list[str]] = field(default_factory=dict)
    hands: list[str] = field(default_factory=list)

    def places(self) -> set[str]:
        return {place for places in (*self.ips.values(), *self.devices.values()) for place in places}


MAXIMUM_TRACKED_PLAYERS_PER_IP = 51


def address_identifies(ip: str | None) -> bool:
    """Whether an address can tell players apart. A loopback, unspecified or link-local address cannot: every client
    on the server's own machine (or behind a local proxy that is not trusted) has it. Text that is no IP address (a
    PHH file's own label) is taken as given."""
    if not ip:
        return False
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return True
    return not (address.is_loopback or address.is_unspecified or address.is_link_local)


class SharedConnections(Indicator[SharedConnectionParameters]):
    name = "shared_connection"
    requirements = ("FRD-19", "FRD-11", "FRD-15")
    parameters_type = SharedConnectionParameters

    def __init__(self, parameters: SharedConnectionParameters | None = None) -> None:
        super().__init__(parameters)
        self._fed = 0
        self._newest: float | None = None
        self._places: dict[str, dict[str, dict[str, float]]] = {}
        self._ip_players: dict[str, list[str]] = {}
        self._pairs: dict[tuple[str, str], _Pair] = {}

    def feed_connection(self, record: ConnectionRecord) -> None:
        window = self.parameters.window_hours * 3600
        self._fed += 1
        self._newest = record.at if self._newest is None else max(self._newest, record.at)
        if not address_identifies(record.ip):
            record = replace(record, ip=None)
        if record.ip:
            users = self._ip_players.setdefault(record.ip, [])
            if record.player not in users and len(users) < MAXIMUM_TRACKED_PLAYERS_PER_IP:
                users.append(record.player)
        buckets = self._places.setdefault(record.place, {})
        for kind, value in (("ip", record.ip), ("device", record.device)):
            if not value:
                continue
            bucket = buckets.setdefault(f"{kind}:{value}", {})
            for other, seen_at in sorted(bucket.items()):
                if other != record.player and abs(seen_at - record.at) <= window:
                    key = (other, record.player) if other < record.player else (record.player, other)
                    pair = self._pairs.setdefault(key, _Pair())
                    shared = pair.ips if kind == "ip" else pair.devices
                    places = shared.setdefault(value, [])
                    shared[value] = keep_last(places, [record.place], EVIDENCE_PLACES)
            previous = bucket.get(record.player)
            bucket[record.player] = record.at if previous is None else max(previous, record.at)
        if self._fed % PRUNE_EVERY == 0:
            self._prune(window)

    def _prune(self, window: float) -> None:
        if self._newest is None:
            return
        oldest = self._newest - window
        for place in list(self._places):
            buckets = self._places[place]
            for key in list(buckets):
                bucket = {player: at for player, at in buckets[key].items() if at >= oldest}
                if bucket:
                    buckets[key] = bucket
                else:
                    del buckets[key]
            if not buckets:
                del self._places[place]

    def feed_hand(self, hand: AnalysedHand) -> None:
        place = hand.record.place
        if place is None or not self._pairs:
            return
        players = sorted(hand.players.values())
        for first, second in combinations(players, 2):
            pair = self._pairs.get((first, second))
            if pair is not None and place in pair.places():
                pair.hands = keep_last(pair.hands, [hand.record.hand_id], self.parameters.evidence_hands)

    def has_data(self) -> bool:
        return self._fed > 0

    def flags(self) -> list[Flag]:
        parameters = self.parameters
        flags = []
        for (first, second), pair in sorted(self._pairs.items()):
            ips = {
                ip: places
                for ip, places in pair.ips.items()
                if len(self._ip_players.get(ip, ())) <= parameters.maximum_players_per_ip
            }
            ip_places = {place for places in ips.values() for place in places}
            device_places = {place for places in pair.devices.values() for place in places}
            score = parameters.device_weight * len(device_places) + parameters.ip_weight * len(ip_places)
            if score < parameters.threshold or score <= 0:
                continue
            flags.append(
                self.flag(
                    (first, second),
                    score,
                    parameters.threshold,
                    pair.hands,
                    shared_devices={device: sorted(places) for device, places in sorted(pair.devices.items())},
                    shared_ips={ip: sorted(places) for ip, places in sorted(ips.items())},
                    places=sorted(ip_places | device_places),
                )
            )
        return flags

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "fed": self._fed,
            "newest": self._newest,
            "places": {
                place: {key: dict(sorted(bucket.items())) for key, bucket in sorted(buckets.items())}
                for place, buckets in sorted(self._places.items())
            },
            "ip_players": {ip: list(players) for ip, players in sorted(self._ip_players.items())},
            "pairs": [
                [first, second, {"ips": pair.ips, "devices": pair.devices, "hands": pair.hands}]
                for (first, second), pair in sorted(self._pairs.items())
            ],
        }

    def load_state(self, data: Mapping[str, Any]) -> None:
        require_format(data, self.name)
        try:
            fed = int(data["fed"])
            newest = None if data["newest"] is None else float(data["newest"])
            places = {
                str(place): {
                    str(key): {str(player): float(at) for player, at in bucket.items()}
                    for key, bucket in buckets.items()
                }
                for place, buckets in data["places"].items()
            }
            ip_players = {str(ip): [str(player) for player in players] for ip, players in data["ip_players"].items()}
            pairs = {
                (str(first), str(second)): _Pair(
                    ips={str(ip): [str(place) for place in places] for ip, places in values["ips"].items()},
                    devices={
                        str(device): [str(place) for place in places] for device, places in values["devices"].items()
                    },
                    hands=[str(hand) for hand in values["hands"]],
                )
                for first, second, values in data["pairs"]
            }
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateError(f"{self.name}: malformed state: {error}") from error
        self._fed, self._newest, self._places, self._ip_players, self._pairs = fed, newest, places, ip_players, pairs

    def merge(self, other: SharedConnections) -> None:
        """Adds another accumulator's pairs and address users. Connections of two accumulators are not matched with
        each other (each saw only its own records), so feed one accumulator per place when that matters."""
        self._fed += other._fed
        if other._newest is not None:
            self._newest = other._newest if self._newest is None else max(self._newest, other._newest)
        for place, buckets in other._places.items():
            mine = self._places.setdefault(place, {})
            for key, bucket in buckets.items():
                target = mine.setdefault(key, {})
                for player, at in bucket.items():
                    target[player] = max(at, target.get(player, at))
        for ip, players in other._ip_players.items():
            users = self._ip_players.setdefault(ip, [])
            for player in players:
                if player not in users and len(users) < MAXIMUM_TRACKED_PLAYERS_PER_IP:
                    users.append(player)
        limit = self.parameters.evidence_hands
        for pair_key, theirs in other._pairs.items():
            mine_pair = self._pairs.setdefault(pair_key, _Pair())
            for ours, their_values in ((mine_pair.ips, theirs.ips), (mine_pair.devices, theirs.devices)):
                for value, places in their_values.items():
                    ours[value] = keep_last(ours.get(value, []), places, EVIDENCE_PLACES)
            mine_pair.hands = keep_last(mine_pair.hands, theirs.hands, limit)


__all__ = ["SharedConnectionParameters", "SharedConnections"]
