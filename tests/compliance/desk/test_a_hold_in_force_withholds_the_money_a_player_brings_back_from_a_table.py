"""FRD-04, FRD-10, issue 31: a hold covers money at tables. While a player has a hold in force, the money that comes
back from a cash table when they leave is withheld too — through the ledger, in the leave's own transaction, for the
same case and with the same reason — so the held amount includes the table money and the player cannot withdraw it;
releasing the case's holds pays all of it to the player's cash. A player whose hold was decided, or who has none,
gets their table money as before."""

from __future__ import annotations

from typing import Any

import pytest

from compliance.services import case_close, case_hold_create, case_hold_release, case_hold_seizure_propose
from games.services import seat_leave, seat_take
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from poker_site.core.rule_changes import rule_change_approve
from tests.compliance.desk.support import case_about, player
from tests.foundation.staff_roles import staff_member
from tests.tables.support import cash, open_table
from wallet.models import AccountKind, AuditEntry, Hold, HoldStatus
from wallet.services import balance_of, ledger_reconcile, system_account, withheld_total

pytestmark = pytest.mark.django_db

REASON = "Winnings from hands against one opponent are under review."


def test_the_money_back_from_a_table_is_held_with_the_case_and_a_release_pays_it_out(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    table = open_table()
    seat_take(alice, table, 1_000)
    case = case_about(reviewer, alice)
    first = case_hold_create(case, reviewer, alice, 20_000, REASON)
    assert (cash(alice), withheld_total(alice)) == (29_000, 20_000)

    seat_leave(alice, table)

    assert withheld_total(alice) == 21_000  # the hold now includes the 10.00 that was at the table
    assert cash(alice) == 29_000
    table_hold = Hold.objects.exclude(pk=first.pk).get(player=alice)
    assert (table_hold.amount, table_hold.status) == (1_000, HoldStatus.HELD)
    assert (table_hold.review_reference, table_hold.reason) == (case.reference, REASON)
    assert table_hold.created_by is None  # withheld by the rule, not by a staff member
    audit = AuditEntry.objects.get(action="hold_created", details__hold=table_hold.pk)
    assert audit.details["hold_in_force"] == first.pk
    assert audit.details["table_money"].startswith("table-session:")
    assert ledger_reconcile() == []

    case_hold_release(case, reviewer, first, "Nothing wrong found")
    case_hold_release(case, reviewer, table_hold, "Nothing wrong found")

    assert (cash(alice), withheld_total(alice)) == (50_000, 0)
    case_close(case, reviewer, outcome="no_violation", decision="Nothing wrong found.")
    assert ledger_reconcile() == []


def test_the_table_money_held_can_be_seized_with_the_rest(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    table = open_table()
    seat_take(alice, table, 1_000)
    case = case_about(reviewer, alice)
    case_hold_create(case, reviewer, alice, 20_000, REASON)
    seat_leave(alice, table)
    seized_before = balance_of(system_account(AccountKind.HOUSE_SEIZED))

    second_reviewer = staff_member(COMPLIANCE_REVIEWERS, "rory")

    for hold in Hold.objects.filter(review_reference=case.reference):  # issue 30: proposed, then approved by another
        proposal = case_hold_seizure_propose(case, reviewer, hold, "Chip dumping confirmed (FRD-14)")
        rule_change_approve(proposal, second_reviewer, "Agreed")

    assert balance_of(system_account(AccountKind.HOUSE_SEIZED)) - seized_before == 21_000
    assert (cash(alice), withheld_total(alice)) == (29_000, 0)


def test_a_case_with_undecided_table_money_cannot_close(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    table = open_table()
    seat_take(alice, table, 1_000)
    case = case_about(reviewer, alice)
    first = case_hold_create(case, reviewer, alice, 20_000, REASON)
    seat_leave(alice, table)
    case_hold_release(case, reviewer, first, "Nothing wrong found")

    with pytest.raises(Exception, match="before closing case"):
        case_close(case, reviewer, outcome="no_violation", decision="Nothing wrong found.")


def test_without_a_hold_in_force_the_table_money_goes_to_cash_as_before(reviewer: Any) -> None:
    alice = player("alice", cash=50_000)
    bob = player("bob", cash=50_000)
    table = open_table()
    seat_take(alice, table, 1_000)
    seat_take(bob, table, 1_000)
    case = case_about(reviewer, alice)
    decided = case_hold_create(case, reviewer, alice, 20_000, REASON)
    case_hold_release(case, reviewer, decided, "Nothing wrong found")

    seat_leave(alice, table)
    seat_leave(bob, table)

    assert (cash(alice), withheld_total(alice)) == (50_000, 0)
    assert (cash(bob), withheld_total(bob)) == (50_000, 0)
    assert Hold.objects.filter(player__in=[alice, bob]).count() == 1
