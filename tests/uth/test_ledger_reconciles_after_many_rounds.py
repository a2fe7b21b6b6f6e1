"""Hundreds of rounds with random bets, undos, doubles, decisions, timeouts, departures and cancellations: the wallet
reconciles, every round's bets in play end at zero, and the house's result is exactly what the players lost (GEN-06,
UTH-13..UTH-20, UTH-36)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.db.models import Sum

from games.uth import realtime
from games.uth.errors import UthRefused
from games.uth.models import HandStatus, UthHand, UthRound, UthTable
from games.uth.services import (
    uth_bet_double,
    uth_bet_place,
    uth_bet_undo,
    uth_decide,
    uth_player_disconnected,
    uth_round_cancel,
    uth_seat_take,
)
from poker_site.accounts.models import User
from wallet.models import Account, AccountKind
from wallet.services import ledger_reconcile, system_account

from .conftest import Clock, balance, current_round

# A large simulation through the real services and the ticker, about 130 queries a round: minutes, not seconds.
# Real commits (transaction=True): thousands of savepoints inside one test transaction would slow PostgreSQL down.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(autouse=True)
def no_socket_fan_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody is connected: no publishing to the channel layer (the socket tests cover it); the ledger is the point."""
    monkeypatch.setattr(realtime, "events_committed", lambda *arguments: None)
    monkeypatch.setattr(realtime, "player_changed", lambda *arguments: None)
    monkeypatch.setattr(realtime, "decision_stats_changed", lambda *arguments: None)


ROUNDS = 600
STARTING_CASH = 1_000_000


def test_the_ledger_reconciles_after_hundreds_of_random_rounds(
    table: UthTable, future_clock: Clock, make_player: Callable[..., User]
) -> None:
    clock = future_clock
    rng = random.Random(20260301)
    players = [make_player(f"sim-{index}", STARTING_CASH) for index in range(2)]
    for player in players:
        uth_seat_take(player, table.pk, now=clock.now)
    clock.shuffler = random.Random(7)
    refusals = 0
    cancelled = 0
    clock.tick()
    for _ in range(ROUNDS):
        round_ = current_round(table)
        assert round_.phase == "betting"
        for player in players:
            if rng.random() < 0.15:
                continue  # sits this round out
            try:
                uth_bet_place(player, table.pk, "ante", rng.choice([100, 200, 500, 1_000]), now=clock.now)
                if rng.random() < 0.4:
                    uth_bet_place(player, table.pk, "trips", rng.choice([100, 300, 2_500]), now=clock.now)
                if rng.random() < 0.1:
                    uth_bet_double(player, table.pk, now=clock.now)
                if rng.random() < 0.1:
                    uth_bet_undo(player, table.pk, now=clock.now)
                if rng.random() < 0.03:
                    uth_player_disconnected(player, table.pk, now=clock.now)
            except UthRefused:
                refusals += 1
        clock.tick(15)
        cancel_in = rng.choice(["preflop", "flop", "river"]) if rng.random() < 0.02 else None
        while True:
            live = current_round(table)
            if live.phase in ("settled", "cancelled", "betting"):
                break
            if live.phase == cancel_in:
                uth_round_cancel(live.pk, reason="simulated malfunction", now=clock.now)
                cancelled += 1
                live = current_round(table)
                break
            options = {
                "preflop": ["play_4x", "play_3x", "check"],
                "flop": ["play_2x", "check"],
                "river": ["play_1x", "fold"],
            }[live.phase]
            awaiting = set(UthHand.objects.filter(round=live, awaiting_decision=True).values_list("player", flat=True))
            for player in players:
                if player.pk in awaiting and rng.random() < 0.8:
                    uth_decide(player, table.pk, rng.choice(options), now=clock.now)
                elif player.pk not in awaiting and rng.random() < 0.05:
                    try:  # nothing to decide: refused, nothing changes
                        uth_decide(player, table.pk, rng.choice(options), now=clock.now)
                    except UthRefused:
                        refusals += 1
            clock.tick(10)
        clock.tick(15 if live.phase == "betting" else 6)  # the next round opens

    assert ledger_reconcile() == []
    finished = UthRound.objects.filter(table=table, phase__in=("settled", "cancelled")).count()
    assert finished >= ROUNDS * 0.9  # a betting time nobody used starts again instead of dealing
    assert cancelled > 0
    rounds_with_bets = Account.objects.filter(kind=AccountKind.UTH_BETS_IN_PLAY)
    assert rounds_with_bets.count() > ROUNDS // 2
    assert not rounds_with_bets.exclude(balance=0).exclude(reference=current_round(table).wallet_reference).exists()
    players_net = sum(balance(player) - STARTING_CASH for player in players)
    house = system_account(AccountKind.HOUSE_UTH_RESULT)
    assert house.balance == -players_net
    settled = UthHand.objects.filter(status=HandStatus.SETTLED)
    staked = sum(hand.stake for hand in settled)
    returned = settled.aggregate(
        total=Sum("ante_return") + Sum("blind_return") + Sum("play_return") + Sum("trips_return")
    )["total"]
    assert staked - returned == house.balance
    assert refusals > 0
