"""``manage.py wallet_reconcile`` proves the ledger adds up and names what does not."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from poker_site.accounts.models import User
from wallet.models import Leg
from wallet.services import ledger_reconcile, player_cash_account


def test_a_consistent_ledger_reconciles_with_a_one_line_summary(alice: User, bob: User) -> None:
    output = StringIO()
    call_command("wallet_reconcile", stdout=output)
    assert output.getvalue().strip().startswith("Ledger reconciled: 3 accounts, 2 transfers, 4 legs;")
    assert output.getvalue().count("\n") == 1


def test_a_tampered_balance_fails_and_names_the_account(alice: User) -> None:
    cash = player_cash_account(alice)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE wallet_account SET balance = balance + 100 WHERE id = %s", [cash.pk])
    errors = StringIO()

    with pytest.raises(CommandError, match="does not reconcile"):
        call_command("wallet_reconcile", stderr=errors)

    assert f"alice's player cash account #{cash.pk} has balance 10100 cents but its legs sum to 10000" in (
        errors.getvalue()
    )
    assert "The EUR accounts sum to 100 cents instead of zero." in errors.getvalue()


def test_a_tampered_leg_fails_naming_the_transfer(alice: User) -> None:
    leg = Leg.objects.filter(account=player_cash_account(alice)).get()
    with connection.cursor() as cursor:
        # Only the table owner can switch the append-only trigger off; done here to simulate tampering.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no deferred foreign-key checks may be pending for ALTER
        cursor.execute("ALTER TABLE wallet_leg DISABLE TRIGGER wallet_leg_append_only")
        cursor.execute("UPDATE wallet_leg SET amount = amount - 1 WHERE id = %s", [leg.pk])
        cursor.execute("ALTER TABLE wallet_leg ENABLE TRIGGER wallet_leg_append_only")

    problems = ledger_reconcile()

    assert f"Transfer #{leg.transfer_id} does not balance: 2 legs summing to -1 cents." in problems
    assert any(f"account #{leg.account_id} has balance 10000 cents but its legs sum to 9999" in p for p in problems)


def test_the_command_exits_non_zero_when_run_as_a_process(alice: User) -> None:
    """call_command raises CommandError; manage.py turns that into exit status 1 (Django's contract)."""
    cash = player_cash_account(alice)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE wallet_account SET balance = 0 WHERE id = %s", [cash.pk])
    with pytest.raises(CommandError) as failed:
        call_command("wallet_reconcile", stderr=StringIO())
    assert failed.value.returncode == 1
