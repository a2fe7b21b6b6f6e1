"""Money soak: many hands through the services with random joins, leaves, sit-outs, disconnections, top-ups and
timeouts (random legal actions, seeded). Afterwards the ledger reconciles, no cent was created or lost, the house
holds exactly the recorded rake, and the chips at the tables are the money in the table accounts (RAKE-01..07,
CASH-08, CASH-15..24, TB-04, GEN-06)."""

from __future__ import annotations

import os
import random
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Sum

from games.engine.actions import Bet, RaiseTo
from games.engine.simulation import choose_random_action
from games.models import Hand, HandStatus, Seat, SeatStatus, Table, TableSession
from games.runtime.engine_state import hand_engine_state
from games.runtime.ticks import cash_tables_tick
from games.services import (
    TableError,
    hand_act,
    hand_timeout,
    player_connection_lost,
    player_connection_restored,
    player_settings_update,
    seat_buy_in_limits,
    seat_leave,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    seat_top_up,
    table_snapshot,
)
from tests.tables.support import START, cash, money_in_table_accounts, open_table, player
from wallet.models import AccountKind
from wallet.services import balance_of, ledger_reconcile, system_account

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HANDS = int(os.environ.get("TABLES_SOAK_HANDS", "200"))
PLAYERS = 12
DEPOSIT = 50_000


class Soak:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.now = START
        self.tables = [
            open_table("holdem", "NL10"),
            open_table("omaha", "PL10"),
            open_table("banzai", "NL1"),
            open_table("deepstack", "NL100"),
        ]
        self.players = [player(cash=DEPOSIT) for _ in range(PLAYERS)]
        self.by_id = {user.pk: user for user in self.players}
        self.refusals = 0
        self.last_tick = self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def attempt(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, now=self.now, **kwargs)
        except TableError:
            self.refusals += 1
            return None

    def seated(self, table: Table) -> list[Seat]:
        return list(Seat.objects.filter(table=table, user__isnull=False).select_related("user"))

    def random_lobby_move(self) -> None:
        user = self.rng.choice(self.players)
        table = self.rng.choice(self.tables)
        roll = self.rng.random()
        mine = Seat.objects.filter(table=table, user=user).first()
        if mine is None and roll < 0.6:
            choice = self.rng.choice([None, "reset"]) if table.stake.game_type.code == "banzai" else None
            try:
                limits = seat_buy_in_limits(user, table, banzai_choice=choice, now=self.now)
            except TableError:
                self.refusals += 1
                return
            amount = self.rng.randint(limits.minimum, limits.maximum)
            self.attempt(
                seat_take, user, table, amount, post_out_of_position=self.rng.random() < 0.5, banzai_choice=choice
            )
        elif mine is not None:
            move = self.rng.random()
            if move < 0.25:
                self.attempt(seat_leave, user, table)
            elif move < 0.45:
                self.attempt(seat_sit_out, user, table)
            elif move < 0.7:
                self.attempt(seat_sit_in, user, table, post_out_of_position=self.rng.random() < 0.5)
            elif move < 0.8:
                self.attempt(seat_top_up, user, table, self.rng.randint(1, 800))
            elif move < 0.9:
                self.attempt(player_connection_lost, user, table)
            else:
                self.attempt(player_connection_restored, user, table)
        elif roll < 0.8:
            player_settings_update(user, auto_top_up=self.rng.random() < 0.5)

    def play_a_step(self, hand: Hand) -> None:
        state = hand_engine_state(hand)
        legal = state.legal_actions()
        assert legal is not None
        action = choose_random_action(legal, self.rng)
        amount = action.amount if isinstance(action, Bet | RaiseTo) else None
        user = self.by_id[hand.participants[str(legal.seat)]["user"]]
        hand_act(hand.table, user, action.kind, amount, now=self.now)

    def hands_finished(self) -> int:
        return Hand.objects.filter(status__in=[HandStatus.FINISHED, HandStatus.CANCELLED]).count()

    def run(self, hands: int) -> None:
        """Each step: maybe a lobby move; one action at every table with a hand in play (now and then the clock is
        left to run out instead); then the ticker advances whatever deadlines passed (deals, timeouts, removals)."""
        steps = 0
        finished = 0
        while finished < hands:
            steps += 1
            assert steps < hands * 60, "the soak stopped making progress"
            if self.rng.random() < 0.2:
                self.random_lobby_move()
            running = list(Hand.objects.filter(status=HandStatus.RUNNING).select_related("table"))
            if self.rng.random() < 0.04:
                self.tick(31)  # decision time, then timebank or reconnection grace, run out
            else:
                self.tick(self.rng.uniform(0.1, 3))
                for hand in running:
                    self.play_a_step(hand)
            if len(running) < len(self.tables) or steps % 5 == 0 or self.now - self.last_tick > timedelta(seconds=30):
                cash_tables_tick(self.now)
                self.last_tick = self.now
            if steps % 10 == 0:
                finished = self.hands_finished()
        # Finish every hand still in play by letting the clocks run out.
        for _ in range(200):
            if not Hand.objects.filter(status=HandStatus.RUNNING).exists():
                break
            self.tick(31)
            for hand in Hand.objects.filter(status=HandStatus.RUNNING):
                hand_timeout(hand.pk, now=self.now)
        assert not Hand.objects.filter(status=HandStatus.RUNNING).exists()


def test_money_is_conserved_over_hundreds_of_random_hands() -> None:
    soak = Soak(seed=20260302)
    soak.run(HANDS)

    assert ledger_reconcile() == []
    rake = Hand.objects.aggregate(total=Sum("rake"))["total"] or 0
    assert rake > 0
    assert balance_of(system_account(AccountKind.HOUSE_RAKE)) == rake
    total = sum(cash(user) for user in soak.players) + money_in_table_accounts() + rake
    assert total == PLAYERS * DEPOSIT

    # Chips at the tables are the money in the table accounts: seated players' stacks in the snapshots, and nothing
    # left in the accounts of stays that ended.
    stacks = 0
    for table in soak.tables:
        snapshot = table_snapshot(table, None)
        assert snapshot["hand"] is None
        stacks += sum(seat["stack"] for seat in snapshot["seats"] if seat["occupied"])
    assert stacks == money_in_table_accounts()
    assert all(balance_of(stay.account) == 0 for stay in TableSession.objects.filter(ended_at__isnull=False))

    # The soak exercised what it is meant to: refusals, sit-outs, timeouts and departures happened.
    assert soak.refusals > 0
    assert TableSession.objects.filter(ended_at__isnull=False).exists()
    assert Hand.objects.filter(events__kind="action_taken", events__payload__action__type="timeout").exists()
    assert (
        Seat.objects.filter(status=SeatStatus.SITTING_OUT).exists()
        or TableSession.objects.filter(leave_reason__in=["sit_out_limit", "global_sit_out_limit"]).exists()
    )
