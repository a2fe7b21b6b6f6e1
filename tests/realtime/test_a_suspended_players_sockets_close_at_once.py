"""FRD-18, FRD-06: when the compliance desk suspends a player, every open game socket of theirs — a cash table's, the
lobby's — is told why and closed (close code 4401) as soon as the suspension commits, not at the next session check;
a socket opened afterwards is a spectator's and cannot act. Another player's sockets stay open."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.runtime import consumers
from tests.realtime.conftest import ConnectionClosed, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def suspend(player: Any) -> None:
    from compliance.models import Standing
    from compliance.services import account_standing_set, case_open
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
    from tests.foundation.staff_roles import staff_member

    reviewer = staff_member(COMPLIANCE_REVIEWERS, "rita")
    case = case_open(reviewer, title="Bot suspected", subject_ids=[player.pk])
    account_standing_set(case, reviewer, player, Standing.SUSPENDED, "Automated play detected.")


def test_every_socket_of_a_suspended_player_closes_at_once_and_a_new_one_cannot_act() -> None:
    table = make_table()
    alice, bob = make_user("alice"), make_user("bob")

    async def scenario() -> None:
        table_socket = await open_socket(f"/ws/tables/{table.pk}/", alice)
        lobby_socket = await open_socket("/ws/lobby/", alice)
        bystander = await open_socket(f"/ws/tables/{table.pk}/", bob)
        for socket in (table_socket, lobby_socket, bystander):
            await socket.receive()  # the snapshot or the lobby list

        await database_sync_to_async(suspend)(alice)

        for socket in (table_socket, lobby_socket):
            error = await socket.receive_until(lambda message: message["type"] == "error", timeout=10)
            assert error["code"] == "signed_out"
            assert "suspended" in error["message"]
            with pytest.raises(ConnectionClosed) as closed:
                await socket.receive(timeout=10)
            assert closed.value.code == consumers.CLOSE_SIGNED_OUT
        assert await bystander.nothing_more(wait=0.5)

        again = await open_socket(f"/ws/tables/{table.pk}/", alice)
        snapshot = await again.receive()
        assert snapshot["snapshot"]["viewer"]["user_id"] is None  # a spectator now
        await again.send({"type": "sit_in", "request_id": "r1"})
        refusal = await again.receive_until(lambda message: message["type"] == "error")
        assert refusal["code"] == "not_authenticated"
        for socket in (again, bystander):
            await socket.close()

    run(scenario)
