"""A demo bot the table sits out while it is connected (it missed a turn while its socket was away, CASH-22) sits in
again at once, as after a snapshot that shows it sitting out: waiting for one, it sat out for good, and its table,
left with two players, waited for a third (CASH-03) — every table of the live-table benchmark's second round stalled
so on a slow machine (issue 27). A busted bot still re-buys or leaves instead (its own tests)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.realtime.test_busted_bots_rebuy_or_leave_their_seat import seat_event, seated_bot, step


def a_hand_ends_with(seat_change: dict[str, Any]) -> list[str]:
    """What a seated, connected bot sends at its next steps after a hand that ends with ``seat_change`` to its seat."""
    bot, socket = seated_bot(auto_top_up=True, stack=600)
    events = [{"sequence": 11, "type": "hand_started"}, {"sequence": 12, "type": "hand_ended"}, seat_change]
    asyncio.run(bot.on_events({"type": "events", "events": events}))
    step(bot)
    step(bot)
    return socket.types()


def test_a_bot_sat_out_after_a_hand_while_connected_asks_to_sit_in_once() -> None:
    sent = a_hand_ends_with(seat_event(13, "seat_sat_out", "sitting_out", stack=600, sit_out_reason="disconnected"))

    assert sent.count("sit_in") == 1


def test_a_bot_whose_seat_stays_in_play_does_not_ask_to_sit_in() -> None:
    sent = a_hand_ends_with(seat_event(13, "seat_topped_up", "playing", stack=1000, amount=400))

    assert "sit_in" not in sent
