"""Oversized frames over the real server (daphne as the launcher runs it): a message above the server's cap drops the
connection before it is buffered for the application (autobahn fails the connection by dropping it, so the client sees
no close frame, or 1009 "message too big"); one between the protocol's 4,096
characters and that cap still reaches the consumer, which answers ``message_too_large`` and closes with 4009."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from poker_site.launcher import WEBSOCKET_MAXIMUM_MESSAGE_BYTES
from tests.realtime.conftest import seed_catalog
from tests.realtime.live_site import live_site

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


async def close_code_after_sending(url: str, origin: str, payload: str) -> tuple[list[dict[str, object]], int | None]:
    """Send ``payload`` once; return the frames received until the server closed the socket, and its close code."""
    received: list[dict[str, object]] = []
    async with connect(url, origin=origin, max_size=2**22) as socket:  # type: ignore[arg-type]
        received.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=30)))  # the snapshot
        await socket.send(payload)
        try:
            while True:
                received.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=30)))
        except ConnectionClosed as closed:
            return received, closed.rcvd.code if closed.rcvd is not None else None


def test_a_frame_above_the_server_cap_closes_the_socket_and_one_below_it_gets_the_protocol_error(
    tmp_path: Path,
) -> None:
    from games.models import Stake, Table
    from games.services import table_open

    seed_catalog()
    table: Table = table_open(Stake.objects.get(game_type__code="holdem", label="NL10"))
    with live_site(tmp_path) as base_url:
        url = f"{base_url.replace('http', 'ws')}/ws/tables/{table.pk}/"
        huge = json.dumps({"type": "ping", "padding": "x" * (WEBSOCKET_MAXIMUM_MESSAGE_BYTES + 1)})
        frames, code = asyncio.run(close_code_after_sending(url, base_url, huge))
        assert code in {None, 1009}
        assert [frame["type"] for frame in frames] == ["snapshot"]  # the application never saw the frame

        large = json.dumps({"type": "ping", "padding": "x" * 8000})
        frames, code = asyncio.run(close_code_after_sending(url, base_url, large))
        assert code == 4009
        assert (frames[-1]["type"], frames[-1]["code"]) == ("error", "message_too_large")
