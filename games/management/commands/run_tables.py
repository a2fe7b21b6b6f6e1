"""``manage.py run_tables``: own and play tables as a table-actor runtime process (issue 27; ``games.runtime.owner``).

One of the site's processes when ``TABLE_ACTORS`` is on (the launcher starts ``TABLE_PROCESSES`` of them). SIGTERM or
SIGINT stops it cleanly: its hands in progress are cancelled and its leases released. SIGKILL leaves its leases to
expire; another ``run_tables`` then takes its tables over.
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games.runtime.owner import TableOwner, process_name
from poker_site.core.garbage_collection import garbage_collection_tune
from poker_site.core.thread_switching import thread_switching_tune


class Command(BaseCommand):
    help = "Own tables by Redis leases and play them in memory (table actors, TABLE_ACTORS)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--address",
            default=None,
            help="the address this process is known by in the leases (default: the host name)",
        )
        parser.add_argument("--scan-seconds", type=float, default=1.0, help="seconds between claim scans")
        parser.add_argument("--database-threads", type=int, default=4, help="threads for the database work")

    def handle(
        self, *args: Any, address: str | None, scan_seconds: float, database_threads: int, **options: Any
    ) -> None:
        if not settings.TABLE_ACTORS:
            self.stderr.write("TABLE_ACTORS is off: the tables are played by the per-action path; nothing to run.")
            return
        owner = TableOwner(process_name(address), scan_seconds=scan_seconds, database_threads=database_threads)
        # Start-up is over: freeze it and collect rarely, as the web process does (poker_site.core.garbage_collection);
        # a full collection here would pause every table this process owns at once.
        garbage_collection_tune()
        # The owner's event loop (every owned table's messages) shares the interpreter with its database threads
        # (hand starts and ends, connection reports): hand it over every 0.5 ms, as the web process does
        # (poker_site.core.thread_switching), or a thread busy in the ORM holds every table off 5 ms at a time.
        thread_switching_tune()
        self.stdout.write(f"run_tables {owner.process_id} running")
        self.stdout.flush()
        asyncio.run(self._run(owner))
        self.stdout.write(f"run_tables {owner.process_id} stopped")

    async def _run(self, owner: TableOwner) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stop.set)
        await owner.run(stop)
