"""The table and lobby socket protocol: parsing and strict validation of client messages (docs/protocol.md).

A client message is one JSON object of at most :data:`MAXIMUM_MESSAGE_CHARACTERS` characters with a known ``"type"``
and exactly the fields that type allows. Amounts are JSON integers (not booleans, floats or strings) between 1 and
:data:`MAXIMUM_AMOUNT`; seats are integers between 1 and :data:`MAXIMUM_SEAT`; a ``request_id`` is echoed back in
the answer. Anything else raises :class:`ProtocolError`, whose ``code`` goes to the client in an ``error`` message.

Pure Python: no Django, no I/O, so the rules are cheap to test exhaustively.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

MAXIMUM_MESSAGE_CHARACTERS: Final[int] = 4096
MAXIMUM_AMOUNT: Final[int] = 10**12
"""Largest amount a message may carry (cents): far above any real stake, far below anything that overflows."""
MAXIMUM_SEAT: Final[int] = 10
MAXIMUM_SEQUENCE: Final[int] = 2**53
REQUEST_ID_PATTERN: Final[re.Pattern[str]] = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
HEX_PATTERN: Final[re.Pattern[str]] = re.compile(r"(?:[0-9A-Fa-f]{2}){1,64}")
"""A client seed (issue 29): 1 to 64 bytes as hexadecimal digits."""

PLAYER_ACTIONS: Final[dict[str, str]] = {
    "fold": "fold",
    "check": "check",
    "call": "call",
    "bet": "bet",
    "raise": "raise_to",
    "raise_to": "raise_to",
    "all_in": "all_in",
}
"""Action names a client may send, mapped to the engine's action kinds (``raise`` is short for ``raise_to``)."""
ACTIONS_WITH_AMOUNT: Final[frozenset[str]] = frozenset({"bet", "raise_to"})


class ProtocolError(ValueError):
    """A client message that breaks the protocol. ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str, request_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


@dataclass(frozen=True)
class ClientMessage:
    """A validated client message: its ``type``, its fields (without ``type``/``request_id``) and ``request_id``."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    request_id: str | None = None


@dataclass(frozen=True)
class FieldRule:
    kind: str  # "amount", "seat", "sequence", "boolean", "action", "text", "hex", "banzai_choice"
    required: bool = True


TABLE_MESSAGES: Final[dict[str, dict[str, FieldRule]]] = {
    "act": {
        "action": FieldRule("action"),
        "amount": FieldRule("amount", required=False),
        # The hand the action answers (``your_turn`` names it): an action sent for a hand that has ended meanwhile is
        # refused instead of landing on the player's turn in the next one.
        "hand_id": FieldRule("sequence", required=False),
    },
    # Retired (CASH-04: seats are assigned): still parsed, so that an old client is told to use ``seat_me``.
    "take_seat": {
        "seat": FieldRule("seat", required=False),
        "buy_in": FieldRule("amount"),
        "post_big_blind": FieldRule("boolean", required=False),
    },
    # Play this table's stake: seated at the table the stake queue assigns (here or another), or queued (CASH-04/05).
    "seat_me": {
        "buy_in": FieldRule("amount"),
        "post_big_blind": FieldRule("boolean", required=False),
        "banzai_choice": FieldRule("banzai_choice", required=False),
    },
    "leave": {},
    "top_up": {"amount": FieldRule("amount")},
    "sit_out": {},
    "sit_in": {"post_big_blind": FieldRule("boolean", required=False)},
    "sit_out_next_big_blind": {"enabled": FieldRule("boolean")},
    "auto_top_up": {"enabled": FieldRule("boolean")},
    "resync": {"since": FieldRule("sequence")},
    "snapshot": {},
    "ping": {},
    # Table chat (issue 22): the line's own rules (length, characters, rate) are the chat service's.
    "chat": {"text": FieldRule("text")},
    # Provably fair decks (issue 29): the player's client seed (hex, 1 to 64 bytes) for the next hands they are dealt.
    "client_seed": {"seed": FieldRule("hex")},
}
"""Every message a table socket accepts, with its fields."""

LOBBY_MESSAGES: Final[dict[str, dict[str, FieldRule]]] = {
    "refresh": {},
    "ping": {},
}
"""Every message the lobby socket accepts."""


