"""A table socket's player is read once, at connect; when the session that signed them in ends (log out, a password
change), a heartbeat that checks the session closes the socket with ``signed_out`` (close code 4401), so it cannot go
on acting or buying in. A socket whose session still holds stays open."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.runtime import consumers, presence
from tests.realtime.conftest import ConnectionClosed, make_table, make_user, open_socket, run

pytestmark = pytest.mark.django_db(transaction=True)


def _end_every_session_of(user: object) -> None:
    from django.contrib.sessions.models import Session

    for session in Session.objects.all():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):  # type: ignore[attr-defined]
            session.delete()


def _change_password(user: object) -> None:
    from django.contrib.auth import get_user_model

    fresh = get_user_model().objects.get(pk=user.pk)  # type: ignore[attr-defined]
    fresh.set_password("a-new-password-9")
    fresh.save()


@pytest.mark.parametrize("session_end", [_end_every_session_of, _change_password])
def test_a_socket_whose_session_ended_is_closed_at_the_next_heartbeat(
    session_end: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(consumers, "SESSION_CHECK_EVERY_HEARTBEATS", 3)
    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", alice)
        await socket.receive()  # the snapshot
        await database_sync_to_async(session_end)(alice)  # type: ignore[arg-type]
        error = await socket.receive_until(lambda message: message["type"] == "error", timeout=10)
        assert error["code"] == "signed_out"
        with pytest.raises(ConnectionClosed) as closed:
            await socket.receive(timeout=10)
        assert closed.value.code == consumers.CLOSE_SIGNED_OUT

    run(scenario)


def test_a_socket_whose_session_holds_stays_open_across_heartbeats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(consumers, "SESSION_CHECK_EVERY_HEARTBEATS", 2)
    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        socket = await open_socket(f"/ws/tables/{table.pk}/", alice)
        await socket.receive()
        assert await socket.nothing_more(wait=1.0)  # ten heartbeats and five session checks: no error, no close
        await socket.send({"type": "ping"})
        assert (await socket.receive())["type"] == "pong"
        await socket.close()

    run(scenario)
