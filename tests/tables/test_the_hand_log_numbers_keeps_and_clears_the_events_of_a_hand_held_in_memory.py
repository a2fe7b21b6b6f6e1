"""Issue 27, step 4 (``games.runtime.hand_log``): the Redis log of a hand held in memory numbers each appended batch
after the table's durable sequence and after every number it handed out (reservations for durable appends included),
returns the events after a sequence as the rows the durable path would write — a private event keeps its owner, so
``event_view`` shows its cards to that player alone —, and is cleared up to the last sequence written durably."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from games.models import EventAudience
from games.runtime.events import NewEvent
from games.runtime.hand_log import (
    counter_key,
    hand_log_append,
    hand_log_clear,
    hand_log_reserve,
    hand_log_rows_after,
    log_key,
)
from games.runtime.views import event_view
from poker_site.core.redis_clients import blocking_client

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
_table_ids = itertools.count(900_000_001)


@pytest.fixture
def table_id() -> int:
    """A table number no other test uses (the log needs no database row)."""
    return next(_table_ids)


def test_batches_are_numbered_after_the_durable_sequence_and_each_other(table_id: int) -> None:
    first = hand_log_append(table_id, 40, [NewEvent("action_taken", {"seat": 1}), NewEvent("turn", {"seat": 2})], NOW)
    assert [row.sequence for row in first] == [41, 42]
    # The caller still knows the durable sequence the hand began at: the log continues after its own numbers.
    second = hand_log_append(table_id, 40, [NewEvent("action_taken", {"seat": 2})], NOW)
    assert [row.sequence for row in second] == [43]
    assert [(row.sequence, row.kind, row.payload) for row in hand_log_rows_after(table_id, 41)] == [
        (42, "turn", {"seat": 2}),
        (43, "action_taken", {"seat": 2}),
    ]


def test_a_durable_append_meanwhile_reserves_numbers_above_the_log_and_the_log_continues_above_it(
    table_id: int,
) -> None:
    hand_log_append(table_id, 10, [NewEvent("action_taken"), NewEvent("turn")], NOW)
    assert hand_log_reserve(table_id, 10, 3) == 13
    assert [row.sequence for row in hand_log_append(table_id, 10, [NewEvent("turn")], NOW)] == [16]
    # A reservation above what the log handed out starts at the durable floor.
    assert hand_log_reserve(table_id, 30, 1) == 31


def test_a_private_event_keeps_its_owner_through_the_log(table_id: int) -> None:
    secret = NewEvent(
        "hole_cards_dealt",
        {"seat": 3, "cards": ["As", "Kd"]},
        audience=EventAudience.SEAT,
        private_to_seat=3,
        private_to_user_id=77,
    )
    (published,) = hand_log_append(table_id, 0, [secret], NOW)
    (row,) = hand_log_rows_after(table_id, 0)
    # What the broadcast is made of gives every viewer what a resync from the log gives them.
    for viewer in (77, 78, None):
        assert event_view(published, viewer) == event_view(row, viewer)
    assert event_view(row, 77)["cards"] == ["As", "Kd"]
    spectator = event_view(row, None)
    assert "cards" not in spectator
    assert spectator["card_count"] == 2
    assert "cards" not in event_view(row, 78)
    assert row.created_at == NOW


def test_clearing_drops_what_was_written_and_keeps_what_came_after(table_id: int) -> None:
    hand_log_append(table_id, 0, [NewEvent("a"), NewEvent("b"), NewEvent("c")], NOW)
    assert hand_log_clear(table_id, 3) == 0
    assert not blocking_client().exists(log_key(table_id), counter_key(table_id))

    hand_log_append(table_id, 3, [NewEvent("d"), NewEvent("e")], NOW)  # 4, 5
    assert hand_log_clear(table_id, 4) == 1  # a later event stays, and so does the counter that numbered it
    assert [row.sequence for row in hand_log_rows_after(table_id, 0)] == [5]
    assert int(blocking_client().get(counter_key(table_id))) == 5


def test_entries_a_dead_owner_left_at_or_below_the_durable_sequence_are_dropped_by_the_next_append(
    table_id: int,
) -> None:
    hand_log_append(table_id, 0, [NewEvent("a"), NewEvent("b")], NOW)  # 1, 2: written durably, never cleared
    hand_log_append(table_id, 9, [NewEvent("c")], NOW)
    assert [row.sequence for row in hand_log_rows_after(table_id, 0)] == [10]
