"""TRN-19 / AMB-20 with table actors (issue 27, step 3): at a tournament table the table's owner runs sitting out and
in between two messages of the hand it holds, and reads the seats back into the hand: a player who sat out is dealt
in and acted for, but once back ("I'm back" mid-hand) plays their own turn when it comes, with their clock; a player
sitting out mid-hand plays the hand out; leaving and topping up are refused with the durable path's words — the same
events, chips and seats as on the per-action durable path."""

from __future__ import annotations

import pytest

from games.models import Seat, SeatStatus
from games.runtime import presence
from tests.tables.command_twins import Answer, Clock, CommandTwins
from tests.tables.twins import tournament_pair

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quiet_tournament_realtime(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import realtime as tournament_realtime
    from tournaments import tasks

    monkeypatch.setattr(tournament_realtime, "tournament_changed", lambda *args: None)
    monkeypatch.setattr(tasks, "tournament_coordinate_later", lambda *args: None)
    monkeypatch.setattr(tasks, "entry_prize_credit_later", lambda *args: None)


def tournament_twins(clock: Clock, players: int, seed: int) -> CommandTwins:
    return CommandTwins(clock, seed=seed, pair=tournament_pair(players))


AWAY = 2
"""This player has no socket when the first hand is dealt: they sit out and are dealt in, acted for (TRN-19). The
first button is the highest seat (TRN-05), so seat 2 is the big blind, the last to act before the flop."""


def test_a_player_back_mid_hand_is_no_longer_acted_for_and_refusals_match(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    absent: set[int] = set()
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: user_id not in absent)
    twins = tournament_twins(clock, players=3, seed=5)
    absent.update(twins.user(table, AWAY).pk for table in (twins.durable, twins.memory))
    twins.deal()
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=AWAY).status == SeatStatus.SITTING_OUT
    acting = twins.acting_seat()
    assert acting not in (None, AWAY), "the player away must have a turn still to come"
    other = next(number for number in (1, 2, 3) if number not in (acting, AWAY))

    assert twins.command(other, "sit_out") == (Answer({}), Answer({}))  # dealt in: plays this hand out
    left = twins.command(other, "leave")
    assert left[0].refusal is not None
    assert left[0] == left[1]
    topped = twins.command(other, "top_up", {"amount": 100})
    assert topped[0].refusal is not None
    assert topped[0] == topped[1]
    absent.clear()
    assert twins.command(AWAY, "sit_in") == (Answer({}), Answer({}))  # back before their turn
    while twins.acting_seat() not in (AWAY, None):
        twins.act()
    assert twins.acting_seat() == AWAY  # their own turn, with their clock: no longer acted for
    twins.play_to_the_end()

    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
        assert seats[other].status == SeatStatus.SITTING_OUT
        assert seats[AWAY].status != SeatStatus.SITTING_OUT
