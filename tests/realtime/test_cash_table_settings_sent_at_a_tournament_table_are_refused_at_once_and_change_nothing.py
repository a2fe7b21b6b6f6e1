"""A tournament table (a Sit & Go's here; scheduled tournaments and HexaPro games run on the same tournament policy)
refuses the cash tables' settings sent on its socket, ``auto_top_up`` (CASH-15) and ``sit_out_next_big_blind``
(CASH-19), with ``not_allowed_now`` and a sentence saying why, and nothing changes: no player setting, no seat flag, no
event. The refusal is the tournament policy's (``command_refusal``), given where the frame arrives: with table actors
on, and no owner running, it still comes at once (the reply time is far longer than the test waits), never after a
wait for the table's owner. A cash table still takes both settings."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.models import HandEvent, PlayerTableSettings, Seat, Table
from tests.realtime.conftest import Socket, open_socket, run
from tests.tables.support import open_table, player, seat_players
from tests.tournaments.support import register_players, sit_and_go

pytestmark = pytest.mark.django_db(transaction=True)

CASH_TABLE_SETTINGS = (
    {"type": "auto_top_up", "enabled": True},
    {"type": "sit_out_next_big_blind", "enabled": True},
)

OWNER_REPLY_SECONDS = 60.0
"""Far longer than a socket test waits for an answer (15 s): an answer that came from waiting for an owner fails."""


CONNECTION_REPORTS = ("seat_reconnected", "seat_disconnected")
"""Events the socket's own opening and closing may add (CASH-22), whatever it sends."""


def what_the_settings_could_change(user: Any, table: Table) -> dict[str, Any]:
    return {
        "settings": list(
            PlayerTableSettings.objects.filter(user=user).values_list("auto_top_up", "sit_out_next_big_blind")
        ),
        "seat": list(Seat.objects.filter(table=table, user=user).values_list("sit_out_next_big_blind", "status")),
        "events": list(
            HandEvent.objects.filter(table=table).exclude(kind__in=CONNECTION_REPORTS).values_list("sequence", "kind")
        ),
    }


async def answer_to(socket: Socket, frame: dict[str, Any]) -> dict[str, Any]:
    """Send ``frame`` and return the answer that names its request id."""
    await socket.send(frame)
    return await socket.receive_until(lambda message: message.get("request_id") == frame["request_id"])


def answers_to_the_settings(user: Any, table: Table) -> list[dict[str, Any]]:
    async def scenario() -> list[dict[str, Any]]:
        socket = await open_socket(f"/ws/tables/{table.pk}/", user)
        try:
            return [
                await answer_to(socket, {**frame, "request_id": f"setting-{number}"})
                for number, frame in enumerate(CASH_TABLE_SETTINGS)
            ]
        finally:
            await socket.close()

    # The refusals are translated: read in English, whatever language an earlier test left active in this thread.
    with translation.override("en"):
        return run(scenario)


@pytest.mark.parametrize("actors", [False, True], ids=["durable path", "table actors on"])
def test_a_tournament_table_refuses_auto_top_up_and_sit_out_next_big_blind_at_once_cash_15_cash_19(
    settings: Any, actors: bool
) -> None:
    settings.TABLE_ACTORS = actors
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    tournament = sit_and_go(seats=2)
    alice, _bob = register_players(tournament, 2)
    table = Table.objects.get(tournament_link__tournament=tournament)
    before = what_the_settings_could_change(alice, table)

    answers = answers_to_the_settings(alice, table)

    assert [(answer["type"], answer["code"]) for answer in answers] == [("error", "not_allowed_now")] * 2
    auto_top_up, next_big_blind = (answer["message"] for answer in answers)
    assert auto_top_up.startswith("Auto top-up is a cash table setting")
    assert next_big_blind.startswith("Sitting out at your next big blind is a cash table setting")
    assert what_the_settings_could_change(alice, table) == before


def test_a_cash_table_still_takes_auto_top_up_and_sit_out_next_big_blind(settings: Any) -> None:
    settings.TABLE_ACTORS = False
    table = open_table("holdem", "NL10")
    alice, bob = player(), player()
    seat_players(table, [alice, bob], 1_000)

    answers = answers_to_the_settings(alice, table)

    assert [(answer["type"], answer["of"]) for answer in answers] == [
        ("ok", "auto_top_up"),
        ("ok", "sit_out_next_big_blind"),
    ]
    assert PlayerTableSettings.objects.get(user=alice).auto_top_up
    assert Seat.objects.get(table=table, user=alice).sit_out_next_big_blind
