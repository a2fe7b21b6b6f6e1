"""The cash game's client commands: the stake queue (CASH-04/05), leaving (CASH-08), topping up (CASH-15) and the
buy-in dialog (LOB-05), for the table socket (registered with :func:`games.runtime.commands.command_register` when the
app is ready) and the REST API (:mod:`games.api`). As in :mod:`games.runtime.commands`, no rule lives here: each
command picks its service and turns what it refuses into ``CommandRefused``.
"""

from __future__ import annotations

from typing import Any

from games.cash.buy_in import BuyInLimits, player_stake_buy_in_limits
from games.cash.lobby import queue_answer
from games.cash.seating import (
    seat_buy_in_limits,
    seat_leave,
    seat_top_up,
    table_join_queue,
    table_leave_queue,
)
from games.runtime.commands import CommandRefused, command_register, service_call


def buy_in_limits(user: Any, table: Any) -> dict[str, Any]:
    """What ``user`` may buy in for at ``table`` now and why (the buy-in dialog, LOB-05): the ratholing limits of a
    table they left (CASH-11..14), or the Banzai Resume and Reset amounts (CASH-30/31)."""
    return _limits_answer(service_call(seat_buy_in_limits, user, table))


def stake_buy_in_limits(user: Any, stake: Any) -> dict[str, Any]:
    """What ``user`` may buy in for when asking to play ``stake`` now (the lobby's buy-in dialog, LOB-05): the
    ratholing limits of the table of the stake they left (CASH-11..14), the Banzai Resume and Reset amounts
    (CASH-30/31), or the stake's range (CASH-10). The same answer as :func:`buy_in_limits`."""
    return _limits_answer(service_call(player_stake_buy_in_limits, int(user.pk), stake))


def _limits_answer(limits: BuyInLimits) -> dict[str, Any]:
    return {
        "minimum": limits.minimum,
        "maximum": limits.maximum,
        "kind": limits.kind,
        "rule": limits.rule,
        "returning_stack": limits.returning_stack,
        "banzai_resume_stack": limits.banzai_resume_stack,
        "banzai_resets_left": limits.banzai_resets_left,
        "banzai_reset_amount": limits.banzai_reset_amount,
    }


def join_stake_queue(
    user: Any,
    stake: Any,
    buy_in: int,
    *,
    post_big_blind: bool = False,
    banzai_choice: str | None = None,
    from_table: Any | None = None,
) -> Any:
    """Ask to play ``stake`` (CASH-04/05): seated at an assigned table, or queued; returns the seating request.
    ``from_table``: the table whose page asked (a player seated there is refused ``already_seated``)."""
    return service_call(
        table_join_queue,
        user,
        stake,
        buy_in,
        post_out_of_position=post_big_blind,
        banzai_choice=banzai_choice,
        from_table=from_table,
    )


def leave_stake_queue(user: Any, stake: Any) -> int:
    """Leave the queue of ``stake``; how many requests ended."""
    return int(service_call(table_leave_queue, user, stake))


def leave_table(user: Any, table: Any) -> None:
    """Leave ``table``: at once between hands, otherwise when the hand ends (the domain decides)."""
    service_call(seat_leave, user, table)


def _seat_me(user: Any, table: Any, fields: dict[str, Any]) -> dict[str, Any]:
    if table.stake_id is None:
        raise CommandRefused("not_allowed_now", "Seats at a tournament table are assigned by the tournament.")
    seating = join_stake_queue(
        user,
        table.cash_stake,
        fields["buy_in"],
        post_big_blind=fields.get("post_big_blind", False),
        banzai_choice=fields.get("banzai_choice"),
        from_table=table,
    )
    return queue_answer(seating)


def _leave(user: Any, table: Any, fields: dict[str, Any]) -> dict[str, Any]:
    leave_table(user, table)
    return {}


def _top_up(user: Any, table: Any, fields: dict[str, Any]) -> dict[str, Any]:
    service_call(seat_top_up, user, table, fields["amount"])
    return {}


def cash_commands_register() -> None:
    """Register the cash table-socket commands with the runtime (the games app's ``ready``)."""
    command_register("seat_me", _seat_me)
    command_register("leave", _leave, ordered_with_hand=True)
    command_register("top_up", _top_up, ordered_with_hand=True)
