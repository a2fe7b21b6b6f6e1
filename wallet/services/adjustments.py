"""Manual adjustments need two people (issue 30, GEN-01 fairness override, support goodwill).

A staff member *proposes* a credit or a debit of a player's cash account, with a category and a written reason
(:func:`adjustment_propose`); nothing moves. A second staff member approves it (:func:`adjustment_approve`) and only
then is one transfer booked against the house adjustments account, under an idempotency key made from the proposal's
id (an approval retried or raced books once). Or someone rejects it with a reason (:func:`adjustment_reject`).

Who may approve what:

* never the proposer (checked here, and the database refuses it too);
* ``wallet.approve_adjustment`` (support staff): credits of a category listed in
  ``settings.WALLET_ADJUSTMENT_SUPPORT_LIMITS`` up to its amount (goodwill up to €50.00 by default);
* ``wallet.approve_any_adjustment`` (administrators, i.e. superusers: no role group holds it): everything else, that is
  every debit, every larger credit and every credit of another category.

Only a player's cash account is ever the target: house accounts (rake, fees, guarantees, seized funds, charity, the
adjustments account itself), the withdrawals awaiting payout, the outside world, and the accounts games keep (table
sessions, bets in play, prize and bounty pools, tickets, withheld and unresolved funds) move only through their own
services. Each proposal, approval and rejection writes its audit entry in the same transaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from wallet.errors import InvalidTransfer, NotPermitted, ProposalAlreadyDecided, UnknownAccount, format_cents
from wallet.models import Account, AccountKind, AdjustmentCategory, AdjustmentProposal, ProposalStatus
from wallet.services.accounts import system_account
from wallet.services.audit import audit_record, audit_target
from wallet.services.cashier import check_idempotency_key
from wallet.services.ledger import TransferKind, TransferLeg, check_amount, transfer_create
from wallet.services.permissions import (
    APPROVE_ADJUSTMENT,
    APPROVE_ANY_ADJUSTMENT,
    PROPOSE_ADJUSTMENT,
    require_permission,
    require_reason,
)

if TYPE_CHECKING:
    from poker_site.accounts.models import User

ADJUSTABLE_KINDS = frozenset({AccountKind.PLAYER_CASH})
"""The only accounts a manual adjustment may target. Every other kind is kept by its own service: a system account
(house rake, fees, withdrawals awaiting payout, outside world...) or a balance a game keeps (a player's chips at a
table, bets in play, prize pools, tickets, withheld or unresolved funds), which an adjustment would change behind its
owner's back."""


def support_limit(category: str) -> int | None:
    """The largest credit of ``category`` (cents) support staff may approve; ``None`` when they may approve none."""
    limits: dict[str, int] = getattr(settings, "WALLET_ADJUSTMENT_SUPPORT_LIMITS", {})
    return limits.get(category)


def needs_administrator(amount: int, category: str) -> bool:
    """True for every debit, and for a credit of a category support may not approve or above its limit."""
    limit = support_limit(category)
    return amount < 0 or limit is None or amount > limit


def _check_target(account: Account) -> None:
    if account.pk is None:
        raise UnknownAccount("The account to adjust is not saved.")
    if account.kind not in ADJUSTABLE_KINDS or account.owner_id is None:
        raise InvalidTransfer(
            f"A {account.get_kind_display()} account is never adjusted by hand: only a player's cash account is. "
            "System and game accounts move only through their own services (settle or cancel the hand, decide the "
            "hold, resolve the case, the cashier)."
        )


def _check_category(category: object) -> str:
    if category not in AdjustmentCategory.values:
        choices = ", ".join(AdjustmentCategory.values)
        raise InvalidTransfer(f"Choose the adjustment's category among: {choices}.")
    return str(category)


def _details(proposal: AdjustmentProposal) -> dict[str, object]:
    return {
        "proposal": proposal.pk,
        "account": proposal.account_id,
        "amount": proposal.amount,
        "amount_in_euros": format_cents(proposal.amount, proposal.account.currency),
        "category": proposal.category,
        "needs_administrator": proposal.needs_administrator,
    }


@transaction.atomic(durable=True)
def adjustment_propose(
    staff_user: User, account: Account, amount: int, category: str, reason: str, idempotency_key: str
) -> AdjustmentProposal:
    """Propose crediting (positive ``amount``, cents) or debiting (negative) a player's cash account; nothing moves
    until another staff member approves. Needs ``wallet.propose_adjustment``, a category and a written reason. The
    same key returns the same proposal (a form submitted twice proposes once). Audited."""
    require_permission(staff_user, PROPOSE_ADJUSTMENT, "propose an adjustment")
    reason = require_reason(reason, "propose an adjustment")
    amount = check_amount(amount, what="adjustment")
    category = _check_category(category)
    key = check_idempotency_key(idempotency_key)
    _check_target(account)
    if account.owner_id == staff_user.pk:
        raise NotPermitted("A staff member never adjusts their own account: another staff member proposes it.")
    existing = AdjustmentProposal.objects.filter(idempotency_key=key).first()
    if existing is not None:
        if (existing.proposed_by_id, existing.account_id, existing.amount) != (staff_user.pk, account.pk, amount):
            raise InvalidTransfer("This form was already used for another proposal: open a new one.")
        return existing
    proposal = AdjustmentProposal.objects.create(
        account=account,
        amount=amount,
        category=category,
        reason=reason,
        needs_administrator=needs_administrator(amount, category),
        proposed_by=staff_user,
        idempotency_key=key,
    )
    audit_record(
        action="adjustment_proposed",
        actor=staff_user,
        player=account.owner,
        reason=reason,
        target=audit_target(proposal),
        details=_details(proposal),
        after={"status": proposal.status},
    )
    return proposal


