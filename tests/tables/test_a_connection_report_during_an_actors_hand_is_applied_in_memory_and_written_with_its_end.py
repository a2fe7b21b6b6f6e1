"""CASH-22 / TB-07 with table actors (issue 27): a socket's connection report during a hand the table's owner holds is
applied to that hand in memory, with no database statement — the seat's connection record and its public event,
logged and published as the hand's events are — and written with the hand's end, or before a durable service that
runs during the hand; events, seats and settlement stay those of the per-action durable path. A report that returns a
tournament player to play (TRN-04 / AMB-57) still runs its durable service. (The clock switch of a player to act:
``test_a_connection_lost_and_restored_during_an_actors_hand_switches_its_clock_as_on_the_durable_path.py``.)"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Seat, SeatStatus
from tests.tables.command_twins import (
    AWAY,
    Answer,
    Clock,
    CommandTwins,
    the_player_away_plays_their_own_turn_and_the_tables_end_alike,
    tournament_twins_with_a_player_away,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_not_to_act_losing_and_regaining_their_socket_is_recorded_in_memory_until_the_hand_ends(
    clock: Clock,
) -> None:
    twins = CommandTwins(clock, players=3, seed=6)
    twins.deal()
    acting = twins.acting_seat()
    other = next(number for number in (1, 2, 3) if number != acting)

    durable, outcome, statements = twins.connection_in_memory(other, connected=False)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_disconnected"]
    assert len(outcome.sequences) == 1  # logged and published as the hand's events are
    lost_at = clock.now
    assert Seat.objects.get(table=twins.memory, number=other).disconnected_since is None  # not yet written
    assert Seat.objects.get(table=twins.durable, number=other).disconnected_since == lost_at

    durable, outcome, statements = twins.connection_in_memory(other, connected=False)
    assert (durable, Answer(outcome.result), outcome.events, statements) == (Answer(False), Answer(False), (), 0)

    twins.act()
    durable, outcome, statements = twins.connection_in_memory(other, connected=True)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    assert [event.kind for event in outcome.events] == ["seat_reconnected"]
    durable, outcome, statements = twins.connection_in_memory(other, connected=False)
    assert statements == 0
    assert durable == Answer(outcome.result) == Answer(True)
    lost_again_at = clock.now
    twins.play_to_the_end()

    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=other).disconnected_since == lost_again_at
    call_command("wallet_reconcile")


def test_a_durable_command_during_the_hand_finds_the_connection_record_the_hand_holds(clock: Clock) -> None:
    twins = CommandTwins(clock, players=3, seed=6)
    twins.deal()
    acting = twins.acting_seat()
    away, other = (number for number in (1, 2, 3) if number != acting)
    twins.connection_in_memory(away, connected=False)
    lost_at = clock.now

    assert twins.command(other, "sit_out") == (Answer({}), Answer({}))  # a durable service during the hand

    assert Seat.objects.get(table=twins.memory, number=away).disconnected_since == lost_at  # written before it ran
    twins.play_to_the_end()
    twins.assert_alike()


@pytest.mark.usefixtures("quiet_tournament_realtime")
def test_a_tournament_player_whose_socket_returns_mid_hand_is_returned_to_play_by_the_durable_service(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    twins, absent = tournament_twins_with_a_player_away(clock, monkeypatch, seed=5)
    for table in (twins.durable, twins.memory):
        seat = Seat.objects.get(table=table, number=AWAY)
        assert (seat.status, seat.disconnected_since is not None) == (SeatStatus.SITTING_OUT, True)
    assert twins.acting_seat() not in (None, AWAY), "the player away must have a turn still to come"
    absent.clear()

    assert twins.connection(AWAY, connected=True) == (Answer(True), Answer(True))  # the durable service: back in play

    the_player_away_plays_their_own_turn_and_the_tables_end_alike(twins)
