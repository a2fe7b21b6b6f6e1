"""transfer_create refuses bad input with a clear WalletError and writes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts, new_key
from wallet.errors import (
    CurrencyMismatch,
    InsufficientFunds,
    InvalidAmount,
    InvalidTransfer,
    UnbalancedTransfer,
    UnknownAccount,
    WalletError,
)
from wallet.models import Account, AccountKind
from wallet.services import (
    MAX_AMOUNT_CENTS,
    TransferLeg,
    balance_of,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
)


def _buy_in(cash: Account, session: Account, debit: object, credit: object) -> None:
    transfer_create(
        kind="cash_buy_in",
        legs=[TransferLeg(cash, debit), TransferLeg(session, credit)],  # type: ignore[arg-type]
        idempotency_key=new_key(),
        reference="table-session:1",
    )


@pytest.mark.parametrize(
    ("debit", "credit", "message"),
    [
        (0, 0, "must not be zero"),
        (-10.0, 10.0, "not float"),
        (-1.5, 1.5, "not float"),
        (Decimal("-10"), Decimal("10"), "not Decimal"),
        ("-10", "10", "not str"),
        (-True, True, "not bool"),
        (None, None, "not NoneType"),
        (-(MAX_AMOUNT_CENTS + 1), MAX_AMOUNT_CENTS + 1, "beyond the limit"),
    ],
)
def test_amounts_that_are_not_plain_non_zero_int_cents_are_refused(
    alice: User, debit: object, credit: object, message: str
) -> None:
    cash = player_cash_account(alice)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)
    before = ledger_row_counts()

    with pytest.raises(InvalidAmount, match=message):
        _buy_in(cash, session, debit, credit)

    assert ledger_row_counts() == before
    assert balance_of(cash) == 10_000


def test_a_bool_is_refused_even_though_python_counts_it_as_an_int(alice: User) -> None:
    cash = player_cash_account(alice)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)
    with pytest.raises(InvalidAmount, match="not bool"):
        _buy_in(cash, session, -1, True)


def test_overdrawing_a_player_account_names_the_account_and_the_shortfall(alice: User) -> None:
    cash = player_cash_account(alice)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)
    before = ledger_row_counts()

    with pytest.raises(InsufficientFunds) as refused:
        _buy_in(cash, session, -10_001, 10_001)

    assert "alice's player cash account" in str(refused.value)
    assert "€0.01 short" in str(refused.value)
    assert refused.value.shortfall_cents == 1
    assert ledger_row_counts() == before
    assert balance_of(cash) == 10_000


def test_a_pool_account_cannot_pay_out_more_than_it_holds(alice: User) -> None:
    pool = reference_account(AccountKind.TOURNAMENT_PRIZE_POOL, "tournament:7")
    with pytest.raises(InsufficientFunds, match="tournament prize pool tournament:7"):
        transfer_create(
            kind="tournament_prize",
            legs=[TransferLeg(pool, -100), TransferLeg(player_cash_account(alice), 100)],
            idempotency_key=new_key(),
            reference="tournament:7",
        )


def test_legs_that_do_not_sum_to_zero_are_refused(alice: User) -> None:
    cash = player_cash_account(alice)
    session = reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=alice)
    before = ledger_row_counts()
    with pytest.raises(UnbalancedTransfer, match="sum to zero; these sum to \\+1 cents"):
        _buy_in(cash, session, -1_000, 1_001)
    assert ledger_row_counts() == before


def test_a_single_leg_is_refused(alice: User) -> None:
    with pytest.raises(UnbalancedTransfer, match="at least two legs"):
        transfer_create(
            kind="deposit",
            legs=[TransferLeg(player_cash_account(alice), 100)],
            idempotency_key=new_key(),
            reference="x",
        )


def test_the_same_account_twice_in_one_transfer_is_refused(alice: User) -> None:
    cash = player_cash_account(alice)
    with pytest.raises(UnbalancedTransfer, match="more than one leg"):
        _buy_in(cash, cash, -100, 100)


def test_unsaved_and_missing_accounts_are_refused(alice: User) -> None:
    cash = player_cash_account(alice)
    before = ledger_row_counts()
    with pytest.raises(UnknownAccount, match="not on a saved wallet account"):
        _buy_in(cash, Account(kind=AccountKind.TABLE_SESSION, reference="never-saved"), -100, 100)
    with pytest.raises(UnknownAccount, match="No wallet account with id #987654321"):
        _buy_in(cash, Account(pk=987_654_321, kind=AccountKind.TABLE_SESSION, reference="gone"), -100, 100)
    assert ledger_row_counts() == before
    assert balance_of(cash) == 10_000


def test_legs_in_two_currencies_are_refused(alice: User) -> None:
    cash = player_cash_account(alice)
    dollars = reference_account(AccountKind.TABLE_SESSION, "table-session:usd", owner=alice, currency="USD")
    before = ledger_row_counts()
    with pytest.raises(CurrencyMismatch, match="EUR, USD"):
        _buy_in(cash, dollars, -100, 100)
    assert ledger_row_counts() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("kind", ""),
        ("kind", "Not A Slug"),
        ("idempotency_key", ""),
        ("idempotency_key", "k" * 201),
        ("reference", "   "),
    ],
)
def test_missing_or_malformed_kind_key_and_reference_are_refused(alice: User, field: str, value: str) -> None:
    cash = player_cash_account(alice)
    house = system_account(AccountKind.HOUSE_FEES)
    arguments = {"kind": "tournament_fee", "idempotency_key": new_key(), "reference": "tournament:1"}
    arguments[field] = value
    before = ledger_row_counts()
    with pytest.raises(InvalidTransfer):
        transfer_create(legs=[TransferLeg(cash, -100), TransferLeg(house, 100)], **arguments)
    assert ledger_row_counts() == before


def test_every_wallet_error_is_a_wallet_error_with_a_code() -> None:
    for error_class in (InvalidAmount, InsufficientFunds, UnbalancedTransfer, UnknownAccount, CurrencyMismatch):
        assert issubclass(error_class, WalletError)
        assert error_class.code != WalletError.code


def test_account_helpers_refuse_the_wrong_kind_of_account(alice: User, bob: User) -> None:
    with pytest.raises(UnknownAccount, match="not a system account kind"):
        system_account(AccountKind.TABLE_SESSION)
    with pytest.raises(UnknownAccount, match="not a per-reference account kind"):
        reference_account(AccountKind.HOUSE_RAKE, "x")
    reference_account(AccountKind.TABLE_SESSION, "table-session:9", owner=alice)
    with pytest.raises(UnknownAccount, match="belongs to another owner"):
        reference_account(AccountKind.TABLE_SESSION, "table-session:9", owner=bob)
    with pytest.raises(CurrencyMismatch):
        player_cash_account(alice, currency="euro")
