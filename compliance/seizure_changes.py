"""Seizing withheld funds takes two people (issue 30, four eyes on money; FRD-04, FRD-10 (1)), as a kind of rule of
:mod:`poker_site.core.rule_changes`.

One reviewer alone may withhold a player's funds (a hold: protective, reversible) and release them (it favours the
player). Seizing them — the money leaves the player for good — is proposed by one holder of ``wallet.seize_hold``
(the hold, the amount, the reason; on the case page of the desk or the hold's decision page in the admin) and applied
only when another holder approves it (never the proposer: the framework refuses it, so do the database and
:func:`wallet.services.hold_seize`). The approval seizes the hold in its transaction: through the case
(:func:`compliance.services.holds.case_hold_seizure_apply`: the case's action and the wallet's audit entry name the
proposer and the approver) for a hold made for a case, else through the wallet alone.

A proposal names a hold (``wallet.hold:<pk>``) and its changes ``{"amount": <cents>}``: a whole positive number of
cents, at most the hold (less: the rest goes back to the player in the seizure's transfer); proposed without an
amount, it is the whole hold. The check runs at the proposal and again at the approval: the hold must still be
withheld and its case, if it has one, still open. A reviewer may release the hold while the seizure awaits approval
(it favours the player): the release withdraws the seizure in its transaction (``rule_change_withdrawn``, the system's
reason naming the release), as does a seizure of the hold by any other path, so no pending seizure waits on a decided
hold. One seizure of a hold awaits approval at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from compliance.errors import ComplianceError
from compliance.models import Case, CaseStatus
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import (
    CheckedChange,
    RuleChangeRefused,
    RuleKind,
    owners_of,
    rule_change_propose,
    target_key,
    target_row,
)
from wallet.errors import WalletError, format_cents
from wallet.models import Hold, HoldStatus
from wallet.services.holds import hold_seize, hold_seizure_check
from wallet.services.permissions import SEIZE_HOLD

if TYPE_CHECKING:
    from poker_site.accounts.models import User

KIND = "hold_seizure"
TARGET_PREFIX = "wallet.hold:"
CASE_REFERENCE_PREFIX = "compliance-case:"


def hold_target(hold: Hold | int) -> str:
    return f"{TARGET_PREFIX}{hold.pk if isinstance(hold, Hold) else int(hold)}"


def case_of(hold: Hold, *, lock: bool = False) -> Case | None:
    """The case the hold was made for (its review reference is the case's), or ``None`` for a hold of no case;
    locked for the rest of the transaction when ``lock``."""
    key = hold.review_reference.removeprefix(CASE_REFERENCE_PREFIX)
    if not hold.review_reference.startswith(CASE_REFERENCE_PREFIX) or not key.isdigit():
        return None
    cases = Case.objects.select_for_update() if lock else Case.objects.all()
    return cases.filter(pk=int(key)).first()


def pending_seizures(holds: Iterable[Hold | int]) -> dict[int, RuleChangeProposal]:
    """The seizure proposals awaiting approval, by the pk of the hold they would seize."""
    targets = {hold_target(hold): hold.pk if isinstance(hold, Hold) else int(hold) for hold in holds}
    proposals = RuleChangeProposal.objects.filter(
        kind=KIND, target__in=list(targets), status=RuleChangeStatus.PENDING
    ).select_related("proposed_by")
    return {targets[proposal.target]: proposal for proposal in proposals.order_by("pk")}


def _hold(target: str) -> Hold:
    """The hold ``target`` names, still withheld, locked with its case for the rest of the transaction.

    The case first, then the hold: the order a release on the desk takes them, so that a proposal or an approval and
    a release of the same hold queue instead of deadlocking, and a release never misses a proposal made meanwhile
    (it withdraws the proposals waiting on the hold once it holds the hold's lock)."""
    found = target_row(target, TARGET_PREFIX, Hold.objects.all(), "hold")
    case_of(found, lock=True)
    hold = Hold.objects.select_for_update(of=("self",)).select_related("player", "decided_by").get(pk=found.pk)
    if hold.status != HoldStatus.HELD:
        when = f" on {hold.decided_at:%Y-%m-%d %H:%M} UTC" if hold.decided_at else ""
        who = f" by {hold.decided_by}" if hold.decided_by_id else ""
        raise RuleChangeRefused(
            f"Hold #{hold.pk} is no longer withheld: it was {hold.get_status_display()}{when}{who}, so nothing can be "
            "seized."
        )
    return hold


def seizure_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    hold = _hold(target)
    if set(changes) - {"amount"}:
        raise RuleChangeRefused("A seizure gives the amount to seize only.")
    try:
        seized = hold_seizure_check(hold, changes.get("amount"))
    except WalletError as error:
        raise RuleChangeRefused(str(error)) from error
    case = case_of(hold)
    if case is not None and case.status == CaseStatus.CLOSED:
        raise RuleChangeRefused(f"Case #{case.pk} of hold #{hold.pk} is closed: nothing can be seized for it.")
    whole = format_cents(hold.amount, hold.currency)
    rest = hold.amount - seized
    summary = (
        f"seize {format_cents(seized, hold.currency)} of hold #{hold.pk} ({hold.player}, {whole} withheld for "
        f"{hold.review_reference})" + (f", {format_cents(rest, hold.currency)} back to the player" if rest else "")
    )
    return CheckedChange(
        summary=summary,
        before={
            "status": hold.status,
            "amount": hold.amount,
            "player": hold.player.get_username(),
            "review_reference": hold.review_reference,
        },
        changes={"amount": seized},
    )


def seizure_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    from compliance.services.holds import case_hold_seizure_apply

    hold = _hold(proposal.target)
    proposer, approver = proposal.proposed_by, proposal.decided_by
    assert approver is not None  # applied once approved
    details: dict[str, object] = {"rule_change": proposal.pk}
    case = case_of(hold)
    if case is not None:
        case_hold_seizure_apply(
            case,
            hold,
            proposal.reason,
            proposed_by=proposer,
            approved_by=approver,
            amount=changes["amount"],
            details=details,
        )
    else:
        hold_seize(hold, approver, proposal.reason, proposed_by=proposer, amount=changes["amount"], details=details)


def hold_seizure_propose(actor: User, hold: Hold, reason: str, *, amount: int | None = None) -> RuleChangeProposal:
    """Propose seizing ``hold`` (all of it, or ``amount`` cents of it) with ``reason``; another holder of
    ``wallet.seize_hold`` approves it. Refused (``RuleChangeRefused``, nothing written) while another seizure of the
    hold awaits approval (the kind's ``one_pending_per_target``), and as :func:`seizure_check` refuses."""
    changes: dict[str, Any] = {} if amount is None else {"amount": amount}
    return rule_change_propose(actor, KIND, hold_target(hold), changes, reason)


def seizure_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The player whose money the hold keeps, and the subjects of the hold's case: a reviewer never decides a
    seizure of their own winnings, nor one in a case about them (QA report H, finding 2)."""
    owners = owners_of(Hold.objects.all(), target, TARGET_PREFIX, "player_id")
    key = target_key(target, TARGET_PREFIX)
    hold = Hold.objects.filter(pk=key).first() if key is not None else None
    case = case_of(hold) if hold is not None else None
    subjects = list(case.subjects.values_list("pk", flat=True)) if case is not None else []
    return [*owners, *subjects]


HOLD_SEIZURE = RuleKind(
    name=KIND,
    label="a seizure of withheld funds",
    propose_permission=SEIZE_HOLD,
    approve_permission=SEIZE_HOLD,
    check=seizure_check,
    one_pending_per_target=True,
    concerns=seizure_concerns,
    apply_decided=seizure_apply,
    refusals=(WalletError, ComplianceError),
)
