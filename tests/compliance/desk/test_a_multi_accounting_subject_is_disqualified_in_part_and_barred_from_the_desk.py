"""TRN-09 / FRD-15, TRN-28: on the compliance desk a reviewer disqualifies a case's subject from a tournament,
forfeiting part of the unpaid prize (the rest is paid) and barring them from tournaments; the decision is on
the case with what was forfeited, and the subject's next registration is refused. Forfeiting the whole prize and a
part of it at once is refused on the form and nothing changes. Issue 30: the disqualification and the bar are
immediate; the forfeiture is proposed with them and done when a second reviewer approves it: proposing and deciding
a forfeiture need ``tournaments.forfeit_prize``, the desk's alone, so neither the proposer nor a support agent can."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from compliance.models import CaseActionKind
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import RuleChangeRefused, rule_change_approve
from tests.compliance.desk.support import case_about
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.tables.support import cash
from tests.tournaments.support import scheduled, unpaid_winner
from tournaments.forfeiture_changes import KIND, forfeiture_target
from tournaments.models import EntryStatus, TournamentBar
from tournaments.services import NotEligible, tournament_register
from wallet.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_trn_09_a_subject_is_disqualified_with_a_partial_forfeiture_and_barred(
    reviewer: Any, support_agent: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    winner = unpaid_winner(monkeypatch)
    case = case_about(reviewer, winner.user, title="Two accounts, one person (FRD-15)")
    before = cash(winner.user)

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/disqualify/",
        {
            "disqualify-entry": winner.pk,
            "disqualify-forfeit_amount": "20.00",
            "disqualify-bar": "on",
            "disqualify-reason": "Second account of the same person",
        },
    )

    assert response.status_code == 302
    winner.refresh_from_db()
    assert winner.status == EntryStatus.DISQUALIFIED  # at once
    assert TournamentBar.objects.filter(user=winner.user).exists()
    # Issue 30 (TRN-28): the forfeiture is proposed with the case's decision and withheld until a second reviewer
    # (``tournaments.forfeit_prize``) approves it; neither the proposer nor a support agent can.
    proposal = RuleChangeProposal.objects.get(kind=KIND, target=forfeiture_target(winner))
    assert (proposal.proposed_by_id, proposal.changes) == (reviewer.pk, {"full": False, "forfeit_cents": 2_000})
    assert cash(winner.user) == before
    action = case.actions.get(kind=CaseActionKind.DISQUALIFIED)
    assert (action.details["forfeited_cents"], action.details["barred"]) == (0, True)  # nothing forfeited yet
    with pytest.raises(RuleChangeRefused, match="second staff member"):
        rule_change_approve(proposal, reviewer)
    with pytest.raises(RuleChangeRefused, match=r"tournaments\.forfeit_prize"):
        rule_change_approve(proposal, support_agent)
    assert cash(winner.user) == before
    rule_change_approve(proposal, staff_member(COMPLIANCE_REVIEWERS, "rory"))
    winner.refresh_from_db()
    assert winner.prize_forfeited_cents == 2_000
    assert cash(winner.user) - before == 1_000
    (forfeited,) = AuditEntry.objects.filter(action="tournament_prize_forfeited")
    assert forfeited.details["forfeited_cents"] == 2_000
    assert forfeited.details["proposed_by"] == reviewer.username
    with pytest.raises(NotEligible, match="barred from tournaments"):
        tournament_register(winner.user, scheduled(starts_at=timezone.now() + timedelta(hours=1)))


def test_forfeiting_the_whole_prize_and_a_part_at_once_is_refused_and_changes_nothing(
    reviewer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    winner = unpaid_winner(monkeypatch)
    case = case_about(reviewer, winner.user)
    before = cash(winner.user)

    response = logged_in(reviewer).post(
        f"/compliance/cases/{case.pk}/disqualify/",
        {
            "disqualify-entry": winner.pk,
            "disqualify-forfeit_prize": "on",
            "disqualify-forfeit_amount": "5.00",
            "disqualify-reason": "Both",
        },
    )

    assert response.status_code in (200, 400)
    assert "not both" in response.content.decode()
    winner.refresh_from_db()
    assert winner.status == EntryStatus.FINISHED
    assert cash(winner.user) == before
    assert not TournamentBar.objects.exists()
    assert not case.actions.filter(kind=CaseActionKind.DISQUALIFIED).exists()
