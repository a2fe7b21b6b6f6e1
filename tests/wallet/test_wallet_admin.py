"""The back office: ledger pages load for staff, are read-only, and adjustments require a reason."""

from __future__ import annotations

import pytest
from django.test import Client

from poker_site.accounts.models import User
from wallet.models import AccountKind, Hold, HoldStatus, Transfer
from wallet.services import (
    TransferLeg,
    balance_of,
    hold_create,
    player_cash_account,
    system_account,
    unresolved_game_open,
)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


CHANGELISTS = [
    "account",
    "transfer",
    "leg",
    "hold",
    "staffadjustment",
    "adjustmentproposal",
    "cashiertransaction",
    "cashierlimits",
    "unresolvedgamefunds",
    "auditentry",
]


@pytest.mark.parametrize("model", CHANGELISTS)
def test_every_wallet_changelist_loads_for_support_staff(
    alice: User, support: User, reviewer: User, model: str
) -> None:
    hold_create(player_cash_account(alice), 1_000, "Review", "review-case:1", created_by=reviewer)
    response = _client(support).get(f"/admin/wallet/{model}/")
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("model", "query", "expected"),
    [
        ("transfer", "?q=player:alice", "test-funding:"),
        ("transfer", "?kind=deposit", "test-funding:"),
        ("leg", "?q=player:alice", "€100.00"),
        ("leg", "?account__kind__exact=player_cash", "€100.00"),
        ("account", "?q=player:alice", "€100.00"),
        ("account", "?kind__exact=player_cash", "€100.00"),
    ],
)
def test_searches_and_filters_find_the_players_rows(
    alice: User, bob: User, support: User, model: str, query: str, expected: str
) -> None:
    response = _client(support).get(f"/admin/wallet/{model}/{query}")
    assert response.status_code == 200
    page = response.content.decode()
    assert expected in page
    if "player:alice" in query and model != "transfer":
        assert "€50.00" not in page  # bob's rows are filtered out


def test_the_transfer_page_shows_its_legs_read_only(alice: User, support: User) -> None:
    transfer = Transfer.objects.get()
    page = _client(support).get(f"/admin/wallet/transfer/{transfer.pk}/change/").content.decode()
    assert 'name="_save"' not in page
    assert "-€100.00" in page  # each leg in euros, its title included (issue 30)
    assert "€100.00" in page
    assert "-10000" not in page
    assert str(player_cash_account(alice).pk) in page


def test_ledger_rows_cannot_be_added_changed_or_deleted_from_the_admin(db: None) -> None:
    admin_user = User.objects.create_superuser("root", "root@example.com", "x-unused-password")
    client = _client(admin_user)
    assert client.get("/admin/wallet/transfer/add/").status_code == 403
    assert client.get("/admin/wallet/account/add/").status_code == 403


def test_a_reviewer_decides_a_hold_from_the_admin_with_a_reason(alice: User, reviewer: User) -> None:
    """Issue 30: the admin's seize proposes the seizure; a second reviewer's approval moves the money."""
    from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
    from poker_site.core.models import RuleChangeProposal
    from tests.foundation.staff_roles import staff_member

    hold = hold_create(player_cash_account(alice), 3_000, "Review", "review-case:2", created_by=reviewer)
    client = _client(reviewer)
    assert client.get(f"/admin/wallet/hold/{hold.pk}/decide/").status_code == 200

    refused = client.post(f"/admin/wallet/hold/{hold.pk}/decide/", {"decision": "seize", "reason": ""})
    assert refused.status_code == 200
    assert Hold.objects.get().status == HoldStatus.HELD

    decided = client.post(f"/admin/wallet/hold/{hold.pk}/decide/", {"decision": "seize", "reason": "Bot play"})
    assert decided.status_code == 302
    assert Hold.objects.get().status == HoldStatus.HELD  # proposed only
    proposal = RuleChangeProposal.objects.get(kind="hold_seizure", target=f"wallet.hold:{hold.pk}")
    hold_page = client.get(f"/admin/wallet/hold/{hold.pk}/change/").content.decode()
    assert f"/admin/core/rulechangeproposal/{proposal.pk}/change/" in hold_page
    own = client.post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": ""})
    assert own.status_code == 200
    assert Hold.objects.get().status == HoldStatus.HELD

    second = _client(staff_member(COMPLIANCE_REVIEWERS, "compliance-colleague"))
    approved = second.post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": "Agreed"})
    assert approved.status_code == 302
    assert Hold.objects.get().status == HoldStatus.SEIZED
    assert balance_of(system_account(AccountKind.HOUSE_SEIZED)) == 3_000


def test_the_unresolved_games_queue_lists_open_cases(alice: User, support: User) -> None:
    unresolved_game_open(
        game_reference="hand:5", contributions=[TransferLeg(player_cash_account(alice), 100)], idempotency_key="u-1"
    )
    page = _client(support).get("/admin/wallet/unresolvedgamefunds/").content.decode()
    assert "hand:5" in page
