"""Issue 30 in the back office: support proposes an adjustment in euros (stored in cents) on the proposals' add
page, another staff member approves or rejects it on its pages; the services' refusals come back as messages and
nothing moves. The old one-person adjustment page is gone."""

from __future__ import annotations

from django.test import Client

from poker_site.accounts.models import User
from wallet.models import AdjustmentProposal, ProposalStatus, StaffAdjustment
from wallet.services import adjustment_propose, balance_of, player_cash_account, system_account


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_support_proposes_in_euros_and_a_colleague_approves(alice: User, support: User, second_support: User) -> None:
    cash = player_cash_account(alice)
    page = _client(support).get(f"/admin/wallet/adjustmentproposal/add/?account={cash.pk}")
    assert page.status_code == 200
    assert "Amount in euros" in page.content.decode()

    proposed = _client(support).post(
        "/admin/wallet/adjustmentproposal/add/",
        {"account": cash.pk, "amount": "12.50", "category": "goodwill", "reason": "Outage", "idempotency_key": "a-1"},
    )
    assert proposed.status_code == 302
    proposal = AdjustmentProposal.objects.get()
    assert (proposal.amount, proposal.status) == (12_50, ProposalStatus.PENDING)
    assert balance_of(cash) == 100_00
    listing = _client(second_support).get("/admin/wallet/adjustmentproposal/").content.decode()
    assert "€12.50" in listing

    refused = _client(support).post(f"/admin/wallet/adjustmentproposal/{proposal.pk}/approve/", {"note": ""})
    assert refused.status_code == 200
    assert "second staff member" in refused.content.decode()
    assert balance_of(cash) == 100_00

    approved = _client(second_support).post(f"/admin/wallet/adjustmentproposal/{proposal.pk}/approve/", {"note": ""})
    assert approved.status_code == 302
    assert balance_of(cash) == 112_50


def test_a_proposal_without_a_reason_or_of_a_house_account_is_refused_on_the_page(alice: User, support: User) -> None:
    client = _client(support)
    cash = player_cash_account(alice)
    no_reason = client.post(
        "/admin/wallet/adjustmentproposal/add/",
        {"account": cash.pk, "amount": "5.00", "category": "goodwill", "reason": "", "idempotency_key": "a-2"},
    )
    assert "This field is required" in no_reason.content.decode()
    rake = system_account("house_rake")
    house = client.post(
        "/admin/wallet/adjustmentproposal/add/",
        {"account": rake.pk, "amount": "-2.00", "category": "correction", "reason": "Fix", "idempotency_key": "a-3"},
    )
    assert "never adjusted by hand" in house.content.decode()
    assert not AdjustmentProposal.objects.exists()


def test_a_rejection_on_its_page_needs_a_reason(alice: User, support: User, second_support: User) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), -3_00, "correction", "Clawback", "a-4")
    client = _client(second_support)
    assert client.post(f"/admin/wallet/adjustmentproposal/{proposal.pk}/reject/", {"note": ""}).status_code == 200
    assert AdjustmentProposal.objects.get().status == ProposalStatus.PENDING
    done = client.post(f"/admin/wallet/adjustmentproposal/{proposal.pk}/reject/", {"note": "Legitimate bonus"})
    assert done.status_code == 302
    assert AdjustmentProposal.objects.get().status == ProposalStatus.REJECTED


def test_a_support_agent_cannot_approve_a_debit_on_the_page(alice: User, support: User, second_support: User) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), -3_00, "correction", "Clawback", "a-5")
    page = _client(second_support).post(f"/admin/wallet/adjustmentproposal/{proposal.pk}/approve/", {"note": ""})
    assert "needs an administrator" in page.content.decode()
    assert balance_of(player_cash_account(alice)) == 100_00


def test_nobody_books_an_adjustment_alone_any_more(alice: User, support: User, administrator: User) -> None:
    for user in (support, administrator):
        assert _client(user).get("/admin/wallet/staffadjustment/add/").status_code == 403
    assert not StaffAdjustment.objects.exists()
    assert balance_of(system_account("house_adjustments")) == 0


def test_compliance_reviewers_cannot_open_the_proposal_or_decision_pages(
    alice: User, support: User, reviewer: User
) -> None:
    proposal = adjustment_propose(support, player_cash_account(alice), 3_00, "goodwill", "Outage", "a-6")
    client = _client(reviewer)
    assert client.get("/admin/wallet/adjustmentproposal/add/").status_code == 403
    assert client.get(f"/admin/wallet/adjustmentproposal/{proposal.pk}/approve/").status_code == 403
    assert client.get(f"/admin/wallet/adjustmentproposal/{proposal.pk}/reject/").status_code == 403
