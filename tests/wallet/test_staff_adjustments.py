"""GEN-01 fairness override: staff adjust a balance with a written reason; who, when and why are recorded."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import InsufficientFunds, InvalidAmount, NotPermitted, ReasonRequired
from wallet.models import AccountKind, AuditEntry, StaffAdjustment
from wallet.services import (
    balance_of,
    ledger_reconcile,
    player_cash_account,
    staff_adjustment_create,
    system_account,
)


def test_gen01_a_credit_is_booked_against_the_house_and_audited(alice: User, support: User) -> None:
    cash = player_cash_account(alice)

    adjustment = staff_adjustment_create(support, cash, 2_50, "Hand 991 re-settled after a dealer error", "adj-1")

    assert balance_of(cash) == 10_250
    assert balance_of(system_account(AccountKind.HOUSE_ADJUSTMENTS)) == -2_50
    assert adjustment.staff == support
    assert adjustment.reason == "Hand 991 re-settled after a dealer error"
    assert adjustment.transfer.created_by == support
    entry = AuditEntry.objects.get(action="staff_adjustment")
    assert (entry.actor, entry.player, entry.reason) == (support, alice, adjustment.reason)
    assert ledger_reconcile() == []


def test_a_debit_cannot_take_a_player_below_zero(alice: User, support: User) -> None:
    before = ledger_row_counts()
    with pytest.raises(InsufficientFunds):
        staff_adjustment_create(support, player_cash_account(alice), -10_001, "Clawback", "adj-2")
    assert ledger_row_counts() == before


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_an_adjustment_without_a_reason_is_refused(alice: User, support: User, reason: object) -> None:
    before = ledger_row_counts()
    with pytest.raises(ReasonRequired, match="reason is required"):
        staff_adjustment_create(support, player_cash_account(alice), 100, reason, "adj-3")  # type: ignore[arg-type]
    assert ledger_row_counts() == before
    assert not StaffAdjustment.objects.exists()


def test_only_staff_with_the_adjust_balance_permission_may_adjust(alice: User, bob: User, reviewer: User) -> None:
    for someone in (bob, reviewer):
        with pytest.raises(NotPermitted, match=r"wallet\.adjust_balance"):
            staff_adjustment_create(someone, player_cash_account(alice), 100, "Goodwill", "adj-4")


def test_zero_and_fractional_adjustments_are_refused(alice: User, support: User) -> None:
    for amount in (0, 1.5):
        with pytest.raises(InvalidAmount):
            staff_adjustment_create(support, player_cash_account(alice), amount, "Goodwill", "adj-5")  # type: ignore[arg-type]


def test_the_same_key_returns_the_same_adjustment(alice: User, support: User) -> None:
    first = staff_adjustment_create(support, player_cash_account(alice), 100, "Goodwill", "adj-6")
    again = staff_adjustment_create(support, player_cash_account(alice), 100, "Goodwill", "adj-6")
    assert again.pk == first.pk
    assert balance_of(player_cash_account(alice)) == 10_100


@pytest.mark.parametrize(
    "kind", [AccountKind.TABLE_SESSION, AccountKind.UTH_BETS_IN_PLAY, AccountKind.WITHHELD, AccountKind.UNRESOLVED_GAME]
)
def test_an_account_a_game_keeps_cannot_be_adjusted(alice: User, support: User, kind: str) -> None:
    """A player's chips at a table (and other balances a game or review keeps) move only through their service: an
    adjustment there would change a stack behind the table's back and leave its hand unsettleable."""
    from wallet.errors import InvalidTransfer
    from wallet.services import reference_account

    account = reference_account(kind, f"test-kept-by-its-game:{kind}", owner=alice)
    before = ledger_row_counts()
    with pytest.raises(InvalidTransfer, match="kept by its game"):
        staff_adjustment_create(support, account, 100, "Goodwill credit", f"adj-kept-{kind}")
    assert ledger_row_counts() == before
    assert balance_of(account) == 0
