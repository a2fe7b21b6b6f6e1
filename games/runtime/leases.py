"""Table ownership by lease in Redis (docs/runtime-design.md §2.3, issue 27).

A table is owned by at most one runtime process at a time. The owner holds a lease: the Redis key
``<prefix>:table:<id>:owner`` set to the owner's id with an expiry. The owner renews all its leases every few seconds;
an owner that dies stops renewing, its leases expire, and another process acquires the tables and takes them over.

Every acquisition increments the table's epoch (``<prefix>:table:<id>:epoch``) and hands it to the new owner as a
fencing token: a durable write made on behalf of an owner (a hand's end) carries the epoch and is refused when a later
owner has acquired the table since, so an owner that was paused past its lease (a long garbage collection, a stopped
virtual machine) and wakes up cannot commit over its successor's work.

Each step is one atomic Redis script: acquisition sets the owner only if nobody owns the table and increments the
epoch in the same step; renewal and release act only on leases whose key still names the caller. Runtime processes
also announce themselves in a sorted set of heartbeats (:meth:`LeaseStore.process_alive`), from which each process
computes its fair share of the open tables (:func:`fair_share`).

Nothing here knows about products or the database: it is the lease primitive the table owners are built on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_LEASE_MILLISECONDS = 10_000
"""How long a lease lasts without renewal: the longest a dead owner's tables stay unowned."""

RENEW_EVERY_MILLISECONDS = 3_000
"""How often an owner renews its leases: three renewals fit in a lease, so one late renewal does not lose a table."""

