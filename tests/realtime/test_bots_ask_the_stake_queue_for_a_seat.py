"""Bots sit down as players do, through the stake queue (CASH-04): they send ``seat_me`` (never the retired
``take_seat``), move to the table the queue assigns when it is another one, and follow the queue while they wait."""

from __future__ import annotations

import asyncio
import json
import time
from random import Random
from typing import Any

import pytest

from games.bots import client
from games.bots.client import Bot, BotSettings, BotStats

TABLE, OTHER_TABLE, STAKE = 7, 8, 3


class RecordingSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def unseated_bot() -> tuple[Bot, RecordingSocket]:
    settings = BotSettings(base_url="http://127.0.0.1:1", auto_top_up=False, rejoin_seconds=(0.0, 0.0))
    bot = Bot("asker", "no-session", TABLE, 1000, settings, BotStats(), Random(1))
    socket = RecordingSocket()
    bot.ws = socket
    bot.on_snapshot(
        {
            "type": "snapshot",
            "sequence": 4,
            "snapshot": {"viewer": {"user_id": 9, "seat": None}, "table": {"min_buy_in": 500, "max_buy_in": 1000}},
        }
    )
    return bot, socket


def step(bot: Bot) -> None:
    asyncio.run(bot.maybe_act_or_join(time.monotonic() + 60))


def reply(bot: Bot, socket: RecordingSocket, **answer: Any) -> None:
    request_id = socket.sent[-1]["request_id"]
    asyncio.run(bot.on_message({"type": "ok", "of": "seat_me", "request_id": request_id, **answer}))


def test_cash_04_a_bot_asks_its_tables_stake_for_a_seat_with_seat_me() -> None:
    bot, socket = unseated_bot()
    step(bot)
    assert socket.sent == [{"type": "seat_me", "buy_in": 1000, "request_id": socket.sent[0]["request_id"]}]
    step(bot)
    assert len(socket.sent) == 1, "one request at a time"


def test_cash_04_a_bot_seated_at_another_table_of_the_stake_moves_there() -> None:
    bot, socket = unseated_bot()
    step(bot)
    reply(bot, socket, stake_id=STAKE, status="seated", table_id=OTHER_TABLE, message="", position=None)
    assert (bot.table_id, bot.moved, bot.stats.moves) == (OTHER_TABLE, True, 1)


def test_cash_04_a_bot_seated_here_stays_and_waits_for_the_snapshot_with_its_seat() -> None:
    bot, socket = unseated_bot()
    step(bot)
    reply(bot, socket, stake_id=STAKE, status="seated", table_id=TABLE, message="", position=None)
    assert (bot.table_id, bot.moved) == (TABLE, False)


def test_cash_05_a_queued_bot_follows_the_queue_until_it_is_seated(monkeypatch: pytest.MonkeyPatch) -> None:
    bot, socket = unseated_bot()
    step(bot)
    reply(bot, socket, stake_id=STAKE, status="waiting", table_id=None, message="All tables are full.", position=1)
    assert bot.queued_stake == STAKE
    asked: list[int] = []

    def seated_elsewhere(base_url: str, cookie: str, stake_id: int) -> dict[str, Any]:
        asked.append(stake_id)
        return {"stake_id": stake_id, "status": "seated", "table_id": OTHER_TABLE, "message": "", "position": None}

    monkeypatch.setattr(client, "queue_status", seated_elsewhere)
    step(bot)
    assert asked == [STAKE]
    assert len(socket.sent) == 1, "waiting: no second seat_me"
    assert (bot.queued_stake, bot.table_id, bot.moved) == (None, OTHER_TABLE, True)
