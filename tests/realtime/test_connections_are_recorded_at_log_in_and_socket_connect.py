"""FRD-03, FRD-19: where players connect from is recorded for the fraud indicators — each log-in with the client's
address (as the log-in lock reads it) and the browser's device cookie, which the log-in sets if the browser has none;
each socket connect to a table with the table (a tournament's table: the tournament) and the device."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from compliance.models import ConnectionKind, ConnectionRecord
from compliance.services.connections import DEVICE_COOKIE, place_of_table
from tests.realtime.conftest import Socket, headers_for, make_table, make_user, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_cache")]

DEVICE = "0123456789abcdef0123456789abcdef"


def log_in(client: Client, username: str, **extra: Any) -> Any:
    return client.post("/accounts/log-in/", {"username": username, "password": "not-used-in-tests-0"}, **extra)


def test_a_log_in_records_the_address_and_gives_the_browser_a_device_it_keeps() -> None:
    alice = make_user("alice")
    browser = Client(REMOTE_ADDR="203.0.113.5", HTTP_USER_AGENT="Firefox 140")

    assert log_in(browser, "alice").status_code == 302
    device = browser.cookies[DEVICE_COOKIE].value
    assert re.fullmatch(r"[0-9a-f]{32}", device)
    browser.post("/accounts/log-out/")
    assert log_in(browser, "alice").status_code == 302

    records = list(ConnectionRecord.objects.filter(user=alice).order_by("pk"))
    assert [(record.kind, record.ip, record.device, record.user_agent) for record in records] == [
        (ConnectionKind.LOG_IN, "203.0.113.5", device, "Firefox 140")
    ] * 2


def test_behind_a_trusted_proxy_the_address_is_the_proxys_entry(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    alice = make_user("alice")
    log_in(Client(REMOTE_ADDR="10.0.0.2"), "alice", HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert ConnectionRecord.objects.get(user=alice).ip == "198.51.100.9"


def test_a_socket_connect_to_a_table_records_the_table_and_the_device() -> None:
    table = make_table()
    alice = make_user("alice")

    async def scenario() -> None:
        from channels.db import database_sync_to_async

        headers = await database_sync_to_async(headers_for)(alice)
        cookie = next(value for name, value in headers if name == b"cookie")
        headers = [(name, value) for name, value in headers if name != b"cookie"]
        headers += [(b"cookie", cookie + f"; {DEVICE_COOKIE}={DEVICE}".encode()), (b"user-agent", b"Chromium")]
        socket = Socket(f"/ws/tables/{table.pk}/", headers)
        assert await socket.connect()
        await socket.receive()
        await socket.close()

    run(scenario)
    record = ConnectionRecord.objects.get(user=alice, kind=ConnectionKind.TABLE_SOCKET)
    assert (record.place, record.device, record.user_agent) == (f"table:{table.pk}", DEVICE, "Chromium")


def test_a_tournament_table_is_recorded_as_its_tournament() -> None:
    from tests.tournaments.support import scheduled
    from tournaments.models import TournamentTable

    tournament = scheduled()
    table = make_table()
    TournamentTable.objects.create(table=table, tournament=tournament, number=1)
    assert place_of_table(table.pk) == f"tournament:{tournament.pk}"
    assert place_of_table(make_table(name="Cash").pk).startswith("table:")
