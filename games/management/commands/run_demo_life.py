"""``manage.py run_demo_life``: keep the demo site alive with bots (see ``games.bots.demo_life``).

    python manage.py run_demo_life --base-url http://127.0.0.1:8000 [--duration SECONDS]

Started by ``make run`` while ``DEMO_BOTS`` is on (the launcher sets it; ``DEMO_BOTS=false make run`` starts none).
Runs until stopped (SIGTERM, Ctrl-C) or for ``--duration`` seconds; only loopback sites unless ``--allow-remote``.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections

from games.bots.client import BotSettings
from games.bots.demo_life import Assignment, DemoLife, demo_life_plan, demo_life_run
from games.management.commands.run_bots import LOOPBACK_HOSTS

FOREVER_SECONDS = 10 * 365 * 24 * 3600.0


class Command(BaseCommand):
    help = "Keep the demo site alive: bots at cash tables, in Sit & Gos, scheduled tournaments and HexaPro games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")
        parser.add_argument("--duration", type=float, default=None, help="seconds to run (default: until stopped)")
        parser.add_argument("--allow-remote", action="store_true", help="allow a base URL that is not loopback")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEMO_BOTS:
            raise CommandError("DEMO_BOTS is off: set DEMO_BOTS=true to run the demo bots.")
        base_url = str(options["base_url"]).rstrip("/")
        if (urlsplit(base_url).hostname or "") not in LOOPBACK_HOSTS and not options["allow_remote"]:
            raise CommandError(f"{base_url} is not a loopback address; pass --allow-remote to play elsewhere")
        duration = options["duration"]
        if duration is not None and not 0 < duration <= FOREVER_SECONDS:
            raise CommandError("--duration must be a positive number of seconds")
        life = DemoLife()

        def planner(busy: dict[str, Assignment]) -> list[Assignment]:
            # Runs in a worker thread: its connection is closed after each round, so none is held between rounds.
            close_old_connections()
            try:
                return demo_life_plan(life, busy)
            finally:
                close_old_connections()

        self.stdout.write(f"Demo life: bots keep {base_url} going.")
        started = time.monotonic()
        stats = asyncio.run(
            demo_life_run(
                planner,
                BotSettings(base_url=base_url, think_seconds=(0.8, 2.5)),
                deadline=started + (duration or FOREVER_SECONDS),
            )
        )
        self.stdout.write(json.dumps(stats.summary(), sort_keys=True))
