"""A table support closes during a hand is not closed under the players' feet: the hand plays out and settles (no
money moves before), nobody new sits down meanwhile, and when the hand ends every player is cashed out and the table
closes — the table-wide form of leaving after the hand (CASH-08). Cancelling the hand closes it at once (CASH-23)."""

from __future__ import annotations

from typing import Any

import pytest

from games.cash.lobby import lobby_rows
from games.models import (
    HandEvent,
    HandStatus,
    LeaveReason,
    Seat,
    SeatingRequestStatus,
    SeatStatus,
    TableSession,
    TableStatus,
)
from games.services import (
    NotAllowedNow,
    NotFound,
    hand_cancel,
    seat_leave,
    seat_take,
    table_close,
    table_join_queue,
    table_snapshot,
)
from tests.tables.back_office import TABLES, logged_in, messages_of, run_action, support_agent
from tests.tables.support import (
    START,
    act,
    acting_user,
    cash,
    check_or_call_down,
    deal,
    fresh,
    money_in_table_accounts,
    open_table,
    player,
    seat_players,
)
from wallet.models import Transfer
from wallet.services import ledger_reconcile

pytestmark = pytest.mark.django_db


def table_in_a_hand() -> tuple[Any, list[Any]]:
    table = open_table("holdem", "NL10")
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    act(table, "raise_to", 50)
    return table, users


def test_closing_during_a_hand_moves_no_money_until_the_hand_ends_then_cashes_everyone_out() -> None:
    table, users = table_in_a_hand()
    transfers = Transfer.objects.count()
    client = logged_in(support_agent("support-ann"))

    response = run_action(client, TABLES, "close_tables", [table.pk], "Suspected client bug")

    closing = fresh(table)
    assert closing.status == TableStatus.OPEN
    assert closing.close_after_hand is True
    assert closing.close_reason == "closed by support: Suspected client bug"
    assert Transfer.objects.count() == transfers  # nothing cashed out while the hand is in play
    assert Seat.objects.filter(table=table).exclude(status=SeatStatus.EMPTY).count() == 3
    assert HandEvent.objects.filter(table=table).order_by("-sequence").first().kind == "table_closing"  # type: ignore[union-attr]
    assert any("closes when the hand in play ends" in message for message in messages_of(response))

    hand = check_or_call_down(table)

    assert hand.status == HandStatus.FINISHED
    closed = fresh(table)
    assert closed.status == TableStatus.CLOSED
    assert closed.close_after_hand is False
    assert closed.current_hand_id is None
    assert closed.close_reason == "closed by support: Suspected client bug"
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.EMPTY).exists()
    assert set(TableSession.objects.filter(table=table).values_list("leave_reason", flat=True)) == {
        LeaveReason.TABLE_CLOSED
    }
    assert money_in_table_accounts() == 0
    assert sum(cash(user) for user in users) == 15_000 - (hand.rake or 0)
    assert ledger_reconcile() == []
    assert HandEvent.objects.filter(table=table).order_by("-sequence").first().kind == "table_closed"  # type: ignore[union-attr]


def test_a_table_snapshot_says_the_table_closes_after_the_hand_so_a_page_opened_late_shows_it() -> None:
    table, users = table_in_a_hand()
    assert table_snapshot(table, users[0])["table"]["closing"] is False

    table_close(table, reason="Closing", now=START)

    for viewer in (users[0], None):
        assert table_snapshot(table, viewer)["table"]["closing"] is True
    check_or_call_down(table)
    closed = table_snapshot(table, None)["table"]
    assert (closed["status"], closed["closing"]) == (TableStatus.CLOSED, False)


def test_nobody_sits_down_and_the_lobby_drops_the_table_while_it_waits_to_close() -> None:
    table, _users = table_in_a_hand()
    table_close(table, reason="Closing", now=START)
    newcomer = player(cash=5_000)

    with pytest.raises(NotFound, match="closes when the hand in play ends"):
        seat_take(newcomer, table, 1000, seat_number=4, now=START)

    assert cash(newcomer) == 5_000
    assert table.pk not in {row["id"] for row in lobby_rows()}


def test_the_seating_queue_does_not_seat_anyone_at_a_table_waiting_to_close() -> None:
    table, _users = table_in_a_hand()
    table_close(table, reason="Closing", now=START)

    request = table_join_queue(player(cash=5_000), table.stake, 1000, now=START)

    assert request.status == SeatingRequestStatus.WAITING  # the only table with players is closing
    assert Seat.objects.filter(table=table).exclude(status=SeatStatus.EMPTY).count() == 3


def test_asking_again_while_the_table_waits_to_close_is_refused_and_changes_nothing() -> None:
    table, _users = table_in_a_hand()
    table_close(table, reason="First request", now=START)
    sequence = fresh(table).last_sequence

    with pytest.raises(NotAllowedNow, match="already closes"):
        table_close(table, reason="Second request", now=START)

    assert fresh(table).close_reason == "First request"
    assert fresh(table).last_sequence == sequence


def test_cancelling_the_hand_closes_the_table_at_once_with_the_start_of_hand_stacks() -> None:
    table, users = table_in_a_hand()
    hand_id = fresh(table).current_hand_id
    assert hand_id is not None
    table_close(table, reason="Closing", now=START)

    assert hand_cancel(hand_id, reason="Cancelled to close the table", now=START) is True

    assert fresh(table).status == TableStatus.CLOSED
    assert {user.pk: cash(user) for user in users} == {user.pk: 5_000 for user in users}  # every buy-in back
    assert money_in_table_accounts() == 0
    assert ledger_reconcile() == []


def test_a_player_who_asked_to_leave_during_the_hand_leaves_for_their_own_reason() -> None:
    table, _users = table_in_a_hand()
    waiting = next(seat.user for seat in Seat.objects.filter(table=table) if seat.user != acting_user(table))
    seat_leave(waiting, table, now=START)
    table_close(table, reason="Closing", now=START)

    check_or_call_down(table)

    reasons = dict(TableSession.objects.filter(table=table).values_list("user_id", "leave_reason"))
    assert reasons.pop(waiting.pk) == LeaveReason.PLAYER
    assert set(reasons.values()) == {LeaveReason.TABLE_CLOSED}
    assert money_in_table_accounts() == 0
