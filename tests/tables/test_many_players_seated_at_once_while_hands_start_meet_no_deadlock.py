"""Under load, hand starts at several tables of one stake and many players seated at once through the seating queue
all complete, with no deadlock and no server error (CASH-04, CASH-05, CASH-06; issue 27: "deadlock detected" in
``hand_start``; issue 30: ``seat_me`` answered server_error). The services are called directly, not through the
socket layer's deadlock retry, so a deadlock victim fails the test."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from games.models import Hand, Seat, SeatingRequest, SeatingRequestStatus, Table
from games.services import hand_start, stake_queues_drain, table_join_queue
from tests.tables.support import START, money_in_table_accounts, open_table, player, seat_at, stake
from wallet.services import balance_of, player_cash_account


def _together(calls: list[Callable[[], Any]]) -> list[BaseException]:
    """Run ``calls`` in threads released at the same moment; return the errors they raised."""
    barrier = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def body(call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=60)
            call()
        except BaseException as error:  # reported to the test thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    assert not any(thread.is_alive() for thread in threads), "a call never finished"
    return errors


def _start_hands_at(table_ids: list[int], rounds: int) -> Callable[[], None]:
    def start() -> None:
        for _round in range(rounds):
            for table in Table.objects.filter(pk__in=table_ids).order_by("pk"):
                hand_start(table, now=START)

    return start


@pytest.mark.django_db(transaction=True)
def test_cash_06_hand_starts_at_four_tables_of_one_stake_while_its_queue_drains_all_complete() -> None:
    tables = [open_table("holdem", "NL10") for _ in range(4)]
    for table in tables:
        seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    newcomers = [player() for _ in range(4)]

    errors = _together(
        [
            *(lambda table=table: hand_start(table, now=START) for table in tables),
            *(lambda user=user: table_join_queue(user, stake("holdem", "NL10"), 1000, now=START) for user in newcomers),
            lambda: stake_queues_drain(now=START),
        ]
    )

    assert errors == []
    assert Hand.objects.filter(table__in=tables).count() == 4
    assert Seat.objects.filter(user__in=newcomers).count() == 4


@pytest.mark.django_db(transaction=True)
def test_cash_04_sixteen_players_seated_at_once_while_hands_start_meet_no_error() -> None:
    tables = [open_table("holdem", "NL10") for _ in range(2)]
    for table in tables:
        seat_at(table, {1: player(), 2: player()}, 1000)
    players = [player() for _ in range(16)]
    cash_before = sum(balance_of(player_cash_account(user)) for user in players)
    at_tables_before = money_in_table_accounts()
    nl10 = stake("holdem", "NL10")

    errors = _together(
        [
            *(lambda user=user: table_join_queue(user, nl10, 1000, now=START) for user in players),
            _start_hands_at([table.pk for table in tables], rounds=10),
            lambda: stake_queues_drain(now=START),
        ]
    )

    assert errors == []
    statuses = Counter(SeatingRequest.objects.filter(user__in=players).values_list("status", flat=True))
    assert statuses[SeatingRequestStatus.FAILED] == 0
    seated = Seat.objects.filter(user__in=players).count()
    assert seated == statuses[SeatingRequestStatus.SEATED]
    assert seated + statuses[SeatingRequestStatus.WAITING] == len(players)
    assert seated >= 14  # 2 tables × 4 free seats, and a new table each time three wait
    # No cent created or lost: what left the players' cash accounts is at the tables.
    cash_after = sum(balance_of(player_cash_account(user)) for user in players)
    assert cash_before - cash_after == seated * 1000 == money_in_table_accounts() - at_tables_before
