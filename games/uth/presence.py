"""Which sockets a player has open on a UTH table, so only the *last* one closing counts as a disconnection (UTH-38).

The same mechanism as the cash tables' (games/runtime/presence.py), under its own key namespace.
"""

from __future__ import annotations

from games.runtime.presence import HEARTBEAT_SECONDS, STALE_SECONDS, Presence

__all__ = ["HEARTBEAT_SECONDS", "STALE_SECONDS", "connected", "disconnected", "presence_key"]

uth_table_presence = Presence("uth-presence")
presence_key = uth_table_presence.key
connected = uth_table_presence.connected
disconnected = uth_table_presence.disconnected
