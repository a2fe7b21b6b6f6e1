"""TRN-28, issue 30 (four eyes on money): disqualifying a player is immediate, but forfeiting their unpaid prize is a
rule change proposal another staff member decides. While it waits the prize is withheld: unpaid, still in the prize
pool (the ledger reconciles), and paid by nothing (the beat's sweep, the prize task, the manual credit). Approved by a
second compliance reviewer, it is forfeited once (in full to the house's seized funds, or in part with the rest paid
to the player in one transfer), audited with both names; rejected with a reason, the prize is paid to the player at
once. The proposer decides nothing. Proposing and deciding need one permission, ``tournaments.forfeit_prize``: it
takes a player's money, so it is the compliance desk's (reviewers hold it, as they hold ``wallet.seize_hold``);
support staff, who disqualify, neither propose a forfeiture nor approve or reject a reviewer's."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.role_table import ADMINISTRATORS
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve, rule_change_propose, rule_change_reject
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.tournaments.back_office import ENTRIES, audit_rows, messages_after, run_action
from tests.tournaments.support import cash, unpaid_winner
from tests.tournaments.tickets_support import assert_the_ledger_reconciles
from tournaments import services, tasks
from tournaments.forfeiture_changes import FORFEIT_PRIZE, KIND, PRIZE_FORFEITURE, forfeiture_pending, forfeiture_target
from tournaments.models import EntryStatus, TournamentEntry
from tournaments.services import NotAllowedNow, entry_disqualify
from tournaments.services.money import prize_pool_account
from wallet.models import AccountKind, AuditEntry, Transfer
from wallet.services import balance_of, system_account

pytestmark = pytest.mark.django_db


def seized() -> int:
    return balance_of(system_account(AccountKind.HOUSE_SEIZED))


def the_proposal(entry: TournamentEntry) -> RuleChangeProposal:
    return RuleChangeProposal.objects.get(kind=KIND, target=forfeiture_target(entry))


def nothing_pays_it(entry: TournamentEntry, staff: Any) -> None:
    """Every prize-paying path leaves a withheld prize alone."""
    assert services.tournaments_advance_all()["prizes_paid"] == 0
    assert services.entry_prize_pay(entry.pk) is False
    assert tasks.entry_prize_credit(entry.pk) is False
    with pytest.raises(NotAllowedNow, match="withheld"):
        services.entry_prize_credit(entry.pk, actor=staff, reason="Pay it anyway")
    row = TournamentEntry.objects.get(pk=entry.pk)
    assert (row.prize_transfer_id, row.prize_forfeited, row.prize_forfeited_cents) == (None, False, 0)


def test_trn_28_issue_30_disqualification_is_immediate_and_the_full_forfeiture_waits_for_a_second_reviewer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, issue 30: the player is disqualified at once; the prize is withheld, not paid and not forfeited, until
    a second reviewer approves; the proposer cannot; approved, the whole prize goes to the seized funds once."""
    winner = unpaid_winner(monkeypatch)
    proposer, approver = staff_member(COMPLIANCE_REVIEWERS, "rita"), staff_member(COMPLIANCE_REVIEWERS, "rory")
    pool = prize_pool_account(winner.tournament)
    before_cash, before_seized, before_pool = cash(winner.user), seized(), balance_of(pool)

    entry_disqualify(winner, actor=proposer, reason="Collusion", forfeit_prize=True)

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert row.status == EntryStatus.DISQUALIFIED
    proposal = the_proposal(winner)
    assert (proposal.status, proposal.proposed_by_id) == (RuleChangeStatus.PENDING, proposer.pk)
    assert proposal.changes == {"full": True, "forfeit_cents": 3_000}
    assert forfeiture_pending(winner)
    (disqualified,) = audit_rows("tournament_player_disqualified")
    assert disqualified.details["forfeiture_proposed_cents"] == 3_000
    assert disqualified.details["forfeiture_proposal"] == proposal.pk
    nothing_pays_it(winner, approver)
    assert (cash(winner.user), seized(), balance_of(pool)) == (before_cash, before_seized, before_pool)
    assert_the_ledger_reconciles()  # the finished tournament's pool still holds the withheld prize

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, proposer)
    assert seized() == before_seized
    rule_change_approve(proposal, approver, note="Confirmed from the hand histories")

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert (row.prize_forfeited, row.prize_forfeited_cents, row.prize_transfer_id) == (True, 3_000, None)
    assert seized() - before_seized == 3_000
    assert before_pool - balance_of(pool) == 3_000
    assert cash(winner.user) == before_cash
    (audit,) = audit_rows("tournament_prize_forfeited")
    assert audit.actor_id == approver.pk
    assert (audit.details["proposed_by"], audit.details["approved_by"]) == ("rita", "rory")
    assert (audit.details["forfeited_cents"], audit.details["paid_cents"]) == (3_000, 0)
    with pytest.raises(RuleChangeRefused, match="already"):
        rule_change_approve(proposal, approver)
    assert services.entry_prize_pay(winner.pk) is False
    assert seized() - before_seized == 3_000
    assert_the_ledger_reconciles()


