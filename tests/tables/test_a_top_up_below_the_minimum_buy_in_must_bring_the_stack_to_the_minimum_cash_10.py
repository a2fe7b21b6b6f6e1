"""CASH-10: the minimum buy-in of a regular table (50 BB) cannot be bypassed with "Top up" (QA report F, finding 3).

Reading of the rule: CASH-10 sets a minimum and a maximum buy-in; the seeds give top-ups only a ceiling (the table
maximum; Banzai: exactly 10 BB, CASH-27) and no minimum amount. So a player whose stack is at or above the minimum
buy-in may add any amount up to the maximum, while a player whose stack is below the minimum (a busted seat, or chips
lost below it) is buying back in: the top-up must bring the stack to at least the minimum buy-in. The refusal says the
amounts in money, and nothing changes."""

from __future__ import annotations

import pytest

from games.models import Seat
from games.services import BuyInRefused, seat_top_up
from tests.tables.support import (
    START,
    act,
    cash,
    current_hand,
    deal,
    fold_to_the_end,
    open_table,
    player,
    seat_players,
    stack,
)

pytestmark = pytest.mark.django_db


def test_a_busted_player_cannot_top_up_to_less_than_the_minimum_buy_in_nor_by_one_cent() -> None:
    table = open_table()  # Texas Hold'em NL10 (0.05/0.10): buy-in €5.00 to €10.00
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    act(table, "all_in")
    act(table, "call")
    act(table, "call")
    assert current_hand(table) is None
    busted = [user for user in users if stack(table, user) == 0]
    assert busted
    user = busted[0]
    balance = cash(user)

    for amount in (1, 100, 499):
        with pytest.raises(BuyInRefused) as refused:
            seat_top_up(user, table, amount, now=START)
        assert str(refused.value) == (
            "Your stack (€0.00) is below the minimum buy-in of €5.00: a top-up must bring it to at least €5.00, so "
            "add between €5.00 and €10.00."
        )
        assert (refused.value.minimum, refused.value.maximum) == (500, 1000)
    seat = Seat.objects.get(user=user)
    assert (seat.status, seat.sit_out_reason, stack(table, user), cash(user)) == ("sitting_out", "no_chips", 0, balance)

    seat_top_up(user, table, 500, now=START)
    assert stack(table, user) == 500
    assert Seat.objects.get(user=user).status != "sitting_out"


def test_a_player_with_chips_below_the_minimum_tops_up_to_at_least_the_minimum_and_above_it_any_amount() -> None:
    table = open_table()
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 500)
    deal(table)
    fold_to_the_end(table)  # the small blind loses €0.05 and ends below the €5.00 minimum
    short = next(user for user in users if stack(table, user) == 495)
    winner = next(user for user in users if stack(table, user) > 500)

    with pytest.raises(BuyInRefused) as refused:
        seat_top_up(short, table, 4, now=START)
    assert str(refused.value) == (
        "Your stack (€4.95) is below the minimum buy-in of €5.00: a top-up must bring it to at least €5.00, so add "
        "between €0.05 and €5.05."
    )
    assert stack(table, short) == 495
    seat_top_up(short, table, 5, now=START)
    assert stack(table, short) == 500

    before = stack(table, winner)
    seat_top_up(winner, table, 1, now=START)  # at or above the minimum a top-up has no minimum of its own
    assert stack(table, winner) == before + 1
