"""Hand records from PHH hand histories that carry player names (``manage.py compliance_scan``).

Every hand is replayed by the engine (:func:`games.engine.phh.replay_phh`, which refuses a malformed or illegal
history and names the hand and action); the record takes the players' names from the ``players`` field — required
here, since the indicators follow players across hands — and the hole cards that ``d dh`` lines (or a later ``sm``)
reveal; ``??`` cards stay unknown and decisions that need them are not judged.

PHH has no per-decision times, addresses or devices. This reader accepts three user-defined fields (the PHH
specification's ``_`` prefix) so that such data can be checked too:

* ``_decision_milliseconds``: one whole number per player action line (every action that is not a dealer ``d`` line
  or a ``sm`` show), in order; a negative number means unknown;
* ``_ip_addresses`` and ``_device_ids``: one string per player ("" when unknown), recorded as a connection of each
  player to the hand's place at the hand's start.

The hand's start is read from the optional ``year``, ``month``, ``day``, ``time`` and ``time_zone`` fields (UTC when
no zone is given); the place from ``table`` (``"table:<table>"``) or else the file. Hand ids are ``"<source>#<n>"``
with ``n`` the hand's number in the file.

Standard library and the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from compliance.detection.records import ConnectionRecord, HandRecord, RecordError, record_from_state
from games.engine.cards import InvalidCardError, parse_cards
from games.engine.phh import PhhError, load_phh_file, loads_phh, replay_phh

DECISION_TIMES_FIELD = "_decision_milliseconds"
IP_ADDRESSES_FIELD = "_ip_addresses"
DEVICE_IDS_FIELD = "_device_ids"


@dataclass(frozen=True)
class PhhRecords:
    """What a PHH source gives the detector: its hands in file order and the connections its custom fields describe."""

    hands: list[HandRecord]
    connections: list[ConnectionRecord]


def records_from_phh_file(path: str | Path, *, source: str | None = None) -> PhhRecords:
    """Read a ``.phh`` or ``.phhs`` file; raises :class:`~games.engine.phh.PhhError` naming the hand at fault."""
    label = source if source is not None else str(path)
    return _records(load_phh_file(path), label)


def records_from_phh_text(text: str, *, source: str) -> PhhRecords:
    """Like :func:`records_from_phh_file` for PHH text; ``source`` prefixes the hand ids."""
    return _records(loads_phh(text), source)


def _records(hands: list[tuple[int | str, dict[str, Any]]], source: str) -> PhhRecords:
    records: list[HandRecord] = []
    connections: list[ConnectionRecord] = []
    for number, fields in hands:
        try:
            record, hand_connections = hand_record_from_phh(fields, number=number, source=source)
        except PhhError as error:
            if error.hand is None:
                raise PhhError(error.reason, hand=number, action=error.action) from error
            raise
        records.append(record)
        connections.extend(hand_connections)
    return PhhRecords(records, connections)


def hand_record_from_phh(
    fields: Mapping[str, Any], *, number: int | str, source: str
) -> tuple[HandRecord, list[ConnectionRecord]]:
    """The record of one PHH hand and the connections its custom fields describe (see the module docstring)."""
    replayed = replay_phh(fields, number=number)
    state = replayed.state
    count = len(state.seats)
    names = _names(fields, count)
    started_at = _start_time(fields)
    place = f"table:{fields['table']}" if "table" in fields else f"file:{source}"
    actions = [str(text) for text in fields["actions"]]
    try:
        record = record_from_state(
            state,
            hand_id=f"{source}#{number}",
            players={seat: names[seat - 1] for seat in range(1, count + 1)},
            known_hole_cards=_known_hole_cards(actions, count),
            decision_ms=_decision_times(fields, actions, state),
            table_id=place,
            started_at=started_at,
        )
    except RecordError as error:
        raise PhhError(str(error)) from error
    return record, _connections(fields, names, place, started_at or 0.0)


def _names(fields: Mapping[str, Any], count: int) -> list[str]:
    names = fields.get("players")
    if not isinstance(names, list) or len(names) != count:
        raise PhhError(f"the hand needs a 'players' field with the {count} players' names to follow them across hands")
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise PhhError("every player needs a non-empty name in 'players'")
    cleaned = [name.strip() for name in names]
    if len(set(cleaned)) != len(cleaned):
        raise PhhError("a name appears twice in 'players'")
    return cleaned


def _start_time(fields: Mapping[str, Any]) -> float | None:
    year, month, day = fields.get("year"), fields.get("month"), fields.get("day")
    if year is None or month is None or day is None:
        return None
    moment = fields.get("time", time(0, 0))
    if not all(type(value) is int for value in (year, month, day)) or not isinstance(moment, time):
        raise PhhError("year, month and day must be whole numbers and time a TOML local time")
    zone_name = fields.get("time_zone")
    try:
        zone = ZoneInfo(zone_name) if zone_name is not None else UTC
    except (ZoneInfoNotFoundError, ValueError, TypeError) as error:
        raise PhhError(f"unknown time_zone {zone_name!r}") from error
    try:
        return datetime(year, month, day, moment.hour, moment.minute, moment.second, tzinfo=zone).timestamp()
    except ValueError as error:
        raise PhhError(f"not a date: {error}") from error


def _known_hole_cards(actions: list[str], count: int) -> dict[int, bool]:
    """Whether each seat's hole cards are fully known from its ``d dh`` line or a full ``sm`` (the engine already
    checked that the lines are well formed)."""
    known = dict.fromkeys(range(1, count + 1), False)
    for text in actions:
        words = text.split("#", 1)[0].split()
        cards = None
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            seat, cards = words[2], words[3]
        elif len(words) == 3 and words[1] == "sm":
            seat, cards = words[0], words[2]
        if cards is None or "?" in cards:
            continue
        try:
            parse_cards(cards)
        except InvalidCardError:
            continue
        known[int(seat[1:])] = True
    return known


def _decision_times(fields: Mapping[str, Any], actions: list[str], state: Any) -> list[int | None] | None:
    """One decision time per engine action, from ``_decision_milliseconds`` (one per player action line)."""
    raw = fields.get(DECISION_TIMES_FIELD)
    if raw is None:
        return None
    lines = []
    for text in actions:
        words = text.split("#", 1)[0].split()
        if len(words) >= 2 and words[0] != "d" and words[1] != "sm":
            lines.append(int(words[0][1:]))
    if not isinstance(raw, list) or len(raw) != len(lines) or any(type(value) is not int for value in raw):
        raise PhhError(f"{DECISION_TIMES_FIELD} needs one whole number per player action ({len(lines)})")
    times: list[int | None] = []
    position = 0
    for event in state.events:
        if event.kind != "action_taken":
            continue
        # pokerkit writes a check for a player who had no decision left; the engine skips it, so does the time.
        while position < len(lines) and lines[position] != event.seat:
            position += 1
        if position == len(lines):
            raise PhhError(f"{DECISION_TIMES_FIELD} does not follow the actions")
        value = raw[position]
        times.append(value if value >= 0 else None)
        position += 1
    return times


def _connections(fields: Mapping[str, Any], names: list[str], place: str, at: float) -> list[ConnectionRecord]:
    addresses = _per_player_strings(fields, IP_ADDRESSES_FIELD, len(names))
    devices = _per_player_strings(fields, DEVICE_IDS_FIELD, len(names))
    if addresses is None and devices is None:
        return []
    return [
        ConnectionRecord(
            player=name,
            place=place,
            at=at,
            ip=(addresses[index] or None) if addresses is not None else None,
            device=(devices[index] or None) if devices is not None else None,
        )
        for index, name in enumerate(names)
    ]


def _per_player_strings(fields: Mapping[str, Any], name: str, count: int) -> list[str] | None:
    values = fields.get(name)
    if values is None:
        return None
    if not isinstance(values, list) or len(values) != count or any(not isinstance(value, str) for value in values):
        raise PhhError(f"{name} needs one text per player ({count})")
    return [value.strip() for value in values]


__all__ = [
    "DECISION_TIMES_FIELD",
    "DEVICE_IDS_FIELD",
    "IP_ADDRESSES_FIELD",
    "PhhRecords",
    "hand_record_from_phh",
    "records_from_phh_file",
    "records_from_phh_text",
]
