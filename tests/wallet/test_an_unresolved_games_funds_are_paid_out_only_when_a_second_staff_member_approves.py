"""Issue 30 (CASH-25, LOB-10): staff pay out an unresolved game's funds only when two people agree. One support agent
proposes whom the funds go to, with a reason; nothing moves until another one approves, and then the case is settled,
its transfer booked and the audit rows written in the approval's transaction. The proposer never approves their own;
compliance reviewers and staff without a role neither propose nor approve; paying a player whose money was not in the
game needs an administrator; a HexaPro game's case is decided by its cancellation only."""

from __future__ import annotations

import pytest

from poker_site.accounts.models import User
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from tests.tables.back_office import logged_in
from wallet.models import AccountKind, AuditEntry, UnresolvedGameFunds, UnresolvedGameStatus
from wallet.resolution_changes import case_target
from wallet.services import (
    TransferLeg,
    balance_of,
    ledger_reconcile,
    player_cash_account,
    reference_account,
    transfer_create,
    unresolved_game_open,
)

KIND = "unresolved_game_resolution"
CASES = "/admin/wallet/unresolvedgamefunds/"


def _case(alice: User, bob: User, reference: str = "hand:991") -> UnresolvedGameFunds:
    sessions = []
    for player in (alice, bob):
        session = reference_account(AccountKind.TABLE_SESSION, f"table-session:{reference}:{player}", owner=player)
        transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(player_cash_account(player), -2_000), TransferLeg(session, 2_000)],
            idempotency_key=f"buy-in:{reference}:{player}",
            reference=session.reference,
        )
        sessions.append(session)
    return unresolved_game_open(
        game_reference=reference,
        contributions=[TransferLeg(sessions[0], 600), TransferLeg(sessions[1], 400)],
        idempotency_key=f"{reference}:unresolved",
    )


def _payouts(*pairs: tuple[User, int]) -> dict[str, list[dict[str, int]]]:
    return {"payouts": [{"account": player_cash_account(user).pk, "amount": cents} for user, cents in pairs]}


def test_the_funds_move_only_when_a_second_support_agent_approves(
    alice: User, bob: User, support: User, second_support: User
) -> None:
    case = _case(alice, bob)
    alice_before, bob_before = balance_of(player_cash_account(alice)), balance_of(player_cash_account(bob))
    proposal = rule_change_propose(support, KIND, case_target(case), _payouts((alice, 600), (bob, 400)), "As bet")
    assert balance_of(case.account) == 1_000

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, support)
    assert balance_of(case.account) == 1_000
    rule_change_approve(proposal, second_support, "checked the hand history")

    case.refresh_from_db()
    assert (case.status, case.closed_by) == (UnresolvedGameStatus.RESOLVED, second_support)
    assert balance_of(case.account) == 0
    assert balance_of(player_cash_account(alice)) == alice_before + 600
    assert balance_of(player_cash_account(bob)) == bob_before + 400
    resolved = AuditEntry.objects.get(action="unresolved_game_resolved")
    assert (resolved.actor, resolved.transfer_id) == (second_support, case.closing_transfer_id)
    assert "proposed by support-agent" in resolved.reason
    assert [entry.action for entry in AuditEntry.objects.filter(target=case_target(case)).order_by("pk")] == [
        "rule_change_proposed",
        "rule_change_approved",
    ]
    assert ledger_reconcile() == []


@pytest.mark.parametrize(
    ("pairs", "says"),
    [
        ((("alice", 600),), "pay out all of it"),
        ((("alice", 600), ("bob", 500)), "pay out all of it"),
        ((("alice", 0), ("bob", 1_000)), "whole positive number of cents"),
        ((("alice", 500), ("alice", 500)), "named twice"),
    ],
)
def test_a_resolution_that_does_not_pay_out_the_case_exactly_is_refused(
    alice: User, bob: User, support: User, pairs: tuple[tuple[str, int], ...], says: str
) -> None:
    case = _case(alice, bob)
    players = {"alice": alice, "bob": bob}
    with pytest.raises(RuleChangeRefused, match=says):
        rule_change_propose(support, KIND, case_target(case), _payouts(*((players[name], c) for name, c in pairs)), "x")
    assert not RuleChangeProposal.objects.exists()


