"""Leaving a table, topping up and auto top-up (CASH-08, CASH-10, CASH-15, AMB-29)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.cash.policy import auto_top_up_amount
from games.models import Hand, HandEvent, HandStatus, Seat, TableSession
from games.services import (
    BuyInRefused,
    NotSeated,
    player_settings_update,
    seat_leave,
    seat_top_up,
)
from tests.tables.support import (
    START,
    acting_user,
    cash,
    check_or_call_down,
    current_hand,
    deal,
    fold_to_the_end,
    money_in_table_accounts,
    open_table,
    player,
    seat_players,
    stack,
)
from wallet.services import ledger_reconcile

pytestmark = pytest.mark.django_db


def test_cash_08_leaving_between_hands_returns_the_stack_to_the_balance_at_once() -> None:
    table = open_table()
    user = player(cash=5_000)
    seat_players(table, [user], 800)
    assert cash(user) == 4_200
    seat_leave(user, table, now=START)
    assert cash(user) == 5_000
    assert not Seat.objects.filter(user=user).exists()
    assert money_in_table_accounts() == 0
    with pytest.raises(NotSeated):
        seat_leave(user, table, now=START)


def test_cash_08_a_player_leaving_during_a_hand_folds_on_their_turn_and_is_paid_out_when_it_ends() -> None:
    table = open_table()
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    leaving = next(user for user in users if user != acting_user(table))
    seat_leave(leaving, table, now=START)
    assert Seat.objects.get(user=leaving).leave_after_hand
    fold_to_the_end(table)
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.FINISHED
    assert not Seat.objects.filter(user=leaving).exists()
    stay = TableSession.objects.get(user=leaving)
    assert cash(leaving) == 5_000 - 1000 + stay.leave_stack
    assert ledger_reconcile() == []


def test_cash_08_a_player_leaving_on_their_turn_folds_at_once() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    leaving = acting_user(table)
    seat_leave(leaving, table, now=START)
    hand = current_hand(table)
    assert hand is not None
    folds = hand.events.filter(
        kind="action_taken", payload__resolved="fold", payload__seat=Seat.objects.get(user=leaving).number
    )
    assert folds.count() == 1


def test_cash_10_topping_up_is_allowed_up_to_the_table_maximum_and_added_only_between_hands() -> None:
    """During a hand the top-up is a request added when the hand ends (see
    test_a_top_up_asked_for_during_a_hand_is_added_when_it_ends.py)."""
    table = open_table()
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 600)
    with pytest.raises(BuyInRefused, match="at most"):
        seat_top_up(users[0], table, 401, now=START)
    seat_top_up(users[0], table, 400, now=START)
    assert stack(table, users[0]) == 1000
    deal(table)
    seat_top_up(users[1], table, 100, now=START)
    assert stack(table, users[1]) == 600
    assert cash(users[1]) == 4_400
    assert Seat.objects.get(user=users[1]).top_up_after_hand == 100


def test_cash_10_a_retried_top_up_with_the_same_key_moves_money_once() -> None:
    table = open_table()
    user = player(cash=5_000)
    seat_players(table, [user], 600)
    seat_top_up(user, table, 100, idempotency_key="abc", now=START)
    seat_top_up(user, table, 100, idempotency_key="abc", now=START)
    assert stack(table, user) == 700


def test_cash_15_auto_top_up_is_off_by_default_and_tops_up_to_the_initial_buy_in_after_each_hand() -> None:
    table = open_table()
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 800)
    deal(table)
    check_or_call_down(table)
    losers = [user for user in users if stack(table, user) < 800]
    assert losers
    assert all(cash(user) == 4_200 for user in users)  # off by default
    for user in users:
        player_settings_update(user, auto_top_up=True)
    deal(table)
    check_or_call_down(table)
    for user in users:
        after = stack(table, user)
        assert after >= 800
        assert cash(user) + after >= 5_000 - 100  # money only moved between the table and the balance
    assert ledger_reconcile() == []


def _three_players_with_auto_top_up_in_a_hand() -> Any:
    """A table of three players who bought in for 800 of their 5,000, auto top-up on, a hand dealt."""
    table = open_table()
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 800)
    for user in users:
        player_settings_update(user, auto_top_up=True)
    deal(table)
    return table


def test_cash_15_each_auto_top_up_is_announced_with_its_amount_and_the_stack_the_ledger_holds() -> None:
    table = _three_players_with_auto_top_up_in_a_hand()
    check_or_call_down(table)

    hand = Hand.objects.get(table=table)
    settled = HandEvent.objects.get(hand=hand, kind="hand_settled").payload["stacks"]
    topped_up = list(HandEvent.objects.filter(table=table, kind="seat_topped_up").order_by("sequence"))
    assert topped_up  # someone lost chips in the hand
    for event in topped_up:
        seat = event.payload["seat"]
        user = Seat.objects.get(table=table, number=seat).user
        assert event.payload["automatic"] is True
        assert event.payload["stack"] == stack(table, user) == 800
        assert event.payload["amount"] == 800 - settled[str(seat)]
        assert cash(user) == 5_000 - 800 - event.payload["amount"]
    assert ledger_reconcile() == []


def test_cash_15_auto_top_ups_lock_the_players_cash_accounts_before_the_first_top_up_is_booked() -> None:
    """The amounts are decided from the cash balances: those rows are locked (one statement, primary-key order)
    before any top-up transfer, so a withdrawal cannot slip in between and fail the hand's end."""
    table = _three_players_with_auto_top_up_in_a_hand()

    with CaptureQueriesContext(connection) as captured:
        check_or_call_down(table)

    statements = [query["sql"] for query in captured.captured_queries]
    cash_locks = [
        index
        for index, sql in enumerate(statements)
        if sql.startswith('SELECT "wallet_account"') and "'player:" in sql and sql.endswith("FOR UPDATE")
    ]
    top_ups = [
        index for index, sql in enumerate(statements) if "INSERT INTO wallet_transfer" in sql and "cash_top_up" in sql
    ]
    assert top_ups  # someone lost chips and was topped up
    assert len(cash_locks) == 1
    assert cash_locks[0] < top_ups[0]


