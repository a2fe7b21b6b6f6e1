"""The ``cash_tables`` ticker handler advances every persisted deadline, idempotently (architecture rule 5,
CASH-06, CASH-17, CASH-23, CASH-24, TB-04)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import ClockPhase, Hand, HandEvent, HandStatus, Seat
from games.runtime import ticks
from games.runtime.recovery import SERVER_ERROR_REASON
from games.services import seat_sit_out
from poker_site.core.ticker import handlers, tick_once
from tests.tables.support import (
    START,
    current_hand,
    deal,
    fold_to_the_end,
    later,
    open_table,
    player,
    seat_players,
    stack,
)

pytestmark = pytest.mark.django_db


def test_the_handler_is_registered() -> None:
    assert handlers["cash_tables"] is ticks.cash_tables_tick


def test_a_table_deals_when_enough_players_sit_down_and_again_after_the_pause() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    assert ticks.cash_tables_tick(START) >= 1
    first = current_hand(table)
    assert first is not None
    fold_to_the_end(table, now=later(1))
    assert current_hand(table) is None
    ticks.cash_tables_tick(later(3))  # the pause between hands (2.5 s) is not over
    assert current_hand(table) is None
    ticks.cash_tables_tick(later(3.5))
    second = current_hand(table)
    assert second is not None
    assert second.number == first.number + 1


def test_a_table_that_cannot_deal_stops_asking() -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(2)], 1000)
    assert ticks.cash_tables_tick(START) == 0
    table.refresh_from_db()
    assert table.next_hand_at is None


def test_running_clocks_and_sit_out_limits_are_advanced_and_running_twice_changes_nothing_more() -> None:
    table = open_table()
    users = [player() for _ in range(4)]
    seat_players(table, users, 1000)
    seat_sit_out(users[3], table, now=START)
    ticks.cash_tables_tick(START)
    hand = current_hand(table)
    assert hand is not None
    tick_once(later(10))
    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.TIMEBANK
    tick_once(later(10))
    hand.refresh_from_db()
    assert hand.action_deadline == later(25)
    tick_once(later(600))
    assert not Seat.objects.filter(user=users[3]).exists()  # CASH-17


def test_the_first_tick_of_the_ticker_process_recovers_unfinished_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    monkeypatch.setattr(ticks, "startup_recovery_pending", True)
    ticks.cash_tables_tick(later(1))
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.CANCELLED
    assert ticks.startup_recovery_pending is False
    ticks.cash_tables_tick(later(5))
    running = current_hand(table)
    assert running is not None
    ticks.cash_tables_tick(later(6))
    assert Hand.objects.get(pk=running.pk).status == HandStatus.RUNNING  # only the first tick recovers


def test_outside_the_ticker_process_no_recovery_runs_by_itself() -> None:
    assert ticks.startup_recovery_pending is False


def _clock_that_fails(hand_id: int, *, now: object) -> bool:
    raise RuntimeError("a fault in the hand's clock")


def test_cash_23_a_hand_whose_clock_keeps_failing_is_cancelled_30_seconds_past_its_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CASH-23: a server error that prevents a hand from finishing cancels it and returns every bet: the stacks are
    back at their start-of-hand amounts, the reason is recorded, and the table deals again instead of freezing."""
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    deadline = Hand.objects.get(pk=hand.pk).action_deadline
    assert deadline is not None
    monkeypatch.setattr(ticks, "hand_timeout", _clock_that_fails)

    ticks.cash_tables_tick(deadline)
    ticks.cash_tables_tick(deadline + ticks.FAILING_HAND_GRACE - timedelta(seconds=1))
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.RUNNING  # a passing fault is retried

    ticks.cash_tables_tick(deadline + ticks.FAILING_HAND_GRACE)

    cancelled = Hand.objects.get(pk=hand.pk)
    assert cancelled.status == HandStatus.CANCELLED
    assert "server error" in cancelled.cancellation_reason
    assert cancelled.cancellation_reason == SERVER_ERROR_REASON  # CASH-23, in plain words
    assert HandEvent.objects.filter(hand=hand, kind="hand_cancelled").exists()
    assert [stack(table, user) for user in users] == [1000, 1000, 1000]
    monkeypatch.undo()
    ticks.cash_tables_tick(deadline + ticks.FAILING_HAND_GRACE + timedelta(seconds=10))
    following = current_hand(table)
    assert following is not None
    assert following.pk != hand.pk


def test_cash_23_a_clock_that_fails_once_and_then_works_does_not_cancel_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    deadline = Hand.objects.get(pk=hand.pk).action_deadline
    assert deadline is not None
    with monkeypatch.context() as patched:
        patched.setattr(ticks, "hand_timeout", _clock_that_fails)
        ticks.cash_tables_tick(deadline)

    ticks.cash_tables_tick(deadline + timedelta(seconds=1))

    advanced = Hand.objects.get(pk=hand.pk)
    assert advanced.status == HandStatus.RUNNING
    assert advanced.clock_phase == ClockPhase.TIMEBANK
