"""A table that has closed (a Sit & Go's table when the tournament ended, a cash table closed by staff) plays no more
and has no owner. Every command that plays at a table (``act`` and ``commands.OWNER_COMMANDS``: sitting out and in,
the client seed, and the cash tables' leave, top-up and sitting out at the next big blind) sent on its socket is
answered at once, by the socket, from what it knows of its table: the status in the snapshot it sent, or the
``table_closed`` event it relayed. The answer is ``table_closed`` with a sentence saying so (a tournament table's
cash-table commands keep their own refusal, ``not_allowed_now``), never ``table_unavailable`` after waiting for an
owner: the reply time is far longer than the test waits, and with table actors on a lease still names an owner, as it
does until the owner gives the closed table back at its next scan, so a command sent on would wait. Nothing changes:
the table's events and seats, the players' balances, and nothing reaches the table's stream (not even the socket's
connection report: a closed table has no seat to report it for)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from games.cash.table_closing import table_close
from games.models import HandEvent, Seat, Table, TableStatus
from games.runtime import commands, inbox
from tests.realtime.conftest import Socket, open_socket, run
from tests.tables.support import cash, open_table, player, seat_players
from tests.tournaments.support import fresh, play, register_players, sit_and_go
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

OWNER_REPLY_SECONDS = 60.0
"""Far longer than the test waits for an answer: an answer that came from waiting for an owner fails."""

ANSWER_SECONDS = 5.0
"""How long the test waits for each answer."""

FRAMES = {
    "act": {"type": "act", "action": "fold"},
    "sit_out": {"type": "sit_out"},
    "sit_in": {"type": "sit_in"},
    "client_seed": {"type": "client_seed", "seed": "00ff" * 8},
    "sit_out_next_big_blind": {"type": "sit_out_next_big_blind", "enabled": True},
    "leave": {"type": "leave"},
    "top_up": {"type": "top_up", "amount": 500},
}
"""One frame of every command that plays at a table."""

CASH_TABLE_COMMANDS = {"leave", "top_up", "sit_out_next_big_blind"}
"""The commands of ``FRAMES`` a tournament table refuses as cash-table commands, open or closed."""


def test_the_frames_are_every_command_that_plays_at_a_table() -> None:
    assert set(FRAMES) == {"act", *commands.OWNER_COMMANDS}
    assert all(commands.plays_at_the_table(message_type) for message_type in FRAMES)


def what_could_change(users: list[Any], table: Table) -> dict[str, Any]:
    return {
        "balances": [cash(user) for user in users],
        "events": list(HandEvent.objects.filter(table=table).values_list("sequence", "kind")),
        "seats": list(Seat.objects.filter(table=table).order_by("number").values_list("number", "user_id", "status")),
        "table": Table.objects.filter(pk=table.pk).values_list("status", flat=True).get(),
        "stream entries": inbox.waiting_client().xlen(inbox.stream_key(table.pk)),
    }


def a_lease_held_by_an_owner_that_reads_nothing(settings: Any, table: Table) -> None:
    """What a closed table's owner leaves until its next scan gives the table back: a live lease (made long enough to
    outlast the test), so a command sent to the table's stream would wait for an answer."""
    settings.TABLE_LEASE_MILLISECONDS = int(OWNER_REPLY_SECONDS * 2_000)
    assert inbox.lease_store().acquire(table.pk, "an-owner-that-reads-nothing") is not None


async def answer_to(socket: Socket, frame: dict[str, Any]) -> dict[str, Any]:
    """Send ``frame`` and return the answer that names its request id, which must come within ANSWER_SECONDS."""
    await socket.send(frame)
    return await socket.receive_until(
        lambda message: message.get("request_id") == frame["request_id"], timeout=ANSWER_SECONDS
    )


