"""The UTH table socket protocol: strict validation of client messages (docs/uth-protocol.md).

A client message is one JSON object of at most 4096 characters with a known ``"type"`` and exactly the fields that
type takes; amounts are JSON integers from 1 to 10^12 cents; a ``request_id`` (1–64 letters, digits or ``_.:-``) is
echoed in the answer. Anything else raises :class:`games.runtime.protocol.ProtocolError`, whose ``code`` and message go
back to
the client. The shared pieces (limits, error type, rate-limit bucket) come from the cash tables' protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from games.engine.uth.round import Decision
from games.runtime.protocol import (
    MAXIMUM_AMOUNT,
    MAXIMUM_MESSAGE_CHARACTERS,
    MAXIMUM_SEQUENCE,
    REQUEST_ID_PATTERN,
    ProtocolError,
    message_json_loads,
)

BET_SPOTS: Final[tuple[str, ...]] = ("ante", "trips")
DECISIONS: Final[tuple[str, ...]] = tuple(decision.value for decision in Decision)

# field name -> kind: "amount", "sequence", "text", or a tuple of allowed strings
UTH_MESSAGES: Final[dict[str, dict[str, Any]]] = {
    "take_seat": {},
    "leave": {},
    "bet": {"spot": BET_SPOTS, "amount": "amount"},
    "double": {},
    "repeat": {},
    "undo": {},
    "clear": {},
    "decide": {"decision": DECISIONS},
    "snapshot": {},
    "resync": {"since": "sequence"},
    "ping": {},
    # Chat (UTH-33): the line's own rules (length, characters, rate, moderation) are the chat service's.
    "chat": {"text": "text"},
}
"""Every message the UTH table socket accepts, with its (all required) fields."""

COMMANDS: Final[frozenset[str]] = frozenset(
    {"take_seat", "leave", "bet", "double", "repeat", "undo", "clear", "decide", "chat"}
)
"""Messages that change something and need a logged-in player."""


@dataclass(frozen=True)
class UthMessage:
    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    request_id: str | None = None


def parse_uth_message(text: str | None) -> UthMessage:
    """Parse and validate one text frame; raises :class:`ProtocolError` with a code and a plain message."""
    if text is None:
        raise ProtocolError("binary_not_supported", "send JSON text frames, not binary ones")
    if len(text) > MAXIMUM_MESSAGE_CHARACTERS:
        raise ProtocolError("message_too_large", f"a message may have at most {MAXIMUM_MESSAGE_CHARACTERS} characters")
    data = message_json_loads(text)
    request_id = data.get("request_id")
    if request_id is not None and (not isinstance(request_id, str) or not REQUEST_ID_PATTERN.fullmatch(request_id)):
        raise ProtocolError("bad_request_id", "request_id must be 1-64 letters, digits or _.:-")
    message_type = data.get("type")
    if not isinstance(message_type, str):
        raise ProtocolError("missing_type", 'a message needs a string field "type"', request_id)
    rules = UTH_MESSAGES.get(message_type)
    if rules is None:
        raise ProtocolError("unknown_type", f"unknown message type {message_type[:40]!r}", request_id)
    unexpected = sorted(str(name)[:40] for name in set(data) - set(rules) - {"type", "request_id"})
    if unexpected:
        hint = " (you always act for your own seat)" if {"seat", "player", "user"} & set(unexpected) else ""
        raise ProtocolError(
            "unexpected_field", f"{message_type} does not take: {', '.join(unexpected[:5])}{hint}", request_id
        )
    fields: dict[str, Any] = {}
    for name, rule in rules.items():
        if name not in data:
            raise ProtocolError("missing_field", f"{message_type} needs the field {name!r}", request_id)
        fields[name] = _validate(name, rule, data[name], request_id)
    return UthMessage(message_type, fields, request_id)


def _validate(name: str, rule: Any, value: Any, request_id: str | None) -> Any:
    if rule == "amount":
        if type(value) is not int:
            raise ProtocolError("bad_amount", f"{name} must be a whole number of cents", request_id)
        if not 0 < value <= MAXIMUM_AMOUNT:
            raise ProtocolError("bad_amount", f"{name} must be between 1 and {MAXIMUM_AMOUNT} cents", request_id)
        return value
    if rule == "sequence":
        if type(value) is not int or not 0 <= value <= MAXIMUM_SEQUENCE:
            raise ProtocolError("bad_sequence", f"{name} must be a non-negative whole number", request_id)
        return value
    if rule == "text":
        if not isinstance(value, str):
            raise ProtocolError("bad_field", f"{name} must be a string", request_id)
        return value
    if isinstance(rule, tuple):
        if not isinstance(value, str) or value not in rule:
            raise ProtocolError("bad_field", f"{name} must be one of: {', '.join(rule)}", request_id)
        return value
    raise AssertionError(f"unknown field rule {rule!r}")  # pragma: no cover - programming error
