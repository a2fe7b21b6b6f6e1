"""CASH-22 / TB-07 / TB-04 with table actors (issue 27): the sockets' connection reports reach the table's owner, which
applies them to the hand it holds in memory, without a database statement, and switches that hand's clock: a player to
act who loses their last socket during their timebank loses what they used of it and gets the reconnection grace; back
during the grace, their timebank runs again — the same turn events, deadlines, timebanks and settlement as on the
per-action durable path (``games.runtime.clocks``), and the ledger reconciles."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import ClockPhase
from games.runtime import presence
from tests.tables.command_twins import Answer, Clock, CommandTwins

pytestmark = pytest.mark.django_db(transaction=True)


def test_losing_the_socket_in_the_timebank_starts_the_grace_and_coming_back_resumes_the_timebank(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: True)
    twins = CommandTwins(clock, players=3, seed=6)
    twins.deal()
    acting = twins.acting_seat()
    assert acting is not None
    twins.clock_due()  # decision time over, connected: the timebank runs (TB-04)
    live = twins.actor.live
    assert live is not None
    assert live.hand.clock_phase == ClockPhase.TIMEBANK
    timebank = live.seats[acting].timebank_milliseconds
    clock.advance(3)

    durable, outcome, statements = twins.connection_in_memory(acting, connected=False)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_disconnected", "turn"]
    assert live.hand.clock_phase == ClockPhase.RECONNECT  # switched in memory, with the used timebank gone
    assert live.seats[acting].timebank_milliseconds == timebank - 4_000  # 3 s waited and 1 s to the report
    assert twins.durable_hand().clock_phase == ClockPhase.RECONNECT
    assert live.hand.action_deadline == twins.durable_hand().action_deadline

    durable, outcome, statements = twins.connection_in_memory(acting, connected=False)  # reported twice: no change
    assert (durable, Answer(outcome.result), outcome.events, statements) == (Answer(False), Answer(False), (), 0)
    clock.advance(4)
    durable, outcome, statements = twins.connection_in_memory(acting, connected=True)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_reconnected", "turn"]
    assert live.hand.clock_phase == ClockPhase.TIMEBANK
    assert live.hand.action_deadline == twins.durable_hand().action_deadline

    twins.act("call")
    twins.play_to_the_end()

    twins.assert_alike()
    call_command("wallet_reconcile")
