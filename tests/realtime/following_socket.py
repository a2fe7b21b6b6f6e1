"""A table socket that follows a live site's events over real TCP connections the way the table page does
(``static/js/common.js``, ``static/js/table.js``): it starts from the snapshot, asks for a resync when the sequence
numbers jump, and when its connection drops it connects again (to the next of the site's web processes, as a load
balancer would send it there) and fetches what it missed since its last sequence. It runs in a thread of its own so
that a test can wait for what it has seen."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

RECONNECT_SECONDS = (0.4, 0.7, 1.2, 2.0)
"""The page's backoff (400 ms × 1.7 per attempt), without the jitter."""


class FollowingSocket:
    """Follows table ``table_id`` through the web processes at ``base_urls`` (the first one first), logged in with the
    session cookie ``cookie`` (a spectator without one). ``events`` holds every event received, keyed by sequence;
    ``connections`` counts the connections made, ``resyncs`` the resyncs asked for."""

    def __init__(self, base_urls: list[str], table_id: int, cookie: str | None = None) -> None:
        self.base_urls = base_urls
        self.table_id = table_id
        self.cookie = cookie
        self.events: dict[int, dict[str, Any]] = {}
        self.last_sequence: int | None = None
        self.connections: list[str] = []
        self.resyncs = 0
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._failure: list[BaseException] = []

    def __enter__(self) -> FollowingSocket:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(30)
        assert not self._thread.is_alive(), "the following socket did not stop"

    def seen(self, predicate: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        """The events received so far that satisfy ``predicate``, in sequence order."""
        with self.lock:
            return [self.events[number] for number in sorted(self.events) if predicate(self.events[number])]

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], what: str, timeout: float) -> dict[str, Any]:
        """The first event satisfying ``predicate``, waiting up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        while not (found := self.seen(predicate)):
            assert not self._failure, f"the following socket failed: {self._failure[0]!r}"
            assert time.monotonic() < deadline, (
                f"{what}: not seen by the socket within {timeout} s (last sequence {self.last_sequence}, "
                f"connections {self.connections}, resyncs {self.resyncs})"
            )
            time.sleep(0.05)
        return found[0]

    async def _run(self) -> None:
        attempts = 0
        for base_url in itertools.cycle(self.base_urls):
            if self._stop.is_set():
                return
            try:
                await self._session(base_url)
                attempts = 0
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                pass
            except BaseException as error:  # reported by wait_for, not lost in the thread
                self._failure.append(error)
                return
            if not self._stop.is_set():
                await asyncio.sleep(RECONNECT_SECONDS[min(attempts, len(RECONNECT_SECONDS) - 1)])
                attempts += 1

    async def _session(self, base_url: str) -> None:
        url = f"{base_url.replace('http', 'ws', 1)}/ws/tables/{self.table_id}/"
        headers = {"Cookie": self.cookie} if self.cookie else {}
        async with connect(
            url,
            origin=base_url,
            additional_headers=headers,
            open_timeout=30,
            max_size=2**22,  # type: ignore[arg-type]
        ) as socket:
            with self.lock:
                self.connections.append(base_url)
            while not self._stop.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                request = self._take(json.loads(raw))
                if request is not None:
                    await socket.send(json.dumps(request))

    def _take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Record ``message``; return the resync to ask for, if it shows events were missed."""
        with self.lock:
            if message.get("type") == "snapshot":
                # A (re)connection starts from a snapshot; the events it skipped since the last one seen are fetched.
                if self.last_sequence is None:
                    self.last_sequence = int(message["sequence"])
                    return None
                if int(message["sequence"]) > self.last_sequence:
                    self.resyncs += 1
                    return {"type": "resync", "since": self.last_sequence}
                return None
            if message.get("type") != "events" or not message.get("events"):
                return None
            first = int(message["events"][0]["sequence"])
            if self.last_sequence is not None and first > self.last_sequence + 1 and not message.get("resync"):
                self.resyncs += 1
                return {"type": "resync", "since": self.last_sequence}
            for event in message["events"]:
                self.events[int(event["sequence"])] = event
            self.last_sequence = max(self.last_sequence or 0, max(self.events))
            return None
