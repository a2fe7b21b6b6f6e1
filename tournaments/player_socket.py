"""The player socket, ``/ws/player/``: one per page of a logged-in player, wherever they are on the site (the lobby,
the cashier, a UTH table, a tournament page). It carries the notices of :mod:`poker_site.core.player_notices`: "take
your seat" when a tournament, Sit & Go or HexaPro game seats the player or moves them (TRN-26, LOB-05), and the cash
balance whenever a transfer changes it (the header shows it live).

On connect it sends ``hello``: the tournament tables the player is seated at now (``seats``: ``table_id``,
``tournament_id``, ``tournament_name``, ``tournament_kind``, ``reason``: ``start`` or ``late_registration`` for a seat
of the last minute, else ``playing``; ``deal_at``: the table's next deal when it is still to come) and the cash balance
(``balance_cents``), so a notice sent while the page was loading (or while the socket reconnected: the last registrant
of a Sit & Go is on their way to the page the registration form redirects to) is not lost.

Thin: the readings are two queries in a worker thread; the notices come from the channel-layer group of the player
(:func:`poker_site.core.player_notices.player_group`). An anonymous visitor's socket is closed at once (4401).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Final

from django.db.models import QuerySet
from django.utils import timezone

from games.runtime.consumers import CLOSE_SIGNED_OUT, ClientProtocolConsumer, database_sync_to_async
from games.runtime.protocol import ClientMessage, FieldRule
from poker_site.core.player_notices import player_group
from poker_site.core.prepared_queries import PreparedQuery
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from wallet.services import player_cash_balance

JUST_SEATED: Final[timedelta] = timedelta(seconds=60)
"""A seat this new is still "starting": a page opened now (the one the last registrant of a Sit & Go lands on after
registering) calls the player to it with a countdown, as the notice would have."""

PLAYER_MESSAGES: Final[dict[str, dict[str, FieldRule]]] = {"ping": {}, "hello": {}}
"""What the client may send: ``ping`` (answered ``pong``) and ``hello`` (the ``hello`` again, e.g. after a sleep)."""


def _reason(started_at: datetime | None, registered_at: datetime | None, now: datetime) -> str:
    """``start`` / ``late_registration`` while the seat is new (the page calls the player to it with a countdown),
    else ``playing`` (the page only offers the table)."""
    recently = now - JUST_SEATED
    if registered_at is not None and started_at is not None and registered_at > started_at and registered_at > recently:
        return "late_registration"
    if started_at is not None and started_at > recently:
        return "start"
    return "playing"


def _seats_playing(user_id: int) -> QuerySet[TournamentEntry, tuple[Any, ...]]:
    return (
        TournamentEntry.objects.filter(
            user_id=user_id,
            status=EntryStatus.PLAYING,
            table__isnull=False,
            tournament__status=TournamentStatus.RUNNING,
        )
        .order_by("pk")
        .values_list(
            "table_id",
            "tournament_id",
            "tournament__name",
            "tournament__kind",
            "tournament__started_at",
            "registered_at",
            "table__next_hand_at",
        )
    )


# Every page a player opens opens a player socket: its readings compiled once per process.
_SEATS_PLAYING = PreparedQuery(_seats_playing, [], numbers=["user_id"])


def player_hello(user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """The ``hello`` reading of player ``user_id`` (blocking: call it in a worker thread)."""
    moment = now or timezone.now()
    seats = [
        {
            "table_id": table_id,
            "tournament_id": tournament_id,
            "tournament_name": name,
            "tournament_kind": kind,
            "reason": _reason(started_at, registered_at, moment),
            "deal_at": next_hand_at.isoformat() if next_hand_at is not None and next_hand_at > moment else None,
        }
        for table_id, tournament_id, name, kind, started_at, registered_at, next_hand_at in _SEATS_PLAYING.rows(
            user_id=user_id
        )
    ]
    return {"type": "hello", "seats": seats, "balance_cents": player_cash_balance(user_id)}


class PlayerConsumer(ClientProtocolConsumer):
    """One page's player socket (see the module docstring)."""

    allowed_messages = PLAYER_MESSAGES

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.user_id: int | None = user.pk if user is not None and user.is_authenticated else None
        if self.user_id is None:
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        await self.channel_layer.group_add(player_group(self.user_id), self.channel_name)
        await self.accept()
        await self.send_hello()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "user_id", None) is not None:
            assert self.user_id is not None
            await self.channel_layer.group_discard(player_group(self.user_id), self.channel_name)

    async def handle(self, message: ClientMessage) -> None:
        if message.type == "ping":
            await self.send_message({"type": "pong", "request_id": message.request_id})
        elif message.type == "hello":
            await self.send_hello(message.request_id)

    async def send_hello(self, request_id: str | None = None) -> None:
        assert self.user_id is not None
        hello = await database_sync_to_async(player_hello)(self.user_id)
        await self.send_message({**hello, "request_id": request_id})

    async def player_notice(self, message: dict[str, Any]) -> None:
        """A notice for this player (``poker_site.core.player_notices``): forwarded as ``{"type": "notice", ...}``."""
        await self.send_message({**message["notice"], "type": "notice"})
