"""The action clock: normal decision time, the timebank, disconnection grace (TB-01, TB-03, TB-04, TB-05, TB-07,
CASH-22, AMB-10, AMB-31, AMB-32)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest

from games.models import ClockPhase, GameRules, Hand, HandEvent, Seat, SeatStatus, SitOutReason
from games.services import (
    hand_act,
    hand_timeout,
    player_connection_lost,
    player_connection_restored,
)
from tests.tables.support import (
    START,
    acting_user,
    current_hand,
    deal,
    fold_to_the_end,
    later,
    open_table,
    player,
    seat_players,
)

pytestmark = pytest.mark.django_db


def three_handed() -> tuple[object, Hand]:
    table = open_table()
    seat_players(table, [player() for _ in range(3)], 1000)
    return table, deal(table)


def seat_of(user: object) -> Seat:
    return Seat.objects.get(user=user)


def test_tb_05_the_player_to_act_has_10_seconds_by_default() -> None:
    _table, hand = three_handed()
    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.DECISION
    assert hand.action_deadline == later(10)


def test_tb_05_the_decision_time_is_configurable_per_game_type() -> None:
    table = open_table()
    current = GameRules.objects.get(game_type=table.stake.game_type)
    current.pk = None
    current.effective_from = START - timedelta(minutes=1)
    current.decision_seconds = 7
    current.save()
    seat_players(table, [player() for _ in range(3)], 1000)
    hand = deal(table)
    hand.refresh_from_db()
    assert hand.action_deadline == later(7)


def test_tb_04_the_timebank_runs_after_the_decision_time_and_what_is_used_is_gone() -> None:
    """TB-01/TB-02: 15 s at the first hand; the player takes 10 s of timebank → 5 s left."""
    table, hand = three_handed()
    user = acting_user(table)
    assert seat_of(user).timebank_milliseconds == 15_000
    assert hand_timeout(hand.pk, now=later(9)) is False  # not yet
    assert hand_timeout(hand.pk, now=later(10)) is True
    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.TIMEBANK
    assert hand.action_deadline == later(25)
    hand_act(table, user, "fold", now=later(20))
    assert seat_of(user).timebank_milliseconds == 5_000


def test_tb_04_when_the_timebank_is_exhausted_the_player_is_checked_or_folded() -> None:
    table, hand = three_handed()
    user = acting_user(table)
    hand_timeout(hand.pk, now=later(10))
    assert hand_timeout(hand.pk, now=later(24.9)) is False
    assert hand_timeout(hand.pk, now=later(25)) is True
    assert seat_of(user).timebank_milliseconds == 0
    event = HandEvent.objects.filter(hand=hand, kind="action_taken").order_by("sequence").last()
    assert event is not None
    assert event.payload["action"]["type"] == "timeout"
    assert event.payload["resolved"] == "fold"  # facing the big blind preflop
    assert seat_of(user).status == SeatStatus.PLAYING  # a connected player who timed out keeps playing


def test_tb_04_a_player_without_timebank_times_out_at_the_end_of_the_decision_time() -> None:
    table, hand = three_handed()
    user = acting_user(table)
    Seat.objects.filter(user=user).update(timebank_milliseconds=0)
    hand_timeout(hand.pk, now=later(10))
    assert HandEvent.objects.filter(hand=hand, kind="action_taken").count() == 1


def test_the_clock_handler_is_idempotent() -> None:
    _table, hand = three_handed()
    assert hand_timeout(hand.pk, now=later(10)) is True
    assert hand_timeout(hand.pk, now=later(10)) is False
    hand.refresh_from_db()
    assert hand.action_deadline == later(25)


def test_tb_01_tb_03_the_timebank_carries_over_and_grows_by_5_seconds_every_10th_hand_up_to_30() -> None:
    """TB-03 [derived, AMB-31], played out: starts 15 s; uses 12 s in hand 3 → 3 s; after hand 10 → 8 s; after hand 20
    → 13 s; unused, after hand 30 → 18 s; ... capped at 30 s (after hand 60: 28 + 5 → 30)."""
    table, _first = three_handed()
    fold_to_the_end(table)
    deal(table)
    fold_to_the_end(table)
    third = deal(table)
    user = acting_user(table)  # every player is dealt into every hand: all three have the same count
    assert seat_of(user).hands_dealt_in == 2  # counted when a hand ends: this is their third
    hand_timeout(third.pk, now=later(10))
    hand_act(table, user, "fold", now=later(22))
    assert seat_of(user).timebank_milliseconds == 3_000
    fold_to_the_end(table)
    expected_after = {10: 8_000, 20: 13_000, 30: 18_000, 40: 23_000, 50: 28_000, 60: 30_000}
    while seat_of(user).hands_dealt_in < 60:
        deal(table)
        fold_to_the_end(table)
        seat = seat_of(user)
        before_the_next_tenth = expected_after.get(seat.hands_dealt_in // 10 * 10, 3_000)
        assert seat.timebank_milliseconds == before_the_next_tenth, f"after hand {seat.hands_dealt_in}"


def test_tb_02_the_timebank_never_exceeds_30_seconds() -> None:
    table, _hand = three_handed()
    fold_to_the_end(table)
    users = [seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)]
    Seat.objects.filter(table=table).update(hands_dealt_in=29, timebank_milliseconds=28_000)
    deal(table)
    fold_to_the_end(table)
    assert {seat_of(user).timebank_milliseconds for user in users} == {30_000}


def test_cash_22_tb_07_a_disconnected_player_gets_20_seconds_after_the_decision_time_then_is_folded_and_sat_out() -> (
    None
):
    """AMB-10: 10 s + 20 s = 30 s; the timebank is not used while disconnected; sit out at the end of the hand."""
    table, hand = three_handed()
    user = acting_user(table)
    assert player_connection_lost(user, table, now=later(2)) is True
    assert player_connection_lost(user, table, now=later(3)) is False  # idempotent
    hand_timeout(hand.pk, now=later(10))
    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.RECONNECT
    assert hand.action_deadline == later(30)
    assert hand_timeout(hand.pk, now=later(29)) is False
    assert hand_timeout(hand.pk, now=later(30)) is True
    assert seat_of(user).timebank_milliseconds == 15_000
    event = HandEvent.objects.filter(hand=hand, kind="action_taken").order_by("sequence").last()
    assert event is not None
    assert event.payload["resolved"] == "fold"
    seat = seat_of(user)
    assert seat.sit_out_after_hand
    fold_to_the_end(table, now=later(31))
    seat = seat_of(user)
    assert seat.status == SeatStatus.SITTING_OUT
    assert seat.sit_out_reason == SitOutReason.DISCONNECTED
    assert seat.sit_out_deadline == later(31 + 600)


def _socket_heard_from(presence_records: Any, user: Any, table: Any, seconds_ago: float) -> None:
    from games.runtime.presence import _blocking_client

    key = presence_records.key(user.pk, table.pk)
    _blocking_client().zadd(key, {"socket-under-test": time.time() - seconds_ago})
    _blocking_client().expire(key, 60)


def test_cash_22_a_player_who_never_opened_the_table_is_disconnected_when_the_decision_time_ends(
    presence_from_redis: Any,
) -> None:
    """CASH-22 / TB-07: no socket ever reported closing, but the player has no live socket on the table (seated
    through the API, never opened it): at the end of the decision time the 20 s grace starts instead of the timebank,
    then the automatic action, then sitting out at the end of the hand."""
    table, hand = three_handed()
    user = acting_user(table)

    assert hand_timeout(hand.pk, now=later(10)) is True

    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.RECONNECT
    assert hand.action_deadline == later(30)
    assert seat_of(user).disconnected_since == later(10)
    assert HandEvent.objects.filter(table=table, kind="seat_disconnected").count() == 1
    assert hand_timeout(hand.pk, now=later(30)) is True
    assert seat_of(user).timebank_milliseconds == 15_000
    assert seat_of(user).sit_out_after_hand
    fold_to_the_end(table, now=later(31))
    assert seat_of(user).status == SeatStatus.SITTING_OUT
    assert seat_of(user).sit_out_reason == SitOutReason.DISCONNECTED


def test_cash_22_a_player_whose_socket_sent_a_heartbeat_recently_goes_on_to_the_timebank(
    presence_from_redis: Any,
) -> None:
    """TB-04: a connected player (a socket heard from within the stale limit) gets the timebank, not the grace."""
    table, hand = three_handed()
    user = acting_user(table)
    _socket_heard_from(presence_from_redis, user, table, seconds_ago=1)

    hand_timeout(hand.pk, now=later(10))

    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.TIMEBANK
    assert seat_of(user).disconnected_since is None


def test_cash_22_a_socket_silent_for_longer_than_the_stale_limit_died_with_its_server(presence_from_redis: Any) -> None:
    """CASH-22 after a crash: a socket whose server process died never reported closing and stopped its heartbeats;
    once it is older than the stale limit the player counts as disconnected."""
    from games.runtime.presence import STALE_SECONDS

    table, hand = three_handed()
    user = acting_user(table)
    _socket_heard_from(presence_from_redis, user, table, seconds_ago=STALE_SECONDS + 5)

    hand_timeout(hand.pk, now=later(10))

    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.RECONNECT
    assert seat_of(user).disconnected_since == later(10)


def test_cash_22_a_player_reported_gone_but_with_a_live_socket_goes_on_to_the_timebank(
    presence_from_redis: Any,
) -> None:
    """Two sockets closing and opening at once: the report of the closed one landed last, yet the player's new socket
    is live. At the end of the decision time the sockets' presence wins: the timebank runs, no grace, no sitting out."""
    table, hand = three_handed()
    user = acting_user(table)
    player_connection_lost(user, table, now=later(2))
    _socket_heard_from(presence_from_redis, user, table, seconds_ago=1)

    hand_timeout(hand.pk, now=later(10))

    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.TIMEBANK
    assert seat_of(user).disconnected_since is None
    assert HandEvent.objects.filter(table=table, kind="seat_reconnected").count() == 1


