"""When a hand starts and who posts what, through the services (CASH-06, CASH-07, CASH-21, ENG-04, ENG-05, ENG-06)."""

from __future__ import annotations

import pytest

from games.models import Hand, Seat, SeatStatus
from games.services import hand_start, seat_leave, seat_sit_in, seat_sit_out, seat_take
from tests.tables.support import (
    START,
    current_hand,
    deal,
    fold_to_the_end,
    open_table,
    player,
    seat_at,
    seat_players,
    user_in_seat,
)

pytestmark = pytest.mark.django_db


def test_cash_06_a_hand_needs_three_players_not_sitting_out() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users[:2], 1000)
    assert hand_start(table, now=START) is None
    seat_take(users[2], table, 1000, seat_number=3, now=START)
    assert hand_start(table, now=START) is not None


def test_cash_06_sitting_out_players_do_not_count() -> None:
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    seat_sit_out(users[0], table, now=START)
    assert hand_start(table, now=START) is None


def test_cash_06_amb_11_one_heads_up_hand_follows_a_three_handed_hand_then_the_table_waits() -> None:
    """[derived] hands three-handed; one player leaves → the next hand is dealt heads-up; the one after waits."""
    table = open_table()
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    for _ in range(3):
        deal(table)
        fold_to_the_end(table)
    seat_leave(users[0], table, now=START)
    heads_up = deal(table)
    assert heads_up.players_dealt_in == 2
    fold_to_the_end(table)
    assert hand_start(table, now=START) is None
    seat_take(player(), table, 1000, seat_number=5, post_out_of_position=True, now=START)
    assert hand_start(table, now=START) is not None


def test_cash_06_amb_11_a_newcomer_waiting_for_a_big_blind_that_skips_them_does_not_make_a_second_heads_up_hand() -> (
    None
):
    """CASH-06 / AMB-11 with CASH-07: after a heads-up hand the table waits for a third player. A newcomer who waits
    for the big blind, in a seat the next big blind would pass over, is that third player: the table restarts like a
    new one (ENG-06) and deals all three in, the newcomer without posting, instead of a second heads-up hand."""
    table = open_table()
    users = {1: player(), 3: player(), 5: player()}
    seat_at(table, users, 1000)
    for _ in range(3):
        deal(table)
        fold_to_the_end(table)
    seat_leave(users[5], table, now=START)
    heads_up = deal(table)
    assert heads_up.players_dealt_in == 2
    big_blind = heads_up.config["big_blind_seat"]
    (other,) = {1, 3} - {big_blind}
    fold_to_the_end(table)
    # Clockwise from the big blind the next big blind reaches ``other`` before this seat.
    newcomer_seat = other % 6 + 1
    newcomer = player()
    seat_take(newcomer, table, 1000, seat_number=newcomer_seat, now=START)
    assert Seat.objects.get(table=table, number=newcomer_seat).status == SeatStatus.WAITING_FOR_BIG_BLIND

    hand = hand_start(table, now=START)

    assert hand is not None
    assert hand.players_dealt_in == 3
    assert hand.participants[str(newcomer_seat)]["user"] == newcomer.pk
    assert hand.config["out_of_position_seats"] == []
    assert Seat.objects.get(table=table, number=newcomer_seat).status == SeatStatus.PLAYING


def test_cash_06_amb_11_a_newcomer_waiting_for_the_big_blind_still_waits_during_the_one_heads_up_hand() -> None:
    """CASH-06 / AMB-11: right after a three-handed hand the one heads-up hand the exception allows is dealt even when
    a newcomer waits for a big blind that does not reach them; the newcomer keeps waiting."""
    table = open_table()
    users = {1: player(), 3: player(), 5: player()}
    seat_at(table, users, 1000)
    three_handed = deal(table)
    fold_to_the_end(table)
    button, small_blind = three_handed.config["button"], three_handed.config["small_blind_seat"]
    seat_leave(users[small_blind], table, now=START)
    # The empty seat after the button: the next big blind (after the last one) reaches the button's player first.
    newcomer_seat = button % 6 + 1
    seat_take(player(), table, 1000, seat_number=newcomer_seat, now=START)

    heads_up = hand_start(table, now=START)

    assert heads_up is not None
    assert heads_up.players_dealt_in == 2
    assert Seat.objects.get(table=table, number=newcomer_seat).status == SeatStatus.WAITING_FOR_BIG_BLIND


