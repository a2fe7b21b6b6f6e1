"""A tournament bot learns its seat as a player's pages do (LOB-05, TRN-26, TRN-35): from the player socket's
``hello`` and ``take_your_seat`` notices, reading the tournament's API no more often than the tournament page does
(every four seconds), and only to learn that it is out or that the tournament is over."""

from __future__ import annotations

import asyncio
import json
import time
from random import Random
from typing import Any

import pytest

from games.bots import tournament as tournament_bot
from games.bots.client import BotSettings, BotStats
from games.bots.tournament import TournamentBot

TOURNAMENT = 41


class QuietAfter:
    """A player socket that sends ``messages`` and then nothing."""

    def __init__(self, *messages: dict[str, Any]) -> None:
        self.messages = [json.dumps(message) for message in messages]

    async def recv(self) -> str:
        if self.messages:
            return self.messages.pop(0)
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")


def a_bot() -> TournamentBot:
    settings = BotSettings(base_url="http://site.invalid")
    return TournamentBot("bot", "cookie", TOURNAMENT, settings, BotStats(), Random(1))


def api_reads(monkeypatch: pytest.MonkeyPatch, *views: dict[str, Any]) -> list[float]:
    """Answer the bot's API reads with ``views`` in turn (the last one again); returns the moments of the reads."""
    moments: list[float] = []

    def view(base_url: str, tournament_id: int, session_cookie: str, timeout: float = 10) -> dict[str, Any]:
        moments.append(time.monotonic())
        return views[min(len(moments), len(views)) - 1]

    monkeypatch.setattr(tournament_bot, "tournament_view", view)
    return moments


def test_a_seat_named_in_the_hello_is_taken_without_reading_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = api_reads(monkeypatch, {"status": "running", "viewer": {"table_id": 99}})
    hello = {
        "type": "hello",
        "seats": [{"table_id": 7, "tournament_id": 3}, {"table_id": 8, "tournament_id": TOURNAMENT}],
    }

    table = asyncio.run(a_bot().called_to_a_seat(QuietAfter(hello), time.monotonic() + 10))

    assert table == 8
    assert reads == []


def test_the_notice_of_this_tournament_calls_the_bot_and_other_tournaments_notices_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads = api_reads(monkeypatch, {"status": "running", "viewer": {"table_id": None}})
    socket = QuietAfter(
        {"type": "hello", "seats": []},
        {"type": "notice", "kind": "balance", "cents": 500},
        {"type": "notice", "kind": "take_your_seat", "tournament_id": 3, "table_id": 7},
        {"type": "notice", "kind": "take_your_seat", "tournament_id": TOURNAMENT, "table_id": 12},
    )

    table = asyncio.run(a_bot().called_to_a_seat(socket, time.monotonic() + 10))

    assert table == 12
    assert reads == []


def test_a_quiet_socket_reads_the_api_at_the_pages_pace_until_the_bot_is_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_bot, "PAGE_POLL_SECONDS", 0.2)
    waiting = {"status": "running", "viewer": {"status": "registered", "table_id": None}}
    reads = api_reads(monkeypatch, waiting, waiting, {"status": "running", "viewer": {"status": "busted"}})
    bot = a_bot()
    began = time.monotonic()

    table = asyncio.run(bot.called_to_a_seat(QuietAfter({"type": "hello", "seats": []}), began + 10))

    assert table is None
    assert bot.out
    assert len(reads) == 3
    gaps = [later - earlier for earlier, later in zip([began, *reads], reads, strict=False)]
    assert all(gap >= 0.19 for gap in gaps), gaps


def test_a_seat_whose_notice_was_lost_is_found_by_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_bot, "PAGE_POLL_SECONDS", 0.05)
    api_reads(monkeypatch, {"status": "running", "viewer": {"status": "playing", "table_id": 31}})

    table = asyncio.run(a_bot().called_to_a_seat(QuietAfter({"type": "hello", "seats": []}), time.monotonic() + 10))

    assert table == 31


def test_the_bot_stops_waiting_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = api_reads(monkeypatch, {"status": "running", "viewer": {"table_id": None}})
    bot = a_bot()
    began = time.monotonic()

    table = asyncio.run(bot.called_to_a_seat(QuietAfter(), began + 0.3))

    assert table is None
    assert not bot.out
    assert time.monotonic() - began < 2
    assert reads == []


def test_a_stopped_bot_ends_its_wait_within_about_two_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    api_reads(monkeypatch, {"status": "running", "viewer": {"table_id": None}})
    bot = a_bot()

    async def stop_soon_and_wait() -> int | None:
        asyncio.get_running_loop().call_later(0.1, bot.stop)
        return await bot.called_to_a_seat(QuietAfter({"type": "hello", "seats": []}), time.monotonic() + 60)

    began = time.monotonic()
    table = asyncio.run(stop_soon_and_wait())

    assert table is None
    assert time.monotonic() - began < 3
