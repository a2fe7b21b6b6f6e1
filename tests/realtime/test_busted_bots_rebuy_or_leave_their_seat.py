"""A demo bot whose table stack runs out re-buys from its balance or leaves its seat, instead of sitting at the table
busted (sit-in refused, the table short of players): with auto top-up (CASH-15) on, the server already used whatever
balance there was, so it leaves and later takes a seat again only if its balance buys one; with it off it first tries
a ``top_up``. A bot whose balance buys no seat stops asking (the hardening issue: bot tables sat idle)."""

from __future__ import annotations

import asyncio
import json
import time
from random import Random
from typing import Any

import pytest

from games.bots.client import Bot, BotSettings, BotStats
from games.bots.policy import busted_seat_plan

USER_ID, SEAT, MAXIMUM, MINIMUM = 9, 3, 1000, 400


class RecordingSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def types(self) -> list[str]:
        return [message["type"] for message in self.sent]


def seated_bot(*, auto_top_up: bool, stack: int = 600, sitting_out: bool = False) -> tuple[Bot, RecordingSocket]:
    settings = BotSettings(base_url="http://127.0.0.1:1", auto_top_up=auto_top_up, rejoin_seconds=(0.0, 0.0))
    bot = Bot("buster", "no-session", 7, MAXIMUM, settings, BotStats(), Random(1))
    socket = RecordingSocket()
    bot.ws = socket
    bot.auto_top_up_sent = True  # the CASH-15 setting message is not what these tests look at
    bot.on_snapshot(
        {
            "type": "snapshot",
            "sequence": 10,
            "snapshot": {
                "viewer": {"user_id": USER_ID, "seat": SEAT, "legal_actions": None},
                "table": {"min_buy_in": MINIMUM, "max_buy_in": MAXIMUM},
                "seats": [{"number": SEAT, "user_id": USER_ID, "stack": stack, "sitting_out": sitting_out}],
            },
        }
    )
    return bot, socket


def seat_event(sequence: int, kind: str, status: str, **fields: Any) -> dict[str, Any]:
    return {"sequence": sequence, "type": kind, "seat": SEAT, "status": status, "user_id": USER_ID, **fields}


def lose_the_stack(bot: Bot) -> None:
    asyncio.run(
        bot.on_events(
            {
                "type": "events",
                "events": [
                    {"sequence": 11, "type": "hand_started"},
                    {"sequence": 12, "type": "hand_settled", "stacks": {str(SEAT): 0, "5": 1200}},
                    {"sequence": 13, "type": "hand_ended"},
                    seat_event(14, "seat_sat_out", "sitting_out", stack=0, sit_out_reason="no_chips"),
                ],
            }
        )
    )


def step(bot: Bot) -> None:
    asyncio.run(bot.maybe_act_or_join(time.monotonic() + 60))


def answer(bot: Bot, socket: RecordingSocket, of: str, code: str | None = None) -> None:
    request_id = next(message["request_id"] for message in reversed(socket.sent) if message["type"] == of)
    reply = {"type": "ok", "of": of, "request_id": request_id}
    if code is not None:
        reply = {"type": "error", "code": code, "message": "refused", "request_id": request_id}
    asyncio.run(bot.on_message(reply))


@pytest.mark.parametrize(
    ("stack", "may_rebuy", "plan"),
    [(None, True, "play"), (250, False, "play"), (0, True, "rebuy"), (0, False, "leave")],
)
def test_the_policy_plays_on_with_chips_and_otherwise_rebuys_or_leaves(
    stack: int | None, may_rebuy: bool, plan: str
) -> None:
    assert busted_seat_plan(stack, may_rebuy=may_rebuy) == plan


def test_with_auto_top_up_a_busted_bot_leaves_instead_of_sitting_in() -> None:
    bot, socket = seated_bot(auto_top_up=True)
    lose_the_stack(bot)
    step(bot)
    assert socket.types() == ["leave"]
    assert bot.stats.busted == 1


def test_after_leaving_it_buys_in_again_only_while_its_balance_allows() -> None:
    bot, socket = seated_bot(auto_top_up=True)
    lose_the_stack(bot)
    step(bot)
    asyncio.run(bot.on_events({"type": "events", "events": [seat_event(15, "seat_left", "empty")]}))
    step(bot)
    assert socket.sent[-1] == {"type": "seat_me", "buy_in": MAXIMUM, "request_id": socket.sent[-1]["request_id"]}
    answer(bot, socket, "seat_me", "insufficient_balance")
    step(bot)
    assert socket.sent[-1]["type"] == "seat_me"
    assert socket.sent[-1]["buy_in"] == MINIMUM, "what is left may still buy the table's smallest stack"
    answer(bot, socket, "seat_me", "insufficient_balance")
    sent_before = len(socket.sent)
    step(bot)
    step(bot)
    assert len(socket.sent) == sent_before, "broke: it stops asking for a seat"
    assert bot.stats.broke == 1


def test_without_auto_top_up_it_rebuys_first_and_plays_on_when_the_top_up_goes_through() -> None:
    bot, socket = seated_bot(auto_top_up=False)
    lose_the_stack(bot)
    step(bot)
    assert socket.sent[-1]["type"] == "top_up"
    assert socket.sent[-1]["amount"] == MAXIMUM
    answer(bot, socket, "top_up")
    asyncio.run(
        bot.on_events(
            {"type": "events", "events": [seat_event(15, "seat_topped_up", "active", stack=MAXIMUM, amount=MAXIMUM)]}
        )
    )
    step(bot)
    assert socket.types() == ["top_up"]
    assert bot.stack == MAXIMUM


def test_without_auto_top_up_a_refused_rebuy_means_leaving() -> None:
    bot, socket = seated_bot(auto_top_up=False)
    lose_the_stack(bot)
    step(bot)
    answer(bot, socket, "top_up", "insufficient_balance")
    step(bot)
    assert socket.types() == ["top_up", "leave"]


def test_a_bot_that_reconnects_busted_leaves_and_one_with_chips_sits_back_in() -> None:
    busted, busted_socket = seated_bot(auto_top_up=True, stack=0, sitting_out=True)
    step(busted)
    assert busted_socket.types() == ["leave"]
    resting, resting_socket = seated_bot(auto_top_up=True, stack=500, sitting_out=True)
    step(resting)
    assert resting_socket.types() == ["sit_in"]
