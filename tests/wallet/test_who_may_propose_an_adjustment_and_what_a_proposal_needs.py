"""Issue 30: support staff and administrators propose adjustments (``wallet.propose_adjustment``); compliance
reviewers, staff without a role and players do not. A proposal needs a reason, a category and a whole non-zero number
of cents; the same form key proposes once."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from wallet.errors import InvalidAmount, InvalidTransfer, NotPermitted, ReasonRequired
from wallet.models import AdjustmentProposal
from wallet.services import adjustment_propose, player_cash_account


def test_compliance_reviewers_and_players_may_not_propose(alice: User, bob: User, reviewer: User) -> None:
    for someone in (bob, reviewer):
        with pytest.raises(NotPermitted, match=r"wallet\.propose_adjustment"):
            adjustment_propose(someone, player_cash_account(alice), 100, "goodwill", "Goodwill", f"who-{someone.pk}")
    assert not AdjustmentProposal.objects.exists()


def test_an_administrator_may_propose(alice: User, administrator: User) -> None:
    proposal = adjustment_propose(administrator, player_cash_account(alice), 100, "goodwill", "Goodwill", "who-a")
    assert proposal.proposed_by == administrator


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_proposal_without_a_reason_is_refused(alice: User, support: User, reason: object) -> None:
    with pytest.raises(ReasonRequired, match="reason is required"):
        adjustment_propose(support, player_cash_account(alice), 100, "goodwill", reason, "why")  # type: ignore[arg-type]
    assert not AdjustmentProposal.objects.exists()


@pytest.mark.parametrize("category", ["", "bonus", None])
def test_a_proposal_without_a_known_category_is_refused(alice: User, support: User, category: object) -> None:
    with pytest.raises(InvalidTransfer, match="category"):
        adjustment_propose(support, player_cash_account(alice), 100, category, "Goodwill", "cat")  # type: ignore[arg-type]
    assert not AdjustmentProposal.objects.exists()


@pytest.mark.parametrize("amount", [0, 1.5, "100"])
def test_zero_and_non_integer_amounts_are_refused(alice: User, support: User, amount: object) -> None:
    with pytest.raises(InvalidAmount):
        adjustment_propose(support, player_cash_account(alice), amount, "goodwill", "Goodwill", "amt")  # type: ignore[arg-type]
    assert not AdjustmentProposal.objects.exists()


def test_the_same_key_returns_the_same_proposal(alice: User, support: User) -> None:
    first = adjustment_propose(support, player_cash_account(alice), 100, "goodwill", "Goodwill", "same-key")
    again = adjustment_propose(support, player_cash_account(alice), 100, "goodwill", "Goodwill", "same-key")
    assert again.pk == first.pk
    assert AdjustmentProposal.objects.count() == 1
