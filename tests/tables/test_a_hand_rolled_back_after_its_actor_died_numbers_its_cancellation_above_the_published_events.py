"""CASH-23 with table actors (issue 27, step 4): an owner that dies mid-hand leaves the hand's published events in
the table's hand log and nothing of them in PostgreSQL. The recovery rolls the hand back to its start-of-hand stacks,
writes those events at the numbers the log gave them (published, or appended and never published before the owner
died: a client that missed one resyncs without a gap), numbers the ``hand_cancelled`` event above every number
handed out, clears the log, and the ledger still reconciles."""

from __future__ import annotations

import pytest

from games.models import Hand, HandEvent, HandStatus
from games.runtime.hand_log import counter_key, hand_log_rows_after, log_key
from games.runtime.recovery import hand_cancel
from games.runtime.views import table_events_since, table_snapshot
from poker_site.core.redis_clients import blocking_client
from tests.tables.held_hands import held_hand
from tests.tables.support import fresh, money_in_table_accounts, stack
from wallet.services import ledger_reconcile

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_cancellation_of_a_hand_whose_actor_died_is_numbered_above_what_clients_saw_cash_23() -> None:
    held = held_hand(players=4, seed=8)
    money_before = money_in_table_accounts()
    hand_id = held.actor.live.hand.pk if held.actor.live is not None else None
    assert hand_id is not None
    for _ in range(4):
        held.move()  # preflop calls and the flop: published from memory, nothing written
    seen = held.logged()
    assert seen
    assert fresh(held.table).last_sequence < seen[0]
    del held.actor  # the owner dies with the hand in memory

    assert hand_cancel(hand_id, now=held.now)

    assert Hand.objects.get(pk=hand_id).status == HandStatus.CANCELLED
    cancelled = HandEvent.objects.get(table=held.table, kind="hand_cancelled")
    assert cancelled.sequence == seen[-1] + 1
    written = HandEvent.objects.filter(table=held.table, sequence__in=seen).order_by("sequence")
    assert [row.sequence for row in written] == seen  # at the numbers clients saw, and the hand's record keeps them
    assert {row.hand_id for row in written} <= {hand_id, None}
    table = fresh(held.table)
    assert table.last_sequence >= cancelled.sequence
    assert not table.hand_held_in_memory
    assert hand_log_rows_after(table.pk, 0) == []
    assert not blocking_client().exists(log_key(table.pk), counter_key(table.pk))

    # A client that saw the published events resyncs from the last of them and gets the cancellation; one that missed
    # them gets them and then the cancellation, without a gap; the snapshot is between hands.
    after_seen = table_events_since(table, seen[-1], None)
    assert after_seen[0]["sequence"] == cancelled.sequence
    assert after_seen[0]["type"] == "hand_cancelled"
    before_seen = [event["sequence"] for event in table_events_since(table, seen[0] - 1, None)]
    assert before_seen[: len(seen) + 1] == [*seen, cancelled.sequence]
    snapshot = table_snapshot(table, None)
    assert snapshot["hand"] is None
    assert snapshot["last_sequence"] == table.last_sequence

    assert [stack(table, user) for user in held.users] == [1_000] * 4
    assert money_in_table_accounts() == money_before
    assert ledger_reconcile() == []
