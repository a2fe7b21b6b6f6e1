"""With table actors on (``TABLE_ACTORS``, issue 27 step 3), a table that a runtime process owns (a live lease) is
dealt and clocked by its owner, which holds the hand in memory: the ``cash_tables`` ticker neither deals there, nor
runs out the clock of its hand (the hand row keeps its start-of-hand deadline), nor cancels its hand at start-up
(CASH-24 is for hands nobody owns). Once the lease is gone, with no runtime process alive, the ticker does all three
again; with actors off it ignores leases altogether."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.models import Hand, HandStatus
from games.runtime import inbox, ticks
from games.runtime.recovery import hands_recover_unfinished
from tests.tables.support import START, current_hand, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def clock(hand_id: int, hand: Hand | None = None) -> tuple[Any, ...]:
    """Where the hand's clock stands (as ``hand`` had it, or as stored now)."""
    row = hand or Hand.objects.get(pk=hand_id)
    return row.acting_seat, row.clock_phase, row.action_deadline, row.version


def test_the_ticker_skips_owned_tables_and_takes_them_back_when_the_lease_is_gone(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    store = inbox.lease_store()
    lease = store.acquire(table.pk, "another-process")
    assert lease is not None

    ticks.cash_tables_tick(START + timedelta(seconds=1))
    assert current_hand(table) is None  # the owner deals, not the ticker
    assert store.release(lease)
    ticks.cash_tables_tick(START + timedelta(seconds=1))
    hand = current_hand(table)
    assert hand is not None
    assert hand.action_deadline is not None

    lease = store.acquire(table.pk, "another-process")
    assert lease is not None
    long_after = hand.action_deadline + timedelta(minutes=5)
    ticks.cash_tables_tick(long_after)
    assert clock(hand.pk) == clock(hand.pk, hand)  # its clock is the owner's
    assert hands_recover_unfinished(now=long_after) == []
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.RUNNING

    settings.TABLE_ACTORS = False  # the per-action path: leases mean nothing
    ticks.cash_tables_tick(long_after)
    assert clock(hand.pk) != clock(hand.pk, hand)  # the timebank, the reconnection grace or a timeout
    settings.TABLE_ACTORS = True
    assert store.release(lease)
    assert hands_recover_unfinished(now=long_after + timedelta(seconds=1)) == [hand.pk]