def test_eng_06_first_hand_random_button_and_blinds_clockwise() -> None:
    table = open_table()
    seat_at(table, {1: player(), 3: player(), 5: player()}, 1000)
    hand = deal(table, seed=7)
    config = hand.config
    order = {1: (3, 5), 3: (5, 1), 5: (1, 3)}
    assert config["button"] in order
    assert (config["small_blind_seat"], config["big_blind_seat"]) == order[config["button"]]
    assert hand.players_dealt_in == 3


def test_eng_04_heads_up_the_button_posts_the_small_blind() -> None:
    """ENG-05 example: seats 1, 2, 3 (button 1, SB 2, BB 3); player 1 leaves → heads-up with BB 2 and SB = button 3."""
    table = open_table()
    users = {1: player(), 2: player(), 3: player()}
    seat_at(table, users, 1000)
    first = deal(table, seed=1)
    while first.config["button"] != 1:  # play until the button reaches seat 1
        fold_to_the_end(table)
        first = deal(table)
    fold_to_the_end(table)
    seat_leave(users[1], table, now=START)
    heads_up = deal(table)
    assert heads_up.config["big_blind_seat"] == 2
    assert heads_up.config["small_blind_seat"] == 3
    assert heads_up.config["button"] == 3


def test_eng_05_big_blind_leaving_means_no_small_blind_next_hand_and_the_button_is_stuck() -> None:
    """ENG-05 example: seats 1-6; hand N button 1, SB 2, BB 3; BB leaves during hand N → hand N+1 BB 4, no SB,
    button 2; hand N+2: BB 5, SB 4, button stays on 2."""
    table = open_table()
    users = {number: player() for number in range(1, 7)}
    seat_at(table, users, 1000)
    hand = deal(table, seed=3)
    while hand.config["big_blind_seat"] != 3:
        fold_to_the_end(table)
        hand = deal(table)
    assert (hand.config["button"], hand.config["small_blind_seat"]) == (1, 2)
    seat_leave(users[3], table, now=START)
    assert Seat.objects.get(table=table, number=3).leave_after_hand
    fold_to_the_end(table)
    assert Seat.objects.get(table=table, number=3).user is None
    following = deal(table)
    assert (following.config["big_blind_seat"], following.config["small_blind_seat"], following.config["button"]) == (
        4,
        None,
        2,
    )
    fold_to_the_end(table)
    after = deal(table)
    assert (after.config["big_blind_seat"], after.config["small_blind_seat"], after.config["button"]) == (5, 4, 2)


def deal_until_big_blind_at(table: object, seat: int) -> Hand:
    hand = deal(table, seed=2)
    while hand.config["big_blind_seat"] != seat:
        fold_to_the_end(table)
        hand = deal(table)
    return hand


def test_cash_07_a_new_player_waits_for_the_big_blind_or_posts_a_live_big_blind_out_of_position() -> None:
    """Seats 1-3 play (button 1, SB 2, BB 3); a waiting player takes seat 4 and a posting player seat 6. Next hand:
    BB reaches seat 4, who is dealt in; seat 6 posts out of position and is dealt in at once."""
    table = open_table()
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    deal_until_big_blind_at(table, 3)
    fold_to_the_end(table)
    seat_take(player(), table, 1000, seat_number=4, now=START)
    seat_take(player(), table, 1000, seat_number=6, post_out_of_position=True, now=START)
    assert Seat.objects.get(table=table, number=4).status == SeatStatus.WAITING_FOR_BIG_BLIND
    assert Seat.objects.get(table=table, number=6).status == SeatStatus.POSTING_OUT_OF_POSITION
    hand = deal(table)
    config = hand.config
    assert (config["button"], config["small_blind_seat"], config["big_blind_seat"]) == (2, 3, 4)
    assert config["out_of_position_seats"] == [6]
    assert sorted(seat for seat, _stack in config["players"]) == [1, 2, 3, 4, 6]
    posted = {event.payload["seat"]: event.payload for event in hand.events.filter(kind="forced_bet_posted")}
    assert posted[6]["blind"] == "out_of_position_big_blind"
    assert posted[6]["amount"] == 10


