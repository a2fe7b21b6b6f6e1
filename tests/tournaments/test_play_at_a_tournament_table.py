"""Play at a tournament table on the shared runtime: absent and sitting-out players are dealt in and acted for at once
(TRN-04, TRN-19, AMB-20, AMB-57) and sit in again when their socket comes back; the tournament's own timebank values
(TB-02, TB-08, AMB-67) and the final-stage reconnection time (TRN-31, AMB-44); no rake (RAKE-09); antes by level;
heads-up the button posts the small blind (TRN-29)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from games.models import ClockPhase, Hand, HandEvent, Seat, SeatStatus
from games.services import (
    hand_act,
    hand_start,
    hand_timeout,
    player_connection_lost,
    player_connection_restored,
    seat_sit_out,
)
from tests.tournaments.support import START, open_tables, register_players, sit_and_go
from tournaments.services import tournaments_advance_all

pytestmark = pytest.mark.django_db


def started_sit_and_go(seats: int = 3, **fields: Any) -> Any:
    tournament = sit_and_go(seats=seats, **fields)
    users = register_players(tournament, seats)
    (table,) = open_tables(tournament)
    return tournament, users, table


def test_absent_registrants_are_dealt_in_and_acted_for_until_they_come_trn_04_amb_57(absent_everywhere: Any) -> None:
    _tournament, users, table = started_sit_and_go(3)
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(3))
    assert hand is not None
    hand.refresh_from_db()
    # Nobody has the table open: everyone is dealt in, blinds are posted, and each is checked or folded at once.
    assert hand.players_dealt_in == 3
    assert hand.status == "finished"
    seats = Seat.objects.filter(table=table, user__isnull=False)
    assert {seat.status for seat in seats} == {SeatStatus.SITTING_OUT}
    timeouts = HandEvent.objects.filter(hand=hand, kind="action_taken", payload__action__type="timeout")
    assert timeouts.exists()
    # A player whose socket arrives is back in play by itself.
    player_connection_restored(users[0], table, now=START + timedelta(seconds=20))
    assert Seat.objects.get(table=table, user=users[0]).status == SeatStatus.PLAYING


def test_a_player_sitting_out_is_checked_or_folded_at_once_and_stays_in_trn_19_amb_20() -> None:
    _tournament, users, table = started_sit_and_go(3)
    seat_sit_out(users[1], table, now=START)
    assert Seat.objects.get(table=table, user=users[1]).status == SeatStatus.SITTING_OUT
    assert Seat.objects.get(table=table, user=users[1]).sit_out_deadline is None  # never removed (TRN-20)
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(5))
    assert hand is not None
    assert str(Seat.objects.get(table=table, user=users[1]).number) in hand.participants
    hand.refresh_from_db()
    assert hand.acting_seat != Seat.objects.get(table=table, user=users[1]).number


def test_tournament_tables_take_no_rake_and_post_the_level_ante_rake_09() -> None:
    from tournaments.rules.levels import structure_from_rows

    _tournament, _users, table = started_sit_and_go(
        3, structure=structure_from_rows("antes", 1_000, [(10, 20, 5)], 300)
    )
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(1))
    assert hand is not None
    assert hand.config["ante"] == 5
    while hand.status == "running" and hand.acting_seat is not None:
        user = hand.participants[str(hand.acting_seat)]["user"]
        hand_act(table, Seat.objects.get(table=table, user_id=user).user, "fold", now=START + timedelta(seconds=11))
        hand.refresh_from_db()
    assert hand.rake == 0
    assert sum(Seat.objects.filter(table=table).values_list("chips", flat=True)) == 3_000


def test_sit_and_go_seats_start_with_the_sng_timebank_row_tb_02_amb_67() -> None:
    _tournament, _users, table = started_sit_and_go(3)
    assert set(
        Seat.objects.filter(table=table, user__isnull=False).values_list("timebank_milliseconds", flat=True)
    ) == {10_000}


def test_a_multi_table_tournament_sets_its_own_timebank_tb_08() -> None:
    from tests.tournaments.support import scheduled

    tournament = scheduled(timebank_first_hand_seconds=25, timebank_cap_seconds=45)
    register_players(tournament, 4)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    seats = Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False)
    assert set(seats.values_list("timebank_milliseconds", flat=True)) == {25_000}


def test_at_the_final_table_a_disconnected_player_gets_the_extra_reconnect_time_trn_31_amb_44() -> None:
    _tournament, _users, table = started_sit_and_go(3, final_stage_reconnect_seconds=60)
    tournaments_advance_all(now=START + timedelta(seconds=5))  # records one running table: the final table
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(2))
    assert hand is not None
    hand.refresh_from_db()
    actor = Seat.objects.get(table=table, number=hand.acting_seat)
    player_connection_lost(actor.user, table, now=START + timedelta(seconds=11))
    assert hand.action_deadline is not None
    hand_timeout(hand.pk, now=hand.action_deadline)  # the decision time ends: the reconnection grace starts
    hand.refresh_from_db()
    assert hand.clock_phase == ClockPhase.RECONNECT
    assert hand.clock_started_at is not None
    assert hand.action_deadline - hand.clock_started_at == timedelta(seconds=20 + 60)


def test_heads_up_the_button_posts_the_small_blind_trn_29() -> None:
    _tournament, _users, table = started_sit_and_go(2)
    hand = hand_start(table, now=START + timedelta(seconds=10), shuffler=random.Random(4))
    assert hand is not None
    assert hand.config["button"] == hand.config["small_blind_seat"]
    assert Hand.objects.filter(table=table).count() == 1
