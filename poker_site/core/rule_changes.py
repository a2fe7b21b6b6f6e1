"""Rule changes need two people (issue 30): one staff member proposes, another approves, and only then the change is
applied; or someone other than the proposer rejects it with a reason. Each step is audited in its transaction.

An app registers each kind of rule it owns (:func:`rule_kind_register`, in its ``AppConfig.ready``): the permission
to propose and to approve it, how a proposal is checked (refused when out of range; flagged when it needs an
administrator, i.e. ``core.approve_any_rule_change``, which no role group holds) and how it is applied. The check runs
again at approval, against the rules as they are then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from poker_site.core.models import RuleChangeProposal, RuleChangeStatus

APPROVE_ANY_RULE_CHANGE = "core.approve_any_rule_change"


class RuleChangeRefused(Exception):
    """A rule change was refused; nothing changed. The message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class CheckedChange:
    """What a kind's check makes of a proposed change."""

    summary: str  # e.g. "chip_dumping.minimum_weak_decisions: 3 → 4"
    before: dict[str, Any]
    changes: dict[str, Any]  # normalised
    needs_administrator: bool = False
    why_administrator: str = ""


@dataclass(frozen=True)
class RuleKind:
    name: str
    label: str
    propose_permission: str
    approve_permission: str
    check: Callable[[str, dict[str, Any]], CheckedChange] = field(repr=False)
    apply: Callable[[str, dict[str, Any]], None] | None = field(default=None, repr=False)
    apply_decided: Callable[[RuleChangeProposal, dict[str, Any]], None] | None = field(default=None, repr=False)
    """Instead of ``apply``, for a kind that moves money: applied with the decided proposal (who proposed it and
    why, who approved it), so that its own records and audit entry name both staff members."""
    one_pending_per_target: bool = False
    """At most one proposal of this kind waits for approval per target (two seizures of one hold would seize by
    whichever is approved first); the next is refused until it is decided."""
    concerns: Callable[[str, dict[str, Any]], Iterable[int]] | None = field(default=None, repr=False)
    """The players whose money or account a change of ``target`` by ``changes`` decides (user ids): none of them may
    propose, approve or reject it (a staff member with a stuck deposit, a prize, a hold or a payout of their own)."""
    refusals: tuple[type[Exception], ...] = ()
    """The kind's own domain errors that ``apply`` / ``apply_decided`` raise for a change they cannot make now (a
    wallet's or a tournament's refusal): the approval turns them into ``RuleChangeRefused`` with their message, and
    its transaction rolls back, so nothing is applied and the proposal still waits. Any other error goes up as is."""
    rejected: Callable[[RuleChangeProposal], object] | None = field(default=None, repr=False)
    """For a kind that holds something back while its proposal is pending (a withheld prize): run in the
    rejection's transaction with the rejected proposal, to let go of it."""

    def __post_init__(self) -> None:
        if (self.apply is None) == (self.apply_decided is None):
            raise ValueError(f"The kind of rule {self.name!r} needs exactly one of apply and apply_decided.")


Row = TypeVar("Row", bound=models.Model)


def target_key(target: str, prefix: str) -> int | None:
    """The primary key ``target`` names after ``prefix`` (``None`` for another prefix or no whole number)."""
    key = target.removeprefix(prefix) if target.startswith(prefix) else ""
    return int(key) if key.isdigit() else None


def target_row(target: str, prefix: str, rows: models.QuerySet[Row], what: str) -> Row:
    """The row of ``rows`` that ``target`` (``prefix`` + its primary key, e.g. ``"games.stake:7"``) names; a target of
    another prefix, without a whole-number key or naming no row is refused: "There is no <what> <target>."."""
    key = target_key(target, prefix)
    row = rows.filter(pk=key).first() if key is not None else None
    if row is None:
        raise RuleChangeRefused(f"There is no {what} {target!r}.")
    return row


def effective_from_after_approval(value: object, what: str) -> datetime:
    """The time a proposed row of rules takes effect: an ISO 8601 text with its time zone, still in the future (it
    takes effect after the approval, so a time already passed is refused: "<what> take effect after ...")."""
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None or timezone.is_naive(moment):
        raise RuleChangeRefused(f"{what} need the time they take effect (with its time zone).")
    if moment <= timezone.now():
        raise RuleChangeRefused(
            f"{what} take effect after their approval: this time has passed; propose them again with a later one."
        )
    return moment


def owners_of(rows: models.QuerySet[Any], target: str, prefix: str, owner_field: str) -> list[int]:
    """For ``RuleKind.concerns``: the owner (``owner_field``, a user id) of the row ``target`` names, if any."""
    key = target_key(target, prefix)
    if key is None:
        return []
    return [owner for owner in rows.filter(pk=key).values_list(owner_field, flat=True) if owner is not None]


