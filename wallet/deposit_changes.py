"""A deposit left pending by a payment provider error is settled by staff only when two people agree (issue 30): one
staff member, having checked with the provider, proposes that the provider charged it (with the charge's reference)
or did not, another approves it, as a kind of rule of :mod:`poker_site.core.rule_changes`; the approval settles the
deposit (:func:`wallet.services.cashier.pending_deposit_settle`) in its transaction.

A pending deposit is the cashier's reservation made before the provider is asked to charge; a provider that raised
instead of answering leaves it pending, counting towards the deposit limits, until the player's retry with the same
key finishes it. When no retry comes, staff settle it: "charged" credits it as that retry would (outside world → the
player's cash, the same idempotency key ``deposit:<player>:<key>``, so a later retry cannot credit it again) and
completes it; "not charged" deletes the reservation, giving its share of the limits back, as a decline does.

A proposal names a pending deposit (``wallet.cashiertransaction:<pk>``) reserved at least
:data:`~wallet.services.cashier.PENDING_DEPOSIT_SETTLE_AFTER` ago (a younger one's request may still be running), and
its changes ``{"charged": true, "provider_reference": "<the charge's reference>"}`` or ``{"charged": false}``.
Holders of ``wallet.adjust_balance`` (support staff, administrators) propose and approve, never their own. The check
runs again at approval: a deposit a retry finished meanwhile is refused then, and nothing moves.
"""

from __future__ import annotations

from typing import Any

from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import CheckedChange, RuleChangeRefused, RuleKind, owners_of
from wallet.errors import WalletError, format_cents
from wallet.models import CashierTransaction
from wallet.services.cashier import check_settlement_reference, pending_deposit_settle, pending_deposit_to_settle
from wallet.services.permissions import ADJUST_BALANCE

TARGET_PREFIX = "wallet.cashiertransaction:"


def deposit_target(deposit: CashierTransaction) -> str:
    return f"{TARGET_PREFIX}{deposit.pk}"


def _deposit(target: str) -> CashierTransaction:
    key = target.removeprefix(TARGET_PREFIX) if target.startswith(TARGET_PREFIX) else ""
    if not key.isdigit():
        raise RuleChangeRefused(f"There is no pending deposit {target!r}.")
    try:
        return pending_deposit_to_settle(int(key))
    except WalletError as error:
        raise RuleChangeRefused(str(error)) from error


def _decision(deposit: CashierTransaction, changes: dict[str, Any]) -> dict[str, Any]:
    charged = changes.get("charged")
    if not isinstance(charged, bool):
        raise RuleChangeRefused('Say whether the payment provider charged the deposit ("charged": true or false).')
    if not charged:
        if set(changes) - {"charged", "provider_reference"} or changes.get("provider_reference"):
            raise RuleChangeRefused("A deposit the provider did not charge is released: give no provider reference.")
        return {"charged": False}
    if set(changes) != {"charged", "provider_reference"}:
        raise RuleChangeRefused("A charged deposit gives the provider's reference of the charge, and nothing else.")
    try:
        reference = check_settlement_reference(deposit, changes["provider_reference"])
    except WalletError as error:
        raise RuleChangeRefused(str(error)) from error
    return {"charged": True, "provider_reference": reference}


def settlement_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    deposit = _deposit(target)
    decision = _decision(deposit, changes)
    what = (
        f"deposit #{deposit.pk} of {deposit.player} ({format_cents(deposit.amount, deposit.currency)} via "
        f"{deposit.provider}, key {deposit.idempotency_key})"
    )
    if decision["charged"]:
        summary = f"{what}: the provider charged it ({decision['provider_reference']}): credit it"
    else:
        summary = f"{what}: the provider did not charge it: release it"
    return CheckedChange(
        summary=summary,
        before={"status": deposit.status, "amount": deposit.amount, "player": str(deposit.player)},
        changes=decision,
    )


def settlement_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    deposit = _deposit(proposal.target)
    pending_deposit_settle(
        deposit.pk,
        charged=changes["charged"],
        provider_reference=changes.get("provider_reference", ""),
        actor=proposal.decided_by,
        reason=f"{proposal.reason} (proposed by {proposal.proposed_by}, approved by {proposal.decided_by}, "
        f"rule change #{proposal.pk})",
        details={
            "rule_change": proposal.pk,
            "proposed_by": str(proposal.proposed_by),
            "approved_by": str(proposal.decided_by),
        },
    )


def settlement_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The player whose deposit it is: they neither propose nor decide its settlement."""
    return owners_of(CashierTransaction.objects.all(), target, TARGET_PREFIX, "player_id")


PENDING_DEPOSIT_SETTLEMENT = RuleKind(
    name="pending_deposit_settlement",
    label="the settlement of a deposit awaiting the payment provider",
    propose_permission=ADJUST_BALANCE,
    approve_permission=ADJUST_BALANCE,
    check=settlement_check,
    concerns=settlement_concerns,
    apply_decided=settlement_apply,
    refusals=(WalletError,),
)