def test_cash_22_the_automatic_decision_is_a_check_when_checking_is_possible() -> None:
    table, hand = three_handed()
    # Everyone calls to the big blind, who may check: disconnect the big blind and let the clock run out.
    while True:
        hand = current_hand(table)  # type: ignore[assignment]
        user = acting_user(table)
        if Seat.objects.get(user=user).number == hand.config["big_blind_seat"]:
            break
        hand_act(table, user, "call", now=START)
    player_connection_lost(user, table, now=START)
    hand_timeout(hand.pk, now=later(10))
    hand_timeout(hand.pk, now=later(30))
    event = HandEvent.objects.filter(hand=hand, kind="action_taken").order_by("sequence").last()
    assert event is not None
    assert event.payload["resolved"] == "check"


def test_tb_07_a_player_back_within_the_grace_continues_on_their_timebank() -> None:
    table, hand = three_handed()
    user = acting_user(table)
    player_connection_lost(user, table, now=later(1))
    hand_timeout(hand.pk, now=later(10))
    assert player_connection_restored(user, table, now=later(12)) is True
    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.TIMEBANK
    assert hand.action_deadline == later(12 + 15)
    hand_act(table, user, "fold", now=later(14))
    assert seat_of(user).timebank_milliseconds == 13_000
    assert not seat_of(user).sit_out_after_hand


def test_tb_07_disconnecting_while_the_timebank_runs_stops_it_and_starts_the_grace() -> None:
    table, hand = three_handed()
    user = acting_user(table)
    hand_timeout(hand.pk, now=later(10))
    player_connection_lost(user, table, now=later(14))
    hand.refresh_from_db()
    assert seat_of(user).timebank_milliseconds == 11_000
    assert hand.clock_phase == ClockPhase.RECONNECT
    assert hand.action_deadline == later(34)


def test_connection_reports_for_someone_without_a_seat_change_nothing() -> None:
    table, _hand = three_handed()
    stranger = player()
    assert player_connection_lost(stranger, table, now=START) is False
    assert player_connection_restored(stranger, table, now=START) is False
