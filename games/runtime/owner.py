"""The owner loop: one runtime process plays the tables it holds leases on (issue 27, steps 3 and 5 of
docs/runtime-design.md). ``manage.py run_tables`` runs one :class:`TableOwner`; the launcher starts
``TABLE_PROCESSES`` of them when ``TABLE_ACTORS`` is on.

One asyncio loop per process:

* **Leases** (``games.runtime.leases`` through ``games.runtime.inbox.lease_store``): every ``scan_seconds`` the process
  announces itself (a heartbeat), computes its fair share of the open tables (``fair_share`` over the live processes)
  and acquires unowned tables up to it, lowest ids first; a process over its share gives one idle table back per scan
  (between hands), so tables spread over the processes. Every third of a lease it renews all its leases in one script;
  a lease it lost (it was paused past the lease, say) is dropped at once, with no write.
* **Takeover**: a newly acquired table is first written the lease's epoch (``recovery.table_take_over``, one
  transaction under the table lock), which cancels the hand a dead owner left in progress with every stack back to its
  start-of-hand amount (CASH-23, TRN-33), and fences the old owner: its hand start or end carries the old epoch and is
  refused (``hands.owner_epoch_check``). Messages the dead owner read and never acknowledged are claimed
  (``XAUTOCLAIM``) and answered with a refusal: their effect, if any, went with the cancelled hand.
* **One task per owned table** holds a ``games.runtime.actor.TableActor`` and applies, one at a time and in arrival
  order, the table's inbox messages (read for all tables by one ``XREADGROUP``), the deals (``DealNext``: when the
  table's ``next_hand_at`` has come and no hand is in play, read for all owned tables in one query per scan, and
  after a hand it ended itself at the end of that hand's pause) and the
  acting player's clock (``TableActor.deadline`` / ``clock``: the task wakes at the deadline; no database polling
  per table). A player's action in a hand held in memory is applied on the loop (``TableActor.act_in_memory``: the
  engine, then the hand log's append with the asynchronous Redis client, then the publish), so it waits for no
  database work of another table; every other actor call runs in a small thread pool (the Django ORM must not run on
  the event loop, and a message may start or end a hand, both transactions).
* **Answers** go to the sender's reply key (``games.runtime.inbox``): ``ok`` or the refusal exactly as
  ``commands.refusal_from`` makes it for the durable path; then the entry is acknowledged.
* **SIGTERM** (``stop``): the process stops reading, cancels the hands in progress at its tables (they would be
  cancelled by the next owner anyway; this way nothing waits for a lease to expire), releases its leases and leaves
  the heartbeat set.

* **Table commands** other than actions (``commands.OWNER_COMMANDS``: sitting out and in, "sit out next big blind",
  the client seed, and the cash game's leave and top-up) and the sockets' connection reports arrive on the same stream
  and are applied in the same order: the actor runs each one's durable service (``command_run``) between two messages
  of its hand and applies to the hand what it changed (``TableActor`` / ``TableCommand``).

Not yet (docs/runtime-design.md): tournament coordination by message (step 6).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import redis
import redis.asyncio as redis_asyncio
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.engine.cards import Shuffler
from games.models import Seat, Table, TableStatus
from games.runtime import commands, inbox
from games.runtime.actor import CONNECTION_REPORTS, CONNECTION_RESTORED, DealNext, Outcome, TableActor, TableCommand
from games.runtime.errors import NotSeated, OwnershipLost, TableError
from games.runtime.hand_log import hand_log_append_and_send_async
from games.runtime.leases import Lease, LeaseStore, fair_share, tables_to_claim
from games.runtime.play import PlayerAction
from games.runtime.recovery import CRASH_REASON, hand_cancel, table_take_over
from poker_site.core.loop_stalls import loop_stalls_watch_start

logger = logging.getLogger(__name__)

T = TypeVar("T")

STOP_WAIT_SECONDS = 15.0
"""How long a stop waits for each of its steps (the loops and the tables' tasks to end once cancelled, the Redis client
to close) before it logs what it still waits on, with its stack, and goes on: cancelling the hands in progress and
releasing the leases must not hang behind one coroutine that does not end (a stop once waited over 120 s in a test,
its loop idle)."""

TAKEN_OVER = "table_taken_over"
"""The refusal code of a message the previous owner read and never answered (it died or lost the table)."""

READ_BLOCK_SECONDS = 0.2
"""How long one read of the owned tables' streams waits for an entry (the read loop's ``XREADGROUP ... BLOCK``)."""

SERVER_ERROR = "server_error"
"""The refusal code of a message whose application failed unexpectedly (the table is then taken over afresh)."""


def process_name(address: str | None = None) -> str:
    """A runtime process's identity in the leases and the heartbeat set: ``<host or address>:<pid>:<random>``."""
    return f"{address or socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass
