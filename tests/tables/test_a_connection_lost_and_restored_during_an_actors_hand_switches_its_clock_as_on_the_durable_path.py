"""CASH-22 / TB-07 / TB-04 with table actors (issue 27, step 3): the sockets' connection reports reach the table's
owner, which records them durably (``games.runtime.clocks``) and switches the clock of the hand it holds: a player to
act who loses their last socket during their timebank loses what they used of it and gets the reconnection grace; back
during the grace, their timebank runs again — the same turn events, deadlines, timebanks and settlement as on the
per-action durable path, and the ledger reconciles."""

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
    clock.advance(3)

    assert twins.connection(acting, connected=False) == (Answer(True), Answer(True))
    assert live.hand.clock_phase == ClockPhase.RECONNECT  # switched in memory, with the used timebank gone
    assert twins.durable_hand().clock_phase == ClockPhase.RECONNECT
    assert twins.connection(acting, connected=False) == (Answer(False), Answer(False))  # reported twice: no change
    clock.advance(4)
    assert twins.connection(acting, connected=True) == (Answer(True), Answer(True))
    assert live.hand.clock_phase == ClockPhase.TIMEBANK
    assert live.hand.action_deadline == twins.durable_hand().action_deadline

    twins.act("call")
    twins.play_to_the_end()

    twins.assert_alike()
    call_command("wallet_reconcile")
