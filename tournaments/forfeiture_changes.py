"""Forfeiting a disqualified player's unpaid tournament prize (TRN-28) is money the house takes from a player, so it
needs two people (issue 30): the disqualification itself is immediate (a cheater leaves play at once), the forfeiture
is a kind of rule of :mod:`poker_site.core.rule_changes` that another staff member approves, never the proposer.

:func:`tournaments.services.staff.entry_disqualify` with a forfeiture choice disqualifies and, in the same transaction,
proposes (:func:`forfeiture_propose_locked`) in the disqualifier's name: target ``tournaments.tournamententry:<pk>``,
changes ``{"full": bool, "forfeit_cents": int}`` (a full forfeiture: the whole prize). While it is pending the prize is
*withheld*: unpaid, still in the prize pool, and paid by nothing (:func:`forfeiture_pending`,
:func:`forfeiture_withheld`: the prize payments skip it, the manual credit refuses it, a tournament cancellation leaves
it in the pool, and ``manage.py wallet_reconcile`` expects it there).

* **Approved** (``tournaments.forfeit_prize``, another staff member): checked again under the locks (still
  disqualified, still unpaid and not forfeited, the amount valid, a partial one only once a HexaPro game has ended,
  HEX-10), then :func:`tournaments.services.staff.entry_forfeiture_apply_locked` forfeits it as before issue 30 (full:
  to the house's seized funds; partial: the part to them and the rest to the player in one transfer), audited
  (``tournament_prize_forfeited``) with both staff members' names.
* **Rejected** (with a reason, another staff member with the same permission): the prize is paid to the player in
  the rejection's transaction, through the prize payment every other prize takes
  (:func:`tournaments.services.entry_prize_pay_locked`: the same idempotent ledger transfer, a satellite's seat as a
  ticket), audited (``tournament_prize_credited``), by the kind's ``rejected`` hook
  (:func:`forfeiture_rejected_pay`); should that ever not pay it, the prize is no longer withheld and the beat's prize
  sweep pays it within a tick.

Proposing, approving and rejecting all need one permission, ``tournaments.forfeit_prize`` (the kind's propose and
approve permission, checked for the disqualifier too): a forfeiture takes a player's money, so it is the compliance
desk's decision, as a seizure of withheld funds is. Compliance reviewers (and administrators) hold it: a reviewer
proposes it with a case's disqualification (``compliance.services.sanctions.tournament_disqualify``) and another
reviewer decides it, never the proposer. Support staff disqualify (``tournaments.disqualify_player``) and bar, but do
not hold it: their disqualification keeps the prize, and they neither approve nor reject a reviewer's forfeiture.
"""

from __future__ import annotations

from typing import Any

from django.db.models import CharField, Exists, OuterRef, Subquery, Value
from django.db.models.functions import Cast, Concat

from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.rule_changes import (
    CheckedChange,
    RuleChangeRefused,
    RuleKind,
    owners_of,
    rule_change_propose_locked,
    target_row,
)
from tournaments.models import TournamentEntry
from tournaments.services.errors import TournamentError
from wallet.errors import format_cents

FORFEIT_PRIZE = "tournaments.forfeit_prize"
KIND = "tournament_prize_forfeiture"
TARGET_PREFIX = "tournaments.tournamententry:"


def forfeiture_target(entry: TournamentEntry | int) -> str:
    return f"{TARGET_PREFIX}{entry if isinstance(entry, int) else entry.pk}"


def pending_forfeitures() -> Any:
    """The pending forfeiture proposals (a queryset of ``RuleChangeProposal``)."""
    return RuleChangeProposal.objects.filter(kind=KIND, status=RuleChangeStatus.PENDING)


def forfeiture_pending(entry: TournamentEntry | int) -> bool:
    """True while a forfeiture of the entry's prize awaits a decision: the prize is withheld, nothing pays it."""
    return bool(pending_forfeitures().filter(target=forfeiture_target(entry)).exists())


def _pending_forfeiture_of_outer_entry() -> Any:
    """The pending forfeiture proposals of the entry a subquery's ``OuterRef("pk")`` names."""
    target = Concat(Value(TARGET_PREFIX), Cast(OuterRef("pk"), CharField()), output_field=CharField())
    return pending_forfeitures().filter(target=target)


def forfeiture_withheld() -> Exists:
    """For a queryset of ``TournamentEntry``: the entry's prize is withheld by a pending forfeiture."""
    return Exists(_pending_forfeiture_of_outer_entry())


def forfeiture_withholding() -> Subquery:
    """For a queryset of ``TournamentEntry``: the pk of the pending forfeiture proposal withholding the entry's prize,
    or ``None`` (one at most: the kind's ``one_pending_per_target``)."""
    return Subquery(_pending_forfeiture_of_outer_entry().order_by("pk").values("pk")[:1])


def _entry(target: str) -> TournamentEntry:
    return target_row(
        target, TARGET_PREFIX, TournamentEntry.objects.select_related("tournament", "user"), "tournament entry"
    )


