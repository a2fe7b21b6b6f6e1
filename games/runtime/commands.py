"""Validated client commands → domain services, and domain refusals → protocol error codes.

Used by the table socket (:mod:`games.runtime.consumers`) and the REST API (:mod:`games.api`) so both speak the same
error
codes. No rule lives here: every decision (whose turn, what is legal, buy-in limits, sitting out) is the service's;
this module only picks the service for a message and turns what it refuses into ``CommandRefused``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import psycopg.errors
from django.db import OperationalError

from games.runtime import inbox
from games.runtime.errors import NotAllowedNow
from games.runtime.protocol import ClientMessage

logger = logging.getLogger(__name__)


class CommandRefused(Exception):
    """A command the domain (or the protocol) refused. ``code``/``message`` go to the client; nothing changed."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


def refusal_from(error: Exception) -> CommandRefused:
    """The client-facing form of a domain, wallet or engine refusal (they all carry a readable message)."""
    from games.engine.actions import IllegalAction

    if isinstance(error, IllegalAction):
        return CommandRefused("illegal_action", str(error))
    code = getattr(error, "code", None)
    message = getattr(error, "message", None) or str(error)
    details = getattr(error, "details", None)
    return CommandRefused(
        code if isinstance(code, str) and code else "refused", message, details if isinstance(details, dict) else None
    )


def _refusable_errors() -> tuple[type[Exception], ...]:
    """Exception classes that mean "refused, nothing written" (as opposed to a server bug)."""
    from games.engine.actions import IllegalAction
    from wallet.errors import WalletError

    classes: list[type[Exception]] = [IllegalAction, WalletError]
    try:
        from games.runtime import errors as game_errors  # the domain's refusal hierarchy
    except ImportError:  # pragma: no cover - only while the domain services are being written
        return tuple(classes)
    base = getattr(game_errors, "TableError", None) or getattr(game_errors, "GameError", None)
    if isinstance(base, type) and issubclass(base, Exception):
        classes.append(base)
    return tuple(classes)


DEADLOCK_RETRIES = 2
"""How many times a command whose transaction PostgreSQL chose as a deadlock victim is run again."""


def _is_deadlock(error: BaseException) -> bool:
    return isinstance(error.__cause__, psycopg.errors.DeadlockDetected)


def service_call(service: Callable[..., Any], *arguments: Any, **keywords: Any) -> Any:
    """Run one service call, its refusals turned into :class:`CommandRefused`. A deadlock victim is run again: every
    service owns its (durable) transaction, so a rolled back attempt changed nothing and the next one starts clean.
    (The services take their locks in one order, ``games.runtime.locking``; this stays as a safety net.)"""
    for attempt in range(DEADLOCK_RETRIES + 1):
        try:
            return service(*arguments, **keywords)
        except _refusable_errors() as error:
            raise refusal_from(error) from error
        except OperationalError as error:
            if not _is_deadlock(error) or attempt == DEADLOCK_RETRIES:
                raise
            logger.warning("%s was a deadlock victim; running it again", getattr(service, "__name__", service))
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


ProductCommand = Callable[[Any, Any, dict[str, Any]], dict[str, Any]]
"""A product's handler of a table-socket command: ``(user, table, fields)`` → extra fields of the ``ok`` reply."""

_product_commands: dict[str, ProductCommand] = {}

OWNER_COMMANDS: set[str] = {"sit_out", "sit_in", "sit_out_next_big_blind", "client_seed"}
"""The table commands that change a table in play: with table actors on they go to the table's owner, which runs
their durable service ordered with its hand (``games.runtime.actor.TableCommand``); products add theirs through
``command_register(..., ordered_with_hand=True)``. ``act`` goes to the owner too. The rest (chat, which is numbered
above the hand log already; the stake queue; the player's settings) stay where the socket runs them."""


def command_register(message_type: str, handler: ProductCommand, *, ordered_with_hand: bool = False) -> None:
    """Make ``handler`` run the table-socket command ``message_type`` (products call this when their app is ready:
    the cash game registers ``seat_me``, ``leave`` and ``top_up``). The runtime knows no product's commands.
    ``ordered_with_hand``: the command changes a table in play (leaving, topping up), so with table actors on it is
    sent to the table's owner (:data:`OWNER_COMMANDS`), whose replies carry no extra fields."""
    _product_commands[message_type] = handler
    if ordered_with_hand:
        OWNER_COMMANDS.add(message_type)
    else:
        OWNER_COMMANDS.discard(message_type)


