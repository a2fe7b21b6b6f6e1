"""Table ownership by lease (issue 27, docs/runtime-design.md §2.3): one owner at a time, renewed only by its owner,
taken over after the owner dies, and fenced by an epoch that every acquisition increments. Against this run's Redis."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from games.runtime.leases import Lease, LeaseStore, fair_share, tables_to_claim


@pytest.fixture
def client() -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(settings.REDIS_URL)
    yield connection
    connection.close()


@pytest.fixture
def prefix(client: redis.Redis) -> Iterator[str]:
    name = f"{settings.REDIS_KEY_PREFIX}:leases-{uuid.uuid4().hex[:8]}"
    yield name
    keys = list(client.scan_iter(match=f"{name}:*"))
    if keys:
        client.delete(*keys)


def test_only_one_process_acquires_a_table_and_each_acquisition_gets_a_new_epoch(
    client: redis.Redis, prefix: str
) -> None:
    store = LeaseStore(client, prefix)
    first = store.acquire(7, "process-a")
    assert first == Lease(table_id=7, owner="process-a", epoch=1)
    assert store.acquire(7, "process-b") is None
    assert store.acquire(7, "process-a") is None  # an owner holds its lease already; asking again changes nothing
    assert store.owner_of(7) == "process-a"

    assert store.release(first)
    second = store.acquire(7, "process-b")
    assert second == Lease(table_id=7, owner="process-b", epoch=2)
    assert not store.still_holds(first)
    assert store.still_holds(second)


def test_an_owner_renews_only_what_it_still_holds_and_learns_which_tables_it_lost(
    client: redis.Redis, prefix: str
) -> None:
    store = LeaseStore(client, prefix)
    kept = store.acquire(1, "process-a")
    lost = store.acquire(2, "process-a")
    assert kept is not None
    assert lost is not None
    client.delete(store.owner_key(2))  # the lease of table 2 expired...
    assert store.acquire(2, "process-b") is not None  # ...and another process took the table

    renewed, gone = store.renew([kept, lost])
    assert renewed == [kept]
    assert gone == [lost]
    assert store.owner_of(2) == "process-b"  # the renewal did not take the table back
    assert not store.release(lost)  # nor can the old owner release its successor's lease
    with pytest.raises(ValueError):
        store.renew([kept, Lease(table_id=3, owner="process-b", epoch=1)])


def test_a_renewed_lease_outlives_its_first_expiry_and_an_unrenewed_one_expires(
    client: redis.Redis, prefix: str
) -> None:
    store = LeaseStore(client, prefix, lease_milliseconds=60_000)
    lease = store.acquire(5, "process-a")
    assert lease is not None
    client.pexpire(store.owner_key(5), 50)  # as if the lease were about to run out
    store.renew([lease])
    assert client.pttl(store.owner_key(5)) > 50_000

    short = LeaseStore(client, prefix, lease_milliseconds=200)
    assert short.acquire(6, "process-a") is not None
    deadline = time.monotonic() + 10
    while short.acquire(6, "process-b") is None:
        assert time.monotonic() < deadline, "the lease never expired"
        time.sleep(0.05)
    assert short.owner_of(6) == "process-b"
    assert short.current_epoch(6) == 2


OWNER_PROCESS = """
import sys, time, redis
sys.path.insert(0, {root!r})
from games.runtime.leases import LeaseStore
store = LeaseStore(redis.Redis.from_url({url!r}), {prefix!r}, lease_milliseconds=1500)
leases = [store.acquire(table, "doomed") for table in range(1, 21)]
store.process_alive("doomed")
print("owned", sum(lease is not None for lease in leases), flush=True)
while True:
    store.renew([lease for lease in leases if lease is not None])
    store.process_alive("doomed")
    time.sleep(0.3)
"""


def test_the_tables_of_a_killed_owner_are_taken_over_within_the_lease(client: redis.Redis, prefix: str) -> None:
    """Another process owns every table of an owner killed with SIGKILL within one lease length (plus the time to
    notice), and each takeover carries a later epoch than the dead owner's (issue 27: takeover within 10 s)."""
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER_PROCESS.format(root=root, url=settings.REDIS_URL, prefix=prefix)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert owner.stdout is not None
        assert owner.stdout.readline().strip() == "owned 20"
        store = LeaseStore(client, prefix, lease_milliseconds=1500)
        assert store.live_processes() == ["doomed"]
        assert all(store.acquire(table, "survivor") is None for table in range(1, 21))
        owner.kill()
        owner.wait(10)
        killed_at = time.monotonic()

        taken: dict[int, Lease] = {}
        while len(taken) < 20:
            assert time.monotonic() - killed_at < 10, f"only {len(taken)} of 20 tables taken over within 10 s"
            for table in range(1, 21):
                if table not in taken and (lease := store.acquire(table, "survivor")) is not None:
                    taken[table] = lease
            time.sleep(0.05)
        assert all(lease.epoch == 2 for lease in taken.values())
        while store.live_processes():  # the dead process's heartbeat expires like its leases
            assert time.monotonic() - killed_at < 10, "the killed process is still listed as alive after 10 s"
            time.sleep(0.05)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait(10)


def test_each_process_claims_its_fair_share_of_unowned_tables_lowest_first() -> None:
    assert fair_share(20, 2) == 10
    assert fair_share(21, 2) == 11
    assert fair_share(5, 0) == 5  # the first process to start takes everything
    assert fair_share(0, 3) == 0
    assert tables_to_claim(range(1, 11), owned_by_me=3, share=5, owned_by_anyone=[1, 2, 3, 4]) == [5, 6]
    assert tables_to_claim(range(1, 4), owned_by_me=5, share=5, owned_by_anyone=[]) == []
    with pytest.raises(ValueError):
        fair_share(-1, 1)