def answers_at(table: Table, user: Any) -> dict[str, dict[str, Any]]:
    """The answer to each of ``FRAMES`` sent on ``user``'s socket at ``table``, by command."""

    async def scenario() -> dict[str, dict[str, Any]]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", user)
        try:
            snapshot = await socket.receive_until(lambda message: message["type"] == "snapshot")
            assert snapshot["snapshot"]["table"]["status"] == "closed"
            return {
                message_type: await answer_to(socket, {**frame, "request_id": f"at-a-closed-table-{message_type}"})
                for message_type, frame in FRAMES.items()
            }
        finally:
            await socket.close()

    # The refusals are translated: read in English, whatever language an earlier test left active in this thread.
    with translation.override("en"):
        return run(scenario)


@pytest.mark.parametrize("actors", [False, True], ids=["durable path", "table actors on"])
def test_every_command_that_plays_at_a_finished_sit_and_gos_table_is_refused_at_once(
    settings: Any, actors: bool
) -> None:
    # The players act through the services, not from pages: none of them is absent and acted for (TRN-04).
    settings.TOURNAMENT_SITS_OUT_ABSENT_PLAYERS = False
    tournament = sit_and_go(seats=2)
    players = register_players(tournament, 2)
    table = Table.objects.get(tournament_link__tournament=tournament)
    play(tournament)
    assert fresh(tournament).status == TournamentStatus.FINISHED
    settings.TABLE_ACTORS = actors
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    if actors:
        a_lease_held_by_an_owner_that_reads_nothing(settings, table)
    before = what_could_change(players, table)

    for user in players:
        answers = answers_at(table, user)

        for message_type, answer in answers.items():
            assert answer["type"] == "error", (message_type, answer)
            if message_type in CASH_TABLE_COMMANDS:
                assert answer["code"] == "not_allowed_now", (message_type, answer)
            else:
                assert (answer["code"], answer["message"]) == (
                    "table_closed",
                    "This table has closed: nothing more is played here.",
                ), (message_type, answer)
                assert "to_table" not in answer

    assert what_could_change(players, table) == before
    assert before["table"] == TableStatus.CLOSED
    assert before["stream entries"] == 0


@pytest.mark.parametrize("actors", [False, True], ids=["durable path", "table actors on"])
def test_every_command_that_plays_at_a_cash_table_closed_by_staff_is_refused_at_once(
    settings: Any, actors: bool
) -> None:
    table = open_table("holdem", "NL10")
    players = [player(), player()]
    seat_players(table, players, 1_000)
    table_close(table, reason="The table is moved to another server.")
    settings.TABLE_ACTORS = actors
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    if actors:
        a_lease_held_by_an_owner_that_reads_nothing(settings, table)
    before = what_could_change(players, table)

    answers = answers_at(table, players[0])

    assert {message_type: (answer["type"], answer["code"]) for message_type, answer in answers.items()} == {
        message_type: ("error", "table_closed") for message_type in FRAMES
    }
    assert what_could_change(players, table) == before
    assert before["stream entries"] == 0


def test_a_socket_open_when_its_table_closes_refuses_the_next_command_at_once(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    table = open_table("holdem", "NL10")
    players = [player(), player()]
    seat_players(table, players, 1_000)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", players[0])
        try:
            snapshot = await socket.receive_until(lambda message: message["type"] == "snapshot")
            assert snapshot["snapshot"]["table"]["status"] == "open"
            await database_sync_to_async(table_close)(table, reason="The table is moved to another server.")
            await socket.receive_until(
                lambda message: (
                    message["type"] == "events" and any(event["type"] == "table_closed" for event in message["events"])
                )
            )
            # Only now does the closed table's lease stay behind, as its owner's does until its next scan.
            await database_sync_to_async(a_lease_held_by_an_owner_that_reads_nothing)(settings, table)
            before = await database_sync_to_async(what_could_change)(players, table)
            answer = await answer_to(socket, {"type": "sit_out", "request_id": "after-the-close"})
            return before, answer
        finally:
            await socket.close()

    with translation.override("en"):
        before, answer = run(scenario)

    assert (answer["type"], answer["code"]) == ("error", "table_closed")
    assert answer["message"] == "This table has closed: nothing more is played here."
    assert what_could_change(players, table) == before