class OwnedTable:
    """A table this process holds a lease on: its actor, its queue of work (inbox messages and deals) and task."""

    lease: Lease
    actor: TableActor
    queue: asyncio.Queue[inbox.InboxMessage | DealNext] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    ready: bool = False
    """Taken over (epoch written, hand left in progress cancelled): its stream is read from then on."""
    deal_queued: bool = False
    deal_at: datetime | None = None
    """When the pause after the hand this owner ended is over (the table's ``next_hand_at``): the next deal then."""
    busy: bool = False

    @property
    def idle(self) -> bool:
        """Between hands with nothing queued or being applied: it can be given back without cutting anything off."""
        return self.ready and not self.busy and self.actor.live is None and self.queue.empty()


@dataclass(frozen=True)
class TableRow:
    table_id: int
    deal_due: bool


def open_tables(now: datetime) -> list[TableRow]:
    """Every open table, and whether it may deal now (no hand in play and its ``next_hand_at`` has come)."""
    rows = Table.objects.filter(status=TableStatus.OPEN).values_list("pk", "current_hand_id", "next_hand_at")
    return [TableRow(table_id, current is None and due is not None and due <= now) for table_id, current, due in rows]


def tables_existing(table_ids: list[int]) -> set[int]:
    """Those of ``table_ids`` whose table row still exists."""
    return set(Table.objects.filter(pk__in=table_ids).values_list("pk", flat=True))


def user_seated(table_id: int, user_id: int | None) -> bool:
    return user_id is not None and Seat.objects.filter(table_id=table_id, user_id=user_id).exists()


def table_next_hand_at(table_id: int) -> datetime | None:
    return Table.objects.filter(pk=table_id, current_hand__isnull=True).values_list("next_hand_at", flat=True).first()