def _pending(proposal: AdjustmentProposal | int) -> AdjustmentProposal:
    pk = proposal if isinstance(proposal, int) else proposal.pk
    row = AdjustmentProposal.objects.select_related("account", "account__owner").filter(pk=pk).first()
    if row is None:
        raise UnknownAccount(f"No adjustment proposal #{pk}.")
    if row.status != ProposalStatus.PENDING:
        raise ProposalAlreadyDecided(f"Adjustment proposal #{pk} is already {row.get_status_display()}.")
    return row


def _may_approve(approver: User, proposal: AdjustmentProposal) -> None:
    if approver is None or not approver.is_active:
        raise NotPermitted("Only an active staff member may approve an adjustment.")
    if approver.pk == proposal.proposed_by_id:
        raise NotPermitted("An adjustment needs a second staff member: the one who proposed it cannot approve it.")
    if approver.pk == proposal.account.owner_id:
        raise NotPermitted("A staff member never approves an adjustment of their own account.")
    if approver.has_perm(APPROVE_ANY_ADJUSTMENT):
        return
    # The rule as it stands now, and as it stood when proposed: whichever is stricter.
    if proposal.needs_administrator or needs_administrator(proposal.amount, proposal.category):
        what = "a debit" if proposal.amount < 0 else "this credit"
        raise NotPermitted(  # "a debit of €10.00": the word says the sign (QA note 13, not "a debit of -€10.00")
            f"{approver.get_username()} may not approve {what} of {format_cents(abs(proposal.amount))} "
            f"({proposal.get_category_display()}): it needs an administrator (the {APPROVE_ANY_ADJUSTMENT} "
            "permission)."
        )
    require_permission(approver, APPROVE_ADJUSTMENT, "approve an adjustment")


@transaction.atomic(durable=True)
def adjustment_approve(proposal: AdjustmentProposal | int, approver: User, note: str = "") -> AdjustmentProposal:
    """Approve a pending proposal and book its one transfer (player's cash account against the house adjustments
    account, key ``adjustment-proposal:<id>``). Refused (``NotPermitted``) for the proposer and for an approver whose
    role may not approve it; ``ProposalAlreadyDecided`` once approved or rejected (a second approval books nothing);
    ``InsufficientFunds`` when a debit exceeds the balance (the proposal stays pending). Audited."""
    row = _pending(proposal)
    _may_approve(approver, row)
    house = system_account(AccountKind.HOUSE_ADJUSTMENTS, row.account.currency)
    transfer = transfer_create(
        kind=TransferKind.STAFF_ADJUSTMENT,
        legs=[TransferLeg(row.account, row.amount), TransferLeg(house, -row.amount)],
        idempotency_key=f"adjustment-proposal:{row.pk}",
        reference=f"adjustment-proposal:{row.pk}",
        description=f"{row.get_category_display()}: {row.reason}",
        created_by=approver,
    )
    moment = timezone.now()
    note = note.strip() if isinstance(note, str) else ""
    # Compare-and-swap: of two approvals racing, one claims the row; the other's transaction (and the transfer it read
    # back under the same key) rolls back with the refusal.
    claimed = AdjustmentProposal.objects.filter(pk=row.pk, status=ProposalStatus.PENDING).update(
        status=ProposalStatus.APPROVED, decided_by=approver, decided_at=moment, decision_note=note, transfer=transfer
    )
    if not claimed:
        raise ProposalAlreadyDecided(f"Adjustment proposal #{row.pk} was decided by someone else meanwhile.")
    row.refresh_from_db()
    audit_record(
        action="adjustment_approved",
        actor=approver,
        player=row.account.owner,
        transfer=transfer,
        reason=note,
        target=audit_target(row),
        details=_details(row),
        before={"status": ProposalStatus.PENDING},
        after={"status": row.status},
    )
    return row


@transaction.atomic(durable=True)
def adjustment_reject(proposal: AdjustmentProposal | int, staff_user: User, reason: str) -> AdjustmentProposal:
    """Reject a pending proposal with a written reason; nothing moves. Needs an approval permission
    (``wallet.approve_adjustment`` or ``wallet.approve_any_adjustment``) and another staff member than the proposer,
    as an approval does. ``ProposalAlreadyDecided`` once decided. Audited."""
    if staff_user is None or not staff_user.has_perm(APPROVE_ANY_ADJUSTMENT):
        require_permission(staff_user, APPROVE_ADJUSTMENT, "reject an adjustment")
    reason = require_reason(reason, "reject an adjustment")
    row = _pending(proposal)
    if staff_user.pk == row.proposed_by_id:
        raise NotPermitted("A proposal is decided by a second staff member: ask another one to reject it.")
    claimed = AdjustmentProposal.objects.filter(pk=row.pk, status=ProposalStatus.PENDING).update(
        status=ProposalStatus.REJECTED, decided_by=staff_user, decided_at=timezone.now(), decision_note=reason
    )
    if not claimed:
        raise ProposalAlreadyDecided(f"Adjustment proposal #{row.pk} was decided by someone else meanwhile.")
    row.refresh_from_db()
    audit_record(
        action="adjustment_rejected",
        actor=staff_user,
        player=row.account.owner,
        reason=reason,
        target=audit_target(row),
        details=_details(row),
        before={"status": ProposalStatus.PENDING},
        after={"status": row.status},
    )
    return row
