"""``manage.py run_ticker``: advance persisted deadlines forever (one of the site's processes)."""

import signal
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from poker_site.core.garbage_collection import garbage_collection_tune
from poker_site.core.ticker import handlers, tick_once


class Command(BaseCommand):
    help = "Advance every persisted deadline (action clocks, timebanks, sit-out limits, blind levels, breaks)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=0.25, help="seconds between ticks")
        parser.add_argument("--once", action="store_true", help="tick once and exit")

    def handle(self, *args: Any, interval: float, once: bool, **options: Any) -> None:
        self.running = True
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        self.stdout.write(f"ticker running with handlers: {', '.join(sorted(handlers)) or '(none yet)'}")
        garbage_collection_tune()  # a long-running process like the web and runtime ones: started, so freeze
        while self.running:
            close_old_connections()
            tick_once()
            if once:
                break
            time.sleep(interval)
        self.stdout.write("ticker stopped")

    def _stop(self, _signal_number: int, _frame: object) -> None:
        self.running = False