def test_trn_28_issue_30_an_approved_partial_forfeiture_seizes_the_part_and_pays_the_rest_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, issue 30: €12.34 of €30.00 proposed; on a second reviewer's approval €12.34 is seized and €17.66 paid
    in one transfer, and nothing pays the prize again."""
    winner = unpaid_winner(monkeypatch)
    proposer, approver = staff_member(COMPLIANCE_REVIEWERS, "rita"), staff_member(COMPLIANCE_REVIEWERS, "rory")
    before_cash, before_seized, transfers = cash(winner.user), seized(), Transfer.objects.count()

    entry_disqualify(winner, actor=proposer, reason="Chip dumping", forfeit_prize=False, forfeit_cents=1_234)
    nothing_pays_it(winner, approver)
    assert Transfer.objects.count() == transfers
    rule_change_approve(the_proposal(winner), approver)

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert (row.prize_forfeited, row.prize_forfeited_cents) == (False, 1_234)
    assert row.prize_transfer_id is not None
    assert Transfer.objects.count() == transfers + 1
    assert (cash(winner.user) - before_cash, seized() - before_seized) == (1_766, 1_234)
    (audit,) = audit_rows("tournament_prize_forfeited")
    assert audit.transfer_id == row.prize_transfer_id
    assert (audit.details["proposed_by"], audit.details["approved_by"]) == ("rita", "rory")
    assert services.entry_prize_pay(winner.pk) is False
    assert services.tournaments_advance_all()["prizes_paid"] == 0
    assert (cash(winner.user) - before_cash, seized() - before_seized) == (1_766, 1_234)
    assert_the_ledger_reconciles()


def test_trn_28_issue_30_a_rejected_forfeiture_pays_the_prize_to_the_player_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, issue 30: a rejection (another reviewer, with a reason) pays the withheld prize in its own
    transaction, through the ordinary prize payment, once; the proposer cannot reject, nor anyone without a reason."""
    winner = unpaid_winner(monkeypatch)
    proposer, decider = staff_member(COMPLIANCE_REVIEWERS, "rita"), staff_member(COMPLIANCE_REVIEWERS, "rory")
    before_cash, before_seized = cash(winner.user), seized()
    entry_disqualify(winner, actor=proposer, reason="Collusion", forfeit_prize=True)
    proposal = the_proposal(winner)

    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_reject(proposal, proposer, "Changed my mind")
    with pytest.raises(RuleChangeRefused, match="reason"):
        rule_change_reject(proposal, decider, " ")
    assert cash(winner.user) == before_cash
    rule_change_reject(proposal, decider, "The hand histories show no collusion")

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert row.status == EntryStatus.DISQUALIFIED  # the disqualification stands
    assert row.prize_transfer_id is not None
    assert (row.prize_forfeited, row.prize_forfeited_cents) == (False, 0)
    assert cash(winner.user) - before_cash == 3_000
    assert seized() == before_seized
    (credited,) = audit_rows("tournament_prize_credited")
    assert credited.actor_id == decider.pk
    assert credited.transfer_id == row.prize_transfer_id
    assert not forfeiture_pending(winner)
    assert services.entry_prize_pay(winner.pk) is False
    assert services.tournaments_advance_all()["prizes_paid"] == 0
    with pytest.raises(NotAllowedNow, match="already paid"):
        services.entry_prize_credit(winner.pk, actor=decider, reason="retry")
    assert cash(winner.user) - before_cash == 3_000
    assert_the_ledger_reconciles()


def test_trn_28_issue_30_the_check_runs_again_at_the_approval(monkeypatch: pytest.MonkeyPatch) -> None:
    """TRN-28, issue 30: a forfeiture whose prize is no longer unpaid when it is approved is refused, nothing moves."""
    winner = unpaid_winner(monkeypatch)
    proposer, approver = staff_member(COMPLIANCE_REVIEWERS, "rita"), staff_member(COMPLIANCE_REVIEWERS, "rory")
    entry_disqualify(winner, actor=proposer, reason="Collusion", forfeit_prize=False, forfeit_cents=500)
    TournamentEntry.objects.filter(pk=winner.pk).update(prize_forfeited=True)  # e.g. forfeited meanwhile
    before_cash, before_seized = cash(winner.user), seized()

    with pytest.raises(RuleChangeRefused, match="already forfeited"):
        rule_change_approve(the_proposal(winner), approver)

    assert the_proposal(winner).status == RuleChangeStatus.PENDING
    assert (cash(winner.user), seized()) == (before_cash, before_seized)


