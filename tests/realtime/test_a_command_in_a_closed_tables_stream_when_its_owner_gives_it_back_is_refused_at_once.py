"""With table actors on, a command enters a table's stream while a runtime process holds the table's lease. When the
table closes just then (support closes it, a tournament breaks it up), its owner gives the table back at its next scan,
and nobody will own it again: whatever its stream still holds unread must be answered by that owner, at once, as a
socket answers a command to a closed table (``table_closed``), not left for the sender to wait the whole reply time
(issue 27; note 27's leftover). Connection reports in the stream, whose senders wait for nothing, are acknowledged
unanswered."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings

from games.models import HandEvent, Seat, Table, TableStatus
from games.runtime import inbox
from games.runtime.actor import CONNECTION_LOST
from games.runtime.owner import TableOwner
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import cash, open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

OWNER_REPLY_SECONDS = 60.0
"""Far longer than the test waits: an answer that came from the sender's reply time running out fails."""

ANSWER_SECONDS = 10.0


async def reading_nothing(self: TableOwner, stop: asyncio.Event) -> None:
    """The owner's inbox read, stalled: the commands appended meanwhile are still unread when the table closes, as a
    command appended just before the owner's scan gives the closed table back is."""
    await stop.wait()


def test_a_command_left_unread_in_a_closed_tables_stream_is_refused_by_the_owner_that_gives_it_back(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = OWNER_REPLY_SECONDS
    monkeypatch.setattr(TableOwner, "_read", reading_nothing)
    table = open_table("holdem", "NL10")
    alice = player()
    seat_players(table, [alice], 1_000)  # alone: no hand is dealt, so the table is idle once taken over
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    store = inbox.lease_store(client)
    before = {
        "balance": cash(alice),
        "seats": list(Seat.objects.filter(table=table).values_list("number", "user_id", "status")),
        "events": HandEvent.objects.filter(table=table).count(),
    }

    with table_owner_running("owner") as owner, concurrent.futures.ThreadPoolExecutor(1) as sender:
        wait_for(lambda: table.pk in owner.tables and owner.tables[table.pk].ready, "the table taken over")
        inbox.message_post(table.pk, alice.pk, CONNECTION_LOST, {})
        started = time.monotonic()
        waiting = sender.submit(inbox.message_send, table.pk, alice.pk, "sit_out", {})
        wait_for(lambda: len(client.xrange(inbox.stream_key(table.pk))) == 2, "the command in the stream")
        Table.objects.filter(pk=table.pk).update(status=TableStatus.CLOSED)
        reply = waiting.result(timeout=OWNER_REPLY_SECONDS + 5)
        took = time.monotonic() - started
        wait_for(
            lambda: client.xpending(inbox.stream_key(table.pk), inbox.STREAM_GROUP)["pending"] == 0,
            "every entry acknowledged",
        )
        given_back = store.owner_of(table.pk) is None

    assert (reply.ok, reply.code) == (False, "table_closed")
    assert reply.message == "This table has closed: nothing more is played here."
    assert took < ANSWER_SECONDS
    assert given_back
    after = {
        "balance": cash(alice),
        "seats": list(Seat.objects.filter(table=table).values_list("number", "user_id", "status")),
        "events": HandEvent.objects.filter(table=table).count(),
    }
    assert after == before
    client.close()
