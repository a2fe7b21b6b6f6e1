"""Every Redis client of the site's processes (the shared blocking client, the table inbox's waiting client, an event
loop's asyncio client) parses replies with hiredis, redis-py's C parser (the ``redis[hiredis]`` dependency): the
runtime and the web processes spend a tenth or more of their CPU on Redis replies (issue 27), and redis-py's own
parser takes a third more CPU per command than hiredis's (``benchmarks/bench_redis_parser.py``)."""

from __future__ import annotations

import asyncio

import redis.utils
from redis._parsers import _AsyncHiredisParser, _HiredisParser

from games.runtime.inbox import waiting_client
from poker_site.core.redis_clients import blocking_client, event_loop_client


def test_hiredis_is_installed_and_redis_py_uses_it() -> None:
    assert redis.utils.HIREDIS_AVAILABLE


def test_the_blocking_clients_parse_replies_with_hiredis() -> None:
    for client in (blocking_client(), waiting_client()):
        connection = client.connection_pool.get_connection()
        try:
            assert isinstance(connection._parser, _HiredisParser)
        finally:
            client.connection_pool.release(connection)


def test_an_event_loops_client_parses_replies_with_hiredis() -> None:
    async def parser_of_a_connection() -> object:
        client = event_loop_client()
        connection = await client.connection_pool.get_connection()
        try:
            return connection._parser
        finally:
            await client.connection_pool.release(connection)
            await client.aclose()

    assert isinstance(asyncio.run(parser_of_a_connection()), _AsyncHiredisParser)