def execute(user: Any, table: Any, message: ClientMessage) -> dict[str, Any]:
    """Run one validated table-socket command for ``user`` at ``table``; returns extra fields for the ``ok`` reply.
    With table actors on, ``act`` and the :data:`OWNER_COMMANDS` are sent to the table's owner and answered by it
    (the same refusals: the owner runs the same services, :func:`execute_durably`). A command the table's product
    never takes is refused on either path before anything else (:func:`command_admitted`)."""
    if goes_to_the_owner(message.type):
        return table_owner_ask(table, user, message.type, message.fields)
    return execute_durably(user, table, message)


def plays_at_the_table(message_type: str) -> bool:
    """Whether a command of ``message_type`` changes the table in play: ``act`` and the :data:`OWNER_COMMANDS`
    (sitting out and in, the client seed, a product's leave and top-up). A closed table refuses them
    (:func:`closed_table_refusal`); with table actors on they go to the table's owner."""
    return message_type == "act" or message_type in OWNER_COMMANDS


def goes_to_the_owner(message_type: str) -> bool:
    """Whether a validated table-socket command of ``message_type`` is sent to the table's owner (table actors on:
    :func:`plays_at_the_table`) rather than run by its durable service where it arrived."""
    return inbox.actors_play_the_tables() and plays_at_the_table(message_type)


def command_admitted(table: Any, message_type: str) -> None:
    """Refuse, as ``not_allowed_now``, a table-socket command that ``table``'s product never takes (its policy's
    ``command_refusal``: a tournament table takes none of the cash tables' seating, leaving and top-up commands and
    settings); nothing changes. Pure (the table's kind and the command's type): asked before a command is sent to the
    table's owner, so it is answered at once, also at a closed table, which has no owner to answer it."""
    from games.runtime.policy import policy_for

    refusal = policy_for(table).command_refusal(message_type)
    if refusal is not None:
        raise CommandRefused(NotAllowedNow.code, refusal)


def execute_durably(user: Any, table: Any, message: ClientMessage) -> dict[str, Any]:
    """Run one validated table-socket command by its durable service (the per-action path; a table owner runs the
    :data:`OWNER_COMMANDS` it receives this way), once the table's product admits it (:func:`command_admitted`)."""
    from games.runtime.hands import hand_act
    from games.runtime.sitting_out import (
        player_settings_update,
        seat_sit_in,
        seat_sit_out,
        seat_sit_out_next_big_blind,
    )

    command_admitted(table, message.type)
    fields = message.fields
    if message.type == "act":
        service_call(hand_act, table, user, fields["action"], fields.get("amount"), hand_id=fields.get("hand_id"))
        return {}
    if message.type == "take_seat":
        raise seats_are_assigned()
    if message.type in _product_commands:
        return _product_commands[message.type](user, table, fields)
    if message.type == "sit_out":
        service_call(seat_sit_out, user, table)
        return {}
    if message.type == "sit_in":
        service_call(seat_sit_in, user, table, post_out_of_position=fields.get("post_big_blind", False))
        return {}
    if message.type == "sit_out_next_big_blind":
        service_call(seat_sit_out_next_big_blind, user, table, fields["enabled"])
        return {}
    if message.type == "auto_top_up":
        service_call(player_settings_update, user, auto_top_up=fields["enabled"])
        return {}
    if message.type == "client_seed":
        from games.runtime.fairness import seat_client_seed_set

        service_call(seat_client_seed_set, user, table, fields["seed"])
        return {}
    if message.type == "chat":
        from games.chat.services import chat_message_post

        return {"sequence": service_call(chat_message_post, user, table, fields["text"])}
    raise CommandRefused("unknown_type", f"unknown message type {message.type!r}")


