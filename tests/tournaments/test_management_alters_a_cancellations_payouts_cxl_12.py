"""CXL-12: the operator may alter cancellation payouts. While a cancellation waits, staff who run tournaments set a
signed change per compensated player with a reason (audited); the policy's calculation stays on record as computed;
the approval — by someone who neither proposed nor altered it — pays the policy's amounts plus the changes, the house
funding the net, and the ledger reconciles. Bad alterations (a player not compensated, a net taken from players, a
player below nothing, not whole cents, no reason, a page that is no longer current, a cancellation already approved)
are clear errors and change nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from tests.foundation.staff_roles import staff_member
from tests.tournaments.back_office import audit_rows, client_of, form_values, messages_after
from tests.tournaments.support import cash, fresh, play, register_players, scheduled
from tournaments.models import CancellationStatus, Tournament, TournamentCancellation, TournamentStatus
from tournaments.services import NotAllowedNow, ReasonRequired
from tournaments.services.cancellation import (
    calculation_digest,
    tournament_cancellation_approve,
    tournament_cancellation_propose,
)
from tournaments.services.cancellation_alteration import proposal_digest, tournament_cancellation_alter
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db

CANCELLATIONS = "/admin/tournaments/tournamentcancellation/"


def proposed_cancellation() -> tuple[Tournament, list[Any], TournamentCancellation]:
    """Nine players on three tables of three, started, nobody out: not in the money; proposed by support."""
    tournament = scheduled(table_size=3, buy_in=1_000, fee=100)
    users = register_players(tournament, 9)
    assert tournament.starts_at is not None
    play(tournament, start=tournament.starts_at, until=lambda current: current.status == TournamentStatus.RUNNING)
    proposal = tournament_cancellation_propose(
        tournament, actor=staff_member(SUPPORT_STAFF, "support-proposer"), reason="Database outage"
    )
    return fresh(tournament), users, proposal


def policy_money(proposal: TournamentCancellation) -> dict[str, int]:
    return {str(row["player"]): int(row["money_cents"]) for row in proposal.calculation["compensations"]}


def house_guarantee() -> int:
    return system_account(AccountKind.HOUSE_GUARANTEE).balance


def test_cxl_12_altered_payouts_are_paid_on_approval_and_the_house_funds_the_net() -> None:
    tournament, users, proposal = proposed_cancellation()
    first, second = users[0], users[1]
    policy = policy_money(proposal)
    before = {user.pk: cash(user) for user in users}
    house_before = house_guarantee()

    altered = tournament_cancellation_alter(
        proposal,
        alterations={first.pk: 500, second.pk: -300, users[2].pk: 0},
        actor=staff_member(SUPPORT_STAFF, "support-manager"),
        reason="Management decision: goodwill for the disconnected player",
    )
    approved = tournament_cancellation_approve(altered, actor=staff_member(SUPPORT_STAFF, "support-approver"))

    assert approved.status == CancellationStatus.APPROVED
    assert approved.alterations == {str(first.pk): 500, str(second.pk): -300}
    assert cash(first) == before[first.pk] + policy[str(first.pk)] + 500
    assert cash(second) == before[second.pk] + policy[str(second.pk)] - 300
    for user in users[2:]:
        assert cash(user) == before[user.pk] + policy[str(user.pk)]
    assert house_guarantee() == house_before - 200
    totals = approved.calculation["totals"]
    assert approved.paid_in_money == totals["paid_in_money_cents"] + 200
    assert approved.kept_by_house == totals["kept_by_house_cents"] - 200
    assert policy_money(approved) == policy  # the policy's calculation stays as computed
    (audit,) = audit_rows("tournament_cancellation_altered")
    assert audit.before == {"alterations": {}}
    assert audit.after == {"alterations": {str(first.pk): 500, str(second.pk): -300}}
    assert audit.details["net_from_house_cents"] == 200
    assert audit_rows("tournament_cancelled")[0].details["alterations"] == approved.alterations
    assert fresh(tournament).status == TournamentStatus.CANCELLED
    call_command("wallet_reconcile")


def test_cxl_12_neither_the_proposer_nor_the_one_who_altered_may_approve() -> None:
    _, users, proposal = proposed_cancellation()
    manager = staff_member(SUPPORT_STAFF, "support-manager")
    tournament_cancellation_alter(proposal, alterations={users[0].pk: 100}, actor=manager, reason="Goodwill")

    with pytest.raises(NotAllowedNow, match="the one who altered its payouts"):
        tournament_cancellation_approve(proposal, actor=manager)
    with pytest.raises(NotAllowedNow, match="the one who proposed it"):
        tournament_cancellation_approve(proposal, actor=proposal.proposed_by)

    assert TournamentCancellation.objects.get(pk=proposal.pk).status == CancellationStatus.PROPOSED


@pytest.mark.parametrize(
    ("alterations", "refusal"),
    [
        ({999_999: 100}, "not among the players this cancellation compensates"),
        ("first:-100", "take more from players than they give"),
        ("first:-10000000", "would receive less than nothing"),
        ("first:1.5", "whole number of cents"),
        ("first:True", "whole number of cents"),
        ("first:200000000", "at most €1,000,000.00"),
    ],
)
def test_cxl_12_a_bad_alteration_is_refused_and_changes_nothing(alterations: Any, refusal: str) -> None:
    _, users, proposal = proposed_cancellation()
    if isinstance(alterations, str):
        amount = {"True": True, "1.5": 1.5}.get(alterations.split(":")[1]) or int(alterations.split(":")[1])
        alterations = {users[0].pk: amount}

    with pytest.raises(NotAllowedNow, match=re.escape(refusal)):
        tournament_cancellation_alter(
            proposal, alterations=alterations, actor=staff_member(SUPPORT_STAFF, "support-manager"), reason="Why"
        )

    row = TournamentCancellation.objects.get(pk=proposal.pk)
    assert (row.alterations, row.altered_by_id, row.paid_in_money) == ({}, None, proposal.paid_in_money)
    assert audit_rows("tournament_cancellation_altered") == []


def test_cxl_12_an_alteration_without_a_reason_or_after_the_approval_is_refused() -> None:
    _, users, proposal = proposed_cancellation()
    manager = staff_member(SUPPORT_STAFF, "support-manager")

    with pytest.raises(ReasonRequired):
        tournament_cancellation_alter(proposal, alterations={users[0].pk: 100}, actor=manager, reason=" ")
    tournament_cancellation_approve(proposal, actor=staff_member(SUPPORT_STAFF, "support-approver"))
    with pytest.raises(NotAllowedNow, match="already approved"):
        tournament_cancellation_alter(proposal, alterations={users[0].pk: 100}, actor=manager, reason="Late")

    assert TournamentCancellation.objects.get(pk=proposal.pk).alterations == {}


def test_cxl_12_an_approval_of_the_figures_seen_before_an_alteration_is_refused() -> None:
    """The approver's page showed the policy's figures; an alteration since then refuses that approval."""
    _, users, proposal = proposed_cancellation()
    seen = calculation_digest(proposal.calculation)
    tournament_cancellation_alter(
        proposal, alterations={users[0].pk: 100}, actor=staff_member(SUPPORT_STAFF, "support-manager"), reason="Why"
    )

    with pytest.raises(NotAllowedNow, match="figures changed since the preview you saw"):
        tournament_cancellation_approve(proposal, actor=staff_member(SUPPORT_STAFF, "support-approver"), previewed=seen)

    row = TournamentCancellation.objects.get(pk=proposal.pk)
    assert row.status == CancellationStatus.PROPOSED
    assert proposal_digest(row.calculation, row.alterations) != seen


def test_cxl_12_the_back_office_alters_in_euros_and_the_approval_page_shows_the_alteration() -> None:
    _, users, proposal = proposed_cancellation()
    manager = client_of(SUPPORT_STAFF, "support-manager")
    alter_page = f"{CANCELLATIONS}{proposal.pk}/alter/"

    page = manager.get(alter_page)
    data = form_values(page.content.decode(), "cancellation-alter")
    response = manager.post(
        alter_page, {**data, f"player_{users[0].pk}": "7.50", f"player_{users[1].pk}": "-2.50", "reason": "Goodwill"}
    )

    assert response.status_code == 302
    assert any("The payouts are altered" in message for message in messages_after(manager, response))
    row = TournamentCancellation.objects.get(pk=proposal.pk)
    assert row.alterations == {str(users[0].pk): 750, str(users[1].pk): -250}
    approval = client_of(SUPPORT_STAFF, "support-approver").get(f"{CANCELLATIONS}{proposal.pk}/approve/")
    html = approval.content.decode()
    assert "Altered (CXL-12)" in html
    assert "+€7.50" in html
    assert "−€2.50" in html
    assert "The house adds +€5.00" in html
    own = manager.get(f"{CANCELLATIONS}{proposal.pk}/approve/").content.decode()
    assert "You altered this cancellation&#x27;s payouts" in own or "You altered this cancellation's payouts" in own


def test_cxl_12_compliance_reviewers_cannot_alter_payouts() -> None:
    _, users, proposal = proposed_cancellation()
    reviewer = client_of(COMPLIANCE_REVIEWERS, "reviewer")

    response = reviewer.post(
        f"{CANCELLATIONS}{proposal.pk}/alter/", {f"player_{users[0].pk}": "5.00", "reason": "Not mine"}
    )

    assert response.status_code == 403
    assert TournamentCancellation.objects.get(pk=proposal.pk).alterations == {}
