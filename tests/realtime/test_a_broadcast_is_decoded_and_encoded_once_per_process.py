"""A channel-layer group message (the lobby's, UTH's) reaches every member of the group, and a server process decodes
it once for all of them, not once per socket (the live-table section of docs/benchmarks.md has the saving measured).
Cash-table broadcasts do not use the layer: tests/realtime/test_table_broadcasts_reach_the_sockets_of_the_process.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.layers import get_channel_layer

from poker_site.channel_layers import SharedDecodingPubSubChannelLayer
from tests.realtime.conftest import run

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
