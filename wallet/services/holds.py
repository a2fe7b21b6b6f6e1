"""Withheld winnings (FRD-04): funds set aside while compliance reviews a player's game play, then released to the
player or seized (FRD-02, FRD-06, FRD-10).

The money really moves: from the account it was taken from to the player's WITHHELD account, so it can be neither
played nor withdrawn meanwhile. While a hold is in force, money the player brings back from a cash table is withheld
too (:func:`hold_table_money`, called by the table's cash-out). Release pays it to the player's cash account (the
table session it may have come from can be long closed); seizure moves it, or the part seized, to the house's
seized-funds account (the rest back to the player's cash in the same transfer). A hold is decided once. Each step is
audited.

Four eyes on seizures (issue 30): one reviewer alone may withhold (protective, reversible) and release (it favours
the player), but the money leaves the player for good only when two holders of ``wallet.seize_hold`` agree: one
proposes the seizure, another approves it (:mod:`compliance.seizure_changes`, a kind of rule change), and only the
approval calls :func:`hold_seize`, which itself refuses a seizure without a second staff member and names both in its
audit entry. Deciding a hold, by either path, withdraws a seizure still waiting for approval on it (it can no longer
apply), in the decision's transaction.

Not durable: each service is one transaction on its own, or part of the caller's (the compliance desk withholds,
releases and seizes inside the case action that records the decision, so both commit or neither does).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from poker_site.core.rule_changes import rule_changes_withdraw
from wallet.errors import HoldAlreadyDecided, InvalidAmount, NotPermitted, UnknownAccount, format_cents
from wallet.models import Account, AccountKind, Hold, HoldStatus
from wallet.services.accounts import player_cash_account, system_account, withheld_account
from wallet.services.audit import audit_record, audit_target
from wallet.services.ledger import TransferKind, TransferLeg, check_positive_amount, transfer_create
from wallet.services.permissions import (
    RELEASE_HOLD,
    SEIZE_HOLD,
    WITHHOLD_WINNINGS,
    require_permission,
    require_reason,
)

if TYPE_CHECKING:
    from poker_site.accounts.models import User


@transaction.atomic
def hold_create(
    account: Account,
    amount: int,
    reason: str,
    review_reference: str,
    *,
    created_by: User | None = None,
    idempotency_key: str | None = None,
    details: dict[str, object] | None = None,
) -> Hold:
    """Withhold ``amount`` cents of the player owning ``account`` pending the review ``review_reference``.

    ``created_by`` must hold ``wallet.withhold_winnings``; ``None`` means an automated rule withheld it. Give an
    ``idempotency_key`` to make retries safe (the same key returns the same hold). ``InsufficientFunds`` if the
    account holds less than ``amount``. ``details`` are added to the audit entry's.
    """
    amount = check_positive_amount(amount, what="amount to withhold")
    reason = require_reason(reason, "withhold funds")
    review_reference = require_reason(review_reference, "withhold funds without a review case reference")
    if created_by is not None:
        require_permission(created_by, WITHHOLD_WINNINGS, "withhold a player's funds")
    if account.pk is None or account.owner_id is None:
        raise UnknownAccount("Funds can be withheld only from a saved account that belongs to a player.")
    player = account.owner
    assert player is not None
    key = f"hold:{idempotency_key or uuid.uuid4().hex}"
    withheld = withheld_account(player, account.currency)
    transfer = transfer_create(
        kind=TransferKind.HOLD,
        legs=[TransferLeg(account, -amount), TransferLeg(withheld, amount)],
        idempotency_key=key,
        reference=review_reference,
        description=reason,
        created_by=created_by,
    )
    existing = Hold.objects.filter(hold_transfer=transfer).first()
    if existing is not None:
        return existing
    hold = Hold.objects.create(
        player=player,
        amount=amount,
        currency=account.currency,
        source_account=account,
        withheld_account=withheld,
        reason=reason,
        review_reference=review_reference,
        created_by=created_by,
        hold_transfer=transfer,
    )
    audit_record(
        action="hold_created",
        actor=created_by,
        player=player,
        transfer=transfer,
        reason=reason,
        details={"hold": hold.pk, "amount": amount, "review_reference": review_reference, **(details or {})},
        target=audit_target(hold),
        after={"status": HoldStatus.HELD, "amount": amount},
    )
    return hold


def hold_table_money(account: Account, amount: int, table_reference: str) -> Hold | None:
    """A hold covers the player's money at tables (issue 31): ``amount`` cents just came back from a table
    (``table_reference``, e.g. ``"table-session:12"``) into the player's cash ``account``; while the player has a hold
    in force, that money is withheld too, for the same review, with the same reason (the one the player reads): one
    more hold, automated (no staff member), of exactly that amount, which the review releases or seizes like the
    first. Call it inside the transaction that cashed the player out, so the money is never withdrawable in between.
    ``None`` (nothing moves) when the player has no hold in force or nothing came back."""
    if amount <= 0 or account.owner_id is None:
        return None
    in_force = (
        Hold.objects.filter(player_id=account.owner_id, currency=account.currency, status=HoldStatus.HELD)
        .order_by("-created_at", "-pk")
        .first()
    )
    if in_force is None:
        return None
    return hold_create(
        account,
        amount,
        in_force.reason,
        in_force.review_reference,
        idempotency_key=f"{table_reference}:withheld",
        details={"table_money": table_reference, "hold_in_force": in_force.pk},
    )


def hold_seizure_check(hold: Hold, amount: object = None) -> int:
    """The cents a seizure of ``hold`` would take: all of it for ``None``, else ``amount`` (a whole positive number of
    cents, at most the hold: ``InvalidAmount`` otherwise). ``HoldAlreadyDecided`` when the hold is no longer withheld
    (released or seized). Reads only: a proposal is checked with it, and checked again when it is approved."""
    if hold.status != HoldStatus.HELD:
        raise HoldAlreadyDecided(
            f"Hold #{hold.pk} was already {hold.get_status_display()} on "
            f"{hold.decided_at:%Y-%m-%d %H:%M} UTC; a hold is decided once."
        )
    if amount is None:
        return hold.amount
    seized = check_positive_amount(amount, what="amount to seize")
    if seized > hold.amount:
        raise InvalidAmount(
            f"Hold #{hold.pk} is {format_cents(hold.amount, hold.currency)}: at most that much can be "
            f"seized, not {format_cents(seized, hold.currency)}."
        )
    return seized


def _decide(
    hold: Hold,
    *,
    decided_by: User,
    reason: str,
    seize: bool,
    seize_amount: int | None = None,
    details: dict[str, object] | None = None,
) -> Hold:
    locked = Hold.objects.select_for_update().get(pk=hold.pk)
    if locked.status != HoldStatus.HELD:
        raise HoldAlreadyDecided(
            f"Hold #{locked.pk} was already {locked.get_status_display()} on "
            f"{locked.decided_at:%Y-%m-%d %H:%M} UTC; a hold is decided once."
        )
    seized: int | None = hold_seizure_check(locked, seize_amount) if seize else None
    legs = [TransferLeg(locked.withheld_account, -locked.amount)]
    if seized is not None:
        legs.append(TransferLeg(system_account(AccountKind.HOUSE_SEIZED, locked.currency), seized))
        if seized < locked.amount:  # the rest goes back to the player in the same transfer
            legs.append(TransferLeg(player_cash_account(locked.player, locked.currency), locked.amount - seized))
        kind, status, action = TransferKind.HOLD_SEIZURE, HoldStatus.SEIZED, "hold_seized"
    else:
        legs.append(TransferLeg(player_cash_account(locked.player, locked.currency), locked.amount))
        kind, status, action = TransferKind.HOLD_RELEASE, HoldStatus.RELEASED, "hold_released"
    transfer = transfer_create(
        kind=kind,
        legs=legs,
        idempotency_key=f"{kind}:{locked.pk}",
        reference=f"hold:{locked.pk}",
        description=reason,
        created_by=decided_by,
    )
    locked.status = status
    locked.decided_by = decided_by
    locked.decided_at = timezone.now()
    locked.decision_reason = reason
    locked.decision_transfer = transfer
    locked.seized_amount = seized
    locked.save(
        update_fields=["status", "decided_by", "decided_at", "decision_reason", "decision_transfer", "seized_amount"]
    )
    recorded: dict[str, object] = {
        "hold": locked.pk,
        "amount": locked.amount,
        "review_reference": locked.review_reference,
    }
    if seized is not None:
        recorded["seized"] = seized
    audit_record(
        action=action,
        actor=decided_by,
        player=locked.player,
        transfer=transfer,
        reason=reason,
        details={**recorded, **(details or {})},
        target=audit_target(locked),
        before={"status": HoldStatus.HELD},
        after={"status": status, **({"seized_amount": seized} if seized is not None else {})},
    )
    # A hold is decided once: a seizure still waiting for approval on it can never apply, so it must not stay on the
    # desk as pending (issue 30). Withdrawn here, whichever path decided the hold, in the decision's transaction.
    rule_changes_withdraw(
        audit_target(locked),
        f"Hold #{locked.pk} was {locked.get_status_display()} by {decided_by.get_username()}: a hold is decided "
        "once, so this proposal can no longer apply.",
        actor=decided_by,
    )
    return locked


@transaction.atomic
def hold_release(hold: Hold, decided_by: User, reason: str) -> Hold:
    """The review cleared the player: the withheld funds go to their cash account. Needs ``wallet.release_hold``, and
    another staff member than the player whose funds they are."""
    require_permission(decided_by, RELEASE_HOLD, "release withheld funds")
    if decided_by.pk == hold.player_id:
        raise NotPermitted("A reviewer never releases funds withheld from their own account: another reviewer does.")
    return _decide(hold, decided_by=decided_by, reason=require_reason(reason, "release withheld funds"), seize=False)


@transaction.atomic
def hold_seize(
    hold: Hold,
    decided_by: User,
    reason: str,
    *,
    proposed_by: User,
    amount: int | None = None,
    details: dict[str, object] | None = None,
) -> Hold:
    """The review found fraud (FRD-10 (1)): the withheld funds go to the house's seized-funds account.

    Four eyes (issue 30): ``proposed_by`` proposed the seizure and ``decided_by`` approves it; both need
    ``wallet.seize_hold`` and they must be two people (``NotPermitted`` otherwise). Called by the approval of a
    seizure proposal (:mod:`compliance.seizure_changes`), never on one reviewer's word. The audit entry's actor is the
    approver and its details name both (``proposed_by``, ``approved_by``; ``details`` are added, e.g. the rule change).

    ``amount`` seizes only that part (whole positive cents, at most the hold: ``InvalidAmount`` otherwise) and pays
    the rest back to the player's cash account in the same transfer; ``None`` seizes all of it."""
    require_permission(decided_by, SEIZE_HOLD, "seize withheld funds")
    require_permission(proposed_by, SEIZE_HOLD, "propose seizing withheld funds")
    if proposed_by.pk == decided_by.pk:
        raise NotPermitted(
            "Seizing withheld funds needs a second staff member: the one who proposed the seizure cannot approve it."
        )
    return _decide(
        hold,
        decided_by=decided_by,
        reason=require_reason(reason, "seize withheld funds"),
        seize=True,
        seize_amount=amount,
        details={
            "proposed_by": proposed_by.get_username(),
            "approved_by": decided_by.get_username(),
            **(details or {}),
        },
    )
