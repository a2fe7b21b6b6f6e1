"""Issue 30 (TRN-06, LOB-07, LOB-10): payout templates are created, changed and deleted by a proposal with a reason
that a second staff member approves; only then the structure changes, in the approval's transaction with its audit
row. Support staff propose and approve (never their own), compliance reviewers and staff without a role do neither,
a change reaching players already registered needs an administrator, and the admin edits no structure directly."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose
from tests.foundation.staff_roles import WITHOUT_A_ROLE, staff_member
from tests.tables.back_office import logged_in
from tests.tournaments.back_office import PAYOUT_STRUCTURES
from tests.tournaments.support import register_players, scheduled
from tournaments.models import PayoutStructure
from tournaments.payout_changes import ranges_of, structure_target
from tournaments.services.catalog import payout_structure_standard
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db

KIND = "payout_structure"
TWO_RANGES = [
    {"minimum_entrants": 2, "maximum_entrants": 5, "table_size": None, "shares": [10_000]},
    {"minimum_entrants": 6, "maximum_entrants": None, "table_size": None, "shares": [6_500, 3_500]},
]


def _propose(proposer: Any, structure: PayoutStructure | None, changes: dict[str, Any]) -> RuleChangeProposal:
    return rule_change_propose(proposer, KIND, structure_target(structure), changes, "Winter promotion")


def test_a_new_structure_exists_only_once_a_second_support_agent_approves_it() -> None:
    proposer, approver = staff_member(SUPPORT_STAFF, "sue"), staff_member(SUPPORT_STAFF, "sid")
    proposal = _propose(proposer, None, {"name": "Winter", "ranges": TWO_RANGES})
    assert not PayoutStructure.objects.filter(name="Winter").exists()

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, proposer)
    assert not PayoutStructure.objects.filter(name="Winter").exists()
    rule_change_approve(proposal, approver)

    assert ranges_of(PayoutStructure.objects.get(name="Winter")) == TWO_RANGES
    actions = AuditEntry.objects.filter(target="tournaments.payoutstructure:new").order_by("pk")
    assert [(entry.action, entry.actor) for entry in actions] == [
        ("rule_change_proposed", proposer),
        ("rule_change_approved", approver),
    ]


def test_a_change_replaces_the_ranges_and_is_audited_with_before_and_after() -> None:
    structure = payout_structure_standard()
    before = ranges_of(structure)
    proposal = _propose(staff_member(SUPPORT_STAFF, "sue"), structure, {"name": "Standard", "ranges": TWO_RANGES})
    assert ranges_of(structure) == before  # nothing until the approval

    rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"), "checked with marketing")

    structure.refresh_from_db()
    assert (structure.name, ranges_of(structure)) == ("Standard", TWO_RANGES)
    approved = AuditEntry.objects.get(action="rule_change_approved", target=structure_target(structure))
    assert approved.before["ranges"] == before
    assert approved.after["ranges"] == TWO_RANGES
    assert approved.reason == "checked with marketing"


def test_a_proposal_no_longer_valid_at_the_approval_changes_nothing_and_stays_pending() -> None:
    proposal = _propose(staff_member(SUPPORT_STAFF, "sue"), None, {"name": "Winter", "ranges": TWO_RANGES})
    rival = _propose(staff_member(SUPPORT_STAFF, "sam"), None, {"name": "Winter", "ranges": TWO_RANGES[1:]})
    rule_change_approve(rival, staff_member(SUPPORT_STAFF, "sid"))

    with pytest.raises(RuleChangeRefused, match="already a payout structure named 'Winter'"):
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sol"))

    assert PayoutStructure.objects.filter(name="Winter").count() == 1
    proposal.refresh_from_db()
    assert proposal.status == RuleChangeStatus.PENDING
    assert AuditEntry.objects.filter(action="rule_change_approved").count() == 1


def test_a_bad_template_set_is_refused_when_proposed() -> None:
    with pytest.raises(RuleChangeRefused, match="add up to 9999 basis points"):
        _propose(
            staff_member(SUPPORT_STAFF, "sue"),
            None,
            {"name": "Bad", "ranges": [{"minimum_entrants": 2, "shares": [6_000, 3_999]}]},
        )
    assert not RuleChangeProposal.objects.exists()


def test_a_structure_is_deleted_by_an_approved_proposal_unless_a_tournament_uses_it() -> None:
    unused = PayoutStructure.objects.create(name="Unused")
    proposal = _propose(staff_member(SUPPORT_STAFF, "sue"), unused, {"delete": True})
    rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"))
    assert not PayoutStructure.objects.filter(pk=unused.pk).exists()

    used = scheduled().payout_structure
    with pytest.raises(RuleChangeRefused, match="payout structure of 1 tournament"):
        _propose(staff_member(SUPPORT_STAFF, "sam"), used, {"delete": True})


def test_a_change_reaching_players_already_registered_needs_an_administrator() -> None:
    tournament = scheduled()
    register_players(tournament, 2)
    structure = tournament.payout_structure
    proposal = _propose(staff_member(SUPPORT_STAFF, "sue"), structure, {"ranges": TWO_RANGES})
    assert proposal.needs_administrator

    with pytest.raises(RuleChangeRefused, match="needs an administrator"):
        rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"))
    rule_change_approve(proposal, staff_member(ADMINISTRATORS, "ada"))
    assert ranges_of(PayoutStructure.objects.get(pk=structure.pk)) == TWO_RANGES


@pytest.mark.parametrize("role", [COMPLIANCE_REVIEWERS, WITHOUT_A_ROLE])
def test_reviewers_and_staff_without_a_role_neither_propose_nor_approve(role: str) -> None:
    other = staff_member(role, "rita")
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.change_payoutstructure"):
        _propose(other, None, {"name": "Winter", "ranges": TWO_RANGES})
    proposal = _propose(staff_member(SUPPORT_STAFF, "sue"), None, {"name": "Winter", "ranges": TWO_RANGES})
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.change_payoutstructure"):
        rule_change_approve(proposal, other)
    assert not PayoutStructure.objects.filter(name="Winter").exists()


@pytest.mark.parametrize("role", [SUPPORT_STAFF, ADMINISTRATORS])
def test_nobody_adds_changes_or_deletes_a_structure_in_the_admin(role: str) -> None:
    structure = payout_structure_standard()
    client = logged_in(staff_member(role, "staff"))
    assert client.get(PAYOUT_STRUCTURES + "add/").status_code == 403
    assert client.post(f"{PAYOUT_STRUCTURES}{structure.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"{PAYOUT_STRUCTURES}{structure.pk}/change/", {"name": "Renamed"}).status_code == 403
    assert PayoutStructure.objects.filter(pk=structure.pk, name=structure.name).exists()


def test_the_propose_page_proposes_a_structure_typed_one_range_a_line() -> None:
    agent = staff_member(SUPPORT_STAFF, "sue")
    client = logged_in(agent)
    assert "Propose a new payout structure" in client.get(PAYOUT_STRUCTURES).content.decode()
    response = client.post(
        PAYOUT_STRUCTURES + "propose/",
        {"name": "Winter", "ranges": "2-5: 10000\n6-: 6500 3500", "reason": "Winter promotion"},
    )
    assert response.status_code == 302
    proposal = RuleChangeProposal.objects.get()
    assert (proposal.kind, proposal.proposed_by, proposal.changes["ranges"]) == (KIND, agent, TWO_RANGES)
    assert not PayoutStructure.objects.filter(name="Winter").exists()


@pytest.mark.parametrize(
    ("ranges", "says"),
    [
        ("2-: 6000 3999", "add up to 9999 basis points, not 10,000"),
        ("2-: 3000 7000", "cannot pay more than the place above it"),
        ("2-10: 10000\n8-: 7000 3000", "overlap at 8 entrants"),
        ("2-5: 10000\n8-: 7000 3000", "No range holds 6–7 entrants"),
        ("2 to 5 pays 10000", "Line 1 is not a range"),
    ],
)
def test_the_propose_page_refuses_a_bad_structure_in_words_and_proposes_nothing(ranges: str, says: str) -> None:
    client = logged_in(staff_member(SUPPORT_STAFF, "sue"))
    response = client.post(PAYOUT_STRUCTURES + "propose/", {"name": "Bad", "ranges": ranges, "reason": "x"})
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not RuleChangeProposal.objects.exists()


def test_a_reviewer_cannot_open_the_propose_pages() -> None:
    structure = payout_structure_standard()
    client = logged_in(staff_member(COMPLIANCE_REVIEWERS, "rita"))
    assert client.get(PAYOUT_STRUCTURES + "propose/").status_code == 403
    assert client.get(f"{PAYOUT_STRUCTURES}{structure.pk}/propose/").status_code == 403


def test_ranges_for_a_table_size_are_stored_and_audited_as_proposed() -> None:
    ranges = [
        {"minimum_entrants": 2, "maximum_entrants": None, "table_size": 6, "shares": [6_500, 3_500]},
        {"minimum_entrants": 2, "maximum_entrants": None, "table_size": None, "shares": [10_000]},
    ]
    proposal = _propose(staff_member(SUPPORT_STAFF, "sue"), None, {"name": "Six-max", "ranges": list(reversed(ranges))})
    assert proposal.changes["ranges"] == ranges
    rule_change_approve(proposal, staff_member(SUPPORT_STAFF, "sid"))
    assert ranges_of(PayoutStructure.objects.get(name="Six-max")) == ranges
