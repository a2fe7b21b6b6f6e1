"""QA finding 6 (LOB-09, LOB-10): under ASGI (daphne) a back-office CSV export streams. Django's ASGI handler used to
turn the export's synchronous generator into a list before sending a byte, so a year of ledger legs was built in
memory and nothing reached the browser for minutes. Now the header line is sent before any row is read, the rows
follow in batches, and when the client goes away the export stops reading rows. Under WSGI and the test client the
same export still streams as before."""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import pytest
from django.contrib import admin
from django.core.handlers.asgi import ASGIHandler
from django.test import Client

from poker_site.core.admin_exports import CsvStreamingResponse
from wallet.models import AuditEntry

ROWS = 300
EXPORT = "/admin/wallet/auditentry/?_export=csv"


@pytest.fixture
def session_cookie(transactional_db: Any) -> str:
    """An administrator's session (committed: the ASGI handler serves the request on its own connection)."""
    from poker_site.accounts.models import User

    client = Client()
    client.force_login(User.objects.create_superuser("export-admin", "export-admin@example.com", None))
    return client.cookies["sessionid"].value


@pytest.fixture
def rows_read(transactional_db: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """:data:`ROWS` audit entries, and a list that grows by one for each row the export turns into a line."""
    AuditEntry.objects.bulk_create([AuditEntry(action="deposit", target=f"row:{n}", details={}) for n in range(ROWS)])
    model_admin = admin.site._registry[AuditEntry]
    read: list[int] = []
    original = model_admin.csv_value

    def counted(row: Any, name: str) -> Any:
        if name == "id":
            read.append(row.pk)
        return original(row, name)

    monkeypatch.setattr(model_admin, "csv_value", counted)
    monkeypatch.setattr(model_admin, "csv_chunk_size", 20)
    monkeypatch.setattr(CsvStreamingResponse, "lines_per_hop", 10)
    return read


def scope(cookie: str) -> dict[str, Any]:
    path, query = EXPORT.split("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"cookie", f"sessionid={cookie}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def serve(cookie: str, rows_read: list[int], *, leave_after_first_body: bool) -> list[tuple[bytes, int]]:
    """Run the export through Django's ASGI handler; each body message with the rows read when it was sent."""
    sent: list[tuple[bytes, int]] = []
    first_body = asyncio.Event()
    asked = 0

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        if asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        if leave_after_first_body:
            await first_body.wait()
        else:
            await asyncio.Event().wait()  # the client stays until the handler is done
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200
        if message["type"] == "http.response.body" and message.get("body"):
            sent.append((message["body"], len(rows_read)))
            first_body.set()
            await asyncio.sleep(0)

    await asyncio.wait_for(ASGIHandler()(scope(cookie), receive, send), timeout=120)
    return sent


def test_the_header_line_is_sent_before_any_row_is_read_and_every_row_follows(
    session_cookie: str, rows_read: list[int]
) -> None:
    sent = asyncio.run(serve(session_cookie, rows_read, leave_after_first_body=False))

    first, rows_when_first_sent = sent[0]
    assert first.decode("utf-8-sig").startswith("ID,")
    assert rows_when_first_sent == 0  # before: the whole list was read before the first byte
    assert len(sent) > ROWS // 10  # in batches, not one body
    _header, *rows = list(csv.reader(io.StringIO(b"".join(body for body, _ in sent).decode("utf-8-sig"))))
    assert len(rows) == ROWS + 1  # and the export's own audit entry, written before the rows are read


def test_the_export_stops_reading_rows_when_the_client_goes_away(session_cookie: str, rows_read: list[int]) -> None:
    asyncio.run(serve(session_cookie, rows_read, leave_after_first_body=True))

    assert len(rows_read) < ROWS // 2


def test_the_same_export_streams_to_the_test_client(session_cookie: str, rows_read: list[int]) -> None:
    client = Client()
    client.cookies["sessionid"] = session_cookie

    response = client.get(EXPORT)

    assert response.streaming
    _header, *rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert len(rows) == ROWS + 1
