"""Concurrent transfers on real connections: no overdraft, no lost update, one transfer per key, no deadlock."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import OperationalError

from poker_site.accounts.models import User
from tests.wallet.concurrency import run_simultaneously
from wallet.errors import IdempotencyConflict, InsufficientFunds
from wallet.models import Account, AccountKind, Transfer
from wallet.services import (
    TransferLeg,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    transfer_create,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_many_simultaneous_buy_ins_never_overdraw_the_balance_and_lose_no_update(
    make_player: Callable[..., User],
) -> None:
    player = make_player("racer", 10_000)  # €100.00: room for exactly ten €10 buy-ins
    cash = player_cash_account(player)
    sessions = [reference_account(AccountKind.TABLE_SESSION, f"table-session:{n}", owner=player) for n in range(16)]

    def buy_in(session: Account) -> Callable[[], Transfer]:
        return lambda: transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(cash, -1_000), TransferLeg(session, 1_000)],
            idempotency_key=f"buy-in:{session.reference}",
            reference=session.reference,
        )

    results = run_simultaneously([buy_in(session) for session in sessions])

    succeeded = [result for result in results if isinstance(result, Transfer)]
    refused = [result for result in results if isinstance(result, InsufficientFunds)]
    assert len(succeeded) == 10, results
    assert len(refused) == 6, results
    assert balance_of(cash) == 0
    assert sum(balance_of(session) for session in sessions) == 10_000
    assert ledger_reconcile() == []


def test_the_same_idempotency_key_sent_concurrently_creates_one_transfer(make_player: Callable[..., User]) -> None:
    player = make_player("retrier", 10_000)
    cash = player_cash_account(player)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=player)

    def buy_in() -> Transfer:
        return transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(cash, -2_500), TransferLeg(session, 2_500)],
            idempotency_key="double-click",
            reference="table-session:1",
        )

    results = run_simultaneously([buy_in for _ in range(8)])

    assert all(isinstance(result, Transfer) for result in results), results
    assert len({result.pk for result in results if isinstance(result, Transfer)}) == 1
    assert Transfer.objects.filter(idempotency_key="double-click").count() == 1
    assert balance_of(cash) == 7_500
    assert balance_of(session) == 2_500


def test_the_same_key_on_accounts_that_do_not_overlap_still_creates_one_transfer(
    make_player: Callable[..., User],
) -> None:
    """No shared row lock serialises these; the unique key and the re-read in a fresh savepoint do."""
    players = [make_player(f"p{n}", 5_000) for n in range(6)]

    def entry(player: User) -> Callable[[], Transfer]:
        return lambda: transfer_create(
            kind="cash_buy_in",
            legs=[
                TransferLeg(player_cash_account(player), -1_000),
                # Each player's own table session: no two transfers share an account (and the session is a place
                # whose ledger total the reconcile does not compare with records, unlike a tournament's pools).
                TransferLeg(reference_account(AccountKind.TABLE_SESSION, f"session:{player.pk}"), 1_000),
            ],
            idempotency_key="shared-key",
            reference="table:1",
        )

    results = run_simultaneously([entry(player) for player in players])

    created = [result for result in results if isinstance(result, Transfer)]
    conflicts = [result for result in results if isinstance(result, IdempotencyConflict)]
    assert len(created) == 1, results
    assert len(conflicts) == 5, results
    assert Transfer.objects.filter(idempotency_key="shared-key").count() == 1
    assert sum(balance_of(player_cash_account(player)) for player in players) == 6 * 5_000 - 1_000
    assert ledger_reconcile() == []


def test_transfers_touching_the_same_accounts_in_opposite_orders_do_not_deadlock(
    make_player: Callable[..., User],
) -> None:
    first = player_cash_account(make_player("east", 50_000))
    second = player_cash_account(make_player("west", 50_000))

    def shuttle(source: Account, destination: Account, worker: int) -> Callable[[], int]:
        def run() -> int:
            for round_number in range(25):
                transfer_create(
                    kind="test_shuttle",
                    # Listed debit first, so the two directions name the accounts in opposite orders.
                    legs=[TransferLeg(source, -100), TransferLeg(destination, 100)],
                    idempotency_key=f"shuttle:{worker}:{round_number}",
                    reference=f"shuttle:{worker}",
                )
            return 25

        return run

    work = [shuttle(first, second, n) if n % 2 == 0 else shuttle(second, first, n) for n in range(8)]
    results = run_simultaneously(work)

    assert not any(isinstance(result, OperationalError) for result in results), results
    assert results == [25] * 8
    assert balance_of(first) == 50_000
    assert balance_of(second) == 50_000
    assert Transfer.objects.filter(kind="test_shuttle").count() == 200
    assert ledger_reconcile() == []


def test_one_account_is_made_when_many_ask_for_a_missing_account_at_once(make_player: Callable[..., User]) -> None:
    """The account of a (kind, currency, reference) key is created once however many connections ask for it first:
    the losers of the INSERT read the winner's row."""
    player = make_player("newcomer", 0)

    def session_account() -> Account:
        return reference_account(AccountKind.TABLE_SESSION, "table-session:race", owner=player)

    results = run_simultaneously([session_account for _ in range(8)])

    assert all(isinstance(result, Account) for result in results), results
    assert len({result.pk for result in results if isinstance(result, Account)}) == 1
    assert Account.objects.filter(reference="table-session:race").count() == 1