def test_cash_07_amb_46_no_posting_from_the_button_seat_the_player_waits() -> None:
    """Seats 1-4 play (button 1, SB 2, BB 3); player 2 leaves and a posting player takes seat 2, which gets the
    (dead) button next hand: they may not post there and wait, while a player waiting at seat 5 is not dealt in."""
    table = open_table()
    users = {1: player(), 2: player(), 3: player(), 4: player()}
    seat_at(table, users, 1000)
    deal_until_big_blind_at(table, 3)
    fold_to_the_end(table)
    seat_leave(users[2], table, now=START)
    seat_take(player(), table, 1000, seat_number=2, post_out_of_position=True, now=START)
    seat_take(player(), table, 1000, seat_number=5, now=START)
    hand = deal(table)
    config = hand.config
    assert (config["button"], config["small_blind_seat"], config["big_blind_seat"]) == (2, 3, 4)
    assert sorted(seat for seat, _stack in config["players"]) == [1, 3, 4]
    assert config["out_of_position_seats"] == []
    assert Seat.objects.get(table=table, number=2).status == SeatStatus.POSTING_OUT_OF_POSITION


def test_cash_07_waiting_player_is_dealt_in_when_the_big_blind_reaches_them() -> None:
    table = open_table()
    seat_at(table, {1: player(), 2: player(), 3: player()}, 1000)
    deal(table, seed=2)
    fold_to_the_end(table)
    waiter = player()
    seat_take(waiter, table, 1000, seat_number=4, now=START)
    for _ in range(4):
        hand = deal(table)
        dealt = {seat for seat, _stack in hand.config["players"]}
        if hand.config["big_blind_seat"] == 4:
            assert 4 in dealt
            break
        assert 4 not in dealt
        fold_to_the_end(table)
    else:
        pytest.fail("the big blind never reached the waiting player")
    fold_to_the_end(table)
    assert Seat.objects.get(table=table, number=4).status == SeatStatus.PLAYING


def test_cash_21_a_player_who_missed_the_big_blind_while_sitting_out_waits_for_it_on_return() -> None:
    table = open_table()
    users = {number: player() for number in range(1, 5)}
    seat_at(table, users, 1000)
    deal(table, seed=5)
    fold_to_the_end(table)
    away = users[1]
    seat_sit_out(away, table, now=START)
    for _ in range(4):  # a full orbit of the other three passes seat 1
        deal(table)
        fold_to_the_end(table)
    assert Seat.objects.get(table=table, number=1).missed_big_blind
    seat_sit_in(away, table, now=START)
    assert Seat.objects.get(table=table, number=1).status == SeatStatus.WAITING_FOR_BIG_BLIND
    seat_sit_out(away, table, now=START)
    seat_sit_in(away, table, post_out_of_position=True, now=START)
    assert Seat.objects.get(table=table, number=1).status == SeatStatus.POSTING_OUT_OF_POSITION


def test_cash_16_a_player_who_sat_out_briefly_without_missing_the_big_blind_plays_on() -> None:
    table = open_table()
    users = {number: player() for number in range(1, 5)}
    seat_at(table, users, 1000)
    hand = deal(table, seed=5)
    fold_to_the_end(table)
    just_played_big_blind = user_in_seat(table, hand.config["big_blind_seat"])
    seat_sit_out(just_played_big_blind, table, now=START)
    seat_sit_in(just_played_big_blind, table, now=START)
    assert Seat.objects.get(user=just_played_big_blind).status == SeatStatus.PLAYING
    assert current_hand(table) is None
    assert Hand.objects.filter(table=table).count() == 1
