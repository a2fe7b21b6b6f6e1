"""Disconnection policy (UTH-27, UTH-38): bets are void and returned while betting time remains; after betting has
closed they stay and are settled in the player's absence with the automatic decisions."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async

from games.uth.models import HandStatus, RecordKind, UthHand, UthTable
from games.uth.services import uth_bet_place, uth_player_disconnected, uth_seat_leave, uth_seat_take
from poker_site.accounts.models import User
from wallet.services import ledger_reconcile

from .conftest import Clock, balance, current_round
from .sockets import open_socket, run


@pytest.fixture
def alice(make_player: Callable[..., User], table: UthTable, clock: Clock) -> User:
    player = make_player("alice", 50_000)
    uth_seat_take(player, table.pk, now=clock.now)
    clock.tick()
    uth_bet_place(player, table.pk, "ante", 1_000, now=clock.now)
    uth_bet_place(player, table.pk, "trips", 500, now=clock.now)
    return player


@pytest.mark.django_db
def test_uth_38_disconnecting_during_betting_time_voids_and_returns_the_bets(
    alice: User, table: UthTable, clock: Clock
) -> None:
    assert uth_player_disconnected(alice, table.pk, now=clock.now) == 2_500
    assert balance(alice) == 50_000
    hand = UthHand.objects.get(player=alice)
    assert (hand.status, hand.ante, hand.trips) == (HandStatus.VOIDED, 0, 0)
    assert hand.records.last().kind == RecordKind.VOID  # type: ignore[union-attr]
    # Back in time for the same betting window, the player may bet again.
    uth_bet_place(alice, table.pk, "ante", 200, now=clock.now)
    assert UthHand.objects.get(player=alice).status == HandStatus.BETTING
    assert ledger_reconcile() == []


@pytest.mark.django_db
def test_uth_38_after_betting_closed_the_bets_stay_and_are_settled_in_absence(
    alice: User, table: UthTable, clock: Clock
) -> None:
    clock.rig("Ah 9h Kc Kd 2h 5h Jh 7c 3s")
    clock.tick(15)
    assert uth_player_disconnected(alice, table.pk, now=clock.now) == 0
    for _ in range(3):
        clock.tick(10)
    hand = UthHand.objects.get(player=alice)
    assert [item["label"] for item in hand.decisions] == ["AUTO CHECKED", "AUTO CHECKED", "AUTO FOLDED"]
    assert hand.status == HandStatus.SETTLED
    assert balance(alice) == 50_000 - 2_000 + 3_500  # Ante and Blind lost; Trips won 7:1 on the flush
    assert ledger_reconcile() == []


@pytest.mark.django_db
def test_uth_27_leaving_the_table_during_betting_returns_the_bets(alice: User, table: UthTable, clock: Clock) -> None:
    assert uth_seat_leave(alice, table.pk, now=clock.now) == 2_500
    assert balance(alice) == 50_000
    assert current_round(table).phase == "betting"


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
@pytest.mark.usefixtures("clean_cache")
def test_closing_the_last_socket_during_betting_returns_the_bets_but_not_while_another_is_open(
    make_player: Callable[..., User], table: UthTable, future_clock: Clock
) -> None:
    player = make_player("dora", 50_000)
    future_clock.tick()

    async def scenario() -> None:
        first, _ = await open_socket(table.pk, player)
        second, _ = await open_socket(table.pk, player)
        assert (await first.answer({"type": "take_seat"}))["type"] == "ok"
        assert (await first.answer({"type": "bet", "spot": "ante", "amount": 1_000}))["type"] == "ok"
        await second.close()  # another tab is still open: nothing happens
        assert await database_sync_to_async(balance)(player) == 48_000
        await first.close()  # the last socket: the bets are declined and returned

    run(scenario)
    assert balance(player) == 50_000
    assert UthHand.objects.get(player=player).status == HandStatus.VOIDED
    assert ledger_reconcile() == []