def test_cash_15_amb_29_auto_top_up_limits() -> None:
    """Only below the initial buy-in; never above the table maximum; as far as the balance allows (not in Banzai,
    CASH-27); Banzai → 10 BB."""
    table = open_table()
    terms = table.stake.terms_at(START)  # NL10: maximum €10.00
    assert auto_top_up_amount(900, 800, terms, banzai=False, balance=10_000) == 0
    assert auto_top_up_amount(500, 800, terms, banzai=False, balance=10_000) == 300
    assert auto_top_up_amount(500, 800, terms, banzai=False, balance=120) == 120
    assert auto_top_up_amount(500, 2_500, terms, banzai=False, balance=10_000) == 500  # ratholed 250 BB: cap at max
    banzai = open_table("banzai", "NL5").stake.terms_at(START)
    assert auto_top_up_amount(320, 500, banzai, banzai=True, balance=10_000) == 180
    assert auto_top_up_amount(320, 500, banzai, banzai=True, balance=180) == 180


def test_cash_27_a_banzai_auto_top_up_brings_the_stack_to_exactly_10_big_blinds_or_does_not_happen() -> None:
    """CASH-27 (seed, 002 BANZAI): top-ups bring a Banzai stack to exactly 10 BB; with too little balance for that,
    AMB-29's "as far as the balance allows" does not apply and the stack is left as it is."""
    banzai = open_table("banzai", "NL5").stake.terms_at(START)  # 10 BB = €5.00
    assert auto_top_up_amount(320, 500, banzai, banzai=True, balance=179) == 0
    assert auto_top_up_amount(0, 500, banzai, banzai=True, balance=499) == 0


def test_a_player_left_without_chips_sits_out_until_they_top_up() -> None:
    table = open_table()
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    # The first player to act goes all-in and everyone calls.
    from tests.tables.support import act

    act(table, "all_in")
    act(table, "call")
    act(table, "call")
    hand = current_hand(table)
    assert hand is None
    busted = [user for user in users if stack(table, user) == 0]
    for user in busted:
        seat = Seat.objects.get(user=user)
        assert seat.status == "sitting_out"
        assert seat.sit_out_reason == "no_chips"
        seat_top_up(user, table, 500, now=START)
        assert Seat.objects.get(user=user).status != "sitting_out"
    assert fold_to_the_end  # helper kept for symmetry with other tests
