""" "Take your seat": the player-socket notice (:mod:`poker_site.core.player_notices`) sent after commit to each
player the tournament services seat or move (TRN-03 start, TRN-35 a filled Sit & Go, TRN-08 a late registration,
HEX-07 a HexaPro game, TRN-26 a move), so a player elsewhere on the site is brought to the table (LOB-05)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from poker_site.core.player_notices import player_notify_after_commit
from tournaments.models import Tournament


def seat_notice(
    tournament: Tournament,
    table_id: int,
    reason: str,
    *,
    deal_at: datetime | None = None,
    from_table: int | None = None,
) -> dict[str, Any]:
    """The ``take_your_seat`` notice for a player seated at ``table_id`` (``reason``: start, late_registration,
    moved)."""
    return {
        "kind": "take_your_seat",
        "table_id": int(table_id),
        "tournament_id": int(tournament.pk),
        "tournament_name": tournament.name,
        "tournament_kind": str(tournament.kind),
        "reason": reason,
        "from_table": from_table,
        "deal_at": deal_at.isoformat() if deal_at is not None else None,
    }


def seats_announce_after_commit(
    tournament: Tournament,
    seated: Iterable[tuple[int, int]],
    reason: str,
    *,
    deal_at: datetime | None = None,
    from_table: int | None = None,
) -> None:
    """Tell each ``(user_id, table_id)`` of ``seated`` to take their seat, once the transaction commits."""
    player_notify_after_commit(
        (user_id, seat_notice(tournament, table_id, reason, deal_at=deal_at, from_table=from_table))
        for user_id, table_id in seated
    )
