"""The same idempotency key never moves money twice."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import IdempotencyConflict
from wallet.models import AccountKind
from wallet.services import TransferLeg, balance_of, player_cash_account, reference_account, transfer_create


def _buy_in(
    user: User, cents: int, *, key: str = "buy-in-1", reference: str = "table-session:1", description: str = ""
):  # type: ignore[no-untyped-def]
    return transfer_create(
        kind="cash_buy_in",
        legs=[
            TransferLeg(player_cash_account(user), -cents),
            TransferLeg(reference_account(AccountKind.TABLE_SESSION, "table-session:1", owner=user), cents),
        ],
        idempotency_key=key,
        reference=reference,
        description=description,
    )


def test_the_same_key_with_the_same_content_returns_the_first_transfer_and_moves_nothing(alice: User) -> None:
    first = _buy_in(alice, 2_000)
    after_first = ledger_row_counts()

    again = _buy_in(alice, 2_000, description="retried after a timeout")

    assert again.pk == first.pk
    assert ledger_row_counts() == after_first
    assert balance_of(player_cash_account(alice)) == 8_000


def test_the_same_key_with_a_different_amount_is_a_conflict(alice: User) -> None:
    first = _buy_in(alice, 2_000)
    after_first = ledger_row_counts()

    with pytest.raises(IdempotencyConflict, match=f"already used for transfer #{first.pk}"):
        _buy_in(alice, 3_000)

    assert ledger_row_counts() == after_first
    assert balance_of(player_cash_account(alice)) == 8_000


def test_the_same_key_with_a_different_reference_is_a_conflict(alice: User) -> None:
    _buy_in(alice, 2_000)
    with pytest.raises(IdempotencyConflict):
        _buy_in(alice, 2_000, reference="table-session:2")


def test_a_replay_is_answered_even_when_the_balance_could_no_longer_pay(alice: User) -> None:
    """The whole balance bought in once; the retry must return that transfer, not claim insufficient funds."""
    first = _buy_in(alice, 10_000)
    assert _buy_in(alice, 10_000).pk == first.pk
