"""Provably fair decks (issue 29): the table socket's ``client_seed`` message carries 1 to 64 bytes as hexadecimal
digits (lower-cased on the way in); anything else is refused by the protocol with ``bad_field`` before any service
runs, and the message takes no other field."""

from __future__ import annotations

import json

import pytest

from games.runtime.protocol import TABLE_MESSAGES, ProtocolError, parse_client_message


def parse(message: object) -> object:
    return parse_client_message(json.dumps(message), TABLE_MESSAGES)


@pytest.mark.parametrize("seed", ["00", "AbCd", "ff" * 64])
def test_hex_of_1_to_64_bytes_is_accepted_in_lower_case(seed: str) -> None:
    message = parse({"type": "client_seed", "seed": seed, "request_id": "s-1"})
    assert message.fields == {"seed": seed.lower()}  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", ["", "0", "abc", "zz", "ff" * 65, 12, None, ["00"], "00 11"])
def test_anything_else_is_refused(seed: object) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse({"type": "client_seed", "seed": seed})
    assert refused.value.code == "bad_field"


def test_the_seed_is_required_and_nothing_else_is_taken() -> None:
    with pytest.raises(ProtocolError) as missing:
        parse({"type": "client_seed"})
    assert missing.value.code == "missing_field"
    with pytest.raises(ProtocolError) as extra:
        parse({"type": "client_seed", "seed": "00", "seat": 1})
    assert extra.value.code == "unexpected_field"
