"""CASH-16 / CASH-19 / CASH-22 with table actors (issue 27, step 3): sitting out, coming back, "sit out next big blind"
and a client seed sent during a hand the table's owner holds in memory are run by the owner between two of the hand's
messages: a player dealt in plays the hand out and sits out after it, "I'm back" cancels that — also a sit-out the
clock gave a player without a socket during the hand (the hand's own seat changes are written before the command runs)
— exactly as on the per-action durable path: the same events, settlement and seats, and the ledger reconciles."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Seat, SeatStatus
from games.runtime import presence
from tests.tables.command_twins import Answer, Clock, CommandTwins

pytestmark = pytest.mark.django_db(transaction=True)


def test_sit_outs_and_returns_sent_mid_hand_take_effect_after_it_as_on_the_durable_path(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    absent: set[int] = set()
    monkeypatch.setattr(presence, "has_live_socket", lambda user_id, table_id: user_id not in absent)
    twins = CommandTwins(clock, players=4, seed=9)
    twins.deal()
    acting = twins.acting_seat()
    assert acting is not None
    staying_out = next(number for number in (1, 2, 3, 4) if number != acting)
    coming_back = next(number for number in (1, 2, 3, 4) if number not in (acting, staying_out))

    assert twins.command(staying_out, "sit_out") == (Answer({}), Answer({}))
    assert twins.command(coming_back, "sit_out") == (Answer({}), Answer({}))
    assert twins.command(coming_back, "sit_in") == (Answer({}), Answer({}))
    assert twins.command(coming_back, "sit_out_next_big_blind", {"enabled": True}) == (Answer({}), Answer({}))
    assert twins.command(coming_back, "client_seed", {"seed": "ab" * 8}) == (Answer({}), Answer({}))
    # The player to act has no socket: their clock runs out, they are acted for and sit out after the hand (CASH-22);
    # back, they cancel that sit-out before the hand ends.
    absent.update({twins.user(twins.durable, acting).pk, twins.user(twins.memory, acting).pk})
    while twins.acting_seat() == acting:
        twins.clock_due()
    for table in (twins.durable, twins.memory):
        assert Seat.objects.get(table=table, number=acting).sit_out_after_hand is (table == twins.durable)
    absent.clear()
    assert twins.command(acting, "sit_in") == (Answer({}), Answer({}))

    twins.play_to_the_end()

    twins.assert_alike()
    for table in (twins.durable, twins.memory):
        seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
        assert seats[staying_out].status == SeatStatus.SITTING_OUT
        assert seats[coming_back].status != SeatStatus.SITTING_OUT
        assert seats[acting].status != SeatStatus.SITTING_OUT
        assert seats[coming_back].sit_out_next_big_blind
    call_command("wallet_reconcile")


def test_a_command_from_a_player_without_a_seat_is_refused_with_the_durable_paths_words(clock: Clock) -> None:
    twins = CommandTwins(clock, players=3, seed=2)
    twins.deal()
    from tests.tables.support import player

    stranger = player()
    twins.pair.users[twins.durable.pk][9] = stranger
    twins.pair.users[twins.memory.pk][9] = stranger
    durable, memory = twins.command(9, "sit_out")
    assert durable.refusal is not None
    assert durable.refusal[0] == "not_seated"
    assert durable == memory
