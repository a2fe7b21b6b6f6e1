"""An unresolved game's funds (CASH-25) are paid out by staff only when two people agree (issue 30): one staff
member proposes whom the case's funds go to, another approves it, as a kind of rule of
:mod:`poker_site.core.rule_changes`; the approval settles the case (:func:`wallet.services.unresolved.
unresolved_game_settle`: one transfer out of the case's account, the case closed, its audit entry) in its own
transaction.

A proposal names an open case (``wallet.unresolvedgamefunds:<pk>``) and its ``payouts``: a list of
``{"account": <player cash account pk>, "amount": <cents>}`` adding up to exactly the case's funds, each to a player's
cash account in the case's currency, one line per account. A HexaPro game's case is decided by its cancellation
(CXL-09), never here. Paying a player whose money was not in the game needs an administrator's approval. Holders of
``wallet.adjust_balance`` (support staff, administrators) propose and approve, never their own.
"""

from __future__ import annotations

from typing import Any

from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, target_key, target_row
from wallet.errors import WalletError, format_cents
from wallet.models import Account, AccountKind, Leg, UnresolvedGameFunds, UnresolvedGameStatus
from wallet.services.ledger import TransferLeg
from wallet.services.permissions import ADJUST_BALANCE
from wallet.services.unresolved import DECIDED_NOT_VOIDED_PREFIX, unresolved_game_settle

TARGET_PREFIX = "wallet.unresolvedgamefunds:"


def case_target(case: UnresolvedGameFunds) -> str:
    return f"{TARGET_PREFIX}{case.pk}"


def _case(target: str) -> UnresolvedGameFunds:
    case = target_row(target, TARGET_PREFIX, UnresolvedGameFunds.objects.all(), "unresolved game")
    if case.status != UnresolvedGameStatus.OPEN:
        raise RuleChangeRefused(f"The unresolved game {case.game_reference} is already {case.get_status_display()}.")
    if case.game_reference.startswith(DECIDED_NOT_VOIDED_PREFIX):
        raise RuleChangeRefused(
            f"{case.game_reference} is a HexaPro game: its funds are decided by the HexaPro cancellation rules, "
            "not here."
        )
    return case


def _payouts(case: UnresolvedGameFunds, value: object) -> list[tuple[Account, int]]:
    if not isinstance(value, list) or not value:
        raise RuleChangeRefused("Say whom the funds go to: at least one player's cash account and an amount.")
    payouts: list[tuple[Account, int]] = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"account", "amount"}:
            raise RuleChangeRefused(f"A payout gives an account and an amount, not {item!r}.")
        amount = item["amount"]
        if type(amount) is not int or amount <= 0:
            raise RuleChangeRefused(f"A payout is a whole positive number of cents, not {amount!r}.")
        account = Account.objects.select_related("owner").filter(pk=item["account"]).first()
        if account is None or account.kind != AccountKind.PLAYER_CASH or account.owner_id is None:
            raise RuleChangeRefused(f"Account {item['account']!r} is not a player's cash account.")
        if account.currency != case.currency:
            raise RuleChangeRefused(f"{account.label} is in {account.currency}, the case in {case.currency}.")
        if any(seen.pk == account.pk for seen, _ in payouts):
            raise RuleChangeRefused(f"{account.label} is named twice: give it one amount.")
        payouts.append((account, amount))
    paid = sum(amount for _, amount in payouts)
    if paid != case.amount:
        raise RuleChangeRefused(
            f"The payouts add up to {format_cents(paid, case.currency)} but the case holds "
            f"{format_cents(case.amount, case.currency)}: pay out all of it, no more."
        )
    return payouts


def _contributors(case: UnresolvedGameFunds) -> set[int]:
    """The players whose money went into the case (owners of the accounts its opening transfer debited)."""
    return set(
        Leg.objects.filter(transfer_id=case.opening_transfer_id, amount__lt=0, account__owner__isnull=False)
        .values_list("account__owner_id", flat=True)
        .distinct()
    )


def resolution_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    case = _case(target)
    if set(changes) != {"payouts"}:
        raise RuleChangeRefused("A resolution gives its payouts only.")
    payouts = _payouts(case, changes["payouts"])
    strangers = sorted(str(account.owner) for account, _ in payouts if account.owner_id not in _contributors(case))
    words = ", ".join(f"{format_cents(amount, case.currency)} to {account.owner}" for account, amount in payouts)
    return CheckedChange(
        summary=f"resolve {case.game_reference} ({format_cents(case.amount, case.currency)}): {words}",
        before={"status": case.status, "amount": case.amount, "game": case.game_reference},
        changes={"payouts": [{"account": account.pk, "amount": amount} for account, amount in payouts]},
        needs_administrator=bool(strangers),
        why_administrator=f"paying {', '.join(strangers)}, whose money was not in the game" if strangers else "",
    )


def resolution_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    case = _case(proposal.target)
    payouts = _payouts(case, changes["payouts"])
    unresolved_game_settle(
        case,
        payouts=[TransferLeg(account, amount) for account, amount in payouts],
        decided_by=proposal.decided_by,
        reason=f"{proposal.reason} (proposed by {proposal.proposed_by}, approved by {proposal.decided_by}, "
        f"rule change #{proposal.pk})",
    )


def resolution_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The players whose money went into the case and those the proposal pays: none of them decides where it goes."""
    key = target_key(target, TARGET_PREFIX)
    case = UnresolvedGameFunds.objects.filter(pk=key).first() if key is not None else None
    payees = [item.get("account") for item in changes.get("payouts") or [] if isinstance(item, dict)]
    owners = Account.objects.filter(pk__in=[pk for pk in payees if type(pk) is int]).values_list("owner_id", flat=True)
    return [*(_contributors(case) if case is not None else ()), *(owner for owner in owners if owner is not None)]


UNRESOLVED_GAME_RESOLUTION = RuleKind(
    name="unresolved_game_resolution",
    label="the resolution of an unresolved game's funds",
    propose_permission=ADJUST_BALANCE,
    approve_permission=ADJUST_BALANCE,
    check=resolution_check,
    concerns=resolution_concerns,
    apply_decided=resolution_apply,
    refusals=(WalletError,),
)