def table_hand_in_progress(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("current_hand_id", flat=True).first()


class TableOwner:
    """The tables one runtime process owns; see the module docstring. ``run(stop)`` plays them until ``stop`` is set.

    ``shuffler`` gives each deal's shuffler (tests: seeded); the default deals the provably fair deck."""

    def __init__(
        self,
        process_id: str | None = None,
        *,
        scan_seconds: float = 1.0,
        database_threads: int = 4,
        shuffler: Callable[[], Shuffler | None] = lambda: None,
    ) -> None:
        self.process_id = process_id or process_name()
        self.scan_seconds = scan_seconds
        self.shuffler = shuffler
        self.tables: dict[int, OwnedTable] = {}
        self.database_pool = ThreadPoolExecutor(max_workers=database_threads, thread_name_prefix="table-db")
        self.lease_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-leases")
        # The lease client waits no longer than a renewal's interval: a Redis that hangs must not outlast the leases.
        self.lease_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.store: LeaseStore = inbox.lease_store(self.lease_client)
        self.redis: redis_asyncio.Redis = redis_asyncio.Redis.from_url(settings.REDIS_URL)
        self.log_append = functools.partial(hand_log_append_and_send_async, self.redis)
        self.closing_answers: set[asyncio.Task[None]] = set()
        """The tasks answering what closed tables' streams still held when they were given back."""
        self.takeovers: list[tuple[int, int | None, float]] = []
        """(table id, cancelled hand id or None, seconds the takeover transaction took), in order."""

    # --- Running -------------------------------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Own and play tables until ``stop`` is set; then cancel the hands in progress and release every lease."""
        loops = [
            asyncio.create_task(self._every(self.scan_seconds, self.scan, stop), name="claim"),
            asyncio.create_task(self._every(self.store.lease_milliseconds / 3000, self.renew, stop), name="renew"),
            asyncio.create_task(self._read(stop), name="read"),
        ]
        watch = loop_stalls_watch_start(f"run_tables {self.process_id}")
        if watch is not None:
            loops.append(watch)
        try:
            await stop.wait()
        finally:
            for task in loops:
                task.cancel()
            await self._wait_for_the_end_of(loops)
            await self.shutdown()

    async def _wait_for_the_end_of(self, tasks: list[asyncio.Task[Any]]) -> None:
        """Wait up to :data:`STOP_WAIT_SECONDS` for cancelled ``tasks`` to end; log each one still running."""
        if not tasks:
            return
        _ended, running = await asyncio.wait(tasks, timeout=STOP_WAIT_SECONDS)
        for task in running:
            stack = io.StringIO()
            task.print_stack(file=stack)
            logger.error(
                "run_tables %s: %s did not end %.0f s after it was cancelled:\n%s",
                self.process_id,
                task.get_name(),
                STOP_WAIT_SECONDS,
                stack.getvalue(),
            )

    async def _every(self, seconds: float, step: Callable[[], Any], stop: asyncio.Event) -> None:
        while not stop.is_set():
            started = time.monotonic()
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("run_tables %s: %s failed", self.process_id, getattr(step, "__name__", step))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), max(0.0, seconds - (time.monotonic() - started)))

    async def _database(self, function: Callable[..., T], *arguments: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self.database_pool, functools.partial(_with_fresh_connection_on_error, function, *arguments)
        )

    async def _leases(self, function: Callable[..., T], *arguments: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self.lease_pool, functools.partial(function, *arguments)
        )

    # --- Leases ------------------------------------------------------------------------------------------------

    async def renew(self) -> None:
        """Heartbeat, then renew every lease; drop at once (no write) the tables whose lease was lost."""
        await self._leases(self.store.process_alive, self.process_id)
        leases = [owned.lease for owned in self.tables.values()]
        if not leases:
            return
        _renewed, lost = await self._leases(self.store.renew, leases)
        for lease in lost:
            logger.warning("run_tables %s: lost the lease of table %s", self.process_id, lease.table_id)
            self._forget(lease.table_id)

    async def scan(self) -> None:
        """Heartbeat; acquire unowned open tables up to the fair share, give one back when over it; queue the deals
        that are due at owned tables; give back owned tables that closed."""
        await self._leases(self.store.process_alive, self.process_id)
        rows = await self._database(open_tables, timezone.now())
        open_ids = [row.table_id for row in rows]
        processes = await self._leases(self.store.live_processes)
        owned_by_anyone = await self._leases(inbox.tables_owned, open_ids, self.lease_client)
        share = fair_share(len(open_ids), len(processes))
        open_set = set(open_ids)
        # Only open tables count against the share: a table closed (or deleted) while this process held its hand must
        # not keep it from claiming the open tables nobody owns.
        owned_open = sum(1 for table_id in self.tables if table_id in open_set)
        claimed = 0
        for table_id in tables_to_claim(open_ids, owned_open, share, owned_by_anyone):
            lease = await self._acquire(table_id)
            if lease is not None:
                self._start(lease)
                claimed += 1
        if not claimed and owned_open > share:
            spares = (owned for table_id, owned in self.tables.items() if table_id in open_set and owned.idle)
            spare = next(spares, None)
            if spare is not None:
                await self._give_back(spare)
        not_open = [table_id for table_id in self.tables if table_id not in open_set]
        existing = await self._database(tables_existing, not_open) if not_open else set()
        for table_id in not_open:
            owned = self.tables.get(table_id)
            if owned is None:  # dropped meanwhile (its lease lost)
                continue
            if table_id not in existing:  # its row was deleted: nothing of it can be written any more
                logger.warning("run_tables %s: table %s no longer exists; dropped", self.process_id, table_id)
                await self._give_back(owned)
            elif owned.idle:
                await self._give_back(owned)
            else:
                continue
            self._answer_after_reads_in_flight(table_id)
        for row in rows:
            dealing = self.tables.get(row.table_id)
            if (
                row.deal_due
                and dealing is not None
                and dealing.ready
                and not dealing.deal_queued
                and dealing.actor.live is None
            ):
                dealing.deal_queued = True
                dealing.queue.put_nowait(DealNext())

    async def _acquire(self, table_id: int) -> Lease | None:
        """Acquire the lease of ``table_id``; when the process is stopped meanwhile, the acquisition (which runs on in
        its thread) is released, not left to expire: the next owner need not wait for it."""
        acquiring = asyncio.ensure_future(self._leases(self.store.acquire, table_id, self.process_id))
        try:
            return await asyncio.shield(acquiring)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                lease = await acquiring
                if lease is not None:
                    await self._leases(self.store.release, lease)
            raise

    def _start(self, lease: Lease) -> None:
        """Hold the table from the moment its lease is acquired (renewed, counted, released at a stop), and start its
        task; the task creates the table's consumer group, then takes the table over."""
        actor = TableActor(lease.table_id, shuffler=self.shuffler, owner_epoch=lease.epoch, end_actions_later=True)
        owned = OwnedTable(lease, actor)
        self.tables[lease.table_id] = owned
        owned.task = asyncio.create_task(self._play(owned), name=f"table-{lease.table_id}")

    def _forget(self, table_id: int) -> None:
        owned = self.tables.pop(table_id, None)
        if owned is not None and owned.task is not None and owned.task is not asyncio.current_task():
            owned.task.cancel()

    async def _give_back(self, owned: OwnedTable) -> None:
        self._forget(owned.lease.table_id)
        await self._leases(self.store.release, owned.lease)

    def _answer_after_reads_in_flight(self, table_id: int) -> None:
        """Answer, in a task of its own, what the stream of ``table_id`` (closed or deleted, just given back) still
        holds: commands appended while this process held the lease, before it gave the table back. Nobody will own the
        table again, so without this their senders waited the whole reply time. The task first lets an inbox read in
        flight end (it may still deliver entries of the table, which then stay pending in this consumer's name)."""
        task = asyncio.create_task(self._answer_left_over_of_a_closed_table(table_id), name=f"closed-{table_id}")
        self.closing_answers.add(task)
        task.add_done_callback(self.closing_answers.discard)

    async def _answer_left_over_of_a_closed_table(self, table_id: int) -> None:
        await asyncio.sleep(READ_BLOCK_SECONDS + 0.3)
        try:
            stream = inbox.stream_key(table_id)
            # Entries no owner has read yet: into this consumer's pending list, where the claim below finds them.
            while await self.redis.xreadgroup(inbox.STREAM_GROUP, self.process_id, {stream: ">"}, count=100):
                pass
            await self._answer_left_over(table_id, functools.partial(self._closed_table_reply, table_id))
        except redis.ResponseError as error:
            if "NOGROUP" not in str(error):  # no group: the stream never had an owner, so it holds nothing unread
                raise
        except Exception:
            logger.exception(
                "run_tables %s: answering closed table %s's last messages failed", self.process_id, table_id
            )

    async def _closed_table_reply(self, table_id: int, message: inbox.InboxMessage) -> inbox.Reply:
        refused = await self._database(closed_table_refusal, table_id, message.user_id, message.message_type)
        return inbox.Reply(False, refused.code, refused.message, refused.details)

    async def shutdown(self) -> None:
        """Stop every table; cancel the hands in progress (nobody will finish them here); release the leases."""
        tables = list(self.tables.values())
        self.tables = {}
        for answering in list(self.closing_answers):
            answering.cancel()
        await self._wait_for_the_end_of(list(self.closing_answers))
        for owned in tables:
            if owned.task is not None:
                owned.task.cancel()
        await self._wait_for_the_end_of([owned.task for owned in tables if owned.task is not None])
        for owned in tables:
            try:
                hand_id = await self._database(table_hand_in_progress, owned.lease.table_id)
                if hand_id is not None and await self._leases(self.store.still_holds, owned.lease):
                    await self._database(functools.partial(hand_cancel, hand_id, reason=CRASH_REASON))
            except Exception:
                logger.exception("run_tables %s: table %s not stopped cleanly", self.process_id, owned.lease.table_id)
            with contextlib.suppress(Exception):
                await self._leases(self.store.release, owned.lease)
        with contextlib.suppress(Exception):
            await self._leases(self.store.process_gone, self.process_id)
        try:
            await asyncio.wait_for(self.redis.aclose(), STOP_WAIT_SECONDS)
        except TimeoutError:
            logger.error(
                "run_tables %s: the Redis client did not close within %.0f s", self.process_id, STOP_WAIT_SECONDS
            )
        self.lease_client.close()
        self.database_pool.shutdown(wait=True)
        self.lease_pool.shutdown(wait=True)

    # --- Reading the inboxes -----------------------------------------------------------------------------------

    async def _read(self, stop: asyncio.Event) -> None:
        """One ``XREADGROUP`` over the streams of every owned table that is ready; each entry to its table's queue."""
        while not stop.is_set():
            streams = {inbox.stream_key(table_id): ">" for table_id, owned in self.tables.items() if owned.ready}
            if not streams:
                await asyncio.sleep(0.1)
                continue
            try:
                result: Any = await self.redis.xreadgroup(
                    inbox.STREAM_GROUP,
                    self.process_id,
                    streams,  # type: ignore[arg-type]
                    count=100,
                    block=round(READ_BLOCK_SECONDS * 1000),
                )
            except redis.ResponseError as error:
                if "NOGROUP" in str(error):
                    for key in streams:  # a stream deleted under us (a flushed Redis): make its group again
                        with contextlib.suppress(redis.ResponseError):
                            await self.redis.xgroup_create(key, inbox.STREAM_GROUP, id="0", mkstream=True)
                else:
                    logger.exception("run_tables %s: reading the inboxes failed", self.process_id)
                    await asyncio.sleep(0.5)
                continue
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                # Redis away: keep trying (the leases expire meanwhile if it stays away; the fencing then refuses
                # this process's hand ends and starts, and the renewal drops the tables once Redis answers again).
                logger.exception("run_tables %s: reading the inboxes failed", self.process_id)
                await asyncio.sleep(0.5)
                continue
            for stream, entries in result or []:
                table_id = inbox.table_of_stream(stream)
                owned = self.tables.get(table_id)
                for entry_id, data in entries:
                    if owned is not None and data:
                        owned.queue.put_nowait(inbox.InboxMessage.decoded(table_id, entry_id, data))
                    # An entry for a table lost meanwhile stays pending: its next owner claims and answers it.

    # --- Playing one table -------------------------------------------------------------------------------------

    async def _play(self, owned: OwnedTable) -> None:
        table_id, lease = owned.lease.table_id, owned.lease
        started = time.monotonic()
        try:
            with contextlib.suppress(redis.ResponseError):  # BUSYGROUP: the group exists (the table had owners before)
                await self.redis.xgroup_create(inbox.stream_key(table_id), inbox.STREAM_GROUP, id="0", mkstream=True)
            cancelled = await self._database(table_take_over, table_id, lease.epoch)
        except OwnershipLost as stale:
            # The Redis epochs are behind the database's (Redis was flushed): move them on, and acquire afresh.
            logger.warning("run_tables %s: %s; the epoch moves on", self.process_id, stale)
            self._forget(table_id)
            with contextlib.suppress(Exception):
                await self._leases(self.lease_client.set, self.store.epoch_key(table_id), stale.current)
                await self._leases(self.store.release, lease)
            return
        except Exception:
            logger.exception("run_tables %s: taking table %s over failed; giving it up", self.process_id, table_id)
            self._forget(table_id)
            with contextlib.suppress(Exception):
                await self._leases(self.store.release, lease)
            return
        self.takeovers.append((table_id, cancelled, time.monotonic() - started))
        if cancelled is not None:
            logger.warning("run_tables %s: took table %s over, hand %s cancelled", self.process_id, table_id, cancelled)
        try:
            await self._answer_left_over(table_id)
        except Exception:  # the stream is not readable now: its entries stay pending, for this owner or the next
            logger.exception("run_tables %s: the left-over entries of table %s", self.process_id, table_id)
        owned.ready = True
        actor = owned.actor
        while True:
            item = await self._next(owned)
            owned.busy = True
            try:
                in_play = actor.live is not None
                if item is None and owned.deal_at is not None and owned.deal_at <= timezone.now():
                    item = DealNext()  # the pause after this table's last hand is over
                if isinstance(item, DealNext):
                    owned.deal_queued, owned.deal_at = False, None
                    await self._database(actor.handle, item, timezone.now())
                elif item is not None:
                    await self._answer(owned, item)
                    if actor.ending is not None:
                        # The player was answered as soon as their action was applied and published; the hand's
                        # durable end follows, before anything else reaches the table (a failure here is the hand's,
                        # not the answered message's: the table is given up and the takeover cancels the hand).
                        item = None
                        await self._database(actor.end_pending)
                due = actor.deadline()
                if due is not None and due <= timezone.now():
                    await self._database(actor.clock, timezone.now())
                if in_play and actor.live is None:
                    # The hand ended here: deal the next when its pause is over, without waiting for a claim scan (the
                    # hand end knows when, unless the product coordinates it after the commit: then the table says).
                    known, deal_at = actor.next_deal_take()
                    owned.deal_at = deal_at if known else await self._database(table_next_hand_at, table_id)
            except OwnershipLost:
                logger.warning("run_tables %s: table %s was taken over by another process", self.process_id, table_id)
                if isinstance(item, inbox.InboxMessage):
                    # Its hand went with the takeover (CASH-23); the new owner answers only what it claims itself. A
                    # connection report waits for no answer (the new owner's clock asks the sockets' presence).
                    with contextlib.suppress(Exception):
                        if item.message_type in CONNECTION_REPORTS:
                            await self._acknowledge(item)
                        else:
                            await self._reply(item, taken_over_reply())
                self._forget(table_id)
                return
            except Exception:
                # What the actor holds can no longer be trusted: give the table up; whoever acquires it next (this
                # process, a second later) takes it over and cancels the hand in progress (CASH-23).
                logger.exception("run_tables %s: table %s failed; giving it up", self.process_id, table_id)
                if isinstance(item, inbox.InboxMessage):
                    with contextlib.suppress(Exception):
                        await self._reply(
                            item,
                            inbox.Reply(False, SERVER_ERROR, "The table could not apply this; its hand is cancelled."),
                        )
                self._forget(table_id)
                with contextlib.suppress(Exception):
                    await self._leases(self.store.release, lease)
                return
            finally:
                owned.busy = False

    async def _next(self, owned: OwnedTable) -> inbox.InboxMessage | DealNext | None:
        """The next queued item, or None when the acting player's deadline (or a scan's length) comes first."""
        moments = [moment for moment in (owned.actor.deadline(), owned.deal_at) if moment is not None]
        due = min(moments) if moments else None
        timeout = self.scan_seconds if due is None else (due - timezone.now()).total_seconds()
        if timeout <= 0 and owned.queue.empty():
            return None
        try:
            return await asyncio.wait_for(owned.queue.get(), max(0.0, timeout))
        except TimeoutError:
            return None

    async def _answer(self, owned: OwnedTable, message: inbox.InboxMessage) -> None:
        """Apply one inbox message and answer it (an expired one is dropped: its sender has given up)."""
        if message.expired():
            await self._acknowledge(message)
            return
        actor = owned.actor
        if message.message_type in commands.OWNER_COMMANDS or message.message_type in CONNECTION_REPORTS:
            command = TableCommand(
                message.user_id,
                message.message_type,
                functools.partial(
                    command_run, owned.lease.table_id, message.user_id, message.message_type, message.fields
                ),
            )
            done: Outcome = await self._database(actor.handle, command, timezone.now())
            if message.message_type in CONNECTION_REPORTS:
                await self._acknowledge(message)  # a report: its sender waits for no answer
            elif done.command_refused is not None:
                refused = done.command_refused
                assert isinstance(refused, commands.CommandRefused)
                await self._reply(message, inbox.Reply(False, refused.code, refused.message, refused.details))
            else:
                await self._reply(message, inbox.Reply(True))
            return
        if message.message_type != "act":
            await self._reply(
                message, inbox.Reply(False, "unknown_type", f"unknown message type {message.message_type!r}")
            )
            return
        if actor.live is None and not await self._database(user_seated, owned.lease.table_id, message.user_id):
            # The durable path's first refusal (no seat here) comes before "no hand in play"; the actor holds no seats
            # between hands, so it is read here.
            await self._reply(message, refusal(NotSeated("You do not have a seat at this table.")))
            return
        fields = message.fields
        action = PlayerAction(message.user_id, fields.get("action", ""), fields.get("amount"), fields.get("hand_id"))
        if actor.acts_in_memory(action):
            # On the loop: an action in a hand held in memory waits for no database thread (those carry the hand
            # boundaries of every table this process owns, and an action queued behind them waited for all of them).
            outcome = await actor.act_in_memory(
                action, timezone.now(), self.log_append, inbox.answer_to(message, inbox.Reply(True))
            )
            if outcome.answered:
                return  # the reply and the entry's XACK went out with the action's events
        else:
            outcome = await self._database(actor.handle, action, timezone.now())
        await self._reply(message, inbox.Reply(True) if outcome.refused is None else refusal(outcome.refused))

    async def _reply(self, message: inbox.InboxMessage, reply: inbox.Reply) -> None:
        key = inbox.reply_key(message.request_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.rpush(key, reply.encoded())
            pipe.expire(key, inbox.REPLY_KEEP_SECONDS)
            pipe.xack(inbox.stream_key(message.table_id), inbox.STREAM_GROUP, message.entry_id)
            await pipe.execute()

    async def _acknowledge(self, message: inbox.InboxMessage) -> None:
        await self.redis.xack(inbox.stream_key(message.table_id), inbox.STREAM_GROUP, message.entry_id)

    async def _answer_left_over(
        self, table_id: int, reply_for: Callable[[inbox.InboxMessage], Awaitable[inbox.Reply]] | None = None
    ) -> None:
        """Claim the entries a previous owner read and never acknowledged, and refuse those whose sender still waits
        (with ``reply_for`` the message's refusal; by default :func:`taken_over_reply`: whatever they did went with
        the hand the takeover cancelled). A report, whose sender waits for nothing, is acknowledged unanswered."""
        stream, start = inbox.stream_key(table_id), "0-0"
        while True:
            answer = await self.redis.xautoclaim(
                stream, inbox.STREAM_GROUP, self.process_id, min_idle_time=0, start_id=start, count=100
            )
            start, entries = answer[0], answer[1]
            for entry_id, data in entries:
                if not data:
                    await self.redis.xack(stream, inbox.STREAM_GROUP, entry_id)
                    continue
                message = inbox.InboxMessage.decoded(table_id, entry_id, data)
                if message.expired() or message.message_type in CONNECTION_REPORTS:
                    await self._acknowledge(message)
                else:
                    await self._reply(message, taken_over_reply() if reply_for is None else await reply_for(message))
            if start in (b"0-0", "0-0"):
                return


def command_run(table_id: int, user_id: int | None, message_type: str, fields: dict[str, Any]) -> Any:
    """Run a table command received by the owner with its durable service, as the web process would without table
    actors (``commands.execute_durably``; a connection change with ``games.runtime.clocks``, whose return says whether
    it changed anything); refusals raised as ``CommandRefused``."""
    from django.contrib.auth import get_user_model

    from games.runtime.clocks import connection_report_may_change, player_connection_lost, player_connection_restored
    from games.runtime.protocol import ClientMessage

    if message_type in CONNECTION_REPORTS:
        restored = message_type == CONNECTION_RESTORED
        # Every socket opened reports its player connected, nearly always already so: one read, not the locked
        # transaction of the report's service, says so (six of them a game formed at a Sit & Go's six tables).
        if user_id is None or not connection_report_may_change(table_id, user_id, restored=restored):
            return False
        reported = get_user_model().objects.get(pk=user_id)
        report = player_connection_restored if restored else player_connection_lost
        return commands.service_call(report, reported, Table.objects.get(pk=table_id))
    user = get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None
    table = Table.objects.get(pk=table_id)
    if user is None:
        raise commands.refusal_from(NotSeated("You do not have a seat at this table."))
    return commands.execute_durably(user, table, ClientMessage(message_type, dict(fields)))


def closed_table_refusal(table_id: int, user_id: int | None, message_type: str) -> commands.CommandRefused:
    """The refusal a command sent to table ``table_id`` gets now that it has closed (:func:`commands.closed_table_
    refusal`, as a socket would answer it), or a plain ``table_closed`` when its row is gone."""
    from django.contrib.auth import get_user_model

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return commands.CommandRefused(commands.TABLE_CLOSED, commands.TABLE_CLOSED_MESSAGE)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None
    return commands.closed_table_refusal(table, user, message_type)


def taken_over_reply() -> inbox.Reply:
    """The answer to a message whose table changed owner before it was applied: whatever it did went with the hand
    the takeover cancelled."""
    return inbox.Reply(
        False,
        TAKEN_OVER,
        "The table's server changed while your action was on its way. Act again if it is still your turn.",
    )


def refusal(error: TableError) -> inbox.Reply:
    """The answer to a refused message: the code, message and details ``commands.refusal_from`` gives the durable
    path's refusal, so a client cannot tell which path refused it."""
    from games.runtime.commands import refusal_from

    refused = refusal_from(error)
    return inbox.Reply(False, refused.code, refused.message, refused.details)


def _with_fresh_connection_on_error(function: Callable[..., T], *arguments: Any) -> T:
    """Run ``function`` in a pool thread; after a failure the thread's database connection is closed, so the next job
    opens a fresh one (a connection broken by a database restart is not reused)."""
    try:
        return function(*arguments)
    except (OwnershipLost, TableError):
        raise
    except Exception:
        connection.close()
        raise
