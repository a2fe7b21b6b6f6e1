"""transfer_create joins a caller's transaction: a refused transfer leaves it usable, a rollback undoes a transfer."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts, new_key
from wallet.errors import IdempotencyConflict, InsufficientFunds
from wallet.models import AccountKind, Transfer
from wallet.services import (
    TransferLeg,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
    transfer_reverse,
)


def _buy_in(user: User, cents: int, key: str) -> Transfer:
    return transfer_create(
        kind="cash_buy_in",
        legs=[
            TransferLeg(player_cash_account(user), -cents),
            TransferLeg(reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=user), cents),
        ],
        idempotency_key=key,
        reference="table-session:1",
    )


def test_a_refused_transfer_inside_a_table_service_transaction_leaves_it_usable(alice: User) -> None:
    with transaction.atomic():
        _buy_in(alice, 1_000, "first")
        with pytest.raises(InsufficientFunds):
            _buy_in(alice, 50_000, "too-much")
        with pytest.raises(IdempotencyConflict):
            _buy_in(alice, 2_000, "first")
        _buy_in(alice, 500, "second")

    assert balance_of(player_cash_account(alice)) == 8_500
    assert ledger_reconcile() == []


def test_inside_a_callers_transaction_a_transfer_is_two_statements_and_no_savepoint(alice: User) -> None:
    """A hand's settlement and each auto top-up run inside the table service's transaction: the lock and the booking
    statement, no SAVEPOINT / RELEASE round trips (refusals come before the write, so there is nothing to undo)."""
    cash = player_cash_account(alice)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)

    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(cash, -1_000), TransferLeg(session, 1_000)],
            idempotency_key=new_key(),
            reference="table-session:1",
        )

    statements = [query["sql"] for query in captured.captured_queries]
    assert not any("SAVEPOINT" in sql.upper() for sql in statements), statements
    assert len(statements) == 2, statements
    assert (balance_of(cash), balance_of(session)) == (9_000, 1_000)


def test_a_transfer_rolls_back_with_the_callers_transaction(alice: User) -> None:
    before = ledger_row_counts()

    class HandAbortedError(Exception):
        pass

    def settle_then_abort() -> None:
        with transaction.atomic():
            _buy_in(alice, 1_000, new_key())
            raise HandAbortedError

    with pytest.raises(HandAbortedError):
        settle_then_abort()

    assert ledger_row_counts() == before
    assert balance_of(player_cash_account(alice)) == 10_000


def test_a_reversal_books_the_opposite_legs_and_keeps_the_original(alice: User) -> None:
    rake = system_account(AccountKind.HOUSE_RAKE)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)
    _buy_in(alice, 1_000, "buy-in")
    raked = transfer_create(
        kind="rake", legs=[TransferLeg(session, -50), TransferLeg(rake, 50)], idempotency_key="rake", reference="hand:7"
    )

    reversal = transfer_reverse(raked, idempotency_key="rollback:hand:7", reason="Server crash rollback (CASH-24)")

    assert reversal.reference == f"transfer:{raked.pk}"
    assert {leg.account_id: leg.amount for leg in reversal.legs.all()} == {session.pk: 50, rake.pk: -50}
    assert Transfer.objects.filter(pk=raked.pk).exists()
    assert (balance_of(session), balance_of(rake)) == (1_000, 0)
    assert transfer_reverse(raked, idempotency_key="rollback:hand:7", reason="retry").pk == reversal.pk
    assert ledger_reconcile() == []
