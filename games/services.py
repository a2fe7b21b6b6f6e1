"""The games app's services (``<entity>_<verb>``), in one import: ``from games.services import hand_act``.

They live where they belong: the one table runtime every product shares in ``games/runtime/`` (hands, clocks, seat
states, the event log, sitting out, the snapshot, recovery, the policy interface), the cash game's policy and services
in ``games/cash/`` (seating and the queue, buy-in limits, the cashier, closing tables, the catalogue); the tournament
policy is ``tournaments/table_policy.py``.

Every top-level service owns its transaction (``@transaction.atomic(durable=True)``), locks the table row before
anything else (then seats in primary-key order; wallet accounts last), raises a
:class:`~games.runtime.errors.TableError` with a clear message when a request is refused — and then nothing has
changed — and announces committed events through ``games.runtime.realtime`` after commit.

Write side:
  table_open(stake, *, name=None, now=None) -> Table
  table_close(table, *, reason, now=None) -> Table  (between hands at once, else when the hand ends)
  table_join_queue(user, stake, buy_in, *, post_out_of_position=False, banzai_choice=None, now=None) -> SeatingRequest
      (the one way players and bots sit down at a cash table: seats are assigned, CASH-04)
  table_leave_queue(user, stake, *, now=None) -> int
  seat_take(user, table, amount, *, seat_number=None, post_out_of_position=False, banzai_choice=None, now=None) -> Seat
      (no player-facing path calls it: set-ups that need chosen seats, tests and benchmarks)
  seat_top_up(user, table, amount, *, idempotency_key=None, now=None) -> Seat
  seat_leave(user, table, *, now=None) -> Seat
  seat_sit_out(user, table, *, now=None) -> Seat
  seat_sit_in(user, table, *, post_out_of_position=False, now=None) -> Seat
  seat_sit_out_next_big_blind(user, table, enabled, *, now=None) -> Seat
  player_settings_update(user, *, auto_top_up=None, sit_out_next_big_blind=None) -> None
  hand_start(table, *, now=None, shuffler=None) -> Hand | None
  hand_act(table, user, action_type, amount=None, *, hand_id=None, now=None) -> Hand
  hand_timeout(hand_id, *, now=None) -> bool
  hand_cancel(hand_id, *, reason=..., now=None) -> bool
  hands_recover_unfinished(*, now=None) -> list[int]
  player_connection_lost(user, table, *, now=None) -> bool
  player_connection_restored(user, table, *, now=None) -> bool
  seed_stakes() -> int

Read side:
  table_snapshot(table, viewer) -> dict
  table_events_since(table, sequence, viewer, *, limit=None) -> list[dict]
  seat_buy_in_limits(user, table, *, banzai_choice=None, now=None) -> BuyInLimits
"""

from games.cash.buy_in import BanzaiChoice, BuyInLimits
from games.cash.catalog import seed_stakes
from games.cash.seating import (
    seat_buy_in_limits,
    seat_leave,
    seat_take,
    seat_top_up,
    stake_queues_drain,
    table_join_queue,
    table_leave_queue,
    table_open,
)
from games.cash.table_closing import table_close
from games.runtime.clocks import player_connection_lost, player_connection_restored
from games.runtime.errors import (
    ActionRefused,
    AlreadySeated,
    BanzaiExcluded,
    BuyInRefused,
    InsufficientBalance,
    NotAllowedNow,
    NotFound,
    NotSeated,
    NotYourTurn,
    ReasonRequired,
    SeatUnavailable,
    TableError,
    TableLimitReached,
)
from games.runtime.hands import hand_act, hand_start, hand_timeout
from games.runtime.recovery import hand_cancel, hands_recover_unfinished
from games.runtime.sitting_out import (
    player_settings_update,
    seat_sit_in,
    seat_sit_out,
    seat_sit_out_expire,
    seat_sit_out_next_big_blind,
)
from games.runtime.views import table_events_since, table_snapshot

__all__ = [
    "ActionRefused",
    "AlreadySeated",
    "BanzaiChoice",
    "BanzaiExcluded",
    "BuyInLimits",
    "BuyInRefused",
    "InsufficientBalance",
    "NotAllowedNow",
    "NotFound",
    "NotSeated",
    "NotYourTurn",
    "ReasonRequired",
    "SeatUnavailable",
    "TableError",
    "TableLimitReached",
    "hand_act",
    "hand_cancel",
    "hand_start",
    "hand_timeout",
    "hands_recover_unfinished",
    "player_connection_lost",
    "player_connection_restored",
    "player_settings_update",
    "seat_buy_in_limits",
    "seat_leave",
    "seat_sit_in",
    "seat_sit_out",
    "seat_sit_out_expire",
    "seat_sit_out_next_big_blind",
    "seat_take",
    "seat_top_up",
    "seed_stakes",
    "stake_queues_drain",
    "table_close",
    "table_events_since",
    "table_join_queue",
    "table_leave_queue",
    "table_open",
    "table_snapshot",
]
