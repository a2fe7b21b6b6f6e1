"""The client CPU of the Redis commands of one table action, with redis-py's own parser and with hiredis (issue 27).

    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python benchmarks/bench_redis_parser.py [--actions 3000] [--rounds 3]

One "action" is the Redis traffic a player's action causes with table actors on, in the order it happens: the web
process appends it to the table's stream (``XADD``) and waits for the answer (``BLPOP``); the owner reads it
(``XREADGROUP``), answers (``RPUSH`` + ``EXPIRE``, pipelined), publishes the applied events (``PUBLISH`` of a broadcast
of the size the bots receive) and acknowledges it (``XACK``). Both parsers alternate in each round, on blocking
clients (the owner, the thread path) and on asyncio clients (a table socket's loop), and each is timed with the
process's CPU time (``time.process_time``), which other work on a shared machine inflates less than wall time.
Keys live under their own prefix in REDIS_URL's database and are deleted at the end. Exit status 1 when hiredis is
not installed (it is a dependency: ``redis[hiredis]``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import time
import uuid
from typing import Any

import redis
import redis.asyncio as redis_asyncio
from redis._parsers import _AsyncHiredisParser, _AsyncRESP3Parser, _HiredisParser, _RESP3Parser
from redis.utils import HIREDIS_AVAILABLE

BROADCAST = json.dumps(
    {
        "type": "events",
        "table_id": 17,
        "events": [
            {"sequence": 400 + index, "kind": "action_taken", "payload": {"seat": 3, "action": "call", "amount": 20}}
            for index in range(3)
        ],
    }
)
FIELDS = {"request_id": "", "user_id": "42", "type": "act", "fields": '{"action":"call"}', "expires_at": "0"}


def entry_ids(read: Any) -> list[Any]:
    """The ids of the entries an ``XREADGROUP`` returned: RESP3 answers ``{stream: [[entry, ...]]}``, RESP2
    ``[[stream, [entry, ...]]]``."""
    if isinstance(read, dict):
        batches = [entries for lists in read.values() for entries in lists]
    else:
        batches = [entries for _, entries in (read or [])]
    return [entry[0] for entries in batches for entry in entries]


def blocking_actions(parser: type, url: str, prefix: str, actions: int) -> float:
    """CPU seconds of ``actions`` actions' commands on a blocking client with ``parser``."""
    client = redis.Redis(connection_pool=redis.ConnectionPool.from_url(url, protocol=3, parser_class=parser))
    stream = f"{prefix}:stream"
    with contextlib.suppress(redis.ResponseError):  # the group exists from the previous round
        client.xgroup_create(stream, "owners", id="0", mkstream=True)
    started = time.process_time()
    for _ in range(actions):
        request = uuid.uuid4().hex
        client.xadd(stream, {**FIELDS, "request_id": request}, maxlen=1000, approximate=True)
        read = client.xreadgroup("owners", "owner", {stream: ">"}, count=10)
        pipeline = client.pipeline(transaction=False)
        pipeline.rpush(f"{prefix}:reply:{request}", '{"ok":true}').expire(f"{prefix}:reply:{request}", 30)
        pipeline.execute()
        client.publish(f"{prefix}:table", BROADCAST)
        client.xack(stream, "owners", *entry_ids(read))
        client.blpop([f"{prefix}:reply:{request}"], timeout=1)
    spent = time.process_time() - started
    client.close()
    return spent


async def loop_actions(parser: type, url: str, prefix: str, actions: int) -> float:
    """CPU seconds of the web process's part (``XADD`` + ``BLPOP``) and the owner's on an asyncio client."""
    client = redis_asyncio.Redis(
        connection_pool=redis_asyncio.ConnectionPool.from_url(url, protocol=3, parser_class=parser)
    )
    stream = f"{prefix}:loop-stream"
    with contextlib.suppress(redis.ResponseError):  # the group exists from the previous round
        await client.xgroup_create(stream, "owners", id="0", mkstream=True)
    started = time.process_time()
    for _ in range(actions):
        request = uuid.uuid4().hex
        await client.xadd(stream, {**FIELDS, "request_id": request}, maxlen=1000, approximate=True)
        read = await client.xreadgroup("owners", "owner", {stream: ">"}, count=10)
        await client.rpush(f"{prefix}:reply:{request}", '{"ok":true}')
        await client.publish(f"{prefix}:table", BROADCAST)
        await client.xack(stream, "owners", *entry_ids(read))
        await client.blpop([f"{prefix}:reply:{request}"], timeout=1)
    spent = time.process_time() - started
    await client.aclose()
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    if not url:
        print("REDIS_URL is needed", file=sys.stderr)
        return 2
    if not HIREDIS_AVAILABLE:
        print("hiredis is not installed (pip install 'redis[hiredis]')", file=sys.stderr)
        return 1
    prefix = f"bench-redis-parser-{os.getpid()}"
    kinds: dict[str, tuple[type, type]] = {
        "redis-py": (_RESP3Parser, _AsyncRESP3Parser),
        "hiredis": (_HiredisParser, _AsyncHiredisParser),
    }
    spent: dict[str, dict[str, list[float]]] = {name: {"blocking": [], "loop": []} for name in kinds}
    for _ in range(arguments.rounds):
        for name, (blocking_parser, loop_parser) in kinds.items():  # alternate: the same conditions for both
            spent[name]["blocking"].append(blocking_actions(blocking_parser, url, prefix, arguments.actions))
            spent[name]["loop"].append(asyncio.run(loop_actions(loop_parser, url, prefix, arguments.actions)))
    cleanup = redis.Redis.from_url(url)
    keys: list[Any] = list(cleanup.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        cleanup.delete(*keys)
    cleanup.close()
    report: dict[str, Any] = {"actions_per_round": arguments.actions, "rounds": arguments.rounds}
    for client_kind, commands_per_action in (("blocking", 7), ("loop", 6)):
        microseconds = {
            name: round(min(spent[name][client_kind]) / arguments.actions * 1e6, 1) for name in kinds
        }  # the least disturbed round of each
        report[client_kind] = {
            "cpu_us_per_action": microseconds,
            "cpu_us_per_command": {name: round(value / commands_per_action, 1) for name, value in microseconds.items()},
            "hiredis_over_redis_py": round(microseconds["hiredis"] / microseconds["redis-py"], 2),
        }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
