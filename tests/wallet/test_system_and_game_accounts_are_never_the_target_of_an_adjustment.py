"""Issue 30: only a player's cash account is adjusted by hand. House accounts (rake, fees, guarantees, seized,
adjustments, charity), the withdrawals awaiting payout, the outside world and every account a game or review keeps
(table sessions, bets in play, prize and bounty pools, tickets, withheld and unresolved funds) are refused, for every
role, administrators included: they move only through their own services."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from tests.wallet.conftest import ledger_row_counts
from wallet.errors import InvalidTransfer
from wallet.models import SYSTEM_KINDS, AccountKind, AdjustmentProposal
from wallet.services import adjustment_propose, reference_account, system_account

NOT_ADJUSTABLE = [kind for kind in AccountKind.values if kind != AccountKind.PLAYER_CASH]


@pytest.mark.parametrize("kind", NOT_ADJUSTABLE)
@pytest.mark.parametrize("role", ["support", "administrator"])
def test_no_account_but_a_players_cash_can_be_proposed_for_adjustment(
    alice: User, request: pytest.FixtureRequest, kind: str, role: str
) -> None:
    staff = request.getfixturevalue(role)
    if kind in SYSTEM_KINDS:
        account = system_account(kind)
    else:
        account = reference_account(kind, f"test-kept-by-its-service:{kind}", owner=alice)
    before = ledger_row_counts()

    with pytest.raises(InvalidTransfer, match="never adjusted by hand"):
        adjustment_propose(staff, account, 100, "goodwill", "Goodwill credit", f"sys-{kind}-{role}")

    assert ledger_row_counts() == before
    assert not AdjustmentProposal.objects.exists()
