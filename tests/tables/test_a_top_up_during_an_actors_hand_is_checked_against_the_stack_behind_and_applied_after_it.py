"""CASH-15 / CASH-10 with table actors (issue 27, step 3): a top-up asked for during a hand the table's owner holds in
memory is checked against the stack the player has behind now (the hand's state in memory, not the deal's), refused
above the table maximum with the durable path's words, and applied when the hand ends, exactly as on the per-action
durable path: the same events, settlement, stacks and ledger, and the ledger reconciles."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tables.command_twins import Answer, Clock, CommandTwins
from tests.tables.support import stack

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 600
TABLE_MAXIMUM = 1_000
"""NL10: at most €10 at the table (AMB-64)."""


def test_a_top_up_asked_for_mid_hand_counts_the_chips_already_bet_and_lands_after_the_hand(clock: Clock) -> None:
    twins = CommandTwins(clock, players=3, buy_in=BUY_IN, seed=8)
    twins.deal()
    caller = twins.acting_seat()
    assert caller is not None
    twins.act("call")  # the big blind is in the pot: less than the buy-in behind
    behind = twins.actor.live.state.stacks[caller] if twins.actor.live is not None else 0
    assert behind < BUY_IN

    refused = twins.command(caller, "top_up", {"amount": TABLE_MAXIMUM - behind + 1})
    assert refused[0].refusal is not None
    assert refused[0].refusal[0] == "buy_in_refused"
    assert refused[0] == refused[1]
    durable, memory = twins.command(caller, "top_up", {"amount": TABLE_MAXIMUM - behind})
    assert durable == memory == Answer({})  # accepted at both: the deal's stack would have refused it

    twins.play_to_the_end()

    twins.assert_alike()
    assert stack(twins.durable, twins.user(twins.durable, caller)) == stack(
        twins.memory, twins.user(twins.memory, caller)
    )
    call_command("wallet_reconcile")


def test_a_malformed_top_up_is_refused_as_the_durable_path_refuses_it(clock: Clock) -> None:
    twins = CommandTwins(clock, players=3, seed=4)
    twins.deal()
    durable, memory = twins.command(1, "top_up", {"amount": "lots"})
    assert durable.refusal is not None
    assert durable == memory
