"""Support answers every ticket from the player overview (issue 30): links to every back-office list about the
player, each already searched for them with the one search syntax of the lists (``player:<username>``,
``poker_site.core.admin_lists.PlayerSearch``). A staff member sees only the links to lists their role may open (the
role table, docs/roles.md): support sees that holds exist, compliance reviewers also the cases and flags."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

PLAYER_LISTS: tuple[tuple[str, str, str, dict[str, str]], ...] = (
    # (group, title, "app_label.model_name", extra filters)
    ("Balance and ledger", "Accounts and balances", "wallet.account", {}),
    ("Balance and ledger", "Ledger legs (with the balance after each)", "wallet.leg", {}),
    ("Balance and ledger", "Transfers", "wallet.transfer", {}),
    ("Balance and ledger", "Deposits and withdrawals", "wallet.cashiertransaction", {}),
    ("Balance and ledger", "Staff adjustments", "wallet.staffadjustment", {}),
    ("Balance and ledger", "Open holds", "wallet.hold", {"status__exact": "held"}),
    ("Seats and sessions", "Seats now", "games.seat", {}),
    ("Seats and sessions", "Table sessions (buy-ins and cash-outs)", "games.tablesession", {}),
    ("Hands", "Hands played", "games.hand", {}),
    ("Hands", "Table moves, each with its reason (why was I moved)", "games.handevent", {}),
    ("Tournaments", "Tournament registrations and results", "tournaments.tournamententry", {}),
    ("Tournaments", "HexaPro registrations", "tournaments.hexaproregistration", {}),
    ("Tournaments", "Bars from tournaments", "tournaments.tournamentbar", {}),
    ("Responsible gaming", "Deposit limit changes", "responsible_gaming.depositlimitchange", {}),
    ("Responsible gaming", "Self-exclusions", "responsible_gaming.selfexclusion", {}),
    ("Audit", "Audit entries about the player", "wallet.auditentry", {}),
)


@dataclass(frozen=True)
class PlayerLink:
    group: str
    title: str
    url: str


def player_links(viewer: Any, player: Any) -> list[PlayerLink]:
    """The lists about ``player`` that ``viewer`` may open, each searched for the player."""
    links = []
    for group, title, label, filters in PLAYER_LISTS:
        app_label, model_name = label.split(".")
        if not viewer.has_perm(f"{app_label}.view_{model_name}"):
            continue
        query = urlencode({"q": f"player:{player.username}", **filters})
        links.append(PlayerLink(group, title, f"{reverse(f'admin:{app_label}_{model_name}_changelist')}?{query}"))
    return links
