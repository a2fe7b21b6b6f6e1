"""``manage.py hands_recover``: cancel every hand still in progress, as after a server crash (CASH-24, GEN-04).

The launcher runs it when a web process dies (the ticker does the same itself when it starts). Each cancelled hand's
stacks go back to their start-of-hand amounts; no money moves (``games.runtime.recovery``). Prints the ids it
cancelled; running it twice cancels nothing the second time.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import hands_recover_unfinished


class Command(BaseCommand):
    help = "Cancel every hand in progress (a server crash interrupted them), restoring start-of-hand stacks."

    def handle(self, *args: Any, **options: Any) -> None:
        cancelled = hands_recover_unfinished()
        self.stdout.write(f"cancelled {len(cancelled)} unfinished hand(s): {cancelled}")
