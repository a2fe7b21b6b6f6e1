"""A table broadcast reaches every socket of the group, and a server process decodes the channel message once and
encodes its ``events`` frame once for all of them (not once per socket); the sockets still receive exactly what they
received before (the live-table section of docs/benchmarks.md has the saving measured)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import consumers
from poker_site.channel_layers import SharedDecodingPubSubChannelLayer
from tests.realtime.conftest import make_table, open_socket, run
from tests.realtime.events_helper import append_events, public

pytestmark = pytest.mark.django_db(transaction=True)


class CountingDecoder:
    """Counts the serializer's decodings while passing them through."""

    def __init__(self, layer: SharedDecodingPubSubChannelLayer) -> None:
        self.original = layer._serializer.deserialize
        self.calls = 0

    def __call__(self, message: bytes) -> Any:
        self.calls += 1
        return self.original(message)


def test_the_site_uses_the_shared_decoding_layer() -> None:
    async def scenario() -> None:
        assert isinstance(get_channel_layer(), SharedDecodingPubSubChannelLayer)

    run(scenario)


def test_two_members_of_a_group_get_one_decoding_of_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        layer = get_channel_layer()
        assert isinstance(layer, SharedDecodingPubSubChannelLayer)
        decoder = CountingDecoder(layer)
        monkeypatch.setattr(layer._serializer, "deserialize", decoder)
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("shared-decoding", first)
        await layer.group_add("shared-decoding", second)

        await layer.group_send("shared-decoding", {"type": "note", "text": "once"})
        received_first, received_second = await layer.receive(first), await layer.receive(second)
        assert received_first == {"type": "note", "text": "once"}
        assert received_second is received_first
        assert decoder.calls == 1

        # The same content published again is another delivery: decoded again, a new message.
        await layer.group_send("shared-decoding", {"type": "note", "text": "once"})
        again_first, again_second = await layer.receive(first), await layer.receive(second)
        assert again_first == received_first
        assert again_first is not received_first
        assert again_second is again_first
        assert decoder.calls == 2

    run(scenario)


def test_spectators_of_a_table_get_the_same_events_frame_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table()
    encoded_events_frames: list[str] = []
    original_encode = consumers.encode

    def counting_encode(message: dict[str, Any]) -> str:
        frame = original_encode(message)
        if message.get("type") == "events":
            encoded_events_frames.append(frame)
        return frame

    monkeypatch.setattr(consumers, "encode", counting_encode)

    async def scenario() -> None:
        sockets = [await open_socket(f"/ws/tables/{table.pk}/") for _ in range(3)]
        for socket in sockets:
            assert (await socket.receive())["type"] == "snapshot"
        await database_sync_to_async(append_events)(
            table.pk, public("seat_taken", seat=1), public("seat_taken", seat=2)
        )
        frames = []
        for socket in sockets:
            message = await socket.receive_until(lambda m: m["type"] == "events")
            assert [event["sequence"] for event in message["events"]] == [
                table.last_sequence + 1,
                table.last_sequence + 2,
            ]
            frames.append(socket.received[-1])
        assert frames[0] == frames[1] == frames[2]
        assert json.loads(frames[0])["table_id"] == table.pk
        assert encoded_events_frames == [frames[0]]
        for socket in sockets:
            await socket.close()

    run(scenario)
