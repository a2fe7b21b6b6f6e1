"""``transfer_create``: the only code that changes a balance.

Sign convention: a leg's ``amount`` is signed integer cents seen from its account. **Positive credits the account
(its balance goes up), negative debits it (its balance goes down).** A buy-in of €10 is therefore
``[TransferLeg(cash, -1000), TransferLeg(session, +1000)]``. The legs of a transfer always sum to zero.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.utils import timezone

from wallet.errors import (
    CurrencyMismatch,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidTransfer,
    UnbalancedTransfer,
    UnknownAccount,
)
from wallet.models import DEFAULT_CURRENCY, Account, AccountKind, Transfer

if TYPE_CHECKING:
    from poker_site.accounts.models import User

# No single movement in this product comes near €10 billion; anything larger is a bug or an attack.
MAX_AMOUNT_CENTS = 10**12
MAX_LEGS = 1000
_KIND_PATTERN = re.compile(r"^[a-z][a-z0-9_.:-]{0,39}$")
_MAX_KEY_LENGTH = 200
_MAX_REFERENCE_LENGTH = 200


class TransferKind:
    """Recommended ``Transfer.kind`` values. Any lower-case slug is accepted; these are the ones the product uses."""

    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    WITHDRAWAL_PAYOUT = "withdrawal_payout"
    WITHDRAWAL_RETURNED = "withdrawal_returned"
    CASH_BUY_IN = "cash_buy_in"
    CASH_TOP_UP = "cash_top_up"
    CASH_OUT = "cash_out"
    HAND_SETTLEMENT = "hand_settlement"
    HAND_REFUND = "hand_refund"
    RAKE = "rake"
    TOURNAMENT_BUY_IN = "tournament_buy_in"
    TOURNAMENT_FEE = "tournament_fee"
    TOURNAMENT_REFUND = "tournament_refund"
    TOURNAMENT_PRIZE = "tournament_prize"
    TOURNAMENT_OVERLAY = "tournament_overlay"
    TOURNAMENT_PHASE_CARRY = "tournament_phase_carry"
    BOUNTY = "bounty"
    UTH_BET = "uth_bet"
    UTH_SETTLEMENT = "uth_settlement"
    HOLD = "hold"
    HOLD_RELEASE = "hold_release"
    HOLD_SEIZURE = "hold_seizure"
    UNRESOLVED_GAME = "unresolved_game"
    UNRESOLVED_GAME_RESOLUTION = "unresolved_game_resolution"
    CHARITY_VOID = "charity_void"
    STAFF_ADJUSTMENT = "staff_adjustment"
    REVERSAL = "reversal"


@dataclass(frozen=True, slots=True)
class TransferLeg:
    """Input to ``transfer_create``: ``amount`` cents on ``account``; positive credits, negative debits."""

    account: Account
    amount: int


def check_amount(amount: object, *, what: str = "amount") -> int:
    """Return ``amount`` if it is a plain non-zero ``int`` within ±MAX_AMOUNT_CENTS; raise ``InvalidAmount``.

    bool, float, Decimal and str are refused even when they look whole: money is integer cents only.
    """
    if type(amount) is not int:
        raise InvalidAmount(
            f"The {what} must be a whole number of cents (an int), not {type(amount).__name__} {amount!r}."
        )
    if amount == 0:
        raise InvalidAmount(f"The {what} must not be zero.")
    if abs(amount) > MAX_AMOUNT_CENTS:
        raise InvalidAmount(f"The {what} {amount} cents is beyond the limit of {MAX_AMOUNT_CENTS} cents.")
    return amount


def check_positive_amount(amount: object, *, what: str = "amount") -> int:
    """``check_amount`` that also refuses negative amounts (for deposits, holds, buy-ins and the like)."""
    checked = check_amount(amount, what=what)
    if checked < 0:
        raise InvalidAmount(f"The {what} must be positive, not {checked} cents.")
    return checked


def _check_text(value: object, *, what: str, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidTransfer(f"The transfer's {what} is required (a non-empty string).")
    if len(value) > max_length:
        raise InvalidTransfer(f"The transfer's {what} is longer than {max_length} characters.")
    return value


def _fingerprint(kind: str, reference: str, legs: Sequence[tuple[int, int]]) -> str:
    """SHA-256 of what the transfer does. Description and author are not part of it: a retry may reword them."""
    content = {"kind": kind, "reference": reference, "legs": sorted(legs)}
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _replay(idempotency_key: str, fingerprint: str) -> Transfer | None:
    """The transfer already made under this key, if any; ``IdempotencyConflict`` if its content differs."""
    existing = Transfer.objects.filter(idempotency_key=idempotency_key).first()
    if existing is None:
        return None
    if existing.fingerprint != fingerprint:
        raise IdempotencyConflict(
            f"The idempotency key {idempotency_key!r} was already used for transfer #{existing.pk} "
            f"({existing.kind} {existing.reference}) with different content; use a new key for a new transfer."
        )
    return existing


_LOCK_ACCOUNTS_SQL = (
    "SELECT id, currency, balance, may_go_negative, kind, owner_id FROM wallet_account "
    "WHERE id = ANY(%s::bigint[]) ORDER BY id FOR UPDATE"
)

# One statement books the transfer: insert it (unless its idempotency key exists), add each leg to its account's
# balance, and record the legs with the balance each account has after it. If the key exists nothing is written
# (the UPDATE and the leg INSERT join the empty new_transfer) and no row comes back.
_BOOK_TRANSFER_SQL = """
WITH new_transfer AS (
    INSERT INTO wallet_transfer
        (kind, idempotency_key, reference, description, currency, fingerprint, created_by_id, created_at)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
), moved AS (
    UPDATE wallet_account AS account SET balance = account.balance + leg.amount
    FROM unnest(%s::bigint[], %s::bigint[]) AS leg (account_id, amount), new_transfer
    WHERE account.id = leg.account_id
    RETURNING new_transfer.id AS transfer_id, account.id AS account_id, leg.amount, account.balance
)
INSERT INTO wallet_leg (transfer_id, account_id, amount, balance_after)
SELECT transfer_id, account_id, amount, balance FROM moved ORDER BY account_id
RETURNING transfer_id
"""


def transfer_create(
    *,
    kind: str,
    legs: Sequence[TransferLeg],
    idempotency_key: str,
    reference: str,
    description: str = "",
    created_by: User | None = None,
) -> Transfer:
    """Move money between accounts in one balanced, atomic, idempotent transfer and return it.

    Contract:
    * ``legs``: at least two, each on a different saved account, amounts plain non-zero ints (see ``check_amount``),
      summing to zero, all accounts in one currency. Positive credits, negative debits.
    * Accounts are locked with ``SELECT ... FOR UPDATE`` in primary-key order before any balance is read or written,
      so concurrent transfers never lose an update and never deadlock on each other.
    * No account that may not go negative ends below zero (``InsufficientFunds`` names the account and the shortfall;
      the database CHECK constraint backs this up).
    * The same ``idempotency_key`` with the same content (kind, reference, accounts and amounts) returns the first
      transfer without moving money again; with different content it raises ``IdempotencyConflict``. Concurrent
      calls with one key create one transfer: the insert is ``ON CONFLICT (idempotency_key) DO NOTHING``, which
      waits for a concurrent holder of the key to commit, and the loser reads the winner's transfer back.
    * Balances and legs are written by one statement after the locks (``_BOOK_TRANSFER_SQL``); each leg records
      the balance its account has after it.
    * Runs in the caller's transaction when there is one (a table service settling a hand): it commits or rolls
      back with it, and opens no savepoint — every refusal is raised before the one statement that writes, so there
      is nothing to roll back to, and a savepoint cost two round trips on every settlement and top-up. Without a
      caller's transaction it runs in its own ``transaction.atomic()``. On any ``WalletError`` nothing is written,
      and the caller's transaction stays usable.
    """
    kind = _check_text(kind, what="kind", max_length=40)
    if not _KIND_PATTERN.match(kind):
        raise InvalidTransfer(f"The transfer kind {kind!r} must be a lower-case slug (letters, digits, _ . : -).")
    idempotency_key = _check_text(idempotency_key, what="idempotency key", max_length=_MAX_KEY_LENGTH)
    reference = _check_text(reference, what="reference", max_length=_MAX_REFERENCE_LENGTH)
    if not isinstance(description, str):
        raise InvalidTransfer("The transfer's description must be a string.")

    legs = tuple(legs)
    if len(legs) < 2:
        raise UnbalancedTransfer(f"A transfer needs at least two legs; got {len(legs)}.")
    if len(legs) > MAX_LEGS:
        raise UnbalancedTransfer(f"A transfer may have at most {MAX_LEGS} legs; got {len(legs)}.")
    amounts: dict[int, int] = {}
    for position, leg in enumerate(legs, start=1):
        if not isinstance(leg, TransferLeg):
            raise InvalidTransfer(f"Leg {position} must be a TransferLeg(account, amount), not {type(leg).__name__}.")
        check_amount(leg.amount, what=f"amount of leg {position}")
        if not isinstance(leg.account, Account) or leg.account.pk is None:
            raise UnknownAccount(f"Leg {position} is not on a saved wallet account.")
        if leg.account.pk in amounts:
            raise UnbalancedTransfer(f"Account #{leg.account.pk} appears in more than one leg; net them into one.")
        amounts[leg.account.pk] = leg.amount
    total = sum(amounts.values())
    if total != 0:
        raise UnbalancedTransfer(f"The legs of a transfer must sum to zero; these sum to {total:+d} cents.")
    fingerprint = _fingerprint(kind, reference, list(amounts.items()))
    account_ids = sorted(amounts)

    with nullcontext() if connection.in_atomic_block else transaction.atomic():
        # Lock first, in primary-key order, so that concurrent transfers queue instead of deadlocking, and no
        # balance is read before it is locked.
        with connection.cursor() as cursor:
            cursor.execute(_LOCK_ACCOUNTS_SQL, [account_ids])
            locked: list[tuple[int, str, int, bool, str, int | None]] = cursor.fetchall()
        if len(locked) != len(account_ids):
            missing = sorted(set(account_ids) - {row[0] for row in locked})
            raise UnknownAccount(f"No wallet account with id {', '.join(f'#{pk}' for pk in missing)}.")
        currencies = sorted({row[1] for row in locked})
        if len(currencies) > 1:
            raise CurrencyMismatch(
                f"All legs of a transfer must be in one currency; these accounts are in {', '.join(currencies)}."
            )
        for pk, _currency, balance, may_go_negative, _kind, _owner in locked:
            after = balance + amounts[pk]
            if after < 0 and not may_go_negative:
                # A retry of a transfer that already spent this money must get that transfer back, not an error.
                replay = _replay(idempotency_key, fingerprint)
                if replay is not None:
                    return replay
                raise InsufficientFunds(Account.objects.select_related("owner").get(pk=pk), -after)
        created_at = timezone.now()
        created_by_id = created_by.pk if created_by is not None else None
        with connection.cursor() as cursor:
            cursor.execute(
                _BOOK_TRANSFER_SQL,
                [
                    kind,
                    idempotency_key,
                    reference,
                    description,
                    currencies[0],
                    fingerprint,
                    created_by_id,
                    created_at,
                    account_ids,
                    [amounts[pk] for pk in account_ids],
                ],
            )
            booked = cursor.fetchall()
        if not booked:
            # The key exists: committed by an earlier call, or by a concurrent one that ON CONFLICT waited for.
            replay = _replay(idempotency_key, fingerprint)
            if replay is None:  # pragma: no cover - ON CONFLICT only skips rows that exist once it returns
                raise IdempotencyConflict(f"The idempotency key {idempotency_key!r} is in use; retry the request.")
            return replay
        _balances_announce_after_commit(
            [
                (owner, balance + amounts[pk])
                for pk, currency, balance, _may_go_negative, kind, owner in locked
                if kind == AccountKind.PLAYER_CASH and owner is not None and currency == DEFAULT_CURRENCY
            ]
        )
    transfer = Transfer(
        pk=booked[0][0],
        kind=kind,
        idempotency_key=idempotency_key,
        reference=reference,
        description=description,
        currency=currencies[0],
        fingerprint=fingerprint,
        created_by=created_by,
        created_at=created_at,
    )
    transfer._state.adding = False
    transfer._state.db = connection.alias
    return transfer


def _balances_announce_after_commit(balances: list[tuple[int, int]]) -> None:
    """Push each player's new cash balance to their player sockets once the transfer commits (the site header shows
    it live: a cash-out, a prize, a bounty, a UTH round, a deposit). The one place every such movement passes."""
    if balances:
        from poker_site.core.player_notices import player_notify_after_commit

        player_notify_after_commit((owner, {"kind": "balance", "cents": int(cents)}) for owner, cents in balances)


def transfer_reverse(
    transfer: Transfer, *, idempotency_key: str, reason: str, created_by: User | None = None
) -> Transfer:
    """Undo ``transfer`` with a new transfer of the opposite legs (the original stays, the ledger is append-only).

    Used for rollbacks (CASH-24) and corrections. Subject to the same checks: it fails with ``InsufficientFunds`` if
    money that came in has already moved on.
    """
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidTransfer("A reversal needs a reason.")
    legs = [TransferLeg(leg.account, -leg.amount) for leg in transfer.legs.select_related("account").order_by("pk")]
    return transfer_create(
        kind="reversal",
        legs=legs,
        idempotency_key=idempotency_key,
        reference=f"transfer:{transfer.pk}",
        description=reason,
        created_by=created_by,
    )