_kinds: dict[str, RuleKind] = {}


def rule_kind_register(kind: RuleKind) -> RuleKind:
    _kinds[kind.name] = kind
    return kind


def rule_kind(name: str) -> RuleKind:
    try:
        return _kinds[name]
    except KeyError:
        raise RuleChangeRefused(f"There is no kind of rule {name!r}.") from None


def rule_kinds() -> list[RuleKind]:
    return list(_kinds.values())


def _require(user: Any, permission: str, action: str) -> None:
    if user is None or not user.is_active or not user.has_perm(permission):
        who = user.get_username() if user is not None else "nobody"
        raise RuleChangeRefused(f"{who} may not {action} (needs the {permission} permission).")


def _not_concerned(user: Any, rule: RuleKind, target: str, changes: dict[str, Any], action: str) -> None:
    if user is not None and rule.concerns is not None and user.pk in set(rule.concerns(target, changes)):
        raise RuleChangeRefused(
            f"{user.get_username()} may not {action}: it decides their own account's money; another staff member does."
        )


def _no_other_pending(rule: RuleKind, target: str) -> None:
    """Refuse while a proposal of ``rule`` for ``target`` waits; two proposers at once queue on a transaction-scoped
    advisory lock, so the second sees the first's proposal once it has committed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"rule_change:{rule.name}:{target}"])
    waiting = (
        RuleChangeProposal.objects.filter(kind=rule.name, target=target, status=RuleChangeStatus.PENDING)
        .select_related("proposed_by")
        .first()
    )
    if waiting is not None:
        raise RuleChangeRefused(
            f"A change of {rule.label} already awaits approval (rule change #{waiting.pk}, proposed by "
            f"{waiting.proposed_by}: {waiting.summary}): approve or reject it first."
        )


def _reason(text: object, action: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise RuleChangeRefused(f"A written reason is required to {action}.")
    return text.strip()


def _audit(action: str, actor: Any, proposal: RuleChangeProposal, reason: str, **values: Any) -> None:
    from wallet.services.audit import audit_record

    audit_record(
        action=action,
        actor=actor,
        reason=reason,
        target=proposal.target,
        details={"rule_change": proposal.pk, "kind": proposal.kind, "summary": proposal.summary},
        **values,
    )


@transaction.atomic(durable=True)
def rule_change_propose(actor: Any, kind: str, target: str, changes: dict[str, Any], reason: str) -> RuleChangeProposal:
    """Propose changing ``target`` (a rule of ``kind``) by ``changes``; nothing changes until another staff member
    approves. ``RuleChangeRefused`` without the kind's propose permission, without a reason, or when out of range."""
    return rule_change_propose_locked(actor, kind, target, changes, reason)


@transaction.atomic
def rule_change_propose_locked(
    actor: Any, kind: str, target: str, changes: dict[str, Any], reason: str
) -> RuleChangeProposal:
    """:func:`rule_change_propose` inside the caller's transaction, for a proposal made as part of another act (a
    disqualification proposes its prize's forfeiture): the same checks, refusals, row and audit entry; a refusal
    raised here should roll the caller's act back with it."""
    rule = rule_kind(kind)
    _require(actor, rule.propose_permission, f"propose a change of {rule.label}")
    reason = _reason(reason, "propose a rule change")
    checked = rule.check(target, changes)
    _not_concerned(actor, rule, target, checked.changes, "propose this change")
    if rule.one_pending_per_target:
        _no_other_pending(rule, target)
    proposal = RuleChangeProposal.objects.create(
        kind=kind,
        target=target,
        summary=checked.summary[:300],
        before=checked.before,
        changes=checked.changes,
        reason=reason,
        needs_administrator=checked.needs_administrator,
        proposed_by=actor,
    )
    _audit("rule_change_proposed", actor, proposal, reason, before=checked.before, after=checked.changes)
    return proposal


def _pending(proposal: RuleChangeProposal | int) -> RuleChangeProposal:
    pk = proposal if isinstance(proposal, int) else proposal.pk
    row = RuleChangeProposal.objects.filter(pk=pk).first()
    if row is None:
        raise RuleChangeRefused(f"No rule change proposal #{pk}.")
    if row.status != RuleChangeStatus.PENDING:
        raise RuleChangeRefused(f"Rule change #{pk} is already {row.get_status_display()}.")
    return row


