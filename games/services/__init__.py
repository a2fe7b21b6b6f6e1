"""Cash-table services (``<entity>_<verb>``). Import from here: ``from games.services import hand_act``.

Every top-level service owns its transaction (``@transaction.atomic(durable=True)``), locks the table row before
anything else (then seats in primary-key order), raises a :class:`~games.services.errors.TableError` with a clear
message before writing anything when a request is refused, and announces committed events through
``games.realtime`` after commit.
"""

from games.services.errors import (
    ActionRefused,
    AlreadySeated,
    BanzaiExcluded,
    BuyInRefused,
    InsufficientBalance,
    NotAllowedNow,
    NotFound,
    NotSeated,
    NotYourTurn,
    SeatUnavailable,
    TableError,
    TableLimitReached,
)
from games.services.views import table_events_since, table_snapshot

__all__ = [
    "ActionRefused",
    "AlreadySeated",
    "BanzaiExcluded",
    "BuyInRefused",
    "InsufficientBalance",
    "NotAllowedNow",
    "NotFound",
    "NotSeated",
    "NotYourTurn",
    "SeatUnavailable",
    "TableError",
    "TableLimitReached",
    "table_events_since",
    "table_snapshot",
]
