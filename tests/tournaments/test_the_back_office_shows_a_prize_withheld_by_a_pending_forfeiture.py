"""TRN-28, issue 30, LOB-08: while a disqualified player's forfeiture awaits its decision their prize is withheld (paid
by nothing), and the back office says so instead of "unpaid": the entry list's prize column, the tournament monitor's
eliminations and payouts panels and the disqualification page read "withheld: forfeiture pending (rule change #N)",
naming the proposal to decide. The prize filter lists it under "withheld", not with the unpaid prizes a manual credit
would pay. Once decided it reads "forfeited" (approved) or "paid" (rejected). The state of a page of entries is read
in the page's own query, not one query an entry."""

from __future__ import annotations

from typing import Any

import pytest

from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import rule_change_approve, rule_change_reject
from tests.foundation.staff_roles import staff_member
from tests.tables.back_office import logged_in
from tests.tournaments.back_office import ENTRIES, TOURNAMENTS
from tests.tournaments.support import unpaid_winner
from tournaments.admin_panels import prize_state, with_prize_states
from tournaments.forfeiture_changes import KIND, forfeiture_target
from tournaments.models import TournamentEntry
from tournaments.services import entry_disqualify

pytestmark = pytest.mark.django_db


def withheld_winner(monkeypatch: pytest.MonkeyPatch) -> tuple[TournamentEntry, RuleChangeProposal]:
    """An unpaid winner disqualified by a reviewer who proposed to forfeit the whole prize: the prize is withheld,
    the proposal pending."""
    winner = unpaid_winner(monkeypatch)
    entry_disqualify(winner, actor=staff_member(COMPLIANCE_REVIEWERS, "rita"), reason="Collusion", forfeit_prize=True)
    proposal = RuleChangeProposal.objects.get(kind=KIND, target=forfeiture_target(winner))
    return TournamentEntry.objects.select_related("tournament", "user").get(pk=winner.pk), proposal


def withheld_text(proposal: RuleChangeProposal) -> str:
    return f"withheld: forfeiture pending (rule change #{proposal.pk})"


def test_a_withheld_prize_reads_withheld_pending_the_forfeiture_not_unpaid(monkeypatch: pytest.MonkeyPatch) -> None:
    winner, proposal = withheld_winner(monkeypatch)

    assert prize_state(winner) == withheld_text(proposal)


def test_a_prize_nothing_withholds_and_not_paid_yet_still_reads_unpaid(monkeypatch: pytest.MonkeyPatch) -> None:
    assert prize_state(unpaid_winner(monkeypatch)) == "unpaid"


def test_the_entry_list_the_monitor_and_the_disqualification_page_show_the_withheld_prize(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    winner, proposal = withheld_winner(monkeypatch)
    support = logged_in(staff_member(SUPPORT_STAFF, "sam"))

    entry_list = support.get(f"{ENTRIES}?tournament__id__exact={winner.tournament_id}").content.decode()
    monitor = support.get(f"{TOURNAMENTS}{winner.tournament_id}/change/").content.decode()
    credit_page = support.post(
        ENTRIES, {"action": "credit_prizes", "_selected_action": [winner.pk], "index": 0}
    ).content.decode()

    assert withheld_text(proposal) in entry_list
    assert monitor.count(withheld_text(proposal)) == 2  # the eliminations panel and the payouts panel
    assert f"€30.00, {withheld_text(proposal)}" in credit_page
    assert "€30.00, unpaid" not in credit_page


def test_the_prize_filter_lists_a_withheld_prize_under_withheld_not_with_the_unpaid_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    winner, _proposal = withheld_winner(monkeypatch)
    support = logged_in(staff_member(SUPPORT_STAFF, "sam"))
    tournament = f"tournament__id__exact={winner.tournament_id}"

    unpaid = support.get(f"{ENTRIES}?{tournament}&prize_state=unpaid").context["cl"].result_list
    withheld = support.get(f"{ENTRIES}?{tournament}&prize_state=withheld").context["cl"].result_list

    assert winner.pk not in [entry.pk for entry in unpaid]
    assert [entry.pk for entry in withheld] == [winner.pk]


def test_an_approved_forfeiture_reads_forfeited(monkeypatch: pytest.MonkeyPatch) -> None:
    winner, proposal = withheld_winner(monkeypatch)

    rule_change_approve(proposal, staff_member(COMPLIANCE_REVIEWERS, "rory"))

    assert prize_state(TournamentEntry.objects.get(pk=winner.pk)) == "forfeited"


def test_a_rejected_forfeiture_reads_paid(monkeypatch: pytest.MonkeyPatch) -> None:
    winner, proposal = withheld_winner(monkeypatch)

    rule_change_reject(proposal, staff_member(COMPLIANCE_REVIEWERS, "rory"), "The hands show no collusion")

    assert prize_state(TournamentEntry.objects.get(pk=winner.pk)) == "paid"


def test_the_prize_states_of_a_page_of_entries_are_read_in_its_own_query(
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    winner, proposal = withheld_winner(monkeypatch)
    entries = with_prize_states(TournamentEntry.objects.filter(tournament=winner.tournament).order_by("pk"))

    with django_assert_num_queries(1):
        states = {entry.pk: prize_state(entry) for entry in entries}

    assert states[winner.pk] == withheld_text(proposal)
    assert list(states.values()).count(withheld_text(proposal)) == 1
