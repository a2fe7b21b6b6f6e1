"""QA note 13 (back office, LOB-10): one audit entry speaks one unit. A seizure's ``case_hold_seized`` entry showed
"amount": "€200.00" beside "seized": 15000 (cents), and the seizure's rule change proposal showed "Changes:
{"amount": 15000}" under a summary in euros. Both pages now show every amount in euros (the stored values keep
cents)."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.services import case_hold_create, case_hold_seizure_propose
from poker_site.core.rule_changes import rule_change_approve
from tests.compliance.desk.support import case_about, player
from tests.tables.back_office import logged_in
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_the_seizures_audit_entry_and_its_proposal_show_euros_only(reviewer: Any, second_reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice)
    hold = case_hold_create(case, reviewer, alice, 20_000, "Under review")
    proposal = case_hold_seizure_propose(case, reviewer, hold, "Chip dumping proven", amount=15_000)
    rule_change_approve(proposal, second_reviewer, "Checked")
    entry = AuditEntry.objects.get(action="case_hold_seized")
    assert (entry.details["amount"], entry.details["seized"]) == (20_000, 15_000)  # stored in cents
    client = logged_in(second_reviewer)

    entry_page = client.get(f"/admin/wallet/auditentry/{entry.pk}/change/").content.decode()
    proposal_page = client.get(f"/admin/core/rulechangeproposal/{proposal.pk}/change/").content.decode()

    assert "&quot;seized&quot;: &quot;€150.00&quot;" in entry_page
    assert "&quot;amount&quot;: &quot;€200.00&quot;" in entry_page
    assert "15000" not in entry_page
    assert "&quot;amount&quot;: &quot;€150.00&quot;" in proposal_page
    assert "15000" not in proposal_page
