"""One bot player: logs in over HTTP, opens the table socket and plays with the random legal-action policy.

The bot is an ordinary client of docs/protocol.md: it asks its table's stake for a seat with ``seat_me`` (the stake
queue assigns the table, CASH-04: the bot moves to another table of the stake when assigned one, and follows the
queue over HTTP while it waits), acts on ``your_turn`` with
an action from its :class:`games.bots.policy.BotPolicy` (by default the random legal play of
:func:`games.bots.policy.choose_action`; card-aware honest styles, and planted chip dumpers and colluders who find
their partner's seat by its name at the table and may share hole cards through a
:class:`games.bots.policy.Partnership` in this process), resyncs on a sequence gap, and (when asked to) leaves and
rejoins between hands or drops its connection mid-hand to exercise the disconnection rules. It records what it saw
in a shared :class:`BotStats`. No Django import: bots run in any process that can reach the site.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from random import Random
from typing import Any
from urllib.parse import urlencode, urlsplit
from urllib.request import HTTPCookieProcessor, Request, build_opener

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from games.bots.policy import BotPolicy, HandView, Partnership, busted_seat_plan

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class LoginFailed(Exception):
    pass


def http_login(base_url: str, username: str, password: str, timeout: float = 30) -> str:
    """Log in through the site's log-in form; return the ``sessionid`` cookie value."""
    jar = CookieJar()
    opener = build_opener(HTTPCookieProcessor(jar))
    url = f"{base_url.rstrip('/')}/accounts/log-in/"
    with opener.open(url, timeout=timeout) as response:
        page = response.read().decode()
    token = CSRF_FIELD.search(page)
    if token is None:
        raise LoginFailed("the log-in page has no CSRF token")
    body = urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token.group(1)}).encode()
    request = Request(url, data=body, headers={"Referer": url, "Content-Type": "application/x-www-form-urlencoded"})
    with opener.open(request, timeout=timeout):
        pass
    for cookie in jar:
        if cookie.name == "sessionid":
            return str(cookie.value)
    raise LoginFailed(f"{username} could not log in")


def queue_status(base_url: str, session_cookie: str, stake_id: int, timeout: float = 30) -> dict[str, Any]:
    """Where the player stands in the seating queue of ``stake_id`` (``GET /games/stakes/<id>/queue/``)."""
    request = Request(
        f"{base_url.rstrip('/')}/games/stakes/{int(stake_id)}/queue/", headers={"Cookie": f"sessionid={session_cookie}"}
    )
    with build_opener().open(request, timeout=timeout) as response:
        answer: dict[str, Any] = json.loads(response.read().decode())
    return answer


QUEUE_POLL_SECONDS = 3.0
"""How often a queued bot asks where it stands."""


def websocket_url(base_url: str, path: str) -> str:
    """The WebSocket address of ``path`` (``/ws/...``) on the site at ``base_url``."""
    parts = urlsplit(base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{path}"


def socket_url(base_url: str, table_id: int) -> str:
    return websocket_url(base_url, f"/ws/tables/{table_id}/")


MAXIMUM_RETRY_SECONDS = 30.0
"""The longest wait before trying to connect again after failures in a row."""


@dataclass
class BotSettings:
    base_url: str
    think_seconds: tuple[float, float] = (0.3, 1.2)
    leave_probability: float = 0.0
    """After each hand the bot played: leave the table, then rejoin after ``rejoin_seconds``."""
    disconnect_probability: float = 0.0
    """On each turn: drop the connection instead of acting, reconnect after ``rejoin_seconds``."""
    rejoin_seconds: tuple[float, float] = (1.0, 4.0)
    auto_top_up: bool = True
    """Turn on auto top-up (CASH-15) on connecting, so a bot that loses its stack is refilled from its balance at the
    end of the hand instead of sitting out with no chips (tables of busted bots would stop dealing)."""


@dataclass
class BotStats:
    """Counters shared by all bots of a run (one event loop, so no locking)."""

    actions: int = 0
    acknowledged: int = 0
    hands_ended: int = 0
    joins: int = 0
    moves: int = 0
    """Times the stake queue seated a bot at another table than the one it asked from (CASH-04)."""
    leaves: int = 0
    busted: int = 0
    """Times a bot found its table stack empty between hands (then it re-bought or left its seat)."""
    broke: int = 0
    """Bots whose balance could not buy them a seat again: they stopped trying."""
    disconnects: int = 0
    resyncs: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    """Refusals by ``<message type>:<error code>``."""
    latencies: list[float] = field(default_factory=list)
    """Seconds from sending ``act`` to receiving the broadcast that contains the action."""
    latency_times: list[float] = field(default_factory=list)
    """``time.monotonic()`` when each latency was measured (windows in load tests)."""
    latency_ended_hand: list[bool] = field(default_factory=list)
    """Whether each measured action ended its hand (its broadcast settles the hand: the slow path)."""
    connect_failures: int = 0

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)

        def percentile(share: float) -> float | None:
            if not ordered:
                return None
            return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)

        return {
            "actions": self.actions,
            "acknowledged": self.acknowledged,
            "hands_ended_seen": self.hands_ended,
            "joins": self.joins,
            "moves": self.moves,
            "leaves": self.leaves,
            "busted": self.busted,
            "broke": self.broke,
            "disconnects": self.disconnects,
            "resyncs": self.resyncs,
            "connect_failures": self.connect_failures,
            "errors": dict(self.errors),
            "latency_ms_p50": percentile(0.50),
            "latency_ms_p99": percentile(0.99),
        }