_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false
"""

_RENEW = """
local renewed = {}
for index, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    renewed[#renewed + 1] = index
  end
end
return renewed
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def owner_key(prefix: str, table_id: int) -> str:
    """The key naming table ``table_id``'s owner under ``prefix`` while its lease lasts (absent: nobody owns it)."""
    return f"{prefix}:table:{int(table_id)}:owner"


def epoch_key(prefix: str, table_id: int) -> str:
    """The key holding the epoch of table ``table_id``'s latest acquisition under ``prefix`` (its fencing token)."""
    return f"{prefix}:table:{int(table_id)}:epoch"


@dataclass(frozen=True)
class Lease:
    """A table owned by ``owner`` since the acquisition that gave it ``epoch`` (the fencing token)."""

    table_id: int
    owner: str
    epoch: int


class LeaseStore:
    """Leases and process heartbeats under one key prefix, through a blocking redis-py client.

    ``lease_milliseconds`` is the lease's length; the caller renews every :data:`RENEW_EVERY_MILLISECONDS` or so.
    """

    def __init__(self, client: Any, prefix: str, *, lease_milliseconds: int = DEFAULT_LEASE_MILLISECONDS) -> None:
        if lease_milliseconds <= 0:
            raise ValueError("a lease must last a positive number of milliseconds")
        self.client = client
        self.prefix = prefix
        self.lease_milliseconds = lease_milliseconds
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    # --- Keys --------------------------------------------------------------------------------------------------

    def owner_key(self, table_id: int) -> str:
        return owner_key(self.prefix, table_id)

    def epoch_key(self, table_id: int) -> str:
        return epoch_key(self.prefix, table_id)

    @property
    def processes_key(self) -> str:
        return f"{self.prefix}:runtime-processes"

    # --- Leases ------------------------------------------------------------------------------------------------

    def acquire(self, table_id: int, owner: str) -> Lease | None:
        """Make ``owner`` the table's owner if nobody owns it; the new lease, or None when another process owns it
        (a current owner asking again gets None too: it already holds its lease)."""
        epoch = self._acquire(
            keys=[self.owner_key(table_id), self.epoch_key(table_id)], args=[owner, self.lease_milliseconds]
        )
        if epoch is None:
            return None
        return Lease(table_id=int(table_id), owner=owner, epoch=int(epoch))

    def renew(self, leases: Sequence[Lease]) -> tuple[list[Lease], list[Lease]]:
        """Extend every lease still held by its owner; (renewed, lost). All leases must have one owner (a process
        renews its own). A lost lease means another process may own the table now: its owner must stop at once."""
        if not leases:
            return [], []
        owners = {lease.owner for lease in leases}
        if len(owners) != 1:
            raise ValueError("a process renews only its own leases")
        renewed_positions = self._renew(
            keys=[self.owner_key(lease.table_id) for lease in leases], args=[owners.pop(), self.lease_milliseconds]
        )
        kept = {int(position) - 1 for position in renewed_positions}
        renewed = [lease for index, lease in enumerate(leases) if index in kept]
        lost = [lease for index, lease in enumerate(leases) if index not in kept]
        return renewed, lost

    def release(self, lease: Lease) -> bool:
        """Give the table up (between hands, a process handing tables back); False if the lease was already lost."""
        return bool(self._release(keys=[self.owner_key(lease.table_id)], args=[lease.owner]))

    def owner_of(self, table_id: int) -> str | None:
        """The process that owns the table now, or None."""
        owner = self.client.get(self.owner_key(table_id))
        return None if owner is None else owner.decode() if isinstance(owner, bytes) else str(owner)

    def current_epoch(self, table_id: int) -> int:
        """The epoch of the table's latest acquisition (0 if never owned): a durable write carrying an older epoch
        comes from an owner that has since lost the table."""
        epoch = self.client.get(self.epoch_key(table_id))
        return 0 if epoch is None else int(epoch)

    def still_holds(self, lease: Lease) -> bool:
        """Whether ``lease`` is still the table's latest acquisition and its owner still holds it."""
        return self.owner_of(lease.table_id) == lease.owner and self.current_epoch(lease.table_id) == lease.epoch

    # --- Runtime processes -------------------------------------------------------------------------------------

    def process_alive(self, process_id: str, *, now: float | None = None) -> None:
        """Announce ``process_id`` as alive until one lease length from ``now`` (seconds since the epoch)."""
        moment = time.time() if now is None else now
        self.client.zadd(self.processes_key, {process_id: moment + self.lease_milliseconds / 1000})

    def process_gone(self, process_id: str) -> None:
        """Remove a process that stops cleanly (its leases are released by the caller)."""
        self.client.zrem(self.processes_key, process_id)

    def live_processes(self, *, now: float | None = None) -> list[str]:
        """The processes whose heartbeat has not expired, sorted; expired entries are removed on the way."""
        moment = time.time() if now is None else now
        self.client.zremrangebyscore(self.processes_key, "-inf", f"({moment}")
        return sorted(
            member.decode() if isinstance(member, bytes) else str(member)
            for member in self.client.zrangebyscore(self.processes_key, moment, "+inf")
        )


def fair_share(open_tables: int, live_processes: int) -> int:
    """How many tables one of ``live_processes`` processes should own: the ceiling of an even split, so that the
    processes together can own every open table."""
    if open_tables < 0 or live_processes < 0:
        raise ValueError("counts cannot be negative")
    if open_tables == 0:
        return 0
    return math.ceil(open_tables / max(live_processes, 1))


def tables_to_claim(
    open_table_ids: Iterable[int], owned_by_me: int, share: int, owned_by_anyone: Iterable[int]
) -> list[int]:
    """The unowned tables a process should try to acquire now: up to its ``share`` minus what it owns, lowest ids
    first (every process scans in the same order, so two processes rarely race for the same table)."""
    taken = set(owned_by_anyone)
    room = max(0, share - owned_by_me)
    return sorted(table_id for table_id in set(open_table_ids) if table_id not in taken)[:room]


__all__ = [
    "DEFAULT_LEASE_MILLISECONDS",
    "RENEW_EVERY_MILLISECONDS",
    "Lease",
    "LeaseStore",
    "fair_share",
    "tables_to_claim",
]
