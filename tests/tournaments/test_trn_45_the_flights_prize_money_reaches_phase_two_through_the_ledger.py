"""TRN-45: the flights pay no prizes; when a flight ends its whole prize pool (the buy-ins' prize parts) moves to Phase
2's prize pool by one idempotent ledger transfer, the fees stay with the house as fees, and the ledger reconciles."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command

from tests.tournaments.phases_support import flight, phase_two, play_flight, register
from tests.tournaments.support import START, fresh, player
from tournaments.models import Tournament
from tournaments.services import money
from wallet.models import AccountKind, Leg, Transfer
from wallet.services import system_account

pytestmark = pytest.mark.django_db


def pool_balance(tournament: Tournament) -> int:
    return money.prize_pool_account(tournament).balance


def test_each_flights_prize_pool_moves_to_phase_two_once_and_the_fees_stay_fees_trn_45_fee_04() -> None:
    fees_before = system_account(AccountKind.HOUSE_FEES).balance
    target = phase_two()
    early = flight(target, START + timedelta(minutes=30), buy_in=1_000, fee=100)
    late = flight(target, START + timedelta(minutes=60), buy_in=1_000, fee=100)
    register(early, [player(cash=100_000) for _ in range(8)])
    register(late, [player(cash=100_000) for _ in range(6)])
    assert pool_balance(early) == 8_000
    assert pool_balance(late) == 6_000

    play_flight(early)
    assert pool_balance(early) == 0
    assert pool_balance(target) == 8_000
    assert fresh(target).carried_prize_money == 8_000
    play_flight(late)
    assert pool_balance(late) == 0
    assert pool_balance(target) == 14_000
    assert fresh(target).carried_prize_money == 14_000
    assert fresh(early).prize_pool == 8_000
    assert fresh(early).prizes == []

    carries = Transfer.objects.filter(kind="tournament_phase_carry").order_by("pk")
    assert [transfer.idempotency_key for transfer in carries] == [
        f"tournament:{early.pk}:to-phase-two:{target.pk}",
        f"tournament:{late.pk}:to-phase-two:{target.pk}",
    ]
    target_pool = money.prize_pool_account(target)
    assert [leg.amount for leg in Leg.objects.filter(transfer__in=carries, account=target_pool).order_by("pk")] == [
        8_000,
        6_000,
    ]
    # Carrying again (a retried coordination) posts nothing new: the idempotency key returns the first transfer.
    again = money.flight_prize_money_carry(fresh(early), fresh(target), 8_000)
    assert again is not None
    assert again.pk == carries[0].pk
    assert pool_balance(target) == 14_000
    # Nobody in a flight was paid a prize; the 14 fees are the house's.
    assert not Transfer.objects.filter(kind="tournament_prize").exists()
    assert system_account(AccountKind.HOUSE_FEES).balance - fees_before == 14 * 100
    call_command("wallet_reconcile")
