"""Locking a table and its seats leaves no reference cycles behind: ``select_related`` through a one-to-one caches both
directions (seat ↔ session ↔ account, table ↔ hand), and every such pair could only be freed by the garbage
collector, whose collections pause every table of the server process. The lock helpers drop the back-references."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from games.services import hand_act
from tests.tables.support import acting_user, deal, open_table, player, seat_players

pytestmark = pytest.mark.django_db

MODELS = {"Seat", "TableSession", "Account", "Table", "Hand", "User"}


@contextmanager
def garbage_kept() -> Iterator[list[object]]:
    """From a clean slate, keep what the collector finds (instead of freeing it) until the block ends."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_actions_leave_no_table_seat_session_or_account_cycles() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(6)], 1000)
    deal(table)

    with garbage_kept() as garbage:
        for _ in range(4):  # four calls before the flop: no hand ends, so only the action path runs
            hand_act(table, acting_user(table), "call")
        gc.collect()
        left = Counter(type(item).__name__ for item in garbage if type(item).__name__ in MODELS)

    assert left == Counter(), left
