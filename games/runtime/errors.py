"""Errors the table services raise. Each says, in words a player understands, what was refused and why.

Consumers and API views catch :class:`TableError` and send ``str(error)`` (and ``error.code``) to the client who asked.
Nothing was changed when one of these is raised: services raise them before writing, inside their transaction.
"""

from __future__ import annotations


class TableError(Exception):
    """Base class: a table request was refused and nothing changed."""

    code = "table_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OwnershipLost(Exception):
    """A table owner's durable write (a hand's start or end) carried an epoch older than the table's
    ``owner_epoch``: another runtime process has taken the table over since (games.runtime.leases). Nothing was
    written; the old owner must drop the table. Not a :class:`TableError`: no player asked for anything."""

    def __init__(self, table_id: int, epoch: int, current: int) -> None:
        super().__init__(f"table {table_id} is owned under epoch {current} now, not {epoch}")
        self.table_id = table_id
        self.epoch = epoch
        self.current = current


class NotFound(TableError):
    """The table, seat or stake does not exist or is closed."""

    code = "not_found"


class NotSeated(TableError):
    """The player has no seat at this table."""

    code = "not_seated"


class AlreadySeated(TableError):
    """The player already has a seat at this table."""

    code = "already_seated"


class SeatUnavailable(TableError):
    """The seat asked for is taken, or the table is full."""

    code = "seat_unavailable"


class BuyInRefused(TableError):
    """The buy-in or top-up amount is outside the limits in force (CASH-10..14, CASH-26/27, CASH-30/31)."""

    code = "buy_in_refused"

    def __init__(self, message: str, *, minimum: int | None = None, maximum: int | None = None) -> None:
        super().__init__(message)
        self.minimum = minimum
        self.maximum = maximum


class TableLimitReached(TableError):
    """The player already plays as many tables of this kind as allowed (CASH-09, CASH-28)."""

    code = "table_limit_reached"


class BanzaiExcluded(TableError):
    """The operator excluded the player from Banzai games (CASH-32)."""

    code = "banzai_excluded"


class NotYourTurn(TableError):
    """An action from a player whose turn it is not (or when no hand is in play)."""

    code = "not_your_turn"


class ActionRefused(TableError):
    """The engine refused the action (illegal type or amount); the message is the engine's reason."""

    code = "illegal_action"


class NotAllowedNow(TableError):
    """The request does not fit the table's current state (e.g. topping up during a hand)."""

    code = "not_allowed_now"


class ReasonRequired(TableError):
    """A back-office request that must say why (closing a table) came without a reason."""

    code = "reason_required"


class InsufficientBalance(TableError):
    """The player's cash balance cannot cover the buy-in or top-up."""

    code = "insufficient_balance"


# --- responsible gaming


class SelfExcluded(TableError):
    """The player excluded themselves from play for a period that has not ended (responsible gaming)."""

    code = "self_excluded"