def parse_client_message(text: str | None, allowed: dict[str, dict[str, FieldRule]]) -> ClientMessage:
    """Parse and validate one text frame against ``allowed`` (:data:`TABLE_MESSAGES` or :data:`LOBBY_MESSAGES`)."""
    if text is None:
        raise ProtocolError("binary_not_supported", "send JSON text frames, not binary ones")
    if len(text) > MAXIMUM_MESSAGE_CHARACTERS:
        raise ProtocolError("message_too_large", f"a message may have at most {MAXIMUM_MESSAGE_CHARACTERS} characters")
    data = message_json_loads(text)
    request_id = _request_id(data.get("request_id"))
    message_type = data.get("type")
    if not isinstance(message_type, str):
        raise ProtocolError("missing_type", 'a message needs a string field "type"', request_id)
    rules = allowed.get(message_type)
    if rules is None:
        raise ProtocolError("unknown_type", f"unknown message type {message_type[:40]!r}", request_id)
    unexpected = sorted(set(data) - set(rules) - {"type", "request_id"})
    if unexpected:
        names = ", ".join(str(name)[:40] for name in unexpected[:5])
        raise ProtocolError("unexpected_field", f"{message_type} does not take: {names}", request_id)
    fields: dict[str, Any] = {}
    for name, rule in rules.items():
        if name not in data:
            if rule.required:
                raise ProtocolError("missing_field", f"{message_type} needs the field {name!r}", request_id)
            continue
        fields[name] = _validate(name, rule, data[name], request_id)
    if message_type == "act":
        _check_action_amount(fields, request_id)
    return ClientMessage(message_type, fields, request_id)


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object_without_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: with a repeated key, which of the two values counts would be the
    decoder's choice (the last), not the sender's (``{"amount": -5, "amount": 1000}``)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _RepeatedKey(key)
        data[key] = value
    return data


def message_json_loads(text: str) -> dict[str, Any]:
    """One socket frame's JSON object; :class:`ProtocolError` (nothing applied) when it is not valid JSON (NaN and
    Infinity are not), not an object, or repeats a key in any of its objects."""
    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_object_without_repeated_keys)
    except _RepeatedKey as error:
        raise ProtocolError(
            "repeated_key", f"the key {error.key[:40]!r} appears more than once in one object"
        ) from None
    except (ValueError, RecursionError) as error:
        raise ProtocolError("bad_json", "the message is not valid JSON") from error
    if not isinstance(data, dict):
        raise ProtocolError("not_an_object", "a message must be a JSON object")
    return data


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _request_id(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not REQUEST_ID_PATTERN.fullmatch(value):
        raise ProtocolError("bad_request_id", "request_id must be 1-64 letters, digits or _.:-")
    return value


def _is_integer(value: Any) -> bool:
    return type(value) is int  # bool is a subclass of int and is refused on purpose


def _validate(name: str, rule: FieldRule, value: Any, request_id: str | None) -> Any:
    if rule.kind == "amount":
        if not _is_integer(value):
            raise ProtocolError("bad_amount", f"{name} must be a whole number of cents", request_id)
        if value <= 0:
            raise ProtocolError("bad_amount", f"{name} must be positive", request_id)
        if value > MAXIMUM_AMOUNT:
            raise ProtocolError("bad_amount", f"{name} is too large", request_id)
        return value
    if rule.kind == "seat":
        if not _is_integer(value) or not 1 <= value <= MAXIMUM_SEAT:
            raise ProtocolError("bad_seat", f"{name} must be a seat number from 1 to {MAXIMUM_SEAT}", request_id)
        return value
    if rule.kind == "sequence":
        if not _is_integer(value) or not 0 <= value <= MAXIMUM_SEQUENCE:
            raise ProtocolError("bad_sequence", f"{name} must be a non-negative whole number", request_id)
        return value
    if rule.kind == "boolean":
        if not isinstance(value, bool):
            raise ProtocolError("bad_field", f"{name} must be true or false", request_id)
        return value
    if rule.kind == "text":
        if not isinstance(value, str):
            raise ProtocolError("bad_field", f"{name} must be a string", request_id)
        return value
    if rule.kind == "hex":
        if not isinstance(value, str) or not HEX_PATTERN.fullmatch(value):
            raise ProtocolError("bad_field", f"{name} must be 2 to 128 hexadecimal digits, an even number", request_id)
        return value.lower()
    if rule.kind == "banzai_choice":
        if value not in ("resume", "reset"):
            raise ProtocolError("bad_field", f"{name} must be resume or reset", request_id)
        return value
    if rule.kind == "action":
        if not isinstance(value, str) or value not in PLAYER_ACTIONS:
            known = ", ".join(sorted(PLAYER_ACTIONS))
            raise ProtocolError("bad_action", f"action must be one of {known}", request_id)
        return PLAYER_ACTIONS[value]
    raise AssertionError(f"unknown field rule {rule.kind}")  # pragma: no cover - programming error


def _check_action_amount(fields: dict[str, Any], request_id: str | None) -> None:
    action = fields["action"]
    if action in ACTIONS_WITH_AMOUNT and "amount" not in fields:
        raise ProtocolError("missing_field", f"{action} needs an amount (the total bet in this round)", request_id)
    if action not in ACTIONS_WITH_AMOUNT and "amount" in fields:
        raise ProtocolError("unexpected_field", f"{action} takes no amount", request_id)


class TokenBucket:
    """Per-connection rate limit: ``capacity`` messages at once, refilled at ``rate`` per second.

    ``take(now)`` says whether one more message is allowed; ``refusals`` counts refused messages since the bucket was
    last full, so a consumer can close a socket that keeps flooding.
    """

    def __init__(self, capacity: float, rate: float, now: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.updated = now
        self.refusals = 0

    def take(self, now: float) -> bool:
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            if self.tokens >= self.capacity - 1:
                self.refusals = 0
            return True
        self.refusals += 1
        return False
