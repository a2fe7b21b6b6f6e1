"""Every client frame is validated strictly before anything is called: shape, types, bounds, size (docs/protocol.md)."""

from __future__ import annotations

import json

import pytest

from games.runtime.protocol import (
    LOBBY_MESSAGES,
    MAXIMUM_AMOUNT,
    MAXIMUM_MESSAGE_CHARACTERS,
    TABLE_MESSAGES,
    ProtocolError,
    TokenBucket,
    parse_client_message,
)


def parse(message: object) -> object:
    return parse_client_message(json.dumps(message), TABLE_MESSAGES)


def refusal_code(text: str | None, allowed: dict = TABLE_MESSAGES) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text, allowed)
    return caught.value.code


def test_a_raise_with_an_integer_amount_is_accepted_and_named_as_the_engine_names_it() -> None:
    message = parse({"type": "act", "action": "raise", "amount": 250, "request_id": "r-1"})
    assert message.type == "act"
    assert message.fields == {"action": "raise_to", "amount": 250}
    assert message.request_id == "r-1"


@pytest.mark.parametrize("action", ["fold", "check", "call", "all_in"])
def test_actions_without_amount_are_accepted_bare(action: str) -> None:
    assert parse({"type": "act", "action": action}).fields == {"action": action}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "bad_json"),
        ("NaN", "bad_json"),
        ('{"type": "act", "action": "bet", "amount": Infinity}', "bad_json"),
        ("[1, 2]", "not_an_object"),
        ('"act"', "not_an_object"),
        ("null", "not_an_object"),
        ("[" * 2000 + "]" * 2000, "bad_json"),
        ("{}", "missing_type"),
        ('{"type": 5}', "missing_type"),
        ('{"type": "shutdown"}', "unknown_type"),
        ('{"type": "__init__"}', "unknown_type"),
    ],
)
def test_malformed_frames_are_refused_with_a_code(text: str, code: str) -> None:
    assert refusal_code(text) == code


def test_binary_frames_are_refused() -> None:
    assert refusal_code(None) == "binary_not_supported"


def test_frames_over_the_size_limit_are_refused_before_parsing() -> None:
    padding = "x" * MAXIMUM_MESSAGE_CHARACTERS
    assert refusal_code(json.dumps({"type": "ping", "request_id": padding})) == "message_too_large"


@pytest.mark.parametrize(
    "amount",
    [True, False, 2.5, 250.0, "250", "1e3", None, [250], {"value": 250}, 0, -1, -250, MAXIMUM_AMOUNT + 1, 10**30],
)
def test_amounts_must_be_positive_json_integers_within_bounds(amount: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": "bet", "amount": amount})
    assert caught.value.code == "bad_amount"


@pytest.mark.parametrize("amount", [True, 3.0, "100", -5, 0])
def test_buy_ins_and_top_ups_follow_the_same_amount_rules(amount: object) -> None:
    for message in (
        {"type": "seat_me", "buy_in": amount},
        {"type": "take_seat", "buy_in": amount},
        {"type": "top_up", "amount": amount},
    ):
        with pytest.raises(ProtocolError) as caught:
            parse(message)
        assert caught.value.code == "bad_amount"


def test_bet_and_raise_need_an_amount_and_other_actions_refuse_one() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": "raise"})
    assert caught.value.code == "missing_field"
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": "call", "amount": 10})
    assert caught.value.code == "unexpected_field"


def test_a_player_cannot_name_a_seat_to_act_for() -> None:
    """The seat comes from the logged-in user, never from the message."""
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": "fold", "seat": 3})
    assert caught.value.code == "unexpected_field"


@pytest.mark.parametrize("action", ["Fold", "raise_by", "timeout", "post_blind", "", 1, None])
def test_unknown_or_forced_actions_are_refused(action: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": action})
    assert caught.value.code == "bad_action"


@pytest.mark.parametrize("seat", [0, 11, -1, True, "3", 2.0])
def test_seat_numbers_are_small_positive_integers(seat: object) -> None:
    """The retired ``take_seat`` is still parsed (to be refused with a pointer to ``seat_me``, CASH-04)."""
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "take_seat", "buy_in": 1000, "seat": seat})
    assert caught.value.code == "bad_seat"


@pytest.mark.parametrize("since", [-1, 1.5, "7", True, None, 2**60])
def test_resync_needs_a_non_negative_integer_sequence(since: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "resync", "since": since})
    assert caught.value.code == "bad_sequence"


@pytest.mark.parametrize("enabled", [1, 0, "true", None])
def test_switches_take_only_true_or_false(enabled: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "sit_out_next_big_blind", "enabled": enabled})
    assert caught.value.code == "bad_field"


@pytest.mark.parametrize("request_id", ["", "x" * 65, "has space", "<script>", 17, ["a"]])
def test_request_ids_are_short_plain_strings(request_id: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "ping", "request_id": request_id})
    assert caught.value.code == "bad_request_id"


def test_errors_echo_a_valid_request_id() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": "bet", "amount": -1, "request_id": "abc"})
    assert caught.value.request_id == "abc"


def test_the_lobby_socket_knows_only_its_own_messages() -> None:
    assert parse_client_message('{"type": "refresh"}', LOBBY_MESSAGES).type == "refresh"
    assert refusal_code('{"type": "act", "action": "fold"}', LOBBY_MESSAGES) == "unknown_type"


def test_the_token_bucket_allows_a_burst_then_the_sustained_rate() -> None:
    bucket = TokenBucket(capacity=3, rate=2, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.refusals == 1
    assert bucket.take(0.5)  # half a second refills one token
    assert not bucket.take(0.5)
    assert bucket.refusals == 2


def test_an_action_may_name_the_hand_it_answers() -> None:
    message = parse({"type": "act", "action": "call", "hand_id": 88})
    assert message.fields == {"action": "call", "hand_id": 88}  # type: ignore[attr-defined]


@pytest.mark.parametrize("hand_id", [-1, 1.5, "88", True, None, [88], 2**60])
def test_the_hand_an_action_names_is_a_non_negative_integer(hand_id: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse({"type": "act", "action": "call", "hand_id": hand_id})
    assert caught.value.code in {"bad_sequence", "bad_field"}
