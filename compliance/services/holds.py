"""Withheld winnings for a case (FRD-04), released or seized (FRD-10), each moving money only through the wallet.

A hold made here takes the amount from the subject's cash account into their withheld account
(:func:`wallet.services.hold_create`), with the case's reference as its review reference and the reason the player
will read. It also puts the player under review (FRD-18): they can play but cannot withdraw until the case closes or
a reviewer reinstates them. Release and seizure (in whole or in part) are the wallet's decisions, made once.
The wallet's refusals (``InsufficientFunds``, ``HoldAlreadyDecided``, ``InvalidAmount``, ``NotPermitted``) pass
through unchanged; nothing is written then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from compliance.errors import InvalidRequest
from compliance.models import AccountStanding, Case, CaseActionKind, Standing
from compliance.services.common import (
    action_record,
    case_lock,
    require_reviewer,
    require_subject,
    standing_change,
    text_of,
)
from wallet.models import Hold
from wallet.services import hold_create, hold_release, hold_seize, player_cash_account

if TYPE_CHECKING:
    from poker_site.accounts.models import User


@transaction.atomic(durable=True)
def case_hold_create(
    case: Case | int, actor: User, player: User, amount: int, reason: str, *, idempotency_key: str | None = None
) -> Hold:
    """Withhold ``amount`` cents of ``player``'s cash for the case; ``reason`` is shown to the player."""
    require_reviewer(actor, "withhold funds for a case")
    text = text_of(reason, "withhold funds")
    locked = case_lock(case)
    require_subject(locked, player)
    hold = hold_create(
        player_cash_account(player),
        amount,
        text,
        locked.reference,
        created_by=actor,
        idempotency_key=f"{locked.reference}:{idempotency_key}" if idempotency_key else None,
    )
    standing, _ = AccountStanding.objects.select_for_update().get_or_create(user=player)
    under_review = standing.state == Standing.ACTIVE
    if under_review:
        standing_change(standing, Standing.UNDER_REVIEW, text, locked, actor)
    action_record(
        locked,
        CaseActionKind.HOLD,
        actor=actor,
        audit_action="case_hold",
        subject=player,
        text=text,
        target=hold,
        transfer=hold.hold_transfer,
        details={"hold": hold.pk, "amount": hold.amount, "put_under_review": under_review},
        after={"hold": hold.pk, "amount": hold.amount, "standing": standing.state},
    )
    return hold


def _hold_of(case: Case, hold: Hold | int) -> Hold:
    hold_id = hold.pk if isinstance(hold, Hold) else int(hold)
    found = Hold.objects.select_related("player").filter(pk=hold_id).first()
    if found is None or found.review_reference != case.reference:
        raise InvalidRequest(f"Hold #{hold_id} was not made for case #{case.pk}.")
    return found


@transaction.atomic(durable=True)
def case_hold_release(case: Case | int, actor: User, hold: Hold | int, reason: str) -> Hold:
    """Release a hold of the case to the player's cash (``HoldAlreadyDecided`` for a hold decided before)."""
    require_reviewer(actor, "release withheld funds")
    text = text_of(reason, "release withheld funds")
    locked = case_lock(case)
    decided = hold_release(_hold_of(locked, hold), actor, text)
    action_record(
        locked,
        CaseActionKind.HOLD_RELEASED,
        actor=actor,
        audit_action="case_hold_released",
        subject=decided.player,
        text=text,
        target=decided,
        transfer=decided.decision_transfer,
        details={"hold": decided.pk, "amount": decided.amount},
    )
    return decided


@transaction.atomic(durable=True)
def case_hold_seize(case: Case | int, actor: User, hold: Hold | int, reason: str, *, amount: int | None = None) -> Hold:
    """Seize a hold of the case (FRD-10 (1)); ``amount`` seizes part of it and releases the rest (``InvalidAmount``
    beyond the hold)."""
    require_reviewer(actor, "seize withheld funds")
    text = text_of(reason, "seize withheld funds")
    locked = case_lock(case)
    decided = hold_seize(_hold_of(locked, hold), actor, text, amount=amount)
    action_record(
        locked,
        CaseActionKind.HOLD_SEIZED,
        actor=actor,
        audit_action="case_hold_seized",
        subject=decided.player,
        text=text,
        target=decided,
        transfer=decided.decision_transfer,
        details={"hold": decided.pk, "amount": decided.amount, "seized": decided.seized_amount},
    )
    return decided
