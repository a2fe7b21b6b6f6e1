"""With table actors on (``TABLE_ACTORS``, issue 27), hands are dealt by the table's owner only. When an owner dies its
lease lapses for a moment before another runtime process takes the table over; the ``cash_tables`` ticker must not
deal there meanwhile: a hand it dealt could not be played (``act`` goes to the table's stream, which nobody reads yet,
and waits until ``table_unavailable``) and the new owner's takeover would cancel it (CASH-23). Found by
``benchmarks/bench_tables.py --takeover``: hands dealt and cancelled at most of a killed owner's tables. The ticker
keeps the clocks and the start-up recovery of hands nobody owns (the per-action path's hands), and deals as without
actors when no runtime process is alive at all
(``tests/realtime/test_the_ticker_deals_at_no_table_while_a_runtime_process_is_alive.py``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.runtime import inbox, ticks
from tests.tables.support import START, current_hand, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_cash_06_the_ticker_deals_no_hand_at_a_table_whose_lease_lapsed_with_actors_on(settings: Any) -> None:
    settings.TABLE_ACTORS = True
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    store = inbox.lease_store()
    store.process_alive("the-next-owner")  # another runtime process is alive and will take the table over
    try:
        lease = store.acquire(table.pk, "an-owner-that-died")
        assert lease is not None
        ticks.cash_tables_tick(START + timedelta(seconds=1))
        assert current_hand(table) is None
        assert store.release(lease)  # the lease lapsed: no owner until the next one takes the table over

        ticks.cash_tables_tick(START + timedelta(seconds=2))

        assert current_hand(table) is None  # left to the next owner
    finally:
        store.process_gone("the-next-owner")


def test_cash_06_with_actors_off_the_ticker_deals_as_before(settings: Any) -> None:
    settings.TABLE_ACTORS = False
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)

    ticks.cash_tables_tick(START + timedelta(seconds=1))

    assert current_hand(table) is not None
