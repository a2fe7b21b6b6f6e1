"""Table chat over the table socket (issue 22): a seated player's ``chat`` line is answered ``ok`` with its sequence
number and reaches every socket on the table, the spectators' included, as a numbered ``chat_message`` event (so a
client that missed it gets it back by ``resync``); a refused line is answered with an error to the sender alone and
nothing is broadcast or stored."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.realtime.conftest import deposit, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def seated(table: Any, *names: str) -> list[Any]:
    from games.services import seat_take

    users = []
    for number, name in enumerate(names, start=1):
        user = make_user(name)
        deposit(user, 5000)
        seat_take(user, table, 1000, seat_number=number)
        users.append(user)
    return users


def chat_rows(table_id: int) -> list[str]:
    from games.models import HandEvent

    return [row.payload["text"] for row in HandEvent.objects.filter(table_id=table_id, kind="chat_message")]


def test_a_line_reaches_every_socket_on_the_table_with_its_sequence() -> None:
    table = make_table("holdem", "NL10")
    anne, bert = seated(table, "anne", "bert")

    async def scenario() -> None:
        sockets = [
            await open_socket(f"/ws/tables/{table.pk}/", anne),
            await open_socket(f"/ws/tables/{table.pk}/", bert),
            await open_socket(f"/ws/tables/{table.pk}/"),
        ]
        snapshots = [await socket.receive_until(lambda m: m["type"] == "snapshot") for socket in sockets]
        base = snapshots[0]["sequence"]
        await sockets[0].send({"type": "chat", "text": "<b>good luck</b>", "request_id": "chat-1"})
        ok = await sockets[0].receive_until(lambda m: m.get("request_id") == "chat-1")
        assert ok == {"type": "ok", "request_id": "chat-1", "of": "chat", "sequence": base + 1}
        for socket in sockets:
            message = await socket.receive_until(lambda m: m["type"] == "events")
            (event,) = message["events"]
            assert event["sequence"] == base + 1
            assert event["type"] == "chat_message"
            assert (event["name"], event["seat"], event["text"]) == ("anne", 1, "<b>good luck</b>")
        # A client that missed it asks again from its last sequence and gets the same line.
        await sockets[2].send({"type": "resync", "since": base, "request_id": "again"})
        answer = await sockets[2].receive_until(lambda m: m.get("request_id") == "again")
        assert [event["text"] for event in answer["events"]] == ["<b>good luck</b>"]
        for socket in sockets:
            await socket.close()

    run(scenario)
    assert chat_rows(table.pk) == ["<b>good luck</b>"]


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "chat", "text": "   "}, "chat_empty"),
        ({"type": "chat", "text": "x" * 201}, "chat_too_long"),
        ({"type": "chat", "text": "line\nbreak"}, "chat_control_characters"),
        ({"type": "chat", "text": 12}, "bad_field"),
        ({"type": "chat"}, "missing_field"),
        ({"type": "chat", "text": "hi", "seat": 2}, "unexpected_field"),
    ],
)
def test_a_refused_line_is_answered_to_the_sender_alone(frame: dict[str, Any], code: str) -> None:
    table = make_table("holdem", "NL10")
    anne, bert = seated(table, "anne", "bert")

    async def scenario() -> None:
        sender = await open_socket(f"/ws/tables/{table.pk}/", anne)
        other = await open_socket(f"/ws/tables/{table.pk}/", bert)
        await sender.receive_until(lambda m: m["type"] == "snapshot")
        await other.receive_until(lambda m: m["type"] == "snapshot")
        await other.drain()
        await sender.send({**frame, "request_id": "bad"})
        error = await sender.receive_until(lambda m: m.get("request_id") == "bad")
        assert error["type"] == "error"
        assert error["code"] == code
        assert error["message"]
        assert await other.nothing_more(0.5)
        await sender.close()
        await other.close()

    run(scenario)
    assert chat_rows(table.pk) == []


def test_a_watcher_and_a_muted_player_are_refused_with_a_clear_error() -> None:
    from games.chat.services import chat_mute_create
    from tests.tables.back_office import support_agent

    table = make_table("holdem", "NL10")
    anne, _bert = seated(table, "anne", "bert")
    watcher = make_user("walter")
    mute = chat_mute_create(support_agent(), anne, 15, "spam")

    async def scenario() -> None:
        watching = await open_socket(f"/ws/tables/{table.pk}/", watcher)
        anonymous = await open_socket(f"/ws/tables/{table.pk}/")
        muted = await open_socket(f"/ws/tables/{table.pk}/", anne)
        answers = {}
        for name, socket in (("watcher", watching), ("anonymous", anonymous), ("muted", muted)):
            await socket.receive_until(lambda m: m["type"] == "snapshot")
            await socket.send({"type": "chat", "text": "hello", "request_id": name})
            answers[name] = await socket.receive_until(lambda m, name=name: m.get("request_id") == name)
            await socket.close()
        assert answers["watcher"]["code"] == "chat_not_seated"
        assert answers["anonymous"]["code"] == "not_authenticated"
        assert answers["muted"]["code"] == "chat_muted"
        assert answers["muted"]["until"] == await database_sync_to_async(lambda: mute.ends_at.isoformat())()

    run(scenario)
    assert chat_rows(table.pk) == []
