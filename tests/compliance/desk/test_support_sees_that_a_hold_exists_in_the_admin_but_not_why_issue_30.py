"""Issue 30 and QA finding 3 (privacy): support staff see in the back office that a hold exists, never why. The hold's
page, the audit log (its list, its filter, its CSV export) and a seizure proposal's page show support no reason,
decision, reviewer or desk action of compliance's: they read "restricted, ask compliance", as the player overview
does, or are left out. A compliance reviewer and an administrator read everything."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from compliance.services import case_hold_create, case_hold_seizure_propose
from tests.compliance.desk.support import case_about, player
from tests.tables.back_office import logged_in

pytestmark = pytest.mark.django_db

REASON = "Winnings from hands against one opponent are under review"
GROUNDS = "Chip dumping proven"
CASE_TITLE = "Chip dumping: alice and bob"
RESTRICTED = "restricted, ask compliance"


@pytest.fixture
def seizure_proposed(reviewer: Any) -> dict[str, Any]:
    alice = player("alice", cash=50_000)
    case = case_about(reviewer, alice, title=CASE_TITLE)
    hold = case_hold_create(case, reviewer, alice, 20_000, REASON)
    proposal = case_hold_seizure_propose(case, reviewer, hold, GROUNDS)
    return {"hold": hold, "proposal": proposal, "case": case}


def pages(seizure: dict[str, Any]) -> dict[str, str]:
    hold, proposal = seizure["hold"], seizure["proposal"]
    return {
        "hold": f"/admin/wallet/hold/{hold.pk}/change/",
        "holds": "/admin/wallet/hold/",
        "holds_csv": "/admin/wallet/hold/?_export=csv",
        "audit": "/admin/wallet/auditentry/",
        "audit_of_holds": "/admin/wallet/auditentry/?action=case_hold",
        "audit_csv": "/admin/wallet/auditentry/?_export=csv",
        "proposal": f"/admin/core/rulechangeproposal/{proposal.pk}/change/",
    }


def read(client: Client, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, url
    if answer.streaming:
        return b"".join(answer.streaming_content).decode()  # type: ignore[arg-type]
    return answer.content.decode()


def test_support_sees_the_hold_and_its_amount_but_not_its_reason_nor_its_reviewer(
    seizure_proposed: dict[str, Any], support_agent: Any, reviewer: Any
) -> None:
    client = logged_in(support_agent)
    urls = pages(seizure_proposed)

    hold_page = read(client, urls["hold"])
    assert "€200.00" in hold_page
    assert RESTRICTED in hold_page
    listing = read(client, urls["holds"]) + read(client, urls["holds_csv"])
    assert "alice" in listing
    for page in (hold_page, listing):
        assert REASON not in page
        assert reviewer.username not in page  # who withheld it is compliance's too


def test_support_reads_no_desk_action_in_the_audit_log_its_filter_or_its_export(
    seizure_proposed: dict[str, Any], support_agent: Any
) -> None:
    client = logged_in(support_agent)
    urls = pages(seizure_proposed)

    audit = read(client, urls["audit"])
    assert "?action=case_opened" not in audit  # the filter does not offer the desk's actions
    for url in ("audit", "audit_of_holds", "audit_csv"):
        page = read(client, urls[url])
        for secret in (REASON, GROUNDS, CASE_TITLE):
            assert secret not in page, url
    assert "csv_exported" in read(client, urls["audit_csv"])  # support's own exports are listed


def test_support_reads_a_seizure_proposal_without_its_reason_or_details(
    seizure_proposed: dict[str, Any], support_agent: Any
) -> None:
    client = logged_in(support_agent)
    proposal = seizure_proposed["proposal"]

    page = read(client, pages(seizure_proposed)["proposal"])
    assert RESTRICTED in page
    assert GROUNDS not in page
    decision = client.get(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/")
    assert GROUNDS not in decision.content.decode()


def test_a_reviewer_reads_every_reason_of_the_hold_the_audit_log_and_the_proposal(
    seizure_proposed: dict[str, Any], second_reviewer: Any, reviewer: Any
) -> None:
    client = logged_in(second_reviewer)
    urls = pages(seizure_proposed)

    hold_page = read(client, urls["hold"])
    assert REASON in hold_page
    assert reviewer.username in hold_page
    assert RESTRICTED not in hold_page
    assert "?action=case_opened" in read(client, urls["audit"])
    assert REASON in read(client, urls["audit_of_holds"])
    assert GROUNDS in read(client, urls["audit_csv"])
    proposal_page = read(client, urls["proposal"])
    assert GROUNDS in proposal_page
    assert RESTRICTED not in proposal_page


def test_an_administrator_reads_every_reason_too(seizure_proposed: dict[str, Any], administrator: Any) -> None:
    client = logged_in(administrator)
    urls = pages(seizure_proposed)

    assert REASON in read(client, urls["hold"])
    assert GROUNDS in read(client, urls["proposal"])
    assert REASON in read(client, urls["audit_csv"])
