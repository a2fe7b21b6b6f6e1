"""From a validated socket message to a service call (the consumer stays thin). Runs in a worker thread."""

from __future__ import annotations

from typing import Any

from games.uth import services
from games.uth.protocol import UthMessage
from poker_site.accounts.models import User


def execute(user: User, table_id: int, message: UthMessage) -> dict[str, Any]:
    """Run the command; raises :class:`games.uth.errors.UthRefused` (or, for ``chat``,
    :class:`games.chat.errors.ChatRefused`) when the service refuses it."""
    fields = message.fields
    if message.type == "take_seat":
        services.uth_seat_take(user, table_id)
    elif message.type == "leave":
        return {"returned": services.uth_seat_leave(user, table_id)}
    elif message.type == "bet":
        services.uth_bet_place(user, table_id, fields["spot"], fields["amount"])
    elif message.type == "double":
        services.uth_bet_double(user, table_id)
    elif message.type == "repeat":
        services.uth_bet_repeat(user, table_id)
    elif message.type == "undo":
        services.uth_bet_undo(user, table_id)
    elif message.type == "clear":
        services.uth_bet_clear(user, table_id)
    elif message.type == "decide":
        services.uth_decide(user, table_id, fields["decision"])
    elif message.type == "chat":
        return {"sequence": services.uth_chat_message_post(user, table_id, fields["text"])}
    else:  # pragma: no cover - the protocol only lets known commands through
        raise AssertionError(f"not a command: {message.type}")
    return {}
