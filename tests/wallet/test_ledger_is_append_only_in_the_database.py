"""PostgreSQL itself refuses to rewrite history or overdraw a player, whatever code runs."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from poker_site.accounts.models import User
from wallet.models import Account, AccountKind, Leg, Transfer
from wallet.services import player_cash_account, system_account


def _execute(sql: str, parameters: list[object]) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, parameters)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE wallet_transfer SET description = 'rewritten' WHERE id = %s",
        "DELETE FROM wallet_transfer WHERE id = %s",
    ],
)
def test_transfers_cannot_be_updated_or_deleted(alice: User, sql: str) -> None:
    transfer = Transfer.objects.get()
    with pytest.raises(IntegrityError, match="append-only"):
        _execute(sql, [transfer.pk])
    assert Transfer.objects.get().description == transfer.description


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE wallet_leg SET amount = amount * 2 WHERE transfer_id = %s",
        "DELETE FROM wallet_leg WHERE transfer_id = %s",
    ],
)
def test_legs_cannot_be_updated_or_deleted(alice: User, sql: str) -> None:
    transfer = Transfer.objects.get()
    with pytest.raises(IntegrityError, match="append-only"):
        _execute(sql, [transfer.pk])
    assert sorted(Leg.objects.values_list("amount", flat=True)) == [-10_000, 10_000]


def test_a_raw_update_cannot_make_a_player_balance_negative(alice: User) -> None:
    cash = player_cash_account(alice)
    with pytest.raises(IntegrityError, match="wallet_account_balance_not_negative"):
        _execute("UPDATE wallet_account SET balance = -1 WHERE id = %s", [cash.pk])


def test_only_house_and_outside_accounts_may_be_flagged_negative(alice: User) -> None:
    cash = player_cash_account(alice)
    with pytest.raises(IntegrityError):
        _execute("UPDATE wallet_account SET may_go_negative = true WHERE id = %s", [cash.pk])
    with pytest.raises(IntegrityError, match="wallet_account_negative_only_for_house_kinds"):
        Account.objects.create(kind=AccountKind.CHARITY, reference="rogue", may_go_negative=True)


def test_an_account_keeps_its_identity_and_is_never_deleted(alice: User) -> None:
    cash = player_cash_account(alice)
    with pytest.raises(IntegrityError, match="may change only its balance"):
        _execute("UPDATE wallet_account SET kind = 'house_rake' WHERE id = %s", [cash.pk])
    with pytest.raises(IntegrityError, match="permanent"):
        _execute("DELETE FROM wallet_account WHERE id = %s", [system_account(AccountKind.OUTSIDE_WORLD).pk])