class Bot:
    """A bot seated (or trying to sit) at one table until ``deadline`` (``time.monotonic()`` seconds)."""

    def __init__(
        self,
        name: str,
        session_cookie: str,
        table_id: int,
        buy_in: int,
        settings: BotSettings,
        stats: BotStats,
        rng: Random,
        policy: BotPolicy | None = None,
        partnership: Partnership | None = None,
    ) -> None:
        self.name = name
        self.policy = policy or BotPolicy()
        self.partnership = partnership
        """Shared with the partner's bot (planted colluders): each shows the other its hole cards."""
        self.stopped = False
        self.failures_in_a_row = 0
        """Connections that failed one after another (reset once a socket opens): the retry delay doubles with each."""
        self.cookie = session_cookie
        self.table_id = table_id
        self.buy_in = buy_in
        self.settings = settings
        self.stats = stats
        self.rng = rng
        self.ws: Any = None
        self.reset_connection_state()

    def reset_connection_state(self) -> None:
        self.last_sequence: int | None = None
        self.seat: int | None = None
        self.user_id: int | None = None
        self.join_pending = False
        self.wants_seat = True
        self.rejoin_at = 0.0
        self.act_due: float | None = None
        self.act_legal: dict[str, Any] | None = None
        self.act_hand: int | None = None
        self.act_sent_at: float | None = None
        self.in_hand = False
        self.drop_connection = False
        self.sit_in_needed = False
        self.join_request_id: str | None = None
        self.queued_stake: int | None = None
        """The stake whose queue the bot waits in (``seat_me`` answered "waiting"); None when not queued."""
        self.queue_check_at = 0.0
        self.moved = False
        """The stake queue seated the bot at another table: end this session and connect to that table."""
        self.request_number = 0
        # Request ids are unique per session: the server applies a command once per request id and what it asks
        # (issue 30), so a bot that counted from 1 again after a reconnect or under a name another bot used had its
        # "check" dropped as a resend of an earlier one.
        self.request_id_prefix = f"{self.name}-{secrets.token_hex(4)}"
        self.request_types: dict[str, str] = {}
        self.auto_top_up_sent = False
        self.stack: int | None = None
        """The bot's table stack as the last snapshot or event told it (None: not seated or not known)."""
        self.stack_check_due = False
        """A hand ended (or the snapshot shows the bot sitting out): see whether it is busted once the batch is read."""
        self.rebuy_request_id: str | None = None
        self.minimum_buy_in: int | None = None
        self.view = HandView()
        """What the bot knows of the hand in play (its policy decides from it)."""

    def stop(self) -> None:
        """Ask the bot to leave its seat and end :meth:`run` within about two seconds (the longest socket wait).

        Load tests end bots this way rather than by cancelling their tasks: on Python 3.11 ``asyncio.wait_for`` can
        swallow a cancellation that arrives as its inner read completes, and the task then plays on."""
        self.stopped = True

    async def run(self, deadline: float) -> None:
        """Play until the deadline (or :meth:`stop`); reconnect after a dropped connection (deliberate or not).

        Failed connections are retried with exponential backoff and jitter (the rejoin delay doubled per failure in a
        row, at most :data:`MAXIMUM_RETRY_SECONDS`), as a real client must: retrying an overloaded server at a fixed
        rate keeps it overloaded (every retry costs it a handshake and a snapshot) long after the cause has passed."""
        while time.monotonic() < deadline and not self.stopped:
            try:
                await self.session(deadline)
            except (ConnectionClosed, OSError, InvalidHandshake, InvalidStatus, TimeoutError):
                self.stats.connect_failures += 1
                self.failures_in_a_row += 1
            if self.moved:
                continue  # straight to the assigned table
            if time.monotonic() < deadline and not self.stopped:
                delay = self.rng.uniform(*self.settings.rejoin_seconds) * 2 ** min(self.failures_in_a_row, 8)
                await asyncio.sleep(min(delay, MAXIMUM_RETRY_SECONDS, deadline - time.monotonic()))

    async def session(self, deadline: float) -> None:
        self.reset_connection_state()
        async with connect(
            socket_url(self.settings.base_url, self.table_id),
            origin=self.settings.base_url.rstrip("/"),  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            open_timeout=60,
            ping_interval=None,
            max_size=2**22,
            compression=None,
        ) as ws:
            self.ws = ws
            self.failures_in_a_row = 0
            while True:
                now = time.monotonic()
                if now >= deadline or self.stopped:
                    await self.leave_politely(ws)
                    return
                if self.drop_connection:
                    self.stats.disconnects += 1
                    return  # leaving the block closes the socket: the server reports a lost connection
                if self.moved:
                    return  # assigned another table of the stake: the next session connects there
                await self.maybe_act_or_join(now)
                wait = min(deadline - now, 2.0)
                if self.act_due is not None:
                    wait = max(0.0, min(wait, self.act_due - now))
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=wait)
                except TimeoutError:
                    continue
                await self.on_message(json.loads(raw))

    async def send(self, message: dict[str, Any]) -> str:
        self.request_number += 1
        request_id = f"{self.request_id_prefix}-{self.request_number}"
        message.setdefault("request_id", request_id)
        self.request_types[request_id] = str(message.get("type"))
        await self.ws.send(json.dumps(message))
        return request_id

    async def maybe_act_or_join(self, now: float) -> None:
        if self.act_due is not None and now >= self.act_due and self.act_legal is not None:
            if self.rng.random() < self.settings.disconnect_probability:
                self.drop_connection = True
                return
            if self.partnership is not None:
                self.view.partner_cards = self.partnership.cards_of(self.view.hand_id, self.policy.partner)
            message = self.policy.decide(self.act_legal, self.view, self.rng)
            if isinstance(self.act_hand, int):
                message["hand_id"] = self.act_hand
            self.act_due = None
            self.act_legal = None
            self.act_sent_at = time.monotonic()
            self.stats.actions += 1
            await self.send(message)
        ready = self.last_sequence is not None  # the first snapshot says whether we are seated already
        if ready and self.settings.auto_top_up and not self.auto_top_up_sent:
            self.auto_top_up_sent = True
            await self.send({"type": "auto_top_up", "enabled": True})
        if ready and self.seat is None and self.wants_seat and not self.join_pending and now >= self.rejoin_at:
            self.join_pending = True
            self.stats.joins += 1
            self.join_request_id = await self.send({"type": "seat_me", "buy_in": self.buy_in})
        if self.queued_stake is not None and self.seat is None and now >= self.queue_check_at:
            self.queue_check_at = now + QUEUE_POLL_SECONDS
            try:
                answer = await asyncio.to_thread(queue_status, self.settings.base_url, self.cookie, self.queued_stake)
            except OSError:
                answer = {"status": "waiting"}  # ask again at the next poll
            self.on_seating(answer)
        if self.stack_check_due:
            self.stack_check_due = False
            await self.handle_an_empty_stack(now)
        if self.sit_in_needed:
            self.sit_in_needed = False
            await self.send({"type": "sit_in"})

    async def handle_an_empty_stack(self, now: float) -> None:
        """Between hands, a bot with no chips re-buys from its balance (a ``top_up`` of its buy-in) when auto top-up
        is off and it has not tried yet, and otherwise leaves its seat (auto top-up already used whatever balance there
        was); it then takes a seat again later, if its balance still buys one (:meth:`on_error`)."""
        if self.seat is None:
            return
        plan = busted_seat_plan(self.stack, may_rebuy=not self.settings.auto_top_up and self.rebuy_request_id is None)
        if plan == "play":
            return
        self.stats.busted += 1
        self.sit_in_needed = False  # sitting in with no chips is refused
        if plan == "rebuy":
            self.rebuy_request_id = await self.send({"type": "top_up", "amount": self.buy_in})
            return
        await self.leave_busted(now)

    async def leave_busted(self, now: float) -> None:
        self.stats.leaves += 1
        self.wants_seat = True
        self.rejoin_at = now + self.rng.uniform(*self.settings.rejoin_seconds)
        await self.send({"type": "leave"})

    async def leave_politely(self, ws: Any) -> None:
        if self.seat is None:
            return
        self.stats.leaves += 1
        await self.send({"type": "leave"})
        try:
            end = time.monotonic() + 5
            while time.monotonic() < end:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=end - time.monotonic()))
                if message.get("type") in {"ok", "error"} and message.get("of", "leave") == "leave":
                    return
        except (TimeoutError, ConnectionClosed):
            return

    async def on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            self.on_snapshot(message)
        elif kind == "events":
            await self.on_events(message)
        elif kind == "your_turn":
            if message.get("seat") == self.seat or self.seat is None:
                self.schedule_act(message["legal_actions"], message.get("hand_id"))
        elif kind == "ok":
            self.stats.acknowledged += 1  # after seat_me a seat here arrives with the snapshot that follows
            if message.get("request_id") == self.join_request_id:
                self.on_seating(message)
            if message.get("request_id") == self.rebuy_request_id:
                self.rebuy_request_id = None  # re-bought: the next time the stack runs out it may re-buy again
        elif kind == "error":
            self.on_error(message)

    def on_seating(self, answer: dict[str, Any]) -> None:
        """What the stake queue answered (``seat_me`` or the queue status): seated here (the snapshot shows the seat),
        seated at another table (move there), waiting (follow the queue) or not seated (try again later)."""
        status = answer.get("status")
        if status == "waiting":
            if self.queued_stake is None:
                self.queue_check_at = time.monotonic() + QUEUE_POLL_SECONDS
            self.queued_stake = int(answer["stake_id"]) if answer.get("stake_id") else self.queued_stake
            return
        self.queued_stake = None
        table_id = answer.get("table_id")
        if status == "seated" and isinstance(table_id, int):
            if table_id != self.table_id:
                self.stats.moves += 1
                self.table_id = table_id
                self.moved = True
            return
        self.join_pending = False
        self.rejoin_at = time.monotonic() + 5.0  # failed, or left the queue: ask again later

    def on_snapshot(self, message: dict[str, Any]) -> None:
        self.last_sequence = int(message["sequence"])
        snapshot = message["snapshot"]
        self.view.apply_snapshot(snapshot)
        self.share_hole_cards()
        viewer = snapshot.get("viewer") or {}
        self.user_id = viewer.get("user_id")
        self.seat = viewer.get("seat")
        table = snapshot.get("table") or {}
        if table.get("min_buy_in"):
            self.minimum_buy_in = int(table["min_buy_in"])
        if self.seat is not None:
            self.join_pending = False
            if table.get("max_buy_in") and table.get("min_buy_in"):
                self.buy_in = max(int(table["min_buy_in"]), min(self.buy_in, int(table["max_buy_in"])))
            seats: list[dict[str, Any]] = snapshot.get("seats", [])
            own: dict[str, Any] = next((seat for seat in seats if seat.get("number") == self.seat), {})
            if isinstance(own.get("stack"), int):
                self.stack = int(own["stack"])
            if own.get("sitting_out"):
                self.sitting_out()
        if viewer.get("legal_actions"):
            hand = snapshot.get("hand") or {}
            self.schedule_act(viewer["legal_actions"], hand.get("id"))

    def sitting_out(self) -> None:
        """The bot's seat is sitting out: sit in again at the next step."""
        self.sit_in_needed = True
        self.stack_check_due = True  # sitting out with no chips: re-buy or leave instead of sitting in

    def schedule_act(self, legal: dict[str, Any], hand_id: int | None) -> None:
        self.act_legal = legal
        self.act_hand = hand_id
        self.act_due = time.monotonic() + self.rng.uniform(*self.settings.think_seconds)

    async def on_events(self, message: dict[str, Any]) -> None:
        events = message["events"]
        if not events:
            return
        first = int(events[0]["sequence"])
        if self.last_sequence is not None and first > self.last_sequence + 1 and not message.get("resync"):
            self.stats.resyncs += 1
            await self.send({"type": "resync", "since": self.last_sequence})
        self.last_sequence = max(self.last_sequence or 0, int(events[-1]["sequence"]))
        for event in events:
            kind = event.get("type")
            self.view.seat = self.seat
            self.view.apply_event(event)
            if kind == "hole_cards_dealt" and event.get("cards"):
                self.share_hole_cards()
            if kind == "action_taken" and event.get("seat") == self.seat and self.act_sent_at is not None:
                now = time.monotonic()
                self.stats.latencies.append(now - self.act_sent_at)
                self.stats.latency_times.append(now)
                self.stats.latency_ended_hand.append(any(other.get("type") == "hand_ended" for other in events))
                self.act_sent_at = None
            elif kind == "hand_started":
                self.in_hand = True
            elif kind == "hand_settled" and self.seat is not None:
                settled_stack = (event.get("stacks") or {}).get(str(self.seat))
                if isinstance(settled_stack, int):
                    self.stack = settled_stack
            elif kind == "hand_ended":
                self.stats.hands_ended += 1
                self.stack_check_due = True
                self.in_hand = False
                self.act_due = None
                self.act_legal = None
                if self.seat is not None and self.rng.random() < self.settings.leave_probability:
                    self.stats.leaves += 1
                    self.wants_seat = True
                    self.rejoin_at = time.monotonic() + self.rng.uniform(*self.settings.rejoin_seconds)
                    await self.send({"type": "leave"})
            self.follow_seat(event)
            self.view.seat = self.seat

    def share_hole_cards(self) -> None:
        """Show the partner (a planted colluder's, in this process) this hand's hole cards."""
        if self.partnership is not None and self.view.hand_id is not None and self.view.hole_cards:
            own_name = self.view.names.get(self.view.seat, self.name) if self.view.seat is not None else self.name
            self.partnership.share(self.view.hand_id, own_name, self.view.hole_cards)

    def follow_seat(self, event: dict[str, Any]) -> None:
        seat = event.get("seat")
        if "status" not in event or not isinstance(seat, int):
            return
        if self.user_id is not None and event.get("user_id") == self.user_id and event["status"] != "empty":
            self.seat = seat
            self.join_pending = False
            if isinstance(event.get("stack"), int):
                self.stack = int(event["stack"])
            if event["status"] == "sitting_out":
                # Sat out by the table while connected (a missed turn, CASH-22, or no chips left): as after a snapshot
                # that shows it; a bot waiting for one would sit out for good, and a table left with two players
                # waits for a third (CASH-03).
                self.sitting_out()
        elif seat == self.seat and (event["status"] == "empty" or event.get("user_id") != self.user_id):
            self.seat = None
            self.stack = None
            self.rebuy_request_id = None

    def on_error(self, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        request_id = str(message.get("request_id") or "")
        self.stats.errors[f"{self.request_types.get(request_id, 'unknown')}:{code}"] += 1
        if code in {"not_your_turn", "illegal_action"}:
            self.act_sent_at = None
        if request_id and request_id == self.rebuy_request_id:
            # The balance does not cover a re-buy: give the seat up rather than sit at the table without chips.
            self.stack_check_due = True
        if self.join_pending and request_id == self.join_request_id:
            self.join_pending = False
            self.rejoin_at = time.monotonic() + 5.0  # refused (limits, a taken seat): try again later
            if code == "insufficient_balance":
                if self.minimum_buy_in is not None and self.buy_in > self.minimum_buy_in:
                    self.buy_in = self.minimum_buy_in  # what is left may still buy the table's smallest stack
                else:
                    self.wants_seat = False  # broke: a seat it cannot pay for is not worth asking again
                    self.stats.broke += 1
