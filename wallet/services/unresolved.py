"""Unresolved games and the 90-day void to charity (CASH-25, HEX-17, AMB-45).

Automatic refunds (CASH-23) happen at once in the table services. Bets of an incomplete game that cannot be
settled automatically are moved into a case account with ``unresolved_game_open``; staff resolve the case by a
proposal another staff member approves (issue 30, :mod:`wallet.resolution_changes`), which pays the funds to whom they
decide with ``unresolved_game_settle``. A case still open 90 days after it was opened
is void: ``unresolved_games_void_expired`` (run by the deadline ticker) moves its funds to the charity account with
an audit entry — except a HexaPro game's case (reference ``hexapro:<id>``), which must be decided by CXL-09 and stays
in the queue, overdue, until it is (AMB-45).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from poker_site.core.prepared_queries import PreparedQuery
from wallet.errors import CaseAlreadyClosed, InvalidTransfer, UnbalancedTransfer
from wallet.models import AccountKind, Transfer, UnresolvedGameFunds, UnresolvedGameStatus
from wallet.services.accounts import reference_account, system_account
from wallet.services.audit import audit_record
from wallet.services.ledger import TransferKind, TransferLeg, check_positive_amount, transfer_create
from wallet.services.permissions import require_reason

if TYPE_CHECKING:
    from poker_site.accounts.models import User

VOID_AFTER = timedelta(days=90)
DECIDED_NOT_VOIDED_PREFIX = "hexapro:"
"""AMB-45: HexaPro games in the queue must be decided (CXL-09) by their deadline; they are never voided to charity."""


def unresolved_game_open(
    *,
    game_reference: str,
    contributions: Sequence[TransferLeg],
    idempotency_key: str,
    description: str = "",
    created_by: User | None = None,
) -> UnresolvedGameFunds:
    """Park the bets of an incomplete game: each contribution takes its (positive) ``amount`` from its account.

    Not durable: a game service calls it inside its own transaction when it gives up settling a game whose bets have
    left the players' accounts. (A cash hand never needs it: its chips move only in its settlement, so a hand that
    cannot finish is cancelled with every stack where it started, CASH-23.) The same ``idempotency_key`` returns the
    same case. The case is void 90 days from now.
    """
    if not isinstance(game_reference, str) or not game_reference.strip():
        raise InvalidTransfer("An unresolved game needs its game reference, e.g. 'hand:991'.")
    contributions = tuple(contributions)
    if not contributions:
        raise UnbalancedTransfer("An unresolved game needs at least one contribution.")
    for leg in contributions:
        check_positive_amount(leg.amount, what="contribution")
    total = sum(leg.amount for leg in contributions)
    currency = contributions[0].account.currency
    with transaction.atomic():
        account = reference_account(AccountKind.UNRESOLVED_GAME, f"unresolved:{idempotency_key}", currency=currency)
        transfer = transfer_create(
            kind=TransferKind.UNRESOLVED_GAME,
            legs=[*(TransferLeg(leg.account, -leg.amount) for leg in contributions), TransferLeg(account, total)],
            idempotency_key=f"unresolved-game:{idempotency_key}",
            reference=game_reference,
            description=description or f"Bets of the incomplete game {game_reference}",
            created_by=created_by,
        )
        existing = UnresolvedGameFunds.objects.filter(opening_transfer=transfer).first()
        if existing is not None:
            return existing
        opened_at = timezone.now()
        case = UnresolvedGameFunds.objects.create(
            game_reference=game_reference,
            account=account,
            amount=total,
            currency=currency,
            description=description,
            opened_at=opened_at,
            deadline=opened_at + VOID_AFTER,
            opening_transfer=transfer,
        )
        audit_record(
            action="unresolved_game_opened",
            actor=created_by,
            transfer=transfer,
            details={"case": case.pk, "game": game_reference, "amount": total, "deadline": case.deadline.isoformat()},
        )
        return case


def unresolved_game_settle(
    case: UnresolvedGameFunds, *, payouts: Sequence[TransferLeg], decided_by: User | None, reason: str
) -> UnresolvedGameFunds:
    """Decide an open case inside the caller's transaction: ``payouts`` (positive amounts to each account) must add up
    to the case's funds; a reason is required. ``CaseAlreadyClosed`` once resolved or voided. The caller checks who
    decides: staff through an approved proposal (issue 30, :mod:`wallet.resolution_changes`: one proposes, another
    approves), a game service by its own rules (a HexaPro game cancelled by CXL-09, HEX-17)."""
    reason = require_reason(reason, "resolve an unresolved game")
    payouts = tuple(payouts)
    for leg in payouts:
        check_positive_amount(leg.amount, what="payout")
    locked = UnresolvedGameFunds.objects.select_for_update().select_related("account").get(pk=case.pk)
    if locked.status != UnresolvedGameStatus.OPEN:
        raise CaseAlreadyClosed(f"The unresolved game {locked.game_reference} is already {locked.status}.")
    paid = sum(leg.amount for leg in payouts)
    if paid != locked.amount:
        raise UnbalancedTransfer(
            f"The payouts add up to {paid} cents but the case holds {locked.amount} cents; pay out all of it."
        )
    transfer = transfer_create(
        kind=TransferKind.UNRESOLVED_GAME_RESOLUTION,
        legs=[TransferLeg(locked.account, -locked.amount), *payouts],
        idempotency_key=f"unresolved-game-resolution:{locked.pk}",
        reference=locked.game_reference,
        description=reason,
        created_by=decided_by,
    )
    return _close(
        locked,
        status=UnresolvedGameStatus.RESOLVED,
        actor=decided_by,
        reason=reason,
        transfer=transfer,
        action="unresolved_game_resolved",
    )


def _close(
    case: UnresolvedGameFunds, *, status: str, actor: User | None, reason: str, transfer: Transfer, action: str
) -> UnresolvedGameFunds:
    case.status = status
    case.closed_at = timezone.now()
    case.closed_by = actor
    case.closing_reason = reason
    case.closing_transfer = transfer
    case.save(update_fields=["status", "closed_at", "closed_by", "closing_reason", "closing_transfer"])
    audit_record(
        action=action,
        actor=actor,
        transfer=transfer,
        reason=reason,
        details={"case": case.pk, "game": case.game_reference, "amount": case.amount},
    )
    return case


@transaction.atomic(durable=True)
def unresolved_game_void(case: UnresolvedGameFunds, *, now: datetime | None = None) -> UnresolvedGameFunds | None:
    """Void one case whose 90-day deadline has passed: its funds go to charity. Returns ``None`` (and does nothing)
    when the case is already closed, not yet due, or being voided by another ticker right now."""
    moment = now or timezone.now()
    locked = (
        UnresolvedGameFunds.objects.select_for_update(skip_locked=True)
        .select_related("account")
        .filter(pk=case.pk, status=UnresolvedGameStatus.OPEN, deadline__lte=moment)
        .exclude(game_reference__startswith=DECIDED_NOT_VOIDED_PREFIX)
        .first()
    )
    if locked is None:
        return None
    transfer = transfer_create(
        kind=TransferKind.CHARITY_VOID,
        legs=[
            TransferLeg(locked.account, -locked.amount),
            TransferLeg(system_account(AccountKind.CHARITY, locked.currency), locked.amount),
        ],
        idempotency_key=f"charity-void:{locked.pk}",
        reference=locked.game_reference,
        description=f"Unresolved for 90 days since {locked.opened_at:%Y-%m-%d}: void and given to charity, "
        "as the rules say.",
    )
    return _close(
        locked,
        status=UnresolvedGameStatus.VOIDED,
        actor=None,
        reason="Void after 90 days unresolved; forfeited to charity (CASH-25).",
        transfer=transfer,
        action="unresolved_game_voided",
    )


VOID_BATCH_SIZE = 100
"""Cases voided per tick at most; the next tick takes the rest."""

# The ticker asks this several times a second: compiled once (poker_site.core.prepared_queries).
_CASES_DUE = PreparedQuery(
    lambda now: (
        UnresolvedGameFunds.objects.filter(status=UnresolvedGameStatus.OPEN, deadline__lte=now)
        .exclude(game_reference__startswith=DECIDED_NOT_VOIDED_PREFIX)
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)[:VOID_BATCH_SIZE]
    ),
    ["now"],
)


def unresolved_games_void_expired(now: datetime) -> int:
    """The ticker handler: void every open case past its deadline (up to :data:`VOID_BATCH_SIZE` per tick).
    Idempotent."""
    voided = 0
    for (pk,) in _CASES_DUE.rows(now=now):
        if unresolved_game_void(UnresolvedGameFunds(pk=pk), now=now) is not None:
            voided += 1
    return voided
