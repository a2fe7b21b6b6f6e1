"""A closed table takes no one: sitting down is refused and nothing changes, the seating queue (CASH-04, CASH-05)
seats players elsewhere, no hand is dealt there, it is not in the lobby, and closing it again is refused."""

from __future__ import annotations

import pytest

from games.cash.lobby import lobby_rows
from games.models import Seat, SeatingRequestStatus, SeatStatus, Table
from games.services import NotAllowedNow, NotFound, hand_start, seat_take, table_close, table_join_queue
from tests.tables.back_office import TABLES, logged_in, messages_of, run_action, support_agent
from tests.tables.support import START, cash, fresh, open_table, player, seat_players

pytestmark = pytest.mark.django_db


def closed_table() -> Table:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1000)
    return table_close(table, reason="Closed for the test", now=START)


def test_sitting_down_at_a_closed_table_is_refused_and_changes_nothing() -> None:
    table = closed_table()
    newcomer = player(cash=5_000)
    sequence = fresh(table).last_sequence

    with pytest.raises(NotFound, match="closed"):
        seat_take(newcomer, table, 1000, seat_number=1, now=START)

    assert cash(newcomer) == 5_000
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.EMPTY).exists()
    assert fresh(table).last_sequence == sequence


def test_the_seating_queue_never_seats_anyone_at_a_closed_table() -> None:
    table = closed_table()
    queued = [player(cash=5_000) for _ in range(3)]

    requests = [table_join_queue(user, table.stake, 1000, now=START) for user in queued]

    for request in requests:
        request.refresh_from_db()
        assert request.status == SeatingRequestStatus.SEATED  # together at a new table of the stake ...
        assert request.table_id != table.pk  # ... never at the closed one
    assert not Seat.objects.filter(table=table, user__in=queued).exists()


def test_no_hand_is_dealt_and_the_lobby_does_not_list_a_closed_table() -> None:
    table = closed_table()

    assert hand_start(table, now=START) is None
    assert table.pk not in {row["id"] for row in lobby_rows()}


def test_closing_a_closed_table_again_is_refused_and_the_staff_member_is_told() -> None:
    table = closed_table()
    closed_at = fresh(table).closed_at

    with pytest.raises(NotAllowedNow, match="already closed"):
        table_close(table, reason="Again", now=START)
    response = run_action(logged_in(support_agent()), TABLES, "close_tables", [table.pk], "Again")

    assert fresh(table).closed_at == closed_at
    assert fresh(table).close_reason == "Closed for the test"
    assert any("already closed. Nothing was changed." in message for message in messages_of(response))
