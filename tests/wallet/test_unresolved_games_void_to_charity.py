"""CASH-25 / AMB-45: bets of an incomplete game wait in a queue; after 90 days unresolved they go to charity."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from poker_site.accounts.models import User
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from poker_site.core.ticker import handlers, tick_once
from wallet.errors import CaseAlreadyClosed
from wallet.models import AccountKind, AuditEntry, UnresolvedGameFunds, UnresolvedGameStatus
from wallet.services import (
    TransferLeg,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    system_account,
    transfer_create,
    unresolved_game_open,
)
from wallet.services.unresolved import unresolved_game_settle

KIND = "unresolved_game_resolution"


def _incomplete_hand(alice: User, bob: User) -> UnresolvedGameFunds:
    sessions = []
    for player in (alice, bob):
        session = reference_account(AccountKind.TABLE_SESSION, f"table-session:{player.username}", owner=player)
        transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(player_cash_account(player), -2_000), TransferLeg(session, 2_000)],
            idempotency_key=f"buy-in:{player.username}",
            reference=session.reference,
        )
        sessions.append(session)
    return unresolved_game_open(
        game_reference="hand:991",
        contributions=[TransferLeg(sessions[0], 600), TransferLeg(sessions[1], 400)],
        idempotency_key="hand:991:unresolved",
    )


def test_cash25_opening_a_case_parks_the_bets_with_a_90_day_deadline(alice: User, bob: User) -> None:
    case = _incomplete_hand(alice, bob)

    assert case.amount == 1_000
    assert balance_of(case.account) == 1_000
    assert case.deadline - case.opened_at == timedelta(days=90)
    assert case.status == UnresolvedGameStatus.OPEN
    assert _incomplete_hand(alice, bob).pk == case.pk  # idempotent
    assert ledger_reconcile() == []


def test_cash25_the_ticker_voids_a_case_to_charity_only_after_90_days(alice: User, bob: User) -> None:
    case = _incomplete_hand(alice, bob)
    assert "wallet.void_unresolved_games" in handlers

    assert tick_once(case.deadline - timedelta(seconds=1))["wallet.void_unresolved_games"] == 0
    assert balance_of(system_account(AccountKind.CHARITY)) == 0

    assert tick_once(case.deadline)["wallet.void_unresolved_games"] == 1
    assert tick_once(case.deadline + timedelta(days=1))["wallet.void_unresolved_games"] == 0

    case.refresh_from_db()
    assert case.status == UnresolvedGameStatus.VOIDED
    assert balance_of(system_account(AccountKind.CHARITY)) == 1_000
    assert balance_of(case.account) == 0
    assert AuditEntry.objects.filter(action="unresolved_game_voided", details__case=case.pk).exists()
    assert ledger_reconcile() == []


def test_cash25_staff_may_resolve_a_case_before_the_deadline(
    alice: User, bob: User, support: User, second_support: User
) -> None:
    """Issue 30: one staff member proposes the resolution, a second one approves it."""
    case = _incomplete_hand(alice, bob)
    alice_cash, bob_cash = player_cash_account(alice), player_cash_account(bob)
    target = f"wallet.unresolvedgamefunds:{case.pk}"

    with pytest.raises(RuleChangeRefused, match="pay out all of it"):
        rule_change_propose(support, KIND, target, {"payouts": [{"account": alice_cash.pk, "amount": 600}]}, "Refund")
    payouts = [{"account": alice_cash.pk, "amount": 600}, {"account": bob_cash.pk, "amount": 400}]
    proposal = rule_change_propose(support, KIND, target, {"payouts": payouts}, "Bets returned as played")
    rule_change_approve(proposal, second_support)

    case.refresh_from_db()
    assert case.status == UnresolvedGameStatus.RESOLVED
    assert case.closed_by == second_support
    assert (balance_of(alice_cash), balance_of(bob_cash)) == (8_600, 3_400)
    assert tick_once(timezone.now() + timedelta(days=365))["wallet.void_unresolved_games"] == 0
    assert balance_of(system_account(AccountKind.CHARITY)) == 0
    with pytest.raises(RuleChangeRefused, match="already resolved"):
        rule_change_propose(support, KIND, target, {"payouts": payouts}, "Again")
    with pytest.raises(CaseAlreadyClosed):
        unresolved_game_settle(case, payouts=[TransferLeg(alice_cash, 1_000)], decided_by=support, reason="Again")
    assert ledger_reconcile() == []
