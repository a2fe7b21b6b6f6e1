"""Money between a player's cash account and their table account, always through the wallet ledger.

Internal helpers: they run inside a table service's transaction (the table row locked) and never open their own
durable transaction. A balance too low for a buy-in or top-up is the table error ``InsufficientBalance``, in the
player's words.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model

from games.models import Seat, SeatStatus, StakeTerms, Table, TableSession
from games.runtime.errors import InsufficientBalance
from games.runtime.events import NewEvent
from games.runtime.seat_state import global_sit_out_settle, seat_empty
from wallet.errors import InsufficientFunds, format_cents
from wallet.models import Account, AccountKind
from wallet.services import (
    TransferKind,
    TransferLeg,
    balance_of,
    hold_table_money,
    player_cash_account,
    reference_account,
    transfer_create,
)


def table_account_create(table: Table, user_id: int) -> Account:
    """A new TABLE_SESSION account for the player's next stay at ``table`` (the table row must be locked)."""
    stays = TableSession.objects.filter(table_id=table.pk, user_id=user_id).count()
    user = get_user_model().objects.get(pk=user_id)
    return reference_account(
        AccountKind.TABLE_SESSION,
        f"table-session:t{table.pk}:u{user_id}:{stays + 1}",
        owner=user,
    )


MONEY_TO_TABLE_WORDS = {TransferKind.CASH_BUY_IN: "a buy-in", TransferKind.CASH_TOP_UP: "a top-up"}


def money_to_table(
    session_account: Account, cash: Account, amount: int, *, kind: str, idempotency_key: str, reference: str
) -> None:
    """Move ``amount`` cents from the player's cash account ``cash`` to their table account (buy-in or top-up)."""
    try:
        transfer_create(
            kind=kind,
            legs=[TransferLeg(cash, -amount), TransferLeg(session_account, amount)],
            idempotency_key=idempotency_key,
            reference=reference,
            description=f"{kind.replace('_', ' ')} to {reference}",
        )
    except InsufficientFunds as error:
        # In the player's words: the wallet's own message names its internal account, which means nothing to them.
        what = MONEY_TO_TABLE_WORDS.get(kind, "this")
        raise InsufficientBalance(
            f"Your balance ({format_cents(amount - error.shortfall_cents)}) does not cover {what} of "
            f"{format_cents(amount)}."
        ) from error


def money_from_table(session: TableSession) -> int:
    """Move everything in the session's table account back to the player's cash account; return the amount. A player
    with a hold in force (FRD-04) has that money withheld too, in the same transaction (issue 31)."""
    amount = balance_of(session.account)
    if amount > 0:
        cash = player_cash_account(session.user)
        reference = f"table-session:{session.pk}"
        transfer_create(
            kind=TransferKind.CASH_OUT,
            legs=[TransferLeg(session.account, -amount), TransferLeg(cash, amount)],
            idempotency_key=f"{reference}:cash-out",
            reference=reference,
            description=f"cash-out from {session.table.name}",
        )
        hold_table_money(cash, amount, reference)
    return amount


def seat_vacate(seat: Seat, table: Table, reason: str, now: datetime, terms: StakeTerms) -> NewEvent:
    """Cash the player out (table account back to cash, CASH-08), record the leave, and empty the seat."""
    session = seat.session
    assert session is not None
    user_id = seat.user_id
    stack = money_from_table(session)
    TableSession.objects.filter(pk=session.pk, ended_at__isnull=True).update(
        ended_at=now, leave_reason=reason, leave_stack=stack, leave_big_blind=terms.big_blind
    )
    number = seat.number
    seat_empty(seat)
    if user_id is not None:
        global_sit_out_settle(user_id)
    return NewEvent(
        "seat_left", {"seat": number, "status": SeatStatus.EMPTY, "user_id": user_id, "stack": stack, "reason": reason}
    )