def _normalised(changes: dict[str, Any]) -> tuple[bool, Any]:
    unknown = set(changes) - {"full", "forfeit_cents"}
    if unknown:
        raise RuleChangeRefused(f"Not a field of a forfeiture: {', '.join(sorted(unknown))}.")
    full = changes.get("full")
    if not isinstance(full, bool):
        raise RuleChangeRefused("Say whether the whole prize is forfeited (full: true or false).")
    return full, changes.get("forfeit_cents")


def forfeiture_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    """The proposal's check, again at the approval (against the entry as it is then)."""
    from tournaments.services.staff import forfeiture_refusal

    entry = _entry(target)
    full, cents = _normalised(changes)
    refusal = forfeiture_refusal(entry, entry.tournament, full=full, cents=cents)
    if refusal:
        raise RuleChangeRefused(refusal)
    assert isinstance(cents, int)
    what = (
        f"all of the prize {format_cents(entry.prize)}"
        if full
        else f"{format_cents(cents)} of the prize {format_cents(entry.prize)} (the rest, "
        f"{format_cents(entry.prize - cents)}, paid to the player)"
    )
    return CheckedChange(
        summary=f"{entry.tournament.name}: forfeit {what} of {entry.user.get_username()}, place {entry.place}, "
        "disqualified (TRN-28)",
        before={"prize": entry.prize, "prize_paid": False, "prize_forfeited": False},
        changes={"full": full, "forfeit_cents": cents},
    )


def forfeiture_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    from tournaments.services.staff import entry_forfeiture_apply_locked

    full, cents = _normalised(changes)
    entry_forfeiture_apply_locked(
        int(proposal.target.removeprefix(TARGET_PREFIX)),
        full=full,
        cents=cents,
        proposed_by=proposal.proposed_by,
        approved_by=proposal.decided_by,
        reason=proposal.reason,
        proposal=proposal.pk,
    )


def forfeiture_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The disqualified player whose prize it is."""
    return owners_of(TournamentEntry.objects.all(), target, TARGET_PREFIX, "user_id")


PRIZE_FORFEITURE = RuleKind(
    name=KIND,
    label="forfeiting a disqualified player's unpaid tournament prize",
    propose_permission=FORFEIT_PRIZE,
    approve_permission=FORFEIT_PRIZE,
    check=forfeiture_check,
    one_pending_per_target=True,
    concerns=forfeiture_concerns,
    apply_decided=forfeiture_apply,
    rejected=lambda proposal: forfeiture_rejected_pay(proposal, actor=proposal.decided_by),
    refusals=(TournamentError,),
)


def forfeiture_propose_locked(
    actor: Any, entry: TournamentEntry, *, full: bool, cents: int, reason: str
) -> RuleChangeProposal:
    """Propose forfeiting ``cents`` of the just-disqualified ``entry``'s prize (all of it when ``full``), inside the
    disqualification's transaction, in the disqualifier's name, through the rule changes' own proposal
    (:func:`~poker_site.core.rule_changes.rule_change_propose_locked`: the check, the row, the
    ``rule_change_proposed`` audit entry). Refused with ``RuleChangeRefused`` unless ``actor`` is active and holds
    ``tournaments.forfeit_prize`` (whatever let them disqualify), for the player's own prize, and while another
    forfeiture of the entry is pending (the kind's ``one_pending_per_target``)."""
    return rule_change_propose_locked(
        actor, KIND, forfeiture_target(entry), {"full": full, "forfeit_cents": cents}, reason
    )


def forfeiture_rejected_pay(proposal: RuleChangeProposal, *, actor: Any) -> bool:
    """Pay the prize a rejected forfeiture withheld (the ordinary, idempotent prize payment), unless another
    forfeiture of it is still pending; audited when it paid. True when this call paid it."""
    from tournaments.services import entry_prize_pay_locked
    from wallet.services.audit import audit_record

    entry_id = int(proposal.target.removeprefix(TARGET_PREFIX))
    if forfeiture_pending(entry_id) or not entry_prize_pay_locked(entry_id):
        return False
    entry = TournamentEntry.objects.select_related("user").get(pk=entry_id)
    audit_record(
        target=f"tournaments.tournament:{entry.tournament_id}",
        action="tournament_prize_credited",
        actor=actor,
        player=entry.user,
        transfer=entry.prize_transfer,
        reason=f"Forfeiture rejected (rule change #{proposal.pk}): {proposal.decision_note}"[:300],
        details={
            "tournament": entry.tournament_id,
            "entry": entry.pk,
            "place": entry.place,
            "prize": entry.prize,
            "proposal": proposal.pk,
            "proposed_by": proposal.proposed_by.get_username(),
            "rejected_by": actor.get_username() if actor is not None else None,
            "before": {"prize_transfer": None},
            "after": {"prize_transfer": entry.prize_transfer_id},
        },
    )
    return True


__all__ = [
    "KIND",
    "PRIZE_FORFEITURE",
    "forfeiture_check",
    "forfeiture_pending",
    "forfeiture_propose_locked",
    "forfeiture_rejected_pay",
    "forfeiture_target",
    "forfeiture_withheld",
    "forfeiture_withholding",
    "pending_forfeitures",
]