def table_owner_ask(table: Any, user: Any, message_type: str, fields: dict[str, Any]) -> dict[str, Any]:
    """With table actors on: send the validated command to the table's owner (its Redis stream) and wait for its
    answer; a refusal is raised as the :class:`CommandRefused` the durable path would raise (the owner applies the same
    rules and sends back the same code and message), no answer in time as ``table_unavailable``. A command the
    table's product never takes is refused here at once, never sent (:func:`command_admitted`).

    The message enters the stream only while a runtime process holds the table's lease (one Redis step with the
    append, :func:`inbox.message_send_if_owned`). When none does, and only then, the table's status is read: a closed
    table, which will never have an owner, refuses at once (:func:`closed_table_refusal`); an open one (between two
    owners, or not claimed yet) gets the message to wait for its next owner."""
    command_admitted(table, message_type)
    table_id, user_id = int(table.pk), getattr(user, "pk", None)
    reply = inbox.message_send_if_owned(table_id, user_id, message_type, dict(fields))
    if reply is None:
        refusal = refusal_if_closed(table, user, message_type)
        if refusal is not None:
            raise refusal
        reply = inbox.message_send(table_id, user_id, message_type, dict(fields))
    return _answer_of(reply)


async def table_owner_ask_on_the_loop(
    table: Any, user: Any, message_type: str, fields: dict[str, Any]
) -> dict[str, Any]:
    """:func:`table_owner_ask` for a table socket's event loop: the same message and answers without a worker thread
    (a player's action is the commonest frame a table socket handles); the status read of a table nobody owns runs in
    one."""
    from channels.db import database_sync_to_async

    command_admitted(table, message_type)
    table_id, user_id = int(table.pk), getattr(user, "pk", None)
    reply = await inbox.message_send_if_owned_on_the_loop(table_id, user_id, message_type, dict(fields))
    if reply is None:
        refusal = await database_sync_to_async(refusal_if_closed, thread_sensitive=False)(table, user, message_type)
        if refusal is not None:
            raise refusal
        reply = await inbox.message_send_on_the_loop(table_id, user_id, message_type, dict(fields))
    return _answer_of(reply)


def _answer_of(reply: inbox.Reply) -> dict[str, Any]:
    """The ``ok`` reply's extra fields (none: the owner's replies carry none), or the owner's refusal raised."""
    if not reply.ok:
        raise CommandRefused(reply.code, reply.message, reply.details or None)
    return {}


TABLE_CLOSED = "table_closed"
"""The refusal code of a command that plays at a table (:func:`plays_at_the_table`) sent to a table that has closed."""

TABLE_CLOSED_MESSAGE = "This table has closed: nothing more is played here."

MOVES_FOLLOWED = 20
"""The most tables a closed table's refusal follows a moved player through (moved on again from a table that closed in
turn) to the table where they play now, two reads each: a tournament moves a player a few times at most."""


def closed_table_refusal(table: Any, user: Any, message_type: str) -> CommandRefused:
    """The answer to a command that plays at ``table`` (:func:`plays_at_the_table`), a table that has closed (broken up
    or its tournament over; a cash table closed by staff): nothing is played there any more and nothing changes. A
    command the table's product never takes gets its own refusal first, as at an open table (:func:`command_admitted`);
    any other ``table_closed``, naming the table where the player now plays when they were moved from this one
    (``to_table``, :func:`table_moved_to`). Asked only of a table known to be closed: its reads are off the path of a
    table in play."""
    try:
        command_admitted(table, message_type)
    except CommandRefused as refusal:
        return refusal
    moved_to = table_moved_to(int(table.pk), getattr(user, "pk", None))
    if moved_to is None:
        return CommandRefused(TABLE_CLOSED, TABLE_CLOSED_MESSAGE)
    return CommandRefused(
        TABLE_CLOSED,
        f"This table has closed: you play on at {moved_to.name}.",
        {"to_table": moved_to.pk},
    )


def refusal_if_closed(table: Any, user: Any, message_type: str) -> CommandRefused | None:
    """:func:`closed_table_refusal` when ``table`` has closed (or no longer exists), else None. One read of the table's
    status: asked only when no runtime process holds the table's lease."""
    from games.models import Table, TableStatus

    status = Table.objects.filter(pk=table.pk).values_list("status", flat=True).first()
    if status is not None and status != TableStatus.CLOSED:
        return None
    return closed_table_refusal(table, user, message_type)


