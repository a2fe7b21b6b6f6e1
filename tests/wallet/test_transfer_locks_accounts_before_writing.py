"""transfer_create locks every account row, in primary-key order, before it writes a balance."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from poker_site.accounts.models import User
from tests.wallet.conftest import new_key
from wallet.models import AccountKind
from wallet.services import TransferLeg, player_cash_account, reference_account, system_account, transfer_create


def test_the_for_update_select_ordered_by_id_comes_before_the_balance_update(alice: User, bob: User) -> None:
    rake = system_account(AccountKind.HOUSE_RAKE)
    alice_session = reference_account(AccountKind.TABLE_SESSION, "table-session:a", owner=alice)
    bob_cash = player_cash_account(bob)
    ids = sorted([rake.pk, alice_session.pk, bob_cash.pk])

    with CaptureQueriesContext(connection) as captured:
        transfer_create(
            kind="hand_settlement",
            # Deliberately not in id order: the lock order must not depend on the caller's order.
            legs=[TransferLeg(bob_cash, -300), TransferLeg(rake, 15), TransferLeg(alice_session, 285)],
            idempotency_key=new_key(),
            reference="hand:1",
        )

    statements = [query["sql"] for query in captured.captured_queries]
    lock_positions = [i for i, sql in enumerate(statements) if "FOR UPDATE" in sql and "wallet_account" in sql]
    update_positions = [i for i, sql in enumerate(statements) if "UPDATE wallet_account" in sql]
    assert len(lock_positions) == 1
    assert len(update_positions) == 1
    assert lock_positions[0] < update_positions[0]
    lock = statements[lock_positions[0]]
    assert lock.startswith(
        "SELECT id, currency, balance, may_go_negative, kind, owner_id FROM wallet_account WHERE id = ANY("
    )
    assert lock.endswith("ORDER BY id FOR UPDATE")
    assert all(str(pk) in lock for pk in ids)
    assert "SET balance = account.balance + leg.amount" in statements[update_positions[0]]
    assert not any("wallet_account" in sql and "UPDATE" in sql for sql in statements[: lock_positions[0]])
