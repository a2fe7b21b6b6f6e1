"""CASH-22 / TB-07 with table actors (issue 27): a socket's connection report during a hand the table's owner holds is
applied to that hand in memory, with no database statement — the seat's connection record and its public event, and
for the player to act the clock switch — and written with the hand's end, or before a durable service that runs
during the hand; events, deadlines, seats and settlement stay those of the per-action durable path. A report that
returns a tournament player to play (TRN-04 / AMB-57) still runs its durable service."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import ClockPhase, Seat, SeatStatus
from games.runtime import presence
from games.runtime.actor import Outcome, TableCommand
from games.runtime.clocks import player_connection_lost, player_connection_restored
from games.runtime.commands import service_call
from tests.tables.command_twins import Answer, Clock, CommandTwins
from tests.tables.twins import tournament_pair

pytestmark = pytest.mark.django_db(transaction=True)


def the_durable_service_must_not_run() -> Any:
    raise AssertionError("the connection report ran its durable service")


def report_at_both_tables(twins: CommandTwins, seat: int, connected: bool) -> tuple[Answer, Outcome, int]:
    """The player in ``seat`` loses their last socket (or opens one again) at both tables: the durable service at the
    durable table; at the actor's, a report whose service must not run. Returns the durable answer, the actor's
    outcome and the number of statements the actor ran."""
    report = player_connection_restored if connected else player_connection_lost
    now = twins.clock.advance(1)
    durable = Answer(service_call(report, twins.user(twins.durable, seat), twins.durable))
    message_type = "connection_restored" if connected else "connection_lost"
    command = TableCommand(twins.user(twins.memory, seat).pk, message_type, the_durable_service_must_not_run)
    with CaptureQueriesContext(connection) as statements:
        outcome = twins.actor.handle(command, now)
    twins.outcomes.append(outcome)
    return durable, outcome, len(statements)


def test_a_player_not_to_act_losing_and_regaining_their_socket_is_recorded_in_memory_until_the_hand_ends(
    clock: Clock,
) -> None:
    twins = CommandTwins(clock, players=3, seed=6)
    twins.deal()
    acting = twins.acting_seat()
    other = next(number for number in (1, 2, 3) if number != acting)

    durable, outcome, statements = report_at_both_tables(twins, other, connected=False)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_disconnected"]
    assert len(outcome.sequences) == 1  # logged and published as the hand's events are
    lost_at = clock.now
    assert Seat.objects.get(table=twins.memory, number=other).disconnected_since is None  # not yet written
    assert Seat.objects.get(table=twins.durable, number=other).disconnected_since == lost_at

    durable, outcome, statements = report_at_both_tables(twins, other, connected=False)
    assert (durable, Answer(outcome.result), outcome.events, statements) == (Answer(False), Answer(False), (), 0)

    twins.act()
    durable, outcome, statements = report_at_both_tables(twins, other, connected=True)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_reconnected"]
    durable, outcome, statements = report_at_both_tables(twins, other, connected=False)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    lost_again_at = clock.now
    twins.play_to_the_end()

    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=other).disconnected_since == lost_again_at
    call_command("wallet_reconcile")


def test_the_player_to_act_losing_their_socket_in_the_timebank_switches_the_clock_without_a_statement(
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
    timebank = live.seats[acting].timebank_milliseconds
    clock.advance(3)

    durable, outcome, statements = report_at_both_tables(twins, acting, connected=False)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_disconnected", "turn"]
    assert live.hand.clock_phase == ClockPhase.RECONNECT
    assert live.seats[acting].timebank_milliseconds == timebank - 4_000  # 3 s waited and 1 s to the report: gone
    assert live.hand.action_deadline == twins.durable_hand().action_deadline

    durable, outcome, statements = report_at_both_tables(twins, acting, connected=True)
    assert statements == 0
    assert [event.kind for event in outcome.events] == ["seat_reconnected", "turn"]
    assert live.hand.clock_phase == ClockPhase.TIMEBANK
    assert live.hand.action_deadline == twins.durable_hand().action_deadline
    twins.act("call")
    twins.play_to_the_end()

    twins.assert_alike()
    call_command("wallet_reconcile")


def test_a_durable_command_during_the_hand_finds_the_connection_record_the_hand_holds(clock: Clock) -> None:
    twins = CommandTwins(clock, players=3, seed=6)
    twins.deal()
    acting = twins.acting_seat()
    away, other = (number for number in (1, 2, 3) if number != acting)
    report_at_both_tables(twins, away, connected=False)
    lost_at = clock.now

    assert twins.command(other, "sit_out") == (Answer({}), Answer({}))  # a durable service during the hand

    assert Seat.objects.get(table=twins.memory, number=away).disconnected_since == lost_at  # written before it ran
    twins.play_to_the_end()
    twins.assert_alike()


@pytest.fixture
def quiet_tournament_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)


AWAY = 2
"""At the tournament tables this player has no socket when the hand is dealt: they sit out (disconnected) and are
dealt in, acted for (TRN-19). Seat 2 is the big blind, the last to act before the flop."""


@pytest.mark.usefixtures("quiet_tournament_realtime")
def test_a_tournament_player_whose_socket_returns_mid_hand_is_returned_to_play_by_the_durable_service(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    absent: set[int] = set()
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: user_id not in absent)
    twins = CommandTwins(clock, seed=5, pair=tournament_pair(3))
    absent.update(twins.user(table, AWAY).pk for table in (twins.durable, twins.memory))
    twins.deal()
    for table in (twins.durable, twins.memory):
        seat = Seat.objects.get(table=table, number=AWAY)
        assert (seat.status, seat.disconnected_since is not None) == (SeatStatus.SITTING_OUT, True)
    assert twins.acting_seat() not in (None, AWAY), "the player away must have a turn still to come"
    absent.clear()

    assert twins.connection(AWAY, connected=True) == (Answer(True), Answer(True))  # the durable service: back in play

    while twins.acting_seat() not in (AWAY, None):
        twins.act()
    assert twins.acting_seat() == AWAY  # their own turn, with their clock: no longer acted for
    twins.play_to_the_end()
    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=AWAY).status != SeatStatus.SITTING_OUT
