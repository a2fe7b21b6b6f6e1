"""Tournament timebanks and the final-stage reconnection time (TB-02, TB-03, TB-06, TB-07, TB-08, TRN-31, AMB-31,
AMB-44, AMB-67).

TB-02 rows, by event (AMB-67):

* scheduled multi-table tournaments: first hand and cap are fields of the tournament (defaults 15 s / 30 s, TB-08);
  5 s added every 10th hand;
* Sit & Go (every one except HexaPro / HexaPro Extreme): 10 s, 5 s every 5th hand, cap 20 s;
* HexaPro and HexaPro Extreme by multiplier (TB-06, AMB-31): below 25x 10 s, 5 s every 5th hand, cap 20 s; 25x and
  above 30 s, 5 s every 5th hand, cap 60 s.

TB-03 / AMB-31: the count is of the hands the player is dealt in at that event; after every N-th such hand 5 s are
added, never above the cap. The fields match the table runtime's (``timebank_first_hand_seconds``,
``timebank_replenish_seconds``, ``timebank_replenish_every_hands``, ``timebank_cap_seconds``).

TRN-31 / AMB-44: in the final stage of a real-money tournament (from the final table, or from the money, per
tournament), a disconnected player gets extra reconnection time on top of TB-07's normal decision time + 20 s grace
(default +60 s).

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Final

from tournaments.rules.common import RuleError, require_whole


class EventKind(StrEnum):
    MULTI_TABLE = "multi_table"
    SIT_AND_GO = "sit_and_go"
    HEXAPRO = "hexapro"  # HexaPro and HexaPro Extreme


@dataclass(frozen=True, slots=True)
class TimebankRule:
    """One TB-02 row: the balance at the player's first hand, the seconds added after every N-th hand dealt in, the
    cap."""

    first_hand_seconds: int
    replenish_seconds: int
    replenish_every_hands: int
    cap_seconds: int

    def __post_init__(self) -> None:
        require_whole(self.first_hand_seconds, "timebank at the first hand (seconds)")
        require_whole(self.replenish_seconds, "timebank replenishment (seconds)")
        require_whole(self.replenish_every_hands, "hands between replenishments", minimum=1)
        require_whole(self.cap_seconds, "timebank cap (seconds)")
        if self.first_hand_seconds > self.cap_seconds:
            raise RuleError(
                f"the first-hand timebank {self.first_hand_seconds} s is above the cap {self.cap_seconds} s"
            )

    def balance_after_hand(self, balance_milliseconds: int, hands_dealt_in: int) -> int:
        """TB-03: the balance after the player's ``hands_dealt_in``-th hand at the event ended (what was used in that
        hand already deducted): replenished after every N-th hand, never above the cap (a balance already above the
        cap is left alone)."""
        require_whole(balance_milliseconds, "timebank balance (milliseconds)")
        require_whole(hands_dealt_in, "hands dealt in", minimum=1)
        if hands_dealt_in % self.replenish_every_hands:
            return balance_milliseconds
        cap = self.cap_seconds * 1000
        return max(balance_milliseconds, min(cap, balance_milliseconds + self.replenish_seconds * 1000))


MULTI_TABLE_FIRST_HAND_SECONDS: Final[int] = 15
MULTI_TABLE_CAP_SECONDS: Final[int] = 30
SIT_AND_GO_TIMEBANK: Final[TimebankRule] = TimebankRule(10, 5, 5, 20)
HEXAPRO_BELOW_25X_TIMEBANK: Final[TimebankRule] = TimebankRule(10, 5, 5, 20)
HEXAPRO_25X_AND_ABOVE_TIMEBANK: Final[TimebankRule] = TimebankRule(30, 5, 5, 60)


def multi_table_timebank(
    first_hand_seconds: int = MULTI_TABLE_FIRST_HAND_SECONDS, cap_seconds: int = MULTI_TABLE_CAP_SECONDS
) -> TimebankRule:
    """TB-02 / TB-08: a scheduled tournament's row, with its own first-hand and cap values; 5 s every 10th hand."""
    return TimebankRule(first_hand_seconds, 5, 10, cap_seconds)


def hexapro_timebank(multiplier: int | Fraction | Decimal) -> TimebankRule:
    """TB-02 / TB-06: the HexaPro row for the drawn prize multiplier (1.5x as ``Fraction(3, 2)`` or ``Decimal``)."""
    if isinstance(multiplier, bool) or not isinstance(multiplier, int | Fraction | Decimal) or not multiplier > 0:
        raise RuleError(f"a prize multiplier is a positive number, not {multiplier!r}")
    return HEXAPRO_25X_AND_ABOVE_TIMEBANK if multiplier >= 25 else HEXAPRO_BELOW_25X_TIMEBANK


class FinalStageStart(StrEnum):
    """When a tournament's final stage (extra reconnection time) begins (AMB-44)."""

    FINAL_TABLE = "final_table"
    IN_THE_MONEY = "in_the_money"


@dataclass(frozen=True, slots=True)
class FinalStageReconnect:
    """TRN-31 / AMB-44: the extra reconnection seconds (0 = none) and when they start to apply."""

    extra_seconds: int = 60
    starts: FinalStageStart = FinalStageStart.FINAL_TABLE

    def __post_init__(self) -> None:
        require_whole(self.extra_seconds, "extra reconnection time (seconds)")

    def applies(self, *, running_tables: int, remaining_players: int, paid_places: int) -> bool:
        """Whether the tournament is in its final stage."""
        require_whole(running_tables, "running tables")
        require_whole(remaining_players, "remaining players")
        require_whole(paid_places, "paid places")
        if self.starts is FinalStageStart.FINAL_TABLE:
            return running_tables <= 1
        return remaining_players <= paid_places

    def reconnect_seconds(
        self,
        *,
        decision_seconds: int,
        grace_seconds: int,
        running_tables: int,
        remaining_players: int,
        paid_places: int,
    ) -> int:
        """The time a disconnected player has to act: TB-07's normal decision time + grace (10 + 20 s by default),
        plus the extra time in the final stage."""
        base = require_whole(decision_seconds, "decision time (seconds)") + require_whole(
            grace_seconds, "reconnection grace (seconds)"
        )
        final = self.applies(
            running_tables=running_tables, remaining_players=remaining_players, paid_places=paid_places
        )
        return base + self.extra_seconds if final else base


def timebank_for(
    kind: EventKind,
    *,
    first_hand_seconds: int = MULTI_TABLE_FIRST_HAND_SECONDS,
    cap_seconds: int = MULTI_TABLE_CAP_SECONDS,
    multiplier: int | Fraction | Decimal | None = None,
) -> TimebankRule:
    """AMB-67: the TB-02 row of an event. ``first_hand_seconds`` / ``cap_seconds`` are the multi-table tournament's
    own values (TB-08); ``multiplier`` is required for HexaPro."""
    if kind is EventKind.MULTI_TABLE:
        return multi_table_timebank(first_hand_seconds, cap_seconds)
    if kind is EventKind.SIT_AND_GO:
        return SIT_AND_GO_TIMEBANK
    if kind is EventKind.HEXAPRO and multiplier is not None:
        return hexapro_timebank(multiplier)
    raise RuleError(f"no timebank row for {kind!r} without a multiplier")