def _claim(row: RuleChangeProposal, status: str, actor: Any, note: str) -> RuleChangeProposal:
    claimed = RuleChangeProposal.objects.filter(pk=row.pk, status=RuleChangeStatus.PENDING).update(
        status=status, decided_by=actor, decided_at=timezone.now(), decision_note=note
    )
    if not claimed:
        raise RuleChangeRefused(f"Rule change #{row.pk} was decided by someone else meanwhile.")
    row.refresh_from_db()
    return row


@transaction.atomic(durable=True)
def rule_change_approve(proposal: RuleChangeProposal | int, approver: Any, note: str = "") -> RuleChangeProposal:
    """Approve a pending change and apply it. Refused for the proposer, without the kind's approve permission, when
    the change needs an administrator (then or now) and the approver is not one, once decided, and when applying it
    raises one of the kind's ``refusals`` (then nothing is applied)."""
    row = _pending(proposal)
    rule = rule_kind(row.kind)
    if approver is not None and approver.pk == row.proposed_by_id:
        raise RuleChangeRefused("A rule change needs a second staff member: the one who proposed it cannot approve it.")
    _require(approver, rule.approve_permission, f"approve a change of {rule.label}")
    checked = rule.check(row.target, row.changes)
    _not_concerned(approver, rule, row.target, checked.changes, "approve this change")
    if (row.needs_administrator or checked.needs_administrator) and not approver.has_perm(APPROVE_ANY_RULE_CHANGE):
        raise RuleChangeRefused(
            f"This change needs an administrator's approval ({checked.why_administrator or 'out of the usual range'})."
        )
    note = note.strip() if isinstance(note, str) else ""
    row = _claim(row, RuleChangeStatus.APPROVED, approver, note)
    try:
        if rule.apply_decided is not None:
            rule.apply_decided(row, checked.changes)
        else:
            assert rule.apply is not None  # __post_init__: one of the two
            rule.apply(row.target, checked.changes)
    except rule.refusals as refusal:
        raise RuleChangeRefused(str(refusal)) from refusal
    _audit("rule_change_approved", approver, row, note, before=checked.before, after=checked.changes)
    return row


@transaction.atomic(durable=True)
def rule_change_reject(proposal: RuleChangeProposal | int, actor: Any, reason: str) -> RuleChangeProposal:
    """Reject a pending change with a reason (another staff member than the proposer, with the approve permission);
    nothing changes, but what the kind held back while it was pending is let go (``RuleKind.rejected``)."""
    row = _pending(proposal)
    rule = rule_kind(row.kind)
    if actor is not None and actor.pk == row.proposed_by_id:
        raise RuleChangeRefused("A rule change is decided by a second staff member: ask another one to reject it.")
    _require(actor, rule.approve_permission, f"reject a change of {rule.label}")
    _not_concerned(actor, rule, row.target, row.changes, "reject this change")
    reason = _reason(reason, "reject a rule change")
    row = _claim(row, RuleChangeStatus.REJECTED, actor, reason)
    _audit("rule_change_rejected", actor, row, reason)
    if rule.rejected is not None:
        rule.rejected(row)
    return row


@transaction.atomic
def rule_changes_withdraw(target: str, reason: str, *, actor: Any) -> list[RuleChangeProposal]:
    """Withdraw every proposal waiting for approval on ``target``, whatever its kind, because the row ``target``
    names has ended (a hold released or seized) and none of them can apply any more: each is marked withdrawn, with
    ``reason`` as its decision note and no decider (the system closed it, so the proposer may be the one whose act
    ended the target), and audited (``rule_change_withdrawn``; ``actor``: the staff member whose act ended it).

    In the caller's transaction (the act that ends the target calls it there: both commit or neither does). The
    waiting proposals are locked first, so a decision of one in progress finishes before and it is left as decided.
    The kind's ``rejected`` hook is not run: a withdrawal only ends a proposal that can no longer apply. Returns the
    withdrawn proposals."""
    reason = _reason(reason, "withdraw a rule change")
    waiting = list(
        RuleChangeProposal.objects.select_for_update(of=("self",))
        .filter(target=target, status=RuleChangeStatus.PENDING)
        .order_by("pk")
    )
    withdrawn_at = timezone.now()
    for row in waiting:
        row.status, row.decided_at, row.decision_note = RuleChangeStatus.WITHDRAWN, withdrawn_at, reason
        row.save(update_fields=["status", "decided_at", "decision_note"])
        _audit(
            "rule_change_withdrawn",
            actor,
            row,
            reason,
            before={"status": RuleChangeStatus.PENDING},
            after={"status": RuleChangeStatus.WITHDRAWN},
        )
    return waiting
