"""Bad input changes nothing (architecture, issue 30): a socket frame whose JSON object repeats a key is refused with
``repeated_key`` on the table and UTH sockets. Before, the decoder kept the last value, so a frame carrying
``"amount": -5`` and ``"amount": 1000`` was read as a top-up of 1000 whatever the sender's checks had looked at."""

from __future__ import annotations

import pytest

from games.runtime.protocol import TABLE_MESSAGES, ProtocolError, parse_client_message
from games.uth.protocol import parse_uth_message


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "top_up", "amount": -5, "amount": 1000}',
        '{"type": "top_up", "type": "top_up", "amount": 1000}',
        '{"type": "top_up", "amount": 1000, "request_id": "a", "request_id": "b"}',
    ],
)
def test_a_table_frame_with_a_repeated_key_is_refused(frame: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(frame, TABLE_MESSAGES)
    assert refused.value.code == "repeated_key"
    assert "appears more than once" in refused.value.message


def test_a_uth_frame_with_a_repeated_key_is_refused() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_uth_message('{"type": "bet", "spot": "ante", "amount": 100, "amount": 100000}')
    assert refused.value.code == "repeated_key"


def test_the_same_frames_without_the_repeat_are_taken() -> None:
    assert parse_client_message('{"type": "top_up", "amount": 1000}', TABLE_MESSAGES).fields == {"amount": 1000}
    assert parse_uth_message('{"type": "bet", "spot": "ante", "amount": 100}').fields["amount"] == 100
