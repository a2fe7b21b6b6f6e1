"""CASH-11 (and CASH-14): a player back within 30 minutes who asks the stake queue for more than their own ratholing
maximum is refused with THEIR limits (those of the table they left) and why, in the words the table uses when it
refuses an amount below them, and in the shape of every other refusal (code ``buy_in_refused`` and a message). Before,
the refusal quoted the stake's usual range, €5.00 to €10.00, which the player is not bound by (QA report F, finding 4).
Nothing is queued."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.cash import commands as cash_commands
from games.models import SeatingRequest, SeatingRequestStatus
from games.runtime.commands import CommandRefused
from games.services import table_join_queue
from tests.tables.support import START, cash, left_table_earlier, open_table, player

pytestmark = pytest.mark.django_db

TEN_MINUTES_AGO = START - timedelta(minutes=10)
OWN_LIMITS = (
    "The buy-in here must be €10.00 to €18.33: You left this table with €18.33 less than 30 minutes ago: you may "
    "bring back up to that stack. Today you have come back to a table with a big stack 0 times; from the 6th time you "
    "bring back all of it."
)


def test_cash_11_more_than_the_stack_left_with_is_refused_naming_the_players_own_range() -> None:
    table = open_table()  # Texas Hold'em NL10: the usual range is €5.00 to €10.00
    dave = player(cash=10_000)
    # 183 BB, ten minutes ago (the API asks at the present time): may bring back €10.00 to €18.33
    left_table_earlier(dave, table, 1833, timezone.now() - timedelta(minutes=10))

    with pytest.raises(CommandRefused) as refused:
        cash_commands.join_stake_queue(dave, table.stake, 1834)

    assert (refused.value.code, refused.value.message) == ("buy_in_refused", OWN_LIMITS)
    assert not SeatingRequest.objects.filter(user=dave).exists()
    assert cash(dave) == 10_000


def test_cash_11_the_refusal_above_the_maximum_reads_as_the_tables_refusal_below_the_minimum() -> None:
    table = open_table()
    dave = player(cash=10_000)
    left_table_earlier(dave, table, 1833, TEN_MINUTES_AGO)

    below = table_join_queue(dave, table.stake, 999, now=START)  # the table he left refuses it when it seats him
    assert (below.status, below.message) == (SeatingRequestStatus.FAILED, OWN_LIMITS)

    with pytest.raises(Exception) as above:
        table_join_queue(dave, table.stake, 1834, now=START)
    assert (getattr(above.value, "code", None), str(above.value)) == ("buy_in_refused", OWN_LIMITS)
    assert (above.value.minimum, above.value.maximum) == (1000, 1833)  # type: ignore[attr-defined]


def test_cash_14_a_deepstack_return_above_its_own_maximum_names_the_stack_left_with() -> None:
    table = open_table("deepstack", "NL100")
    user = player(cash=1_000_000)
    # above the €100.00 maximum: exactly €120.00 (the larger of the maximum and the stack, both ends)
    left_table_earlier(user, table, 12_000, timezone.now() - timedelta(minutes=10))

    with pytest.raises(CommandRefused) as refused:
        cash_commands.join_stake_queue(user, table.stake, 12_001)

    assert refused.value.code == "buy_in_refused"
    assert refused.value.message.startswith("The buy-in here must be exactly €120.00: You left this table with €120.00")
