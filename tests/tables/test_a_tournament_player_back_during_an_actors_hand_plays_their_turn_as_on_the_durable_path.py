"""TRN-19 / AMB-20 with table actors (issue 27, step 3): at a tournament table the table's owner runs sitting out and
in between two messages of the hand it holds, and reads the seats back into the hand: a player who sat out is dealt
in and acted for, but once back ("I'm back" mid-hand) plays their own turn when it comes, with their clock; a player
sitting out mid-hand plays the hand out; leaving and topping up are refused with the durable path's words — the same
events, chips and seats as on the per-action durable path."""

from __future__ import annotations

import pytest

from games.models import Seat, SeatStatus
from tests.tables.command_twins import (
    AWAY,
    Answer,
    Clock,
    the_player_away_plays_their_own_turn_and_the_tables_end_alike,
    tournament_twins_with_a_player_away,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("quiet_tournament_realtime")]


def test_a_player_back_mid_hand_is_no_longer_acted_for_and_refusals_match(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    twins, absent = tournament_twins_with_a_player_away(clock, monkeypatch, seed=5)
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
    the_player_away_plays_their_own_turn_and_the_tables_end_alike(twins)
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=other).status == SeatStatus.SITTING_OUT
