"""QA note 13 (issue 30, four eyes on money): support's refused approval of a debit says "may not approve a debit of
€10.00", not the double negative "a debit of -€10.00"."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from wallet.errors import NotPermitted
from wallet.models import AdjustmentCategory
from wallet.services import adjustment_approve, adjustment_propose, player_cash_account


def test_the_refusal_names_the_debits_amount_without_a_minus_sign(
    alice: User, support: User, second_support: User
) -> None:
    proposal = adjustment_propose(
        support, player_cash_account(alice), -10_00, AdjustmentCategory.GOODWILL, "Duplicate bonus", "minus-1"
    )

    with pytest.raises(NotPermitted) as refused:
        adjustment_approve(proposal, second_support)

    assert "may not approve a debit of €10.00 " in str(refused.value)
    assert "-€" not in str(refused.value)
