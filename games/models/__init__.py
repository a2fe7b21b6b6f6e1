"""Models of the games app: the one table runtime's tables, seats, hands and event logs (``tables``, ``hands``), and
the cash game's catalogue (``catalog``: game types, stakes, rules data) and records (``cash``: table sessions, player
settings and counters, the seating queue)."""

from games.models.cash import (
    BuyInKind,
    DailyCounterKind,
    LeaveReason,
    PlayerDailyCounter,
    PlayerTableSettings,
    SeatingRequest,
    SeatingRequestStatus,
    TableSession,
)
from games.models.catalog import BuyInRule, GameRules, GameType, RakeTableType, Stake, StakeTerms, Variant

# --- Table chat (issue 22) ---
from games.models.chat import ChatMute
from games.models.hands import (
    AppendOnlyError,
    ClockPhase,
    EventAudience,
    Hand,
    HandEvent,
    HandPlayer,
    HandStatus,
)
from games.models.tables import (
    TABLES_TAKING_PLAYERS,
    Seat,
    SeatStatus,
    SitOutReason,
    Table,
    TableKind,
    TableStatus,
)

__all__ = [
    "TABLES_TAKING_PLAYERS",
    "AppendOnlyError",
    "BuyInKind",
    "BuyInRule",
    "ChatMute",
    "ClockPhase",
    "DailyCounterKind",
    "EventAudience",
    "GameRules",
    "GameType",
    "Hand",
    "HandEvent",
    "HandPlayer",
    "HandStatus",
    "LeaveReason",
    "PlayerDailyCounter",
    "PlayerTableSettings",
    "RakeTableType",
    "Seat",
    "SeatStatus",
    "SeatingRequest",
    "SeatingRequestStatus",
    "SitOutReason",
    "Stake",
    "StakeTerms",
    "Table",
    "TableKind",
    "TableSession",
    "TableStatus",
    "Variant",
]
