"""Every bet step moves its money at once between the player's cash and the round's bets in play; DOUBLE, REPEAT, UNDO
and clearing move exactly their share (UTH-05, UTH-23, UTH-28..UTH-31)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.uth.errors import BetRefused, InsufficientFunds
from games.uth.models import RecordKind, UthBetRecord, UthHand, UthTable
from games.uth.services import (
    uth_bet_clear,
    uth_bet_double,
    uth_bet_place,
    uth_bet_repeat,
    uth_bet_undo,
    uth_decide,
    uth_seat_take,
)
from games.uth.services.common import bets_in_play_account
from poker_site.accounts.models import User
from wallet.services import ledger_reconcile

from .conftest import Clock, balance, current_round, ledger_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(make_player: Callable[..., User], table: UthTable, clock: Clock) -> User:
    player = make_player("alice", 50_000)
    uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()  # the first betting time opens
    return player


def in_play(table: UthTable) -> int:
    return int(bets_in_play_account(current_round(table)).balance)


def test_uth_05_an_ante_moves_ante_and_blind_and_trips_moves_its_own_stake(alice: User, table: UthTable) -> None:
    uth_bet_place(alice, table.pk, "ante", 500, now=current_round(table).started_at)
    assert (balance(alice), in_play(table)) == (49_000, 1_000)
    uth_bet_place(alice, table.pk, "trips", 300, now=current_round(table).started_at)
    assert (balance(alice), in_play(table)) == (48_700, 1_300)
    hand = UthHand.objects.get(player=alice)
    assert (hand.ante, hand.trips, hand.stake) == (500, 300, 1_300)
    records = list(UthBetRecord.objects.filter(hand=hand).order_by("number").values_list("kind", "amount"))
    assert records == [(RecordKind.CHIP, -1_000), (RecordKind.CHIP, -300)]
    assert ledger_reconcile() == []


def test_uth_29_double_doubles_every_bet_and_its_money_in_one_step(alice: User, table: UthTable, clock: Clock) -> None:
    uth_bet_place(alice, table.pk, "ante", 500, now=clock.now)
    uth_bet_place(alice, table.pk, "trips", 300, now=clock.now)
    hand = uth_bet_double(alice, table.pk, now=clock.now)
    assert (hand.ante, hand.trips) == (1_000, 600)
    assert (balance(alice), in_play(table)) == (50_000 - 2_600, 2_600)
    hand = uth_bet_undo(alice, table.pk, now=clock.now)
    assert (hand.ante, hand.trips) == (500, 300)
    assert (balance(alice), in_play(table)) == (50_000 - 1_300, 1_300)


def test_uth_29_double_is_refused_as_a_whole_when_the_balance_cannot_cover_all_bets(
    make_player: Callable[..., User], table: UthTable, clock: Clock
) -> None:
    bob = make_player("bob", 3_000)
    uth_seat_take(bob, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(bob, table.pk, "ante", 1_000, now=clock.now)  # stakes €20 of €30
    before = ledger_state()
    with pytest.raises(InsufficientFunds, match=r"balance of €10\.00 does not cover this bet of €20\.00"):
        uth_bet_double(bob, table.pk, now=clock.now)
    assert ledger_state() == before


def test_uth_23_a_bet_the_balance_cannot_cover_is_refused_and_nothing_changes(
    make_player: Callable[..., User], table: UthTable, clock: Clock
) -> None:
    poor = make_player("poor", 150)
    uth_seat_take(poor, table.pk, now=clock.now)
    clock.tick()
    before = ledger_state()
    with pytest.raises(InsufficientFunds, match=r"does not cover this bet of €2\.00"):
        uth_bet_place(poor, table.pk, "ante", 100, now=clock.now)
    assert ledger_state() == before
    assert not UthHand.objects.filter(player=poor).exists()


def test_uth_30_undo_takes_bets_back_newest_first_and_clear_takes_back_everything(
    alice: User, table: UthTable, clock: Clock
) -> None:
    uth_bet_place(alice, table.pk, "ante", 100, now=clock.now)
    uth_bet_place(alice, table.pk, "trips", 500, now=clock.now)
    uth_bet_place(alice, table.pk, "ante", 200, now=clock.now)
    hand = uth_bet_undo(alice, table.pk, now=clock.now)
    assert (hand.ante, hand.trips, balance(alice)) == (100, 500, 50_000 - 700)
    hand = uth_bet_clear(alice, table.pk, now=clock.now)
    assert (hand.ante, hand.trips, balance(alice), in_play(table)) == (0, 0, 50_000, 0)
    with pytest.raises(BetRefused, match="no bet to undo"):
        uth_bet_undo(alice, table.pk, now=clock.now)
    kinds = list(UthBetRecord.objects.filter(hand=hand).order_by("number").values_list("kind", flat=True))
    assert kinds == [RecordKind.CHIP, RecordKind.CHIP, RecordKind.CHIP, RecordKind.UNDO, RecordKind.CLEAR]


def test_uth_28_repeat_places_the_bets_of_the_previous_dealt_round(alice: User, table: UthTable, clock: Clock) -> None:
    with pytest.raises(BetRefused, match="no bets from a previous round"):
        uth_bet_repeat(alice, table.pk, now=clock.now)
    uth_bet_place(alice, table.pk, "ante", 500, now=clock.now)
    uth_bet_place(alice, table.pk, "trips", 200, now=clock.now)
    clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
    clock.tick(15)
    uth_decide(alice, table.pk, "check", now=clock.now)
    clock.tick(10)
    clock.tick(10)
    clock.tick(10)  # auto fold at the river; the round is settled
    assert current_round(table).phase == "settled"
    clock.tick(6)  # the next round opens
    hand = uth_bet_repeat(alice, table.pk, now=clock.now)
    assert (hand.ante, hand.trips) == (500, 200)
    with pytest.raises(BetRefused, match="before you place the first chip"):
        uth_bet_repeat(alice, table.pk, now=clock.now)
    assert ledger_reconcile() == []
