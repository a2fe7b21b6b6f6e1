"""A top-up asked for during a hand is accepted as a request and applied when the hand ends (CASH-15: chips are added
between hands; CASH-10: never above the table maximum), shown as pending to its player only (issue 28)."""

from __future__ import annotations

import pytest

from games.cash.policy import top_up_requested_amount
from games.models import HandEvent, Seat
from games.runtime.engine_state import hand_engine_state
from games.services import BuyInRefused, InsufficientBalance, seat_top_up, table_snapshot
from tests.tables.support import (
    START,
    cash,
    current_hand,
    deal,
    fold_to_the_end,
    open_table,
    player,
    seat_players,
    stack,
)
from wallet.services import ledger_reconcile

pytestmark = pytest.mark.django_db


def behind(table: object, user: object) -> int:
    """The chips ``user`` has behind in the running hand."""
    hand = current_hand(table)  # type: ignore[arg-type]
    assert hand is not None
    return hand_engine_state(hand).stacks[Seat.objects.get(table=table, user=user).number]


def test_cash_15_a_top_up_during_a_hand_waits_for_its_end_and_is_then_added() -> None:
    table = open_table()  # NL10: buy-in €5.00 to €10.00
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 600)
    hand = deal(table)
    asking, other = users[0], users[1]

    seat_top_up(asking, table, 300, now=START)

    # Nothing moves during the hand: the request is kept on the seat and shown to its player only.
    assert cash(asking) == 4_400
    assert Seat.objects.get(user=asking).top_up_after_hand == 300
    number = Seat.objects.get(user=asking).number
    own = next(seat for seat in table_snapshot(table, asking)["seats"] if seat["number"] == number)
    seen = next(seat for seat in table_snapshot(table, other)["seats"] if seat["number"] == number)
    assert own["top_up_after_hand"] == 300
    assert "top_up_after_hand" not in seen
    requested = HandEvent.objects.get(table=table, kind="seat_top_up_requested")
    assert requested.payload["amount"] == 300

    fold_to_the_end(table)

    settled = HandEvent.objects.get(hand=hand, kind="hand_settled").payload["stacks"][str(number)]
    added = min(300, 1_000 - settled)
    topped_up = HandEvent.objects.get(table=table, kind="seat_topped_up")
    assert topped_up.payload["automatic"] is False
    assert (topped_up.payload["amount"], topped_up.payload["requested"]) == (added, 300)
    assert stack(table, asking) == settled + added
    assert cash(asking) == 4_400 - added
    assert Seat.objects.get(user=asking).top_up_after_hand == 0
    assert ledger_reconcile() == []


def test_cash_10_a_top_up_during_a_hand_is_checked_against_the_chips_behind_and_the_balance() -> None:
    table = open_table()
    users = [player(cash=1_000) for _ in range(3)]
    seat_players(table, users, 600)
    deal(table)
    asking = users[2]
    room = 1_000 - behind(table, asking)
    with pytest.raises(BuyInRefused, match="at most"):
        seat_top_up(asking, table, room + 1, now=START)
    with pytest.raises(InsufficientBalance, match="does not cover a top-up"):
        seat_top_up(asking, table, min(room, 401), now=START)  # €4.00 left in the balance
    assert Seat.objects.get(user=asking).top_up_after_hand == 0
    seat_top_up(asking, table, 100, now=START)
    seat_top_up(asking, table, 200, now=START)  # a later request replaces the earlier one
    assert Seat.objects.get(user=asking).top_up_after_hand == 200
    assert cash(asking) == 400


def test_cash_15_a_requested_top_up_never_passes_the_table_maximum_nor_the_balance_when_applied() -> None:
    table = open_table()
    terms = table.stake.terms_at(START)  # type: ignore[union-attr]
    assert terms.max_buy_in == 1_000
    assert top_up_requested_amount(600, 300, terms, banzai=False, balance=5_000) == 300
    assert top_up_requested_amount(900, 300, terms, banzai=False, balance=5_000) == 100  # won meanwhile: up to €10
    assert top_up_requested_amount(1_200, 300, terms, banzai=False, balance=5_000) == 0
    assert top_up_requested_amount(600, 300, terms, banzai=False, balance=120) == 120
    banzai = open_table("banzai", "NL5").stake.terms_at(START)  # type: ignore[union-attr]
    assert top_up_requested_amount(320, 100, banzai, banzai=True, balance=5_000) == 180  # exactly to 10 BB
    assert top_up_requested_amount(320, 100, banzai, banzai=True, balance=179) == 0
