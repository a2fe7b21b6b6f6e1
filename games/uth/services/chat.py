"""Chat at an Ultimate Texas Hold'em table (UTH-33, issue 22): "Players can chat with other players".

The rules, the rate limit, the moderation (a warning, then the chat disabled) and the staff mutes are the table chat's
(:mod:`games.chat.services`). Only players seated at the UTH table write; watchers read along. An accepted line is a
public ``chat_message`` event of the table's log (``UthEvent``, numbered like every event, so sockets resync by it),
stored with the round in play; a refused line raises :class:`~games.chat.errors.ChatRefused` and stores nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games.chat.errors import ChatRefused
from games.chat.services import CHAT_EVENT, chat_line_admit
from games.uth.models import UthSeat
from games.uth.services.common import EventLog, active_round, now_or, table_or_refuse
from poker_site.accounts.models import User


def uth_chat_message_post(user: User, table_id: int, text: str, *, now: datetime | None = None) -> int:
    """Post ``text`` as ``user``'s chat line at the UTH table ``table_id``; returns the line's sequence number.
    Refused (nothing stored) for a player not seated there, and as :func:`games.chat.services.chat_line_admit` says."""
    moment = now_or(now)
    table = table_or_refuse(table_id)
    if not _seated(user, table.pk):
        raise _not_seated()
    line = chat_line_admit(user, text, moment)
    return _uth_chat_line_store(user, table.pk, line, moment)


def _seated(user: User, table_id: int) -> bool:
    return UthSeat.objects.filter(table_id=table_id, player=user, left_at__isnull=True).exists()


def _not_seated() -> ChatRefused:
    return ChatRefused("chat_not_seated", "Only the players seated at this table can chat; watchers can read along.")


@transaction.atomic(durable=True)
def _uth_chat_line_store(user: User, table_id: int, line: str, moment: datetime) -> int:
    if not _seated(user, table_id):  # left the table since the check
        raise _not_seated()
    payload = {"user_id": user.pk, "name": user.table_name, "text": line}
    return EventLog(table_id).add(CHAT_EVENT, payload, round_=active_round(table_id), at=moment)


def uth_chat_of_round(round_id: int) -> list[dict[str, object]]:
    """The chat lines posted while the round ``round_id`` was in play, in order (the staff round page)."""
    from games.uth.models import UthEvent

    rows = UthEvent.objects.filter(round_id=round_id, kind=CHAT_EVENT).order_by("sequence")
    return [
        {
            "sequence": row.sequence,
            "at": row.created_at,
            "user_id": row.payload.get("user_id"),
            "name": row.payload.get("name", ""),
            "text": row.payload.get("text", ""),
        }
        for row in rows
    ]
