"""Requests that race on real connections: a player's first chips of a round sent at once (two tabs, a double click)
make one hand holding every chip, and two tickers due at the same moment open one round (UTH-05, UTH-22; GEN-06: every
chip taken is in the round's bets in play)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.uth.models import UthBetRecord, UthHand, UthRound, UthTable
from games.uth.services import uth_bet_place, uth_seat_take
from games.uth.services.rounds import uth_round_open
from poker_site.accounts.models import User
from tests.wallet.concurrency import run_simultaneously
from wallet.services import ledger_reconcile

from .conftest import FUTURE_START, Clock, balance, current_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_players_first_chips_sent_at_once_make_one_hand_with_every_chip(
    table: UthTable, future_clock: Clock, make_player: Callable[..., User]
) -> None:
    alice = make_player("alice", 100_000)
    uth_seat_take(alice, table.pk, now=future_clock.now)
    future_clock.tick()
    assert current_round(table).phase == "betting"

    results = run_simultaneously(
        [lambda: uth_bet_place(alice, table.pk, "ante", 100, now=future_clock.now) for _ in range(6)]
    )

    assert all(isinstance(result, UthHand) for result in results), results
    hands = list(UthHand.objects.filter(round=current_round(table)))
    assert len(hands) == 1
    assert hands[0].ante == 600
    assert UthBetRecord.objects.filter(hand=hands[0]).count() == 6
    assert balance(alice) == 100_000 - 2 * 600  # the Ante and the equal Blind of each chip
    assert ledger_reconcile() == []


def test_two_tickers_due_at_the_same_moment_open_one_round(table: UthTable) -> None:
    UthTable.objects.filter(pk=table.pk).update(next_round_at=FUTURE_START)

    results = run_simultaneously([lambda: uth_round_open(table.pk, now=FUTURE_START) for _ in range(4)])

    opened = [result for result in results if isinstance(result, UthRound)]
    assert [result for result in results if not isinstance(result, UthRound | None)] == []
    assert len(opened) == 1
    assert list(UthRound.objects.filter(table=table).values_list("pk", "number")) == [(opened[0].pk, 1)]
    assert UthTable.objects.get(pk=table.pk).rounds_started == 1


def test_requests_read_the_round_in_parallel_and_the_tickers_phase_change_waits_for_them(
    table: UthTable, future_clock: Clock
) -> None:
    """A request locks the round FOR SHARE: a second request reads it while the first holds it, and the ticker's
    compare-and-swap claim waits until both have committed (then it sees the round as they left it)."""
    import threading

    from django.db import connection, transaction

    from games.uth.services.common import share_locked_active_round
    from games.uth.services.rounds import _claim
    from tests.waiting import until_it_waits_for_a_lock_or_ends

    future_clock.tick()
    round_ = current_round(table)
    holding, release = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def request_holding_the_round() -> None:
        try:
            with transaction.atomic():
                outcomes["first"] = share_locked_active_round(table.pk)
                holding.set()
                release.wait(60)
        finally:
            connection.close()

    def second_request() -> None:
        try:
            with transaction.atomic():
                outcomes["second"] = share_locked_active_round(table.pk)
        finally:
            connection.close()

    def ticker_claim() -> None:
        try:
            with transaction.atomic():
                outcomes["claimed"] = _claim(round_)
        finally:
            connection.close()

    first = threading.Thread(target=request_holding_the_round)
    first.start()
    assert holding.wait(60)
    second = threading.Thread(target=second_request)
    second.start()
    second.join(60)  # a FOR UPDATE lock would keep it waiting for the first request
    read_in_parallel = not second.is_alive()
    claim = threading.Thread(target=ticker_claim)
    claim.start()
    until_it_waits_for_a_lock_or_ends(claim)
    waited = claim.is_alive()
    release.set()
    first.join(60)
    claim.join(60)

    second.join(60)
    assert read_in_parallel, "the second request waited for the first"
    assert getattr(outcomes["second"], "pk", None) == round_.pk
    assert waited  # the claim waited for the first request
    assert outcomes["claimed"] is True
    assert UthRound.objects.get(pk=round_.pk).version == round_.version + 1
