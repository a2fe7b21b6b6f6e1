"""A JSON frame nested deeper than the decoder's recursion allows is a bad frame like any other unreadable JSON: an
error frame, and the socket goes on answering (issue 25; the REST side is
tests/foundation/test_a_deeply_nested_json_body_is_answered_400.py)."""

from __future__ import annotations

import pytest

from tests.realtime.conftest import ConnectionClosed, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)

ISSUE_BODY = '{"a":' * 5000
DEEP_BUT_SMALL = "[" * 4000
"""Nested past the decoder's recursion, yet under the sockets' 4,096-character limit for a frame."""


def test_the_table_and_lobby_sockets_answer_a_deeply_nested_frame_with_bad_json() -> None:
    table = make_table()
    mallory = make_user("mallory")

    async def scenario() -> None:
        for path in (f"/ws/tables/{table.pk}/", "/ws/lobby/"):
            socket = await open_socket(path, mallory)
            await socket.receive()
            await socket.send(DEEP_BUT_SMALL)
            answer = await socket.receive()
            assert answer["type"] == "error", path
            assert answer["code"] == "bad_json", path
            await socket.send('{"type": "ping"}' if path == "/ws/lobby/" else '{"type": "resync", "since": 0}')
            assert (await socket.receive())["type"] != "error", "the socket still answers"
            await socket.close()

    run(scenario)


def test_the_issues_body_as_a_socket_frame_is_refused_as_too_large() -> None:
    table = make_table()
    mallory = make_user("mallory")

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", mallory)
        await socket.receive()
        await socket.send(ISSUE_BODY)
        assert (await socket.receive())["code"] == "message_too_large"
        with pytest.raises(ConnectionClosed):
            await socket.receive()

    run(scenario)
