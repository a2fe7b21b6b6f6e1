"""With table actors on (issue 27), a table socket sends a player's action to the table's owner and waits for the
answer on its own event loop (``commands.table_owner_ask_on_the_loop``), not in a worker thread through
``commands.execute``: the action is applied and answered ``ok``, a refusal arrives with the code and message the
thread path gives for the same action, and with no owner the socket answers ``table_unavailable`` once the reply
time has passed; nothing changes then."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat, Table
from games.runtime import commands
from games.runtime.commands import CommandRefused
from games.runtime.protocol import ClientMessage
from tests.realtime.conftest import open_socket, run
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)


def executed_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The message types the socket hands to ``commands.execute`` (the worker-thread path) from now on."""
    seen: list[str] = []
    original = commands.execute

    def recording(user: Any, table: Any, message: ClientMessage) -> dict[str, Any]:
        seen.append(message.type)
        return original(user, table, message)

    monkeypatch.setattr(commands, "execute", recording)
    return seen


def test_an_action_over_the_socket_is_applied_by_the_owner_and_answered_without_a_worker_thread(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TABLE_ACTORS = True
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}
    in_threads = executed_in_a_thread(monkeypatch)

    with table_owner_running() as owner:
        wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")
        live = wait_for(lambda: owner.tables[table.pk].actor.live, "the owner holding the dealt hand")
        first = live.hand.acting_seat
        bystander = next(seat for seat in by_seat if seat != first)
        refused_in_a_thread = refusal_in_a_thread(by_seat[bystander], table)

        async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
            acting = await open_socket(f"/ws/tables/{table.pk}/", by_seat[first])
            other = await open_socket(f"/ws/tables/{table.pk}/", by_seat[bystander])
            try:
                await other.send({"type": "act", "action": "call", "request_id": "out-of-turn"})
                refused = await other.receive_until(lambda m: m.get("request_id") == "out-of-turn")
                await acting.send({"type": "act", "action": "call", "request_id": "mine"})
                answered = await acting.receive_until(lambda m: m.get("request_id") == "mine")
                return refused, answered
            finally:
                await acting.close()
                await other.close()

        refused, answered = run(scenario)
        assert answered["type"] == "ok", answered
        assert answered["of"] == "act"
        after = owner.tables[table.pk].actor.live
        assert after is not None
        assert after.hand.acting_seat != first  # applied before the answer came

    assert refused["type"] == "error"
    assert (refused["code"], refused["message"]) == refused_in_a_thread
    assert refused["code"] == "not_your_turn"
    assert "act" not in in_threads


def refusal_in_a_thread(user: Any, table: Table) -> tuple[str, str]:
    """What the thread path (``commands.execute`` sends an action on with ``table_owner_ask``; the REST API takes it)
    refuses for ``user``'s call now."""
    with pytest.raises(CommandRefused) as refused:
        commands.table_owner_ask(table, user, "act", {"action": "call"})
    return refused.value.code, refused.value.message


def test_with_no_owner_the_socket_answers_table_unavailable_once_the_reply_time_has_passed(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = 1.0
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(2)]
    seat_players(table, users, 1_000)

    async def scenario() -> dict[str, Any]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", users[0])
        try:
            await socket.send({"type": "act", "action": "fold", "request_id": "nobody-home"})
            return await socket.receive_until(lambda m: m.get("request_id") == "nobody-home", timeout=30)
        finally:
            await socket.close()

    answer = run(scenario)

    assert answer["type"] == "error"
    assert answer["code"] == "table_unavailable"
    assert Table.objects.get(pk=table.pk).current_hand_id is None  # nobody dealt, nothing changed
