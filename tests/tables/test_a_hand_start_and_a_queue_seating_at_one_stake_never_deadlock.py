"""A hand start and the seating queue of the same stake never deadlock (CASH-04, CASH-05, CASH-06; issue 27 and 30:
"deadlock detected" in ``hand_start`` on a key-share lock of ``games_stake``, ``seat_me`` answering server_error).

The cycle it was: the queue locked its stake row and then waited for a table's lock, while the hand start at that
table, holding the table's lock, updated the table row a second time in its transaction — and PostgreSQL checks the
foreign key of a row updated twice in one transaction again, with a key-share lock on the referenced stake, which the
queue's ``FOR UPDATE`` blocked. The queue now takes its stake with ``FOR NO KEY UPDATE`` (see
``games.runtime.locking``), which serialises the queue without blocking a foreign-key check.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from games.models import Seat, SeatingRequest, SeatingRequestStatus
from games.runtime import hands
from games.services import hand_start, table_join_queue
from tests.tables.support import START, open_table, player, seat_at
from tests.waiting import until_it_waits_for_a_lock_or_ends


class Gate:
    """Holds the first thread that reaches it until the test opens it."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.opened = threading.Event()
        self.owner: int | None = None

    def wait_here(self) -> None:
        if self.owner is None:
            self.owner = threading.get_ident()
        if self.owner == threading.get_ident():
            self.reached.set()
            assert self.opened.wait(timeout=30), "the test never opened the gate"


def _run(outcome: dict[str, Any], key: str, call: Any) -> threading.Thread:
    def body() -> None:
        try:
            outcome[key] = call()
        except Exception as error:  # reported to the test thread
            outcome[f"{key}_error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=body)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_cash_06_a_hand_start_between_its_table_writes_lets_a_queue_seating_at_its_stake_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = open_table("holdem", "NL10")
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    newcomer = player()
    gate = Gate()
    original_commit_events = hands.HandContext.commit_events

    def commit_events_after_the_gate(context: hands.HandContext) -> None:
        # hand_start has written the table row once (the new hand) and is about to write it again (the events'
        # sequence): the moment the stake's foreign key is checked again.
        gate.wait_here()
        original_commit_events(context)

    monkeypatch.setattr(hands.HandContext, "commit_events", commit_events_after_the_gate)
    outcome: dict[str, Any] = {}

    dealing = _run(outcome, "hand", lambda: hand_start(table, now=START))
    assert gate.reached.wait(timeout=20), "hand_start never reached its second table write"
    seating = _run(outcome, "request", lambda: table_join_queue(newcomer, table.stake, 1000, now=START))
    until_it_waits_for_a_lock_or_ends(seating)  # the queue has locked the stake and waits for the table's lock
    gate.opened.set()
    dealing.join(timeout=30)
    seating.join(timeout=30)

    assert not dealing.is_alive()
    assert not seating.is_alive()
    assert "hand_error" not in outcome, outcome.get("hand_error")
    assert "request_error" not in outcome, outcome.get("request_error")
    assert outcome["hand"] is not None
    request = SeatingRequest.objects.get(user=newcomer)
    assert request.status == SeatingRequestStatus.SEATED
    assert Seat.objects.get(user=newcomer).table_id == table.pk
