"""The demo life loop plays each new assignment with a bot client, forgets a bot whose client ended (broke, knocked
out) so the plan can fund and send it again, and stops every client at its deadline; the launcher starts it with the
site's loopback address while DEMO_BOTS is on."""

from __future__ import annotations

import asyncio
import socket
import time
from random import Random
from typing import Any

import pytest

from games.bots import demo_life
from games.bots.client import BotSettings, BotStats
from games.bots.demo_life import Assignment, demo_life_run
from poker_site.launcher import site_address, site_processes


class ShortLivedBot:
    """Plays for a moment and ends, as a bot that went broke does."""

    def __init__(self, assignment: Assignment, runs: list[str]) -> None:
        self.assignment = assignment
        self.runs = runs

    async def run(self, deadline: float) -> None:
        self.runs.append(self.assignment.username)
        await asyncio.sleep(0.05)


def test_a_bot_whose_client_ended_is_planned_again_and_none_outlives_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs: list[str] = []
    seen_busy: list[set[str]] = []

    def planner(busy: dict[str, Assignment]) -> list[Assignment]:
        seen_busy.append(set(busy))
        if "demobot001" in busy:
            return []
        return [Assignment("demobot001", "cookie", table_id=7, buy_in=400, game="holdem")]

    def fake_bot_for(assignment: Assignment, settings: BotSettings, stats: BotStats, rng: Random) -> Any:
        return ShortLivedBot(assignment, runs)

    monkeypatch.setattr(demo_life, "bot_for", fake_bot_for)
    started = time.monotonic()
    asyncio.run(
        demo_life_run(planner, BotSettings(base_url="http://127.0.0.1:1"), deadline=started + 0.6, plan_seconds=0.1)
    )

    assert len(runs) >= 2  # ended, forgotten, planned and started again
    assert set() in seen_busy[1:]
    assert time.monotonic() - started < 5


def test_the_launcher_starts_the_demo_life_only_when_asked_with_a_loopback_address() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    try:
        port = listener.getsockname()[1]
        without = [child.name for child in site_processes(listener)]
        with_bots = {child.name: child.command for child in site_processes(listener, demo_bots=True)}
    finally:
        listener.close()
    assert "demo" not in without
    assert with_bots["demo"][-3:] == ["run_demo_life", "--base-url", f"http://127.0.0.1:{port}"]


@pytest.mark.parametrize(
    ("host", "address"),
    [("0.0.0.0", "http://127.0.0.1:80"), ("::", "http://[::1]:80"), ("127.0.0.2", "http://127.0.0.2:80")],
)
def test_a_wildcard_bind_is_reached_on_loopback(host: str, address: str) -> None:
    assert site_address(host, 80) == address
