"""Withheld winnings for a case (FRD-04), released or seized (FRD-10), each moving money only through the wallet.

A hold made here takes the amount from the subject's cash account into their withheld account
(:func:`wallet.services.hold_create`), with the case's reference as its review reference and the reason the player
will read. It also puts the player under review (FRD-18): they can play but cannot withdraw until the case closes or
a reviewer reinstates them. Release and seizure (in whole or in part) are the wallet's decisions, made once.
The wallet's refusals (``InsufficientFunds``, ``HoldAlreadyDecided``, ``InvalidAmount``, ``NotPermitted``) pass
through unchanged; nothing is written then.

Withholding and releasing are one reviewer's acts. Seizing takes two (issue 30, four eyes on money): one reviewer
proposes it (:func:`case_hold_seizure_propose`: the hold, the amount, the reason), another holder of
``wallet.seize_hold`` approves the proposal in the rule change proposals, and the approval applies it
(:func:`case_hold_seizure_apply`, in the approval's transaction; see :mod:`compliance.seizure_changes`). Releasing
the hold meanwhile stays possible and withdraws the seizure, in the release's transaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from compliance.errors import InvalidRequest
from compliance.models import AccountStanding, Case, CaseActionKind, Standing
from compliance.services.common import (
    action_record,
    case_lock,
    case_require_open,
    require_not_subject,
    require_player_accounts,
    require_reviewer,
    require_subject,
    standing_change,
    text_of,
)
from wallet.models import Hold
from wallet.services import hold_create, hold_release, hold_seize, player_cash_account
from wallet.services.holds import hold_seizure_check
from wallet.services.permissions import SEIZE_HOLD

if TYPE_CHECKING:
    from poker_site.accounts.models import User
    from poker_site.core.models import RuleChangeProposal


@transaction.atomic(durable=True)
def case_hold_create(
    case: Case | int, actor: User, player: User, amount: int, reason: str, *, idempotency_key: str | None = None
) -> Hold:
    """Withhold ``amount`` cents of ``player``'s cash for the case; ``reason`` is shown to the player."""
    require_reviewer(actor, "withhold funds for a case")
    text = text_of(reason, "withhold funds")
    require_player_accounts([player], "withhold funds")
    locked = case_lock(case)
    require_not_subject(locked, actor, "withhold funds for it")
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
    require_not_subject(locked, actor, "release its withheld funds")
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


def case_hold_seizure_propose(
    case: Case | int, actor: User, hold: Hold | int, reason: str, *, amount: int | None = None
) -> RuleChangeProposal:
    """Propose seizing a hold of the case (FRD-10 (1)); nothing moves until another holder of ``wallet.seize_hold``
    approves the proposal (issue 30). ``amount`` proposes seizing only part of it (the rest goes back to the player
    then); ``None``, all of it. Refused (nothing written) for a closed case, a hold of another case, a hold already
    decided, an amount beyond the hold (``InvalidAmount``), and while another seizure of the hold awaits its
    approval."""
    from compliance.seizure_changes import hold_seizure_propose

    require_reviewer(actor, "propose seizing withheld funds")
    require_reviewer(actor, "propose seizing withheld funds", SEIZE_HOLD)
    text = text_of(reason, "propose seizing withheld funds")
    found = Case.objects.filter(pk=case.pk if isinstance(case, Case) else int(case)).first()
    if found is None:
        raise InvalidRequest(f"There is no case #{case}.")
    case_require_open(found)
    require_not_subject(found, actor, "propose seizing its withheld funds")
    withheld = _hold_of(found, hold)
    require_player_accounts([withheld.player], "seize withheld funds")
    hold_seizure_check(withheld, amount)  # the wallet's refusals as they are (the proposal's check says the same)
    return hold_seizure_propose(actor, withheld, text, amount=amount)


def case_hold_seizure_apply(
    case: Case,
    hold: Hold,
    reason: str,
    *,
    proposed_by: User,
    approved_by: User,
    amount: int | None,
    details: dict[str, object],
) -> Hold:
    """Seize the hold of ``case`` as a seizure proposal approved: inside the approval's transaction (never on its
    own), the case locked (``CaseClosed`` for a closed one), the wallet's :func:`~wallet.services.hold_seize` (which
    refuses one person proposing and approving), and the case's action naming both staff members."""
    locked = case_lock(case)
    require_not_subject(locked, approved_by, "approve seizing its withheld funds")
    withheld = _hold_of(locked, hold)
    require_player_accounts([withheld.player], "seize withheld funds")
    decided = hold_seize(withheld, approved_by, reason, proposed_by=proposed_by, amount=amount, details=details)
    action_record(
        locked,
        CaseActionKind.HOLD_SEIZED,
        actor=approved_by,
        audit_action="case_hold_seized",
        subject=decided.player,
        text=reason,
        target=decided,
        transfer=decided.decision_transfer,
        details={
            "hold": decided.pk,
            "amount": decided.amount,
            "seized": decided.seized_amount,
            "proposed_by": proposed_by.get_username(),
            "approved_by": approved_by.get_username(),
            **details,
        },
    )
    return decided