def test_trn_28_issue_30_only_compliance_reviewers_hold_the_permission_to_forfeit_a_prize() -> None:
    """Least privilege: the one permission that proposes and decides a forfeiture is the desk's, not support's."""
    reviewer, agent = staff_member(COMPLIANCE_REVIEWERS, "rita"), staff_member(SUPPORT_STAFF, "sam")

    assert (reviewer.has_perm(FORFEIT_PRIZE), agent.has_perm(FORFEIT_PRIZE)) == (True, False)
    assert PRIZE_FORFEITURE.propose_permission == PRIZE_FORFEITURE.approve_permission == FORFEIT_PRIZE
    assert agent.has_perm("tournaments.disqualify_player")  # support still disqualifies, keeping the prize


def test_trn_28_issue_30_a_support_agent_cannot_propose_a_forfeiture_and_the_disqualification_is_not_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, issue 30: a disqualification with a forfeiture by a support agent is refused whole (the forfeiture is
    proposed in the disqualification's transaction): the player stays as they were, nothing is proposed or audited."""
    winner = unpaid_winner(monkeypatch)
    agent = staff_member(SUPPORT_STAFF, "sam")
    audited = AuditEntry.objects.count()

    with pytest.raises(RuleChangeRefused, match=r"tournaments\.forfeit_prize"):
        rule_change_propose(agent, KIND, forfeiture_target(winner), {"full": True, "forfeit_cents": 3_000}, "x")
    with pytest.raises(NotAllowedNow, match=r"sam may not propose .* tournaments\.forfeit_prize"):
        entry_disqualify(winner, actor=agent, reason="Collusion", forfeit_prize=True)
    with pytest.raises(NotAllowedNow, match=r"tournaments\.forfeit_prize"):
        entry_disqualify(winner, actor=agent, reason="Collusion", forfeit_prize=False, forfeit_cents=1_000)

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert (row.status, row.prize_transfer_id, row.prize_forfeited) == (EntryStatus.FINISHED, None, False)
    assert not RuleChangeProposal.objects.exists()
    assert AuditEntry.objects.count() == audited


def test_trn_28_issue_30_a_support_agent_neither_approves_nor_rejects_a_reviewers_forfeiture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, issue 30: a reviewer's forfeiture waits for a second reviewer; a support agent's approval and
    rejection are refused (``tournaments.forfeit_prize``), on the service and on the admin's approval page."""
    winner = unpaid_winner(monkeypatch)
    agent = staff_member(SUPPORT_STAFF, "sam")
    entry_disqualify(winner, actor=staff_member(COMPLIANCE_REVIEWERS, "rita"), reason="Collusion", forfeit_prize=True)
    proposal = the_proposal(winner)
    before_cash, before_seized = cash(winner.user), seized()

    with pytest.raises(RuleChangeRefused, match=r"tournaments\.forfeit_prize"):
        rule_change_approve(proposal, agent)
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.forfeit_prize"):
        rule_change_reject(proposal, agent, "Not convinced")
    page = logged_in(agent).post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": ""})
    assert "tournaments.forfeit_prize" in page.content.decode()

    assert the_proposal(winner).status == RuleChangeStatus.PENDING
    assert (cash(winner.user), seized()) == (before_cash, before_seized)


def test_trn_28_issue_30_an_administrator_proposes_a_forfeiture_in_the_back_office_and_a_reviewer_approves_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TRN-28, issue 30: the back office's disqualification offers the forfeiture to a holder of
    ``tournaments.forfeit_prize`` (an administrator); a reviewer approves it on the rule change's page, and the
    manual credit then refuses the forfeited prize."""
    winner = unpaid_winner(monkeypatch)
    before_cash, before_seized = cash(winner.user), seized()
    administrator = logged_in(staff_member(ADMINISTRATORS, "ada"))

    run_action(administrator, ENTRIES, "disqualify_entries", [winner.pk], prize="forfeit", reason="Multi-accounting")
    proposal = the_proposal(winner)
    assert seized() == before_seized
    reviewer = logged_in(staff_member(COMPLIANCE_REVIEWERS, "rita"))
    approval = reviewer.post(f"/admin/core/rulechangeproposal/{proposal.pk}/approve/", {"note": "Agreed"})
    assert approval.status_code == 302
    credit = run_action(administrator, ENTRIES, "credit_prizes", [winner.pk], reason="Pay it anyway")

    row = TournamentEntry.objects.get(pk=winner.pk)
    assert (row.status, row.prize_forfeited) == (EntryStatus.DISQUALIFIED, True)
    assert seized() - before_seized == 3_000
    assert cash(winner.user) == before_cash
    assert any("forfeited on disqualification" in text for text in messages_after(administrator, credit))
    (disqualified,) = audit_rows("tournament_player_disqualified")
    assert disqualified.details["forfeit_prize"] is True
    assert disqualified.details["before"] == {"status": EntryStatus.FINISHED, "place": 1, "prize": 3_000}
    assert audit_rows("tournament_prize_credited") == []
