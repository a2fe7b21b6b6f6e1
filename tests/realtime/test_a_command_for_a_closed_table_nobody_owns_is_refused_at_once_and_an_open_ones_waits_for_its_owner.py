"""With table actors on, a command that plays at a table enters the table's stream only while a runtime process holds
the table's lease (asked in the same Redis step as the append). When nobody holds it, the sender reads the table's
status, the one database read of this path: a closed table (nobody will ever own it) is refused at once with
``table_closed``, even when the socket has not learnt of the close yet, and so is the REST leave; nothing changes and
nothing is left in the stream. An open table that nobody owns yet gets the command all the same: its first owner
answers it once it claims the table, and a command at an owned table is answered by its owner as before (a client
seed here)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation

from games.cash.table_closing import table_close
from games.models import HandEvent, Seat, Table, TableStatus
from games.runtime import commands, inbox
from games.runtime.actor import CONNECTION_REPORTS
from games.runtime.protocol import ClientMessage
from tests.realtime.conftest import Socket, open_socket, run
from tests.realtime.table_owner import table_owner_running
from tests.tables.support import cash, open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

OWNER_REPLY_SECONDS = 60.0
"""Far longer than the test waits for a refusal: a refusal that came from waiting for an owner fails."""

ANSWER_SECONDS = 5.0
"""How long the test waits for a refusal."""


def what_could_change(users: list[Any], table: Table) -> dict[str, Any]:
    return {
        "balances": [cash(user) for user in users],
        "events": list(HandEvent.objects.filter(table=table).values_list("sequence", "kind")),
        "seats": list(Seat.objects.filter(table=table).order_by("number").values_list("number", "user_id", "status")),
        "commands in the stream": commands_in_the_stream(table),
    }


def commands_in_the_stream(table: Table) -> list[str]:
    """The types of the stream's entries but the sockets' own connection reports (a socket that holds its table for
    open reports its opening and closing)."""
    entries = inbox.waiting_client().xrange(inbox.stream_key(table.pk))
    types = [fields[b"type"].decode() for _entry_id, fields in entries]
    return [kind for kind in types if kind not in CONNECTION_REPORTS]


async def answer_to(socket: Socket, frame: dict[str, Any], timeout: float = ANSWER_SECONDS) -> dict[str, Any]:
    """Send ``frame`` and return the answer that names its request id, which must come within ``timeout``."""
    await socket.send(frame)
    return await socket.receive_until(lambda message: message.get("request_id") == frame["request_id"], timeout)


def test_a_command_for_a_table_closed_before_its_socket_learnt_of_it_is_refused_at_once(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    table = open_table("holdem", "NL10")
    players = [player(), player()]
    seat_players(table, players, 1_000)

    def closed_behind_the_sockets_back() -> dict[str, Any]:
        # The row closes, and no event says so: the socket still holds the table for open, as one does while the
        # table_closed event is on its way.
        Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
        return what_could_change(players, table)

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", players[0])
        try:
            snapshot = await socket.receive_until(lambda message: message["type"] == "snapshot")
            assert snapshot["snapshot"]["table"]["status"] == "open"
            before = await database_sync_to_async(closed_behind_the_sockets_back)()
            answers = [
                await answer_to(socket, {"type": "act", "action": "fold", "request_id": "fold"}),
                await answer_to(socket, {"type": "sit_out", "request_id": "sit-out"}),
            ]
            return before, answers
        finally:
            await socket.close()

    with translation.override("en"):
        before, answers = run(scenario)

    assert [(answer["type"], answer["code"]) for answer in answers] == [("error", "table_closed")] * 2
    assert answers[0]["message"] == "This table has closed: nothing more is played here."
    assert what_could_change(players, table) == before
    assert before["commands in the stream"] == []


def test_the_rest_leave_and_a_command_in_a_worker_thread_at_a_closed_table_are_refused_at_once(
    settings: Any,
) -> None:
    table = open_table("holdem", "NL10")
    players = [player(), player()]
    seat_players(table, players, 1_000)
    table_close(table, reason="The table is moved to another server.")
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    before = what_could_change(players, table)
    client = Client()
    client.force_login(players[0])

    started = time.monotonic()
    response = client.post(f"/api/games/tables/{table.pk}/leave/", json.dumps({}), content_type="application/json")
    with pytest.raises(commands.CommandRefused) as refused:
        commands.execute(players[1], table, ClientMessage("sit_out"))
    took = time.monotonic() - started

    assert response.status_code == 409
    assert response.json()["code"] == "table_closed"
    assert refused.value.code == "table_closed"
    assert took < ANSWER_SECONDS
    assert what_could_change(players, table) == before
    assert before["commands in the stream"] == []


def test_a_command_at_an_open_table_nobody_owns_yet_is_answered_by_its_first_owner(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    table = open_table("holdem", "NL10")
    players = [player(), player()]
    seat_players(table, players, 1_000)
    owners = contextlib.ExitStack()

    def sit_out_in_the_stream() -> bool:
        return "sit_out" in commands_in_the_stream(table)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", players[0])
        try:
            await socket.receive_until(lambda message: message["type"] == "snapshot")
            await socket.send({"type": "sit_out", "request_id": "before-any-owner"})
            while not await asyncio.to_thread(sit_out_in_the_stream):  # waiting for its owner, not refused
                assert await socket.nothing_more(0.05)
            await asyncio.to_thread(owners.enter_context, table_owner_running())
            waited = await socket.receive_until(
                lambda message: message.get("request_id") == "before-any-owner", timeout=OWNER_REPLY_SECONDS
            )
            owned = await answer_to(socket, {"type": "client_seed", "seed": "00ff" * 8, "request_id": "once-owned"})
            return waited, owned
        finally:
            await socket.close()
            await asyncio.to_thread(owners.close)

    waited, owned = run(scenario)

    assert (waited["type"], waited["of"]) == ("ok", "sit_out")
    assert (owned["type"], owned["of"]) == ("ok", "client_seed")
