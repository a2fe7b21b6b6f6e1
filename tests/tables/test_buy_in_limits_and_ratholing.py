"""Buy-in limits and ratholing (CASH-10, CASH-11, CASH-12, CASH-13, CASH-14, AMB-26, AMB-30).

Worked examples of CASH-11 at NL10 (0.05/0.10, BB = €0.10).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.cash.buy_in import daily_count
from games.models import BuyInKind, DailyCounterKind, PlayerDailyCounter, Seat, TableSession
from games.services import BuyInRefused, seat_buy_in_limits, seat_leave, seat_take
from tests.tables.support import START, cash, left_table_earlier, open_table, player

pytestmark = pytest.mark.django_db

TWENTY_MINUTES_LATER = START + timedelta(minutes=20)


def limits(user: object, table: object, now: object = TWENTY_MINUTES_LATER) -> tuple[int, int]:
    result = seat_buy_in_limits(user, table, now=now)
    return result.minimum, result.maximum


def set_ratholing_counter(user: object, value: int) -> None:
    PlayerDailyCounter.objects.create(user=user, kind=DailyCounterKind.RATHOLING, day=START.date(), count=value)


def test_cash_10_a_new_player_buys_in_for_50_to_100_big_blinds() -> None:
    table = open_table("holdem", "NL10")
    assert limits(player(), table) == (500, 1000)


def test_cash_11_row_no_left_more_than_30_minutes_ago() -> None:
    """Left 31 minutes ago with €25.00 → €5.00–€10.00 (row NO)."""
    table = open_table("holdem", "NL10")
    user = player()
    left_table_earlier(user, table, 2500, START)
    assert limits(user, table, START + timedelta(minutes=31)) == (500, 1000)


def test_cash_11_row_yes_left_with_50_big_blinds_or_less() -> None:
    """Left 20 min ago with €4.00 (40 BB) → €5.00–€10.00; exactly 50 BB is in the same row."""
    table = open_table("holdem", "NL10")
    user, other = player(), player()
    left_table_earlier(user, table, 400, START)
    left_table_earlier(other, table, 500, START)
    assert limits(user, table) == (500, 1000)
    assert limits(other, table) == (500, 1000)


def test_cash_11_row_yes_left_with_between_50_and_100_big_blinds() -> None:
    """Left with €7.30 (73 BB) → €7.30–€10.00."""
    table = open_table("holdem", "NL10")
    user = player()
    left_table_earlier(user, table, 730, START)
    assert limits(user, table) == (730, 1000)


def test_cash_11_row_yes_left_with_100_big_blinds_or_more_counter_below_five() -> None:
    """Left with €25.00 (250 BB), counter 2 → €10.00–€25.00."""
    table = open_table("holdem", "NL10")
    user = player()
    left_table_earlier(user, table, 2500, START)
    set_ratholing_counter(user, 2)
    assert limits(user, table) == (1000, 2500)


def test_cash_11_row_yes_left_with_100_big_blinds_or_more_counter_five_or_more() -> None:
    """Left with €25.00, counter 5 → exactly €25.00."""
    table = open_table("holdem", "NL10")
    user = player()
    left_table_earlier(user, table, 2500, START)
    set_ratholing_counter(user, 5)
    assert limits(user, table) == (2500, 2500)


def test_cash_11_a_buy_in_outside_the_limits_is_refused_and_nothing_changes() -> None:
    table = open_table("holdem", "NL10")
    user = player(cash=10_000)
    left_table_earlier(user, table, 730, START)
    with pytest.raises(BuyInRefused, match=r"€7\.30 to €10\.00") as refusal:
        seat_take(user, table, 600, now=TWENTY_MINUTES_LATER)
    assert (refusal.value.minimum, refusal.value.maximum) == (730, 1000)
    assert cash(user) == 10_000
    assert not Seat.objects.filter(user=user).exists()
    seat_take(user, table, 730, now=TWENTY_MINUTES_LATER)
    assert cash(user) == 10_000 - 730


def test_cash_12_the_counter_counts_returns_with_100_big_blinds_or_more_and_resets_at_midnight_utc() -> None:
    """AMB-26: read before the re-seat, incremented after it; across stakes; a new UTC day starts at zero."""
    table = open_table("holdem", "NL10")
    other_stake_table = open_table("omaha", "PL25")
    user = player(cash=100_000)
    left_table_earlier(user, table, 2500, START)
    result = seat_buy_in_limits(user, table, now=TWENTY_MINUTES_LATER)
    assert result.kind == BuyInKind.RATHOLE_RETURN
    assert result.ratholing_counter == 0
    seat_take(user, table, 2000, now=TWENTY_MINUTES_LATER)
    assert daily_count(user.pk, DailyCounterKind.RATHOLING, TWENTY_MINUTES_LATER) == 1
    # Across stakes and formats: a return to the PL25 table with 100 BB counts too.
    left_table_earlier(user, other_stake_table, 2500, START)
    seat_take(user, other_stake_table, 2500, now=TWENTY_MINUTES_LATER)
    assert daily_count(user.pk, DailyCounterKind.RATHOLING, TWENTY_MINUTES_LATER) == 2
    midnight = START.replace(hour=0, minute=0) + timedelta(days=1)
    assert daily_count(user.pk, DailyCounterKind.RATHOLING, midnight - timedelta(seconds=1)) == 2
    assert daily_count(user.pk, DailyCounterKind.RATHOLING, midnight) == 0


def test_cash_12_a_return_with_less_than_100_big_blinds_is_not_counted() -> None:
    table = open_table("holdem", "NL10")
    user = player()
    left_table_earlier(user, table, 730, START)
    seat_take(user, table, 800, now=TWENTY_MINUTES_LATER)
    assert daily_count(user.pk, DailyCounterKind.RATHOLING, TWENTY_MINUTES_LATER) == 0


def test_cash_11_and_cash_08_leaving_records_the_stack_and_returning_at_once_is_limited() -> None:
    """End to end: leave with 100 BB → the stay records time, stack and big blind; returning within 30 minutes the
    minimum is 100 BB and the maximum the stack left with (here both €10.00)."""
    table = open_table("holdem", "NL10")
    user = player(cash=10_000)
    seat_take(user, table, 1000, now=START)
    seat_leave(user, table, now=START + timedelta(minutes=1))
    stay = TableSession.objects.get(user=user, table=table)
    assert (stay.ended_at, stay.leave_stack, stay.leave_big_blind) == (START + timedelta(minutes=1), 1000, 10)
    assert stay.leave_stack_in_big_blinds == 100
    assert cash(user) == 10_000
    assert limits(user, table, START + timedelta(minutes=2)) == (1000, 1000)


def test_cash_13_another_table_of_the_same_stake_is_not_restricted() -> None:
    table = open_table("holdem", "NL10")
    other = open_table("holdem", "NL10")
    user = player()
    left_table_earlier(user, table, 2500, START)
    assert limits(user, other) == (500, 1000)


def test_cash_14_deepstack_return_within_30_minutes_needs_at_least_the_stack_left_with() -> None:
    """AMB-30: minimum = max(table minimum, X), maximum = max(table maximum, X); no counter allowance."""
    table = open_table("deepstack", "NL100")
    user, rich = player(), player()
    left_table_earlier(user, table, 7_000, START)
    left_table_earlier(rich, table, 25_000, START)
    assert limits(user, table) == (7_000, 10_000)
    assert limits(rich, table) == (25_000, 25_000)
    seat_take(rich, table, 25_000, now=TWENTY_MINUTES_LATER)
    assert daily_count(rich.pk, DailyCounterKind.RATHOLING, TWENTY_MINUTES_LATER) == 0


def test_cash_14_shortstack_return_with_a_small_stack_is_not_restricted_below_the_minimum() -> None:
    table = open_table("shortstack", "PL10")
    user = player()
    left_table_earlier(user, table, 300, START)
    assert limits(user, table) == (500, 1000)
    assert limits(user, table, START + timedelta(minutes=31)) == (500, 1000)


@pytest.mark.parametrize("amount", [-500, 0, 10**20, "500", 500.0, True, None])
def test_cash_10_malformed_amounts_are_refused(amount: object) -> None:
    table = open_table("holdem", "NL10")
    user = player(cash=10_000)
    with pytest.raises(BuyInRefused):
        seat_take(user, table, amount, now=START)
    assert cash(user) == 10_000
    assert not Seat.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    ("game", "stake", "left_with", "counter", "reason"),
    [
        ("holdem", "NL10", None, 0, "The usual buy-in range of this table"),
        ("holdem", "NL10", 400, 0, "You left this table with 50 big blinds or less: the usual buy-in range applies"),
        (
            "holdem",
            "NL10",
            730,
            0,
            "You left this table with €7.30 less than 30 minutes ago: you come back with at least that stack",
        ),
        (
            "holdem",
            "NL10",
            2500,
            2,
            "You left this table with €25.00 less than 30 minutes ago: you may bring back up to that stack. Today you "
            "have come back to a table with a big stack 2 times; from the 6th time you bring back all of it",
        ),
        (
            "holdem",
            "NL10",
            2500,
            5,
            "You left this table with €25.00 less than 30 minutes ago and have come back to a table with a big stack "
            "5 times today: you bring back all of it",
        ),
    ],
)
def test_cash_10_to_14_the_buy_in_dialog_says_each_limit_in_plain_words_without_requirement_ids(
    game: str, stake: str, left_with: int | None, counter: int, reason: str
) -> None:
    """Issue 28: the reason shown beside the limits names no requirement ID and no "ratholing counter"."""
    table = open_table(game, stake)
    user = player()
    if left_with is not None:
        left_table_earlier(user, table, left_with, START)
    if counter:
        set_ratholing_counter(user, counter)
    rule = seat_buy_in_limits(user, table, now=TWENTY_MINUTES_LATER).rule
    assert rule == reason
    assert "CASH-" not in rule
    assert "ratholing" not in rule.lower()