def test_a_house_account_is_never_paid(alice: User, bob: User, support: User) -> None:
    from wallet.services import system_account

    case = _case(alice, bob)
    house = system_account(AccountKind.HOUSE_RAKE)
    with pytest.raises(RuleChangeRefused, match="not a player's cash account"):
        rule_change_propose(
            support, KIND, case_target(case), {"payouts": [{"account": house.pk, "amount": 1_000}]}, "x"
        )


def test_paying_a_player_whose_money_was_not_in_the_game_needs_an_administrator(
    alice: User, bob: User, make_player: object, support: User, second_support: User, administrator: User
) -> None:
    case = _case(alice, bob)
    carol = User.objects.create_user(username="carol", password="x-unused-password")
    proposal = rule_change_propose(support, KIND, case_target(case), _payouts((alice, 600), (carol, 400)), "x")
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match="whose money was not in the game"):
        rule_change_approve(proposal, second_support)
    assert balance_of(case.account) == 1_000
    rule_change_approve(proposal, administrator)
    assert balance_of(player_cash_account(carol)) == 400


@pytest.mark.parametrize("role", ["Compliance reviewers", WITHOUT_A_ROLE])
def test_reviewers_and_staff_without_a_role_neither_propose_nor_approve(
    alice: User, bob: User, support: User, role: str
) -> None:
    case = _case(alice, bob)
    other = staff_member(role, "other")
    with pytest.raises(RuleChangeRefused, match=r"wallet\.adjust_balance"):
        rule_change_propose(other, KIND, case_target(case), _payouts((alice, 600), (bob, 400)), "x")
    proposal = rule_change_propose(support, KIND, case_target(case), _payouts((alice, 600), (bob, 400)), "x")
    with pytest.raises(RuleChangeRefused, match=r"wallet\.adjust_balance"):
        rule_change_approve(proposal, other)
    assert RuleChangeProposal.objects.get().status == RuleChangeStatus.PENDING
    assert balance_of(case.account) == 1_000


def test_a_hexapro_case_is_decided_by_its_cancellation_only(alice: User, bob: User, support: User) -> None:
    case = _case(alice, bob, reference="hexapro:7")
    with pytest.raises(RuleChangeRefused, match="decided by the HexaPro cancellation rules"):
        rule_change_propose(support, KIND, case_target(case), _payouts((alice, 600), (bob, 400)), "x")


def test_the_case_page_proposes_a_resolution_typed_in_euros(alice: User, bob: User, support: User) -> None:
    case = _case(alice, bob)
    client = logged_in(support)
    assert "Propose whom the funds go to" in client.get(f"{CASES}{case.pk}/change/").content.decode()
    response = client.post(
        f"{CASES}{case.pk}/propose-resolution/", {"payouts": "alice 6.00\nbob 4,00", "reason": "As bet"}
    )
    assert response.status_code == 302
    proposal = RuleChangeProposal.objects.get()
    assert proposal.changes == _payouts((alice, 600), (bob, 400))
    assert balance_of(case.account) == 1_000

    refused = client.post(f"{CASES}{case.pk}/propose-resolution/", {"payouts": "alice 6.00", "reason": "x"})
    assert "pay out all of it" in refused.content.decode()
    assert RuleChangeProposal.objects.count() == 1


def test_a_reviewer_cannot_open_the_proposal_page(alice: User, bob: User, reviewer: User) -> None:
    case = _case(alice, bob)
    assert logged_in(reviewer).get(f"{CASES}{case.pk}/propose-resolution/").status_code == 403
