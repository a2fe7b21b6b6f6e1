"""Builders for the compliance desk's tests: hands played through the services, cases, and what "nothing changed"
means (the rows a refused action must leave as they were)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group

from compliance.models import AccountStanding, Case, CaseAction, Flag, PlayerReport
from compliance.services import case_open
from games.models import Hand, HandStatus
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS
from tests.tables.support import check_or_call_down, deal, open_table, player, seat_players
from wallet.models import AuditEntry, Hold, Leg, Transfer

__all__ = ["player"]


def with_a_third(users: list[Any]) -> list[Any]:
    """``users``, joined by a third player when there are two (the catalogue's tables deal to three or more)."""
    return [*users, player()] if len(users) < 3 else users


def played_hand(users: list[Any], buy_in: int = 1_000, seed: int = 1) -> Hand:
    """A finished hand of ``users`` (and a third player if they are two) at a new NL10 table, everyone checking or
    calling down."""
    table = open_table()
    seat_players(table, with_a_third(users), buy_in)
    deal(table, seed=seed)
    hand = check_or_call_down(table)
    assert hand.status == HandStatus.FINISHED
    return hand


def running_hand(users: list[Any], buy_in: int = 1_000) -> Hand:
    """A hand dealt and still in play."""
    table = open_table()
    seat_players(table, with_a_third(users), buy_in)
    return deal(table)


def case_about(actor: Any, *subjects: Any, hands: tuple[Hand, ...] = (), title: str = "Review") -> Case:
    return case_open(
        actor, title=title, subject_ids=[user.pk for user in subjects], hand_ids=[hand.pk for hand in hands]
    )


def everything_that_records() -> dict[str, Any]:
    """Counts and states a refused action must leave unchanged: the ledger, holds, the audit log, cases, their actions,
    account standings, flags and reports."""
    return {
        "transfers": Transfer.objects.count(),
        "legs": Leg.objects.count(),
        "holds": sorted(Hold.objects.values_list("pk", "status", "amount")),
        "audit": AuditEntry.objects.count(),
        "cases": sorted(Case.objects.values_list("pk", "status", "reviewer_id")),
        "case_actions": CaseAction.objects.count(),
        "standings": sorted(AccountStanding.objects.values_list("user_id", "state")),
        "flags": sorted(Flag.objects.values_list("pk", "status")),
        "reports": PlayerReport.objects.count(),
    }


def made_reviewer(user: Any) -> Any:
    """``user`` (a player, perhaps the subject of a case opened before) made a compliance reviewer; read afresh."""
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=COMPLIANCE_REVIEWERS))
    return type(user).objects.get(pk=user.pk)