def table_closed_in(snapshot: dict[str, Any]) -> bool:
    """Whether a table ``snapshot`` (``views.table_snapshot``) shows its table closed."""
    from games.models import TableStatus

    table = snapshot.get("table")
    return isinstance(table, dict) and table.get("status") == TableStatus.CLOSED


def table_moved_to(table_id: int, user_id: int | None) -> Any | None:
    """The open table where the player ``user_id`` sits now after being moved away from table ``table_id``, or None
    (never moved from there; knocked out or gone since). A move is the last event at a table that sends the player to
    another (a tournament's ``player_moved``: its ``user_id`` and ``to_table``); a player moved on again from a table
    that closed in turn is followed there, up to :data:`MOVES_FOLLOWED` tables."""
    from games.models import HandEvent, Seat, Table, TableStatus

    if user_id is None:
        return None
    visited = {int(table_id)}
    current = int(table_id)
    for _ in range(MOVES_FOLLOWED):
        move = (
            HandEvent.objects.filter(table_id=current, payload__user_id=user_id, payload__has_key="to_table")
            .order_by("-sequence")
            .values_list("payload", flat=True)
            .first()
        )
        if move is None or not isinstance(move.get("to_table"), int) or move["to_table"] in visited:
            return None
        current = move["to_table"]
        visited.add(current)
        destination = Table.objects.filter(pk=current).first()
        if destination is None:
            return None
        if destination.status != TableStatus.CLOSED:
            return destination if Seat.objects.filter(table=destination, user_id=user_id).exists() else None
    return None


SEATS_ARE_ASSIGNED = "seats_are_assigned"
"""The refusal code of the retired ways to pick a table or a seat (the REST join, the socket's ``take_seat``)."""


def seats_are_assigned() -> CommandRefused:
    """The answer to a client that picks a table or a seat: players choose a game and stake and are assigned a table
    (CASH-04, LOB-01); nothing is changed."""
    return CommandRefused(
        SEATS_ARE_ASSIGNED,
        "Seats are assigned, not picked: choose a game and stake in the lobby (Seat me), or send seat_me on a table's "
        "socket, or POST /api/games/stakes/<stake id>/queue/ — you are seated at the table the stake queue assigns, "
        "or queued.",
    )


def _connection_post(user: Any, table: Any, message_type: str) -> None:
    """With table actors on: the connection change goes to the table's owner as a message, not waited for (the owner
    records it with the durable service below and switches the clock of the hand it holds, CASH-22)."""
    try:
        inbox.message_post(int(getattr(table, "pk", table)), getattr(user, "pk", None), message_type, {})
    except Exception:  # the owner's clock still asks the sockets' presence when it runs out
        logger.exception("could not report the connection of %s at %s to its owner", user, table)


def connection_restored(user: Any, table: Any) -> None:
    """Tell the domain the player has a socket on the table again (ends a disconnection grace, CASH-22)."""
    from games.runtime.clocks import connection_report_may_change, player_connection_restored

    if inbox.actors_play_the_tables():
        _connection_post(user, table, "connection_restored")
        return
    try:
        # Without table actors the seat row is the whole truth: a player already connected (nearly every socket
        # opened) costs one read, not the service's locks.
        if connection_report_may_change(table.pk, user.pk, restored=True):
            player_connection_restored(user, table)
    except _refusable_errors():
        logger.debug("connection restored for %s at %s refused (not seated)", user, table)
    except Exception:  # the socket still serves the player; the domain's clock decides without this report
        logger.exception("could not report the connection of %s at %s", user, table)


def connection_lost(user: Any, table: Any) -> None:
    """Tell the domain the player's last socket on the table closed (starts the disconnection grace, CASH-22)."""
    from games.runtime.clocks import connection_report_may_change, player_connection_lost

    if inbox.actors_play_the_tables():
        _connection_post(user, table, "connection_lost")
        return
    try:
        # A spectator's socket, or a seat already marked disconnected: one read, not the service's locks.
        if connection_report_may_change(table.pk, user.pk, restored=False):
            player_connection_lost(user, table)
    except _refusable_errors():
        logger.debug("connection lost for %s at %s refused (not seated)", user, table)
    except Exception:
        logger.exception("could not report the disconnection of %s at %s", user, table)
