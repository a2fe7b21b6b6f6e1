"""With table actors on (``TABLE_ACTORS``, issue 27), while a runtime process is alive (its heartbeat in Redis) every
open table is dealt by its owner: the ``cash_tables`` ticker deals at no table, not even one without an owner yet (a
new table before the next claim scan, or a dead owner's before its lease expires), because the takeover would cancel
a hand it dealt there (CASH-23) a moment later, as the crash tests saw. With no runtime process alive the ticker deals
as it does without actors."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.runtime import inbox, ticks
from tests.tables.support import START, current_hand, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def test_the_ticker_leaves_an_unowned_table_to_the_live_runtime_processes_and_deals_there_once_none_is_left(
    settings: Any,
) -> None:
    settings.TABLE_ACTORS = True
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    store = inbox.lease_store()
    store.process_alive("runtime-process-under-test")
    assert store.owner_of(table.pk) is None

    ticks.cash_tables_tick(START + timedelta(seconds=1))
    assert current_hand(table) is None  # the table waits for its owner's claim

    store.process_gone("runtime-process-under-test")
    ticks.cash_tables_tick(START + timedelta(seconds=2))
    assert current_hand(table) is not None
