"""At most WEB_MAX_CONCURRENT_REQUESTS HTTP requests of a web process are inside Django at once: the next one is
answered 503 busy at once by the ASGI layer (no thread, no database); sockets are not counted; 0 means no limit."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from poker_site.core.busy import RequestAdmission


class HeldApplication:
    """An application whose HTTP requests wait until released; it records what reached it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.reached: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.reached.append(scope["path"])
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def call(admission: RequestAdmission, path: str, kind: str = "http") -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": kind, "path": path, "headers": [(b"accept", b"text/html")]}
    await admission(scope, receive, send)
    return sent


def test_requests_beyond_the_limit_are_answered_busy_without_reaching_the_application() -> None:
    async def scenario() -> None:
        application = HeldApplication()
        admission = RequestAdmission(application, limit=2)
        held = [asyncio.create_task(call(admission, f"/api/games/tables/?n={number}")) for number in range(2)]
        await asyncio.sleep(0.05)
        api = await call(admission, "/api/games/tables/")
        page = await call(admission, "/")
        assert len(application.reached) == 2
        assert api[0]["status"] == 503
        assert (b"retry-after", b"2") in api[0]["headers"]
        assert json.loads(api[1]["body"])["code"] == "busy"
        assert page[0]["status"] == 503
        assert (b"content-type", b"text/html; charset=utf-8") in page[0]["headers"]
        assert admission.turned_away == 2

        socket = asyncio.create_task(call(admission, "/ws/lobby/", kind="websocket"))
        await asyncio.sleep(0.05)
        assert application.reached[-1] == "/ws/lobby/", "a socket is let through however busy HTTP is"

        application.release.set()
        for task in [*held, socket]:
            assert (await task)[0]["status"] == 200
        assert admission.in_flight == 0
        assert (await call(admission, "/"))[0]["status"] == 200, "room again once the held requests answered"

    asyncio.run(scenario())


def test_a_limit_of_zero_lets_everything_through() -> None:
    async def scenario() -> None:
        application = HeldApplication()
        application.release.set()
        admission = RequestAdmission(application, limit=0)
        answers = await asyncio.gather(*(call(admission, "/") for _ in range(50)))
        assert all(answer[0]["status"] == 200 for answer in answers)

    asyncio.run(scenario())
