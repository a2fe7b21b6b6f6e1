"""A tournament table that has closed (its Sit & Go is over, so the table closed with it; a table broken up by balancing
closes the same way) has no owner. ``leave`` and ``top_up`` sent on its socket by the players who played there are
cash-table commands (TRN-16: tournament chips are neither bought nor cashed out at the table): with table actors on
they are answered at once with ``not_allowed_now`` and a sentence saying why, by the tournament policy where the frame
arrives, never after waiting for an owner that does not exist (the reply time is far longer than the test waits); the
REST leave answers the same. Nothing changes: the players' balances, the table's events, the table stays closed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.models import HandEvent, Table, TableStatus
from tests.realtime.conftest import Socket, open_socket, run
from tests.tournaments.support import cash, fresh, play, register_players, sit_and_go
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

OWNER_REPLY_SECONDS = 60.0
"""Far longer than a socket test waits for an answer (15 s): an answer that came from waiting for an owner fails."""


def what_could_change(users: list[Any], table: Table) -> dict[str, Any]:
    return {
        "balances": [cash(user) for user in users],
        "events": HandEvent.objects.filter(table=table).count(),
        "table": Table.objects.filter(pk=table.pk).values_list("status", flat=True).get(),
    }


async def answer_to(socket: Socket, frame: dict[str, Any]) -> dict[str, Any]:
    """Send ``frame`` and return the answer that names its request id."""
    await socket.send(frame)
    return await socket.receive_until(lambda message: message.get("request_id") == frame["request_id"])


def answers_to_leave_and_top_up(user: Any, table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", user)
        try:
            leave = await answer_to(socket, {"type": "leave", "request_id": "leave"})
            top_up = await answer_to(socket, {"type": "top_up", "amount": 500, "request_id": "top-up"})
            return leave, top_up
        finally:
            await socket.close()

    # The refusals are translated: read in English, whatever language an earlier test left active in this thread.
    with translation.override("en"):
        return run(scenario)


def test_leave_and_top_up_at_a_closed_tournament_table_are_refused_at_once_and_change_nothing_trn_16(
    settings: Any,
) -> None:
    # The players act through the services, not from pages: none of them is absent and acted for (TRN-04).
    settings.TOURNAMENT_SITS_OUT_ABSENT_PLAYERS = False
    tournament = sit_and_go(seats=2)
    players = register_players(tournament, 2)
    table = Table.objects.get(tournament_link__tournament=tournament)
    play(tournament)  # through the services, as the durable path plays
    assert fresh(tournament).status == TournamentStatus.FINISHED
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
    settings.TABLE_ACTORS = True  # the site as it runs: commands at a table in play go to its owner, none here
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    before = what_could_change(players, table)

    for user in players:
        leave, top_up = answers_to_leave_and_top_up(user, table)

        assert (leave["type"], leave["code"]) == ("error", "not_allowed_now")
        assert leave["message"].startswith("Leaving is for cash tables")
        assert (top_up["type"], top_up["code"]) == ("error", "not_allowed_now")
        assert top_up["message"].startswith("Topping up is for cash tables")

        client = Client()
        client.force_login(user)
        response = client.post(f"/api/games/tables/{table.pk}/leave/", json.dumps({}), content_type="application/json")
        assert response.json() == {"code": "not_allowed_now", "message": leave["message"]}

    assert what_could_change(players, table) == before
