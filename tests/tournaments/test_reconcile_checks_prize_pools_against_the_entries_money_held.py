"""Issue 30: ``wallet_reconcile`` checks each prize pool against the entries' money it holds: a registering
tournament's pool holds exactly its registered entries' buy-ins, a finished tournament's pool nothing. Money booked
onto a pool behind the tournament's back (the ledger still balances) fails, naming the pool and the difference."""

from __future__ import annotations

import pytest

from tests.tournaments.support import fresh, play, register_players, sit_and_go
from tournaments.models import TournamentStatus
from tournaments.services.money import prize_pool_account
from wallet.models import Account, AccountKind
from wallet.services import TransferLeg, ledger_reconcile, system_account, transfer_create

pytestmark = pytest.mark.django_db


def _book_by_hand(account: Account, cents: int) -> None:
    transfer_create(
        kind="staff_adjustment",
        legs=[TransferLeg(system_account(AccountKind.OUTSIDE_WORLD), -cents), TransferLeg(account, cents)],
        idempotency_key=f"by-hand:{account.pk}",
        reference="test-tampering",
    )


def test_a_registering_tournaments_pool_holds_its_entries_buy_ins_and_nothing_more() -> None:
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    register_players(tournament, 2)
    assert fresh(tournament).status == TournamentStatus.REGISTERING
    assert ledger_reconcile() == []

    pool = prize_pool_account(tournament)
    _book_by_hand(pool, 2_00)

    (problem,) = ledger_reconcile()
    assert problem == (
        f"{pool.label} holds €22.00 but its registered entries' buy-ins total €20.00: €2.00 more than it must."
    )


def test_a_finished_tournaments_pool_holds_nothing() -> None:
    tournament = sit_and_go(seats=3, buy_in=1_000, fee=100)
    register_players(tournament, 3)
    play(tournament)
    assert fresh(tournament).status == TournamentStatus.FINISHED
    assert ledger_reconcile() == []

    pool = prize_pool_account(tournament)
    _book_by_hand(pool, 1)

    (problem,) = ledger_reconcile()
    assert "holds €0.01 but the buy-ins held by its finished or cancelled tournament total €0.00" in problem
